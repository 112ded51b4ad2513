"""Strict JSON (RFC 8259) parsing: orjson on the fast path, exact answers on the rest.

Where orjson and RFC 8259 differ, and what formatbook answers:

- Nesting: orjson stops at 1024 levels. ``max_depth`` (``formatbook_core.limits.MAX_DEPTH``) is
  enforced exactly by wrapping the text in ``1024 - max_depth`` extra ``[``/``]`` pairs, so orjson's own
  limit becomes ours at no extra scan; deeper limits fall back to the checker + an
  iterative builder (no recursion, so no RecursionError).
- Numbers whose magnitude overflows a double (``1e400``): the grammar allows them and
  orjson refuses them; they are accepted, parsed by the iterative builder, and come back
  exact as a ``decimal.Decimal`` (never ``inf``); so does an integer longer than Python's
  int-string limit. A positive exponent of 10**17 or more is beyond any exact value:
  refused, by the checker too (``numbers.beyond_range``).
- Integers beyond 64 bits (``18446744073709551616``): valid; orjson returns them as
  floats, which would change the value. A document holding an integer of 19 or more
  digits (found by one translation and substring search in C) is parsed again by the
  standard library's ``json``, whose integers are exact; other documents keep orjson's
  value. Floats written with many digits (``-0.00018278014303702307``) are read exactly
  by orjson (correctly rounded, as ``json`` does): they are parsed once.
- Lone surrogate escapes (``"\\ud800"``): rejected, like ``stream.JsonChecker`` (see
  its module doc), so ``is_valid_json`` and ``can_be_valid`` always agree.
- White space around the document is what ``str.isspace`` says (the white space the
  locator strips from a payload, ``formatbook_core.locating.strip_span``): a reply
  ``"yes"`` followed by a no-break space (U+00A0) is valid as it stands, for ``is_valid``
  and both checkers alike. Inside the document only JSON's four characters are white space.
- A byte order mark (U+FEFF) at the start is not white space: rejected. Dropping a BOM
  is the job of whoever decodes bytes (the CLI does).
- ``NaN``/``Infinity``, trailing commas, comments, single quotes, raw control characters
  in strings: rejected (orjson and the RFC agree).

``max_size`` counts characters. Error offsets are character offsets into ``text``.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from json.decoder import scanstring  # type: ignore[attr-defined]  # CPython has it; typeshed omits it
from typing import Any

import orjson

from formatbook_core import Span, Violation
from formatbook_core.limits import MAX_DEPTH, MAX_SIZE
from formatbook_core.runs import run
from formatbook_core.spans import SPACE_SET as _SPACES
from formatbook_core.spans import SPACES

from .numbers import beyond_range

__all__ = [
    "JsonSyntaxError",
    "parse_strict",
    "is_valid_json",
    "strict_reading",
    "strict_value",
    "to_violation",
    "unpadded",
]

_ORJSON_MAX_DEPTH = 1024  # orjson accepts 1024 nested containers, rejects 1025
_loads = orjson.loads
_DecodeError = orjson.JSONDecodeError
# Every ASCII digit made "0", "." kept, "e"/"E" made "e" and every other byte an "x": then
# an integer of 19 digits or more (one that may lie beyond orjson's -2**63 .. 2**64 - 1)
# starts where an "x" is followed by 19 "0"s, found by a plain substring search in C (a
# regular expression would take five times the parse). The digits of a fraction follow a
# "." and are never found: orjson reads every float exactly as the standard library does
# (both round correctly), so a float written with many digits costs nothing more. That
# search cannot skip ahead on an "x" (the needle holds one): a search for 19 "0"s alone,
# which skips over every "x", first settles the texts with no such run at all. Before
# both, every 9th byte alone is shaped (a ninth of the work): 19 digits in a row hold two
# bytes 9 apart that are both sampled, next to each other in the sample, so a sample with
# no two digits in a row settles most texts (all but those dense with digits). The sample
# is taken of the characters (a digit is one character and one byte, and what is no
# digit never shapes as one), so the whole text is encoded only when the sample is not
# enough.
_NUMBERISH = bytes(48 if 48 <= c <= 57 else 46 if c == 46 else 101 if c in (69, 101) else 120 for c in range(256))
_DIGIT_RUN = b"0" * 19
_LONG_INTEGER = b"x" + _DIGIT_RUN
_FLOAT_GOES_ON = (46, 101)  # "." or an exponent after the digits: a float, read exactly
_STRIDE = 9  # (19 - 1) // 2: any 19 bytes in a row hold two multiples of it in turn
_TWO_DIGITS = b"00"


def _has_long_integer(text: str) -> bool:
    """Whether ``text`` may hold an integer of 19 digits or more (digits in a string or
    an exponent may answer yes: then the exact path merely runs for nothing)."""
    if text[::_STRIDE].encode("utf-8", "surrogatepass").translate(_NUMBERISH).find(_TWO_DIGITS) < 0:
        return False
    shape = text.encode("utf-8", "surrogatepass").translate(_NUMBERISH)
    if shape.find(_DIGIT_RUN) < 0:
        return False
    shape = b"x" + shape
    at = shape.find(_LONG_INTEGER)
    n = len(shape)
    while at >= 0:
        end = at + len(_LONG_INTEGER)
        while end < n and shape[end] == 48:
            end += 1
        if end == n or shape[end] not in _FLOAT_GOES_ON:
            return True
        at = shape.find(_LONG_INTEGER, end)
    return False


# orjson's messages for valid JSON it cannot represent (then the slow path parses it)
_ORJSON_ONLY = ("number", "depth")
#: Past this many characters a text orjson refuses is not read again by the Python checker
#: for its own wording of the error: orjson's message and offset stand (the checker costs
#: about 2 µs a character, 9 s for a 4 MB reply whose one stray comma sits at its end, and
#: such a reply is too long to heal anyway: the refusal came after that work).
PRECISE_ERROR_LIMIT = 1 << 20


class JsonSyntaxError(ValueError):
    """The text is not strict JSON.

    ``message`` says why, ``offset`` is the character offset in the text where it shows,
    ``code`` is one of ``"json.syntax"``, ``"json.too_deep"``, ``"json.too_large"``,
    ``"json.empty"``.
    """

    def __init__(self, message: str, offset: int, code: str = "json.syntax") -> None:
        super().__init__(f"{message} (at offset {offset})")
        self.message = message
        self.offset = offset
        self.code = code


def to_violation(err: JsonSyntaxError, text_length: int) -> Violation:
    """``err`` as a violation whose span is the character where it shows (clamped to a
    text of ``text_length`` characters)."""
    code = err.code if err.code.startswith("json.") else f"json.{err.code}"
    offset = max(0, min(err.offset, text_length))
    span = Span(offset, min(offset + 1, text_length) if offset < text_length else offset)
    return Violation(code, err.message or str(err), span=span)


def parse_strict(text: str, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> Any:
    """Parse ``text`` as one RFC 8259 JSON document and return the Python value.

    Raises ``JsonSyntaxError`` (a ``ValueError``) when the text is not strict JSON, is
    empty, is nested deeper than ``max_depth`` containers, or is longer than ``max_size``
    characters; ``TypeError`` when ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_strict takes str, not {type(text).__name__}")
    if len(text) > max_size:
        raise JsonSyntaxError(
            f"the text has {len(text)} characters, more than the limit of {max_size}", max_size, "json.too_large"
        )
    body, lead = unpadded(text)
    try:
        return _fast(body, max_depth)
    except _DecodeError as err:
        if len(body) > PRECISE_ERROR_LIMIT and not any(word in str(err) for word in _ORJSON_ONLY):
            raise _orjson_error(err, body, max_depth, lead) from None
    try:
        return _slow_path(body, max_depth)
    except JsonSyntaxError as err:
        if not lead:
            raise
        raise JsonSyntaxError(err.message, err.offset + lead, err.code) from None


def _orjson_error(err: Any, body: str, max_depth: int, lead: int) -> JsonSyntaxError:
    """orjson's refusal of ``body`` (read inside ``_fast``'s depth wrapper) as a
    ``JsonSyntaxError`` at its offset in the text (``lead`` characters before ``body``)."""
    pad = max(0, _ORJSON_MAX_DEPTH - max_depth)
    reason = str(err).split(": line ", 1)[0] or "invalid JSON"
    offset = min(max(0, int(getattr(err, "pos", 0)) - pad), len(body))
    return JsonSyntaxError(reason, offset + lead, "json.syntax")


def unpadded(text: str) -> tuple[str, int]:
    """``text`` without the white space around it (``formatbook_core.spans.SPACES``: JSON's
    four characters and the Unicode ones the locator strips, no control character), and
    how many characters went before it. O(1) when ``text`` neither starts nor ends with
    white space."""
    if text and (text[0] in _SPACES or text[-1] in _SPACES):
        body = text.lstrip(SPACES)
        return body.rstrip(SPACES), len(text) - len(body)
    return text, 0


def strict_value(text: str, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is strict JSON within the limits, else ``(False,
    None)``; cheap on text that is not JSON (orjson stops at the first error, and the
    exact slow path runs only for the valid documents orjson cannot represent)."""
    verdict, value = strict_reading(text, max_depth=max_depth, max_size=max_size)
    return verdict == "ok", value


def strict_reading(text: str, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> tuple[str, Any]:
    """``("ok", value)`` when ``text`` is strict JSON within the limits; ``("json.too_deep",
    None)`` when its nesting passes ``max_depth`` before anything else is wrong (found at
    that depth, whatever follows); else ``("no", None)``. As cheap as :func:`strict_value`."""
    if not isinstance(text, str) or len(text) > max_size:
        return "no", None
    if text and (text[0] in _SPACES or text[-1] in _SPACES):  # (unpadded's test, without the call)
        text = unpadded(text)[0]
    try:
        return "ok", _fast(text, max_depth)
    except _DecodeError as err:
        if not any(word in str(err) for word in _ORJSON_ONLY):
            return "no", None
    try:
        return "ok", _slow_path(text, max_depth)
    except JsonSyntaxError as err:
        return ("json.too_deep" if err.code == "json.too_deep" else "no"), None


#: Up to this many characters the brackets are counted (two searches in C) to spare the
#: depth wrapper, whose building and unpacking cost more than that on a short text.
_COUNTED = 1 << 16


def _fast(text: str, max_depth: int) -> Any:
    """orjson's value of ``text`` (integers beyond 64 bits made exact); raises orjson's
    error when it refuses the text, or when the depth wrapper is broken out of."""
    pad = _ORJSON_MAX_DEPTH - max_depth
    if pad > 0 and len(text) <= 2 * max_depth + 1:
        # A valid text nesting d containers holds d opening and d closing brackets: this
        # one nests at most max_depth, so a value orjson reads without the wrapper stands.
        # A text it refuses is read again inside the wrapper only when it holds enough
        # brackets to nest too deep (the wrapper tells that refusal from the others).
        try:
            value = _loads(text)
        except _DecodeError:
            if len(text) <= max_depth or text.count("[") + text.count("{") <= max_depth:
                raise  # the wrapper would not have been used: the same refusal
            value = _bounded(text, max_depth, pad)
    else:
        value = _bounded(text, max_depth, pad)
    if not _has_long_integer(text):
        return value
    try:  # orjson made floats of integers beyond 64 bits: the standard library keeps them
        return json.loads(text)
    except RecursionError:  # deeper than the interpreter's recursion limit
        return _build(text)


def _bounded(text: str, max_depth: int, pad: int) -> Any:
    """orjson's value of ``text``, refused past ``max_depth`` containers: read inside
    ``pad`` wrapping arrays (orjson's own limit is fixed), unless a count of the brackets
    shows it cannot nest so deep."""
    if pad <= 0 or len(text) <= max_depth or (len(text) <= _COUNTED and text.count("[") + text.count("{") <= max_depth):
        return _loads(text)  # too few brackets to nest past max_depth: no wrapper
    # Wrapping in `pad` arrays makes orjson's fixed depth limit equal to max_depth (joined:
    # one copy of the text, not two).
    value = _loads("".join(("[" * pad, text, "]" * pad)))
    # Text such as `1],[2` would close our wrapper early: each wrapper level must hold
    # exactly one element (an empty text leaves the innermost one empty).
    try:
        for _ in range(pad):
            (value,) = value  # each level a list (it opens with "["): unpacked, not len()
    except ValueError:
        raise _DecodeError("the text closes more brackets than it opens", text, 0) from None
    return value


def is_valid_json(text: str, *, max_depth: int = MAX_DEPTH, max_size: int = MAX_SIZE) -> bool:
    """True when ``text`` is one strict JSON document within the limits. Never raises."""
    try:
        parse_strict(text, max_depth=max_depth, max_size=max_size)
    except Exception:  # JsonSyntaxError, TypeError; nothing else is expected
        return False
    return True


# --- the slow path: find out exactly what is wrong (or parse what orjson cannot) --------
def _slow_path(text: str, max_depth: int) -> Any:
    """orjson refused ``text`` (or the depth wrapper did): raise the precise error, or
    return the value when the text is valid JSON orjson cannot represent."""
    if not text.strip(" \t\n\r"):
        raise JsonSyntaxError("empty document: no JSON value", len(text), "json.empty")
    from .stream import JsonChecker  # noqa: PLC0415 - the automaton, only for a text orjson refused

    checker = JsonChecker(True, max_depth=max_depth)
    status = checker.feed(text)
    if status:
        status = checker.finish()
    if not status:
        reason = status.reason or "invalid JSON"
        code = "json.too_deep" if reason.startswith("nesting deeper") else "json.syntax"
        raise JsonSyntaxError(reason, status.position if status.position is not None else len(text), code)
    # Valid, yet orjson refused it: a number beyond a double, or nesting beyond 1024.
    return _build(text)


_WS_RUN = run(r"[ \t\n\r]*").match
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?").match


def _number(token: str, is_float: bool, offset: int) -> int | float | Decimal:
    """The value of a number token: beyond a double's range (or Python's int-string
    limit) it stays exact as a ``Decimal`` rather than becoming ``inf``; an exponent
    beyond even a ``Decimal``'s is refused, not rounded."""
    if is_float:
        value = float(token)
        if value not in _INFINITIES:
            return value
    else:
        try:
            return int(token)
        except ValueError:  # longer than sys.get_int_max_str_digits()
            pass
    if beyond_range(token):
        raise JsonSyntaxError("a number too large to represent (its exponent is 10**17 or more)", offset, "json.syntax")
    return Decimal(token)


_INFINITIES = (float("inf"), float("-inf"))


def _build(text: str) -> Any:
    """Build the value of a text already known to be valid, without recursion."""
    stack: list[Any] = []  # open containers
    keys: list[Any] = []  # for each open container: the pending key (objects) or None
    expect_key = False
    result: Any = None
    i = _WS_RUN(text, 0).end()
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{" or c == "[":
            stack.append({} if c == "{" else [])
            keys.append(None)
            expect_key = c == "{"
            i += 1
        elif c == "}" or c == "]":
            value = stack.pop()
            keys.pop()
            i += 1
            if stack:
                _put(stack, keys, value)
            else:
                result = value
        elif c == ",":
            expect_key = isinstance(stack[-1], dict)
            i += 1
        elif c == ":":
            expect_key = False
            i += 1
        else:
            if c == '"':
                value, i = scanstring(text, i + 1, True)
                if expect_key:
                    keys[-1] = value
                    expect_key = False
                    i = _WS_RUN(text, i).end()
                    continue
            elif c == "t":
                value, i = True, i + 4
            elif c == "f":
                value, i = False, i + 5
            elif c == "n":
                value, i = None, i + 4
            else:
                m = _NUMBER(text, i)
                assert m is not None  # the text is known to be valid: a number starts here
                value = _number(m.group(), m.group(1) is not None or m.group(2) is not None, i)
                i = m.end()
            if stack:
                _put(stack, keys, value)
            else:
                result = value
        i = _WS_RUN(text, i).end()
    return result


def _put(stack: list[Any], keys: list[Any], value: Any) -> None:
    top = stack[-1]
    if type(top) is list:
        top.append(value)
    else:
        top[keys[-1]] = value
