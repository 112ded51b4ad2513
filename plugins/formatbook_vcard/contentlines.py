"""RFC 6350 content lines: the layer under every vCard (and iCalendar) check.

A vCard is a sequence of *physical* lines ended by CRLF. A physical line that starts with
a space or a tab continues the previous one (*folding*): unfolding removes the line break
and that one white-space character. The *logical* line so obtained is a content line::

    contentline = [group "."] name *(";" param) ":" value CRLF
    name, group = 1*(ALPHA / DIGIT / "-")
    param       = param-name "=" param-value *("," param-value)
    param-value = *SAFE-CHAR / DQUOTE *QSAFE-CHAR DQUOTE
    value       = *VALUE-CHAR          (no control character but HTAB)

The layer RFC 5545 shares — physical lines, unfolding (:func:`unfold`, :class:`Logical`),
the grammar fed a piece at a time, splitting a line into its parts, folding, escapes — is
:mod:`formatbook_core.contentlines`, with groups allowed here. This module keeps vCard's
own: :class:`ContentLine`, :func:`parse` (a :class:`ContentLineError` naming the column,
in vCard's words), :class:`LineScanner` (the same grammar and words, fed a piece at a time:
the streaming checker uses it, so the two can never disagree), :func:`has_control` and
:func:`escape_text`.

Everything here is linear in its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formatbook_core import contentlines as _core

# the layer RFC 5545 shares (physical lines, unfolding, folding, splitting at unescaped separators)
from formatbook_core.contentlines import (
    CRLF,
    FOLD_OCTETS,
    LineFault,
    Logical,
    fold,
    octets,
    physical_lines,
    read_line,
    split_unescaped,
    unescape_text,
    unfold,
)

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "ContentLine",
    "ContentLineError",
    "LineScanner",
    "Logical",
    "escape_text",
    "fold",
    "octets",
    "parse",
    "read_line",
    "physical_lines",
    "split_unescaped",
    "unescape_text",
    "unfold",
]


# Characters a value may not hold: controls but HTAB, and DEL (VALUE-CHAR = WSP / VCHAR / NON-ASCII).
_BAD_VALUE_CHAR = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

# vCard's words for each fault of the shared grammar (formatbook_core.contentlines.LineFault)
_WORDS = {
    "name_start": "{ch!r} where a property name should start",
    "param_name_start": "{ch!r} where a parameter name should start",
    "name": "{ch!r} in a property name",
    "param_name": "{ch!r} in a parameter name (NAME=value)",
    "param_value": "{ch!r} in a parameter value",
    "after_quote": "{ch!r} in a parameter value",
    "quoted": "control character {ch!r} in a quoted parameter value",
    "value": "control character {ch!r} in the value",
    "ends_quoted": "a quoted parameter value is not closed",
}
_NO_VALUE = "no ':' before the value: not a content line"  # a line that ends anywhere else


class ContentLineError(ValueError):
    """A logical line that is no content line; ``column`` is where the text shows it."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.column = column


def _error(fault: LineFault) -> ContentLineError:
    words = _WORDS.get(fault.kind, _NO_VALUE)
    return ContentLineError(words.format(ch=fault.char), fault.column)


@dataclass(frozen=True, slots=True)
class ContentLine:
    """A parsed content line. ``name`` and parameter names are upper case; ``params``
    keeps their order; ``value`` is as written (still escaped)."""

    name: str
    value: str
    params: tuple[tuple[str, tuple[str, ...]], ...] = ()
    group: str | None = None

    def param(self, name: str) -> tuple[str, ...]:
        """Every value of the parameter ``name`` (any case), in order."""
        wanted = name.upper()
        return tuple(v for n, values in self.params for v in values if n == wanted)


class LineScanner(_core.LineScanner):
    """The shared content-line grammar, groups allowed, its faults in vCard's words.

    ``feed(piece)`` returns ``None`` while the line can still be a content line, else a
    :class:`ContentLineError` (column counted from the line's start). ``end()`` says
    whether what was fed is a whole content line."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(groups=True)

    def feed(self, piece: str) -> ContentLineError | None:  # type: ignore[override]
        fault = super().feed(piece)
        return None if fault is None else _error(fault)

    def end(self) -> ContentLineError | None:  # type: ignore[override]
        fault = super().end()
        return None if fault is None else _error(fault)


def parse(line: str) -> ContentLine:
    """The content line ``line`` (one logical line, unfolded, without its break).

    Raises :class:`ContentLineError` when it is not one (the column says where)."""
    parts = read_line(line, groups=True)
    if parts is None:  # the scanner says why, and where
        scanner = LineScanner()
        raise scanner.feed(line) or scanner.end() or ContentLineError(_NO_VALUE, len(line))
    group, name, params, value = parts
    return ContentLine(name, value, params, group)


def has_control(value: str) -> bool:
    """Whether ``value`` holds a character no value may hold."""
    return _BAD_VALUE_CHAR.search(value) is not None


def escape_text(value: str, *, separators: str = ",;") -> str:
    """``value`` (plain text) as a text value: ``\\`` ``,`` ``;`` and newlines escaped.
    ``separators`` are the characters to escape besides the backslash and newlines."""
    out = value.replace("\\", "\\\\")
    for ch in separators:
        out = out.replace(ch, "\\" + ch)
    return out.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
