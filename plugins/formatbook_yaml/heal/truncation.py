"""A reply cut off before its end: an open quoted string is closed, open flow collections
are closed; when that is not enough, the incomplete last line is dropped. Each is a
listed repair of kind ``truncated_*`` (the pipeline's convention for a cut-off end).

A last line is dropped only when a cut explains it: some continuation of that line
(:data:`CONTINUATIONS`) reads as valid YAML. ``  -3`` under ``- 1`` / ``- 2`` is complete
as written (no continuation fixes it: the writer meant ``- 3``), so dropping it would
pass the list without its last item. And a cut-off line right under a key with no value
(``Answer:`` over ``42``) has two readings — the next key cut short, or the key's value
written at the key's margin — so it fails with ``yaml.ambiguous`` rather than passing
the key as ``null``."""

from __future__ import annotations

from formatbook_core import HealError, Span, Violation

from ..lines import scan
from ..syntax import read, scanner_options
from .state import AFTER_TRUNCATION, Healing

#: What a cut-off last line may have been about to say: a key's colon and value, more
#: characters of a word (an anchor name, a key), or a word and its colon.
CONTINUATIONS = (": x", "x", "x: x")


def repair_end(h: Healing) -> None:
    text = h.text
    end = len(text.rstrip("\n"))
    scanner = scan(text, **scanner_options(h.options, h.max_depth))
    if scanner.error is None:
        added = ""
        if scanner.quote:
            added += scanner.quote
            h.repair("truncated_string", "closed a quoted string cut off at the end", end, end)
        if scanner.flow:
            closers = "".join("]" if c == "[" else "}" for c in reversed(scanner.flow))
            added += closers
            h.repair("truncated_flow", f"closed {len(scanner.flow)} flow collection(s) cut off at the end", end, end)
        if added:
            maps = len(h.maps)
            h.edit([(end, end, added)], ahead=AFTER_TRUNCATION)
            if h.reread().violation is None:
                return
            h.text = text
            del h.maps[maps:]
            del h.repairs[-(bool(scanner.quote) + bool(scanner.flow)) :]
    reading = h.reread(worded=True)
    if reading.violation is not None and reading.violation.code == "yaml.duplicate_key":
        return  # a repeated key is written whole: no cut-off end explains it
    stripped = h.text.rstrip("\n")
    cut = stripped.rfind("\n")
    if cut < 0:
        h.reread()
        return
    candidate = stripped[:cut].rstrip()
    if candidate.strip():
        previous = h.text
        h.text = candidate
        if h.reread().violation is None:
            h.text = previous
            _refuse_unless_cut_off(h, stripped, cut)
            h.repair("truncated_line", "dropped the incomplete last line", cut + 1, len(previous))
            h.edit([(len(candidate), len(previous), "")], ahead=AFTER_TRUNCATION)
            h.reread()
            return
        h.text = previous
    h.reread()


def _refuse_unless_cut_off(h: Healing, stripped: str, cut: int) -> None:
    """Raise ``HealError`` (``yaml.ambiguous``) unless dropping the last line of
    ``stripped`` (it starts at ``cut + 1``) is the only reading: a cut-off line that no
    key with an empty value stands right above."""
    last = stripped[cut + 1 :]
    span = Span(h.back(cut + 1), h.back(len(stripped)))
    if not any(read(stripped + more, h.options, h.max_depth, worded=False).violation is None for more in CONTINUATIONS):
        v = Violation(
            "yaml.ambiguous",
            f"the last line {last.strip()!r} is not valid YAML and no cut-off end explains it (no "
            "continuation of it is valid): dropping it would lose what it says; write it as YAML",
            span=span,
        )
        raise HealError(f"cannot heal YAML: {v.message}", [v])
    above = _line_above(stripped, cut)
    if above is not None and _opens_a_value(above):
        v = Violation(
            "yaml.ambiguous",
            f"the last line {last.strip()!r} under {above.strip()!r} reads two ways: the value of that "
            "key written at its margin, or a next key cut off (dropping it would give the key no "
            "value); indent the value under its key",
            span=span,
        )
        raise HealError(f"cannot heal YAML: {v.message}", [v])


def _line_above(text: str, end: int) -> str | None:
    """The last line of ``text[:end]`` holding more than white space or a comment."""
    for line in reversed(text[:end].split("\n")):
        body = line.rstrip("\r")
        if body.strip() and not body.lstrip().startswith("#"):
            return body
    return None


def _opens_a_value(line: str) -> bool:
    """``key:`` or ``- key:`` or a bare ``-``: a node whose value the next lines give."""
    body = line.split(" #", 1)[0].rstrip()
    return body.endswith(":") or body.lstrip() == "-"
