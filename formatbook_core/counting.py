"""Counting units: characters, words, sentences, lines, paragraphs, pages.

Each unit follows the README's counting table (Promptbook's meaning with its defects fixed)
and is registered through the ``register_units`` hook, exactly as a third-party unit is::

    from formatbook_core import hookimpl
    from formatbook_core.counting import Unit

    class Syllables(Unit):
        name = "syllables"
        aliases = ("syllable",)
        def count(self, text: str) -> int: ...

    @hookimpl
    def register_units(register):
        register(Syllables())

Values are counted one by one and the counts added (:func:`count_values`); a *derived*
unit (pages) is computed once from the base unit's total. While a reply streams,
:class:`IncrementalCount` keeps a count of one growing value in linear total work, using
each unit's :meth:`Unit.settled_end`: an index up to which the count can no longer change.

Every ``count`` accepts any ``str`` (empty, huge, binary-looking, lone surrogates) and
raises only ``TypeError`` for a non-``str`` argument.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .definition import Unit
from .hookspecs import hookimpl
from .registry import default_registry

if TYPE_CHECKING:
    import regex

__all__ = [
    "Unit",
    "Characters",
    "Words",
    "Sentences",
    "Lines",
    "Paragraphs",
    "Pages",
    "BUILTIN_UNITS",
    "LINE_WIDTH",
    "LINES_PER_PAGE",
    "count_values",
    "IncrementalCount",
    "load_abbreviations",
    "load_final_abbreviations",
    "register_units",
]

#: A standard line holds this many characters (grapheme clusters).
LINE_WIDTH = 63
#: A standard page holds this many standard lines.
LINES_PER_PAGE = 44

_ABBREVIATIONS_FILE = Path(__file__).parent / "data" / "abbreviations.txt"


def _require_str(text: Any) -> str:
    if not isinstance(text, str):
        raise TypeError(f"counting needs str, got {type(text).__name__}")
    return text


@cache
def _compiled(source: str) -> regex.Pattern:
    """``source`` (one of this module's pattern constants) compiled by the ``regex`` module on
    first use: importing it and compiling them costs a fresh process about 30 ms that a
    check counting nothing does not pay (the registry imports this module for the units)."""
    import regex  # noqa: PLC0415 - lazy, see above

    return regex.compile(source)


# --- characters --------------------------------------------------------------------------

# Between a character of these Grapheme_Cluster_Break classes and another one there is always
# a boundary, whatever came before (no rule of UAX #29 joins them: Extend/ZWJ/SpacingMark,
# Prepend, Hangul, regional indicators and the emoji/Indic rules all need another class on one
# side) - except CR LF, which is excluded separately.
_GCB_PLAIN = r"[\p{GCB=Other}\p{GCB=Control}\p{GCB=CR}\p{GCB=LF}]"
_CHAR_SAFE = rf"(?r)(?<={_GCB_PLAIN})(?!(?<=\r)\n){_GCB_PLAIN}"
# regex's \X looks back over a whole run of regional indicators at each cluster to find its
# pairing (quadratic on a long run); matching the pairs first keeps it linear. A cluster that
# starts with two indicators is exactly that pair and the Extend/ZWJ/SpacingMark after it.
_GRAPHEME = r"\p{RI}\p{RI}[\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}]*+|\X"


def _graphemes(text: str) -> int:
    if text.isascii():
        # In ASCII only CR LF joins into one cluster.
        return len(text) - text.count("\r\n")
    return len(_compiled(_GRAPHEME).findall(text))


class Characters(Unit):
    """Extended grapheme clusters (UAX #29): ``e`` + U+0301 is 1, a flag is 1, CR LF is 1."""

    name = "characters"
    aliases = ("character",)
    description = "user-perceived characters (extended grapheme clusters)"
    at_most_one_per_character = True  # a cluster holds one code point at least

    def count(self, text: str) -> int:
        return _graphemes(_require_str(text))

    def settled_end(self, text: str, start: int = 0) -> int:
        # The boundary before text[i] is certain once text[i] is known and both neighbours
        # are "plain"; later boundaries never look back across such a pair.
        m = _compiled(_CHAR_SAFE).search(text, max(1, start - 1))
        return m.start() if m else 0


# --- words -------------------------------------------------------------------------------

_SEA = r"\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}"
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{WB=Katakana}"
# A word is found by where it starts, so each counts once:
#  1. a run of Thai/Lao/Khmer/Myanmar (no dictionary segmentation: the whole run is one word);
#  2. one Han, Hiragana or Katakana character;
#  3. otherwise a UAX #29 word (regex's WORD flag makes \b the Unicode default word boundary)
#     starting here and holding a letter or digit (maybe after "_"); a keycap emoji is no word.
_WORD = rf"""(?xwV1)
      [[{_SEA}]&&[\p{{L}}\p{{N}}]][{_SEA}\p{{M}}\u200C\u200D]*+
    | [[{_CJK}]&&[\p{{L}}\p{{N}}]]
    | \b\p{{WB=ExtendNumLet}}*+[[\p{{L}}\p{{N}}]--[{_SEA}{_CJK}]](?!\uFE0F?\u20E3)
    """
# A certain word boundary with nothing looking back across it: the character before is
# whitespace or of Word_Break class Other (punctuation, symbols, Han, Hiragana - but not a
# Southeast Asian letter, whose run may go on) and the one after is no Extend/Format/ZWJ.
_WORD_SAFE = rf"""(?xrV1)
    (?<=[[\p{{WB=Other}}\p{{WB=CR}}\p{{WB=LF}}\p{{WB=Newline}}\p{{WB=WSegSpace}}]--[{_SEA}]])
    [^\p{{WB=Extend}}\p{{WB=Format}}\p{{WB=ZWJ}}]
    """


# The same count on ASCII text with the standard library's engine, about 5x faster (most
# replies are ASCII). On ASCII, UAX #29 joins letters, digits and "_" into one word; a
# ":", "." or "'" joins two letters and a ",", ";", "." or "'" two digits; anything else
# breaks. A word starts where no letter, digit or "_" precedes (so a run of "_" is scanned
# once: linear), and holds a letter or digit. tests/core/test_counting_ascii.py checks it
# against _WORD on every string of up to five characters of an alphabet of the relevant
# classes, and on random ASCII.
_ASCII_WORD = re.compile(
    r"(?<![A-Za-z0-9_])_*[A-Za-z0-9](?:[A-Za-z0-9_]|(?<=[A-Za-z])[:.'](?=[A-Za-z])|(?<=[0-9])[,;.'](?=[0-9]))*"
)


# _WORD_SAFE on ASCII text: the ASCII characters of Word_Break class Other, CR, LF,
# Newline or WSegSpace (every one but letters, digits, "_", the quotes and ",.:;"); no
# ASCII character is Extend, Format or ZWJ. The greedy head finds the last such character
# with one after it (what _WORD_SAFE's reverse search finds); tests/core/test_counting_ascii.py
# checks the two agree.
_ASCII_WORD_BREAKS = "".join(chr(c) for c in range(128) if not chr(c).isalnum() and chr(c) not in "_'\",.:;")
_ASCII_SAFE = re.compile("(?s:.*)[" + re.escape(_ASCII_WORD_BREAKS) + "](?=.)", re.S).match


class Words(Unit):
    """Words by Unicode word boundaries (UAX #29), each holding a letter or digit.

    ``don't`` and ``3.14`` are one word, ``well-known`` two, ``camelCase`` one; each Han,
    Hiragana or Katakana character is one word; a run of Thai, Lao, Khmer or Myanmar without
    spaces is one word (a documented limit: no dictionary segmentation).
    """

    name = "words"
    aliases = ("word",)
    at_most_one_per_character = True  # a word holds a letter or digit, words never overlap
    description = "words (Unicode word boundaries; each CJK character is a word)"

    def count(self, text: str) -> int:
        if _require_str(text).isascii():
            return len(_ASCII_WORD.findall(text))
        return len(_compiled(_WORD).findall(text))

    def settled_end(self, text: str, start: int = 0) -> int:
        if text.isascii():  # the same cut by the standard library's engine (a stream's hot path)
            m = _ASCII_SAFE(text, max(0, start - 2))
            return m.end() if m else 0
        m = _compiled(_WORD_SAFE).search(text, max(1, start - 1))
        return m.start() if m else 0


# --- sentences ---------------------------------------------------------------------------

# Terminators that are never part of a number, a URL or a file name (CJK, Arabic, Urdu,
# Devanagari, Armenian, Ethiopic, Khmer full stops and question marks, doubled marks): a
# sentence ends at them whatever follows.
_SCRIPT_TERMINATORS = "。！？｡؟۔।॥։።፧፨។៕‼⁇⁈⁉"
_TERMINATORS = ".!?…" + _SCRIPT_TERMINATORS
_CLOSERS = "\"'”’»)\\]}」』）】〕〉》›"
# (re.escape writes what regex.escape writes: the same backslashes before the same characters)
_T = re.escape(_TERMINATORS)
_U = re.escape(_SCRIPT_TERMINATORS)
_T_SINGLE = re.escape(_TERMINATORS.replace(".", ""))  # one of them alone ends a sentence
_C = re.escape(_CLOSERS)
_TOKEN_CHAR = r"\p{L}\p{M}\p{N}"
# A list marker ("1.", "12.") is a number of at most 9 digits that starts a line or the text,
# or follows a sentence end (after white space, or right after a script terminator), with
# horizontal white space after its period: that period ends no sentence, the item's does.
_LIST_MARKER = rf"(?<=(?:\A|[\r\n]|[{_T}][{_C}]*+\s|[{_U}][{_C}]*+)\s*\p{{Nd}}{{1,9}})\.[^\S\r\n]"
# What may follow a sentence-final abbreviation ("etc.") for its period to end the sentence:
# the end of the text, or a next sentence starting with a capital (maybe after opening quotes).
_NEXT_SENTENCE = r"(?=\s*+\Z|\s++[\p{Pi}\p{Ps}\"']*+[\p{Lu}\p{Lt}])"


def _abbreviation_before(words: Iterable[str]) -> str:
    """A look-behind body matching one of ``words`` (without their final period) as a whole
    token right before a period, maybe after leading periods; never matches when empty."""
    stems = sorted((a[:-1] if a.endswith(".") else a for a in words), key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in stems if w)
    return rf"(?<![{_TOKEN_CHAR}.])\.*+(?i:{alternatives})" if alternatives else r"(?!)"


@lru_cache(maxsize=8)
def _end_pattern(abbreviations: frozenset[str], final: frozenset[str] = frozenset()) -> regex.Pattern:
    """The sentence-end pattern for one list of abbreviations.

    A sentence end is a run of terminators (counted once) and closing quotes/brackets,
    either followed by whitespace or the end of the text (so "3.14", "e.g.x" and
    "example.com/a.b" never end a sentence), or holding a script terminator (CJK and the
    others of ``_SCRIPT_TERMINATORS`` need no space after them). A single period right after
    a word is no end when that word is an abbreviation (case-insensitive, maybe after leading
    periods), a single capital letter (an initial, also the last letter of "U.S.") or a list
    marker's number. The period of a ``final`` abbreviation ("etc.") ends a sentence when the
    text ends there or a capitalised sentence follows (group ``final``). The first
    look-behind makes a run match only from its first character, so nothing is rescanned.
    """
    abbreviation = _abbreviation_before(abbreviations)
    initial = rf"(?<![{_TOKEN_CHAR}])[\p{{Lu}}\p{{Lt}}]\p{{M}}*+"
    # _abbreviation_before of no words never matches, so the group exists but stays empty
    final_branch = rf"(?<=[{_TOKEN_CHAR}])(?<={_abbreviation_before(final)})\.(?![{_T}])[{_C}]*+{_NEXT_SENTENCE}"
    import regex  # noqa: PLC0415 - lazy, as _compiled (one pattern per list of abbreviations)

    return regex.compile(
        rf"""(?xV1)(?<![{_T}])
        (?:
            (?:(?<=[{_TOKEN_CHAR}])(?<!{abbreviation})(?<!{initial})(?!{_LIST_MARKER})\.(?![{_T}])
              | (?<![{_TOKEN_CHAR}])\.(?![{_T}])
              | [{_T}]{{2,}}+
              | [{_T_SINGLE}]
            )
            [{_C}]*+(?=\s|\Z)
          | (?=[{_T}]*?[{_U}])[{_T}]++[{_C}]*+
          | (?P<final>{final_branch})
        )
        """
    )


_LETTER_OR_DIGIT = r"[\p{L}\p{N}]"
_BLANK_TO_END = r"\s*+\Z"


def _parse_abbreviations(text: str, final: bool = False) -> frozenset[str]:
    """The abbreviations of a data file; with ``final``, only those marked ``final``."""
    found = set()
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if not final or "final" in words[1:]:
            found.add(words[0].lower())
    return frozenset(found)


@lru_cache(maxsize=1)
def load_abbreviations() -> frozenset[str]:
    """The abbreviations of ``data/abbreviations.txt``, lower case, each with its final period."""
    return _parse_abbreviations(_ABBREVIATIONS_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def load_final_abbreviations() -> frozenset[str]:
    """The abbreviations of ``data/abbreviations.txt`` marked ``final``: they often end a
    sentence ("etc."), so their period does when the text ends or a capital follows."""
    return _parse_abbreviations(_ABBREVIATIONS_FILE.read_text(encoding="utf-8"), final=True)


class Sentences(Unit):
    """Sentences: ends at ``. ! ? …``, at CJK ``。 ！ ？``, Arabic ``؟``, Urdu ``۔``,
    Devanagari ``। ॥``, Armenian ``։``, Ethiopic ``። ፧ ፨`` and Khmer ``។ ៕`` (a run counts once).

    A period does not end a sentence after an abbreviation of the data file
    (``abbreviations``, by default ``data/abbreviations.txt``), after a single capital
    letter (an initial: ``J. R. R. Tolkien``, ``U.S.``), after a list marker's number
    (``1. First point.`` is one sentence), or when no whitespace follows it (decimals, URLs,
    file names). The period of a ``final`` abbreviation (``etc.``; by default those the data
    file marks ``final``) ends a sentence at the end of the text or before a capitalised
    next sentence. A stretch without a letter or digit is no sentence; non-blank text without
    a terminator is one.
    """

    name = "sentences"
    aliases = ("sentence",)
    description = "sentences (ended by . ! ? … and other scripts' full stops, not after abbreviations or initials)"

    def __init__(self, abbreviations: Iterable[str] | None = None, final: Iterable[str] | None = None):
        self._abbreviations = frozenset(a.lower() for a in abbreviations) if abbreviations is not None else None
        self._final = frozenset(a.lower() for a in final) if final is not None else None
        self._pattern: regex.Pattern | None = None

    @property
    def abbreviations(self) -> frozenset[str]:
        if self._abbreviations is None:
            self._abbreviations = load_abbreviations()
        return self._abbreviations

    @property
    def final_abbreviations(self) -> frozenset[str]:
        """The abbreviations whose period ends a sentence before a capital or the text's end."""
        if self._final is None:
            # custom abbreviations without a final list have none
            self._final = load_final_abbreviations() & self.abbreviations
        return self._final

    @property
    def _end(self) -> regex.Pattern:
        if self._pattern is None:
            self._pattern = _end_pattern(self.abbreviations, self.final_abbreviations)
        return self._pattern

    def _ends(self, text: str, pos: int = 0):
        """The matches of sentence ends at or after ``pos``."""
        return self._end.finditer(text, pos)

    def count(self, text: str) -> int:
        text = _require_str(text)
        total = 0
        prev = 0
        letter = _compiled(_LETTER_OR_DIGIT).search
        for m in self._end.finditer(text):
            start, end = m.span()
            if letter(text, prev, start):
                total += 1
            prev = end
        if letter(text, prev):
            total += 1
        return total

    def settled_end(self, text: str, start: int = 0) -> int:
        # After a confirmed end, once what follows can no longer join it: past the first
        # whitespace after an ASCII-style end, or before a known character that is neither
        # terminator nor closer after a script terminator. A final abbreviation's end
        # confirmed only by the end of the text is not settled (more words may follow).
        best = 0
        lo = max(0, start - 16)  # a run and its closers only match from their start
        for m in self._ends(text, lo):
            end = m.end()
            if end >= len(text):
                continue
            if m.group("final") is not None and _compiled(_BLANK_TO_END).match(text, end):
                continue
            nxt = text[end]
            if nxt.isspace():
                best = end + 1
            elif nxt not in _TERMINATORS and nxt not in _CLOSERS:
                best = end
        return best


# --- lines -------------------------------------------------------------------------------

# Anchored at a line start so that a short line is rejected after one look-behind.
_LONG_LINE = rf"(?<![^\r\n])[^\r\n]{{{LINE_WIDTH + 1},}}"
_LINE_SAFE = r"(?r)(?:\n|\r(?=[^\n]))"


class Lines(Unit):
    """Standard lines of 63 characters: each line counts ``max(1, ceil(characters / 63))``.

    ``\\r\\n``, ``\\r`` and ``\\n`` each break a line; a final line break starts no new line;
    empty text is 0 lines, so ``"\\n"`` is one (empty) line.
    """

    name = "lines"
    aliases = ("line",)
    description = "standard lines of 63 characters"

    def count(self, text: str) -> int:
        text = _require_str(text)
        if not text:
            return 0
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        physical = breaks + (0 if text[-1] in "\r\n" else 1)
        # A line of at most 63 code points is one standard line; only longer ones need
        # their grapheme clusters counted.
        extra = 0
        for m in _compiled(_LONG_LINE).finditer(text):
            extra += max(1, math.ceil(_graphemes(m.group()) / LINE_WIDTH)) - 1
        return physical + extra

    def settled_end(self, text: str, start: int = 0) -> int:
        # After a line break; a CR only once the next character shows it is no CR LF.
        m = _compiled(_LINE_SAFE).search(text, max(0, start - 1))
        return m.end() if m else 0


# --- paragraphs --------------------------------------------------------------------------

_BR = r"(?>\r\n|\r|\n)"  # atomic: CR LF is one break, never CR then LF
_HWS = r"[^\S\r\n]"
# A paragraph starts at the first non-blank line of the text, or at a non-blank line right
# after a blank (whitespace-only) line. Each attempt scans at most two lines, so it is linear.
_PARAGRAPH_START = rf"(?:\A(?:{_HWS}*+{_BR})?|{_BR}{_HWS}*+{_BR}){_HWS}*+\S"
# The line break that ends a blank line (one starting the text or right after a break, never
# between CR and LF), once it can no longer grow (a CR only when the next character is no LF).
# Searched backwards; the blank line itself is checked by a look-behind.
_PARAGRAPH_SAFE = rf"(?r)(?<=(?:\A|\n|\r(?!\n)){_HWS}*)(?>\r\n|\n|\r(?=[^\n]))"


class Paragraphs(Unit):
    """Blocks of non-blank lines separated by blank (whitespace-only) lines."""

    name = "paragraphs"
    aliases = ("paragraph",)
    description = "paragraphs (blocks separated by blank lines)"

    def count(self, text: str) -> int:
        return len(_compiled(_PARAGRAPH_START).findall(_require_str(text)))

    def settled_end(self, text: str, start: int = 0) -> int:
        # At the start of any line that follows a blank line: no paragraph spans it.
        m = _compiled(_PARAGRAPH_SAFE).search(text, max(0, start - 2))
        return m.end() if m else 0


# --- pages -------------------------------------------------------------------------------


class Pages(Unit):
    """Standard pages: ``ceil(lines / 44)``, computed once from the total lines of all values."""

    name = "pages"
    aliases = ("page",)
    based_on = "lines"
    description = "standard pages of 44 lines"

    base: Unit  # always set: Lines unless another base is given

    def __init__(self, base: Unit | None = None):
        self.base = base if base is not None else Lines()

    def from_base(self, total: int) -> int:
        return -(-max(0, total) // LINES_PER_PAGE)

    def count(self, text: str) -> int:
        return self.from_base(self.base.count(text))

    # settled_end stays 0: pages are not additive (two half pages are one page);
    # IncrementalCount follows the base unit instead.


BUILTIN_UNITS: tuple[Unit, ...] = (
    Characters(),
    Words(),
    Sentences(),
    Lines(),
    Paragraphs(),
    Pages(),
)


# --- using units -------------------------------------------------------------------------


def _resolve(unit: Unit | str, registry: Any = None) -> Unit:
    if not isinstance(unit, str):
        return unit
    if registry is None:
        registry = default_registry()
    found = registry.unit(unit)
    if found is None:
        raise KeyError(f"unknown counting unit {unit!r}")
    return found


def _base_of(unit: Unit, registry: Any = None) -> Unit:
    if unit.base is not None:
        return unit.base
    return _resolve(unit.based_on, registry)  # type: ignore[arg-type]


def count_values(unit: Unit | str, values: Iterable[str], registry: Any = None) -> int:
    """Count ``values`` in ``unit``: each value on its own, the counts added.

    A derived unit (pages) is computed once from the base unit's total, so two values of
    one line each are one page, not two. A ``str`` names a unit through the registry
    (``registry`` or the default one); an unknown name raises ``KeyError``.
    """
    unit = _resolve(unit, registry)
    if unit.based_on:
        base = _base_of(unit, registry)
        return unit.from_base(sum(base.count(v) for v in values))
    return sum(unit.count(v) for v in values)


class IncrementalCount:
    """The count of one value that is still being written (a streaming reply).

    ``feed`` appends text; ``settled()`` is a lower bound on the count of any continuation
    (what can no longer change), ``total()`` the count as if the value ended now. The part
    up to the unit's :meth:`Unit.settled_end` is counted once and dropped; only the pending
    tail after it is kept, so total work is linear in the text fed (``total()`` costs the
    length of that tail, cached until the next ``feed``). A derived unit (pages) keeps its
    base unit's count and converts it with :meth:`Unit.from_base`.
    """

    def __init__(self, unit: Unit | str, registry: Any = None):
        unit = _resolve(unit, registry)
        self.unit = unit
        self._counter = _base_of(unit, registry) if unit.based_on else unit
        self._settled = 0
        self._pending = ""
        self._total: int | None = 0

    def feed(self, text: str) -> None:
        """Append ``text`` to the value."""
        if type(text) is not str:
            _require_str(text)
        if not text:
            return
        # Drop our reference first so CPython can grow the string in place (amortised
        # O(len(text)) instead of copying the whole pending tail on every feed).
        pending = self._pending
        self._pending = ""
        start = len(pending)
        pending += text
        cut = self._counter.settled_end(pending, start)
        if cut > 0:
            self._settled += self._counter.count(pending[:cut])
            pending = pending[cut:]
        self._pending = pending
        self._total = None

    def _convert(self, n: int) -> int:
        return self.unit.from_base(n) if self.unit.based_on else n

    def settled(self) -> int:
        """A lower bound on the count of the value, whatever is still appended."""
        return self._convert(self._settled)

    def total(self) -> int:
        """The count of everything fed so far, as if the value ended now."""
        if self._total is None:
            self._total = self._settled + self._counter.count(self._pending)
        return self._convert(self._total)

    @property
    def pending(self) -> str:
        """The tail not yet settled (for inspection and tests)."""
        return self._pending


@hookimpl
def register_units(register):
    """Register the built-in units (the core registers them like any plugin)."""
    for unit in BUILTIN_UNITS:
        register(unit)
