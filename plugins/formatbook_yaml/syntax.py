"""The strict reading of a YAML text: the line scan (:mod:`.lines`), then ruamel's parser
(:mod:`.loading`), then the document rules (how many documents, what root)."""

from __future__ import annotations

from typing import Any

from formatbook_core import Span, Violation
from formatbook_core.verdicts import Verdicts

from .fastload import fast_values, refuses
from .lines import LineScanner, scan
from .loading import Document, load
from .prose import sentence_pair


class Reading:
    """What a strict read gives: the ``documents``, the ``value`` (one document's value,
    or the list of them with ``documents="many"``) and the ``violation`` (``None``: valid).

    A reading the fast path made (:mod:`.fastload`) has its value and no nodes yet:
    ``documents`` composes them on first use (schema violations shown as written, values
    counted, scopes), from the text it read (``source``: the text, ``max_depth``, ``many``).
    """

    __slots__ = ("_documents", "_source", "value", "violation", "written")

    def __init__(
        self,
        documents: list[Document] | None,
        value: Any,
        violation: Violation | None,
        source: tuple[str, int, bool] | None = None,
        written: list[str] | None = None,
    ):
        self._documents = documents
        self._source = source
        self.value = value
        self.violation = violation
        #: the fast path's scalar values as written (``node_values`` of every document)
        self.written = written

    @property
    def documents(self) -> list[Document]:
        """The documents with their nodes (composed now when the fast path read the text)."""
        if self._documents is None:
            docs: list[Document] = []
            if self._source is not None:
                text, max_depth, many = self._source
                docs, _ = load(text, max_depth=max_depth, many=many)
            self._documents, self._source = docs, None
        return self._documents


def scanner_options(options: dict[str, Any], max_depth: int) -> dict[str, Any]:
    return {
        "one_document": options.get("documents", "one") != "many",
        "collection_root": options.get("root", "collection") != "any",
        "max_depth": max_depth,
    }


def new_scanner(options: dict[str, Any], max_depth: int) -> LineScanner:
    return LineScanner(**scanner_options(options, max_depth))


#: The refusals of the last texts read (by the text object and the scanner's options): a
#: refused reading holds no value and no node, only its violation, so ``is_valid``,
#: ``analyze``, a checker's ``finish`` and ``heal`` of one reply read it once (an alias
#: bomb is refused only once ruamel has composed all of it; see formatbook_core.verdicts).
_REFUSED: Verdicts[Violation] = Verdicts()


#: The refusal of a text that ends inside an open quoted scalar or flow collection, as an
#: unworded reading gives it (see :func:`read`).
CUT_OFF = Violation("yaml.syntax", "the text ends inside an open quoted scalar or flow collection")


def read(text: str, options: dict[str, Any], max_depth: int, *, worded: bool = True) -> Reading:
    """Read ``text`` strictly; never raises on any text.

    ``worded=False`` (healing between its steps, which asks only whether a text reads):
    a text that ends inside an open quoted scalar or flow collection, as the line scanner
    reads it, and that libyaml's parser refuses too, is refused with :data:`CUT_OFF`,
    without the full reading that would word the refusal (ruamel's pure-Python parser
    and composer, 10-40x the rest, read the whole text only to reach its end)."""
    settings = scanner_options(options, max_depth)
    key = tuple(settings.values())
    refused = _REFUSED.get(text, key)
    if refused is not None:
        return Reading([], None, refused)
    reading = _read(text, options, settings, worded)
    refusal = reading.violation
    if refusal is not None and refusal is not CUT_OFF and reading.value is None and not reading.documents:
        _REFUSED.put(text, refusal, key)
    return reading


def _read(text: str, options: dict[str, Any], settings: dict[str, Any], worded: bool = True) -> Reading:
    many = options.get("documents", "one") == "many"
    max_depth = settings["max_depth"]
    scanner = scan(text, collect_tabs=True, **settings)
    if scanner.error is not None:
        err = scanner.error
        where = min(err.position, len(text))
        return Reading([], None, Violation(err.code, err.reason, span=Span(where, min(len(text), where + 1))))
    if scanner.spacing_tabs:
        chars = list(text)
        for k in scanner.spacing_tabs:
            chars[k] = " "
        text = "".join(chars)
    if not worded and (scanner.quote or scanner.flow) and refuses(text):
        return Reading([], None, CUT_OFF)
    fast = fast_values(text, max_depth=max_depth, many=many)
    if fast is not None:  # the full reading's answer, without its nodes (see fastload)
        values, written = fast
        return Reading(None, values if many else values[0], None, (text, max_depth, many), written)
    docs, violation = load(text, max_depth=max_depth, many=many)
    if violation is not None:
        return Reading([], None, violation)
    if not docs:
        return Reading([], [] if many else None, None if many else Violation("yaml.empty", "no YAML document"))
    if not many and len(docs) > 1:
        return Reading(docs, None, Violation("yaml.documents", "a second document where one is asked for"))
    if options.get("root", "collection") != "any":
        for doc in docs:
            if not isinstance(doc.value, (dict, list)):
                node = doc.node
                return Reading(
                    docs,
                    None,
                    Violation(
                        "yaml.root",
                        "the document is a bare scalar, not a mapping or a list (text, not YAML data)",
                        span=Span(node.start_mark.index, max(node.start_mark.index, node.end_mark.index)),
                        expected="mapping or sequence",
                    ),
                )
    value = [d.value for d in docs] if many else docs[0].value
    if all(sentence_pair(d.node) for d in docs):
        return Reading(docs, value, prose_violation(docs[0].node))
    return Reading(docs, value, None)


def prose_violation(node: Any) -> Violation:
    """A document that is one labelled sentence (``Error: the request timed out.``):
    prose, not data (see :mod:`.prose`)."""
    start, end = node.start_mark.index, max(node.start_mark.index, node.end_mark.index)
    return Violation(
        "yaml.prose",
        "the reply reads as a sentence with a label (`Label: sentence.`), not as YAML data",
        span=Span(start, end),
        expected="mapping or sequence",
    )
