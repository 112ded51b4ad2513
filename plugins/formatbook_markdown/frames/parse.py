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

import re
from collections.abc import Iterable
from typing import Any

from formatbook_core.reply import LINE_BREAK

from .convert import convert_meta, read_payload
from .header import META, PAYLOAD, Header, HeaderError, fence_closes, fence_info, fence_open, read_header
from .model import DEFAULT_ARRAY_KEYS, FIELD_KEYS, FlexDocument, FlexFrame, FlexIssue, MetaTypeMode


def _trim_blank(lines: list[str]) -> str:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])


class FrameScan:
    """One pass over the lines shared by the parser and the validator."""

    def __init__(self, text: str, meta_anywhere: bool):
        self.lines = LINE_BREAK.split(text)
        self.meta_anywhere = meta_anywhere
        self.issues: list[FlexIssue] = []

    def run(self) -> list[tuple[Header | None, int, list]]:
        """Frames as ``(header, header_line_number, events)``; the first entry (header
        ``None``) is the text before the first header. Events: ``("line", n, text)``,
        ``("meta", n, key, value)``, ``("payload", n, name, lang, raw)``."""
        frames: list[tuple[Header | None, int, list]] = [(None, 0, [])]
        events = frames[0][2]
        in_meta = True
        pending: tuple[int, str, list] | None = None  # payload decl awaiting its fence
        fence: tuple[str, int, int, str | None, list[str], bool] | None = None
        lines = self.lines
        for idx, line in enumerate(lines):
            number = idx + 1
            if fence is not None:
                char, length, start, info, body, bound = fence
                if fence_closes(line, char, length):
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
            opened = fence_open(line)
            if opened is not None:
                bound = pending is not None
                fence = (opened[0], opened[1], number, fence_info(line), [], bound)
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
            mm = META.match(line) if pending is not None and self.meta_anywhere else None
            if mm is not None and not PAYLOAD.match(line):
                # meta lines are lifted out wherever they are, so they do not part a
                # declaration from its block
                events.append(("meta", number, mm.group(1), line[mm.end() :]))
                continue
            if pending is not None:
                self._dangling(pending[0])
                events.append(("line", pending[0], lines[pending[0] - 1]))
                events.extend(("line", pending[0] + 1 + i, l) for i, l in enumerate(pending[2]))
                pending = None
            try:
                header = read_header(line)
            except HeaderError as exc:
                severity = "error" if exc.strong else "warning"
                self.issues.append(FlexIssue(exc.code, str(exc) + "; read as body text", number, severity))
                header = None
            if header is not None:
                events = []
                frames.append((header, number, events))
                in_meta = True
                continue
            pm = PAYLOAD.match(line)
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
            mm = META.match(line)
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
    array_keys: Iterable[str] = DEFAULT_ARRAY_KEYS,
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
        return convert_meta(key, raw, quoted, meta_type_mode, schema, keys)

    doc = FlexDocument()
    scanned = FrameScan(text, meta_anywhere).run()
    for header, _number, events in scanned:
        if header is None:
            _preamble(doc, events, conv)
            continue
        frame = FlexFrame(type=header.type, title=header.title)
        for key, value, quoted in header.attrs:
            if key in FIELD_KEYS:
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
            frame.payloads[event[2]] = read_payload(event[3], event[4])
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
            mm = META.match(event[2])
            if mm is not None:
                doc.meta[mm.group(1)] = conv(mm.group(1), event[2][mm.end() :])
                continue
        in_meta = False
        body.append(event)
    if any(e[0] != "line" or e[2].strip() for e in body):
        frame = FlexFrame(type="")
        _fill(frame, body, conv)
        doc.frames.insert(0, frame)
