"""Step 7: a required section that is missing is added at the end, holding the
contract's empty value, as a repair of kind ``"filled"`` (the empty value counts no
words). A contract without an empty value makes a missing required section an issue
(``markdown.missing_section``) instead. A reply that had text but none of the spec's
sections is an issue too (``markdown.no_sections``): filling every section with the empty
value would pass off a reply that ignored the contract. So is a required section that
would be filled while a line of the text set aside (the preamble, text outside the L2
container) or a heading holding more than its name (``## Short answer: Yes.``,
``## Short answer (TL;DR)``) names it, or while a top-level heading that names no section
holds text (``## Answer``) (``markdown.section_misplaced``): its content is most likely
there. A code fence or an HTML block
(comment, ``<script>``/``<pre>``...) left open at the end would swallow the added
sections: it is closed first (``fence_closed``, ``html_closed``). Applies from L1 on."""

from __future__ import annotations

import re

from ..contract.names import normalize_section_name
from ..reply.blocks import Scan, scan
from ..reply.outline import outline_for, section_level
from ..reply.sections import match_sections, naming_line, unnamed_roots
from .state import RepairState


def fill_missing_sections(st: RepairState) -> None:
    """Add every missing required section (or report it)."""
    if st.level < 1 or not st.sections:
        return
    sc = scan(st.body)
    outline = outline_for(sc, st.spec)
    found = match_sections(sc, outline, st.spec, parse=False)
    missing = [s for s in st.sections if s.required and s.name not in found]
    if not missing:
        return
    names = set(st.names)
    if not found and _had_text(st):
        st.issue(
            "markdown.no_sections",
            "the reply holds none of the contract's sections (" + ", ".join(s.name for s in st.sections) + ")",
        )
    empty = st.empty_value
    if empty is None:
        for s in missing:
            st.issue(
                "markdown.missing_section",
                f"the required section {s.name!r} is missing (the contract declares no empty value)",
                s.name,
            )
        return
    headings = "\n".join(h.raw for h in sc.headings)
    unnamed = unnamed_roots(sc, outline, st.spec)
    for s in missing:
        key = {normalize_section_name(s.name)}
        line = naming_line([st.preamble or "", *st.outside], key)
        where = "text set aside names it"
        if line is None:
            line, where = naming_line([headings], key), "a heading names it with more text"
        if line is None and unnamed:
            line, where = unnamed[0].title, "a heading that names no section holds text"
        if line is not None:
            st.issue(
                "markdown.section_misplaced",
                f"the required section {s.name!r} would be filled with {empty!r} while {where}: {line!r}",
                s.name,
            )
    body = st.body
    open_block = _open_at_end(sc)
    if open_block is not None:
        # what is appended would be read as its content, and the sections stay missing
        kind, closer, what = open_block
        body = body.rstrip("\r\n") + "\n" + closer
        st.repair(kind, f"closed the {what} left open at the end, before adding sections", None)
    level = section_level(sc.headings, names)
    parts = [body.rstrip()] if body.strip() else []
    for s in missing:
        parts.append(f"{'#' * level} {s.name}\n\n{empty}")
        st.repair("filled", f"added the missing required section {s.name!r} holding {empty!r}", None, s.name)
    st.body = "\n\n".join(parts) + "\n"


#: CommonMark HTML blocks of kinds 1-5 run to their end marker, blank lines included
_HTML_OPEN = (
    (re.compile(r"<(script|pre|style|textarea)(?=[\s>]|$)", re.IGNORECASE), None, "HTML block"),
    (re.compile(r"<!--"), "-->", "HTML comment"),
    (re.compile(r"<\?"), "?>", "processing instruction"),
    (re.compile(r"<![A-Za-z]"), ">", "declaration"),
    (re.compile(r"<!\[CDATA\["), "]]>", "CDATA section"),
)


def _open_at_end(sc: Scan) -> tuple[str, str, str] | None:
    """``(repair kind, closing line, what)`` when the text ends inside a block that would
    swallow whatever is appended: a code fence or an HTML block of kinds 1-5 without its
    end marker. ``None`` otherwise."""
    if sc.fences and not sc.fences[-1].closed:  # an unclosed fence runs to the end
        return "fence_closed", sc.fences[-1].marker, "code fence"
    last = next((t for t in reversed(sc.tokens) if t.level == 0 and t.line is not None), None)
    # (markdown-it leaves trailing blank lines out of a block's map)
    if last is None or last.type != "html_block" or sc.slice(last.end, len(sc.lines)).strip():
        return None
    head = last.content.lstrip(" ")
    for start, end, what in _HTML_OPEN:
        m = start.match(head)
        if m is None:
            continue
        closer = end if end is not None else f"</{m.group(1).lower()}>"
        if closer.lower() in last.content.lower():
            return None
        return "html_closed", closer, what
    return None


def _had_text(st: RepairState) -> bool:
    """The reply said something besides ``<think>`` blocks."""
    return any(piece.strip() for piece in [st.body, st.preamble or "", *st.outside])
