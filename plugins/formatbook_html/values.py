"""The data an HTML reply carries (ARCHITECTURE.md, extract_values): the visible text —
not ``script``, ``style``, ``template``, the ``head`` or comments — and the ``alt`` and
``title`` attributes, in document order.

Text is gathered per block: the text of one paragraph, list item, cell or heading is one
value however many inline elements (``<b>``, ``<a>``) it runs through, so that
``Hel<b>lo</b>`` is one word; a block element or ``<br>`` ends a value. White space runs
are read as one space (as a browser shows them), except inside ``<pre>`` and
``<textarea>``. Counting scopes are CSS selectors: ``IN "article p"`` counts the values of
the elements that selector matches (an element inside another match counts once).
"""

from __future__ import annotations

from typing import Any

from .tree import Text

_HIDDEN = frozenset(("script", "style", "template", "head", "noframes"))
_BLOCK = frozenset(
    """address article aside blockquote body br caption center dd details dialog dir div dl dt fieldset
    figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li listing main menu nav ol
    optgroup option p pre section summary table tbody td textarea tfoot th thead title tr ul""".split()
)
_PRE = frozenset(("pre", "textarea", "listing", "plaintext"))
_ATTRS = ("alt", "title")
_WS = " \t\n\r\f"


def _collapse(text: str) -> str:
    return " ".join(text.split())


def values_of(nodes: list[Any]) -> list[str]:
    """The values of the given nodes and their descendants, in document order."""
    out: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            value = _collapse("".join(pending))
            pending.clear()
            if value:
                out.append(value)

    stack: list[tuple[Any, bool, bool]] = [(n, False, False) for n in reversed(nodes)]
    while stack:
        node, pre, closing = stack.pop()
        if closing:
            flush()
            continue
        if isinstance(node, Text):
            if pre:
                flush()
                data = node.data
                if data.strip(_WS):
                    out.append(data)
            else:
                pending.append(node.data)
            continue
        if getattr(node, "kind", "element") in ("comment", "doctype"):
            continue
        name = node.name
        if name in _HIDDEN:
            continue
        block = name in _BLOCK
        if block:
            flush()
        for attr in _ATTRS:
            value = node.attributes.get(attr)
            if isinstance(value, str) and value.strip(_WS):
                flush()
                out.append(_collapse(value))
        if block:
            stack.append((node, pre, True))
        inner = pre or name in _PRE
        for child in reversed(node.childNodes):
            stack.append((child, inner, False))
    flush()
    return out


def outermost(elements: list[Any]) -> list[Any]:
    """``elements`` without those inside another of them."""
    chosen = set(map(id, elements))
    out = []
    for el in elements:
        parent = el.parent
        inside = False
        while parent is not None:
            if id(parent) in chosen:
                inside = True
                break
            parent = parent.parent
        if not inside:
            out.append(el)
    return out
