"""The one lxml parser configuration formatbook uses for every XML text it reads.

Replies are untrusted: entities are never expanded beyond the five XML predefines, no DTD
is loaded, nothing is fetched (``resolve_entities=False``, ``load_dtd=False``,
``no_network=True``), and lxml's limits for huge documents stay on (``huge_tree=False``).
Every parse goes through :func:`safe_parser` and :func:`parse`. lxml's error log lives on
the parser and a parser is not shared between threads: :func:`parse` keeps one parser per
thread (each parse starts a new error log; making a parser costs a third of a 1 KB parse),
a caller with a resolver gets a new one each time.

Schemas are read with the same settings (:func:`safe_parser` with ``resolver``): a
schema's references to other documents go only through the resolver formatbook installs
(see :mod:`.schema_refs`), never through libxml2's own loaders. A DTD schema is read as the
external subset of a stub document (``load_dtd=True``), which only a resolver that answers
every load may do.
"""

from __future__ import annotations

import functools
import queue
from typing import Any, NamedTuple

__all__ = ["SETTINGS", "safe_parser", "parse", "Problem", "offset_of", "element_class"]

#: The parser settings, in one place (tests check a parser made here has them).
SETTINGS: dict[str, Any] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "dtd_validation": False,
    "huge_tree": False,
    "remove_comments": False,
    "remove_pis": False,
    "strip_cdata": True,
    "recover": False,
    "encoding": "utf-8",
}


class Problem(NamedTuple):
    """One error lxml reported: 1-based ``line`` and ``column``, its message, and the
    element path libxml2 gives (``/order/item[2]/price``) or ``None``."""

    line: int
    column: int
    message: str
    path: str | None = None
    type_name: str = ""


def safe_parser(resolver: Any = None, *, load_dtd: bool = False) -> Any:
    """A new lxml ``XMLParser`` with :data:`SETTINGS` (and ``resolver`` registered); its
    elements are :func:`element_class` instances. ``load_dtd`` (for a DTD schema) needs a
    ``resolver`` that answers every URL: libxml2 would read any other itself."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    if load_dtd and resolver is None:
        raise ValueError("load_dtd needs a resolver that answers every load")
    parser = etree.XMLParser(**{**SETTINGS, "load_dtd": load_dtd})
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(element=element_class()))
    if resolver is not None:
        parser.resolvers.add(resolver)
    return parser


@functools.cache
def element_class() -> Any:
    """The class of the elements formatbook parses: an lxml element in every way, which
    also knows its JSON form (``to_json()``: the element as XML text), so that
    ``CheckResult.to_dict()`` and the CLI's ``--json`` write the value, not a repr."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    class XmlElement(etree.ElementBase):
        def to_json(self) -> str:
            return etree.tostring(self, encoding="unicode", with_tail=False)

    return XmlElement


#: libxml2's level of an error (``ERROR``; ``FATAL`` is above it, ``WARNING`` below)
_ERROR_LEVEL = 2

#: Parsers for :func:`parse`, each used by one parse at a time: making one costs about a
#: third of parsing a 1 KB reply. A pool, not a thread-local: nothing is handed from one
#: call to the next (lxml clears a parser's error log at each parse), and a thread that
#: ends leaves no parser behind.
_IDLE_PARSERS: queue.SimpleQueue[Any] = queue.SimpleQueue()


@functools.cache
def _etree() -> Any:
    """``lxml.etree``, imported at the first parse (an import statement in :func:`parse`
    cost a microsecond of every parse, and a damaged reply is parsed three times)."""
    from lxml import etree  # noqa: PLC0415 - lxml only when XML is read

    return etree


def parse(text: str) -> tuple[Any, list[Problem]]:
    """``(root element, [])`` for well-formed ``text``, else ``(None, problems)``.

    The text is handed to libxml2 as UTF-8 with the encoding forced (a reply is already
    text; an ``encoding="..."`` in its declaration does not apply to it)."""
    etree = _etree()
    try:
        parser = _IDLE_PARSERS.get_nowait()
    except queue.Empty:
        parser = safe_parser()
    data = text.encode("utf-8", "surrogatepass")
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as err:
        # errors and fatal errors (levels 2 and 3), not warnings
        problems = [_problem(e) for e in parser.error_log if e.level >= _ERROR_LEVEL]
        if not problems:
            line, column = err.position if err.position else (1, 0)
            problems = [Problem(line or 1, column or 1, str(err.msg or err))]
        return None, problems
    finally:
        _IDLE_PARSERS.put(parser)
    return root, []


def _problem(entry: Any) -> Problem:
    return Problem(
        max(1, entry.line or 1),
        max(1, entry.column or 1),
        entry.message.strip(),
        getattr(entry, "path", None),
        entry.type_name,
    )


def offset_of(text: str, line: int, column: int) -> int:
    """The character offset of 1-based ``line`` and ``column`` in ``text`` (clamped)."""
    pos = 0
    for _ in range(max(0, line - 1)):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return min(pos + max(0, column - 1), end)
