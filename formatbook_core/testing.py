"""A reusable contract test-suite for format plugins.

Every format, built-in or third-party, must keep the promises of DESIGN.md ("The format
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
``AssertionError``, usable from any test runner.

What is checked (each rule from DESIGN.md):

* protocol: ``name`` (lower case), ``aliases``, ``mime_types``, ``scope_kind``; the methods
  accept ``schema`` and ``**options``; ``isinstance(fmt, FormatDefinition)``.
* garbage (empty, whitespace, binary, lone surrogates, a few MB, nesting 100,000 deep,
  entity and alias bombs, random and mutated text from hypothesis): ``is_valid``,
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

Only pytest (for the mixin) and hypothesis (for the random tests) are needed, both
imported lazily: importing this module costs nothing.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .definition import Checker, FormatDefinition
from .results import Analysis, Healed, HealError, Repair, ScopeNotFound, StreamStatus, Violation

__all__ = [
    "FormatContract",
    "make_contract",
    "contract_cases",
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

#: Characters that structure documents in most formats: random text drawn from them (and
#: from the samples) reaches far more parser states than arbitrary Unicode does.
STRUCTURAL = "{}[]()<>\"'`,:;=#*-_|&!?/\\.@ \t\n\r0123456789abcEtrufalsenul"

# How far the character-by-character and prefix checks go on inputs that are not samples.
_CHAR_FEED_LIMIT = 5_000
_PREFIX_LIMIT = 64


# --- inputs ---------------------------------------------------------------------------


def _billion_laughs() -> str:
    lines = ['<?xml version="1.0"?>', "<!DOCTYPE lolz [", ' <!ENTITY lol "lol">']
    for i in range(1, 10):
        prev = "lol" if i == 1 else f"lol{i - 1}"
        lines.append(f' <!ENTITY lol{i} "' + f"&{prev};" * 10 + '">')
    lines += ["]>", "<lolz>&lol9;</lolz>"]
    return "\n".join(lines)


def _yaml_alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "\n".join(lines) + "\n"


def _huge_prose(size: int) -> str:
    words = "the quick brown fox jumps over the lazy dog, said the model. "
    return (words * (size // len(words) + 1))[:size]


_GARBAGE: dict[str, Callable[[int], str]] = {
    "empty": lambda n: "",
    "whitespace": lambda n: " \n\t\r\n  \u00a0\u2028",
    "binary": lambda n: "\x00\xff\ufffd\x01\x7f\x1b[31m" + bytes(range(256)).decode("latin-1") * 4,
    "lone-surrogates": lambda n: "\ud800\udfff\udc00x\ud83d",
    "nul-run": lambda n: "\x00" * 1000,
    "bom": lambda n: "\ufeff",
    "crlf": lambda n: "a\r\nb\r\n\r\n\r",
    "prose": lambda n: "Sorry, I can't help with that.",
    "unclosed-fence": lambda n: '```json\n{"a": ',
    "unclosed-think": lambda n: "<think>let me see",
    "deep-brackets": lambda n: "[" * 100_000,
    "deep-braces": lambda n: "{" * 100_000,
    "deep-balanced-brackets": lambda n: "[" * 50_000 + "]" * 50_000,
    "deep-objects": lambda n: '{"a":' * 50_000,
    "deep-tags": lambda n: "<a>" * 50_000,
    "deep-balanced-tags": lambda n: "<a>" * 20_000 + "</a>" * 20_000,
    "deep-parens": lambda n: "(" * 100_000,
    "deep-blockquotes": lambda n: "> " * 50_000 + "x",
    "deep-list-items": lambda n: "- " * 50_000 + "x",
    "deep-emphasis": lambda n: "*" * 50_000 + "x" + "*" * 50_000,
    "deep-yaml-flow": lambda n: "a: " + "[" * 50_000,
    "many-lines": lambda n: "\n" * 200_000,
    "many-fences": lambda n: "```\n" * 20_000,
    "billion-laughs": lambda n: _billion_laughs(),
    "yaml-alias-bomb": lambda n: _yaml_alias_bomb(),
    "huge-prose": _huge_prose,
    "huge-line": lambda n: "x" * n,
    "huge-unclosed-string": lambda n: '"' + "x" * n,
}


def garbage_names() -> list[str]:
    """The names of the garbage inputs, in a stable order (for test ids)."""
    return list(_GARBAGE)


def garbage_inputs(huge_size: int = 2_000_000) -> list[tuple[str, str]]:
    """``(name, text)`` pairs of hostile inputs; the huge ones have ``huge_size`` characters."""
    return [(name, make(huge_size)) for name, make in _GARBAGE.items()]


def garbage_input(name: str, huge_size: int = 2_000_000) -> str:
    """One garbage input by name (see ``garbage_names``)."""
    return _GARBAGE[name](huge_size)


def mangled_variants(sample: str) -> list[tuple[str, str]]:
    """``(label, text)`` damaged copies of a valid sample, the kind of damage healing is for:
    truncation, a trailing comma, a dropped first or last character, swapped quotes, the
    sample twice. Variants equal to the sample are left out."""
    out: list[tuple[str, str]] = []
    n = len(sample)
    for label, cut in (("truncated-half", n // 2), ("truncated-two-thirds", 2 * n // 3), ("truncated-last", n - 1)):
        if 0 < cut < n:
            out.append((label, sample[:cut]))
    closer = max(sample.rfind("}"), sample.rfind("]"))
    if closer > 0:
        out.append(("trailing-comma", sample[:closer].rstrip() + ", " + sample[closer:]))
    if n > 1:
        out.append(("first-char-dropped", sample[1:]))
    if '"' in sample:
        out.append(("quotes-swapped", sample.replace('"', "'")))
    if sample.strip():
        out.append(("doubled", sample + "\n" + sample))
        out.append(("indented", "  " + sample.replace("\n", "\n  ")))
    seen: set[str] = {sample}
    unique = []
    for label, text in out:
        if text not in seen:
            seen.add(text)
            unique.append((label, text))
    return unique


def _fence_for(sample: str) -> str:
    # A fence longer than any backtick run inside the sample, so the sample cannot close it.
    longest = run = 0
    for ch in sample:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def wrap_in_prose(sample: str, name: str) -> list[tuple[str, str]]:
    """``(label, reply)``: the sample as a model would send it, with prose, a fence tagged
    with ``name`` (as written and in capitals), or a ``<think>`` block around it."""
    fence = _fence_for(sample)
    return [
        ("fenced", f"Here you go:\n{fence}{name}\n{sample}\n{fence}\nHope it helps"),
        ("fenced-upper", f"Sure!\n\n{fence}{name.upper()}\n{sample}\n{fence}\n"),
        ("after-think", f"<think>\nThe user wants {name}. Let me write it.\n</think>\n{sample}"),
    ]


def prefix_positions(length: int, limit: int = _PREFIX_LIMIT) -> list[int]:
    """Prefix lengths to try ``can_be_valid`` on: all of them for a short text, else the
    first and last few and ``limit`` evenly spaced ones in between."""
    if length + 1 <= limit:
        return list(range(length + 1))
    picks = set(range(8)) | set(range(length - 7, length + 1))
    picks |= {round(i * length / limit) for i in range(limit + 1)}
    return sorted(p for p in picks if 0 <= p <= length)


def _show(text: str, width: int = 60) -> str:
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}... ({len(text)} chars)"


# --- calling a format under guard -----------------------------------------------------


class _Guard:
    """Calls a format's methods with the contract's schema and options and turns any
    exception that is not allowed into an ``AssertionError`` that says what was called."""

    def __init__(self, fmt: Any, schema: Any = None, options: dict[str, Any] | None = None):
        if fmt is None:
            raise AssertionError("the contract needs a format: set `format = MyFormat()` on the test class")
        self.fmt = fmt
        self.schema = schema
        self.options = dict(options or {})
        self.name = getattr(fmt, "name", type(fmt).__name__)

    def call(self, method: str, text: str, *extra: Any, allowed: tuple[type[BaseException], ...] = ()) -> Any:
        try:
            return getattr(self.fmt, method)(text, *extra, self.schema, **self.options)
        except allowed:
            raise
        except Exception as exc:
            raise AssertionError(
                f"{self.name}.{method} raised {type(exc).__name__}: {exc} on input {_show(text)}"
            ) from exc

    def stream(self, strict: bool) -> Any:
        try:
            return self.fmt.stream(self.schema, strict=strict, **self.options)
        except Exception as exc:
            raise AssertionError(f"{self.name}.stream(strict={strict}) raised {type(exc).__name__}: {exc}") from exc

    def step(self, checker: Any, what: str, text: str, *args: Any) -> Any:
        try:
            return getattr(checker, what)(*args)
        except Exception as exc:
            raise AssertionError(
                f"{self.name} checker.{what} raised {type(exc).__name__}: {exc} while streaming {_show(text)}"
            ) from exc


def _check_status(g: _Guard, status: Any, fed: int, where: str) -> bool:
    assert isinstance(status, StreamStatus), (
        f"{g.name} checker.{where} returned {type(status).__name__}, not StreamStatus"
    )
    assert isinstance(status.values, tuple) and all(isinstance(v, str) for v in status.values), (
        f"{g.name} checker.{where}: StreamStatus.values must be a tuple of str, got {status.values!r}"
    )
    assert isinstance(status.open, str), f"{g.name} checker.{where}: StreamStatus.open must be str"
    if status.position is not None:
        assert 0 <= status.position <= fed, (
            f"{g.name} checker.{where}: position {status.position} outside the {fed} characters fed"
        )
    return bool(status)


def _check_spans(g: _Guard, spans: Iterable[Any], length: int, what: str, text: str) -> None:
    for span in spans:
        if span is None:
            continue
        assert isinstance(span, tuple) and len(span) == 2 and all(isinstance(x, int) for x in span), (
            f"{g.name}.{what}: {span!r} is not a Span on {_show(text)}"
        )
        assert 0 <= span[0] <= span[1] <= length, (
            f"{g.name}.{what}: span {tuple(span)} outside the {length} characters of {_show(text)}"
        )


def _feed(g: _Guard, strict: bool, text: str, chunks: Sequence[str]) -> tuple[bool, bool]:
    """Feed ``chunks`` to a fresh checker; return (every feed truthy, finish truthy) and check
    that a falsy answer stays falsy."""
    checker = g.stream(strict)
    assert isinstance(checker, Checker), f"{g.name}.stream() returned {type(checker).__name__}, not a Checker"
    fed = 0
    all_ok = True
    for chunk in chunks:
        fed += len(chunk)
        ok = _check_status(g, g.step(checker, "feed", text, chunk), fed, "feed")
        if not all_ok:
            assert not ok, (
                f"{g.name} checker (strict={strict}) answered falsy, then truthy again at offset {fed} of {_show(text)}: "
                "once no continuation can be valid, none can"
            )
        all_ok = all_ok and ok
    done = _check_status(g, g.step(checker, "finish", text), fed, "finish")
    if not all_ok:
        assert not done, f"{g.name} checker (strict={strict}) rejected a chunk but finish() is truthy on {_show(text)}"
    return all_ok, done


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# --- the checks -----------------------------------------------------------------------


def check_protocol(fmt: Any) -> None:
    """The attributes and method signatures DESIGN.md requires of every format."""
    g = _Guard(fmt)
    assert isinstance(fmt, FormatDefinition), f"{fmt!r} does not follow the FormatDefinition protocol"
    name = getattr(fmt, "name", None)
    assert isinstance(name, str) and name.strip(), f"{fmt!r}: name must be a non-empty str"
    assert name == name.lower() and name == name.strip(), f"{fmt!r}: name {name!r} must be lower case, no spaces around"
    for attr in ("aliases", "mime_types"):
        value = getattr(fmt, attr)
        assert isinstance(value, (tuple, list)) and all(isinstance(v, str) and v.strip() for v in value), (
            f"{g.name}.{attr} must be a tuple of non-empty str, got {value!r}"
        )
    assert all("/" in m for m in fmt.mime_types), f"{g.name}.mime_types must look like type/subtype: {fmt.mime_types!r}"
    assert fmt.scope_kind is None or isinstance(fmt.scope_kind, str), f"{g.name}.scope_kind must be None or str"
    samples = getattr(fmt, "samples", ())
    assert isinstance(samples, (tuple, list)) and all(isinstance(s, str) for s in samples), (
        f"{g.name}.samples must be a tuple of str"
    )
    for method in ("is_valid", "can_be_valid", "heal", "extract_values", "locate", "stream"):
        fn = getattr(fmt, method, None)
        assert callable(fn), f"{g.name}.{method} is missing"
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):  # a builtin or C method: nothing to inspect
            continue
        assert "schema" in params, f"{g.name}.{method} must take a `schema` argument"
        assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()), (
            f"{g.name}.{method} must take **options"
        )
        if method == "stream":
            assert "strict" in params, f"{g.name}.stream must take a `strict` keyword"
    # Calling them the documented way works.
    sample = samples[0] if samples else ""
    assert isinstance(fmt.is_valid(sample, schema=None), bool), f"{g.name}.is_valid must return a bool"
    assert isinstance(fmt.can_be_valid(sample, schema=None), bool), f"{g.name}.can_be_valid must return a bool"
    assert isinstance(fmt.extract_values(sample, schema=None), list), f"{g.name}.extract_values must return a list"
    assert isinstance(fmt.locate(sample, schema=None), list), f"{g.name}.locate must return a list"
    assert isinstance(fmt.stream(schema=None, strict=False), Checker), f"{g.name}.stream must return a Checker"
    guidance = getattr(fmt, "guidance", None)
    if callable(guidance):
        text = guidance(schema=None)
        assert isinstance(text, str) and text.strip(), f"{g.name}.guidance must return a non-empty str"


def check_extract_values(fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None) -> list[str]:
    """``extract_values`` returns ``list[str]`` and leaves whitespace-only values out."""
    g = _Guard(fmt, schema, options)
    values = g.call("extract_values", text)
    assert isinstance(values, list), (
        f"{g.name}.extract_values returned {type(values).__name__}, not list, on {_show(text)}"
    )
    for v in values:
        assert isinstance(v, str), f"{g.name}.extract_values returned a {type(v).__name__} item {v!r} on {_show(text)}"
        assert v.strip(), f"{g.name}.extract_values returned a whitespace-only value {v!r} on {_show(text)}"
    return values


def _heal(g: _Guard, text: str) -> Healed | None:
    """``heal`` under guard: the result, or None when it raised ``HealError`` (checked)."""
    try:
        healed = g.call("heal", text, allowed=(HealError,))
    except HealError as err:
        assert isinstance(err.violations, list) and all(isinstance(v, Violation) for v in err.violations), (
            f"{g.name}.heal: HealError.violations must be a list of Violation"
        )
        return None
    assert isinstance(healed, Healed), f"{g.name}.heal returned {type(healed).__name__}, not Healed, on {_show(text)}"
    assert isinstance(healed.text, str), f"{g.name}.heal returned a non-str text on {_show(text)}"
    assert all(isinstance(r, Repair) for r in healed.repairs), f"{g.name}.heal: repairs must be Repair objects"
    _check_spans(g, (r.span for r in healed.repairs), len(text), "heal (repair span)", text)
    if healed.text != text:
        assert healed.repairs, f"{g.name}.heal changed {_show(text)} into {_show(healed.text)} without listing a repair"
    return healed


def check_heal_idempotent(
    fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None
) -> Healed | None:
    """When ``heal(text)`` succeeds, healing its output again changes nothing and lists no
    repairs; without a schema, the output is valid. Returns the first ``Healed`` (or None
    when the text cannot be healed)."""
    g = _Guard(fmt, schema, options)
    first = _heal(g, text)
    if first is None:
        return None
    if schema is None:
        assert g.call("is_valid", first.text) is True, (
            f"{g.name}.heal returned {_show(first.text)} for {_show(text)}, which is not valid: "
            "heal must raise HealError when it cannot repair"
        )
    second = _heal(g, first.text)
    assert second is not None, (
        f"{g.name}.heal is not idempotent: healing {_show(text)} gave {_show(first.text)}, and healing that raised HealError"
    )
    assert second.text == first.text and not second.repairs, (
        f"{g.name}.heal is not idempotent: {_show(text)} -> {_show(first.text)} -> {_show(second.text)} "
        f"with repairs {[r.kind for r in second.repairs]}"
    )
    return first


def check_robust(fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """Any input: nothing undocumented is raised, results have their types, and the
    format's answers agree with each other (see the module docstring)."""
    g = _Guard(fmt, schema, options)
    valid = g.call("is_valid", text)
    assert isinstance(valid, bool), f"{g.name}.is_valid returned {valid!r}, not a bool, on {_show(text)}"
    possible = g.call("can_be_valid", text)
    assert isinstance(possible, bool), f"{g.name}.can_be_valid returned {possible!r}, not a bool, on {_show(text)}"
    if valid:
        assert possible, (
            f"{g.name}: is_valid is true but can_be_valid is false on {_show(text)} (a text is a prefix of itself)"
        )

    if callable(getattr(fmt, "validate", None)):
        violations = g.call("validate", text)
        assert isinstance(violations, list) and all(isinstance(v, Violation) for v in violations), (
            f"{g.name}.validate must return a list of Violation on {_show(text)}"
        )
        _check_spans(g, (v.span for v in violations), len(text), "validate (violation span)", text)
        assert (not violations) == valid, (
            f"{g.name}: validate gives {len(violations)} violations but is_valid is {valid} on {_show(text)}"
        )
    if callable(getattr(fmt, "analyze", None)):
        analysis = g.call("analyze", text)
        assert isinstance(analysis, Analysis), f"{g.name}.analyze returned {type(analysis).__name__}, not Analysis"
        assert all(isinstance(v, Violation) for v in analysis.violations), (
            f"{g.name}.analyze: violations must be Violation"
        )
        _check_spans(g, (v.span for v in analysis.violations), len(text), "analyze (violation span)", text)
        assert analysis.ok == valid, (
            f"{g.name}: analyze reports {len(analysis.violations)} violations but is_valid is {valid} on {_show(text)}"
        )

    check_extract_values(fmt, text, schema, options)
    spans = g.call("locate", text)
    assert isinstance(spans, list), f"{g.name}.locate returned {type(spans).__name__}, not list"
    _check_spans(g, spans, len(text), "locate", text)
    if callable(getattr(fmt, "extract_scope", None)):
        try:
            scoped = g.call("extract_scope", text, "/x", allowed=(ScopeNotFound,))
            assert isinstance(scoped, list) and all(isinstance(v, str) for v in scoped), (
                f"{g.name}.extract_scope must return a list of str"
            )
        except ScopeNotFound:
            pass

    # The checkers: one chunk, several chunks (splitting tokens at arbitrary places), and
    # one character at a time when short. At most a few dozen chunks, so that a format
    # using the base class's re-checking fallback still finishes on huge inputs.
    feeds = [[text], _chunks(text, max(4096, len(text) // 24))]
    if len(text) <= _CHAR_FEED_LIMIT:
        feeds.append(list(text))
    for chunks in feeds:
        strict_ok, strict_done = _feed(g, True, text, chunks)
        if valid:
            assert strict_ok and strict_done, (
                f"{g.name}: the strict checker rejects {_show(text)}, which is_valid accepts "
                f"(fed in {len(chunks)} chunks; feed ok={strict_ok}, finish ok={strict_done})"
            )
        else:
            assert not strict_done, (
                f"{g.name}: the strict checker's finish() accepts {_show(text)}, which is_valid rejects"
            )

    healed = check_heal_idempotent(fmt, text, schema, options)
    if valid:
        assert healed is not None and healed.text == text and not healed.repairs, (
            f"{g.name}.heal must leave valid input unchanged with no repairs: {_show(text)} -> "
            f"{'HealError' if healed is None else _show(healed.text)}"
        )
    if healed is not None:
        # The relaxed checker follows the grammar heal accepts: what heals must stream.
        for chunks in feeds[:2]:
            relaxed_ok, relaxed_done = _feed(g, False, text, chunks)
            assert relaxed_ok and relaxed_done, (
                f"{g.name}: heal repairs {_show(text)}, but the relaxed checker (strict=False) rejects it "
                f"(feed ok={relaxed_ok}, finish ok={relaxed_done})"
            )


def check_stream_prefixes(
    fmt: Any, sample: str, strict: bool = True, schema: Any = None, options: dict[str, Any] | None = None
) -> None:
    """Fed one character at a time, the checker answers truthy after every character of a
    valid sample, and ``finish()`` is truthy."""
    g = _Guard(fmt, schema, options)
    checker = g.stream(strict)
    assert isinstance(checker, Checker), f"{g.name}.stream() returned {type(checker).__name__}, not a Checker"
    for i, ch in enumerate(sample):
        status = g.step(checker, "feed", sample, ch)
        assert _check_status(g, status, i + 1, "feed"), (
            f"{g.name} checker (strict={strict}) rejected the valid prefix {_show(sample[: i + 1])} of {_show(sample)} "
            f"at offset {i}: {status.reason}"
        )
    status = g.step(checker, "finish", sample)
    assert _check_status(g, status, len(sample), "finish"), (
        f"{g.name} checker (strict={strict}).finish() rejected the valid sample {_show(sample)}: {status.reason}"
    )


def check_can_be_valid_prefixes(
    fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None, limit: int = _PREFIX_LIMIT
) -> None:
    """``can_be_valid``, asked from scratch, is true on prefixes of a valid sample."""
    g = _Guard(fmt, schema, options)
    for cut in prefix_positions(len(sample), limit):
        prefix = sample[:cut]
        assert g.call("can_be_valid", prefix) is True, (
            f"{g.name}.can_be_valid rejects {_show(prefix)}, a prefix of the valid sample {_show(sample)}"
        )


def check_sample_is_valid(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """A sample is valid, and every consistency rule of ``check_robust`` holds on it."""
    g = _Guard(fmt, schema, options)
    assert g.call("is_valid", sample) is True, f"{g.name}.is_valid rejects its own sample {_show(sample)}"
    check_robust(fmt, sample, schema, options)


def check_heal_unchanged(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """Healing a valid sample returns it unchanged, with no repairs."""
    g = _Guard(fmt, schema, options)
    healed = _heal(g, sample)
    assert healed is not None, f"{g.name}.heal raised HealError on its valid sample {_show(sample)}"
    assert healed.text == sample, f"{g.name}.heal changed the valid sample {_show(sample)} into {_show(healed.text)}"
    assert not healed.repairs, (
        f"{g.name}.heal listed repairs {[r.kind for r in healed.repairs]} on the valid sample {_show(sample)}"
    )


def check_valid_document(
    fmt: Any, text: str, schema: Any = None, options: dict[str, Any] | None = None, limit: int = _PREFIX_LIMIT
) -> None:
    """Everything a valid document must pass: valid, robust, streams one character at a
    time (strict and relaxed), ``can_be_valid`` on its prefixes, heals to itself."""
    check_sample_is_valid(fmt, text, schema, options)
    check_stream_prefixes(fmt, text, True, schema, options)
    check_stream_prefixes(fmt, text, False, schema, options)
    check_can_be_valid_prefixes(fmt, text, schema, options, limit)
    check_heal_unchanged(fmt, text, schema, options)


def check_locate_in_prose(
    fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None, whole_reply: bool | None = None
) -> None:
    """``locate`` finds the sample inside prose, a fence or after a ``<think>`` block:
    some span holds exactly the sample (white space around it aside).

    Otherwise a span covering the whole reply is accepted when the format locates the
    whole reply by design: declared with ``whole_reply=True``, or, with ``None`` (auto),
    when the whole reply is itself valid in the format (as with ``text``: returning the
    whole reply is sound only when it is a payload). ``whole_reply=False`` accepts only
    the sample's span.
    """
    g = _Guard(fmt, schema, options)
    for label, reply in wrap_in_prose(sample, g.name):
        spans = g.call("locate", reply)
        assert isinstance(spans, list), f"{g.name}.locate returned {type(spans).__name__}, not list"
        _check_spans(g, spans, len(reply), "locate", reply)
        texts = [reply[s[0] : s[1]] for s in spans]
        if any(t.strip() == sample.strip() for t in texts):
            continue
        if (0, len(reply)) in [tuple(s) for s in spans] and whole_reply is not False:
            if whole_reply or g.call("is_valid", reply):
                continue
        assert False, (
            f"{g.name}.locate did not find the sample in the {label} reply {_show(reply, 120)}; "
            f"its spans hold {[_show(t) for t in texts]}"
        )


def check_copy_independent(fmt: Any, sample: str, schema: Any = None, options: dict[str, Any] | None = None) -> None:
    """A copy of a checker and the original do not share state: feeding or finishing one
    does not change the other's answers."""
    g = _Guard(fmt, schema, options)
    for cut in sorted({0, len(sample) // 3, len(sample) // 2, len(sample)}):
        head, rest = sample[:cut], sample[cut:]
        for strict in (True, False):
            original = g.stream(strict)
            for ch in head:
                g.step(original, "feed", sample, ch)
            clone = g.step(original, "copy", sample)
            assert isinstance(clone, Checker), f"{g.name} checker.copy() returned {type(clone).__name__}, not a Checker"
            assert clone is not original, f"{g.name} checker.copy() returned the checker itself"
            # The clone goes astray and finishes; the original must not notice.
            g.step(clone, "feed", sample, "\x00}]>\x00 garbage ```")
            g.step(clone, "finish", sample)
            for i, ch in enumerate(rest):
                status = g.step(original, "feed", sample, ch)
                assert status, (
                    f"{g.name} checker (strict={strict}) rejects the valid sample at offset {cut + i} after a copy "
                    f"taken at offset {cut} was fed garbage: the copy shares state with the original"
                )
            second = g.step(original, "copy", sample)
            assert g.step(original, "finish", sample), (
                f"{g.name} checker (strict={strict}).finish() fails after a copy taken at offset {cut} was fed garbage"
            )
            # A copy taken before the original finished still finishes on its own.
            assert g.step(second, "finish", sample), (
                f"{g.name} checker (strict={strict}): a copy taken at the end of the sample fails at finish() "
                "once the original has finished"
            )


# --- hypothesis strategies ------------------------------------------------------------


def _strategies(samples: Sequence[str]):
    from hypothesis import strategies as st

    alphabet = "".join(sorted(set(STRUCTURAL).union(*map(set, samples)))) if samples else STRUCTURAL
    random_text = st.one_of(st.text(max_size=200), st.text(alphabet=alphabet, max_size=200))
    if not samples:
        return random_text, random_text

    @st.composite
    def mutated(draw):
        sample = draw(st.sampled_from(list(samples)))
        i = draw(st.integers(0, len(sample)))
        j = draw(st.integers(i, len(sample)))
        insert = draw(st.text(alphabet=alphabet, max_size=6))
        return sample[:i] + insert + sample[j:]

    return random_text, mutated()


# --- the mixin ------------------------------------------------------------------------


class FormatContract:
    """Subclass it in your tests (name the subclass ``Test...``) and set ``format``.

    ``samples`` defaults to ``format.samples``; ``schema`` and ``options`` are passed to
    every call. ``whole_reply_locate``: see ``check_locate_in_prose``. ``huge_size`` is the
    size of the huge garbage inputs, ``hypothesis_examples`` the examples per random test.
    """

    format: Any = None
    samples: Sequence[str] | None = None
    schema: Any = None
    options: dict[str, Any] = {}
    whole_reply_locate: bool | None = None
    huge_size: int = 2_000_000
    hypothesis_examples: int = 150

    # pytest calls this for every test method of the class (per-class parametrization).
    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "sample" in metafunc.fixturenames:
            samples = self.contract_samples()
            metafunc.parametrize("sample", samples, ids=[f"sample{i}" for i in range(len(samples))])
        if "garbage" in metafunc.fixturenames:
            names = [*garbage_names(), "huge-repeated-samples"]
            metafunc.parametrize("garbage", names, ids=names)

    def contract_samples(self) -> list[str]:
        if self.samples is not None:
            return list(self.samples)
        return list(getattr(self.format, "samples", ()) or ())

    def garbage_input(self, name: str) -> str:
        if name == "huge-repeated-samples":
            samples = [s for s in self.contract_samples() if s.strip()] or ["x"]
            block = "\n".join(samples) + "\n"
            return (block * (self.huge_size // len(block) + 1))[: self.huge_size]
        return garbage_input(name, self.huge_size)

    # --- protocol
    def test_protocol(self) -> None:
        check_protocol(self.format)

    def test_has_samples(self) -> None:
        assert self.contract_samples(), f"{self.format!r} has no samples: set `samples` on the format or the test class"

    # --- samples
    def test_sample_is_valid(self, sample: str) -> None:
        check_sample_is_valid(self.format, sample, self.schema, self.options)

    def test_sample_streams_char_by_char_strict(self, sample: str) -> None:
        check_stream_prefixes(self.format, sample, True, self.schema, self.options)

    def test_sample_streams_char_by_char_relaxed(self, sample: str) -> None:
        check_stream_prefixes(self.format, sample, False, self.schema, self.options)

    def test_can_be_valid_on_prefixes(self, sample: str) -> None:
        check_can_be_valid_prefixes(self.format, sample, self.schema, self.options)

    def test_heal_leaves_sample_unchanged(self, sample: str) -> None:
        check_heal_unchanged(self.format, sample, self.schema, self.options)

    def test_heal_idempotent_on_mangled_samples(self, sample: str) -> None:
        for _label, text in mangled_variants(sample):
            check_robust(self.format, text, self.schema, self.options)
            healed = check_heal_idempotent(self.format, text, self.schema, self.options)
            if healed is not None and self.schema is None and len(healed.text) <= 20_000:
                check_valid_document(self.format, healed.text, self.schema, self.options, limit=16)

    def test_locate_finds_sample_in_prose(self, sample: str) -> None:
        check_locate_in_prose(self.format, sample, self.schema, self.options, self.whole_reply_locate)

    def test_extract_values_on_sample(self, sample: str) -> None:
        check_extract_values(self.format, sample, self.schema, self.options)

    def test_checker_copy_is_independent(self, sample: str) -> None:
        check_copy_independent(self.format, sample, self.schema, self.options)

    # --- garbage
    def test_garbage_never_raises(self, garbage: str) -> None:
        check_robust(self.format, self.garbage_input(garbage), self.schema, self.options)

    def test_random_text_never_raises(self) -> None:
        from hypothesis import HealthCheck, given, settings

        random_text, _ = _strategies(self.contract_samples())

        @settings(
            max_examples=self.hypothesis_examples,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(random_text)
        def run(text: str) -> None:
            check_robust(self.format, text, self.schema, self.options)

        run()

    def test_mutated_samples_never_raise(self) -> None:
        from hypothesis import HealthCheck, given, settings

        _, mutated = _strategies(self.contract_samples())

        @settings(
            max_examples=self.hypothesis_examples,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(mutated)
        def run(text: str) -> None:
            check_robust(self.format, text, self.schema, self.options)

        run()


def make_contract(fmt: Any, **attributes: Any) -> type:
    """A ``FormatContract`` subclass for ``fmt``, named ``Test<Name>Contract`` so that
    pytest collects it when it is bound to a module-level name."""
    name = "".join(
        part.capitalize() for part in str(getattr(fmt, "name", "format")).replace("-", "_").split("_") if part
    )
    safe = "".join(ch for ch in name if ch.isalnum()) or "Format"
    return type(f"Test{safe}Contract", (FormatContract,), {"format": fmt, **attributes})


def contract_cases(fmt: Any) -> list[tuple[Any, str]]:
    """``(format, sample)`` pairs, for parametrizing your own tests over a format's samples."""
    return [(fmt, s) for s in getattr(fmt, "samples", ()) or ()]
