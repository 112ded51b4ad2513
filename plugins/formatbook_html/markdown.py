"""Signs that a reply is Markdown where HTML was asked for.

formatbook never turns Markdown into HTML in silence: a reply without an element that
reads as Markdown fails with ``html.markdown`` (one without any sign of it with
``html.no_element``), and so does an HTML reply whose text holds a Markdown heading or
fence line. One linear scan of each line, no regular expression.
"""

from __future__ import annotations

_BULLETS = ("- ", "* ", "+ ")


def _line_sign(line: str, strong: bool) -> str | None:
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return None
    if stripped.startswith("#"):
        hashes = len(stripped) - len(stripped.lstrip("#"))
        if hashes <= 6 and stripped[hashes : hashes + 1] in (" ", "\t"):
            return f"a Markdown heading ({stripped[:40].strip()!r})"
    if stripped.startswith(("```", "~~~")):
        return "a Markdown code fence"
    if strong:
        return None
    if stripped.startswith(_BULLETS) and stripped[2:].strip():
        return f"a Markdown list item ({stripped[:40].strip()!r})"
    if stripped.startswith("> ") and stripped[2:].strip():
        return "a Markdown block quote"
    digits = len(stripped) - len(stripped.lstrip("0123456789"))
    if 0 < digits < 10 and stripped[digits : digits + 2] == ". ":
        return f"a Markdown numbered item ({stripped[:40].strip()!r})"
    if stripped.startswith("|") and "|" in stripped[1:] and "-" in stripped:
        return "a Markdown table"
    bold = stripped.find("**")
    if bold >= 0 and stripped.find("**", bold + 3) > bold + 2:
        return "Markdown bold text (**...**)"
    link = stripped.find("](")
    if link > 0 and "[" in stripped[:link] and ")" in stripped[link:]:
        return "a Markdown link ([text](url))"
    return None


def markdown_sign(text: str, *, strong_only: bool = False) -> str | None:
    """What in ``text`` reads as Markdown, or ``None``. With ``strong_only`` only headings
    and fences count (the signs that cannot be ordinary prose inside HTML text)."""
    for line in text.split("\n"):
        sign = _line_sign(line, strong_only)
        if sign is not None:
            return sign
    return None
