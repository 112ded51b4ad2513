"""Checking Flex-MD syntax: :func:`validate_flex_md`."""

from __future__ import annotations

from .convert import read_payload
from .model import FlexIssue, FlexValidation
from .parse import FrameScan


def validate_flex_md(text: str, *, meta_anywhere: bool = False) -> FlexValidation:
    """Check Flex-MD syntax: ``unterminated_frame`` (``[[message role=user`` with no
    ``]]``, or an unclosed quoted value), ``bad_frame_header``, ``dangling_payload``
    (``@payload:name:`` with no fenced block after it), ``unterminated_fence``,
    ``bad_payload_declaration`` — errors — and ``payload_parse_error`` (a JSON or table
    payload that does not parse) and ``duplicate_payload`` — warnings. A broken header
    without any ``key=value`` (``[[wiki link]]``) is a ``bad_frame_header`` warning; with
    one it is an error. Broken headers are read as body text. Each issue has its 1-based line number. Never
    raises on any ``str``."""
    if not isinstance(text, str):
        raise TypeError(f"validate_flex_md reads str, not {type(text).__name__}")
    scan = FrameScan(text, meta_anywhere)
    frames = scan.run()
    issues = list(scan.issues)
    for _header, _number, events in frames:
        seen: set[str] = set()
        for event in events:
            if event[0] != "payload":
                continue
            _, line, name, lang, raw = event
            if name in seen:
                issues.append(
                    FlexIssue(
                        "duplicate_payload", f"payload {name!r} is bound twice; the last block wins", line, "warning"
                    )
                )
            seen.add(name)
            payload = read_payload(lang, raw)
            if payload.parse_error:
                issues.append(
                    FlexIssue("payload_parse_error", f"payload {name!r}: {payload.parse_error}", line, "warning")
                )
    issues.sort(key=lambda i: i.line)
    return FlexValidation(ok=not any(i.severity == "error" for i in issues), issues=issues)
