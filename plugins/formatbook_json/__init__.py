"""The ``json`` format: RFC 8259 JSON, with healing, JSON Schema (dicts, files, pydantic
models), JSON pointer counting scopes and a sound incremental checker.

Healing keeps the reply's layout: only the broken bits are edited (see :mod:`.heal`), and
schema-aware repairs edit the values in place too (see :mod:`.schema_heal`), so numbers
keep the spelling the model wrote.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import (
    Analysis,
    BaseFormat,
    Healed,
    HealError,
    Option,
    Repair,
    ScopeNotFound,
    Span,
    Violation,
    hookimpl,
)

DEFAULT_MAX_DEPTH = 1000
DEFAULT_MAX_SIZE = 16 * 1024 * 1024

__all__ = ["JsonFormat", "register_formats", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_SIZE"]

_SAMPLES = (
    '{"answer": "Paris", "confidence": 0.92}',
    '{\n  "title": "Weekly report",\n  "items": [\n    {"name": "Fix login bug", "done": true, "hours": 3.5},\n'
    '    {"name": "Write docs", "done": false, "hours": null}\n  ],\n  "summary": "Two tasks, one finished."\n}',
    '[{"city": "Z\\u00fcrich", "population": 421878}, {"city": "S\\u00e3o Paulo", "population": 12325232}]',
    '{"emoji": "\\ud83d\\ude80 launch", "tags": ["a", "b"], "nested": {"deep": [1, [2, [3]]]}}',
    '"just a string"',
)


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def _limits(options: dict[str, Any]) -> tuple[int, int]:
    depth = options.get("max_depth", DEFAULT_MAX_DEPTH)
    size = options.get("max_size", DEFAULT_MAX_SIZE)
    try:
        return int(depth), int(size)
    except (TypeError, ValueError):
        return DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE


def _orjson_loads(text: str) -> Any:
    import orjson

    return orjson.loads(text)


def _syntax():
    from . import syntax

    return syntax


def _syntax_violation(err: Any, text_length: int) -> Violation:
    code = getattr(err, "code", None) or "syntax"
    code = code if code.startswith("json.") else f"json.{code}"
    offset = getattr(err, "offset", None)
    span = None
    if isinstance(offset, int):
        offset = max(0, min(offset, text_length))
        span = Span(offset, min(offset + 1, text_length) if offset < text_length else offset)
    message = getattr(err, "message", None) or str(err)
    return Violation(code, message, span=span)


class JsonFormat(BaseFormat):
    """JSON (RFC 8259). Schemas: JSON Schema as a dict, a file path, a URL (only with
    ``allow_fetch=True``) or a pydantic model class. Options: ``max_depth`` (1000),
    ``max_size`` (16 MB), ``allow_fetch`` (False)."""

    name = "json"
    option_specs = (
        Option("allow_fetch", bool, False, "a schema given as a URL (http or https) may be fetched"),
        Option("base_dir", str, None, "where a schema given as a relative path is looked for"),
    )
    aliases = ()
    mime_types = ("application/json",)
    scope_kind = "JSON pointer"
    description = "JSON (RFC 8259), with JSON Schema or a pydantic model; scopes are JSON pointers."
    samples = _SAMPLES

    # --- schemas --------------------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> Any:
        """A :class:`~formatbook_json.schema.JsonSchema` (compiled lazily, cached)."""
        from .schema import load_schema

        return load_schema(
            schema, allow_fetch=_flag(options.get("allow_fetch", False)), base_dir=options.get("base_dir")
        )

    def _schema(self, schema: Any, options: dict[str, Any]) -> Any:
        if schema is None:
            return None
        from .schema import JsonSchema

        if isinstance(schema, JsonSchema):
            return schema
        return self.load_schema(schema, **options)

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One strict parse, then the schema (and the pydantic model, whose instance is
        then the value)."""
        syntax = _syntax()
        max_depth, max_size = _limits(options) if options else (DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE)
        try:
            parsed = syntax.parse_strict(value, max_depth=max_depth, max_size=max_size)
        except syntax.JsonSyntaxError as err:
            return Analysis(None, (_syntax_violation(err, len(value)),))
        except Exception as err:  # not a str, say: a violation, not a crash
            return Analysis(None, (Violation("json.syntax", f"cannot read the text as JSON: {err}"),))
        if schema is None:
            return Analysis(parsed)
        js = self._schema(schema, options)
        violations = js.violations(parsed)
        if violations or js.model is None:
            return Analysis(parsed, violations)
        return _build_model(js.model, value, parsed)

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        return list(self.analyze(value, schema, **options).violations)

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """Strict RFC 8259 plus the schema. Never raises."""
        try:
            return self.analyze(value, schema, **options).ok
        except Exception:
            return False

    def parse(self, value: str, schema: Any = None, **options: Any) -> Any:
        return self.analyze(value, schema, **options).value

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is strict JSON (the schema is not
        consulted: a prefix rarely tells)."""
        from .incremental import can_be_valid

        return can_be_valid(partial)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> Any:
        from .incremental import JsonChecker

        max_depth, _ = _limits(options)
        return JsonChecker(strict=strict, max_depth=max_depth)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        from .locate import locate

        return locate(reply)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair syntax (no schema needed), then make the schema-aware repairs the schema
        asks for. Valid input comes back unchanged. Raises ``HealError``."""
        if not isinstance(value, str):
            raise HealError(
                "cannot heal JSON: the reply is not text", [Violation("json.not_text", "the reply is not text")]
            )
        syntax = _syntax()
        max_depth, max_size = _limits(options)
        if len(value) > max_size:
            v = Violation("json.too_large", f"the text is longer than {max_size} characters", span=Span(0, len(value)))
            raise HealError(f"cannot heal JSON: {v.message}", [v])
        js = self._schema(schema, options)
        repairs: list[Repair] = []
        set_aside: tuple = ()
        syntax_edits: list = []
        text = value
        try:
            # orjson first: parse_strict explains an error precisely, which heal does not need
            _orjson_loads(value)
            parsed = syntax.parse_strict(value, max_depth=max_depth, max_size=max_size)
        except (syntax.JsonSyntaxError, ValueError) as first:
            if isinstance(first, syntax.JsonSyntaxError) and first.code in ("json.too_deep", "json.too_large"):
                v = _syntax_violation(first, len(value))
                raise HealError(f"cannot heal JSON: {v.message}", [v]) from None
            from .heal import heal_syntax

            # orjson stops at text after a complete value (surplus brackets, prose): the
            # value before it is strict JSON, so healing starts after it
            done_at = None
            if getattr(first, "msg", None) == "unexpected content after document":
                pos = getattr(first, "pos", None)
                if isinstance(pos, int) and 0 < pos < len(value):
                    done_at = pos
            healed = heal_syntax(value, max_depth=max_depth, done_at=done_at)
            text, syntax_edits = healed.text, healed.edits
            repairs.extend(healed.repairs)
            set_aside = tuple(healed.set_aside)
            try:
                parsed = syntax.parse_strict(text, max_depth=max_depth, max_size=max_size)
            except syntax.JsonSyntaxError as err:
                v = _syntax_violation(err, len(text))
                raise HealError(f"cannot heal JSON: {v.message}", [Violation(v.code, v.message)]) from None
        if js is not None:
            from .schema_heal import apply, plan

            ops = plan(parsed, js.schema)
            if ops:
                text, schema_repairs = apply(text, ops)
                if syntax_edits:
                    from .heal.edits import OffsetMap

                    offsets = OffsetMap(syntax_edits)
                    schema_repairs = [
                        Repair(
                            r.kind,
                            r.message,
                            Span(
                                offsets.back(r.span.start),
                                max(offsets.back(r.span.start), offsets.back_end(r.span.end)),
                            ),
                        )
                        for r in schema_repairs
                    ]
                repairs.extend(schema_repairs)
        if not repairs:
            return Healed(value)
        return Healed(text, tuple(repairs), set_aside)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Scalar leaves as written (strings decoded), keys and nulls left out."""
        from .values import extract_values

        return extract_values(value)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under the JSON pointer ``scope`` (``""`` is the whole document,
        ``"/"`` the member with the empty key). Raises ``ScopeNotFound``."""
        from .values import extract_scope

        syntax = _syntax()
        max_depth, max_size = _limits(options)
        try:
            parsed = syntax.parse_strict(value, max_depth=max_depth, max_size=max_size)
        except syntax.JsonSyntaxError as err:
            raise ScopeNotFound(f"cannot find {scope!r}: the text is not valid JSON ({err})") from None
        return extract_scope(value, parsed, scope)

    def guidance(self, schema: Any = None, **options: Any) -> str:
        from .guidance import guidance

        js = self._schema(schema, options)
        return guidance(js.schema if js is not None else None)


def _build_model(model: Any, text: str, parsed: Any) -> Analysis:
    """The model instance, built in strict JSON mode so that pydantic's own coercions
    cannot hide a repair ("42" for an int must have been healed, and listed, before)."""
    try:
        return Analysis(model.model_validate_json(text, strict=True))
    except ValueError as err:
        errors = getattr(err, "errors", None)
        if not callable(errors):
            return Analysis(parsed, (Violation("schema.model", f"{model.__name__}: {err}"),))
        out = []
        for e in errors():
            out.append(
                Violation(
                    f"schema.model.{e.get('type', 'invalid')}",
                    f"{model.__name__}: {e.get('msg', 'invalid')}",
                    path=tuple(p for p in e.get("loc", ()) if isinstance(p, (str, int))),
                    keyword=e.get("type"),
                )
            )
        return Analysis(parsed, tuple(out) or (Violation("schema.model", f"{model.__name__}: {err}"),))


@hookimpl
def register_formats(register):
    register(JsonFormat())
