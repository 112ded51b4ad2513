"""``JsonFormat``: the ``json`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from formatbook_core import (
    Analysis,
    Healed,
    Located,
    Reply,
    ScopeNotFound,
    Span,
    ThinkTags,
    Violation,
)
from formatbook_core.data_schema import DataFormat, build_model
from formatbook_core.limits import limits_from
from formatbook_core.pointers import scope_problem
from formatbook_core.spans import SPACES

from . import guidance as _guidance
from . import locate as _locate
from . import values as _values
from .syntax import JsonSyntaxError, parse_strict, to_violation

if TYPE_CHECKING:
    from formatbook_core.exports import ResponseFormat
    from formatbook_core.grammars import Grammar

    from .stream import JsonChecker

_SAMPLES = (
    '{"answer": "Paris", "confidence": 0.92}',
    '{\n  "title": "Weekly report",\n  "items": [\n    {"name": "Fix login bug", "done": true, "hours": 3.5},\n'
    '    {"name": "Write docs", "done": false, "hours": null}\n  ],\n  "summary": "Two tasks, one finished."\n}',
    '[{"city": "Z\\u00fcrich", "population": 421878}, {"city": "S\\u00e3o Paulo", "population": 12325232}]',
    '{"emoji": "\\ud83d\\ude80 launch", "tags": ["a", "b"], "nested": {"deep": [1, [2, [3]]]}}',
    '"just a string"',
)


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
    think_tags = ThinkTags.ANYWHERE  # locate reads think tags in strings as values (json.think_inside)
    surrounding_space = SPACES  # U+000B, U+000C, U+001C-U+001F are text to JSON, never blanks

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One strict parse, then the schema (and the pydantic model, whose instance is
        then the value). The parsed value is the analysis's document."""
        max_size, max_depth = limits_from(options)
        try:
            parsed = parse_strict(value, max_depth=max_depth, max_size=max_size)
        except JsonSyntaxError as err:
            return Analysis(None, (to_violation(err, len(value)),))
        except Exception as err:  # not a str, say: a violation, not a crash
            return Analysis(None, (Violation("json.syntax", f"cannot read the text as JSON: {err}"),))
        return self._judged(value, parsed, schema, options)

    def _judged(self, text: str, parsed: Any, schema: Any, options: dict[str, Any]) -> Analysis:
        """The analysis of ``text``, strict JSON whose value is ``parsed``: the schema
        judges it without reading the text again."""
        if schema is None:
            return Analysis.passed(parsed, parsed)
        js = self._schema(schema, options)
        assert js is not None  # a schema was given
        violations = js.violations(parsed)
        if violations:  # a number named in a message as the reply wrote it (3.10, not 3.1)
            violations = _values.shown_as_written(text, parsed, violations)
        if violations:
            return Analysis(parsed, violations, document=parsed)
        if js.model is None:
            return Analysis.passed(parsed, parsed)
        return replace(_build_model(js.model, text, parsed), document=parsed)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is strict JSON (the schema is not
        consulted: a prefix rarely tells)."""
        from .stream import can_be_valid  # noqa: PLC0415 - the automaton, imported for streaming only

        return can_be_valid(partial)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> JsonChecker:
        """The incremental checker (see :class:`formatbook_json.stream.JsonChecker`). With a
        schema, both judge the schema's prefix keywords while the text streams
        (:mod:`formatbook_json.stream_schema`: the relaxed one as leniently as healing
        repairs), and the strict one validates the whole text at ``finish()``, as
        ``is_valid`` does."""
        from .stream import CommittedChecker, JsonChecker  # noqa: PLC0415 - streaming only: keeps a check's import light
        from .stream_schema import RelaxedSchemaChecker, SchemaChecker  # noqa: PLC0415 - streaming only

        max_depth = limits_from(options).max_depth
        js = self._schema(schema, options) if schema is not None else None
        if not strict:
            # values count only once the payload is certain (formatbook_json.commitment)
            committed = CommittedChecker(max_depth=max_depth)
            if js is None:
                return committed
            return RelaxedSchemaChecker(committed, js)  # type: ignore[return-value]
        if js is None:
            return JsonChecker(strict=strict, max_depth=max_depth)

        def refusal(text: str) -> str | None:
            try:
                analysis = self.analyze(text, js, **options)
            except Exception as err:  # as is_valid: a failure, never a crash
                return f"cannot check the text against the schema: {err}"
            return None if analysis.ok else analysis.violations[0].message

        return SchemaChecker(refusal, schema=js, max_depth=max_depth)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_json.locate`)."""
        max_size, max_depth = limits_from(options)
        return _locate.locate(self.prepare(reply), max_depth=max_depth, max_size=max_size)[0]

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        """``locate``'s spans; a reply that is wholly strict JSON is parsed once, by the
        locator, and its payload carries that analysis (judged by ``schema``)."""
        max_size, max_depth = limits_from(options)
        if reply.__class__ is not Reply or reply.tags is not self.think_tags:  # (as the pipeline prepared it)
            reply = self.prepare(reply)  # read as JSON reads think tags, by every locating step
        spans, value = _locate.locate(reply, max_depth=max_depth, max_size=max_size)
        if value is None:  # not wholly strict (or the reply "null": analyzed as usual)
            loaded = self._schema(schema, options)
            if loaded is not None and "array" in loaded.top_types:
                # values written one per line are the array's items, all of them
                run = _locate.lines_run(reply, spans[0]) if spans else None
                return [run, *spans] if run is not None else list(spans)
            return list(spans)
        whole = spans[0]
        judged = (
            Analysis.passed(value, value)  # as _judged answers without a schema, without the call
            if schema is None
            else self._judged(reply.plain[whole.start : whole.end], value, schema, options)
        )
        return [Located.built(whole, judged)]  # (the whole reply is then the one span)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair syntax (no schema needed), then make the schema-aware repairs the schema
        asks for, following :data:`formatbook_json.heal.PLAN`. Valid input comes back
        unchanged. Raises ``HealError``; by default a payload longer than
        :data:`formatbook_json.heal.strict.HEAL_MAX_SIZE` characters is not healed (memory),
        unless ``max_size`` is given."""
        return _healer()(value, self._schema(schema, options), options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, told by ``analysis`` whether ``text`` is strict JSON: a text too long
        to heal that is not is refused before it is parsed again."""
        from .heal import heal  # noqa: PLC0415 - as in heal

        return heal(text, self._schema(schema, options), options, analysis=analysis)

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

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope``, on the value ``analyze`` parsed."""
        if analysis.document is None:  # an analysis without the parse (or the value null)
            return self.extract_scope(text, scope, schema, **options)
        return _values.extract_scope(text, analysis.document, scope)

    def validate_scope(self, scope: str) -> str | None:
        """A scope is a JSON pointer (``""``, ``"/title"``, ``"#/items/0"``); anything else
        can never match."""
        return scope_problem(scope, "JSON")

    def guidance(self, schema: Any = None, **options: Any) -> str:
        js = self._schema(schema, options)
        return _guidance.guidance(js.schema if js is not None else None)

    # --- exports --------------------------------------------------------------------
    def grammar(self, schema: Any = None, **options: Any) -> Grammar:
        """JSON whose value the schema accepts, as a grammar (see ``grammar.py`` and the
        README's "Exports": what it leaves to the checker)."""
        from .grammar import json_grammar  # noqa: PLC0415 - an export, built when asked for

        js = self._schema(schema, options)
        return json_grammar(js.schema if js is not None else None)

    def response_format(self, schema: Any = None, **options: Any) -> ResponseFormat:
        """OpenAI's ``response_format``: the schema in strict mode's subset
        (``formatbook_core.data_schema.strict``), or ``json_object`` without a schema."""
        from formatbook_core.data_schema.strict import response_format  # noqa: PLC0415 - an export, built when asked for
        from formatbook_core.exports import ResponseFormat  # noqa: PLC0415 - an export, built when asked for

        js = self._schema(schema, options)
        body, lost = response_format(js.schema if js is not None else None)
        return ResponseFormat(body, tuple(lost))


@cache
def _healer() -> Any:
    """:func:`formatbook_json.heal.heal`, imported when a reply first needs healing (keeps
    a valid check's import light); kept, since importing a name from a package runs
    importlib's Python code on every call."""
    from .heal import heal  # noqa: PLC0415 - see above

    return heal


def _build_model(model: Any, text: str, parsed: Any) -> Analysis:
    """The model instance (see :func:`formatbook_core.data_schema.build_model`)."""
    instance, violations = build_model(model, text)
    return Analysis(parsed, violations) if violations else Analysis(instance)
