"""JSON Schema for the JSON format: loading, compiling once, validating.

A schema is given as a ``dict``, a path (``str`` or ``pathlib.Path``) to a JSON file,
a URL (fetched only with ``allow_fetch=True``), JSON text, or a pydantic model class (its
``model_json_schema()``; the model then builds the final value). Draft 2020-12 applies
unless the schema's ``$schema`` names another draft.

Validation takes two speeds: jsonschema-rs (compiled) answers "valid?" fast; only when
the answer is no does pure-Python ``jsonschema`` list detailed violations, most relevant
first. Both are imported on first use.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from formatbook_core import ExpectationError, Violation
from formatbook_core.limits import MAX_SIZE

_MESSAGE_LIMIT = 300
_cache: dict[Any, JsonSchema] = {}
_CACHE_LIMIT = 256


class JsonSchema:
    """A loaded schema: ``schema`` (the JSON Schema as a dict), ``model`` (the pydantic
    model class, or ``None``) and ``source`` (where it came from, for messages)."""

    def __init__(self, schema: dict[str, Any] | bool, model: Any = None, source: str | None = None):
        self.schema = schema
        self.model = model
        self.source = source
        self._fast: Any = None
        self._fast_failed = False
        self._slow: Any = None

    def __repr__(self) -> str:
        return f"<JsonSchema {self.source or (self.model.__name__ if self.model else 'dict')}>"

    # -- compiling -----------------------------------------------------------------
    def _compiled(self) -> Any:
        if self._fast is None and not self._fast_failed:
            try:
                import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

                if isinstance(self.schema, dict) and "$schema" in self.schema:
                    self._fast = jsonschema_rs.validator_for(self.schema)
                else:
                    self._fast = jsonschema_rs.Draft202012Validator(self.schema)
            except Exception:  # a schema the Rust validator cannot take: the Python one decides
                self._fast_failed = True
        return self._fast

    def _python(self) -> Any:
        if self._slow is None:
            from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: heavy, needed only for an invalid value
            from jsonschema.validators import validator_for  # noqa: PLC0415 - lazy: heavy, needed only for an invalid value

            cls = validator_for(self.schema, default=Draft202012Validator)
            self._slow = cls(self.schema)
        return self._slow

    def check_schema(self) -> None:
        """Raise ``ExpectationError`` when the schema itself is not a valid JSON Schema."""
        from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: heavy, needed only to check a schema
        from jsonschema.exceptions import SchemaError  # noqa: PLC0415 - lazy: heavy, needed only to check a schema
        from jsonschema.validators import validator_for  # noqa: PLC0415 - lazy: heavy, needed only to check a schema

        try:
            validator_for(self.schema, default=Draft202012Validator).check_schema(self.schema)
        except SchemaError as err:
            raise ExpectationError(f"invalid JSON Schema{_from(self.source)}: {_short(err.message)}") from None

    # -- validating ----------------------------------------------------------------
    def is_valid(self, value: Any) -> bool:
        """Whether ``value`` (parsed JSON) satisfies the schema."""
        fast = self._compiled()
        if fast is not None:
            try:
                return fast.is_valid(value)
            except Exception:
                pass
        return self._python().is_valid(value)

    def violations(self, value: Any) -> tuple[Violation, ...]:
        """Every violation of ``value``, most relevant first (empty when valid)."""
        if self.is_valid(value):
            return ()
        from jsonschema.exceptions import best_match, relevance  # noqa: PLC0415 - lazy: heavy, needed only for an invalid value

        errors = list(self._python().iter_errors(value))
        if not errors:  # the Rust validator saw something Python's does not (a format, say)
            return tuple(self._rust_violations(value))
        best = best_match(errors)
        ordered = [best] + sorted((e for e in errors if e is not best), key=relevance, reverse=True)
        return tuple(_violation(e) for e in ordered)

    def _rust_violations(self, value: Any) -> list[Violation]:
        out = []
        try:
            for err in self._compiled().iter_errors(value):
                path = tuple(err.instance_path)
                out.append(Violation("schema.invalid", _short(err.message), path=path))
        except Exception as exc:
            out.append(Violation("schema.invalid", _short(f"the value does not match the schema: {exc}")))
        return out or [Violation("schema.invalid", "the value does not match the schema")]


def _violation(err: Any) -> Violation:
    keyword = err.validator if isinstance(err.validator, str) else None
    return Violation(
        f"schema.{keyword or 'invalid'}",
        _short(err.message),
        path=tuple(err.absolute_path),
        keyword=keyword,
        expected=err.validator_value,
    )


def _short(message: str) -> str:
    return message if len(message) <= _MESSAGE_LIMIT else message[: _MESSAGE_LIMIT - 1] + "…"


def _from(source: str | None) -> str:
    return f" ({source})" if source else ""


def is_model(schema: Any) -> bool:
    """Whether ``schema`` is a pydantic model class (checked without importing pydantic)."""
    return (
        isinstance(schema, type)
        and callable(getattr(schema, "model_json_schema", None))
        and callable(getattr(schema, "model_validate_json", None))
    )


def load_schema(
    schema: Any, *, allow_fetch: bool = False, base_dir: str | os.PathLike | None = None, **_: Any
) -> JsonSchema | None:
    """Turn ``schema`` into a :class:`JsonSchema` (cached), or ``None`` for no schema.

    Raises ``ExpectationError`` for a schema that cannot be used: a missing file, text that
    is not JSON, a URL without ``allow_fetch``, an invalid JSON Schema.
    """
    if schema is None or isinstance(schema, JsonSchema):
        return schema
    key: Any
    if isinstance(schema, (dict, bool)):
        key = ("id", id(schema))
        hit = _cache.get(key)
        if hit is not None and hit.schema is schema:
            return hit
        loaded = JsonSchema(schema)
    elif is_model(schema):
        key = ("model", schema)
        hit = _cache.get(key)
        if hit is not None:
            return hit
        loaded = JsonSchema(schema.model_json_schema(), model=schema, source=schema.__name__)
    elif isinstance(schema, (str, os.PathLike)):
        text = os.fspath(schema)
        key = ("text", text, str(base_dir) if base_dir else None, allow_fetch)
        hit = _cache.get(key)
        if hit is not None:
            return hit
        loaded = _load_text(text, allow_fetch=allow_fetch, base_dir=base_dir, is_path=isinstance(schema, os.PathLike))
    else:
        raise ExpectationError(
            f"a JSON schema must be a dict, a file path, a URL or a pydantic model class, not {type(schema).__name__}"
        )
    loaded.check_schema()
    if len(_cache) >= _CACHE_LIMIT:
        _cache.pop(next(iter(_cache)))
    _cache[key] = loaded
    return loaded


def _load_text(text: str, *, allow_fetch: bool, base_dir: Any, is_path: bool) -> JsonSchema:
    stripped = text.strip()
    if not is_path and stripped[:1] in ("{", "["):
        return JsonSchema(_decode(stripped, "the schema text"), source="inline schema")
    if not is_path and stripped.lower().startswith(("http://", "https://")):
        if not allow_fetch:
            raise ExpectationError(
                f"the schema {stripped} is a URL; formatbook fetches schemas only when allow_fetch=True"
            )
        return JsonSchema(_decode(_fetch(stripped), stripped), source=stripped)
    path = Path(text).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    try:
        content = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ExpectationError(f"schema file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ExpectationError(f"cannot read the schema file {path}: {err}") from None
    return JsonSchema(_decode(content, str(path)), source=str(path))


def _decode(text: str, source: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError as err:
        raise ExpectationError(f"{source} is not valid JSON: {err}") from None
    if not isinstance(value, (dict, bool)):
        raise ExpectationError(f"{source} is not a JSON Schema (an object or a boolean)")
    return value


def _fetch(url: str) -> str:
    from urllib.request import Request, urlopen  # noqa: PLC0415 - lazy: only with allow_fetch

    try:
        with urlopen(Request(url, headers={"Accept": "application/schema+json, application/json"}), timeout=10) as resp:
            return resp.read(MAX_SIZE).decode("utf-8-sig")
    except Exception as err:
        raise ExpectationError(f"cannot fetch the schema {url}: {err}") from None
