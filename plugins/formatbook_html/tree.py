"""The tree the HTML5 algorithm builds, as html5lib's tree builder API asks for it, with the
limits that keep a hostile reply linear.

Why a tree of our own rather than html5lib's ``etree`` builder: that builder appends text
with ``tail += data``, which copies the whole text node for every character token, so a
paragraph of a megabyte written as ``a & b & ...`` takes minutes. Text here is a list of
pieces joined once. Each element also keeps the offset (into the parsed text) where the
tokenizer stood when it was made, so that repairs and violations can point at it.

Limits (each a :class:`Limit` raised out of the parse, answered with a violation):

* nesting deeper than ``max_depth`` open elements (html5lib's scope checks walk the stack
  of open elements, so depth bounds the work per tag);
* more than :data:`MAX_CLONES` elements recreated by the "reconstruct the active
  formatting elements" step (``<p><b x=1></p><p><b x=2></p>...`` makes the algorithm
  recreate every unclosed ``<b>`` in each later paragraph: quadratic output).
"""

from __future__ import annotations

from typing import Any

#: Elements the parser may recreate (reconstruct the active formatting elements) in one
#: document; beyond this the reply is refused (``html.too_complex``).
MAX_CLONES = 20_000

HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
MATHML_NS = "http://www.w3.org/1998/Math/MathML"


_IMPLIED = frozenset(("dd", "dt", "li", "option", "optgroup", "p", "rp", "rt"))


class Limit(Exception):
    """A limit was passed while parsing: ``code`` and ``message`` for the violation."""

    def __init__(self, code: str, message: str, offset: int):
        super().__init__(message)
        self.code = code
        self.message = message
        self.offset = offset


class OpenElements(list[Any]):
    """html5lib's stack of open elements, counting the elements open under each name.

    html5lib asks, for most start tags, whether an element of some name is in scope (is a
    ``<p>`` open, to close it?), walking the stack down from the top to the nearest scope
    boundary. Under a thousand ``<div>``s with no ``<p>`` open that walk crosses the whole
    stack for every tag: quadratic in the depth. With the count, a name open nowhere is
    answered at once (out of scope: the walk would have met a boundary, ``<html>`` at the
    latest); a name that is open still takes the walk."""

    def __init__(self) -> None:
        super().__init__()
        self.names: dict[tuple[str, str], int] = {}

    def _add(self, node: Any) -> None:
        self.names[node.nameTuple] = self.names.get(node.nameTuple, 0) + 1

    def _drop(self, node: Any) -> None:
        self.names[node.nameTuple] -= 1

    def _recount(self) -> None:
        self.names = {}
        for node in self:
            self._add(node)

    def append(self, node: Any) -> None:
        super().append(node)
        self._add(node)

    def insert(self, index: Any, node: Any) -> None:
        super().insert(index, node)
        self._add(node)

    def pop(self, index: Any = -1) -> Any:
        node = super().pop(index)
        self._drop(node)
        return node

    def remove(self, node: Any) -> None:
        super().remove(node)
        self._drop(node)

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        self._recount()  # a clone put in a node's place (the adoption agency): rare

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        self._recount()

    def extend(self, nodes: Any) -> None:
        super().extend(nodes)
        self._recount()

    def clear(self) -> None:
        super().clear()
        self.names = {}


def _base() -> Any:
    from html5lib.treebuilders import base  # noqa: PLC0415 - html5lib is a lazy dependency

    return base


class Text:
    """A text node: its pieces, joined on demand."""

    __slots__ = ("parts", "parent")
    name = "#text"

    def __init__(self, data: str):
        self.parts = [data]
        self.parent: Any = None

    @property
    def data(self) -> str:
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0]


_CLASSES: dict[str, Any] = {}


def classes() -> dict[str, Any]:
    """The node and tree-builder classes, built once on first use (html5lib imported then)."""
    if not _CLASSES:
        base = _base()
        nodes = _node_classes(base)
        _CLASSES.update(nodes, TreeBuilder=_builder_class(base, nodes))
    return _CLASSES


def _node_classes(base: Any) -> dict[str, Any]:
    class Element(base.Node):
        """An element (also the document, the fragment root, comments and doctypes, told
        apart by ``kind``)."""

        kind = "element"
        childNodes: list[Any]  # set by html5lib's Node.__init__ (html5lib is untyped)

        def __init__(self, name: str, namespace: str | None = None):
            super().__init__(name)
            self.namespace = namespace
            self.nameTuple = (namespace or HTML_NS, name)
            self.pos = 0

        def appendChild(self, node: Any) -> None:
            if isinstance(node, Text):
                self.insertText(node.data)
                return
            node.parent = self
            self.childNodes.append(node)

        def insertText(self, data: str, insertBefore: Any = None) -> None:
            children = self.childNodes
            if insertBefore is None:
                if children and isinstance(children[-1], Text):
                    children[-1].parts.append(data)
                    return
                node = Text(data)
                node.parent = self
                children.append(node)
                return
            i = children.index(insertBefore)
            if i > 0 and isinstance(children[i - 1], Text):
                children[i - 1].parts.append(data)
                return
            node = Text(data)
            node.parent = self
            children.insert(i, node)

        def insertBefore(self, node: Any, refNode: Any) -> None:
            i = self.childNodes.index(refNode)
            if isinstance(node, Text):
                self.insertText(node.data, refNode)
                return
            node.parent = self
            self.childNodes.insert(i, node)

        def removeChild(self, node: Any) -> None:
            self.childNodes.remove(node)
            node.parent = None

        def reparentChildren(self, newParent: Any) -> None:
            for child in self.childNodes:
                newParent.appendChild(child)
            self.childNodes = []

        def cloneNode(self) -> Any:
            clone = type(self)(self.name, self.namespace)
            clone.attributes = dict(self.attributes)
            clone.pos = self.pos
            return clone

        def hasContent(self) -> bool:
            return bool(self.childNodes)

    class Document(Element):
        kind = "document"

        def __init__(self) -> None:
            super().__init__("#document")

    class Fragment(Element):
        kind = "fragment"

        def __init__(self) -> None:
            super().__init__("#fragment")

    class Comment(Element):
        kind = "comment"

        def __init__(self, data: str):
            super().__init__("#comment")
            self.value = data

    class Doctype(Element):
        kind = "doctype"

        def __init__(self, name: str, publicId: str | None = None, systemId: str | None = None):
            super().__init__("!doctype")
            self.value = name
            self.publicId = publicId
            self.systemId = systemId

    return {"Element": Element, "Document": Document, "Fragment": Fragment, "Comment": Comment, "Doctype": Doctype}


def _builder_class(base: Any, nodes: dict[str, Any]) -> Any:
    class TreeBuilder(base.TreeBuilder):
        """html5lib's tree construction on the nodes of this module, with its limits."""

        documentClass = nodes["Document"]
        elementClass = nodes["Element"]
        commentClass = nodes["Comment"]
        doctypeClass = nodes["Doctype"]
        fragmentClass = nodes["Fragment"]

        def __init__(self, namespaceHTMLElements: bool = True):
            super().__init__(namespaceHTMLElements)
            self.max_depth = 1000
            self.clones = 0
            self.offset: Any = lambda: 0  # set by the parser: where the tokenizer stands
            self.on_foster_text: Any = None  # set by the parser: text moved out of a table

        def reset(self) -> None:
            super().reset()
            self.openElements = OpenElements()

        def elementInScope(self, target: Any, variant: Any = None) -> bool:
            stack = self.openElements
            if stack and isinstance(target, (str, tuple)):  # a name (else a node: the walk)
                name = (HTML_NS, target) if isinstance(target, str) else target
                if not stack.names.get(name):
                    return False  # open nowhere: the walk down would meet a boundary first
            return bool(super().elementInScope(target, variant))

        def _check(self, element: Any) -> Any:
            element.pos = self.offset()
            if len(self.openElements) > self.max_depth:
                raise Limit(
                    "html.too_deep",
                    f"elements are nested more than {self.max_depth} levels deep (max_depth)",
                    element.pos,
                )
            return element

        def insertElementNormal(self, token: Any) -> Any:
            return self._check(super().insertElementNormal(token))

        def insertElementTable(self, token: Any) -> Any:
            return self._check(super().insertElementTable(token))

        def reconstructActiveFormattingElements(self) -> None:
            depth = len(self.openElements)
            super().reconstructActiveFormattingElements()
            self.clones += len(self.openElements) - depth
            if self.clones > MAX_CLONES:
                raise Limit(
                    "html.too_complex",
                    f"unclosed formatting elements would be recreated more than {MAX_CLONES:,} times",
                    self.offset(),
                )

        def insertText(self, data: str, parent: Any = None) -> None:
            if (
                self.insertFromTable
                and self.on_foster_text is not None
                and self.openElements[-1].name in ("table", "tbody", "tfoot", "thead", "tr")
                and data.strip(" \t\n\f\r")
            ):
                self.on_foster_text(data)
            super().insertText(data, parent)

        def generateImpliedEndTags(self, exclude: Any = None) -> None:
            # html5lib's own is recursive: a long run of <optgroup>s would exhaust the stack
            stack = self.openElements
            while stack and stack[-1].name in _IMPLIED and stack[-1].name != exclude:
                stack.pop()

        def testSerializer(self, node: Any) -> str:  # pragma: no cover - html5lib's own tests only
            return repr(node)

    return TreeBuilder
