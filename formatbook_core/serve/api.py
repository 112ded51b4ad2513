"""What the playground's JSON endpoints answer: a check, a replayed stream, the examples.

Plain functions of plain data (the request's JSON), so that they are tested without a
server. EXPECT text comes from the page, so it is data: it may name schema files inside
the examples folder only (``confine``), never fetch.
"""

from __future__ import annotations

import glob
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..batch.record import verdict_record
from ..cli.common import expect_lines_text
from ..cli.render import limits_by_key
from ..expectations import Expectations, parse_expectations
from ..pipeline import check
from ..prompting import guidance
from ..report.highlight import Mark, highlight, legend, marks_of
from ..streaming import StreamGuard

#: the largest chunk a replay feeds, and the most feeds one replay makes
MAX_CHUNK = 4096
MAX_FEEDS = 20_000


class RequestError(ValueError):
    """The request was wrong (answered with status 400 and the message)."""


def _text(body: Mapping[str, Any], name: str, *, lines: bool = False) -> str:
    value = body.get(name, "")
    if lines and isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "\n".join(value)
    if not isinstance(value, str):
        raise RequestError(f"{name!r} must be a string" + (" or a list of strings" if lines else ""))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # JSON's "\ud800": no character, so no text to check
        raise RequestError(f"{name!r} holds a lone surrogate at {exc.start}: it is not text") from None
    return value


def expectations_of(body: Mapping[str, Any], base_dir: Path | None) -> Expectations:
    """The request's ``expect`` lines, confined to ``base_dir`` (an ``ExpectationError`` when bad)."""
    text = expect_lines_text([_text(body, "expect", lines=True)])
    if base_dir is None:  # no folder to read schema files from: none may be named
        return parse_expectations(text, base_dir=Path("/nonexistent-formatbook-playground"), confine=True)
    return parse_expectations(text, base_dir=base_dir, confine=True)


def check_request(body: Mapping[str, Any], base_dir: Path | None) -> dict[str, Any]:
    """``{"reply", "expect"}`` -> the verdict record, the reply marked, the guidance, the limits."""
    reply = _text(body, "reply")
    exp = expectations_of(body, base_dir)
    result = check(reply, exp)
    record = dict(verdict_record(result, exp))
    marks = marks_of(record)
    return {
        **record,
        "marked": highlight(reply, marks),
        "legend": legend(marks),
        "guidance": guidance(exp),
        "limits": limits_by_key(exp),
    }


def stream_request(body: Mapping[str, Any], base_dir: Path | None) -> dict[str, Any]:
    """``{"reply", "expect", "chunk"}`` -> the reply fed to a ``StreamGuard`` ``chunk``
    characters at a time: where it would have stopped (and why), or the final verdict."""
    reply = _text(body, "reply")
    chunk = body.get("chunk", 16)
    if not isinstance(chunk, int) or isinstance(chunk, bool) or not 1 <= chunk <= MAX_CHUNK:
        raise RequestError(f"'chunk' must be a whole number from 1 to {MAX_CHUNK}")
    chunk = max(chunk, math.ceil(len(reply) / MAX_FEEDS))  # a long reply in at most MAX_FEEDS pieces
    exp = expectations_of(body, base_dir)
    guard = StreamGuard(exp)
    feeds = 0
    for start in range(0, len(reply), chunk):
        feeds += 1
        status = guard.feed(reply[start : start + chunk])
        if not status:
            fed = min(start + chunk, len(reply))
            return {
                "stopped": True,
                "chunk": chunk,
                "feeds": feeds,
                "of": math.ceil(len(reply) / chunk),
                "fed": fed,
                "length": len(reply),
                "reason": status.reason,
                "position": status.position,
                "marked": _stop_marked(reply, fed, status.position, status.reason or ""),
            }
    result = guard.finish()
    return {
        "stopped": False,
        "chunk": chunk,
        "feeds": feeds,
        "of": feeds,
        "fed": len(reply),
        "length": len(reply),
        "verdict": result.verdict,
        "ok": result.ok,
        "marked": highlight(reply, []),
    }


def _stop_marked(reply: str, fed: int, position: int | None, reason: str) -> str:
    """The reply with what the stream never read greyed out and the stop position marked."""
    marks = [Mark(1, "a", "not read", "the stream stopped before this", fed, len(reply))]
    if position is not None and 0 <= position <= fed:
        marks.append(Mark(2, "v", "stopped", reason, position, min(position + 1, fed)))
    return highlight(reply, marks)


def examples(folder: Path | None) -> dict[str, tuple[Path, Path]]:
    """The examples of ``folder``: ``NAME`` -> (its reply file, its ``NAME.expect``)."""
    if folder is None or not folder.is_dir():
        return {}
    found: dict[str, tuple[Path, Path]] = {}
    for expect in sorted(folder.glob("*.expect")):
        replies = [
            p for p in sorted(folder.glob(f"{glob.escape(expect.stem)}.*")) if p.suffix != ".expect" and p.is_file()
        ]
        if replies:
            found[expect.stem] = (replies[0], expect)
    return found


def example_request(name: str, known: Mapping[str, tuple[Path, Path]]) -> dict[str, Any]:
    """One example's reply and EXPECT lines (a ``RequestError`` for a name not listed)."""
    if name not in known:
        raise RequestError(f"no example {name!r}")
    reply, expect = known[name]
    return {
        "name": name,
        "reply": reply.read_text(encoding="utf-8", errors="replace"),
        "expect": expect.read_text(encoding="utf-8", errors="replace"),
    }
