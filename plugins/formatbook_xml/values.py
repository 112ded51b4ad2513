"""The data an XML reply carries, without its markup: text nodes and attribute values
in document order (CDATA content included: it is text), not tag or attribute names,
not comments or processing instructions; white-space-only values left out.

Each text node is one value: an element's text before its first child, and the text
after each child (its ``tail``), as lxml gives them (entity and character references
decoded, CDATA merged with the text around it). Attribute values come as lxml gives them
too (white space normalised by the XML rules).

Scopes are XPath 1.0 expressions evaluated with lxml (``//answer``, ``/reply/item[2]``,
``//item/@id``): an element counts its own values (not its tail), an attribute or a
string result its text. The EXSLT regular-expression functions are off (no regular
expression from a scope runs on the reply).
"""

from __future__ import annotations

import functools
from typing import Any

from formatbook_core import ScopeNotFound

__all__ = ["values_of", "extract_values", "extract_scope", "compile_scope"]

# lxml's ``attrib.values()`` finds each value by its name, walking the element's
# attributes again: quadratic in their number (50,000 attributes took 9 s). Past this
# many, the XPath ``@*`` reads the values in one walk (the same strings, in order).
_MANY_ATTRIBUTES = 32


@functools.cache
def _all_attributes() -> Any:
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    return etree.XPath("@*", smart_strings=False)


def _attribute_values(node: Any) -> Any:
    """``node``'s attribute values in document order, read in one walk."""
    attrib = node.attrib
    if len(attrib) <= _MANY_ATTRIBUTES:  # counting them is one walk
        return attrib.values()
    return _all_attributes()(node)


def values_of(element: Any) -> list[str]:
    """The values inside ``element`` (its tail excluded), in document order."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    out: list[str] = []
    append = out.append
    for event, node in etree.iterwalk(element, events=("start", "end", "comment", "pi")):
        if event == "start":
            for value in _attribute_values(node):
                if value.strip():
                    append(value)
            if node.text and node.text.strip():
                append(node.text)
        elif node is not element and node.tail and node.tail.strip():
            # the end of an element, a comment or a PI: the text after it
            append(node.tail)
    return out


def extract_values(root: Any) -> list[str]:
    """The values of the document whose root element is ``root``."""
    return values_of(root) if root is not None else []


def compile_scope(scope: str) -> Any:
    """The compiled XPath of ``scope``; raises ``ScopeNotFound`` when it is not XPath."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    if not isinstance(scope, str) or not scope.strip():
        raise ScopeNotFound("an XML scope is a non-empty XPath expression")
    try:
        return etree.XPath(scope, regexp=False, smart_strings=False)
    except etree.XPathSyntaxError as err:
        raise ScopeNotFound(f"{scope!r} is not an XPath expression ({err})") from None


def extract_scope(root: Any, scope: str) -> list[str]:
    """The values under the XPath ``scope`` of the document ``root``; raises
    ``ScopeNotFound`` when it selects nothing."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    xpath = compile_scope(scope)
    try:
        result = xpath(root)
    except etree.XPathError as err:
        raise ScopeNotFound(f"the XPath {scope!r} cannot be evaluated: {err}") from None
    if isinstance(result, bool):
        raise ScopeNotFound(f"the XPath {scope!r} gives a truth value, not part of the document")
    if isinstance(result, (int, float)):
        return [_number(result)]
    if isinstance(result, str):
        return [result] if result.strip() else []
    if not result:
        raise ScopeNotFound(f"the XPath {scope!r} selects nothing in the reply")
    out: list[str] = []
    for item in result:
        if isinstance(item, str):
            if item.strip():
                out.append(item)
        elif isinstance(getattr(item, "tag", None), str):
            out.extend(values_of(item))
        elif hasattr(item, "text") and item.text and item.text.strip() and not callable(item.tag):
            out.append(item.text)
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
