"""``JsonFormat``: the ``json`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

import threading
from typing import Any

from formatbook_core import (
    Analysis,
    Healed,
    ScopeNotFound,
    Span,
    Violation,
)
from formatbook_core.data_schema import DataFormat, build_model
from formatbook_core.limits import limits_from
from formatbook_core.pointers import scope_problem

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from . import values as _values
from .commitment import CommittedChecker
from .stream_schema import SchemaChecker
from .syntax import JsonSyntaxError, parse_strict, to_violation

_SAMPLES = (
    '{"answer": "Paris", "confidence": 0.92}',
    '{\n  "title": "Weekly report",\n  "items": [\n    {"name": "Fix login bug", "done": true, "hours": 3.5},\n'
    '    {"name": "Write docs", "done": false, "hours": null}\n  ],\n  "summary": "Two tasks, one finished."\n}',
    '[{"city": "Z\\u00fcrich", "population": 421878}, {"city": "S\\u00e3o Paulo", "population": 12325232}]',
    '{"emoji": "\\ud83d\\ude80 launch", "tags": ["a", "b"], "nested": {"deep": [1, [2, [3]]]}}',
    '"just a string"',
)

# A reply that is wholly strict JSON is parsed once, by locate; analyze, called next on
# that payload in the same thread, takes the value from here instead of parsing again.
_PARSED = threading.local()


class JsonFormat(DataFormat):
    """JSON (RFC 8259). Schemas: JSON Schema as a dict, a file path, a URL (only with
    ``allow_fetch=True``) or a pydantic model class. Options: ``max_depth`` and
    ``max_size`` (see ``formatbook_core.limits``), ``allow_fetch`` (False), ``base_dir``."""

    name = "json"
    aliases = ()
    mime_types = ("application/json",)
    scope_kind = "JSON pointer"
    description = "JSON (RFC 8259), with JSON Schema or a pydantic model; scopes are JSON pointers."
    samples = _SAMPLES
    think_anywhere = True  # locate reads think tags in strings as values (json.think_inside)

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One strict parse, then the schema (and the pydantic model, whose instance is
        then the value)."""
        max_size, max_depth = limits_from(options)
        try:
            parsed = _parsed_by_locate(value, max_depth, max_size)
            if parsed is _NOT_PARSED:
                parsed = parse_strict(value, max_depth=max_depth, max_size=max_size)
        except JsonSyntaxError as err:
            return Analysis(None, (to_violation(err, len(value)),))
        except Exception as err:  # not a str, say: a violation, not a crash
            return Analysis(None, (Violation("json.syntax", f"cannot read the text as JSON: {err}"),))
        if schema is None:
            return Analysis(parsed)
        js = self._schema(schema, options)
        assert js is not None  # a schema was given
        violations = js.violations(parsed)
        if violations or js.model is None:
            return Analysis(parsed, violations)
        return _build_model(js.model, value, parsed)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is strict JSON (the schema is not
        consulted: a prefix rarely tells)."""
        return _stream.can_be_valid(partial)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> _stream.JsonChecker:
        """The incremental checker (see :class:`formatbook_json.stream.JsonChecker`). With a
        schema, the strict one also validates the whole text at ``finish()``, as
        ``is_valid`` does; the relaxed one never consults the schema."""
        max_depth = limits_from(options).max_depth
        if not strict:
            # values count only once the payload is certain (formatbook_json.commitment)
            return CommittedChecker(_stream.JsonChecker(strict=False, max_depth=max_depth))  # type: ignore[return-value]
        if schema is None:
            return _stream.JsonChecker(strict=strict, max_depth=max_depth)
        js = self._schema(schema, options)

        def refusal(text: str) -> str | None:
            try:
                analysis = self.analyze(text, js, **options)
            except Exception as err:  # as is_valid: a failure, never a crash
                return f"cannot check the text against the schema: {err}"
            return None if analysis.ok else analysis.violations[0].message

        return SchemaChecker(refusal, max_depth=max_depth)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_json.locate`)."""
        max_size, max_depth = limits_from(options)
        spans, value = _locate.locate(reply, max_depth=max_depth, max_size=max_size)
        whole = spans[0]
        # (the value of a whole strict reply; None otherwise, and for the reply "null")
        _PARSED.last = (reply[whole.start : whole.end], max_depth, max_size, value) if value is not None else None
        return spans

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair syntax (no schema needed), then make the schema-aware repairs the schema
        asks for, following :data:`formatbook_json.heal.PLAN`. Valid input comes back
        unchanged. Raises ``HealError``; by default a payload longer than
        :data:`formatbook_json.heal.strict.HEAL_MAX_SIZE` characters is not healed (memory),
        unless ``max_size`` is given."""
        return _heal.heal(value, self._schema(schema, options), limits_from(options), size_given="max_size" in options)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Scalar leaves as written (strings decoded), keys and nulls left out."""
        return _values.extract_values(value)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under the JSON pointer ``scope`` (``""`` is the whole document,
        ``"/"`` the member with the empty key). Raises ``ScopeNotFound``."""
        max_size, max_depth = limits_from(options)
        try:
            parsed = parse_strict(value, max_depth=max_depth, max_size=max_size)
        except JsonSyntaxError as err:
            raise ScopeNotFound(f"cannot find {scope!r}: the text is not valid JSON ({err})") from None
        return _values.extract_scope(value, parsed, scope)

    def validate_scope(self, scope: str) -> str | None:
        """A scope is a JSON pointer (``""``, ``"/title"``, ``"#/items/0"``); anything else
        can never match."""
        return scope_problem(scope, "JSON")

    def guidance(self, schema: Any = None, **options: Any) -> str:
        js = self._schema(schema, options)
        return _guidance.guidance(js.schema if js is not None else None)


_NOT_PARSED = object()


def _parsed_by_locate(text: Any, max_depth: int, max_size: int) -> Any:
    """The value locate parsed when ``text`` is the whole strict reply it was given
    (once: the entry is dropped), else ``_NOT_PARSED``."""
    last = getattr(_PARSED, "last", None)
    if last is None:
        return _NOT_PARSED
    _PARSED.last = None
    payload, depth, size, value = last
    if (depth, size) != (max_depth, max_size) or not (payload is text or payload == text):
        return _NOT_PARSED
    return value


def _build_model(model: Any, text: str, parsed: Any) -> Analysis:
    """The model instance (see :func:`formatbook_core.data_schema.build_model`)."""
    instance, violations = build_model(model, text)
    return Analysis(parsed, violations) if violations else Analysis(instance)
