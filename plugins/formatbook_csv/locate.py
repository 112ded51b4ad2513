"""Where the CSV sits in a reply: the candidate payloads, best first.

The rules are the README's "Choosing the payload"; the core sets aside what lies around
the chosen span. Linear: each line is looked at a bounded number of times.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, contains, not_, or_, sub
from typing import overload

from formatbook_core import Reply, Span
from formatbook_core.spans import strip_span

from . import dialect
from .names import name_problem
from .syntax import odd_quotes

_TAGS = {"csv", "tsv"}
#: A line standing for rows left out. Inside a table it stays in the run: the rows after
#: it are the table's too, so the table fails (it is not whole) rather than passing
#: without them.
ELISIONS = frozenset({"...", "\u2026", "[...]", "(...)", "\u22ee", ". . ."})
#: White space that is data in a table, never space around it: a tab is a delimiter or a
#: cell's content, so ``3<TAB>`` (a last row whose last cell is empty) keeps its tab.
DATA_SPACE = "\t"


def locate(reply: str, delimiter: str, valid: object) -> list[Span]:
    """Candidate spans of ``reply``, best first; ``valid(text)`` says whether a text is
    strict CSV (rule 1)."""
    prepared = Reply.of(reply)
    rest = [_with_line_end(reply, span) for span in prepared.stretches()]
    if len(rest) == 1 and callable(valid) and valid(reply[rest[0].start : rest[0].end]):
        return [rest[0]]
    blocks = prepared.payload_fences()
    tagged = [strip_span(reply, f.body, DATA_SPACE) for f in blocks if f.info in _TAGS]
    bare = [strip_span(reply, f.body, DATA_SPACE) for f in blocks if f.info == ""]
    long_runs: list[Span] = []
    short_runs: list[Span] = []
    for region in prepared.between(f.span for f in blocks):
        for span, lines in _runs(reply, region.start, region.end):
            (long_runs if lines >= 2 else short_runs).append(span)
    candidates: list[Span] = []
    seen: set[Span] = set()
    for span in (*tagged, *bare, *long_runs, *short_runs, *rest[:1]):
        span = _with_line_end(reply, span)
        if span.end > span.start and span not in seen:
            seen.add(span)
            candidates.append(span)
    return candidates or prepared.prose_candidates()


def _stripped(line: str) -> str:
    """``line`` without the white space around it, tabs kept (:data:`DATA_SPACE`)."""
    if DATA_SPACE not in line:  # ``str.strip`` takes off what ``isspace`` calls white space
        return line.strip()
    start, end = strip_span(line, Span(0, len(line)), DATA_SPACE)
    return line[start:end]


def _with_line_end(reply: str, span: Span) -> Span:
    """``span`` with the line break that ends its last line (a record's line end is part of
    it): a last row short of fields that the reply ends with a line break after is a
    complete line (a ragged row), not one cut off by the end of the reply."""
    if span.end <= span.start:
        return span
    for eol in ("\r\n", "\n"):
        if reply.startswith(eol, span.end):
            return Span(span.start, span.end + len(eol))
    return span


def _lines(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Logical lines of ``text[start:end]`` with their text: a quote left open carries a
    line on."""
    return list(_line_spans(text, start, end))


def _line_spans(text: str, start: int, end: int) -> Iterable[tuple[int, int, str]]:
    """:func:`_lines`, made as they are read in the common case (no tuple a line kept:
    a million blank lines took 130 bytes a character as a list)."""
    region = text[start:end]
    parts = region.split("\n")
    if '"' not in region or not odd_quotes(region):
        # the common case, at C speed: no quote left open at a line's end, every line is a line
        starts = accumulate(map(add, map(len, islice(parts, len(parts) - 1)), repeat(1)), initial=start)
        ends = accumulate(map(add, map(len, parts), chain((start,), repeat(1))))
        return zip(starts, ends, parts)  # noqa: B905 - as many of each
    out: list[tuple[int, int, str]] = []
    pos = start
    line_start = start
    open_quote = False
    for i, part in enumerate(parts):
        if part.count('"') % 2:
            open_quote = not open_quote
        stop = pos + len(part)
        pos = stop + 1
        if not open_quote or i == len(parts) - 1:
            out.append((line_start, stop, text[line_start:stop]))
            line_start = pos
            open_quote = False
    return out


class _Lines(Sequence[tuple[int, int]]):
    """The spans ``(start, end)`` of some of the lines ``parts`` (a text from ``start``
    split at line feeds), made when asked for: ``which``, the indexes of those lines. A
    run of every line of a table: :func:`_trim` reads four of them, and where each starts
    is added up then, from the nearer end."""

    __slots__ = ("which", "parts", "start", "end")

    def __init__(self, which: list[int], parts: list[str], start: int, end: int):
        self.which = which
        self.parts = parts
        self.start = start
        self.end = end

    def __len__(self) -> int:
        return len(self.which)

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, i: slice) -> _Lines: ...
    def __getitem__(self, i: int | slice) -> tuple[int, int] | _Lines:
        if isinstance(i, slice):
            return _Lines(self.which[i], self.parts, self.start, self.end)
        line = self.which[i]
        parts = self.parts
        if line <= len(parts) // 2:  # the lines before it, and their line feeds
            at = self.start + sum(map(len, islice(parts, line))) + line
        else:  # the text after it, taken from the end
            at = self.end - sum(map(len, islice(parts, line, None))) - (len(parts) - 1 - line)
        return at, at + len(parts[line])


def _one_run(reply: str, start: int, end: int) -> Sequence[tuple[int, int]] | None:
    """The run :func:`_runs` finds in ``reply[start:end]`` when that is every line that is
    not blank, found by passes of ``map`` over the lines: no quote left open at a line's
    end, no pipe (a Markdown row), every line that is not blank holding a delimiter
    candidate, no two blank lines one after the other. The
    lines' spans are made for the four lines ``_trim`` reads only. ``None`` when not so
    (the line loop decides); an empty run when every line is blank."""
    region = reply[start:end]
    if "|" in region:
        return None  # a Markdown row, or a pipe-separated table: the loop tells them apart
    parts = region.split("\n")
    if '"' in region and odd_quotes(region):
        return None
    stripped = list(map(str.strip, parts))
    count = len(parts)
    lines = list(compress(range(count), stripped))  # the lines that are not blank
    if max(map(sub, lines[1:], lines), default=1) > 2:
        return None  # two blank lines between two lines end a run there
    has = list(map(contains, parts, repeat(",")))
    if has.count(True) != len(lines):  # a line not blank without a comma (a blank line has none)
        missing = list(compress(map(parts.__getitem__, lines), map(not_, map(has.__getitem__, lines))))
        if not all(map(or_, map(contains, missing, repeat("\t")), map(contains, missing, repeat(";")))):
            return None  # a line of no delimiter (prose, or rows left out: "...")
    return _Lines(lines, parts, start, end)


def _runs(reply: str, start: int, end: int) -> list[tuple[Span, int]]:
    """Table-like runs of lines in ``reply[start:end]``: (span, number of lines)."""
    one = _one_run(reply, start, end)
    if one is not None:
        run = _trim(reply, one)
        return [(strip_span(reply, Span(run[0][0], run[-1][1]), DATA_SPACE), len(run))] if run else []
    runs: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    kind = ""
    blank_pending = False
    for s, e, raw in _line_spans(reply, start, end):
        line = raw.strip()
        if line and DATA_SPACE in raw:  # a line of tabs only is blank; else tabs are data
            line = _stripped(raw)
        if not line:
            if blank_pending or not current:
                if current:
                    runs.append(current)
                current, kind, blank_pending = [], "", False
            else:
                blank_pending = True
            continue
        this = (
            "md" if line[0] == "|" else ("csv" if ("," in line or "\t" in line or ";" in line or "|" in line) else "")
        )
        if not this and current and line in ELISIONS:
            this = kind  # rows left out ("..."): the table goes on, and fails as it stands

        if not this or (current and this != kind):
            if current:
                runs.append(current)
            current, kind, blank_pending = [], "", False
            if not this:
                continue
        current.append((s, e))
        kind = this
        blank_pending = False
    if current:
        runs.append(current)
    out: list[tuple[Span, int]] = []
    for run in runs:
        run = _trim(reply, run)
        if run:
            out.append((strip_span(reply, Span(run[0][0], run[-1][1]), DATA_SPACE), len(run)))
    return out


def _prose_line(line: str, delimiter: str, following: str | None) -> bool:
    """A line of prose, not a header: it ends with ``:`` ``.`` ``!`` ``?``, or a cell of it is no column name
    and its field count is not the next line's (a header with a bad name is left in, to
    fail as one: dropping it would make the first row the header)."""
    if line.endswith((":", ".", "!", "?")) and not line.endswith('"'):
        return True  # an introduction ("Here you go, enjoy."): a header never ends so
    if following is None or line.count(delimiter) == following.count(delimiter):
        return False
    return any(name_problem(cell.strip()) for cell in line.split(delimiter) if cell.strip())


def _trim(reply: str, run: Sequence[tuple[int, int]]) -> Sequence[tuple[int, int]]:
    if not run:
        return run
    # only the first two lines and the last two are looked at (the rows between are the
    # table's whatever they hold): stripped here, not every line of a long table
    texts = [_stripped(reply[s:e]) for s, e in (run if len(run) <= 4 else [*run[:2], *run[-2:]])]
    delimiter = dialect.detect(texts[1] if len(texts) > 1 else texts[0])
    first = 1 if len(texts) > 1 and _prose_line(texts[0], delimiter, texts[1]) else 0
    last = len(run)
    if last - first > 2 and texts[-1].endswith((".", "!", "?")) and texts[-1] not in ELISIONS:
        spaced = delimiter + " "
        # a closing sentence ("Hope this helps, let me know!"): its count differs, or it
        # has a blank after the delimiter where the row before it has none
        if texts[-1].count(delimiter) != texts[-2].count(delimiter) or (
            spaced in texts[-1] and spaced not in texts[-2]
        ):
            last -= 1
    return run[first:last]
