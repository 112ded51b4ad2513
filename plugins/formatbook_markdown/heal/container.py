"""Step 3: the fenced Markdown container.

Below L2 a ```` ```markdown ```` (or ```` ```md ````) fence is unwrapped in place — a lone
one as issue 4 says, and each of several as well (they are the same mistake repeated). At
L2 and L3 the reply must be exactly one such fence: a reply without one is wrapped; an
untagged fence holding headings is taken as the container when no tagged one exists;
several containers are merged into one (their contents joined by a blank line, in
order); an unclosed container is closed; anything outside the container (other fences
included) is set aside as ``outside``. The fence written is longer than any fence inside.
Fences pair as a reader pairs them (``reply.blocks._pair_containers``): a container
holding a tagged block (```` ```python ````) closes at the bare fence after that block's,
and is written with a longer fence so that CommonMark reads it the same way.
"""

from __future__ import annotations

from itertools import pairwise

from ..reply.blocks import FenceBlock, Scan, scan
from ..reply.body import MARKDOWN_LANGS
from ..reply.outline import trim_blank
from .state import Container, RepairState

#: How many times below L2 a fence surfacing inside an unwrapped one is unwrapped in turn.
#: Each round rescans the body, so the rounds are bounded; a reply whose Markdown fences are
#: nested deeper is an issue (``markdown.container_depth``), not a half-unwrapped reply.
MAX_UNWRAP_ROUNDS = 16


def _inner(sc: Scan, f: FenceBlock) -> str:
    return sc.slice(f.line + 1, f.end_line - (1 if f.closed else 0))


def markdown_fences(sc: Scan, level: int) -> list[FenceBlock]:
    """The fences whose content is the reply's Markdown: those tagged ``markdown``/``md``;
    at L2+, when there is none, the untagged ones holding a heading."""
    tagged = [f for f in sc.fences if f.lang in MARKDOWN_LANGS]
    if tagged or level < 2:
        return tagged
    return [f for f in sc.fences if f.lang == "" and scan(_inner(sc, f)).headings]


def normalize_container(st: RepairState) -> None:
    """Unwrap (below L2) or establish (L2+) the single Markdown container; record
    whether the Markdown is then blank (``blank_markdown``)."""
    _normalize(st)
    st.blank_markdown = not st.body.strip()


def _normalize(st: RepairState) -> None:
    sc = scan(st.body)
    tagged = [f for f in sc.fences if f.lang in MARKDOWN_LANGS]
    if st.level < 2:
        # a fence nested in an unwrapped one surfaces: unwrap until none is left (bounded)
        for _round in range(MAX_UNWRAP_ROUNDS):
            if not tagged:
                break
            pieces, pos = [], 0
            for f in tagged:
                pieces += [sc.slice(pos, f.line), _inner(sc, f)]
                pos = f.end_line
                st.repair(
                    "container_unwrapped",
                    f"unwrapped the {f.marker}{f.lang} fence (below L2 the reply is plain Markdown)",
                    sc.line_text(f.line),
                )
            pieces.append(sc.slice(pos, len(sc.lines)))
            st.body = "".join(pieces)
            sc = scan(st.body)
            tagged = [f for f in sc.fences if f.lang in MARKDOWN_LANGS]
        if tagged:
            st.issue(
                "markdown.container_depth",
                f"Markdown fences are nested more than {MAX_UNWRAP_ROUNDS} deep: a ```` {tagged[0].marker}"
                f"{tagged[0].lang} ```` fence is left after unwrapping {MAX_UNWRAP_ROUNDS} levels",
            )
        return
    boxes = markdown_fences(sc, st.level)
    if not tagged:
        if boxes:
            st.repair(
                "container_tagged",
                "read the untagged fence holding headings as the Markdown container",
                sc.line_text(boxes[0].line),
            )
    if not boxes:
        st.container = Container()
        if st.body.strip():
            st.repair("container_wrapped", "wrapped the reply in a fenced Markdown block", None)
        else:
            st.repair("container_wrapped", "wrote an empty fenced Markdown block", None)
        return
    # text around and between the containers
    gaps = [(0, boxes[0].line)]
    gaps += [(a.end_line, b.line) for a, b in pairwise(boxes)]
    gaps.append((boxes[-1].end_line, len(sc.lines)))
    for start, end in gaps:
        piece = sc.slice(start, end)
        if piece.strip():
            kept = trim_blank(piece)
            st.outside.append(kept)
            st.keep("outside", kept)
            st.repair("outside_set_aside", f"set aside {len(kept)} characters outside the Markdown container", kept)
    if not boxes[-1].closed:
        st.repair("container_closed", "closed the unclosed Markdown container", sc.line_text(boxes[-1].line))
    for f in boxes:
        if f.nested:
            st.repair(
                "container_refenced",
                f"wrote the Markdown container with a longer fence: its {f.marker} fence is closed, for "
                "CommonMark, by the closing fence of a block inside it",
                sc.line_text(f.line),
            )
    if len(boxes) == 1:
        f = boxes[0]
        st.body = _inner(sc, f)
        keep_fence = f.closed and f.lang in MARKDOWN_LANGS and not f.nested
        st.container = Container(sc.line_text(f.line), sc.line_text(f.end_line - 1)) if keep_fence else Container()
        return
    st.repair("containers_merged", f"merged {len(boxes)} fenced Markdown blocks into one", sc.line_text(boxes[1].line))
    st.body = "\n\n".join(b for b in (trim_blank(_inner(sc, f)) for f in boxes) if b) + "\n"
    st.container = Container()
