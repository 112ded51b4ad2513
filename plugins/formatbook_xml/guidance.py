"""Prompt instructions: one XML document, its root element and required children, short."""

from __future__ import annotations

from typing import Any

_PLAIN = "Reply with one well-formed XML document only: a single root element, special characters escaped (&amp; &lt;)."


def guidance(schema: Any = None, wrapper: str | None = None) -> str:
    """Instructions asking for XML (with the root and children the schema names)."""
    root = getattr(schema, "root", None) or wrapper
    required = tuple(getattr(schema, "required", ()) or ())
    if root is None:
        return _PLAIN
    text = f"Reply with one well-formed XML document only, its root element <{root}>"
    if required:
        children = "".join(f"<{name}>…</{name}>" for name in required)
        text += f" holding {children}"
    text += ". Escape special characters in text (&amp; for &, &lt; for <)."
    kind = getattr(schema, "kind", None)
    if kind in ("xsd", "relaxng", "dtd"):
        text += f" It must be valid against the {kind.upper() if kind != 'relaxng' else 'RelaxNG'} schema."
    return text
