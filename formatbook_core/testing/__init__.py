"""A reusable contract test-suite for format plugins.

Every format, built-in or third-party, must keep the promises of ARCHITECTURE.md ("The format
definition"). This module checks them on the format's own sample documents and on
garbage. Use it from your plugin's tests::

    from formatbook_core.testing import FormatContract

    class TestTomlContract(FormatContract):
        format = TomlFormat()
        # samples = (...)        # default: format.samples
        # schema, options        # passed to every call (default: None, {})

pytest collects the subclass (its name starts with ``Test``) and runs every ``test_*``
method, parametrized over the samples and the garbage inputs. ``make_contract(fmt)`` builds
such a class for a format object; the ``check_*`` functions are plain functions raising
``AssertionError``, usable from any test runner. For integrations,
:mod:`formatbook_core.testing.llm_server` is a scripted OpenAI-compatible server on
127.0.0.1 (what formatbook's own ask tests and offline examples talk to).

What is checked (each rule of the format definition):

* protocol: ``name`` (lower case), ``aliases``, ``mime_types``, ``scope_kind``; the methods
  accept ``schema`` and ``**options``; ``isinstance(fmt, FormatDefinition)``.
* garbage (empty, whitespace, binary, lone surrogates, a few MB, nesting 100,000 deep,
  random and mutated text from hypothesis, and the plugin's own ``attack_inputs``): ``is_valid``,
  ``can_be_valid``, ``validate``, ``analyze``, ``extract_values``, ``locate`` and the
  checker's ``feed``/``finish`` never raise; ``heal`` raises only ``HealError`` (and
  ``extract_scope`` only ``ScopeNotFound``). Results have the documented types and spans
  lie inside the text. The answers agree with each other: a valid text is accepted by
  ``can_be_valid`` and by both checkers and heals to itself with no repairs; ``analyze``
  and ``validate`` report violations exactly when ``is_valid`` is false; the strict
  checker's ``finish`` is truthy exactly when ``is_valid`` is; once a checker answers
  falsy it stays falsy; whatever ``heal`` repairs the relaxed checker accepts (it follows
  the grammar heal accepts); when ``heal`` succeeds (without a schema) its output is valid
  and healing it again changes nothing (idempotence).
* samples: ``is_valid`` is true; the strict and the relaxed checker, fed one character at
  a time, answer truthy for every character and at ``finish``; ``can_be_valid`` is true on
  a sample of prefixes; ``heal`` returns the sample unchanged with no repairs; healing
  mangled variants (truncated, trailing comma, quotes swapped...) is idempotent;
  ``extract_values`` gives ``list[str]`` without whitespace-only items; a checker's
  ``copy()`` is independent of the original.
* locate: in ``"Here you go:\\n```<name>\\n" + sample + "\\n```\\nHope it helps"`` (and with
  a ``<think>`` block before the sample) some span holds exactly the sample (white space
  around it aside). A format that locates the whole reply by design (``text``,
  ``markdown``) passes instead with a span covering the whole reply, when it declares
  so (``whole_reply_locate = True``) or, by default, when the whole reply is valid in
  that format: returning the whole reply is sound only if the whole reply is a payload.
  ``whole_reply_locate = False`` accepts only the sample's span.

A plugin contributes inputs of its own through attributes of its contract class:
``attack_inputs`` (name -> hostile text, such as an XML billion-laughs document; each must
get an answer and never raise) and ``damaged_inputs`` (name -> a damaged document of the
format; healing it must be idempotent and give a valid document).

The checks raise ``AssertionError`` explicitly (not with ``assert``), so they hold under
``python -O``. Only pytest (for the mixin) and hypothesis (for the random tests) are
needed, both imported lazily: importing this package costs nothing.

Modules: :mod:`.inputs` (garbage and damaged inputs), :mod:`.guard` (calling a format so
that a crash says what was called), :mod:`.checks` (the ``check_*`` functions),
:mod:`.strategies` (hypothesis), :mod:`.contract` (the mixin).
"""

from __future__ import annotations

from .checks import (
    check_can_be_valid_prefixes,
    check_copy_independent,
    check_extract_values,
    check_heal_idempotent,
    check_heal_unchanged,
    check_locate_in_prose,
    check_protocol,
    check_robust,
    check_sample_is_valid,
    check_stream_prefixes,
    check_valid_document,
)
from .contract import FormatContract, contract_cases, make_contract
from .inputs import (
    STRUCTURAL,
    garbage_input,
    garbage_inputs,
    garbage_names,
    mangled_variants,
    prefix_positions,
    wrap_in_prose,
)

__all__ = [
    "STRUCTURAL",
    "FormatContract",
    "make_contract",
    "contract_cases",
    "garbage_input",
    "garbage_inputs",
    "garbage_names",
    "mangled_variants",
    "wrap_in_prose",
    "prefix_positions",
    "check_protocol",
    "check_robust",
    "check_valid_document",
    "check_sample_is_valid",
    "check_stream_prefixes",
    "check_can_be_valid_prefixes",
    "check_heal_unchanged",
    "check_heal_idempotent",
    "check_locate_in_prose",
    "check_extract_values",
    "check_copy_independent",
]
