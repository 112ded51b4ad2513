"""A schema's regular expressions, run on reply text in linear time.

A caller's ``pattern`` (``"^(a+)+$"``) meets untrusted text: Python's ``re`` backtracks
and can take seconds on 25 characters. Every pattern is therefore run by the Rust
``regex`` engine inside jsonschema-rs (``RegexOptions``: linear time, no look-around or
back-references; a pattern it cannot take is refused when the schema is loaded).

:data:`KEYWORDS` replaces the keywords of pure-Python jsonschema that run regexes on the
value (``pattern``, ``patternProperties``, ``additionalProperties``); its
``unevaluatedProperties`` reports nothing, and the violation listing takes that
keyword's violations from jsonschema-rs instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any


def regex_options() -> Any:
    """jsonschema-rs's option for the linear-time engine."""
    import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

    return jsonschema_rs.RegexOptions()


@lru_cache(maxsize=1024)
def _matcher(pattern: str) -> Any:
    import jsonschema_rs  # noqa: PLC0415 - lazy: compiled only when a schema is used

    return jsonschema_rs.Draft202012Validator({"pattern": pattern}, pattern_options=regex_options())


def compiles(pattern: object) -> bool:
    """Whether the linear-time engine takes ``pattern`` (the ``regex`` format of a schema's
    own meta-schema: what the validator runs is what is accepted, ``^\\p{Letter}+$``
    included, which Python's ``re`` would refuse). Anything but a string is no pattern
    the format judges."""
    if not isinstance(pattern, str):
        return True
    try:
        _matcher(pattern)
    except Exception:
        return False
    return True


def format_checker(cls: Any) -> Any:
    """``cls``'s format checker with ``regex`` judged by :func:`compiles` (one per class)."""
    checker = _checkers.get(cls)
    if checker is None:
        from jsonschema import FormatChecker  # noqa: PLC0415 - lazy: heavy, needed only to check a schema

        checker = FormatChecker(())
        checker.checkers = {**cls.FORMAT_CHECKER.checkers, "regex": (compiles, ())}
        _checkers[cls] = checker
    return checker


_checkers: dict[Any, Any] = {}


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (ECMA 262 ``pattern`` semantics,
    linear time). A pattern the engine cannot take matches nothing."""
    try:
        return bool(_matcher(pattern).is_valid(text))
    except Exception:
        return False


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError  # noqa: PLC0415 - lazy: heavy, listing only

    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError  # noqa: PLC0415 - lazy: heavy, listing only

    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [k for k in instance if k not in properties and not any(search(p, k) for p in patterns)]
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif not extra and extras:
        listed = ", ".join(repr(k) for k in sorted(extras))
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            yield ValidationError(
                f"{listed} {verb} not match any of the regexes: {', '.join(repr(p) for p in sorted(patterns))}"
            )
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({listed} {verb} unexpected)")


def _unevaluated_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
    return iter(())  # listed from jsonschema-rs: jsonschema's version runs ``re`` on the keys


KEYWORDS = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "unevaluatedProperties": _unevaluated_properties,
}
