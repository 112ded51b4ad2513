"""HTML text for the tree the HTML5 algorithm built: what ``heal`` returns.

Written here rather than with html5lib's serializer because the tree is our own (see
:mod:`.tree`) and because a few details decide whether the output parses back to the same
tree without an error: a newline kept at the start of ``<pre>`` and ``<textarea>``, raw
text elements written unescaped, ``<plaintext>`` never closed, foreign (SVG, MathML)
elements self-closed when empty, comments that cannot end early, characters the HTML
standard forbids left out (each such change is counted, for the repairs).
"""

from __future__ import annotations

import re
from typing import Any

from formatbook_core.healing import Written
from formatbook_core.streaming import PY_SPACE

from .tree import HTML_NS, Text

VOID = frozenset(
    "area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr".split()
)
RAW = frozenset(("script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"))
RCDATA = frozenset(("textarea", "title"))
_NEWLINE_FIRST = frozenset(("pre", "textarea", "listing"))
#: what heal strips from the written text's ends (``.strip(" \t\n\r\f")``, then ``.strip()``)
_ALL_SPACE = "".join(sorted(PY_SPACE))


# A line break, then blank lines: in text at the top of a fragment, one line break does
# (HTML shows white space runs as one space there). No two iterations overlap: linear.
_BLANK_LINES = re.compile(r"\n[ \t\f]*(?:\n[ \t\f]*)+")


class Changes:
    """What serialising changed besides the tree's shape (each becomes a repair)."""

    def __init__(self) -> None:
        self.invalid_chars = 0
        self.comments = 0
        self.blank_lines = 0
        self.pre_newlines = 0  # newlines doubled after <pre>, <textarea>, <listing>


def _invalid_re() -> Any:
    from html5lib._inputstream import invalid_unicode_re  # noqa: PLC0415 - lazy dependency

    return invalid_unicode_re


def _clean(data: str, changes: Changes) -> str:
    if "\x00" in data:
        data = data.replace("\x00", "\ufffd")
    cleaned, n = _invalid_re().subn("", data)
    changes.invalid_chars += n
    return cleaned


def _escape_text(data: str) -> str:
    return data.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attr(data: str) -> str:
    return data.replace("&", "&amp;").replace('"', "&quot;")


def _attr_name(name: Any) -> str:
    if isinstance(name, tuple):  # an adjusted foreign attribute: (prefix, local name, namespace)
        prefix, local = name[0], name[1]
        return f"{prefix}:{local}" if prefix else str(local)
    return str(name)


def _comment(data: str, changes: Changes) -> str:
    fixed = data
    while "--" in fixed:
        fixed = fixed.replace("--", "- -")
    fixed = fixed.lstrip(">-") if fixed.startswith((">", "->")) else fixed
    if fixed.endswith("-"):
        fixed += " "
    if fixed != data:
        changes.comments += 1
    return fixed


def _text_of(node: Any) -> str:
    """The text of ``node``'s descendants, in order (iterative)."""
    parts: list[str] = []
    stack = list(reversed(node.childNodes))
    while stack:
        child = stack.pop()
        if isinstance(child, Text):
            parts.append(child.data)
        elif getattr(child, "kind", "") == "element":
            stack.extend(reversed(child.childNodes))
    return "".join(parts)


def serialize(
    root: Any, document: bool, changes: Changes, pre_newline: bool = True, max_size: int | None = None
) -> str:
    """The HTML text of ``root`` (a document node, or a fragment node whose children are
    written). Iterative: any depth. With ``pre_newline``, a newline that starts the text of
    a ``<pre>`` is written twice (the parser drops one); html5lib drops it only in some
    insertion modes (not in a table cell), so the caller checks and may write without.
    With ``max_size`` (a heal's), the text is written into the core's ``Written``: refused
    (``HealError``, ``reply.too_large``) as soon as even its stripped length, without the
    doubled newlines, must pass it."""
    out: list[str] = [] if max_size is None else Written(max_size, strip=_ALL_SPACE)
    if document:
        out.append("<!DOCTYPE html>")
    stack: list[Any] = [(child, False) for child in reversed(root.childNodes)]
    while stack:
        node, closing = stack.pop()
        if closing:
            out.append(node)
            continue
        if isinstance(node, Text):
            parent = node.parent
            data = _clean(node.data, changes)
            if parent is not None and parent.name in RAW and parent.namespace == HTML_NS:
                out.append(data)
                continue
            if parent is root and not document and "\n" in data:
                # blank lines at the top level would split the fragment into blocks that
                # locating reads as prose around HTML: joined (nothing visible changes)
                data, n = _BLANK_LINES.subn("\n", data)
                changes.blank_lines += n
            out.append(_escape_text(data))
            continue
        kind = node.kind
        if kind == "doctype":
            continue  # written first, as <!DOCTYPE html>
        if kind == "comment":
            out.append(f"<!--{_comment(_clean(node.value or '', changes), changes)}-->")
            continue
        name = node.name
        attrs = "".join(
            f' {_attr_name(k)}="{_escape_attr(_clean(str(v), changes))}"' for k, v in node.attributes.items()
        )
        html = node.namespace in (None, HTML_NS)
        if not html and not node.childNodes:
            out.append(f"<{name}{attrs}/>")
            continue
        out.append(f"<{name}{attrs}>")
        if html and name in VOID:
            continue
        children = node.childNodes
        if html and (name in RAW or name in RCDATA) and any(not isinstance(c, Text) for c in children):
            # html5lib may recreate a formatting element inside <textarea>, whose content
            # is text only: its text is written, as the element holds it
            text = _clean(_text_of(node), changes)
            if pre_newline and name in _NEWLINE_FIRST and text.startswith("\n"):
                changes.pre_newlines += 1
                _doubled(out)
            out.append(text if name in RAW else _escape_text(text))
            if name != "plaintext":
                out.append(f"</{name}>")
            continue
        if pre_newline and html and name in _NEWLINE_FIRST and children and isinstance(children[0], Text):
            if children[0].data.startswith("\n"):
                changes.pre_newlines += 1
                _doubled(out)  # the parser drops one newline right after the start tag
        if not (html and name == "plaintext"):
            stack.append((f"</{name}>", True))
        for child in reversed(children):
            stack.append((child, False))
    return "".join(out)


def _doubled(out: list[str]) -> None:
    """A newline written twice after ``<pre>``: the writing without it may be the one
    kept (see :func:`serialize`), so ``Written`` does not hold it against the limit."""
    out.append("\n")
    if isinstance(out, Written):
        out.allow(1)
