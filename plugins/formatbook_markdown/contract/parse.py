"""Reading a Markdown contract (the Output Format Spec, OFS), a text that says which sections a reply
holds, of which kind, which tables it may add and what an empty section says.

The contract is written in Markdown (Flex-MD v3, layer B)::

    ## Output format
    Include these sections somewhere (order does not matter):
    - Short answer — text (required)
    - Reasoning — ordered list (required) — one step per item
    - Assumptions — list (optional)

    Tables (only if needed):
    - (Option, Cost, Risk — table)
    - (Step, Owner — ordered table, by Owner)

    Empty sections:
    - If a section is empty, write `None`.

Grammar (every choice below is deliberate; the tests hold them):

* Blank lines are skipped; ``\\r\\n`` and ``\\r`` end lines like ``\\n``.
* A heading (``#`` … ``######``) that is the first non-blank line is the spec's ``title``
  (kept as written, e.g. ``"Output format (Markdown)"``). Later headings are read like
  the plain lines below.
* Plain lines (not list items) are intro prose and are tolerated, except that they may
  open a block: a line starting with ``Tables`` opens the tables block (``(required)`` /
  ``(mandatory)`` in it makes tables required, otherwise they stay optional); a line
  starting with ``Empty section(s)`` opens the empty-value block (and may carry the
  declaration itself: ``Empty sections: write `N/A`.``); a prose line elsewhere that
  says "empty" and then a verb (write, use, put, say...) with a code span or quoted value
  (``If a section is empty, write `None`.``) declares it too; any other line that mentions
  ``section(s)`` re-opens the sections block, and says whether order matters: ``in this
  order`` / ``in the following order`` / ``order matters`` set ``section_order_matters``,
  ``order does not matter`` / ``any order`` clear it.
* List items (``-``, ``*``, ``+``, ``1.``, ``1)``) are the contract's entries (an empty
  item or a thematic break such as ``- - -`` is skipped):

  - in the sections block, a **section line**: ``NAME SEP KIND [FLAG] [HINT]`` where SEP
    is ``—``, ``–``, ``:`` or a hyphen after a space (`` - ``); KIND is one of
    ``text``/``prose`` → prose, ``list``/``bullets``/``bullet list``/``bulleted list``/
    ``bullet points``/``unordered list`` → list, ``ordered list``/``numbered list`` →
    ordered_list (case-insensitive); FLAG is ``(required)`` or ``(optional)`` (default:
    required); HINT is any text after a further separator (``—``, ``–``, `` - ``, ``,``,
    ``;``, ``:``) or in parentheses, e.g. ``- Short answer — text, one or two sentences``.
    A hint that is just ``required``/``optional``, or that ends with ``(required)`` /
    ``(optional)``, gives the flag when none came before. A line with no separator at all
    (``- Short answer`` or ``- Assumptions (optional)``) is a prose section. Emphasis
    around the name (``**Short answer**``) is dropped. The separator is the first one
    followed by a kind, so names may hold separators (``Step 1: plan — list``).
  - an item of the form ``(COLUMNS — table[, by COLUMN])`` is a **table** in any block;
    in the tables block the parentheses may be left out. Kinds: ``table``, ``ordered
    table`` / ``numbered table``. A leading ``#`` column of an ordered table is implied
    and dropped from ``columns``.
  - in the empty-value block, an item holding a code span (```None```) or a quoted
    value declares the empty value; an item saying ``not allowed``, ``no empty value``,
    ``must not be empty``, ``never empty`` or ``do not leave`` declares that there is
    none (``empty_section_value=None``): a missing required section is then a violation,
    not a repair.
* With no empty-value declaration the empty value is ``"None"`` (Flex-MD's default).

A contract it cannot read raises :class:`SpecError` naming the line and its number: an
unknown kind (with the nearest kind suggested), an unreadable table or empty-value item,
a section named twice, an empty contract.
"""

from __future__ import annotations

import difflib
import re

from formatbook_core.reply import LINE_BREAK
from formatbook_core.runs import run

from .model import SECTION_KIND_WORDS, TABLE_KIND_WORDS, OfsSection, OfsTable, OutputFormatSpec, SpecError
from .names import EMPHASIS, normalize_section_name

_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)")
_FLAG = re.compile(r"\(\s*(required|optional)\s*\)", re.IGNORECASE)
_FLAG_AT_END = re.compile(r"\(\s*(required|optional)\s*\)\s*$", re.IGNORECASE)
_FLAG_WORD = re.compile(r"^(required|optional)\.?$", re.IGNORECASE)
_SEPARATOR = re.compile(r"[—–:]|(?<=\s)-")
_HINT_LEAD = re.compile(r"(?:[—–,;:]|-(?=\s|$))\s*")
_SPACES = run(r"\s*")
_KIND_ALTERNATION = "|".join(sorted((re.escape(k) for k in SECTION_KIND_WORDS), key=len, reverse=True))
_KIND_AT = re.compile(rf"\s*({_KIND_ALTERNATION})(?=$|[\s(),;:.—–-])", re.IGNORECASE)
_TABLE_KIND_ALTERNATION = "|".join(sorted((re.escape(k) for k in TABLE_KIND_WORDS), key=len, reverse=True))
_TABLE_KIND_AT = re.compile(rf"\s*({_TABLE_KIND_ALTERNATION})(?=$|[\s(),;:.—–-])", re.IGNORECASE)
_BY = re.compile(r"^\s*(?:,\s*)?by\s+(.+)$", re.IGNORECASE | re.DOTALL)
_TABLES_HEADER = re.compile(r"^tables?\b", re.IGNORECASE)
_TABLES_REQUIRED = re.compile(r"\b(required|mandatory)\b", re.IGNORECASE)
_EMPTY_HEADER = re.compile(r"^empty(?:[ \t]+sections?)?\b", re.IGNORECASE)
_SECTIONS_WORD = re.compile(r"\bsections?\b", re.IGNORECASE)
_ORDER_FREE = re.compile(
    r"order (?:does not|doesn't|do not|don't) matter|\bany order\b|\bin no particular order\b", re.IGNORECASE
)
_ORDER_FIXED = re.compile(
    r"\bin (?:this|the following|the given|that|the same) order\b|\border matters\b", re.IGNORECASE
)
_NO_EMPTY = re.compile(
    r"\bnot allowed\b|\bno empty value\b|\bmust not be empty\b|\bmay not be empty\b|\bnever (?:be )?empty\b|\bdo not leave\b|\bdon't leave\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")
_EMPTY_MENTION = re.compile(r"\bempty\b", re.IGNORECASE)


def _strip_emphasis(text: str) -> str:
    text = text.strip()
    for _ in range(3):
        m = EMPHASIS.match(text)
        if not m or not m.group(2).strip("*_ \t"):
            break
        text = m.group(2).strip()
    return text


def _first_code_span(text: str) -> str | None:
    """The content of the first CommonMark code span in ``text`` (linear time)."""
    runs: list[tuple[int, int]] = []  # (start, length) of each backtick run
    i, n = 0, len(text)
    while i < n:
        if text[i] == "`":
            j = i
            while j < n and text[j] == "`":
                j += 1
            runs.append((i, j - i))
            i = j
        else:
            i += 1
    # for each run, the index of the next run of equal length (scan from the right)
    next_same: dict[int, int] = {}
    following: list[int | None] = [None] * len(runs)
    for idx in range(len(runs) - 1, -1, -1):
        length = runs[idx][1]
        following[idx] = next_same.get(length)
        next_same[length] = idx
    idx = 0
    while idx < len(runs):
        close = following[idx]
        if close is not None:
            start = runs[idx][0] + runs[idx][1]
            content = text[start : runs[close][0]]
            if len(content) >= 2 and content[0] == " " and content[-1] == " " and content.strip(" "):
                content = content[1:-1]
            return content
        idx += 1
    return None


def _empty_declaration(text: str) -> tuple[bool, str | None]:
    """``(found, value)`` for an empty-value sentence: a code span or quoted value gives
    the value; a "not allowed" phrasing gives ``(True, None)``."""
    value = _first_code_span(text)
    if value is None:
        m = _QUOTED.search(text)
        if m:
            value = m.group(1) or m.group(2)
    if value is not None:
        return True, value
    if _NO_EMPTY.search(text):
        return True, None
    return False, None


def has_word(name: str) -> bool:
    """``name`` holds a letter or digit (a section needs one)."""
    return any(c.isalnum() for c in name)


def item_body(text: str) -> str:
    """A section or table given as a string, without a leading list marker (``- ``)."""
    body = text.strip()
    m = _ITEM.match(body)
    return (m.group(1) or "").strip() if m else body


_EMPTY_VERB = re.compile(r"\b(?:write|use|put|say|state|enter|answer|reply)\b", re.IGNORECASE)


def _declares_empty_outside_block(text: str) -> bool:
    """A prose line such as "If a section is empty, write `None`." outside the block:
    it must mention "empty" and, for a value, a verb after it (two linear searches, so
    a line of a million "empty" words costs no more than one pass each)."""
    m = _EMPTY_MENTION.search(text)
    if m is None:
        return False
    if _NO_EMPTY.search(text):
        return True
    return _EMPTY_VERB.search(text, m.end()) is not None and _empty_declaration(text)[0]


def _nearest_kind(phrase: str) -> str:
    words = list(SECTION_KIND_WORDS)
    best = difflib.get_close_matches(phrase.lower(), words, n=1, cutoff=0.0)
    return best[0] if best else "text"


def _split_flag_and_hint(body: str, pos: int, end: int) -> tuple[bool, bool | None, str | None]:
    """Read what follows a kind in ``body[pos:end]`` (``end`` excludes trailing white
    space): ``[FLAG] [HINT]``. Returns ``(readable, required, hint)``. Looks only at the
    next few characters unless the line is accepted, so trying many separators on one
    long line stays linear."""
    required: bool | None = None
    pos = _SPACES.match(body, pos).end()
    fm = _FLAG.match(body, pos)
    if fm:
        required = fm.group(1).lower() == "required"
        pos = _SPACES.match(body, fm.end()).end()
    if pos >= end or (pos == end - 1 and body[pos] == "."):
        return True, required, None
    lead = _HINT_LEAD.match(body, pos, end)
    if lead:
        hint = body[lead.end() : end].strip()
    elif body[pos] == "(" and body[end - 1] == ")":
        hint = body[pos + 1 : end - 1].strip()
    else:
        return False, None, None
    if required is None:
        if _FLAG_WORD.match(hint):
            return True, hint.lower().rstrip(".") == "required", None
        em = _FLAG_AT_END.search(hint)
        if em:
            required = em.group(1).lower() == "required"
            hint = hint[: em.start()].rstrip(" \t,;:—–-")
    return True, required, (hint or None)


def parse_section_item(body: str, line: str, number: int) -> OfsSection:
    """A section line's ``body`` (the item without its marker) as an :class:`OfsSection`;
    ``line`` and ``number`` name it in a :class:`SpecError`."""
    # try each separator from the left; the first one followed by a kind word wins
    first_phrase: str | None = None
    end = len(body.rstrip())
    for sep in _SEPARATOR.finditer(body):
        km = _KIND_AT.match(body, sep.end())
        if km is None:
            if first_phrase is None:
                first_phrase = body[sep.end() :]
            continue
        readable, required, hint = _split_flag_and_hint(body, km.end(), end)
        if not readable:
            if first_phrase is None:
                first_phrase = body[sep.end() :]
            continue
        name_part = body[: sep.start()]
        name_required: bool | None = None
        fm = _FLAG_AT_END.search(name_part)
        if fm:
            name_required = fm.group(1).lower() == "required"
            name_part = name_part[: fm.start()]
        name = _strip_emphasis(name_part)
        if not has_word(name):
            raise SpecError("a section line needs a name (with a letter or digit) before its kind", line, number)
        kind = SECTION_KIND_WORDS[km.group(1).lower()]
        if required is None:
            required = name_required if name_required is not None else True
        return OfsSection(name=name, kind=kind, required=required, hint=hint)  # type: ignore[arg-type]
    if first_phrase is not None:
        phrase = re.split(r"[(),;—–]", first_phrase, maxsplit=1)[0].strip() or first_phrase.strip()
        phrase = phrase[:60]
        nearest = _nearest_kind(phrase)
        raise SpecError(
            f"unknown section kind {phrase!r}; did you mean {nearest!r}? (kinds: text, list, ordered list)",
            line,
            number,
            nearest,
        )
    # no separator at all: a prose section, maybe flagged
    required = True
    name_part = body
    fm = _FLAG_AT_END.search(name_part)
    if fm:
        required = fm.group(1).lower() == "required"
        name_part = name_part[: fm.start()]
    name = _strip_emphasis(name_part)
    if not has_word(name):
        raise SpecError("a section line needs a name (with a letter or digit)", line, number)
    return OfsSection(name=name, kind="prose", required=required)


def _looks_like_table_item(body: str) -> bool:
    s = body.strip()
    # a parenthesised entry is a table (or a broken one, reported as such)
    return s.startswith("(") and s.rstrip(".").endswith(")")


def _table_kind_position(inner: str) -> tuple[int, re.Match[str]] | None:
    """The separator position and table-kind match in a table entry (last separator
    followed by a table kind, so column names may hold separators)."""
    found = None
    for sep in _SEPARATOR.finditer(inner):
        km = _TABLE_KIND_AT.match(inner, sep.end())
        if km is not None:
            found = (sep.start(), km)
    return found


def parse_table_item(body: str, line: str, number: int) -> OfsTable:
    """A table entry's ``body`` (``(Column, Column — table)``) as an :class:`OfsTable`;
    ``line`` and ``number`` name it in a :class:`SpecError`."""
    s = body.strip()
    if s.endswith("."):
        s = s[:-1].rstrip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    found = _table_kind_position(s)
    if found is None:
        raise SpecError(
            "a table line reads '(Column, Column — table)' or '(Column, Column — ordered table, by Column)'",
            line,
            number,
        )
    sep_start, km = found
    rest = s[km.end() :]
    by: str | None = None
    if rest.strip():
        bm = _BY.match(rest)
        if bm is None:
            raise SpecError(
                f"unexpected text {rest.strip()[:40]!r} after the table kind (expected ', by COLUMN')", line, number
            )
        by = _strip_emphasis(bm.group(1).strip()) or None
    columns = [_strip_emphasis(c) for c in s[:sep_start].split(",")]
    kind = TABLE_KIND_WORDS[km.group(1).lower()]
    if kind == "ordered_table" and columns and columns[0] == "#":
        columns = columns[1:]
    if not columns or any(not c for c in columns):
        raise SpecError("a table needs its column names, separated by commas", line, number)
    return OfsTable(columns=columns, kind=kind, by=by)  # type: ignore[arg-type]


def _heading_text(line: str) -> str | None:
    m = _HEADING.match(line)
    if not m:
        return None
    text = line[m.end() :].strip()
    # an ATX closing sequence: spaces then '#'s at the end
    stripped = text.rstrip("#")
    if stripped != text and (not stripped or stripped[-1] in " \t"):
        text = stripped.rstrip()
    return text


def parse_output_format_spec(md: str) -> OutputFormatSpec:
    """Read a Markdown contract (see the module docstring for the grammar).

    Raises :class:`SpecError` naming the line (and its 1-based number) for anything it
    cannot read, and for a contract that declares no section and no table.
    """
    if not isinstance(md, str):
        raise SpecError(f"a Markdown contract is text, not {type(md).__name__}")
    sections: list[OfsSection] = []
    tables: list[OfsTable] = []
    tables_optional = True
    empty_value: str | None = "None"
    empty_declared_at: int | None = None
    title: str | None = None
    order_matters = False
    block = "sections"
    seen_content = False
    names: dict[str, int] = {}

    def declare_empty(value: str | None, line: str, number: int) -> None:
        nonlocal empty_value, empty_declared_at
        if value is not None and not value.strip():
            raise SpecError("the empty-section value cannot be blank", line, number)
        if empty_declared_at is not None and value != empty_value:
            raise SpecError(
                f"a second, different empty-section value (line {empty_declared_at} declared one)", line, number
            )
        empty_value, empty_declared_at = value, number

    for number, line in enumerate(LINE_BREAK.split(md), start=1):
        if not line.strip():
            continue
        first = not seen_content
        seen_content = True
        heading = _heading_text(line)
        if heading is not None and first:
            title = heading or None
            continue
        item = _ITEM.match(line) if heading is None else None
        if item is None:
            text = _strip_emphasis(heading if heading is not None else line.strip())
            if _TABLES_HEADER.match(text):
                block = "tables"
                tables_optional = not _TABLES_REQUIRED.search(text)
            elif _EMPTY_HEADER.match(text):
                block = "empty"
                found, value = _empty_declaration(text)
                if found:
                    declare_empty(value, line, number)
            elif _declares_empty_outside_block(text):
                declare_empty(_empty_declaration(text)[1], line, number)
            elif _SECTIONS_WORD.search(text):
                block = "sections"
                if _ORDER_FIXED.search(text) and not _ORDER_FREE.search(text):
                    order_matters = True
                elif _ORDER_FREE.search(text):
                    order_matters = False
            continue  # intro prose is tolerated
        body = (item.group(1) or "").strip()
        if not body or not body.strip("-*_ \t"):
            continue  # an empty item or a thematic break ("- - -")
        if block == "tables" or _looks_like_table_item(body):
            tables.append(parse_table_item(body, line, number))
        elif block == "empty":
            found, value = _empty_declaration(body)
            if not found:
                raise SpecError(
                    "an empty-sections line reads 'If a section is empty, write `None`.' or 'Empty sections are not allowed.'",
                    line,
                    number,
                )
            declare_empty(value, line, number)
        else:
            section = parse_section_item(body, line, number)
            key = normalize_section_name(section.name)
            if key in names:
                raise SpecError(
                    f"section {section.name!r} is declared twice (first on line {names[key]})", line, number
                )
            names[key] = number
            sections.append(section)
    if not sections and not tables:
        raise SpecError("the contract declares no section (expected lines like '- Short answer — text')")
    return OutputFormatSpec(
        sections=sections,
        tables=tables,
        tables_optional=tables_optional,
        empty_section_value=empty_value,
        title=title,
        section_order_matters=order_matters,
    )
