"""Step ``structure``: ``BEGIN``/``END`` made to balance — bare components wrapped in a
``VCALENDAR``, an ``END`` that skips open components closes them first, an ``END`` that
closes nothing removed, components left open by a cut-off reply closed at the end.

Components nested deeper than ``max_depth`` (the core's limit, 1,000 by default) are
refused (``icalendar.too_deep``) at the ``BEGIN`` that passes it, before any later step
works on them: the depth counted is the healed calendar's (an ``END`` that skips open
components closes them here, where the validator, reading the reply as it stands, keeps
them open)."""

from __future__ import annotations

from formatbook_core import HealError, Span, Violation
from formatbook_core.limits import limits_from

from .. import rules
from ..contentlines import ContentLine
from .state import Healing, Line, new_line


def _begin(name: str, at: int) -> Line:
    return new_line(ContentLine("BEGIN", (), name), at)


def _end(name: str, at: int) -> Line:
    return new_line(ContentLine("END", (), name), at)


def balance(h: Healing) -> None:
    lines = h.lines
    if not lines:
        raise HealError("no iCalendar content", [Violation("icalendar.empty", "no content line to heal")])
    roots = [ln.parts.value.upper() for ln in _top_level(lines) if ln.parts is not None]
    if "VCALENDAR" not in roots:
        if roots and not all(r in rules.WRAPPABLE or r.startswith("X-") for r in roots):
            raise HealError(
                "cannot tell what calendar this is",
                [
                    Violation(
                        "icalendar.no_calendar",
                        f"top-level components {sorted(set(roots))} are not calendar components",
                    )
                ],
            )
        if not roots:
            raise HealError("no component to heal", [Violation("icalendar.empty", "no BEGIN line in the text")])
        # END:VCALENDAR is added at the end, after whatever a cut-off reply left open
        lines.insert(0, _begin("VCALENDAR", lines[0].start))
        h.repair("wrapped", "the bare component(s) wrapped in BEGIN:VCALENDAR … END:VCALENDAR", 0, 0)
        wrapped = True
    else:
        wrapped = False
    out: list[Line] = []
    stack: list[str] = []
    max_depth = limits_from(h.options).max_depth
    for line in lines:
        p = line.parts
        assert p is not None
        if p.name == "BEGIN":
            if len(stack) >= max_depth:
                message = f"components nested deeper than {max_depth} levels"
                raise HealError(
                    f"cannot heal the calendar: {message}",
                    [Violation("icalendar.too_deep", message, span=Span(line.start, line.end))],
                )
            stack.append(p.value.upper())
        elif p.name == "END":
            name = p.value.upper()
            if name not in stack:
                h.repair("stray_end", f"END:{p.value} closes no open component: removed", line.start, line.end)
                continue
            while stack[-1] != name:
                closed = stack.pop()
                out.append(_end(closed, line.start))
                h.repair("closed_component", f"END:{closed} added before END:{name}", line.start, line.start)
            stack.pop()
        elif not stack:
            raise HealError(
                "a property outside every component",
                [Violation("icalendar.structure", f"property {p.name} outside every component")],
            )
        out.append(line)
    end = h.lines[-1].end
    while stack:
        name = stack.pop()
        out.append(_end(name, end))
        if not (wrapped and not stack):  # the wrapper's own END is part of "wrapped"
            h.repair("truncated_component", f"END:{name} added: the reply ended inside it", end, end)
    h.lines = out


def _top_level(lines: list[Line]) -> list[Line]:
    out = []
    depth = 0
    for line in lines:
        p = line.parts
        if p is None:
            continue
        if p.name == "BEGIN":
            if depth == 0:
                out.append(line)
            depth += 1
        elif p.name == "END":
            depth = max(0, depth - 1)
    return out
