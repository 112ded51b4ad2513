"""Writing Flex-MD: :func:`stringify_flex_md`."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from .convert import FLOAT, INT
from .header import BARE_VALUE, KEY, TYPE
from .model import DEFAULT_ARRAY_KEYS, FIELD_KEYS, FlexDocument


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _header_value(value: str) -> str:
    if value and "]" not in value and BARE_VALUE.fullmatch(value):
        return value
    return _quote(value)


def _meta_text(key: str, value: Any, array_keys: tuple[str, ...] = ()) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"meta {key!r}: {value!r} cannot be written")
        return repr(value)
    if isinstance(value, (list, tuple)):
        if key not in array_keys:
            raise ValueError(f"meta {key!r}: only the array keys {list(array_keys)} hold lists")
        items = [str(v) for v in value]
        if any("," in v or "\n" in v or v != v.strip() or not v for v in items):
            raise ValueError(f"meta {key!r}: list items may not hold commas, line breaks or outer spaces")
        return ", ".join(items)
    if isinstance(value, str):
        if "\n" in value or "\r" in value:
            return json.dumps(value, ensure_ascii=False)
        # a string that would read back as something else is written as a JSON string
        if (
            key in array_keys
            or value != value.strip()
            or INT.match(value)
            or FLOAT.match(value)
            or value.lower() in ("true", "false", "null")
            or (value.startswith('"') and value.endswith('"') and len(value) >= 2)
            or "," in value
        ):
            return json.dumps(value, ensure_ascii=False)
        return value
    raise ValueError(f"meta {key!r}: a {type(value).__name__} cannot be written")


def _fence_for(raw: str, char: str = "`") -> str:
    """A fence no line of ``raw`` can close."""
    longest = 0
    for line in raw.split("\n"):
        stripped = line.lstrip(" ")
        if len(line) - len(stripped) <= 3:
            run = len(stripped) - len(stripped.lstrip(char))
            longest = max(longest, run)
    return char * max(3, longest + 1)


def _check_single_line(what: str, value: str) -> None:
    if "\n" in value or "\r" in value:
        raise ValueError(f"{what} cannot hold a line break")


def stringify_flex_md(doc: FlexDocument, *, array_keys: Iterable[str] = DEFAULT_ARRAY_KEYS) -> str:
    """Write ``doc`` as Flex-MD text that :func:`parse_flex_md` reads back equal (with
    the same options), for every document :func:`parse_flex_md` returns. Meta goes on
    ``@key: value`` lines (strings that would read back as numbers, booleans or lists
    are written as JSON strings), ``role``/``id``/``ts``/``title`` in the header,
    payloads before the body. Raises ``ValueError`` for what the syntax cannot carry (a
    line break in a title, a type that is not a word, a list item holding a comma).
    ``array_keys`` must match the parse's: a string under such a key is quoted."""
    keys = tuple(array_keys)
    out: list[str] = []
    if doc.title is not None:
        _check_single_line("the document title", doc.title)
        out += [f"# {doc.title}", ""]
    for key, value in doc.meta.items():
        if not KEY.fullmatch(str(key)):
            raise ValueError(f"meta key {key!r} is not a word")
        out.append(f"@{key}: {_meta_text(key, value, keys)}".rstrip(" "))
    if doc.meta:
        out.append("")
    for index, frame in enumerate(doc.frames):
        if frame.type == "":
            if index != 0:
                raise ValueError("only the first frame may have no type")
        else:
            if not TYPE.fullmatch(frame.type):
                raise ValueError(f"frame type {frame.type!r} is not a word")
            attrs = [frame.type]
            for key in FIELD_KEYS:
                value = getattr(frame, key)
                if value is not None:
                    _check_single_line(f"the frame's {key}", value)
                    attrs.append(f"{key}={_header_value(value)}")
            out.append("[[" + " ".join(attrs) + "]]")
        for key, value in frame.meta.items():
            if not KEY.fullmatch(str(key)):
                raise ValueError(f"meta key {key!r} is not a word")
            if frame.type == "":
                raise ValueError("a frame without a type cannot hold meta")
            out.append(f"@{key}: {_meta_text(key, value, keys)}".rstrip(" "))
        for name, payload in frame.payloads.items():
            _check_single_line("a payload name", name)
            if name != name.strip() or not name:
                raise ValueError(f"payload name {name!r} needs text without outer spaces")
            lang = payload.lang or ""
            if any(c.isspace() for c in lang) or ("`" in lang and "~" in lang):
                raise ValueError(f"payload language {lang!r} must be one word")
            fence = _fence_for(payload.raw, "~" if "`" in lang else "`")
            out += (
                ["", f"@payload:name: {name}", f"{fence}{lang}", payload.raw, fence]
                if payload.raw
                else [
                    "",
                    f"@payload:name: {name}",
                    f"{fence}{lang}",
                    fence,
                ]
            )
        if frame.body_md:
            out += ["", frame.body_md]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
