"""Steps ``write`` and ``confirm``: the lines written as RFC 5545 text (CRLF, every line
over 75 octets folded; a line healing did not touch keeps its own folds when they fit),
and the result checked: healing that does not give a valid calendar raises."""

from __future__ import annotations

from formatbook_core import HealError, Violation
from formatbook_core.limits import MAX_DEPTH, limits_from

from .. import validate
from ..contentlines import CRLF, FOLD_OCTETS, fold, octets
from .state import Healing


def write(h: Healing) -> None:
    parts: list[str] = []
    for line in h.lines:
        raw = line.raw
        if raw is not None:
            if all(octets(piece) <= FOLD_OCTETS for piece in raw.split(CRLF)):
                parts.append(raw)
                continue
            h.repair("folded", f"a line of {octets(line.text)} octets folded at 75", line.start, line.end)
        parts.append(fold(line.text))
    # the last line ends with CRLF when the text given ended with a line break: a located
    # payload (white space around it stripped) heals to text that locates to itself
    h.output = CRLF.join(parts) + (CRLF if h.text[-1:] in ("\n", "\r") else "")


def confirm(h: Healing) -> None:
    analysis = validate.analyze(h.output, h.schema, 0, MAX_DEPTH)
    if analysis.violations:
        first = analysis.violations[0]
        raise HealError(
            f"cannot heal the calendar: {first.message}",
            [
                Violation(v.code, v.message, path=v.path, keyword=v.keyword, expected=v.expected)
                for v in analysis.violations
            ],
        )
    # the same analysis as the one the options ask for when their limits make no
    # difference: handed back (Healed.analysis), the healed text is not read again
    limits = limits_from(h.options)
    if limits.max_depth == MAX_DEPTH and len(h.output) <= limits.max_size:
        h.analysis = analysis
