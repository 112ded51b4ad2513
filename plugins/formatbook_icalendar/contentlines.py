"""RFC 5545's content lines (section 3.1): iCalendar's own rules and words over the
layer RFC 6350 shares.

    contentline = name *(";" param) ":" value CRLF
    name        = iana-token / x-name            (letters, digits, "-")
    param       = param-name "=" param-value *("," param-value)
    param-value = paramtext / DQUOTE *QSAFE-CHAR DQUOTE

:mod:`formatbook_core.contentlines` holds the shared layer: :func:`physical_lines`,
:func:`unfold` (the logical lines, ``LogicalLine(text, start, end, ...)``), the grammar fed
piece by piece (here without vCard's groups), :func:`fold`, :func:`octets`, ``CRLF`` and
``FOLD_OCTETS``. This module keeps iCalendar's:

- :func:`split` — one logical line into a :class:`ContentLine` (name, params, value), or
  a :class:`LineError` saying where and why it is no content line, in iCalendar's words;
- :class:`LineScanner` — the same grammar and words, fed piece by piece (a streaming
  checker uses it to fail at the first character that no content line can have);
- :func:`format_line` and :func:`serialize` — write a line back, folded at 75 octets, CRLF.

Everything here is a plain scan, linear in its input; no regular expression backtracks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formatbook_core import contentlines as _core
from formatbook_core.contentlines import (
    CRLF,
    FOLD_OCTETS,
    VALUE,
    LineFault,
    fold,
    octets,
    physical_lines,
    split_line,
    unfold,
)
from formatbook_core.contentlines import Logical as LogicalLine

__all__ = [
    "CRLF",
    "FOLD_OCTETS",
    "VALUE",
    "ContentLine",
    "LineError",
    "LineScanner",
    "LogicalLine",
    "fold",
    "format_line",
    "octets",
    "physical_lines",
    "serialize",
    "split",
    "unfold",
]

# iCalendar's words for each fault of the shared grammar (formatbook_core.contentlines.LineFault)
_WORDS = {
    "name_start": "a line must start with a property name, not {ch!r}",
    "name": "{ch!r} cannot be part of a property name",
    "param_name_start": "{ch!r} where a parameter name (NAME=value) was expected",
    "param_name": "{ch!r} where a parameter name (NAME=value) was expected",
    "param_value": "{ch!r} in an unquoted parameter value",
    "quoted": "a control character {ch!r} in a quoted parameter value",
    "after_quote": "{ch!r} after a closing quote (expected , ; or :)",
    "value": "a control character {ch!r} in the value",
    "empty": "an empty line (RFC 5545 allows none)",
    "ends_name": "the line has no ':' before its value",
    "ends_param_name": "the line ends inside a parameter name",
    "ends_param_value": "the line ends inside a parameter value",
    "ends_unquoted": "the line ends inside a parameter value",
    "ends_quoted": "the line ends inside a quoted parameter value",
    "ends_after_quote": "the line ends inside a quoted parameter value",
}


@dataclass(frozen=True)
class ContentLine:
    """A content line split into its parts. ``name`` is upper case; ``params`` keeps the
    parameters in order as ``(NAME, (values...))`` with quotes removed; ``value`` is the
    raw (still escaped) value."""

    name: str
    params: tuple[tuple[str, tuple[str, ...]], ...]
    value: str

    def param(self, name: str) -> str | None:
        """The first value of the parameter ``name`` (upper case), or ``None``."""
        for key, values in self.params:
            if key == name:
                return values[0] if values else ""
        return None

    def param_values(self, name: str) -> tuple[str, ...]:
        for key, values in self.params:
            if key == name:
                return values
        return ()


@dataclass(frozen=True)
class LineError:
    """Why a text is no content line: ``offset`` into the logical line, and a message."""

    offset: int
    message: str


def _error(fault: LineFault) -> LineError:
    return LineError(fault.column, _WORDS[fault.kind].format(ch=fault.char))


class LineScanner(_core.LineScanner):
    """RFC 5545's content-line grammar, fed one piece of a logical line at a time.

    ``feed(piece)`` returns ``None`` while the text so far can still begin a content
    line, else a :class:`LineError` (offsets count from the start of the line). ``done()``
    says whether the text so far is a whole content line; ``value_start`` is where the
    value starts once the scanner is in it (``state == VALUE``).
    """

    __slots__ = ()

    def feed(self, piece: str) -> LineError | None:  # type: ignore[override]
        fault = super().feed(piece)
        return None if fault is None else _error(fault)

    def done(self) -> LineError | None:
        """``None`` when the text fed is a whole content line, else why not."""
        fault = self.end()
        return None if fault is None else _error(fault)


# The whole grammar of a content line as one regular expression, for the lines it accepts
# (most): one match instead of the scanner's steps per character of the name and each
# parameter. Linear: every choice is decided by the next character (a parameter starts with
# ";", another value with ",", a quoted one with a quote; an unquoted value holds none of
# them), so a failed match gives back each character once. A line it refuses goes to the
# scanner, which says where and why.
_CTL = "\\x00-\\x08\\x0a-\\x1f\\x7f"
_PVALUE = f'(?:"[^{_CTL}"]*"|[^{_CTL}";:,]*)'
_LINE = re.compile(f"([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+={_PVALUE}(?:,{_PVALUE})*)*):[^{_CTL}]*")


def split(line: str) -> ContentLine | LineError:
    """``line`` (one logical line, unfolded, without its break) as a :class:`ContentLine`,
    or the :class:`LineError` that says why it is none."""
    match = _LINE.fullmatch(line)
    if match is not None:
        if match.end(2) == match.end(1):  # no parameters: the name, the value
            return ContentLine(match[1].upper(), (), line[match.end(1) + 1 :])
        _, name, params, value = split_line(line)
        return ContentLine(name, params, value)
    scanner = LineScanner()
    problem = scanner.feed(line) or scanner.done()
    if problem is not None:
        return problem
    _, name, params, value = split_line(line)
    return ContentLine(name, params, value)


def format_line(name: str, params: tuple[tuple[str, tuple[str, ...]], ...], value: str) -> str:
    """One logical line from its parts; a parameter value holding ``:``, ``;`` or ``,``
    is quoted."""
    out = [name]
    for key, vals in params:
        out.append(";" + key + "=" + ",".join(_quote(v) for v in vals))
    out.append(":" + value)
    return "".join(out)


def _quote(value: str) -> str:
    if any(ch in value for ch in ":;,"):
        return '"' + value + '"'
    return value


def serialize(lines: list[str]) -> str:
    """Logical lines written as RFC 5545 text: each folded, each ended by CRLF."""
    return "".join(fold(line) + CRLF for line in lines)
