"""Step 2: a heading glued mid-line (``Yes. ## Reasoning``) goes on its own line, when the
rest of the line names a section of the spec. Code (other than a Markdown container) and
code spans are left alone. Applies from L1 on."""

from __future__ import annotations

import re

from ..blocks import scan
from .state import RepairState, edit_lines

_GLUED = re.compile(r"(?<=\S)[ \t]+(#{1,6})[ \t]+(?=\S)")
_CLOSING = re.compile(r"[ \t]+#+[ \t]*$")


def _split(line: str, names: dict[str, str]) -> list[str] | None:
    from ..spec import normalize_section_name

    for m in _GLUED.finditer(line):
        if line[: m.start()].count("`") % 2:
            continue  # inside a code span
        title = _CLOSING.sub("", line[m.end() :].rstrip())
        if normalize_section_name(title) not in names:
            continue
        before = line[: m.start()].rstrip()
        head = f"{m.group(1)} {title.strip()}"
        return (_split(before, names) or [before]) + [head]
    return None


def split_glued_headings(st: RepairState) -> None:
    """Put glued section headings on their own lines."""
    names = st.names
    if st.level < 1 or not names or "#" not in st.body:
        return
    sc = scan(st.body)
    skip = set(sc.code_lines)
    from .container import markdown_fences

    for f in markdown_fences(sc, st.level):  # a container's content is Markdown, not code...
        first, end = f.line + 1, f.end_line - (1 if f.closed else 0)
        skip.difference_update(range(first, end))
        # ...except the code inside it
        skip.update(first + k for k in scan(sc.slice(first, end)).code_lines)
    edits = []
    for i in range(len(sc.lines)):
        if i in skip:
            continue
        line = sc.line_text(i)
        if "#" not in line:
            continue
        parts = _split(line, names)
        if parts:
            edits.append((i, i + 1, "\n".join(parts)))
            st.repair("heading_split", f"put the heading {parts[-1].strip()!r} on its own line", line)
    if edits:
        st.body = edit_lines(sc, edits)
