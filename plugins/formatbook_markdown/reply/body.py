"""The reply as text, and its Markdown body: inside the fence when the reply is one
fenced Markdown block."""

from __future__ import annotations

from typing import Any

from .blocks import MARKDOWN_LANGS, scan

__all__ = ["MARKDOWN_LANGS", "as_text", "container_body"]


def as_text(reply: Any) -> str:
    """A reply as ``str``: bytes are decoded as UTF-8 (BOM dropped, bad bytes replaced by
    U+FFFD); ``None`` is the empty reply. Anything else is a ``TypeError``."""
    if reply is None:
        return ""
    if isinstance(reply, (bytes, bytearray, memoryview)):
        return bytes(reply).decode("utf-8-sig", errors="replace")
    if not isinstance(reply, str):
        raise TypeError(f"a reply is str or bytes, not {type(reply).__name__}")
    return reply


def container_body(text: str) -> str:
    """The content of ``text`` when it is one fenced Markdown block (white space around
    it allowed), else ``text`` itself."""
    if "```" not in text and "~~~" not in text:
        return text
    sc = scan(text)
    if len(sc.fences) != 1 or sc.fences[0].lang not in MARKDOWN_LANGS:
        return text
    f = sc.fences[0]
    if sc.slice(0, f.line).strip() or sc.slice(f.end_line, len(sc.lines)).strip():
        return text
    return sc.slice(f.line + 1, f.end_line - (1 if f.closed else 0))
