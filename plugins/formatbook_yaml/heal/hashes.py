"""``color: #ff0000``: a value starting with ``#`` glued to text, under which no nested
value follows. YAML reads a comment and gives the key no value; the writer meant the
text. The line scanner finds each such ``#`` (:attr:`~..lines.LineScanner.hashes`),
and this step quotes the text from it to the line end (or to a comment after it),
listing each as a ``quoted_scalar`` repair. ``tags: #python #yaml`` is one value: only
a ``#`` not glued to text starts a comment after it (``color: #ff0000 # red``)."""

from __future__ import annotations

from ..lines import scan
from ..syntax import scanner_options
from .lines import _quote
from .state import AFTER_HASHES, Healing


def quote_hashed_values(h: Healing) -> None:
    text = h.text
    found = scan(text, collect_hashes=True, **scanner_options(h.options, h.max_depth)).hashes or []
    edits: list[tuple[int, int, str]] = []
    for at in found:
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        value = text[at:end].rstrip("\r")
        value = value[: _comment(value)].rstrip(" \t")
        h.repair(
            "quoted_scalar",
            f"quoted {value!r}: YAML reads a '#' glued to text as a comment and leaves the key with no value",
            at,
            at + len(value),
        )
        edits.append((at, at + len(value), _quote(value)))
    if edits:
        h.edit(edits, ahead=AFTER_HASHES)
        h.reread()


def _comment(value: str) -> int:
    """Where a comment starts in ``value`` (its length: none): ``' #'`` followed by
    white space or the end, not by text."""
    at = value.find(" #", 1)
    while at >= 0:
        if at + 2 >= len(value) or not value[at + 2].isalnum():
            return at
        at = value.find(" #", at + 2)
    return len(value)
