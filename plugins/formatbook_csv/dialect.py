"""The delimiter: the option ``delimiter`` (one character, ``","`` by default, ``"\\t"`` for
the ``tsv`` alias), or ``"auto"``: detected from the header line alone (so that the
incremental checker, which has only seen the header when it must decide, decides as
``is_valid`` does) as the candidate among :data:`CANDIDATES` that occurs most often outside
quotes, ties going to the earlier candidate."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

CANDIDATES = (",", "\t", ";", "|")
AUTO = "auto"
_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe", " ": "space"}
#: a quote or a line break: where the header line's reading has something to decide
QUOTE_OR_BREAK = re.compile(r'["\r\n]')
_ALIASES = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}


def option(options: Mapping[str, Any]) -> str:
    """The delimiter the options ask for: one character, or ``"auto"``."""
    value = options.get("delimiter", ",")
    if not isinstance(value, str) or not value:
        return ","
    return _ALIASES.get(value.lower(), value) if len(value) > 1 else value


def check_option(value: Any) -> str | None:
    """Why ``value`` cannot be a delimiter (for the option's declaration), else ``None``."""
    if not isinstance(value, str):
        return "must be text"
    value = _ALIASES.get(value.lower(), value) if len(value) > 1 else value
    if value == AUTO:
        return None
    if len(value) != 1:
        return 'must be one character, "tab" or "auto"'
    if value in '"\r\n':
        return "cannot be a quote or a line break"
    return None


def name(delimiter: str) -> str:
    """``comma``, ``tab``... for messages."""
    return _NAMES.get(delimiter, repr(delimiter))


def header_line_end(text: str, start: int = 0) -> int:
    """The offset of the first line break outside quotes (a quote opens where a field may
    start under any candidate), or -1 when the header line has not ended."""
    n = len(text)
    i = start
    at_start = True
    search = QUOTE_OR_BREAK.search
    while True:  # from quote to quote: what lies between is looked at by the engine
        m = search(text, i)
        if m is None:
            return -1
        j = m.start()
        if j > i:
            at_start = text[j - 1] in CANDIDATES
        if text[j] != '"':
            return j
        if not at_start:  # a quote inside a field: a character of it
            i = j + 1
            continue
        k = j + 1
        while True:  # to the closing quote, past doubled ones
            k = text.find('"', k)
            if k < 0:
                return -1
            if k + 1 < n and text[k + 1] == '"':
                k += 2
                continue
            break
        at_start = False
        i = k + 1


def count_outside_quotes(header: str, *, blank_opens_field: bool = False) -> dict[str, int]:
    """How often each candidate delimiter appears in ``header`` outside quoted fields (a
    quote opens a field only at its start; ``blank_opens_field``: also after a space or tab,
    as healing reads a header written with spaces after its delimiters)."""
    if '"' not in header:  # nothing quoted: every one counts
        return {c: header.count(c) for c in CANDIDATES}
    counts = dict.fromkeys(CANDIDATES, 0)
    quoted = False
    at_start = True
    for ch in header:
        if quoted:
            if ch == '"':
                quoted = False
            continue
        if ch == '"' and at_start:
            quoted = True
            continue
        if ch in counts:
            counts[ch] += 1
        at_start = ch in counts or (blank_opens_field and ch in " \t")
    return counts


def detect(header: str) -> str:
    """The delimiter of a header line: the candidate seen most often outside quotes."""
    counts = count_outside_quotes(header)
    best = max(CANDIDATES, key=lambda c: (counts[c], -CANDIDATES.index(c)))
    return best if counts[best] else ","


def resolve(text: str, options: Mapping[str, Any]) -> str:
    """The delimiter for ``text``: the option's, or the one detected on its header line."""
    wanted = option(options)
    if wanted != AUTO:
        return wanted
    end = header_line_end(text)
    return detect(text if end < 0 else text[:end])
