"""Step 2: a heading glued mid-line (``Yes. ## Reasoning``) goes on its own line, when the
rest of the line names a section of the spec. Only lines of top-level paragraphs and
headings are read (inside a Markdown container too): code, code spans, list items,
quotes, tables and raw HTML are left alone. Applies from L1 on."""

from __future__ import annotations

import re
from bisect import bisect_left

from ..contract.names import normalize_section_name
from ..reply.blocks import Scan, scan, strip_closing_sequence
from ..reply.body import MARKDOWN_LANGS
from .container import markdown_fences
from .state import RepairState, edit_lines

_GLUED = re.compile(r"(?<=\S)[ \t]+(#{1,6})[ \t]+(?=\S)")


def split_glued(line: str, names: dict[str, str]) -> list[str] | None:
    """``line`` split before each heading glued into it that names a section (``names``:
    normalised name -> the spec's name), or ``None`` when there is none.

    A glued heading's title runs to the end of the line (or to the next split), so the
    candidates are read from the right, once each: a title longer than twice the longest
    name plus 64 characters names no section, and every candidate left of it is longer
    still. Linear in the line."""
    if not names:
        return None
    matches = list(_GLUED.finditer(line))
    if not matches:
        return None
    bound = 2 * max(len(n) for n in names) + 64
    ticks = [0]  # backticks before each offset, for "inside a code span"
    for ch in line:
        ticks.append(ticks[-1] + (ch == "`"))
    heads: list[str] = []
    end = len(line)
    for m in reversed(matches):
        if m.end() >= end:
            continue
        if end - m.end() > bound:
            break
        if ticks[m.start()] % 2:
            continue  # inside a code span
        title = strip_closing_sequence(line[m.end() : end])
        if normalize_section_name(title) not in names:
            continue
        heads.append(f"{m.group(1)} {title.strip()}")
        end = len(line[: m.start()].rstrip())
    if not heads:
        return None
    return [line[:end]] + heads[::-1]


def _text_lines(sc: Scan, offset: int = 0) -> set[int]:
    """The lines of ``sc``'s top-level paragraphs and headings (shifted by ``offset``):
    the only places a glued heading is looked for. A ``#`` in a list item, a quote, a
    table, raw HTML or code is no heading, glued or not."""
    lines: set[int] = set()
    for start, end in sc.paragraphs:
        lines.update(range(offset + start, offset + end))
    for h in sc.headings:
        lines.update(range(offset + h.line, offset + h.end_line))
    return lines


def _unwrapped(sc: Scan) -> tuple[Scan, list[int]]:
    """Below L2: the text as the container step will leave it (every ``markdown`` fence
    unwrapped, those nested in one too: the fence lines dropped) and, for each of its
    lines, the line of ``sc`` it comes from."""
    keep = list(range(len(sc.lines)))
    view = sc
    for _round in range(16):  # as many rounds as the container step makes
        tagged = [f for f in view.fences if f.lang in MARKDOWN_LANGS]
        if not tagged:
            break
        drop = {f.line for f in tagged} | {f.end_line - 1 for f in tagged if f.closed}
        keep = [orig for i, orig in enumerate(keep) if i not in drop]
        view = scan("".join(sc.text[sc.lines[i].start : sc.lines[i].next] for i in keep))
    return view, keep


def _lines_to_read(sc: Scan, level: int, wanted: set[int]) -> set[int]:
    """The lines of ``sc`` that will be top-level paragraph or heading lines of the
    Markdown once the container step has run: below L2 those of the unwrapped text; at
    L2+ those of each container's content (and of the text around, set aside later).
    Only containers holding one of the ``wanted`` lines are read."""
    if level < 2:
        view, origin = _unwrapped(sc)
        return {origin[i] for i in _text_lines(view)}
    lines = _text_lines(sc)
    order = sorted(wanted)
    for f in markdown_fences(sc, level):  # a container's content is Markdown, not code
        first, end = f.line + 1, f.end_line - (1 if f.closed else 0)
        at = bisect_left(order, first)
        if at == len(order) or order[at] >= end:
            continue
        lines |= _text_lines(scan(sc.slice(first, end)), first)
    return lines


def split_glued_headings(st: RepairState) -> None:
    """Put glued section headings on their own lines."""
    names = st.names
    if st.level < 1 or not names or "#" not in st.body:
        return
    sc = scan(st.body)
    # the lines that would split, found without parsing: most replies have none, and
    # only those need to know whether they are paragraph lines (a parse per container)
    candidates = {}
    for i in range(len(sc.lines)):
        line = sc.line_text(i)
        if "#" in line:
            parts = split_glued(line, names)
            if parts:
                candidates[i] = parts
    if not candidates:
        return
    edits = []
    for i in sorted(set(candidates) & _lines_to_read(sc, st.level, set(candidates))):
        line, parts = sc.line_text(i), candidates[i]
        if parts:
            edits.append((i, i + 1, "\n".join(parts)))
            st.repair("heading_split", f"put the heading {parts[-1].strip()!r} on its own line", line)
    if edits:
        st.body = edit_lines(sc, edits)
