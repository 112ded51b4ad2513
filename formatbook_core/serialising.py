"""Plain JSON data for formatbook's values: what ``CheckResult.to_dict()``, the batch
records and the command line write.

:func:`json_ready` turns any value a format may parse to (decimals, dates, pydantic
models, dataclasses, sets, values deeper than the stack) into data ``json.dumps`` writes;
:func:`dumps_json` writes it, keeping an :class:`ExactNumber`'s digits. Nothing here
knows a result type: a result's fields go through :func:`fields_json`.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import json.encoder
import math
from decimal import Decimal
from typing import Any, NamedTuple, Protocol


def fields_json(obj: Any) -> dict[str, Any]:
    """The fields of a dataclass instance (a ``Repair``, a ``Violation``...) as plain JSON
    data, by name (a ``Span`` is a tuple, so it becomes ``[start, end]``)."""
    return {name: json_ready(getattr(obj, name)) for name in obj.__dataclass_fields__}


class JSONValue(Protocol):
    """A value that knows its JSON form: ``to_json()`` returns JSON-ready data (dicts with
    ``str`` keys, lists, ``str``, ``int``, ``float``, ``bool``, ``None``, or more values
    that ``json_ready`` converts). ``CheckResult.to_dict()`` serialises such a value
    through it (Markdown's ``Extracted`` is one)."""

    def to_json(self) -> Any: ...


class ExactNumber(float):
    """A decimal number that no ``float`` holds exactly (``0.10000000000000000000001``).

    It is the nearest ``float`` (so ``json.dumps`` writes a number and the round trip
    through ``json`` compares equal) and keeps the exact digits in ``text``, which
    :func:`dumps_json` (the CLI's writer) writes as they are.
    """

    text: str

    def __new__(cls, value: Decimal) -> ExactNumber:
        number = super().__new__(cls, float(value))
        number.text = _decimal_text(value)
        return number

    def __repr__(self) -> str:
        return f"ExactNumber({self.text})"


# Python refuses to turn an int of more digits than this into text (CVE-2020-10735), so
# json.dumps cannot write it: a larger integral Decimal is not turned into an int.
_INT_DIGITS = 4300
# Values nested deeper than this are written as a note, not followed (a cycle made by a
# to_json() that returns itself, or a value no JSON reader could take).
_MAX_JSON_DEPTH = 10_000
_NON_FINITE = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}


def _decimal_text(value: Decimal) -> str:
    """``value`` in JSON number syntax, exact (``Decimal("1E+2")`` is ``1E+2``)."""
    text = str(value)
    return text[:-1] if text.endswith(".") else text


def _number(value: float | Decimal) -> Any:
    """A float or Decimal as plain JSON: exact where JSON can be; never Infinity or NaN."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            return _NON_FINITE["nan" if value.is_nan() else ("-inf" if value.is_signed() else "inf")]
        if value == value.to_integral_value() and value.adjusted() < _INT_DIGITS:
            return int(value)
        nearest = float(value)
        if not math.isfinite(nearest):  # beyond a float's range: the exact digits, as text
            return _decimal_text(value)
        return nearest if Decimal(nearest) == value else ExactNumber(value)
    if math.isfinite(value):
        return float(value)
    return _NON_FINITE[repr(float(value))]


_CONTAINER = object()  # what _scalar answers for a value holding other values


def _scalar(value: Any) -> Any:
    """``value`` as plain JSON when it holds no other values, else ``_CONTAINER``."""
    if value is None or isinstance(value, (bool, ExactNumber)):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # a str subclass (a str Enum) as its plain text
    if isinstance(value, int):
        return int(value)
    if isinstance(value, (float, Decimal)):
        return _number(value)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    return _CONTAINER


class _Instead(NamedTuple):
    """What ``_expand`` answers for a value that another value stands for (its JSON form)."""

    value: Any


def _expand(value: Any) -> Any:
    """A value made of other values, as a ``dict`` or a sequence of them; an ``_Instead``
    holding the value that stands for it; or its ``str()``."""
    if isinstance(value, dict):
        return value
    if isinstance(value, (list, tuple)):
        return value
    if isinstance(value, (set, frozenset)):
        try:
            return sorted(value)
        except TypeError:
            return list(value)
    if isinstance(value, enum.Enum):
        return _Instead(value.value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        try:
            return _Instead(to_json())
        except Exception:  # a value that cannot convert itself is shown by its str()
            return str(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return _Instead(dump(mode="json"))
        except Exception:  # a model that cannot dump itself is shown by its repr
            return repr(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    return str(value)


def json_ready(value: Any) -> Any:
    """``value`` as plain JSON data, which ``json.dumps`` writes and ``json.loads`` reads back equal.

    ``None``, ``bool``, ``str`` and ``int`` stay as they are; a finite ``float`` stays; an
    infinite or NaN one (or ``Decimal``) becomes the string ``"Infinity"``, ``"-Infinity"``
    or ``"NaN"``, never a bare ``Infinity``. A ``Decimal`` becomes an ``int`` when whole, a
    ``float`` when one holds it exactly, else an :class:`ExactNumber` (its exact digits kept
    for :func:`dumps_json`); one beyond a float's range and not a whole number of at most
    4,300 digits becomes its digits as a string. Dates and times become ISO strings; a value
    with ``to_json()`` (:class:`JSONValue`) goes through it; a pydantic model through
    ``model_dump(mode="json")``; a dataclass instance becomes a dict of its fields; tuples
    and sets become lists (sets sorted when they can be); dict keys become strings. Any other
    value becomes its ``str()``. Works iteratively: deep values do not exhaust the stack.
    """
    return prepare_json(value)[0]


# Deeper than this, the C encoder of json.dumps may run out of stack: dumps_json writes
# such data itself.
_C_ENCODER_DEPTH = 200
_PLAIN = (str, int, bool, type(None))  # exact types that are plain JSON as they are
_encode_str = json.encoder.encode_basestring  # a str as json.dumps(..., ensure_ascii=False) writes it


def prepare_json(value: Any) -> tuple[Any, bool]:
    """``json_ready(value)``, and whether ``json.dumps`` cannot write it as it should (it
    holds an ``ExactNumber`` or is nested deeper than ``_C_ENCODER_DEPTH``)."""
    holder: list[Any] = [None]
    special = False
    stack: list[tuple[Any, Any, Any, int]] = [(value, holder, 0, 0)]
    while stack:
        item, parent, key, depth = stack.pop()
        if type(item) in _PLAIN:  # the common case, first
            parent[key] = item
            continue
        kind = type(item)
        plain = _CONTAINER if kind is dict or kind is list else _scalar(item)
        if plain is not _CONTAINER:
            special = special or type(plain) is ExactNumber
            parent[key] = plain
            continue
        if depth > _MAX_JSON_DEPTH:
            parent[key] = f"(nested deeper than {_MAX_JSON_DEPTH} levels)"
            continue
        special = special or depth >= _C_ENCODER_DEPTH
        expanded = item if kind is dict or kind is list else _expand(item)
        if isinstance(expanded, str):
            parent[key] = expanded
        elif isinstance(expanded, dict):
            out: dict[str, Any] = {}
            parent[key] = out
            for k, v in expanded.items():
                name = k if type(k) is str else (str.__str__(k) if isinstance(k, str) else str(k))
                out[name] = v
                if type(v) not in _PLAIN:
                    stack.append((v, out, name, depth + 1))
        elif isinstance(expanded, _Instead):  # to_json(), model_dump(), an Enum's value
            stack.append((expanded.value, parent, key, depth + 1))
        else:
            items = list(expanded)
            parent[key] = items
            for i, v in enumerate(items):
                if type(v) not in _PLAIN:
                    stack.append((v, items, i, depth + 1))
    return holder[0], special


def dumps_json(data: Any, indent: int | None = None) -> str:
    """JSON text for ``data`` (as :func:`json_ready` gives it), written as ``json.dumps``
    writes it, except that an :class:`ExactNumber` keeps its exact digits and that no
    ``Infinity`` or ``NaN`` is ever written. Works at any depth."""
    data, special = prepare_json(data)
    if not special:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=indent)
    parts: list[str] = []
    item_sep, key_sep = (",", ": ") if indent is not None else (", ", ": ")
    # the stack holds (value, nesting level) to write, and (raw, text) to write as it is
    raw = object()
    stack: list[tuple[Any, Any]] = [(data, 0)]
    while stack:
        item, level = stack.pop()
        if item is raw:
            parts.append(level)
            continue
        if isinstance(item, ExactNumber):
            parts.append(item.text)
        elif isinstance(item, dict) and item:
            pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
            end = "" if indent is None else "\n" + " " * (indent * level)
            stack.append((raw, end + "}"))
            entries = list(item.items())
            for i in range(len(entries) - 1, -1, -1):
                k, v = entries[i]
                stack.append((v, level + 1))
                lead = ("{" if i == 0 else item_sep) + pad
                stack.append((raw, lead + _encode_str(k) + key_sep))
        elif isinstance(item, list) and item:
            pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
            end = "" if indent is None else "\n" + " " * (indent * level)
            stack.append((raw, end + "]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append((item[i], level + 1))
                stack.append((raw, ("[" if i == 0 else item_sep) + pad))
        elif type(item) is str:
            parts.append(_encode_str(item))
        else:
            parts.append(json.dumps(item, ensure_ascii=False, allow_nan=False))
    return "".join(parts)
