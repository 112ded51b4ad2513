"""A reply cut off before its end: an open quoted string is closed, open flow collections
are closed; when that is not enough, the incomplete last line is dropped. Each is a
listed repair of kind ``truncated_*`` (the pipeline's convention for a cut-off end)."""

from __future__ import annotations

from ..lines import scan
from ..syntax import scanner_options
from .state import Healing


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
            h.edit([(end, end, added)])
            if h.reread().violation is None:
                return
            h.text = text
            del h.maps[maps:]
            del h.repairs[-(bool(scanner.quote) + bool(scanner.flow)) :]
    reading = h.reread()
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
            h.repair("truncated_line", "dropped the incomplete last line", cut + 1, len(previous))
            h.edit([(len(candidate), len(previous), "")])
            h.reread()
            return
        h.text = previous
    h.reread()
