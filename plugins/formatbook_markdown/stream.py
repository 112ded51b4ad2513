"""Incremental checkers for Markdown replies.

The strict checker answers ``can_be_valid``: it turns falsy only when the text so far
shows something the repair plan will certainly change (a valid reply is one the plan
leaves unchanged), so no continuation can be valid:

* a ``<think>`` block (set aside at every level);
* from L1, with a spec: a first paragraph of plain text closed by a blank line before
  any heading (a preamble); a complete column-0 ATX heading naming a section but not
  spelled as the spec spells it; a column-0 line with a section heading glued mid-line;
* at L2+: a first non-blank line that is not a ```` ```markdown ````/```` ```md ````
  fence, or any non-blank text after the container closed;
* at L3: right under the column-0 ATX heading of a section whose kind is declared, and
  standing under no heading, a column-0 list item of the wrong kind after a blank line or
  the heading (``- x`` in an ordered list, ``1. x``, ``* x`` or ``+ x`` in a list): step 8
  converts its marker. Any other heading, a ``#``, ``*`` or ``_`` line (maybe a bold
  label or another heading) or a possible setext underline ends that judgement.

Anything it cannot judge with certainty line by line (raw HTML, indented fences) makes
it stop judging: it stays truthy, which is always sound. Each feed looks only at the new
chunk (and the unfinished line before it), so the total work is linear.

The relaxed checker (``strict=False``) follows what healing accepts: every prefix can
still be repaired into a valid reply, so it is always truthy while streaming.

Both report, while streaming, the values no continuation can change (``stream_values``:
closed plain paragraphs after a section heading; ``scoped`` for a level-1 section), so
``StreamGuard`` keeps MAX counts; ``finish`` reports the values of the whole reply.
"""

from __future__ import annotations

import copy as _copy
import re
from typing import Any

from formatbook_core import HealError, StreamStatus
from formatbook_core.reply import FENCE_LINE
from formatbook_core.textlog import TextLog

from .contract.names import normalize_section_name
from .heal.glued import split_glued
from .reply.blocks import strip_closing_sequence
from .stream_values import SettledValues

# the title's trailing blanks and closing sequence are stripped in code (linear)
_ATX = re.compile(r"^(#{1,6})(?:[ \t]+(.*))?$")
_NEWLINE = re.compile(r"[\r\n]")
# a line starting a list item or a block quote
_CONTAINER_START = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|>")
_PLAIN_START = re.compile(r"^[^\s#`~<|>*+\-=_\[!0-9\\:]")
# at L3, a column-0 item marker that step 8 would change, by the section's declared kind
_WRONG_ITEM = {
    "ordered_list": re.compile(r"[-*+](?:[ \t]|$)"),
    "list": re.compile(r"(?:\d{1,9}[.)]|[*+])(?:[ \t]|$)"),
}
_THEMATIC_BREAK = re.compile(r"[ ]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*")
_UNDERLINE = re.compile(r"[ ]{0,3}(?:=+|-+)[ \t]*")


class MarkdownChecker:
    """A strict (``can_be_valid``) or relaxed checker; see the module docstring."""

    def __init__(self, fmt: Any, spec: Any, level: int, strict: bool, options: dict[str, Any]):
        self._fmt = fmt
        self._spec = spec
        self._level = level
        self._strict = strict
        self._options = options
        self._names = {normalize_section_name(s.name): s.name for s in (getattr(spec, "sections", None) or [])}
        self._kinds = {
            normalize_section_name(s.name): s.kind
            for s in (getattr(spec, "sections", None) or [])
            if getattr(s, "kind", None) in _WRONG_ITEM
        }
        self._shallowest = 7  # the shallowest heading level seen so far
        self._kind: str | None = None  # at L3: the declared kind of the section being written
        self._after_heading = False  # the previous non-blank line was a heading
        self._parts = TextLog()
        self._length = 0
        self._pending: list[str] = []  # the unfinished line, in pieces (joined once it ends)
        self._line_start = 0  # where the unfinished line starts in the reply
        self._after_cr = False  # the last line ended with '\r': a '\n' next belongs to it
        # strict: the format's stream splitter, to fail where a note (a <think> block) opens
        self._splitter = fmt.splitter() if strict else None
        self._failed: StreamStatus | None = None
        self._judging = True
        self._line_no = 0
        # block state
        self._fence: tuple[str, int] | None = None  # (char, length) of an open fence in the body
        self._container = "before" if level >= 2 else "none"  # before / open / closed / none
        self._container_fence: tuple[str, int] | None = None
        # the first block before any heading: start / para (a plain paragraph) / done
        self._pre = "start"
        # inside a list item or a quote: its lines (lazy continuations included) are no
        # top-level paragraph lines, where the plan looks for glued headings
        self._nested = False
        self._blank = False  # the previous line was blank
        self._settled = SettledValues(spec, level)

    # --- the Checker protocol -------------------------------------------------------------
    def scope_key(self, scope: str) -> str | None:
        """The key ``scoped`` values of section ``scope`` are reported under (a level-1
        contract section's), ``None`` when the section's values settle only at the end."""
        return self._settled.scope_key(scope)

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        if not isinstance(chunk, str):
            chunk = str(chunk)
        start = self._length
        self._parts.append(chunk)
        self._length += len(chunk)
        if not chunk:
            return StreamStatus(True)
        if self._splitter is not None:
            self._splitter.scan(chunk)
            if self._splitter.first_open is not None:
                return self._fail(
                    "a <think> block is set aside, so the reply cannot stay as written", self._splitter.first_open
                )
        judging = self._strict and self._judging
        if not judging and not self._settled.active:
            return StreamStatus(True)
        settled: list[tuple[str | None, str]] = []
        # only the chunk is searched: the unfinished line is kept in pieces, joined once
        pos = 0
        if self._after_cr and chunk.startswith("\n"):
            pos, self._line_start = 1, start + 1
        self._after_cr = False
        while True:
            m = _NEWLINE.search(chunk, pos)
            if m is None:
                break
            nl = m.start()
            end = nl + 1
            if chunk[nl] == "\r":
                if nl + 1 < len(chunk):
                    end += chunk[nl + 1] == "\n"
                else:
                    self._after_cr = True  # a '\n' in the next chunk ends this same line
            piece = chunk[pos:nl]
            line = "".join(self._pending) + piece if self._pending else piece
            self._pending = []
            if judging:
                reason = self._line(line)
                if reason is not None:
                    return self._fail(reason, self._line_start)
                judging = self._judging
            settled.extend(self._settled.line(line))
            self._line_no += 1
            self._line_start = start + end
            if not judging and not self._settled.active:
                return self._status(settled)
            pos = end
        if pos < len(chunk):
            self._pending.append(chunk[pos:])
            self._settled.partial(chunk[pos:])
        return self._status(settled)

    def _status(self, settled: list[tuple[str | None, str]]) -> StreamStatus:
        opened, open_scope = self._settled.take_open()
        if not settled and not opened:
            return StreamStatus(True)
        values = tuple(value for _, value in settled)
        scoped = tuple((key, value) for key, value in settled if key is not None)
        if not opened:
            return StreamStatus(True, values=values, scoped=scoped)
        return StreamStatus(True, values=values, scoped=scoped, open=opened, open_scope=open_scope)

    def copy(self) -> MarkdownChecker:
        clone = _copy.copy(self)
        clone._parts = self._parts.copy()
        clone._pending = list(self._pending)
        clone._splitter = self._splitter.copy() if self._splitter is not None else None
        clone._settled = self._settled.copy()
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = self._parts.text()
        fmt, spec, opts = self._fmt, self._spec, self._options
        if fmt.is_valid(text, spec, **opts):
            return StreamStatus(True, complete=True, values=tuple(fmt.extract_values(text, spec, **opts)))
        if self._strict:
            return StreamStatus(False, "not a valid Markdown reply for this contract", len(text))
        try:
            healed = fmt.heal(text, spec, **opts).text
        except HealError as err:
            return StreamStatus(False, str(err), len(text))
        return StreamStatus(True, complete=True, values=tuple(fmt.extract_values(healed, spec, **opts)))

    # --- line rules -----------------------------------------------------------------------
    def _fail(self, reason: str, position: int) -> StreamStatus:
        self._failed = StreamStatus(False, reason, max(position, 0))
        return self._failed

    def _line(self, line: str) -> str | None:
        if self._container == "before":
            if not line.strip():
                return None
            m = FENCE_LINE.match(line)
            info = m.group(3).strip().split(maxsplit=1) if m else []
            if (
                m is None
                or not info
                or info[0].lower() not in ("markdown", "md")
                or (m.group(2)[0] == "`" and "`" in m.group(3))
            ):
                return "at level 2 the reply must be one fenced Markdown block (```markdown), with nothing before it"
            self._container = "open"
            self._container_fence = (m.group(2)[0], len(m.group(2)))
            return None
        if self._container == "closed":
            if line.strip():
                return "text after the fenced Markdown block (at level 2 nothing may follow it)"
            return None
        if self._container == "open" and self._fence is None and self._closes(line, self._container_fence):
            self._container = "closed"
            return None
        return self._body_line(line)

    @staticmethod
    def _closes(line: str, fence: tuple[str, int] | None) -> bool:
        if fence is None:
            return False
        s = line.rstrip(" \t")
        indent = len(s) - len(s.lstrip(" "))
        run = s.lstrip(" ")
        return indent <= 3 and len(run) >= fence[1] and run == fence[0] * len(run)

    def _body_line(self, line: str) -> str | None:
        # a blank line (taken first: no fence, HTML or heading) as CommonMark and markdown-it
        # read one: only spaces and tabs. A line of U+3000 or U+00A0 is text (a paragraph's
        # or a list item's), which str.isspace() would take for blank
        if not line.strip(" \t"):
            if self._fence is not None or self._level < 1 or not self._names:
                return None
            self._blank = True
            if self._pre == "para":
                return "text before the first heading (a preamble) is set aside, so the reply cannot stay as written"
            return None
        if self._fence is not None:
            if self._closes(line, self._fence):
                self._fence = None
            return None
        m = FENCE_LINE.match(line)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            if m.group(1):  # an indented fence may belong to a list item: stop judging
                self._judging = False
                return None
            self._fence = (m.group(2)[0], len(m.group(2)))
            self._pre = "done"
            return None
        if line.lstrip().startswith("<"):
            self._judging = False  # raw HTML: its extent is not judged line by line
            return None
        if self._level < 1 or not self._names:
            return None
        blank_before, self._blank = self._blank, False  # (blank lines are taken above)
        heading = _ATX.match(line)
        if heading:
            self._pre = "done"
            self._nested = False
            self._after_heading = True
            return self._heading(heading)
        after_heading, self._after_heading = self._after_heading, False
        wrong = self._wrong_item(line, blank_before or after_heading)
        if wrong:
            return wrong
        if line[:1].isspace():
            if self._pre == "start":
                self._pre = "done"  # maybe indented code: not judged
            return None
        if _CONTAINER_START.match(line):
            self._nested = True  # a list item or a quote starts
        elif blank_before:
            self._nested = False  # a column-0 line after a blank line ends the list or quote
        if self._nested or "|" in line:
            # a list item's or quote's line, or maybe a table row: the plan splits no
            # heading there (a list item's '## Name' is no heading either)
            if self._pre == "start":
                self._pre = "done"
            return None
        glued = self._glued(line)
        if glued:
            return glued
        if self._pre in ("start", "para"):
            self._pre = "para" if _PLAIN_START.match(line) else "done"
        return None

    def _wrong_item(self, line: str, item_may_start: bool) -> str | None:
        """At L3, a list item of the wrong kind right under a section of a declared kind."""
        kind = self._kind
        if kind is None:
            return None
        stripped = line.lstrip(" ")
        if stripped.startswith("#") or "*" in line or "_" in line or _UNDERLINE.fullmatch(line):
            self._kind = None  # maybe a heading, a bold label or a setext underline: stop judging
            if stripped.startswith("#"):
                run = len(stripped) - len(stripped.lstrip("#"))
                self._shallowest = min(self._shallowest, run)
        if item_may_start and _WRONG_ITEM[kind].match(line) and not _THEMATIC_BREAK.fullmatch(line):
            expected = "numbered items (1., 2., ...)" if kind == "ordered_list" else "'-' bullets"
            return f"a list item {line.split(maxsplit=1)[0]!r} where the section asks for {expected} (level 3)"
        return None

    def _heading(self, m: re.Match[str]) -> str | None:
        raw = strip_closing_sequence(m.group(2) or "").strip()
        key = normalize_section_name(raw)
        level = len(m.group(1))
        root = level <= self._shallowest
        self._shallowest = min(self._shallowest, level)
        self._kind = self._kinds.get(key) if self._level >= 3 and root else None
        canonical = self._names.get(key)
        if canonical is not None and raw != canonical:
            return f"the heading {raw!r} is renamed to {canonical!r} by the repair plan"
        return None

    def _glued(self, line: str) -> str | None:
        if "#" not in line:
            return None
        parts = split_glued(line, self._names)
        if parts:
            return f"the heading {parts[-1]!r} is glued to the text before it"
        return None
