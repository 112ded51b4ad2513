"""Prompt instructions asking for HTML: the elements to use, short."""

from __future__ import annotations

from typing import Any


def guidance(schema: Any = None) -> str:
    """The instructions for a prompt; ``schema`` is an :class:`~formatbook_html.schema.HtmlSchema` or ``None``."""
    lines = [
        "Reply with HTML only (no Markdown, no prose around it).",
        "Use elements for structure: <h2> for headings, <p> for paragraphs, <ul>/<ol> with <li> for lists, "
        "<table> with <tr>/<th>/<td> for tables, <strong>/<em> for emphasis, <a href> for links.",
        "Close every element you open, quote attribute values, and write & as &amp; and < as &lt; in text.",
    ]
    required = getattr(schema, "required", ()) if schema is not None else ()
    if required:
        lines.append("The reply must contain: " + ", ".join(f"`{s}`" for s in required) + ".")
    return "\n".join(lines)
