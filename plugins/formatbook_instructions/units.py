"""The counting units of the instructions plugin (``EXPECT EXACTLY 4 BULLETS``).

Each unit's definition is stated once, in the README's "Definitions" table; each takes
``definition="formatbook"`` (the default) or ``definition="ifeval"`` (IFEval's reference
checker's rule). Every pattern here is linear: no nested quantifiers over overlapping
classes, and each scan moves forward.
"""

from __future__ import annotations

import re
from typing import Any

from formatbook_core.counting import Unit
from formatbook_core.kinds import quote
from formatbook_core.results import ExpectationError

from .literal import Literal, check_definition, settled_end

__all__ = [
    "LiteralUnit",
    "Bullets",
    "Highlights",
    "Placeholders",
    "CapitalWords",
    "SeparatedParts",
    "SectionsMarked",
    "units",
]


def _line_settled(text: str, start: int) -> int:
    """After the last line break: counts made line by line are additive there."""
    cut = text.rfind("\n", max(0, start - 1))
    return cut + 1 if cut >= 0 else 0


class _Defined(Unit):
    def __init__(self, definition: str = "formatbook"):
        self.definition = check_definition(definition)

    def find(self, text: str) -> list[tuple[int, int]]:
        """Where each counted unit is (start, end)."""
        raise NotImplementedError  # every concrete unit below defines it

    def count(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"counting needs str, got {type(text).__name__}")
        return len(self.find(text))


class LiteralUnit(_Defined):
    """Occurrences of a quoted literal: ``EXPECT MAX 0 ","`` (see :mod:`.literal`)."""

    name = "literal"
    aliases = ("literals",)
    literal = True
    argument = "quoted literal"
    example = 'EXPECT MAX 0 ","'
    description = "occurrences of a quoted literal (case-insensitive; whole words for a word)"

    def __init__(self, text: str | None = None, definition: str = "formatbook"):
        super().__init__(definition)
        self.text = text
        self._literal = (
            None if text is None else Literal(text, "formatbook" if definition == "formatbook" else "substring")
        )

    def with_argument(self, value: str) -> LiteralUnit:
        return LiteralUnit(value, self.definition)

    def spelled(self, value: str) -> str:
        return quote(value)

    def _bound(self) -> Literal:
        if self._literal is None:
            raise ExpectationError('the literal unit counts a quoted text: EXPECT MAX 0 ","')
        return self._literal

    def find(self, text: str) -> list[tuple[int, int]]:
        return self._bound().find(text)

    def settled_end(self, text: str, start: int = 0) -> int:
        return settled_end(self._bound(), text, start)


# --- bullets -----------------------------------------------------------------------------

_BULLET = re.compile(r"^[ \t]*[*-][ \t]+\S", re.MULTILINE)


class Bullets(_Defined):
    """Markdown bullet items: a line whose first visible characters are ``* `` or ``- ``
    (then text). IFEval: a line starting (after white space) with ``*`` not followed by
    ``*``, or with ``-`` (``---`` and ``-5`` included)."""

    name = "bullets"
    reads = "text"  # markup: counted in the checked text, not in a format's values
    aliases = ("bullet", "bullet points", "bullet point")
    description = "Markdown bullet items (lines starting with '* ' or '- ')"
    hint = "Markdown bullet points: lines starting with '* '"

    def find(self, text: str) -> list[tuple[int, int]]:
        if self.definition == "ifeval":
            return _ifeval_bullets(text)
        return [m.span() for m in _BULLET.finditer(text)]

    def settled_end(self, text: str, start: int = 0) -> int:
        return _line_settled(text, start)


def _ifeval_bullets(text: str) -> list[tuple[int, int]]:
    """IFEval's ``^\\s*\\*[^\\*].*$`` and ``^\\s*-.*$`` (multiline), line by line: its ``\\s*``
    may cross blank lines (which finds the same bullet lines), and its ``[^\\*]`` may be
    the line break after a lone ``*``, which then takes the next line with it."""
    found = []
    pos = 0
    taken = False  # this line was swallowed by a lone "*" on the line before
    for line in text.split("\n"):
        body = line
        stripped = body.lstrip()
        at = pos + len(body) - len(stripped)
        ends = pos + len(line) < len(text)  # a line break follows
        lone = stripped == "*" and ends
        star = not taken and stripped.startswith("*") and (stripped[1:2] not in ("", "*") or lone)
        taken = star and lone
        if star:
            found.append((at, pos + len(body)))
        if stripped.startswith("-"):
            found.append((at, pos + len(body)))
        pos += len(line) + 1
    return found


# --- highlights --------------------------------------------------------------------------

_SINGLE = re.compile(r"\*[^\n*]*\*")
_DOUBLE = re.compile(r"\*\*[^\n*]*\*\*")
_BULLET_MARK = re.compile(r"^[ \t]*\*[ \t]+", re.MULTILINE)


class Highlights(_Defined):
    """``*text*`` and ``**text**`` spans within one line, the text non-blank and without
    ``*`` (IFEval's two patterns), not starting or ending with white space (``2 * 3 * 4``
    is no highlight) and not using a bullet marker's ``*``."""

    name = "highlights"
    reads = "text"
    aliases = ("highlight", "highlighted sections", "highlighted section")
    description = "*highlighted* spans (one line, non-blank text)"
    hint = "highlight with Markdown, like *this*"

    def find(self, text: str) -> list[tuple[int, int]]:
        if self.definition == "formatbook":
            # a bullet marker's "*" is no emphasis: blank it out (same length, same offsets)
            text = _BULLET_MARK.sub(lambda m: " " * len(m.group()), text)
        found = []
        for pattern, cut in ((_SINGLE, 1), (_DOUBLE, 2)):
            for m in pattern.finditer(text):
                inner = m.group()[cut:-cut] if cut == 2 else m.group().strip("*")
                if not inner.strip():
                    continue
                if self.definition == "formatbook" and (inner[0].isspace() or inner[-1].isspace()):
                    continue
                found.append(m.span())
        found.sort()
        return found

    def settled_end(self, text: str, start: int = 0) -> int:
        return _line_settled(text, start)


# --- placeholders ------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\[([^\[\]\n]+)\](?!\()")


class Placeholders(_Defined):
    """``[name]``: square brackets on one line around non-blank text without brackets,
    not a Markdown link (``[text](url)``). IFEval: ``\\[.*?\\]`` (``[]`` and links too)."""

    name = "placeholders"
    aliases = ("placeholder",)
    description = "[name]-style placeholders"
    hint = "in square brackets, such as [address]"

    def find(self, text: str) -> list[tuple[int, int]]:
        if self.definition == "ifeval":
            return _ifeval_brackets(text)
        return [m.span() for m in _PLACEHOLDER.finditer(text) if m.group(1).strip()]

    def settled_end(self, text: str, start: int = 0) -> int:
        return _line_settled(text, start)


def _ifeval_brackets(text: str) -> list[tuple[int, int]]:
    """IFEval's ``\\[.*?\\]``, scanned in linear time: from each ``[`` to the next ``]`` on
    its line; a line whose ``[`` has no ``]`` after it holds no more matches."""
    found: list[tuple[int, int]] = []
    pos = 0
    while True:
        open_ = text.find("[", pos)
        if open_ < 0:
            return found
        eol = text.find("\n", open_)
        eol = len(text) if eol < 0 else eol
        close = text.find("]", open_ + 1, eol)
        if close < 0:
            pos = eol + 1
            continue
        found.append((open_, close + 1))
        pos = close + 1


# --- capital words -----------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_IFEVAL_TOKEN = re.compile(r"\w+(?:-\w+)*")


class CapitalWords(_Defined):
    """Words (letters and digits, with inner apostrophes: ``DON'T`` is one) that hold a
    cased letter and no lowercase one (``str.isupper``): ``NASA``, ``I``, ``COVID-19`` is
    two words of which ``COVID`` counts. IFEval: NLTK's tokens that are ``isupper()``;
    ``definition="ifeval"`` approximates them without NLTK (hyphenated words one token)."""

    name = "capital words"
    aliases = ("capital word", "all-capital words", "uppercase words")
    description = "words written all in capitals"
    hint = "words written entirely in capital letters"

    def find(self, text: str) -> list[tuple[int, int]]:
        pattern = _IFEVAL_TOKEN if self.definition == "ifeval" else _WORD
        return [m.span() for m in pattern.finditer(text) if m.group().isupper()]

    def settled_end(self, text: str, start: int = 0) -> int:
        # before the last white space character: no word spans it
        for i in range(len(text) - 1, max(0, start - 1) - 1, -1):
            if text[i].isspace():
                return i
        return 0


# --- parts split by a separator ----------------------------------------------------------


class SeparatedParts(_Defined):
    """Non-blank parts of the text split at a separator (``PARAGRAPHS SEPARATED BY "***"``,
    ``RESPONSES SEPARATED BY "******"``). IFEval also fails a blank part between two
    separators, which a count cannot say (see the README)."""

    argument = "separator"
    reads = "text"

    def __init__(self, name: str, separator: str | None = None, definition: str = "formatbook"):
        super().__init__(definition)
        self.name = name
        self.aliases = (name.replace("separated by", "split by"),)
        self.example = f'EXPECT EXACTLY 2 {name.upper()} "******"'
        self.description = f"{name.split()[0]} separated by a given separator"
        self.separator = separator

    def with_argument(self, value: str) -> SeparatedParts:
        return SeparatedParts(self.name, value, self.definition)

    def spelled(self, value: str) -> str:
        return f"{self.name} {quote(value)}"

    def find(self, text: str) -> list[tuple[int, int]]:
        sep = self.separator
        if not sep:
            raise ExpectationError(f"{self.name.upper()} needs a separator: {self.example}")
        parts: list[tuple[int, int]] = []
        pos = 0
        while True:
            at = text.find(sep, pos)
            end = len(text) if at < 0 else at
            parts.append((pos, end))
            if at < 0:
                break
            pos = at + len(sep)
        if self.definition == "ifeval":  # blank parts count but for the first and the last
            last = len(parts) - 1
            return [p for i, p in enumerate(parts) if text[p[0] : p[1]].strip() or 0 < i < last]
        return [p for p in parts if text[p[0] : p[1]].strip()]

    def settled_end(self, text: str, start: int = 0) -> int:
        """Right after an occurrence of the separator that no other occurrence overlaps
        (so every left-to-right split finds it), once the text shows that."""
        sep = self.separator or ""
        size = len(sep)
        if not size or self.definition == "ifeval":
            return 0
        low = max(0, start - 2 * size)
        last = len(text) - 2 * size  # an occurrence from here on may still be overlapped
        at = text.rfind(sep, low, last + size)
        while at >= low:
            overlapped = text.find(sep, max(0, at - size + 1), at + size - 1) >= 0
            if not overlapped and text.find(sep, at + 1, at + 2 * size - 1) < 0:
                return at + size
            at = text.rfind(sep, low, at + size - 1)
        return 0


# --- sections ----------------------------------------------------------------------------


class SectionsMarked(_Defined):
    """Sections marked ``SECTION 1``, ``SECTION 2``…: the marker (case-sensitive, not
    inside a word) then at most one space or tab and a number. IFEval also
    counts a marker inside a word (``SUBSECTION 1``)."""

    name = "sections marked"
    aliases = ("sections", "sections marked by")
    argument = "marker"
    example = 'EXPECT MIN 4 SECTIONS MARKED "SECTION"'
    description = "sections marked by a given word and a number"

    def __init__(self, marker: str | None = None, definition: str = "formatbook"):
        super().__init__(definition)
        self.marker = marker
        self._pattern: Any = None
        if marker is not None:
            body = re.escape(marker) + (r"\s?\d+" if definition == "ifeval" else r"[^\S\n]?\d+")
            if definition == "formatbook" and marker[:1].isalnum():
                body = r"(?<![^\W_])" + body
            self._pattern = re.compile(body)

    def with_argument(self, value: str) -> SectionsMarked:
        if not value.strip():
            raise ExpectationError(f"a section marker is a word, not {value!r}: {self.example}")
        return SectionsMarked(value.strip(), self.definition)

    def spelled(self, value: str) -> str:
        return f"sections marked {quote(value)}"

    def find(self, text: str) -> list[tuple[int, int]]:
        if self._pattern is None:
            raise ExpectationError(f"SECTIONS MARKED needs a marker: {self.example}")
        return [m.span() for m in self._pattern.finditer(text)]

    def settled_end(self, text: str, start: int = 0) -> int:
        # after the last line break: a marker and its number lie on one line (IFEval's
        # \s? may cross a line break, so its count settles only at the end)
        if self.definition == "ifeval":
            return 0
        cut = text.rfind("\n", max(0, start - 1))
        return cut + 1 if cut >= 0 else 0


def units(definition: str = "formatbook") -> list[Unit]:
    """Every unit of the plugin, in one definition."""
    return [
        LiteralUnit(definition=definition),
        Bullets(definition),
        Highlights(definition),
        Placeholders(definition),
        CapitalWords(definition),
        SeparatedParts("paragraphs separated by", definition=definition),
        SeparatedParts("responses separated by", definition=definition),
        SectionsMarked(definition=definition),
    ]
