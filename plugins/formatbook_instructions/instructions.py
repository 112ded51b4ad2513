"""The instruction kinds that are not counts (``EXPECT ENDS WITH "Any other questions?"``).

Each instruction class judges a text (``check``), says itself as an EXPECT line
(``describe``) and as a request to a model (``guidance``), and where the constraint allows
it gives a streaming checker (``stream``). Each takes ``definition="formatbook"`` (the
default, stated in the README) or ``definition="ifeval"`` (IFEval's reference checker).
The kind objects at the end parse EXPECT lines into them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from formatbook_core.decoding import bom_length
from formatbook_core.kinds import Token, line_col, quote
from formatbook_core.results import ExpectationError, Span, StreamStatus, Violation

from .literal import Literal, check_definition
from .streams import CaseStream, NotContainsStream, OneOfStream, QuotedStream, StartsWithStream

SHOWN = 5  # positions listed in a message; the rest are "…"


def _short(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _positions(text: str, spots: Sequence[tuple[int, int]], show_text: bool = False) -> str:
    shown = []
    for start, end in spots[:SHOWN]:
        where = line_col(text, start)
        shown.append(f"{where} {text[start:end]!r}" if show_text else where)
    return ", ".join(shown) + (", …" if len(spots) > SHOWN else "")


class _Instruction:
    definition: str = "formatbook"
    also_values: str | None = None  # "nowhere" or "somewhere": see formatbook_core.kinds

    def __repr__(self) -> str:
        suffix = "" if self.definition == "formatbook" else f" definition={self.definition}"
        return f"<instruction {self.describe()}{suffix}>"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, _Instruction)
            and (other.describe(), other.definition) == (self.describe(), self.definition)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.describe(), self.definition))

    def describe(self) -> str:  # pragma: no cover - every instruction defines it
        raise NotImplementedError

    def stream(self) -> Any:
        return None

    def contradiction(self, other: Any) -> str | None:
        """Why no text can follow both this instruction and ``other`` (see
        ``formatbook_core.kinds.INSTRUCTION_DEFAULTS``), or ``None``."""
        return None


def _verbatim(other: Any) -> tuple[str, bool, bool] | None:
    """The text a reply following ``other`` holds verbatim (case kept), and whether its
    left and right edges are fixed (the reply's start or end: nothing can stand there):
    STARTS WITH's prefix, ENDS WITH's suffix, formatbook's definition only."""
    if isinstance(other, StartsWith) and other.definition == "formatbook":
        return other.prefix, True, False
    if isinstance(other, EndsWith) and other.definition == "formatbook":
        return other.suffix, False, True
    return None


# --- literals ----------------------------------------------------------------------------


class Contains(_Instruction):
    """The literal occurs (the literal rule of :mod:`.literal`; IFEval: a substring)."""

    #: with a format, the decoded values are judged too (an escape hides nothing): pipeline's judge()
    also_values = "somewhere"

    def __init__(self, text: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        self.text = text
        self._literal = Literal(text, "formatbook" if definition == "formatbook" else "substring")

    def describe(self) -> str:
        return f"CONTAINS {quote(self.text)}"

    def check(self, text: str) -> list[Violation]:
        if self._literal.search(text) is not None:
            return []
        return [
            Violation(
                "instructions.contains",
                f"does not contain {quote(self.text)}" + (" as a whole word" if self._literal.whole else ""),
                keyword="contains",
                expected=self.text,
            )
        ]

    def guidance(self) -> str:
        return f"Use {quote(self.text)} at least once."


class NotContains(_Instruction):
    """The literal never occurs (IFEval: the word between ``\\b`` boundaries)."""

    #: with a format, the decoded values are judged too (an escape hides nothing): pipeline's judge()
    also_values = "nowhere"

    def __init__(self, text: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        self.text = text
        self._literal = Literal(text, "formatbook" if definition == "formatbook" else "word")

    def describe(self) -> str:
        return f"NOT CONTAINS {quote(self.text)}"

    def check(self, text: str) -> list[Violation]:
        spots = self._literal.find(text)
        if not spots:
            return []
        times = "once" if len(spots) == 1 else f"{len(spots)} times"
        return [
            Violation(
                "instructions.not_contains",
                f"contains {quote(self.text)} {times} (NOT CONTAINS): {_positions(text, spots)}",
                span=Span(*spots[0]),
                keyword="not contains",
                expected=self.text,
            )
        ]

    def guidance(self) -> str:
        return f"Do not use {quote(self.text)} anywhere."

    def contradiction(self, other: Any) -> str | None:
        """CONTAINS the same literal, or a text the reply must hold (CONTAINS, STARTS WITH,
        ENDS WITH) in which the literal is found away from the edges that other text may
        touch (a whole word there stays one whatever stands beside it)."""
        if self.definition != "formatbook":
            return None  # IFEval's rows are scored as given, never refused
        if isinstance(other, Contains) and other.definition == "formatbook":
            # a literal found as a whole word has word boundaries at both edges
            held, left, right = other.text, other._literal.whole, other._literal.whole
            if held.casefold() == self.text.casefold():
                return f"the reply must and must not contain {quote(self.text)}"
        else:
            found = _verbatim(other)
            if found is None:
                return None
            held, left, right = found
        for start, end in self._literal.find(held):
            if (start > 0 or left) and (end < len(held) or right):
                return f"{quote(held)}, which the reply must hold, contains {quote(self.text)}"
        return None

    def stream(self) -> Any:
        return NotContainsStream(self._literal, self.describe()) if self._literal.mode != "word" else None


# --- start and end -----------------------------------------------------------------------


class StartsWith(_Instruction):
    """The text, leading white space aside, starts with the prefix (case-sensitive).
    IFEval (repeat the prompt): both stripped and lower-cased."""

    def __init__(self, prefix: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        if not prefix.strip():
            raise ExpectationError('STARTS WITH needs a text: EXPECT STARTS WITH "Dear"')
        self.prefix = prefix.lstrip()

    def describe(self) -> str:
        return f"STARTS WITH {quote(self.prefix)}"

    def check(self, text: str) -> list[Violation]:
        body = text[bom_length(text) :].lstrip()  # a byte order mark is no character of the reply
        if self.definition == "ifeval":
            ok = body.strip().lower().startswith(self.prefix.strip().lower())
        else:
            ok = body.startswith(self.prefix)
        if ok:
            return []
        start = len(text) - len(body)
        shown = body[: len(self.prefix)]
        found = f"starts with {shown!r}" if body else "is empty"
        return [
            Violation(
                "instructions.starts_with",
                f"{found} instead of {self.prefix!r}",
                span=Span(start, start + len(shown)),
                keyword="starts with",
                expected=self.prefix,
            )
        ]

    def guidance(self) -> str:
        return f"Start your reply with exactly {quote(self.prefix)}."

    def stream(self) -> Any:
        return StartsWithStream(self.prefix, self.describe()) if self.definition == "formatbook" else None


class EndsWith(_Instruction):
    """The text, trailing white space aside, ends with the suffix (case-sensitive).
    IFEval: stripped of white space and of outer ``"``, both lower-cased."""

    def __init__(self, suffix: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        if not suffix.strip():
            raise ExpectationError('ENDS WITH needs a text: EXPECT ENDS WITH "Any other questions?"')
        self.suffix = suffix.rstrip()

    def describe(self) -> str:
        return f"ENDS WITH {quote(self.suffix)}"

    def check(self, text: str) -> list[Violation]:
        body = text.rstrip()
        if self.definition == "ifeval":
            ok = text.strip().strip('"').lower().endswith(self.suffix.strip().lower())
        else:
            ok = body.endswith(self.suffix)
        if ok:
            return []
        tail = body[-len(self.suffix) :] if body else ""
        tail = tail[tail.rfind("\n") + 1 :]  # the last line of it: what a reader sees as the end
        found = f"ends with {tail!r}" if body.strip() else "is empty"
        return [
            Violation(
                "instructions.ends_with",
                f"{found} instead of {self.suffix!r}",
                span=Span(len(body) - len(tail), len(body)),
                keyword="ends with",
                expected=self.suffix,
            )
        ]

    def guidance(self) -> str:
        return f"End your reply with exactly {quote(self.suffix)}, with nothing after it."


# --- case --------------------------------------------------------------------------------


def wrong_case(text: str, case: str) -> list[tuple[int, int]]:
    """The letters of the other case: ``c.lower() != c`` under lower, ``c.upper() != c``
    under upper (a title-case letter is wrong under both)."""
    convert = str.lower if case == "lower" else str.upper
    if convert(text) == text:
        return []
    return [(i, i + 1) for i, c in enumerate(text) if convert(c) != c]


class Case(_Instruction):
    """All letters in one case: no letter whose ``lower()`` (``upper()``) differs from it.
    IFEval: ``str.islower()`` / ``str.isupper()``, which also need at least one cased letter."""

    #: with a format, the decoded values are judged too (an escape hides nothing): pipeline's judge()
    also_values = "nowhere"

    def __init__(self, case: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        case = case.lower()
        if case in ("lowercase", "upper-case", "uppercase", "lower-case"):
            case = "lower" if case.startswith("lower") else "upper"
        if case not in ("lower", "upper"):
            raise ExpectationError(f"CASE is lower or upper, not {case!r}: EXPECT CASE lower")
        self.case = case

    def describe(self) -> str:
        return f"CASE {self.case}"

    def contradiction(self, other: Any) -> str | None:
        """A text the reply must hold verbatim (STARTS WITH, ENDS WITH: case-sensitive)
        with a letter of the other case."""
        found = _verbatim(other)
        if found is None or self.definition != "formatbook" or not wrong_case(found[0], self.case):
            return None
        what = "a capital letter" if self.case == "lower" else "a lowercase letter"
        return f"{quote(found[0])}, which the reply must hold as written, has {what}"

    def check(self, text: str) -> list[Violation]:
        spots = wrong_case(text, self.case)
        if spots:
            what = "capital letter" if self.case == "lower" else "lowercase letter"
            what += "" if len(spots) == 1 else "s"
            return [
                Violation(
                    "instructions.case",
                    f"{len(spots)} {what} ({self.describe()}): {_positions(text, spots, show_text=True)}",
                    span=Span(*spots[0]),
                    keyword="case",
                    expected=self.case,
                )
            ]
        if self.definition == "ifeval" and not (text.islower() if self.case == "lower" else text.isupper()):
            return [Violation("instructions.case", "no cased letter at all (IFEval's rule needs one)", keyword="case")]
        return []

    def guidance(self) -> str:
        if self.case == "lower":
            return "Write your entire reply in lowercase letters: no capital letters at all."
        return "Write your entire reply in capital letters: no lowercase letters at all."

    def stream(self) -> Any:
        return CaseStream(self.case, self.describe())


# --- one of ------------------------------------------------------------------------------


class OneOf(_Instruction):
    """The text, outer white space aside, is exactly one of the options. IFEval: one of
    them occurs somewhere in it."""

    def __init__(self, options: Sequence[str], definition: str = "formatbook"):
        self.definition = check_definition(definition)
        if isinstance(options, str) or not options or not all(isinstance(o, str) and o.strip() for o in options):
            raise ExpectationError('ONE OF needs quoted options: EXPECT ONE OF "yes" | "no"')
        self.options = tuple(o.strip() for o in options)

    def describe(self) -> str:
        return "ONE OF " + " | ".join(quote(o) for o in self.options)

    def check(self, text: str) -> list[Violation]:
        body = text[bom_length(text) :].strip()
        ok = any(o in body for o in self.options) if self.definition == "ifeval" else body in self.options
        if ok:
            return []
        return [
            Violation(
                "instructions.one_of",
                f"the reply is {_short(body)!r}, not one of " + " | ".join(quote(o) for o in self.options),
                keyword="one of",
                expected=list(self.options),
            )
        ]

    def guidance(self) -> str:
        return "Reply with exactly one of these and nothing else: " + " | ".join(quote(o) for o in self.options) + "."

    def stream(self) -> Any:
        return OneOfStream(self.options, self.describe()) if self.definition == "formatbook" else None


# --- title, postscript, quoted -----------------------------------------------------------

_TITLE = re.compile(r"<<([^\n<>]+)>>")


class Title(_Instruction):
    """A title: ``<<`` non-blank text on one line without ``<`` or ``>`` ``>>``,
    anywhere. IFEval: ``<<[^\\n]+>>`` whose text stripped of ``<``, ``>`` and white space
    is not empty."""

    def __init__(self, definition: str = "formatbook"):
        self.definition = check_definition(definition)

    def describe(self) -> str:
        return "TITLE"

    def find(self, text: str) -> tuple[int, int] | None:
        if self.definition == "ifeval":
            pos = 0
            for line in text.split("\n"):
                p, q = line.find("<<"), line.rfind(">>")
                if p >= 0 and q >= p + 3 and line[p : q + 2].lstrip("<").rstrip(">").strip():
                    return pos + p, pos + q + 2
                pos += len(line) + 1
            return None
        for m in _TITLE.finditer(text):
            if m.group(1).strip():
                return m.span()
        return None

    def check(self, text: str) -> list[Violation]:
        if self.find(text) is not None:
            return []
        return [Violation("instructions.title", "no title in <<double angular brackets>>", keyword="title")]

    def guidance(self) -> str:
        return "Give your reply a title in double angular brackets, such as <<poem of joy>>."


class Postscript(_Instruction):
    """A line that starts (after white space and ``*_#>`` markup) with the marker,
    case-insensitive; after each ``.`` of the marker a space may follow (``P. S.``) and a
    final ``.`` may be left out. IFEval: ``p\\.\\s?s\\.`` (``P.S.``), ``p\\.\\s?p\\.\\s?s``
    (``P.P.S``) or the marker anywhere in the lower-cased text."""

    def __init__(self, marker: str = "P.S.", definition: str = "formatbook"):
        self.definition = check_definition(definition)
        if not marker.strip():
            raise ExpectationError('POSTSCRIPT needs a marker: EXPECT POSTSCRIPT "P.S."')
        self.marker = marker.strip()
        if self.definition == "ifeval":
            if self.marker == "P.P.S":
                body = r"p\.\s?p\.\s?s"
            elif self.marker == "P.S.":
                body = r"p\.\s?s\."
            else:
                body = re.escape(self.marker.lower())
            self._pattern = re.compile(body)
        else:
            core = self.marker.rstrip(".")
            body = "".join(re.escape(c) + ("[ \t]?" if c == "." else "") for c in core)
            if core != self.marker or core[-1:].isalpha():
                body += r"\.?"
            self._pattern = re.compile(rf"^[ \t*_#>]*+{body}", re.MULTILINE | re.IGNORECASE)

    def describe(self) -> str:
        return f"POSTSCRIPT {quote(self.marker)}"

    def check(self, text: str) -> list[Violation]:
        found = self._pattern.search(text.lower() if self.definition == "ifeval" else text)
        if found:
            return []
        return [
            Violation(
                "instructions.postscript",
                f"no postscript: no line starts with {self.marker!r}",
                keyword="postscript",
                expected=self.marker,
            )
        ]

    def guidance(self) -> str:
        return f"End with a postscript: a last paragraph starting with {quote(self.marker)}."


_OPEN_QUOTES = {'"': '"', "“": "”"}


class Quoted(_Instruction):
    """The text, outer white space aside, is wrapped in double quotes: ``"…"`` or
    ``“…”`` (at least two characters). IFEval: straight quotes only."""

    def __init__(self, definition: str = "formatbook"):
        self.definition = check_definition(definition)

    def describe(self) -> str:
        return "QUOTED"

    def check(self, text: str) -> list[Violation]:
        body = text[bom_length(text) :].strip()
        pairs = {'"': '"'} if self.definition == "ifeval" else _OPEN_QUOTES
        if len(body) > 1 and body[0] in pairs and body[-1] == pairs[body[0]]:
            return []
        shown = f"starts with {body[:1]!r} and ends with {body[-1:]!r}" if body else "is empty"
        return [
            Violation(
                "instructions.quoted",
                f"the reply is not wrapped in double quotes: it {shown}",
                keyword="quoted",
            )
        ]

    def guidance(self) -> str:
        return "Wrap your entire reply in double quotation marks."

    def stream(self) -> Any:
        return QuotedStream(tuple(_OPEN_QUOTES) if self.definition == "formatbook" else ('"',), self.describe())


# --- paragraph n starts with -------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LEAD = "\"'*_#>“‘«`([ \t"


def paragraphs(text: str) -> list[tuple[int, int]]:
    """Paragraphs as the core PARAGRAPHS unit sees them: runs of non-blank lines
    separated by blank (white-space-only) lines; (start, end) of each."""
    found: list[tuple[int, int]] = []
    start = end = None
    pos = 0
    for m in [*_LINE_BREAK.finditer(text), None]:
        stop = m.start() if m else len(text)
        if text[pos:stop].strip():
            if start is None:
                start = pos
            end = stop
        elif start is not None and end is not None:
            found.append((start, end))
            start = None
        if m is None:
            break
        pos = m.end()
    if start is not None and end is not None:
        found.append((start, end))
    return found


class ParagraphStartsWith(_Instruction):
    """Paragraph ``n`` (counted from 1, as :func:`paragraphs` finds them) starts with the
    word(s), case-insensitive, after leading quotes and Markdown markup; a word that ends
    with a letter or digit must end there (``However,`` passes, ``Howevers`` does not).
    IFEval: paragraphs split at ``\\n\\n``; the first white-space-separated word, quotes
    stripped on the left and cut at the first ``.,?!'"``, lower-cased, equals the word."""

    def __init__(self, number: int, word: str, definition: str = "formatbook"):
        self.definition = check_definition(definition)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ExpectationError(
                f'PARAGRAPH needs a number ≥ 1, not {number!r}: EXPECT PARAGRAPH 2 STARTS WITH "However"'
            )
        if not word.strip():
            raise ExpectationError('PARAGRAPH n STARTS WITH needs a word: EXPECT PARAGRAPH 2 STARTS WITH "However"')
        self.number = number
        self.word = word.strip()

    def describe(self) -> str:
        return f"PARAGRAPH {self.number} STARTS WITH {quote(self.word)}"

    def _ifeval(self, text: str) -> str | None:
        """IFEval's first word of paragraph n, or None when there is none."""
        parts = text.split("\n\n")
        if self.number > sum(1 for p in parts if p.strip()):
            return None
        paragraph = parts[self.number - 1].strip()
        if not paragraph:
            return None
        word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
        first = ""
        for letter in word:
            if letter in ".,?!'\"":
                break
            first += letter.lower()
        return first

    def check(self, text: str) -> list[Violation]:
        if self.definition == "ifeval":
            first = self._ifeval(text)
            if first == self.word.lower():
                return []
            found = "is missing" if first is None else f"starts with {first!r}"
            return [self._violation(f"paragraph {self.number} {found} instead of {self.word!r}")]
        skip = bom_length(text)  # a byte order mark opening the text starts no paragraph
        found_paragraphs = [(a + skip, b + skip) for a, b in paragraphs(text[skip:])]
        if len(found_paragraphs) < self.number:
            return [
                self._violation(
                    f"there are {len(found_paragraphs)} paragraph(s) (separated by blank lines), so no paragraph {self.number}"
                )
            ]
        start, end = found_paragraphs[self.number - 1]
        body = text[start:end]
        lead = len(body) - len(body.lstrip(_LEAD))
        rest = body[lead:]
        size = len(self.word)
        head = rest[:size]
        ok = head.lower() == self.word.lower() and not (self.word[-1].isalnum() and rest[size : size + 1].isalnum())
        if ok:
            return []
        shown = rest.split()[0] if rest.split() else rest
        return [
            self._violation(
                f"paragraph {self.number} starts with {_short(shown)!r} instead of {self.word!r}",
                Span(start + lead, start + lead + len(shown)),
            )
        ]

    def _violation(self, message: str, span: Span | None = None) -> Violation:
        return Violation("instructions.paragraph_start", message, span=span, keyword="paragraph", expected=self.word)

    def guidance(self) -> str:
        return f"Separate paragraphs with a blank line, and start paragraph {self.number} with the word {quote(self.word)}."


# --- the kinds: EXPECT lines -------------------------------------------------------------


def _single(args: list[Token], line: str, example: str) -> str:
    if len(args) != 1:
        got = "nothing" if not args else " ".join(t.text for t in args)
        raise ExpectationError(f"{line!r}: expected one quoted text after it (got {got}), e.g. {example}", line)
    return args[0].text


class _Kind:
    phrase = ""
    description = ""
    example = ""

    def __init__(self, definition: str = "formatbook"):
        self.definition = check_definition(definition)

    def __repr__(self) -> str:
        return f"<expectation kind {self.phrase.upper()}>"


class ContainsKind(_Kind):
    phrase = "contains"
    description = "the reply contains a literal (case-insensitive, whole word)"
    example = 'EXPECT CONTAINS "data"'

    def parse(self, args: list[Token], line: str) -> Contains:
        return Contains(_single(args, line, self.example), self.definition)


class NotContainsKind(_Kind):
    phrase = "not contains"
    description = "the reply never contains a literal"
    example = 'EXPECT NOT CONTAINS "delve"'

    def parse(self, args: list[Token], line: str) -> NotContains:
        return NotContains(_single(args, line, self.example), self.definition)


class StartsWithKind(_Kind):
    phrase = "starts with"
    description = "the reply starts with a text"
    example = 'EXPECT STARTS WITH "Dear"'

    def parse(self, args: list[Token], line: str) -> StartsWith:
        return StartsWith(_single(args, line, self.example), self.definition)


class EndsWithKind(_Kind):
    phrase = "ends with"
    description = "the reply ends with a text"
    example = 'EXPECT ENDS WITH "Any other questions?"'

    def parse(self, args: list[Token], line: str) -> EndsWith:
        return EndsWith(_single(args, line, self.example), self.definition)


class CaseKind(_Kind):
    phrase = "case"
    description = "every letter lower case (CASE lower) or upper case (CASE upper)"
    example = "EXPECT CASE lower"

    def parse(self, args: list[Token], line: str) -> Case:
        word = _single(args, line, self.example).lower()
        if word not in ("lower", "upper", "lowercase", "uppercase"):
            near = "lower" if word.startswith("l") else "upper" if word.startswith("u") else None
            hint = f" (did you mean CASE {near}?)" if near else ""
            raise ExpectationError(f"{line!r}: CASE is lower or upper, not {word!r}{hint}", line, near)
        return Case(word, self.definition)


class OneOfKind(_Kind):
    phrase = "one of"
    description = "the reply is exactly one of the quoted options"
    example = 'EXPECT ONE OF "My answer is yes." | "My answer is no."'

    def parse(self, args: list[Token], line: str) -> OneOf:
        options: list[str] = []
        expect_option = True
        for token in args:
            if expect_option:
                if not token.quoted and token.text in ("|", "or", "OR"):
                    raise ExpectationError(
                        f"{line!r}: an option is missing before {token.text!r}: {self.example}", line
                    )
                options.append(token.text)
            elif token.quoted or token.text not in ("|", "or", "OR"):
                raise ExpectationError(
                    f"{line!r}: options are separated by | (got {token.text!r}): {self.example}", line, "|"
                )
            expect_option = not expect_option
        if not options or expect_option:
            raise ExpectationError(f"{line!r}: expected quoted options separated by |, e.g. {self.example}", line)
        return OneOf(options, self.definition)


class TitleKind(_Kind):
    phrase = "title"
    description = "a title in <<double angular brackets>>"
    example = "EXPECT TITLE"

    def parse(self, args: list[Token], line: str) -> Title:
        if args:
            raise ExpectationError(f"{line!r}: TITLE takes nothing after it: {self.example}", line)
        return Title(self.definition)


class PostscriptKind(_Kind):
    phrase = "postscript"
    description = 'a postscript: a line starting with a marker ("P.S.")'
    example = 'EXPECT POSTSCRIPT "P.S."'

    def parse(self, args: list[Token], line: str) -> Postscript:
        if not args:
            return Postscript("P.S.", self.definition)
        return Postscript(_single(args, line, self.example), self.definition)


class QuotedKind(_Kind):
    phrase = "quoted"
    description = "the whole reply wrapped in double quotes"
    example = "EXPECT QUOTED"

    def parse(self, args: list[Token], line: str) -> Quoted:
        if args:
            raise ExpectationError(f"{line!r}: QUOTED takes nothing after it: {self.example}", line)
        return Quoted(self.definition)


class ParagraphKind(_Kind):
    phrase = "paragraph"
    description = "paragraph n starts with a word"
    example = 'EXPECT PARAGRAPH 2 STARTS WITH "However"'

    def parse(self, args: list[Token], line: str) -> ParagraphStartsWith:
        words = [t.text.lower() if not t.quoted else None for t in args[1:3]]
        number = args[0].text if args else ""
        # ASCII digits only: "²".isdigit() holds, yet int("²") raises
        if (
            len(args) != 4
            or not (number.isascii() and number.isdigit())
            or args[0].quoted
            or words != ["starts", "with"]
        ):
            raise ExpectationError(f"{line!r}: expected e.g. {self.example}", line)
        return ParagraphStartsWith(int(args[0].text), args[3].text, self.definition)


def kinds(definition: str = "formatbook") -> list[_Kind]:
    """Every kind of the plugin, in one definition."""
    return [
        cls(definition)
        for cls in (
            ContainsKind,
            NotContainsKind,
            StartsWithKind,
            EndsWithKind,
            CaseKind,
            OneOfKind,
            TitleKind,
            PostscriptKind,
            QuotedKind,
            ParagraphKind,
        )
    ]


__all__ = [
    "Contains",
    "NotContains",
    "StartsWith",
    "EndsWith",
    "Case",
    "OneOf",
    "Title",
    "Postscript",
    "Quoted",
    "ParagraphStartsWith",
    "paragraphs",
    "wrong_case",
    "kinds",
    "StreamStatus",
]
