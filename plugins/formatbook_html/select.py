"""CSS selectors (cssselect, as lxml uses them) on the tree the HTML5 algorithm built.

cssselect turns a selector into XPath, which lxml evaluates; the tree is mirrored into an
lxml tree of elements and attributes only (text plays no part in a selector), each mirror
element carrying its index in a private namespace no selector can reach.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from formatbook_core import ExpectationError

from .tree import Text

_INDEX = "{urn:x-formatbook-html}i"
# Characters XML (so lxml) refuses in an attribute value: a plain character class, linear.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@lru_cache(maxsize=256)
def compile_selector(selector: str) -> Any:
    """The XPath of a CSS selector; ``ExpectationError`` when it is not one cssselect reads."""
    from cssselect import HTMLTranslator, SelectorError  # noqa: PLC0415 - cssselect is a lazy dependency
    from lxml import etree  # noqa: PLC0415 - lxml is a lazy dependency

    if not isinstance(selector, str) or not selector.strip():
        raise ExpectationError(f"a CSS selector must be non-empty text, not {selector!r}")
    try:
        return etree.XPath(HTMLTranslator().css_to_xpath(selector))
    except SelectorError as err:
        raise ExpectationError(f"{selector!r} is not a CSS selector cssselect can use: {err}") from None
    except etree.XPathError as err:  # pragma: no cover - cssselect writes valid XPath
        raise ExpectationError(f"{selector!r} cannot be evaluated: {err}") from None


def _safe_name(name: str) -> str | None:
    if name and name.isascii() and name[0].isalpha() and all(c.isalnum() or c in "-_." for c in name):
        return name.lower() if name.isascii() else name
    return None


class Mirror:
    """The elements of a tree (in document order) and their lxml mirror."""

    def __init__(self, root: Any):
        from lxml import etree  # noqa: PLC0415 - lxml is a lazy dependency

        self.elements: list[Any] = []
        self.root = etree.Element("x-root")
        stack: list[tuple[Any, Any]] = [(child, self.root) for child in reversed(root.childNodes)]
        while stack:
            node, parent = stack.pop()
            if isinstance(node, Text) or getattr(node, "kind", "") != "element":
                continue
            try:
                mirror = etree.SubElement(parent, _safe_name(node.name) or "x-invalid")
            except ValueError:  # a name lxml refuses all the same: no selector names it
                mirror = etree.SubElement(parent, "x-invalid")
            for key, value in node.attributes.items():
                attr = _safe_name(key if isinstance(key, str) else str(key[1]))
                if attr is not None:
                    try:
                        mirror.set(attr, _NOT_XML.sub("\ufffd", str(value)))
                    except ValueError:  # (an attribute lxml refuses cannot be selected)
                        pass
            mirror.set(_INDEX, str(len(self.elements)))
            self.elements.append(node)
            for child in reversed(node.childNodes):
                stack.append((child, mirror))

    def select(self, selector: str) -> list[Any]:
        """The elements ``selector`` matches, in document order."""
        xpath = compile_selector(selector)
        found = xpath(self.root)
        indexes = sorted({int(el.get(_INDEX)) for el in found if hasattr(el, "get") and el.get(_INDEX) is not None})
        return [self.elements[i] for i in indexes]
