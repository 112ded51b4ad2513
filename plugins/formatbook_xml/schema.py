"""XML schemas: the simple form, XSD, RelaxNG and DTD, loaded once and applied to a tree.

A schema is given as

* the simple form, a dict (or JSON text / a ``.json`` file holding one):
  ``{"root": "answer", "required": ["reasoning", "final"]}`` — the root element's name
  and the child elements it must have (names without a prefix match the local name);
* an XSD, RelaxNG or DTD schema as text or as a path (relative paths against the
  ``base_dir`` option); its kind is detected from its content: an ``xs:schema`` root is
  XSD, a root in the RelaxNG namespace is RelaxNG, declarations (``<!ELEMENT``,
  ``<!ATTLIST``) are a DTD;
* an ``XmlSchema`` (what :func:`load_schema` returns), or an lxml ``XMLSchema``,
  ``RelaxNG`` or ``DTD`` object.

A schema reads nothing but itself (ARCHITECTURE.md, security rules): an XSD import,
include, redefine or override, a RelaxNG include or externalRef, is refused with an
``ExpectationError`` unless ``allow_fetch=True``; then only ``http``/``https`` locations
are fetched (:mod:`.schema_refs`). A DTD that names an external entity or DTD
(``SYSTEM``/``PUBLIC``) is always refused, however it spells it: it is parsed with every
load answered by formatbook's resolver (an empty document), and an external entity found
in the parsed DTD is refused.

Violations carry the line, column and the element's path (``/order/item[2]/price``)
from lxml's error log, one per error.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from formatbook_core import ExpectationError, Span, Violation
from formatbook_core.schema_files import read_schema_file

from .parser import offset_of, safe_parser
from .schema_refs import DtdResolver, FetchResolver, check_references

__all__ = ["XmlSchema", "load_schema", "XSD_NS", "RNG_NS"]

XSD_NS = "http://www.w3.org/2001/XMLSchema"
RNG_NS = "http://relaxng.org/ns/structure/1.0"
_DTD_DECL = re.compile(r"<!(?:ELEMENT|ATTLIST|ENTITY|NOTATION)\b")
_DTD_EXTERNAL = re.compile(r"\b(?:SYSTEM|PUBLIC)\b")
#: The URL a DTD schema is read from (by :func:`.schema_refs.DtdResolver`, never a file).
_DTD_URL = "formatbook:dtd-schema"
_SIMPLE_KEYS = {"root", "required"}
#: The violation code of each schema language.
_CODES = {"xsd": "schema.xsd", "relaxng": "schema.relaxng", "dtd": "schema.dtd"}


@dataclass
class XmlSchema:
    """A loaded schema. ``kind`` is ``"simple"``, ``"xsd"``, ``"relaxng"`` or ``"dtd"``;
    ``validator`` the lxml object (for the last three); ``root`` and ``required`` the
    simple form (also read from an XSD's or RelaxNG's top element for guidance)."""

    kind: str
    validator: Any = None
    root: str | None = None
    required: tuple[str, ...] = field(default_factory=tuple)
    source: Any = None

    def violations(self, root: Any, text: str) -> list[Violation]:
        """Every violation of the parsed ``root`` (of ``text``) against this schema."""
        if self.kind == "simple":
            return _simple_violations(self, root, text)
        validator = self.validator
        try:
            ok = validator.validate(root.getroottree())
        except Exception as err:  # libxml2 can refuse a tree it cannot validate: a violation
            return [Violation(_CODES[self.kind], f"the {self.kind.upper()} schema could not check the reply: {err}")]
        if ok:
            return []
        out = []
        for entry in validator.error_log:
            path = entry.path or ""
            where = f"line {entry.line}" + (f", column {entry.column}" if entry.column else "")
            where += f", at {path}" if path else ""
            span = _element_span(root, path, entry.line, text)
            segments = tuple(p for p in path.split("/") if p)
            out.append(Violation(_CODES[self.kind], f"{entry.message.strip()} ({where})", path=segments, span=span))
        return out or [Violation(_CODES[self.kind], f"the reply does not match the {self.kind.upper()} schema")]


def _element_span(root: Any, path: str, line: int, text: str) -> Span | None:
    """Where the element at ``path`` (on ``line``) starts in ``text``: its start tag when
    the path leads to it, else the start of the line."""
    if not line:
        return None
    start = offset_of(text, line, 1)
    try:
        found = root.getroottree().xpath(path) if path.startswith("/") else []
    except Exception:  # a path libxml2 wrote that XPath cannot read: the line is enough
        found = []
    if found and isinstance(getattr(found[0], "tag", None), str) and found[0].sourceline == line:
        element = found[0]
        name = _local(element.tag) if not element.prefix else f"{element.prefix}:{_local(element.tag)}"
        at = text.find("<" + name, start)
        if at >= 0:
            start = at
    return Span(start, min(start + 1, len(text)))


def _local(tag: Any) -> str:
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def _matches(element: Any, name: str) -> bool:
    tag = element.tag
    if not isinstance(tag, str):
        return False
    if name.startswith("{"):
        return tag == name
    if ":" in name and element.prefix is not None:
        return f"{element.prefix}:{_local(tag)}" == name
    return _local(tag) == name


def _start_span(root: Any, text: str) -> Span | None:
    line = getattr(root, "sourceline", None)
    if not line:
        return None
    start = text.find("<", offset_of(text, line, 1))
    return Span(start, start + 1) if start >= 0 else None


def _simple_violations(schema: XmlSchema, root: Any, text: str) -> list[Violation]:
    out = []
    span = _start_span(root, text)
    if schema.root is not None and not _matches(root, schema.root):
        out.append(
            Violation(
                "schema.root",
                f"the root element is <{_local(root.tag)}>, expected <{schema.root}>",
                path=(_local(root.tag),),
                span=span,
                keyword="root",
                expected=schema.root,
            )
        )
        return out
    children = [c for c in root if isinstance(c.tag, str)]
    for name in schema.required:
        if not any(_matches(c, name) for c in children):
            out.append(
                Violation(
                    "schema.required",
                    f"<{_local(root.tag)}> has no <{name}> child element, which is required",
                    path=(_local(root.tag),),
                    span=span,
                    keyword="required",
                    expected=name,
                )
            )
    return out


def _simple(data: dict) -> XmlSchema:
    unknown = set(data) - _SIMPLE_KEYS
    if unknown:
        raise ExpectationError(
            f"an XML schema in the simple form takes only 'root' and 'required', not {sorted(unknown)!r}"
        )
    root = data.get("root")
    required = data.get("required", [])
    if root is not None and (not isinstance(root, str) or not root.strip()):
        raise ExpectationError("the simple XML schema's 'root' is an element name (text)")
    if (
        isinstance(required, str)
        or not isinstance(required, (list, tuple))
        or not all(isinstance(r, str) and r.strip() for r in required)
    ):
        raise ExpectationError("the simple XML schema's 'required' is a list of element names")
    return XmlSchema("simple", root=root, required=tuple(required), source=data)


def load_schema(schema: Any, *, allow_fetch: bool = False, base_dir: str | None = None, max_size: int) -> XmlSchema:
    """The :class:`XmlSchema` ``schema`` names (see the module doc); raises
    ``ExpectationError`` for anything that is not a schema or would read elsewhere."""
    if isinstance(schema, XmlSchema):
        return schema
    if isinstance(schema, dict):
        return _simple(schema)
    kind = _lxml_kind(schema)
    if kind is not None:
        return XmlSchema(kind, validator=schema, source=schema)
    if isinstance(schema, os.PathLike):
        schema = os.fspath(schema)
    if not isinstance(schema, str) or not schema.strip():
        raise ExpectationError(f"an XML schema is a dict, schema text or a path, not {type(schema).__name__}")
    text, base_url = _read(schema, allow_fetch=allow_fetch, base_dir=base_dir, max_size=max_size)
    return _from_text(text, base_url, allow_fetch=allow_fetch, max_size=max_size)


def _lxml_kind(obj: Any) -> str | None:
    module = type(obj).__module__ or ""
    if not module.startswith("lxml"):
        return None
    return {"XMLSchema": "xsd", "RelaxNG": "relaxng", "DTD": "dtd"}.get(type(obj).__name__)


def _looks_like_text(schema: str) -> bool:
    head = schema.lstrip()
    return head.startswith("<") or head.startswith("{") or "\n" in schema


def _read(schema: str, *, allow_fetch: bool, base_dir: str | None, max_size: int) -> tuple[str, str | None]:
    """The schema's text and the URL its relative references are read against."""
    if _looks_like_text(schema):
        return schema, None
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", schema):
        if not schema.lower().startswith(("http://", "https://")):
            raise ExpectationError(f"an XML schema is fetched only over http or https, not {schema!r}")
        if not allow_fetch:
            raise ExpectationError(f"the XML schema {schema!r} is a URL: set allow_fetch=True to fetch it")
        from .schema_refs import fetch  # noqa: PLC0415 - the network code only when a fetch is asked for

        return fetch(schema, max_size), schema
    path = schema if base_dir is None or os.path.isabs(schema) else os.path.join(base_dir, schema)
    try:
        text = read_schema_file(path, what="XML schema")
    except OSError as err:
        raise ExpectationError(f"cannot read the XML schema {schema!r}: {err}") from None
    except UnicodeDecodeError as err:
        raise ExpectationError(f"the XML schema {schema!r} is not UTF-8 text: {err}") from None
    if len(text) > max_size:
        raise ExpectationError(f"the XML schema {schema!r} is larger than {max_size:,} characters")
    return text, None


def _from_text(text: str, base_url: str | None, *, allow_fetch: bool, max_size: int) -> XmlSchema:
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        try:
            data = json.loads(head)
        except ValueError as err:
            raise ExpectationError(f"the XML schema is neither XML nor the simple form in JSON: {err}") from None
        if not isinstance(data, dict):
            raise ExpectationError("a simple XML schema in JSON is an object")
        return _simple(data)
    if _DTD_DECL.search(text) and not _starts_with_element(head):
        return _dtd(text)
    return _xml_schema(head, base_url, allow_fetch=allow_fetch, max_size=max_size)


def _starts_with_element(head: str) -> bool:
    """Whether the text's first markup after declarations, comments and PIs is an element."""
    pos = 0
    while True:
        pos = head.find("<", pos)
        if pos < 0:
            return False
        nxt = head[pos + 1 : pos + 2]
        if nxt == "?":
            pos = head.find("?>", pos)
        elif head.startswith("<!--", pos):
            pos = head.find("-->", pos)
        else:
            return nxt != "!"
        if pos < 0:
            return False


def _dtd(text: str) -> XmlSchema:
    if _DTD_EXTERNAL.search(text):
        raise ExpectationError(
            "the DTD names an external entity or DTD (SYSTEM or PUBLIC): a DTD schema must be self-contained"
        )
    dtd = _parse_dtd(text)
    # the text can spell SYSTEM with character references inside an entity's value: the
    # parsed DTD tells what was declared (nothing was read: the resolver answered empty)
    external = sorted({entity.name for entity in dtd.iterentities() if entity.system_url is not None})
    if external:
        raise ExpectationError(
            f"the DTD declares external entities ({', '.join(external)}): a DTD schema must be self-contained"
        )
    return XmlSchema("dtd", validator=dtd, source=text)


def _parse_dtd(text: str) -> Any:
    """The lxml DTD of ``text``, read as the external subset of a stub document whose every
    load goes to :func:`.schema_refs.DtdResolver` (``etree.DTD`` lets libxml2 open files)."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    # as bytes, surrogates passed: libxml2 refuses what is not UTF-8 (an ExpectationError)
    parser = safe_parser(DtdResolver(_DTD_URL, text.encode("utf-8", "surrogatepass")), load_dtd=True)
    stub = f'<!DOCTYPE formatbook-dtd SYSTEM "{_DTD_URL}"><formatbook-dtd/>'
    try:
        dtd = etree.fromstring(stub, parser).getroottree().docinfo.externalDTD
    except etree.XMLSyntaxError as err:
        raise ExpectationError(f"the DTD schema cannot be read: {err}") from None
    if dtd is None:
        raise ExpectationError("the DTD schema cannot be read")
    return dtd


def _xml_schema(text: str, base_url: str | None, *, allow_fetch: bool, max_size: int) -> XmlSchema:
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    resolver = FetchResolver(max_size) if allow_fetch else None
    parser = safe_parser(resolver)
    try:
        doc = etree.fromstring(text.encode("utf-8", "surrogatepass"), parser, base_url=base_url)
    except etree.XMLSyntaxError as err:
        raise ExpectationError(f"the XML schema is not well-formed XML: {err}") from None
    namespace = doc.tag.rsplit("}", 1)[0][1:] if isinstance(doc.tag, str) and doc.tag.startswith("{") else ""
    if namespace == XSD_NS and doc.tag.endswith("}schema"):
        kind = "xsd"
    elif namespace == RNG_NS:
        kind = "relaxng"
    else:
        raise ExpectationError(f"the XML schema's root <{doc.tag}> is neither an XSD xs:schema nor a RelaxNG pattern")
    check_references(doc, kind, base_url, allow_fetch=allow_fetch)
    try:
        validator = etree.XMLSchema(doc) if kind == "xsd" else etree.RelaxNG(doc)
    except (etree.XMLSchemaParseError, etree.RelaxNGParseError) as err:
        raise ExpectationError(f"the {kind.upper()} schema cannot be compiled: {err}") from None
    root_name, required = _top_element(doc, kind)
    return XmlSchema(kind, validator=validator, root=root_name, required=required, source=text)


def _top_element(doc: Any, kind: str) -> tuple[str | None, tuple[str, ...]]:
    """For guidance: the root element a schema declares first and its child elements."""
    if kind == "xsd":
        top = doc.find(f"{{{XSD_NS}}}element")
        if top is None or not top.get("name"):
            return None, ()
        names = [
            e.get("name") or e.get("ref")
            for e in top.iter(f"{{{XSD_NS}}}element")
            if e is not top and next(e.iterancestors(f"{{{XSD_NS}}}element"), None) is top
        ]
        children = tuple(n for n in names if n)
        return top.get("name"), children[:12]
    top = doc if _local(doc.tag) == "element" else doc.find(f".//{{{RNG_NS}}}element")
    if top is None or not top.get("name"):
        return None, ()
    names = [
        e.get("name")
        for e in top.iter(f"{{{RNG_NS}}}element")
        if e is not top and next(e.iterancestors(f"{{{RNG_NS}}}element"), None) is top
    ]
    return top.get("name"), tuple(n for n in names if n)[:12]
