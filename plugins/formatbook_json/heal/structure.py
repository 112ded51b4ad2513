"""The syntax step: walks the tokens with a small state machine and repairs commas,
colons, brackets, bare keys and literals, and the end of a reply that was cut off; each
string, number and bare word is repaired by its family's module (:mod:`.strings`,
:mod:`formatbook_json.numbers`, :mod:`.literals`).

It never rewrites what is already right: every repair is an edit of the payload (see
:mod:`.edits`), so the layout of the reply survives healing. Stretches that are already
strict JSON (:mod:`.runs`), or broken the same common way at every token
(:mod:`.tolerant`), are taken whole by one regular expression.
"""

from __future__ import annotations

import json
import re
from operator import attrgetter, itemgetter

from formatbook_core import HealError, Repair, SetAside, Span, Violation
from formatbook_core import edits as _edits
from formatbook_core.limits import MAX_DEPTH, refuse_grown
from formatbook_core.results import make_repair
from formatbook_core.spans import SPACE_SET, SPACES

from ..locate import LINE_GAP
from ..numbers import normalize as normalize_number
from . import literals, runs, strings, tolerant
from .lexer import Lexer
from .state import Healing, asks_for_array

# States: what the next significant token should be.
TOP, VALUE_AFTER_COLON, FIRST_VALUE, NEXT_VALUE, FIRST_KEY, NEXT_KEY, COLON, AFTER, DONE = range(9)

_WS_END = re.compile(r"\s*\Z")
_CLOSERS_TO_END = re.compile(r"[ \t\n\r}\]]*+\Z")  # the lexer's white space and closing brackets
_PLAIN_KEY = re.compile(r"[\w$]+")  # needs no escaping inside a JSON string

MESSAGES = {
    "comment": "removed a comment",
    "trailing_comma": "removed a trailing comma",
    "extra_comma": "removed a comma with no value before it",
    "missing_comma": "inserted a missing comma",
    "missing_colon": "inserted a missing colon after a key",
    "unquoted_key": "put double quotes around a bare key",
    "missing_bracket": "closed a bracket left open",
    "truncated_container": "closed the containers left open where the reply ends: it was cut off",
    "surplus_bracket": "removed a closing bracket that closed nothing",
    "wrong_bracket": "replaced a closing bracket of the wrong kind",
    "dropped_member": "dropped a member cut off by the end of the reply",
    "trailing_data": "set aside text after the JSON value",
    "number_format": "rewrote a number in JSON's notation",
    "truncated_number": "the last number may be incomplete: the reply was cut off right after it",
    "wrapped_lines": "wrapped the values written one per line in the array the schema asks for",
    "python_tuple": "wrote a Python tuple (1, 2) as the JSON array [1, 2]",
    **strings.MESSAGES,
    **literals.MESSAGES,
}


class Result:
    """Edits, repairs and set-aside text produced by :func:`repair`."""

    __slots__ = ("edits", "repairs", "trailing")

    def __init__(self) -> None:
        self.edits: list[tuple[int, int, str]] = []
        self.repairs: list[Repair] = []
        self.trailing: Span | None = None

    def edit(self, kind: str, start: int, end: int, replacement: str, span: Span | None = None) -> None:
        self.edits.append((start, end, replacement))
        if span is not None:
            start, end = span
        self.repairs.append(make_repair(kind, MESSAGES[kind], start, end))


def _fail(message: str, start: int, end: int | None = None, code: str = "json.heal") -> HealError:
    span = Span(start, start + 1 if end is None else end)
    return HealError(message + f" at offset {start}", [Violation(code, message, span=span)])


_SPAN_START = attrgetter("span.start")
_EDIT_START = itemgetter(0)


def repair_syntax(h: Healing) -> None:
    """The plan's syntax step: make ``h.text`` strict JSON (no schema involved), listing
    every repair in text order and setting aside text after the value. Raises
    ``HealError`` when no obvious repair exists."""
    text = h.text
    if not text.strip():
        raise HealError(
            "cannot heal JSON: the text is empty",
            [Violation("json.empty", "the text is empty", span=Span(0, len(text)))],
        )
    # White space around the payload is str.isspace (syntax.unpadded): the walk reads the
    # payload from its first character (trailing blanks may end a cut string; after a
    # complete value the walk skips them), and the healed text keeps none of it.
    body = text.lstrip(SPACES)
    lead = len(text) - len(body)
    done_at = h.done_at - lead if h.done_at is not None else None
    try:
        res = repair(
            body, h.limits.max_depth, done_at=done_at, lines=asks_for_array(h.schema), max_size=h.limits.max_size
        )
    except HealError as err:
        if not lead:
            raise
        raise HealError(str(err), [v.shift(lead) for v in err.violations]) from None
    if lead:
        res.edits = [(start + lead, end + lead, new) for start, end, new in res.edits]
        res.repairs = [r.shift(lead) for r in res.repairs]
        if res.trailing is not None:
            res.trailing = Span(res.trailing.start + lead, res.trailing.end + lead)
    if res.trailing is not None:
        start, end = res.trailing
        h.set_aside = (SetAside("trailing_data", text[start:end], res.trailing),)
    res.edits += _leading_blanks(text, res.edits)
    h.edits = res.edits
    # A repaired text ends with its value: white space left before what a repair removed
    # at the end (a surplus bracket, a comment, a cut member) would trail it, and the
    # locator strips it from the healed reply, so a second heal would differ.
    h.text = _edits.apply(text, res.edits).rstrip(SPACES)
    h.repairs.extend(sorted(res.repairs, key=_SPAN_START))  # stable: text order within an offset


def _leading_blanks(text: str, edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Edits that delete the white space the edited text would start with: what a repair
    removed at the start (a surplus bracket, a comment) leaves the blanks after it first,
    and the locator strips them from the healed reply, so a second heal would differ."""
    found: list[tuple[int, int, str]] = []
    pos = 0
    edits.sort(key=_EDIT_START)  # stable, as edits.apply sorts them: it then finds them sorted
    for start, end, replacement in edits:
        if pos < start and text[pos] not in SPACE_SET:
            return found  # text before this edit is kept and starts with no blank
        blank = len(text[pos:start]) - len(text[pos:start].lstrip(SPACES))
        if blank:
            found.append((pos, pos + blank, ""))
        if pos + blank < start or replacement:
            return found
        pos = max(pos, end)
    blank = len(text) - pos - len(text[pos:].lstrip(SPACES))
    if blank:
        found.append((pos, pos + blank, ""))
    return found


def repair(  # noqa: C901 - the token walk is the hot loop: one function keeps it fast
    text: str,
    max_depth: int = MAX_DEPTH,
    *,
    fast: bool = True,
    done_at: int | None = None,
    lines: bool = False,
    max_size: int | None = None,
) -> Result:
    """Walk the tokens of ``text`` and collect the edits that make ``text``
    strict JSON. Raises ``HealError`` when no obvious repair exists. ``fast=False``
    walks every token (the fast paths must give the same result; tests compare).
    ``done_at``: ``text[:done_at]`` is known to be one strict JSON value and white space
    (a strict parser said so), so the walk starts there, after the value. ``lines``: the
    schema asks for an array, so containers written one per line after the first are
    its items too: the first line's value opens the array they are wrapped in.
    ``max_size``: the walk is refused (the core's ``reply.too_large``) at a comma where
    the text repaired so far must pass it (:class:`_Growth`)."""
    res = Result()
    n = len(text)
    start = done_at if done_at is not None and 0 < done_at <= n else 0  # where the walk starts
    after = _container_end(text, start) if start else -1
    if after >= 0 and fast and _CLOSERS_TO_END.match(text, start) is not None:
        # nothing after the value but closing brackets (surplus: the walk would remove
        # each) and JSON's white space (it skips that): no token walk, nor its set-up
        for at in range(start, n):
            if text[at] in "}]":
                res.edit("surplus_bracket", at, at + 1, "")
        return res
    growth = _Growth(res, max_size) if max_size is not None else None
    check_at = 0 if growth is not None else _NEVER  # the next offset where the text may pass max_size
    edit = res.edit
    stack: list[str] = []  # open containers: "{" or "["
    marks: list[int] = []  # per container: where its current member (with its comma) starts
    state = TOP
    prev_end = 0  # end of the previous significant token
    pending: tuple[int, int, str] | None = None  # a token that only a cut-off reply excuses
    top_is_container = False
    root = 0  # where the top-level value starts
    wrapped = False  # lines: the values written one per line are wrapped in an array
    tuples: set[int] = set()  # the depths of the arrays a Python tuple's "(" opened

    lexer = Lexer(text)
    token_at = lexer.token_at
    fast = fast and not lexer.careful
    members = runs.MEMBERS.match
    elements = runs.ELEMENTS.match
    loose_members = tolerant.MEMBERS.match
    loose_elements = tolerant.ELEMENTS.match
    damage = tolerant.damage
    pos = 0
    if after >= 0:
        top_is_container = True
        prev_end, pos, state = after, start, DONE
    # Once a damaged stretch was taken, the reply is likely damaged at every member (every
    # item's trailing comma, every key bare): the damaged-stretch pattern is tried first,
    # sparing the strict one's failed scan of each member up to its damage. Either takes
    # the stretch as the walk would (tolerant.py); state AFTER reads no mark.
    loose_first = False

    def damaged_stretch(pos: int, keys: bool) -> int:
        """Where a stretch with the common per-token damage starting at ``pos`` ends, its
        edits and repairs made (see tolerant.py); ``-1`` when there is none."""
        m = (loose_members if keys else loose_elements)(text, pos)
        if m is None:
            return -1
        found = damage(text, pos, m.end(), MESSAGES)
        if found is None:
            return -1
        res.edits.extend(found[0])
        res.repairs.extend(found[1])
        return m.end()

    while True:
        if fast and pending is None:
            tried = -1
            if loose_first and FIRST_VALUE <= state <= NEXT_KEY:
                tried = pos
                end = damaged_stretch(pos, state >= FIRST_KEY)
                if end >= 0:
                    state = AFTER
                    prev_end = pos = end
                    if pos >= check_at:  # after a value: what precedes stays too
                        check_at = growth.at(pos, root, len(stack))  # type: ignore[union-attr]
            # take a stretch of strict JSON whole (see runs.py)
            if state == FIRST_KEY or state == NEXT_KEY:
                m = members(text, pos)
            elif state == FIRST_VALUE or state == NEXT_VALUE:
                m = elements(text, pos)
            else:
                m = None
            if m is not None:
                last = m.end(2)
                if last != -1:
                    state = AFTER
                    prev_end = pos = last
                else:
                    commas = m.end(1)
                    if commas > pos:
                        marks[-1] = commas - 1
                        if commas > check_at:
                            check_at = growth.at(commas - 1, root, len(stack))  # type: ignore[union-attr]
                        state = NEXT_KEY if state <= NEXT_KEY and state >= FIRST_KEY else NEXT_VALUE
                        prev_end = pos = commas
                # then a stretch with the common per-token damage (see tolerant.py)
                if state != AFTER and pos != tried:
                    end = damaged_stretch(pos, state >= FIRST_KEY)
                    if end >= 0:
                        loose_first = True
                        state = AFTER
                        prev_end = pos = end
                        if pos >= check_at:  # after a value: what precedes stays too
                            check_at = growth.at(pos, root, len(stack))  # type: ignore[union-attr]
        tok = token_at(pos, bool(tuples) and len(stack) in tuples and stack[-1] == "[")
        if tok is None:
            break
        kind, s, e, fix = tok
        pos = e
        if pending is not None:
            raise _fail(pending[2], pending[0], pending[1])
        if kind == "c":
            edit("comment", s, e, "")
            continue
        if kind == "x" and state != DONE and state != COLON:
            c = text[s]
            if c == "(" and state not in (FIRST_KEY, NEXT_KEY):
                edit("python_tuple", s, e, "[")  # read on as the array it means
                tuples.add(len(stack) + 1)
                kind = "["
            elif c == ")" and len(stack) in tuples and stack[-1] == "[":
                res.edits.append((s, e, "]"))  # the tuple's close (its repair is listed at "(")
                tuples.discard(len(stack))
                kind = "]"
        if state == DONE:
            if kind == "x" and text[s:e] in SPACES:
                continue  # white space after the value (spans.SPACES, as syntax.unpadded)
            if kind == "}" or kind == "]":
                edit("surplus_bracket", s, e, "")
                continue
            if not top_is_container:
                raise _fail("text after a lone JSON value (is an opening bracket missing?)", s)
            gap = LINE_GAP.match(text, prev_end) if lines and not wrapped else None
            if gap is not None and gap.end() < n and text[gap.end()] in "{[":
                # the next line holds the next item: wrap them all (the closing
                # bracket is added at the end), and read on as inside that array
                res.edits.append((root, root, "["))
                res.repairs.append(make_repair("wrapped_lines", MESSAGES["wrapped_lines"], root, n))
                wrapped = True
                stack.append("[")
                marks.append(prev_end)
                state = AFTER
            elif kind == ",":
                # the document goes on after the bracket that closed it ({"a": 1}, "b": 2}):
                # setting the rest aside would keep only a part of the data
                raise _fail("a comma after the value: the data goes on after a bracket that closed it early", s)
            else:
                res.trailing = Span(s, n)
                edit("trailing_data", prev_end, n, "", Span(s, n))
                break

        if kind in "snNw":  # a scalar: a value, or a key when a key is due
            if state == AFTER:
                edit("missing_comma", prev_end, prev_end, ",", Span(prev_end, s))
                marks[-1] = prev_end
                state = NEXT_KEY if stack[-1] == "{" else NEXT_VALUE
            if state == FIRST_KEY or state == NEXT_KEY:
                if kind == "s":
                    if fix is not None:
                        _apply_string(res, s, e, fix)
                else:
                    word = text[s:e]
                    edit(
                        "unquoted_key",
                        s,
                        e,
                        '"' + word + '"' if _PLAIN_KEY.fullmatch(word) else json.dumps(word, ensure_ascii=False),
                    )
                state = COLON
                prev_end = e
                continue
            if state == COLON:
                edit("missing_colon", prev_end, prev_end, ":", Span(prev_end, s))
                state = VALUE_AFTER_COLON
            # a value
            if kind == "s":
                if fix is not None and fix.cut and not stack:
                    # a lone string cut off: nothing says it was meant to be JSON data
                    raise _fail("a lone string cut off by the end of the reply", s, e)
                if fix is not None:
                    _apply_string(res, s, e, fix)
            elif kind == "N":
                fixed = normalize_number(text[s:e])
                if fixed is None:
                    pending = (s, e, f"{text[s:e]!r} is not a number")
                    continue
                edit("number_format", s, e, fixed)
            elif kind == "w":
                word = text[s:e]
                known = literals.lookup(word)
                if known is None:
                    done = literals.complete(word) if _WS_END.match(text, e) else None
                    if done is None:
                        pending = (s, e, f"unexpected word {word!r} where a value should be")
                        continue
                    edit("truncated_literal", s, e, done)
                elif known[1] is not None:
                    edit(known[1], s, e, known[0])
            state = AFTER if stack else DONE
            prev_end = e
            continue

        if kind == "{" or kind == "[":
            if state == AFTER:
                edit("missing_comma", prev_end, prev_end, ",", Span(prev_end, s))
                marks[-1] = prev_end
                state = NEXT_KEY if stack[-1] == "{" else NEXT_VALUE
            if state == FIRST_KEY or state == NEXT_KEY:
                raise _fail("an object or array where a key should be", s)
            if state == COLON:
                edit("missing_colon", prev_end, prev_end, ":", Span(prev_end, s))
            if len(stack) >= max_depth:
                raise _fail(f"nesting deeper than {max_depth} levels", s, code="json.too_deep")
            if not stack:
                top_is_container = True
                root = s
            stack.append(kind)
            marks.append(e)
            state = FIRST_KEY if kind == "{" else FIRST_VALUE
            prev_end = e
            continue

        if kind == "}" or kind == "]":
            opener = "{" if kind == "}" else "["
            if opener not in stack:
                edit("surplus_bracket", s, e, "")
                continue
            if state == VALUE_AFTER_COLON or state == COLON:
                raise _fail("a key without a value", s, code="json.missing_value")
            if state == NEXT_KEY or state == NEXT_VALUE:
                comma = marks[-1]
                edit("trailing_comma", comma, comma + 1, "")
            if stack[-1] != opener and opener not in stack[1:] and not _WS_END.match(text, e):
                # closing the root here would leave text behind: a typo for the right closer
                right = "}" if stack[-1] == "{" else "]"
                edit("wrong_bracket", s, e, right)
                opener = stack[-1]
            missing = ""
            while stack[-1] != opener:
                missing += "}" if stack.pop() == "{" else "]"
                marks.pop()
            if missing:
                edit("missing_bracket", prev_end, prev_end, missing, Span(prev_end, s))
            stack.pop()
            marks.pop()
            state = AFTER if stack else DONE
            prev_end = e
            continue

        if kind == ",":
            if state == AFTER:
                marks[-1] = s
                if s >= check_at:
                    check_at = growth.at(s, root, len(stack))  # type: ignore[union-attr]
                state = NEXT_KEY if stack[-1] == "{" else NEXT_VALUE
                prev_end = e
                continue
            if state in (FIRST_KEY, NEXT_KEY, FIRST_VALUE, NEXT_VALUE):
                edit("extra_comma", s, e, "")
                continue
            raise _fail("a comma where a value should be", s, code="json.missing_value")

        if kind == ":":
            if state == COLON:
                state = VALUE_AFTER_COLON
                prev_end = e
                continue
            raise _fail("unexpected ':'", s)

        raise _fail(f"unexpected character {text[s]!r}", s)

    # The end of the reply.
    if wrapped and state == AFTER and len(stack) == 1:
        res.edits.append((prev_end, prev_end, "]"))  # the array the lines were wrapped in
        stack.pop()
        marks.pop()
        state = DONE
    if state == TOP:
        if pending is not None:
            raise _fail(pending[2], pending[0], pending[1])
        raise _fail("no JSON value found", 0, n, code="json.empty")
    if state == DONE:
        if not top_is_container and res.edits:
            # only objects and arrays are healed: a broken lone scalar is more likely prose
            raise _fail("a lone value that is not JSON, with no object or array around it", 0, n)
        return res
    cut_from = None
    if state in (COLON, VALUE_AFTER_COLON, NEXT_KEY, NEXT_VALUE) or pending is not None:
        cut_from = marks[-1]
    closers = "".join("}" if c == "{" else "]" for c in reversed(stack))
    if cut_from is not None:
        res.edits = [ed for ed in res.edits if ed[0] < cut_from]
        res.repairs = [r for r in res.repairs if r.span is None or r.span.start < cut_from]
        only_comma = pending is None and state in (NEXT_KEY, NEXT_VALUE)
        # the closers go in first: an insertion listed before a deletion at one offset
        res.edits.append((cut_from, cut_from, closers))
        edit("trailing_comma" if only_comma else "dropped_member", cut_from, n, "")
    elif _WS_END.match(text, prev_end):
        # the closers end the text: white space after the cut would trail the healed value
        res.edits.append((prev_end, n, closers))
    else:
        res.edits.append((prev_end, prev_end, closers))
    # the text ends inside containers: read as cut off there (result.truncated says so)
    res.repairs.append(Repair("truncated_container", MESSAGES["truncated_container"] + f" ({closers})", Span(n, n)))
    if cut_from is None and prev_end == n and not any(r.kind == "truncated_string" for r in res.repairs):
        # (a string cut off ends the text too, and "x 3 holds no number)
        number = _number_at_end(text)
        if number is not None:  # 3 may have been 36: a repair says so (the value is kept)
            res.repairs.append(make_repair("truncated_number", MESSAGES["truncated_number"], number, n))
    return res


def _container_end(text: str, done_at: int) -> int:
    """Where the value ``text[:done_at]`` holds ends (``done_at``: where a strict parser
    found text after one complete value), when it is a container; else -1. Only after a
    container: its closing bracket ends the last token as the lexer would end it (after
    a scalar, "null1" is one word to the lexer)."""
    end = done_at
    while end > 0 and text[end - 1] in " \t\n\r":
        end -= 1
    return end if end > 0 and text[end - 1] in "}]" else -1


class _Growth:
    """Whether the text repaired so far must pass ``max_size``, asked at each comma that
    ends a member (its container's mark moves there) and after a stretch of members
    taken whole (:mod:`.tolerant`: a value just ended there).

    What comes before that point stays in the healed text: later edits only remove text
    after it, a member cut off by the end of the reply is cut at its own container's
    mark (that comma) or after, and only blanks before the top-level value
    (``_leading_blanks``) can go. So the healed text is at least that comma's offset, plus what the edits so far
    added (each before it), less the offset of the top-level value: past ``max_size``
    the heal is refused there (``refuse_grown``, "when it was stopped"), without
    walking the rest. The edits are added up as they come (each once)."""

    __slots__ = ("res", "max_size", "counted", "grown")

    def __init__(self, res: Result, max_size: int) -> None:
        self.res = res
        self.max_size = max_size
        self.counted = 0
        self.grown = 0

    def at(self, comma: int, root: int, depth: int) -> int:
        """Refuse when the text repaired before ``comma`` must pass ``max_size``; else the
        offset from which it next may: the edits add at most :data:`_MOST_GROWTH`
        characters for each one walked, and a closing bracket for each of the ``depth``
        containers open."""
        edits = self.res.edits
        if len(edits) > self.counted:
            grown = self.grown
            for start, end, new in edits[self.counted :]:
                grown += len(new) - (end - start)
            self.grown, self.counted = grown, len(edits)
        least = comma + self.grown - root
        if least > self.max_size:
            refuse_grown(least, self.max_size, stopped=True)
        return comma + max(1, (self.max_size - least - depth) // (_MOST_GROWTH + 1))


#: the most characters the edits add for one character walked (a control character in a
#: string is written as six: ``\u0001``), with room to spare
_MOST_GROWTH = 7
_NEVER = 1 << 62


_NUMBER_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.+-")


def _number_at_end(text: str) -> int | None:
    """Where the number ending ``text`` starts, when its very last token is a number
    (nothing after it, not even a blank, which would show the number had ended)."""
    n = len(text)
    pos = n
    while pos > 0 and text[pos - 1] in _NUMBER_CHARS:
        pos -= 1
    lexer = Lexer(text)
    while pos < n:  # the tokens of that run of characters, up to the last one
        tok = lexer.token_at(pos)
        if tok is None or tok[2] <= pos:
            return None
        if tok[2] == n:
            return tok[1] if tok[0] in "nN" else None
        pos = tok[2]
    return None


def _apply_string(res: Result, s: int, e: int, fix: strings.StringFix) -> None:
    res.edits.append((s, e, fix.text))
    for kind in fix.kinds:
        res.repairs.append(make_repair(kind, MESSAGES[kind], s, e))
