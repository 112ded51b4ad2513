"""Flex-MD frames (the spec's layer A): semi-structured Markdown that round-trips to JSON.

::

    # Conversation            <- document title (a level-1 heading before any frame)
    @source: chat             <- document meta (right after the title)

    [[message role=user id=m1 title="First question"]]
    @tags: a, b               <- frame meta (right after the header)
    @payload:name: input      <- binds the next fenced block
    ```json
    {"a": 1}
    ```
    What is in the payload?   <- the frame's body

    ## [[message role=assistant]] Answer     <- heading form; text after ]] is the title

Choices (held by the tests):

* Line ends ``\\r\\n`` and ``\\r`` are read as ``\\n``; line numbers count those lines.
* A frame header is a whole line: up to three spaces, optionally ``#``..``######`` and a
  space, ``[[``, a type (a letter or ``_`` then letters, digits, ``_ . : -``), then
  ``key=value`` pairs (``"double"`` or ``'single'`` quoted values with backslash
  escapes, or bare values) and ``]]``. The bracket form allows nothing after ``]]``; the
  heading form takes the rest of the line as the frame's title. ``role``, ``id``,
  ``ts`` and ``title`` fill the frame's fields; other keys go to ``meta``.
* A frame runs to the next header or the end of the text; headers, meta and payload lines
  inside a fenced block are body text. A fence opens with three or more backticks or
  tildes indented at most three spaces, and closes with a run of the same character at
  least as long with nothing after it; an unclosed fence runs to the end of the text.
* ``@key: value`` lines (key: a letter or ``_`` then letters, digits, ``_ . -``) right
  after the header, blank lines allowed between, are meta; the first other line ends the
  meta block (``meta_anywhere=True``: every such line outside fences is meta).
* ``@payload:name: X`` binds the next fenced block, with only blank lines (and, with
  ``meta_anywhere``, meta lines) between, to
  payload ``X``: ``lang`` the info string's first word (``None`` when empty), ``raw`` the
  block's content, ``value`` the parsed JSON (``lang == "json"``), a table structure
  ``{"columns": [...], "rows": [[...]]}`` (``lang == "table"``) or ``raw``; a JSON or
  table error leaves ``value=None`` and the message in ``parse_error``. A declaration
  with no fence after it stays in the body (and :func:`validate_flex_md` reports it).
  A name bound twice: the last block wins.
* ``body_md`` is the frame's remaining lines with leading and trailing blank lines
  removed (payload declarations and their blocks taken out).
* Text before the first frame that is neither the title nor document meta is kept as a
  first frame with ``type == ""`` (nothing is dropped). Text with no header at all is
  such a frame alone; an empty or blank text has no frame.
* Meta values (``meta_type_mode``): ``"strings"`` (default) keeps strings; ``"infer"``
  reads ``true``/``false``, ``null``, integers and decimals without a leading zero
  (``"0012"`` stays a string; ``0`` and ``0.5`` are numbers); ``"schema"`` converts the
  keys of ``meta_schema`` (``{"key": "string"|"number"|"integer"|"boolean"|"null"|
  "array"}`` or Python types ``str, int, float, bool, list``) and keeps the others as
  strings; a value that does not convert stays a string. In every mode the
  ``array_keys`` (``tags``, ``refs``) are lists of strings split at commas, and a value
  written in double quotes is a JSON string (``@n: "12"`` is the string ``12``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Union

__all__ = [
    "FlexMetaValue",
    "FlexPayload",
    "FlexFrame",
    "FlexDocument",
    "FlexIssue",
    "FlexValidation",
    "parse_flex_md",
    "stringify_flex_md",
    "validate_flex_md",
    "flex_document_from_dict",
    "flex_document_to_dict",
    "is_flex_document_shape",
]

FlexMetaValue = Union[str, list, int, float, bool, None]
MetaTypeMode = Literal["strings", "infer", "schema"]


@dataclass
class FlexPayload:
    """A fenced block bound to a name by ``@payload:name: X``."""

    lang: str | None
    raw: str
    value: Any = None
    parse_error: str | None = None


@dataclass
class FlexFrame:
    """One frame: its header fields, meta, Markdown body and payloads."""

    type: str
    role: str | None = None
    id: str | None = None
    ts: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    body_md: str = ""
    payloads: dict[str, FlexPayload] = field(default_factory=dict)


@dataclass
class FlexDocument:
    """A Flex-MD document: an optional title and meta, and its frames in order."""

    title: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    frames: list[FlexFrame] = field(default_factory=list)


@dataclass(frozen=True)
class FlexIssue:
    """A problem :func:`validate_flex_md` found: a stable ``code``, a ``message`` and
    the 1-based ``line``; ``severity`` is ``"error"`` or ``"warning"``."""

    code: str
    message: str
    line: int
    severity: str = "error"


@dataclass
class FlexValidation:
    """``ok`` is true when no issue is an error."""

    ok: bool
    issues: list[FlexIssue]


# --------------------------------------------------------------------------- lexing

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER_START = re.compile(r"^ {0,3}(?:(#{1,6})[ \t]+)?\[\[")
_TYPE = re.compile(r"[A-Za-z_][\w.:-]*")
_KEY = re.compile(r"[A-Za-z_][\w.-]*")
_BARE_VALUE = re.compile(r"[^\s\"'\]]+(?:\](?!\])[^\s\"'\]]*)*")
_WS = re.compile(r"[ \t]*")
_META = re.compile(r"^@([A-Za-z_][\w.-]*):(?:[ \t]|$)")
_PAYLOAD = re.compile(r"^@payload:name:[ \t]*")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_QUOTED_D = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_QUOTED_S = re.compile(r"'((?:[^'\\]|\\.)*)'", re.DOTALL)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$")
_FIELD_KEYS = ("role", "id", "ts", "title")
_DEFAULT_ARRAY_KEYS = ("tags", "refs")


def _lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


class _HeaderError(Exception):
    """A line that starts like a frame header and is broken. ``strong`` when it holds a
    ``key=value`` pair (surely meant as a header, not a ``[[wiki link]]``)."""

    def __init__(self, code: str, message: str, strong: bool = True):
        super().__init__(message)
        self.code = code
        self.strong = strong


@dataclass
class _Header:
    type: str
    attrs: list[tuple[str, str, bool]]  # key, value, quoted
    title: str | None


def _read_header(line: str) -> _Header | None:
    """The header on ``line``, ``None`` when the line is no header attempt; raises
    ``_HeaderError`` for a line that starts like a header and is broken."""
    m = _HEADER_START.match(line)
    if m is None:
        return None
    heading = m.group(1) is not None
    pos = m.end()
    tm = _TYPE.match(line, pos)
    if tm is None:
        return None  # "[[ ...", "[[1]]", a wiki link to nothing: not a frame attempt
    ftype = tm.group(0)
    pos = tm.end()
    attrs: list[tuple[str, str, bool]] = []
    n = len(line)
    while True:
        ws = _WS.match(line, pos)
        sep = ws.end() > pos
        pos = ws.end()
        if line.startswith("]]", pos):
            pos += 2
            break
        if pos >= n:
            raise _HeaderError("unterminated_frame", f"frame header [[{ftype} ... has no closing ']]'")
        strong = bool(attrs) or "=" in line[pos:]
        if not sep:
            raise _HeaderError(
                "bad_frame_header", f"unexpected {line[pos]!r} in the frame header at column {pos + 1}", strong
            )
        km = _KEY.match(line, pos)
        if km is None or not line.startswith("=", km.end()):
            raise _HeaderError(
                "bad_frame_header", f"expected key=value in the frame header at column {pos + 1}", strong
            )
        key = km.group(0)
        pos = km.end() + 1
        if pos < n and line[pos] in "\"'":
            qm = (_QUOTED_D if line[pos] == '"' else _QUOTED_S).match(line, pos)
            if qm is None:
                raise _HeaderError("unterminated_frame", f"unterminated quoted value for {key!r} in the frame header")
            attrs.append((key, _UNESCAPE.sub(r"\1", qm.group(1)), True))
            pos = qm.end()
        else:
            vm = _BARE_VALUE.match(line, pos)
            value = vm.group(0) if vm else ""
            attrs.append((key, value, False))
            pos = vm.end() if vm else pos
    rest = line[pos:].strip()
    if heading:
        return _Header(ftype, attrs, rest or None)
    if rest:
        return None  # "[[Page]] is a wiki link" in prose: not a frame header
    return _Header(ftype, attrs, None)


def _fence_open(line: str) -> tuple[str, int] | None:
    m = _FENCE.match(line)
    if m is None:
        return None
    marker = m.group(2)
    if marker[0] == "`" and "`" in m.group(3):
        return None  # a backtick fence's info string holds no backtick (CommonMark)
    return marker[0], len(marker)


def _fence_closes(line: str, char: str, length: int) -> bool:
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(char))
    return run >= length and not stripped[run:].strip()


def _fence_info(line: str) -> str | None:
    m = _FENCE.match(line)
    info = m.group(3).strip().split(maxsplit=1) if m else []
    return info[0] if info else None


# --------------------------------------------------------------------------- values


def _schema_type(spec: Any) -> str:
    if spec in (str, "string", "str"):
        return "string"
    if spec in (int, "integer", "int"):
        return "integer"
    if spec in (float, "number", "float"):
        return "number"
    if spec in (bool, "boolean", "bool"):
        return "boolean"
    if spec in (None, type(None), "null", "none"):
        return "null"
    if spec in (list, "array", "list", "string[]"):
        return "array"
    return "string"


def _split_array(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _infer(value: str) -> Any:
    if value == "true":
        return True
    if value == "false":
        return False
    if value == "null":
        return None
    if len(value) < 400:  # int() refuses very long digit strings; they stay text
        if _INT.match(value):
            return int(value)
        if _FLOAT.match(value):
            number = float(value)
            if math.isfinite(number):
                return number
    return value


def _convert(key: str, raw: str, quoted: bool, mode: str, schema: dict | None, array_keys: tuple[str, ...]) -> Any:
    if quoted:
        return raw
    value = raw.strip()
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            decoded = None
        if isinstance(decoded, str):
            return decoded
    wanted = _schema_type(schema[key]) if mode == "schema" and schema and key in schema else None
    if key in array_keys and wanted in (None, "array"):
        return _split_array(value)
    if wanted is not None:
        return _convert_to(value, wanted)
    if mode == "infer":
        return _infer(value)
    return value


def _convert_to(value: str, wanted: str) -> Any:
    if wanted == "array":
        return _split_array(value)
    if wanted == "boolean":
        return {"true": True, "false": False}.get(value.lower(), value)
    if wanted == "null":
        return None if value.lower() in ("null", "") else value
    if wanted in ("integer", "number") and len(value) < 400:
        try:
            return int(value) if wanted == "integer" else _number(value)
        except ValueError:
            return value
    return value


def _number(value: str) -> int | float:
    if _INT.match(value.strip()):
        return int(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(value)
    return number


def _parse_table(raw: str) -> tuple[Any, str | None]:
    rows = [line.strip() for line in raw.split("\n") if line.strip()]
    if len(rows) < 2 or not re.fullmatch(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?", rows[1]):
        return None, "a table needs a header row and a separator row (| --- |)"

    def cells(row: str) -> list[str]:
        if row.startswith("|"):
            row = row[1:]
        if row.endswith("|") and not row.endswith("\\|"):
            row = row[:-1]
        return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]

    return {"columns": cells(rows[0]), "rows": [cells(r) for r in rows[2:]]}, None


def _payload(lang: str | None, raw: str) -> FlexPayload:
    if lang is not None and lang.lower() == "json":
        try:
            return FlexPayload(lang, raw, json.loads(raw))
        except json.JSONDecodeError as exc:
            return FlexPayload(lang, raw, None, f"{exc.msg} at line {exc.lineno} column {exc.colno}")
        except (ValueError, RecursionError) as exc:
            return FlexPayload(lang, raw, None, str(exc) or type(exc).__name__)
    if lang is not None and lang.lower() == "table":
        value, error = _parse_table(raw)
        return FlexPayload(lang, raw, value, error)
    return FlexPayload(lang, raw, raw)


# --------------------------------------------------------------------------- parsing


def _trim_blank(lines: list[str]) -> str:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


class _Scan:
    """One pass over the lines shared by the parser and the validator."""

    def __init__(self, text: str, meta_anywhere: bool):
        self.lines = _lines(text)
        self.meta_anywhere = meta_anywhere
        self.issues: list[FlexIssue] = []

    def run(self) -> list[tuple[_Header | None, int, list]]:
        """Frames as ``(header, header_line_number, events)``; the first entry (header
        ``None``) is the text before the first header. Events: ``("line", n, text)``,
        ``("meta", n, key, value)``, ``("payload", n, name, lang, raw)``."""
        frames: list[tuple[_Header | None, int, list]] = [(None, 0, [])]
        events = frames[0][2]
        in_meta = True
        pending: tuple[int, str, list] | None = None  # payload decl awaiting its fence
        fence: tuple[str, int, int, str | None, list[str], bool] | None = None
        lines = self.lines
        for idx, line in enumerate(lines):
            number = idx + 1
            if fence is not None:
                char, length, start, info, body, bound = fence
                if _fence_closes(line, char, length):
                    if bound and pending is not None:
                        events.append(("payload", pending[0], pending[1], info, "\n".join(body)))
                        pending = None
                    else:
                        events.append(("line", number, line))
                    fence = None
                else:
                    body.append(line)
                    if not bound:
                        events.append(("line", number, line))
                continue
            opened = _fence_open(line)
            if opened is not None:
                bound = pending is not None
                fence = (opened[0], opened[1], number, _fence_info(line), [], bound)
                if not bound:
                    events.append(("line", number, line))
                in_meta = False
                continue
            if not line.strip():
                if pending is not None:
                    pending[2].append(line)
                else:
                    events.append(("line", number, line))
                continue
            if pending is not None and self.meta_anywhere and _META.match(line) and not _PAYLOAD.match(line):
                # meta lines are lifted out wherever they are, so they do not part a
                # declaration from its block
                mm = _META.match(line)
                events.append(("meta", number, mm.group(1), line[mm.end() :]))
                continue
            if pending is not None:
                self._dangling(pending[0])
                events.append(("line", pending[0], lines[pending[0] - 1]))
                events.extend(("line", pending[0] + 1 + i, l) for i, l in enumerate(pending[2]))
                pending = None
            try:
                header = _read_header(line)
            except _HeaderError as exc:
                severity = "error" if exc.strong else "warning"
                self.issues.append(FlexIssue(exc.code, str(exc) + "; read as body text", number, severity))
                header = None
            if header is not None:
                events = []
                frames.append((header, number, events))
                in_meta = True
                continue
            pm = _PAYLOAD.match(line)
            if pm is not None:
                name = line[pm.end() :].strip()
                if name:
                    pending = (number, name, [])
                    in_meta = False
                    continue
                self.issues.append(FlexIssue("bad_payload_declaration", "@payload:name: needs a payload name", number))
                in_meta = False
                events.append(("line", number, line))
                continue
            mm = _META.match(line)
            if mm is not None and (in_meta or self.meta_anywhere):
                events.append(("meta", number, mm.group(1), line[mm.end() :]))
                continue
            in_meta = False
            events.append(("line", number, line))
        if fence is not None:
            char, length, start, info, body, bound = fence
            self.issues.append(
                FlexIssue("unterminated_fence", f"the fenced block opened on line {start} is never closed", start)
            )
            if bound and pending is not None:
                events.append(("payload", pending[0], pending[1], info, "\n".join(body)))
                pending = None
        if pending is not None:
            self._dangling(pending[0])
            events.append(("line", pending[0], lines[pending[0] - 1]))
            events.extend(("line", pending[0] + 1 + i, l) for i, l in enumerate(pending[2]))
        return frames

    def _dangling(self, number: int) -> None:
        self.issues.append(FlexIssue("dangling_payload", "@payload:name: is not followed by a fenced block", number))


def parse_flex_md(
    text: str,
    *,
    meta_anywhere: bool = False,
    meta_type_mode: MetaTypeMode = "strings",
    meta_schema: dict[str, Any] | None = None,
    array_keys: Iterable[str] = _DEFAULT_ARRAY_KEYS,
) -> FlexDocument:
    """Read Flex-MD frames from ``text`` (see the module docstring). Never raises on any
    text; a non-``str`` ``text`` or an unknown ``meta_type_mode`` raises ``TypeError`` /
    ``ValueError``. Problems in the text are reported by :func:`validate_flex_md`."""
    if not isinstance(text, str):
        raise TypeError(f"parse_flex_md reads str, not {type(text).__name__}")
    if meta_type_mode not in ("strings", "infer", "schema"):
        raise ValueError(f"meta_type_mode must be 'strings', 'infer' or 'schema', not {meta_type_mode!r}")
    keys = tuple(array_keys)
    schema = dict(meta_schema) if meta_schema else None

    def conv(key: str, raw: str, quoted: bool = False) -> Any:
        return _convert(key, raw, quoted, meta_type_mode, schema, keys)

    doc = FlexDocument()
    scanned = _Scan(text, meta_anywhere).run()
    for header, _number, events in scanned:
        if header is None:
            _preamble(doc, events, conv)
            continue
        frame = FlexFrame(type=header.type, title=header.title)
        for key, value, quoted in header.attrs:
            if key in _FIELD_KEYS:
                setattr(frame, key, value)
            else:
                frame.meta[key] = conv(key, value, quoted)
        _fill(frame, events, conv)
        doc.frames.append(frame)
    return doc


def _fill(frame: FlexFrame, events: list, conv: Any) -> None:
    body: list[str] = []
    for event in events:
        if event[0] == "line":
            body.append(event[2])
        elif event[0] == "meta":
            frame.meta[event[2]] = conv(event[2], event[3])
        else:
            frame.payloads.pop(event[2], None)  # the last binding wins, in its place
            frame.payloads[event[2]] = _payload(event[3], event[4])
    frame.body_md = _trim_blank(body)


def _preamble(doc: FlexDocument, events: list, conv: Any) -> None:
    """Title and document meta from the text before the first frame; whatever else is
    there becomes a first frame of type ``""``."""
    rest = list(events)
    i = 0
    while i < len(rest) and rest[i][0] == "line" and not rest[i][2].strip():
        i += 1
    if i < len(rest) and rest[i][0] == "line":
        m = re.match(r"^ {0,3}#[ \t]+(.*)$", rest[i][2])
        if m and m.group(1).strip():
            title = m.group(1).strip()
            stripped = title.rstrip("#")
            if stripped != title and (not stripped or stripped[-1] in " \t"):
                title = stripped.rstrip()
            doc.title = title or None
            i += 1
    # document meta: '@key: value' lines (blank lines between) before anything else;
    # the scanner tagged lines at the document start as meta already
    body: list = []
    in_meta = True
    for event in rest[i:]:
        if event[0] == "meta":  # at the start, or anywhere with meta_anywhere
            doc.meta[event[2]] = conv(event[2], event[3])
            continue
        if event[0] == "line" and in_meta and not event[2].strip():
            continue
        if event[0] == "line" and in_meta:
            mm = _META.match(event[2])
            if mm is not None:
                doc.meta[mm.group(1)] = conv(mm.group(1), event[2][mm.end() :])
                continue
        in_meta = False
        body.append(event)
    if any(e[0] != "line" or e[2].strip() for e in body):
        frame = FlexFrame(type="")
        _fill(frame, body, conv)
        doc.frames.insert(0, frame)


# --------------------------------------------------------------------------- writing


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _header_value(value: str) -> str:
    if value and "]" not in value and _BARE_VALUE.fullmatch(value):
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
            or _INT.match(value)
            or _FLOAT.match(value)
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


def stringify_flex_md(doc: FlexDocument, *, array_keys: Iterable[str] = _DEFAULT_ARRAY_KEYS) -> str:
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
        if not _KEY.fullmatch(str(key)):
            raise ValueError(f"meta key {key!r} is not a word")
        out.append(f"@{key}: {_meta_text(key, value, keys)}".rstrip(" "))
    if doc.meta:
        out.append("")
    for index, frame in enumerate(doc.frames):
        if frame.type == "":
            if index != 0:
                raise ValueError("only the first frame may have no type")
        else:
            if not _TYPE.fullmatch(frame.type):
                raise ValueError(f"frame type {frame.type!r} is not a word")
            attrs = [frame.type]
            for key in _FIELD_KEYS:
                value = getattr(frame, key)
                if value is not None:
                    _check_single_line(f"the frame's {key}", value)
                    attrs.append(f"{key}={_header_value(value)}")
            out.append("[[" + " ".join(attrs) + "]]")
        for key, value in frame.meta.items():
            if not _KEY.fullmatch(str(key)):
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


# --------------------------------------------------------------------------- validating


def validate_flex_md(text: str, *, meta_anywhere: bool = False) -> FlexValidation:
    """Check Flex-MD syntax: ``unterminated_frame`` (``[[message role=user`` with no
    ``]]``, or an unclosed quoted value), ``bad_frame_header``, ``dangling_payload``
    (``@payload:name:`` with no fenced block after it), ``unterminated_fence``,
    ``bad_payload_declaration`` — errors — and ``payload_parse_error`` (a JSON or table
    payload that does not parse) and ``duplicate_payload`` — warnings. A broken header
    without any ``key=value`` (``[[wiki link]]``) is a ``bad_frame_header`` warning; with
    one it is an error. Broken headers are read as body text. Each issue has its 1-based line number. Never
    raises on any ``str``."""
    if not isinstance(text, str):
        raise TypeError(f"validate_flex_md reads str, not {type(text).__name__}")
    scan = _Scan(text, meta_anywhere)
    frames = scan.run()
    issues = list(scan.issues)
    for header, _number, events in frames:
        seen: set[str] = set()
        for event in events:
            if event[0] != "payload":
                continue
            _, line, name, lang, raw = event
            if name in seen:
                issues.append(
                    FlexIssue(
                        "duplicate_payload", f"payload {name!r} is bound twice; the last block wins", line, "warning"
                    )
                )
            seen.add(name)
            payload = _payload(lang, raw)
            if payload.parse_error:
                issues.append(
                    FlexIssue("payload_parse_error", f"payload {name!r}: {payload.parse_error}", line, "warning")
                )
    issues.sort(key=lambda i: i.line)
    return FlexValidation(ok=not any(i.severity == "error" for i in issues), issues=issues)


# --------------------------------------------------------------------------- JSON form


def is_flex_document_shape(obj: Any) -> bool:
    """True for a JSON value shaped like a FlexDocument: an object whose ``frames`` is a
    list of objects (each ``type``, when present, a string)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("frames"), list):
        return False
    return all(isinstance(f, dict) and isinstance(f.get("type", ""), str) for f in obj["frames"])


def _opt_str(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _meta_value(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, list):
        return [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str) for v in value]
    return json.dumps(value, ensure_ascii=False, default=str)


def flex_document_from_dict(obj: Any) -> FlexDocument:
    """A :class:`FlexDocument` from its JSON form (Flex-MD's field names; ``parseError``
    or ``parse_error``). Tolerant: values of the wrong type are turned into strings;
    raises ``ValueError`` only when :func:`is_flex_document_shape` is false."""
    if not is_flex_document_shape(obj):
        raise ValueError("not a FlexDocument: expected an object with a 'frames' list of objects")
    meta = obj.get("meta")
    doc = FlexDocument(
        title=_opt_str(obj.get("title")),
        meta={str(k): _meta_value(v) for k, v in meta.items()} if isinstance(meta, dict) else {},
    )
    for f in obj["frames"]:
        fmeta = f.get("meta")
        frame = FlexFrame(
            type=f.get("type", ""),
            role=_opt_str(f.get("role")),
            id=_opt_str(f.get("id")),
            ts=_opt_str(f.get("ts")),
            meta={str(k): _meta_value(v) for k, v in fmeta.items()} if isinstance(fmeta, dict) else {},
            title=_opt_str(f.get("title")),
            body_md=_opt_str(f.get("body_md")) or "",
        )
        payloads = f.get("payloads")
        if isinstance(payloads, dict):
            for name, p in payloads.items():
                if not isinstance(p, dict):
                    continue
                raw = p.get("raw")
                frame.payloads[str(name)] = FlexPayload(
                    lang=_opt_str(p.get("lang")),
                    raw=raw if isinstance(raw, str) else json.dumps(p.get("value"), ensure_ascii=False, default=str),
                    value=p.get("value"),
                    parse_error=_opt_str(p.get("parseError", p.get("parse_error"))),
                )
        doc.frames.append(frame)
    return doc


def flex_document_to_dict(doc: FlexDocument) -> dict[str, Any]:
    """The JSON form of ``doc`` (Flex-MD's field names; fields that are unset left out)."""
    out: dict[str, Any] = {}
    if doc.title is not None:
        out["title"] = doc.title
    if doc.meta:
        out["meta"] = dict(doc.meta)
    frames = []
    for f in doc.frames:
        d: dict[str, Any] = {"type": f.type}
        for key in ("role", "id", "ts"):
            if getattr(f, key) is not None:
                d[key] = getattr(f, key)
        if f.meta:
            d["meta"] = dict(f.meta)
        if f.title is not None:
            d["title"] = f.title
        if f.body_md:
            d["body_md"] = f.body_md
        if f.payloads:
            d["payloads"] = {}
            for name, p in f.payloads.items():
                pd: dict[str, Any] = {"raw": p.raw, "value": p.value}
                if p.lang is not None:
                    pd["lang"] = p.lang
                if p.parse_error is not None:
                    pd["parseError"] = p.parse_error
                d["payloads"][name] = pd
        frames.append(d)
    out["frames"] = frames
    return out
