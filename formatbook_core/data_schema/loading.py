"""JSON Schema on parsed values: loading, compiling once, validating.

Shared by every format whose parsed value is data (objects, arrays, strings, numbers,
booleans, null): the schema applies to the value, whatever syntax it was written in.

A schema is given as a ``dict``, a path (``str`` or ``pathlib.Path``) to a JSON file,
a URL (fetched only with ``allow_fetch=True``), JSON text, or a pydantic model class (its
``model_json_schema()``; the model then builds the final value). Draft 2020-12 applies
unless the schema's ``$schema`` names another draft.

Loading checks everything about the schema, so that a bad schema is an
``ExpectationError`` then and never a failure of a reply: the JSON Schema itself, its
depth, every reference (read only under the policy of :mod:`.references`: nothing but
the schema itself unless ``allow_fetch=True``), loops of references, and its patterns
(compiled for a linear-time engine, :mod:`.patterns`).

Validation takes two speeds: jsonschema-rs (compiled) answers "valid?" fast; only when
the answer is no does pure-Python ``jsonschema`` list detailed violations, most relevant
first, within a number of steps decided before it starts (:mod:`.listing`), with the regex keywords replaced by linear-time ones (:mod:`.patterns`) and
``uniqueItems`` by a linear one (:mod:`.unique`; jsonschema-rs's too, for a value holding
integers beyond a double). Both are imported on first use.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any

from ..fetching import FetchError, fetch
from ..results import ExpectationError, Violation
from ..schema_files import read_schema_file, schema_path
from . import listing, patterns, references, unique

_MESSAGE_LIMIT = 300
_cache: dict[Any, JsonSchema] = {}
_CACHE_LIMIT = 256
_extended: dict[Any, Any] = {}


class JsonSchema:
    """A loaded schema: ``schema`` (the JSON Schema as a dict), ``model`` (the pydantic
    model class, or ``None``) and ``source`` (where it came from, for messages).

    :meth:`prepare` (run by :func:`load_schema`) checks the schema, resolves its
    references under the policy of :mod:`.references` and compiles it; every problem of
    the schema is an ``ExpectationError`` then, never a failure of a reply."""

    def __init__(
        self, schema: dict[str, Any] | bool, model: Any = None, source: str | None = None, *, allow_fetch: bool = False
    ):
        self.schema = schema
        self.model = model
        self.source = source
        self.retriever = references.Retriever(allow_fetch)
        self._fast: Any = None
        self._slow: Any = None
        self._exact: Any = None  # jsonschema-rs with the linear uniqueItems (:mod:`.unique`)
        self._unique = False
        self._unevaluated = True  # the schema has unevaluatedProperties (listed by jsonschema-rs)
        self._fans_out = True  # a value may meet a subschema more than once (:func:`.listing.fans_out`)

    def __repr__(self) -> str:
        return f"<JsonSchema {self.source or (self.model.__name__ if self.model else 'dict')}>"

    # -- loading -------------------------------------------------------------------
    def prepare(self) -> None:
        """Check, resolve and compile the schema; raise ``ExpectationError`` for a schema
        that cannot be used (invalid, too deep, a refused or unresolvable reference, a
        loop of references, a pattern the linear-time regex engine cannot run)."""
        if references.schema_depth_exceeds(self.schema):
            raise ExpectationError(
                f"the JSON Schema{_from(self.source)} is nested deeper than {references.MAX_SCHEMA_DEPTH} levels"
            )
        self.check_schema()
        references.check_references(self.schema, self.retriever)
        self._compile()

    def _compile(self) -> None:
        import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

        refused_before = len(self.retriever.refused)
        try:
            self._fast = jsonschema_rs.validator_for(
                self.schema, retriever=self.retriever, pattern_options=patterns.regex_options()
            )
            documents = [self.schema, *self.retriever.documents.values()]
            self._unique = any(map(unique.uses_unique_items, documents))
            self._unevaluated = any("unevaluatedProperties" in node for node in listing.objects(documents))
            self._fans_out = listing.fans_out(documents)
        except Exception as err:
            detail = _short(str(err).split("\n", 1)[0])
            if len(self.retriever.refused) > refused_before:
                raise references.refused_error(self.retriever, detail) from None
            if 'is not a "regex"' in detail:
                detail += " (patterns run on a linear-time engine: no look-around, no back-references)"
            raise ExpectationError(f"cannot use the JSON Schema{_from(self.source)}: {detail}") from None

    def _validator(self, value: Any) -> Any:
        """The compiled validator for ``value``: jsonschema-rs's own, or, when the schema
        asks for unique items and ``value`` holds numbers its hashing collides on, the one
        with the linear ``uniqueItems`` (:mod:`.unique`)."""
        if not self._unique or not unique.inexact_numbers(value):
            return self._fast
        if self._exact is None:
            import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

            self._exact = jsonschema_rs.validator_for(
                self.schema,
                retriever=self.retriever,
                pattern_options=patterns.regex_options(),
                keywords={"uniqueItems": unique.LinearUniqueItems},
            )
        return self._exact

    def _python(self) -> Any:
        if self._slow is None:
            import warnings  # noqa: PLC0415 - only with the listing

            from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: heavy, needed only for an invalid value
            from jsonschema.validators import extend, validator_for  # noqa: PLC0415 - lazy: heavy, listing only

            with warnings.catch_warnings():  # an unknown $schema: fetched (allowed) by jsonschema-rs only
                warnings.simplefilter("ignore", DeprecationWarning)
                cls = validator_for(self.schema, default=Draft202012Validator)
            if cls not in _extended:  # every keyword spends a step of the listing (:mod:`.listing`)
                keywords = {**cls.VALIDATORS, **patterns.KEYWORDS, **unique.KEYWORDS}
                _extended[cls] = extend(cls, {name: listing.metered(fn) for name, fn in keywords.items()})
            self._slow = _extended[cls](self.schema, registry=references.python_registry(self.retriever))
        return self._slow

    @property
    def top_types(self) -> frozenset[str]:
        """The types the schema's top-level ``type`` keyword names (empty when it names none)."""
        kind = self.schema.get("type") if isinstance(self.schema, dict) else None
        if isinstance(kind, str):
            return frozenset((kind,))
        return frozenset(k for k in kind if isinstance(k, str)) if isinstance(kind, list) else frozenset()

    def check_schema(self) -> None:
        """Raise ``ExpectationError`` when the schema itself is not a valid JSON Schema."""
        from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: heavy, needed only to check a schema
        from jsonschema.exceptions import SchemaError  # noqa: PLC0415 - lazy: heavy, needed only to check a schema
        from jsonschema.validators import validator_for  # noqa: PLC0415 - lazy: heavy, needed only to check a schema

        try:
            cls = validator_for(self.schema, default=Draft202012Validator)
            # a pattern is judged by the engine that runs it, not by Python's re
            cls.check_schema(self.schema, format_checker=patterns.format_checker(cls))
        except SchemaError as err:
            detail = _short(err.message)
            if "is not a 'regex'" in detail:
                detail += " (patterns run on a linear-time engine: no look-around, no back-references)"
            raise ExpectationError(f"invalid JSON Schema{_from(self.source)}: {detail}") from None
        except RecursionError:
            raise ExpectationError(f"the JSON Schema{_from(self.source)} is nested too deeply to check") from None

    # -- validating ----------------------------------------------------------------
    def is_valid(self, value: Any) -> bool:
        """Whether ``value`` (parsed JSON) satisfies the schema (jsonschema-rs decides)."""
        return bool(_at_any_depth(self._is_valid, value))

    def violations(self, value: Any) -> tuple[Violation, ...]:
        """Every violation of ``value``, most relevant first (empty when valid). The
        Python listing runs only when jsonschema-rs finds the value invalid."""
        if self._fast is None:
            return tuple(_at_any_depth(self._violations, value))
        fast = self._validator(value)
        try:  # the common answer first: a valid value, told by the validator
            if fast.is_valid(value):
                return ()
        except Exception as err:  # too deep here (asked again on a fresh stack), or a value it cannot take
            return tuple(_at_any_depth(self._violations, value, here=not _recursion(err)))
        return tuple(_at_any_depth(self._listing, value))  # invalid: not asked again

    def _is_valid(self, value: Any, here: bool) -> bool:
        if self._fast is None:
            self._compile()
        try:
            return bool(self._validator(value).is_valid(value))
        except Exception as err:  # a value jsonschema-rs cannot take: the listing decides
            if here and _recursion(err):
                raise _TooDeepHere from None
            found = self._python_listing(value, here)
            # too deep for both, or stopped: not shown to be valid
            return found is not None and not found.cut and found.count == 0

    def _violations(self, value: Any, here: bool) -> tuple[Violation, ...]:
        if self._is_valid(value, here):
            return ()  # the validator's word: nothing walks a valid value again
        return self._listing(value, here)

    def _listing(self, value: Any, here: bool) -> tuple[Violation, ...]:
        """The violations of ``value``, which the validator found invalid (:mod:`.listing`)."""
        found = self._python_listing(value, here)
        if found is None:  # too deep for the Python listing: jsonschema-rs lists them
            return self._rust_listing(value, here)
        if found.cut:  # the steps ran out: what was listed, and that the listing stopped
            return (*self._ordered(found, value, here), _cut_violation())
        extra = self._rust_violations(value, only="unevaluatedProperties", here=here) if self._unevaluated else []
        if not found.count:  # the Rust validator saw something Python's does not (a format, say)
            return tuple(extra or self._rust_violations(value, here=here))
        return (*self._ordered(found, value, here), *extra)

    def _ordered(self, found: listing.Listing, value: Any, here: bool) -> tuple[Violation, ...]:
        try:
            return tuple(found.ordered())
        except RecursionError:
            if here:
                raise _TooDeepHere from None
            return self._rust_listing(value, False)

    def _python_listing(self, value: Any, here: bool = False) -> listing.Listing | None:
        """The Python listing of ``value``'s violations, within its steps; ``None`` when
        it reached the recursion limit (``_TooDeepHere`` when ``here``)."""
        found = listing.Listing(_violation)
        listing.METER.left = listing.steps_for(value)
        try:
            found.take(self._python().iter_errors(value))
        except RecursionError:
            if here:
                raise _TooDeepHere from None
            return None
        finally:
            listing.METER.left = None
        return found

    def _rust_listing(self, value: Any, here: bool) -> tuple[Violation, ...]:
        """jsonschema-rs's listing, which nothing can stop: only for a schema that applies
        each subschema once to a value (else its work may double at each level)."""
        if self._fans_out:
            return (_cut_violation(),)
        return tuple(self._rust_violations(value, here=here))

    def _rust_violations(self, value: Any, only: str | None = None, *, here: bool = False) -> list[Violation]:
        out = []
        try:
            for err in self._validator(value).iter_errors(value):
                keyword = getattr(getattr(err, "kind", None), "name", None)
                if only is not None and keyword != only:
                    continue
                path = tuple(err.instance_path)
                code = f"schema.{keyword}" if isinstance(keyword, str) else "schema.invalid"
                out.append(Violation(code, _short(err.message), path=path, keyword=keyword))
        except Exception as exc:
            if here and _recursion(exc):
                raise _TooDeepHere from None
            if only is None:
                out.append(Violation("schema.invalid", _short(f"the value does not match the schema: {exc}")))
        if only is not None:
            return out
        return out or [Violation("schema.invalid", "the value does not match the schema")]


class _TooDeepHere(Exception):
    """Validation reached the recursion limit from the caller's stack depth."""


def _recursion(err: BaseException) -> bool:
    """Whether jsonschema-rs gave up at Python's recursion limit (it counts the caller's
    frames too) rather than on the value itself."""
    return isinstance(err, RecursionError) or "recursion" in str(err).lower()


def _at_any_depth(validate: Any, value: Any, *, here: bool = True) -> Any:
    """``validate(value, here)`` as it answers from a shallow stack.

    Both validators stop at Python's recursion limit, which counts the caller's frames: the
    same deep value could pass or fail, or list other violations, depending on where it was
    checked from (check() and a StreamGuard disagreed). When validating here reaches the
    limit, the value is validated again on a new thread, whose stack starts empty
    (``here=False``: at once, the caller already reached it)."""
    if here:
        try:
            return validate(value, True)
        except _TooDeepHere:
            pass
    out: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            out.append(validate(value, False))
        except BaseException as err:  # re-raised in the caller's thread
            failure.append(err)

    worker = threading.Thread(target=run, name="formatbook-schema")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return out[0]


def _violation(err: Any) -> Violation:
    keyword = err.validator if isinstance(err.validator, str) else None
    return Violation(
        f"schema.{keyword or 'invalid'}",
        _short(err.message),
        path=tuple(err.absolute_path),
        keyword=keyword,
        expected=err.validator_value,
    )


def _cut_violation() -> Violation:
    return Violation(
        "schema.invalid",
        "the value does not match the schema; its violations are not all listed: listing them would take "
        f"more than {listing.BASE_STEPS:,} steps and {listing.STEPS_PER_NODE} a node of the value",
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
    if schema is None:
        return None
    if isinstance(schema, JsonSchema):
        if schema._fast is None:  # built directly, not loaded here: check it now
            schema.prepare()
        return schema
    key: Any
    if isinstance(schema, (dict, bool)):
        key = ("id", id(schema), allow_fetch)
        hit = _cache.get(key)
        if hit is not None and hit.schema is schema:
            return hit
        loaded = JsonSchema(schema, allow_fetch=allow_fetch)
    elif is_model(schema):
        key = ("model", schema, allow_fetch)
        hit = _cache.get(key)
        if hit is not None:
            return hit
        loaded = JsonSchema(schema.model_json_schema(), model=schema, source=schema.__name__, allow_fetch=allow_fetch)
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
    loaded.prepare()
    if len(_cache) >= _CACHE_LIMIT:
        _cache.pop(next(iter(_cache)))
    _cache[key] = loaded
    return loaded


def _load_text(text: str, *, allow_fetch: bool, base_dir: Any, is_path: bool) -> JsonSchema:
    stripped = text.strip()
    if not is_path and stripped[:1] in ("{", "["):
        return JsonSchema(_decode(stripped, "the schema text"), source="inline schema", allow_fetch=allow_fetch)
    if not is_path and stripped.lower().startswith(("http://", "https://")):
        if not allow_fetch:
            raise ExpectationError(
                f"the schema {stripped} is a URL; formatbook fetches schemas only when allow_fetch=True"
            )
        try:
            fetched = _decode(fetch(stripped, accept=references.ACCEPT), stripped)
        except FetchError as err:
            raise ExpectationError(f"cannot fetch the schema {stripped}: {err.why}") from None
        if isinstance(fetched, dict) and "$id" not in fetched and "id" not in fetched:
            fetched = {"$id": stripped, **fetched}  # its relative references resolve against its URL
        return JsonSchema(fetched, source=stripped, allow_fetch=True)
    path = schema_path(text, base_dir)
    try:
        content = read_schema_file(path, encoding="utf-8-sig")
    except FileNotFoundError:
        raise ExpectationError(f"schema file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ExpectationError(f"cannot read the schema file {path}: {err}") from None
    return JsonSchema(_decode(content, str(path)), source=str(path), allow_fetch=allow_fetch)


def _decode(text: str, source: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError as err:
        raise ExpectationError(f"{source} is not valid JSON: {err}") from None
    except RecursionError:
        raise ExpectationError(f"{source} is nested too deeply") from None
    if not isinstance(value, (dict, bool)):
        raise ExpectationError(f"{source} is not a JSON Schema (an object or a boolean)")
    return value
