"""The incremental XML checkers behind ``stream()`` and ``can_be_valid``.

``XmlChecker(strict=True)`` feeds each chunk to the strict scanner (:mod:`.scan`): a
closing tag that does not match, text after the root's end or a second root fails as
soon as it arrives, and every prefix of a valid document stays truthy (the scanner is
the first pass of ``is_valid``, so it cannot refuse what ``is_valid`` accepts). Each
``feed`` costs time in proportion to its chunk. ``finish()`` parses the text with lxml
(and checks the schema, when there is one), so that it is truthy exactly when
``is_valid`` is.

The strict checker reports the values it has seen settle (``StreamStatus.values``), as
``extract_values`` gives them: a text node once the markup after it begins (CDATA and
references do not end it; comments, processing instructions and tags do), an attribute
value at its closing quote (namespace declarations left out), white-space-only ones left
out. A ``StreamGuard(strict=True)`` keeps MAX counts on them while the reply streams.

``XmlChecker(strict=False)`` follows what healing accepts: prose, fences, think blocks,
broken markup and a cut-off end may all be repaired, so it never fails while the text
streams (it cannot know healing will fail before the end); ``finish()`` is truthy when
the text is valid or ``heal`` repairs it.
"""

from __future__ import annotations

from collections.abc import Callable

from formatbook_core.results import StreamStatus, ok_status
from formatbook_core.textlog import TextLog

from .scan import CONTENT, PLAIN_TEXT, Scanner

__all__ = ["XmlChecker", "can_be_valid"]

_OK = StreamStatus(True)

# Short chunks of plain text seen before (a token stream repeats its chunks): a set
# look-up is cheaper than the regular expression. Bounded in count and length.
_PLAIN: set[str] = set()
_PLAIN_MAX = 4096


def _plain(chunk: str) -> bool:
    """Whether ``chunk`` is plain text (no markup character, no '\\r'), remembered when short."""
    if not chunk or PLAIN_TEXT(chunk) is None:
        return False
    if len(chunk) <= 16 and len(_PLAIN) < _PLAIN_MAX:
        _PLAIN.add(chunk)
    return True


class XmlChecker:
    """The ``Checker`` of the XML format (see the module doc).

    ``accept(text)`` is the final verdict on the whole text: ``None`` when it is valid
    (or heals, for the relaxed checker), else the reason.
    """

    __slots__ = ("_strict", "_scanner", "_parts", "_failed", "_accept")

    def __init__(self, accept: Callable[[str], str | None], *, strict: bool = True, max_depth: int = 256) -> None:
        self._strict = strict
        self._scanner = Scanner(max_depth, collect=True) if strict else None
        self._parts = TextLog()
        self._failed: StreamStatus | None = None
        self._accept = accept

    def feed(self, chunk: str) -> StreamStatus:
        """Consume the next piece of the reply; O(len(chunk))."""
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        scanner = self._scanner
        if scanner is None:
            return _OK
        if scanner.st == CONTENT and (chunk in _PLAIN or _plain(chunk)):
            # the commonest chunk: plain text inside an element, no '\r' (as Scanner.feed's
            # own short path)
            scanner._count = 0
            scanner.pos += len(chunk)
            if scanner._cr:
                scanner.raw(chunk, scanner._text)
            else:
                scanner._text.append(chunk)
            return _OK
        if not scanner.feed_other(chunk):
            code, message, position = scanner.error  # type: ignore[misc]
            self._failed = StreamStatus(False, message, position)
            return self._failed
        if scanner.vals:
            values = tuple(scanner.vals)
            scanner.vals.clear()
            return ok_status(values)
        return _OK

    def copy(self) -> XmlChecker:
        clone = XmlChecker.__new__(XmlChecker)
        clone._strict = self._strict
        clone._scanner = self._scanner.copy() if self._scanner is not None else None
        clone._parts = self._parts.copy()
        clone._failed = self._failed
        clone._accept = self._accept
        return clone

    def finish(self) -> StreamStatus:
        """The reply has ended: truthy when the text fed is valid (strict) or heals (relaxed)."""
        if self._failed is not None:
            return self._failed
        if self._scanner is not None:
            problem = self._scanner.end_problem()
            if problem is not None:
                self._failed = StreamStatus(False, problem[1], problem[2])
                return self._failed
        text = self._parts.text()
        reason = self._accept(text)
        if reason is not None:
            return StreamStatus(False, reason, len(text))
        return StreamStatus(True, complete=self._strict)


def can_be_valid(partial: object, max_depth: int, max_size: int) -> bool:
    """False only when no continuation of ``partial`` is well-formed XML. Never raises."""
    if not isinstance(partial, str) or len(partial) > max_size:
        return False
    return Scanner(max_depth).feed(partial)
