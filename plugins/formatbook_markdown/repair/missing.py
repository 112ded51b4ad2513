"""Step 7: a required section that is missing is added at the end, holding the
contract's empty value, as a repair of kind ``"filled"`` (the empty value counts no
words). A contract without an empty value makes a missing required section an issue
(``markdown.missing_section``) instead. A reply that had text but none of the spec's
sections is an issue too (``markdown.no_sections``): filling every section with the empty
value would pass off a reply that ignored the contract. Applies from L1 on."""

from __future__ import annotations

from ..blocks import scan
from ..outline import outline_for, section_level
from ..sections import match_sections
from .state import RepairState


def fill_missing_sections(st: RepairState) -> None:
    """Add every missing required section (or report it)."""
    if st.level < 1 or not st.sections:
        return
    sc = scan(st.body)
    found = match_sections(sc, outline_for(sc, st.spec), st.spec, parse=False)
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
            st.issue("markdown.missing_section", f"the required section {s.name!r} is missing (the contract declares no empty value)", s.name)
        return
    body = st.body
    if sc.fences and not sc.fences[-1].closed:
        body = body.rstrip("\r\n") + "\n" + sc.fences[-1].marker
        st.repair("fence_closed", "closed the code fence left open at the end, before adding sections", None)
    level = section_level(sc.headings, names)
    parts = [body.rstrip()] if body.strip() else []
    for s in missing:
        parts.append(f"{'#' * level} {s.name}\n\n{empty}")
        st.repair("filled", f"added the missing required section {s.name!r} holding {empty!r}", None, s.name)
    st.body = "\n\n".join(parts) + "\n"


def _had_text(st: RepairState) -> bool:
    """The reply said something besides ``<think>`` blocks."""
    return any(piece.strip() for piece in [st.body, st.preamble or "", *st.outside])
