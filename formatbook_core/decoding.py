"""Bytes to reply text: the one decoder the pipeline and the command line share.

A reply is UTF-8; a leading byte-order mark is dropped. Bytes that are not UTF-8 are a
``reply.encoding`` violation naming the byte offset, never an exception. A ``str`` reply
opening with the mark (U+FEFF) keeps it, offsets count it: what reads the start of the text
skips it with :func:`bom_length` (the one definition of the mark).
"""

from __future__ import annotations

from .results import Span, Violation

#: The byte order mark: at the start of a text, no character of the reply.
BOM = "\ufeff"
_BOM = BOM.encode("utf-8")


def bom_length(text: str) -> int:
    """1 when ``text`` opens with a byte order mark (U+FEFF), else 0: the characters a
    reader of the text's start skips (as :func:`decode_reply` drops the mark from bytes)."""
    return 1 if text.startswith(BOM) else 0


def decode_reply(data: bytes | bytearray | memoryview) -> tuple[str, Violation | None]:
    """``(text, None)`` for UTF-8 bytes, else ``(text with U+FFFD, violation)``.

    The violation's span is the offending byte's offset in ``data`` (the BOM counted).
    """
    raw = bytes(data)
    skipped = len(_BOM) if raw.startswith(_BOM) else 0
    body = raw[skipped:]
    try:
        return body.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        offset = exc.start + skipped
        message = f"the reply is not UTF-8: byte 0x{body[exc.start]:02x} at byte offset {offset} ({exc.reason})"
        violation = Violation(
            "reply.encoding", message, span=Span(offset, offset + 1), keyword="encoding", expected="UTF-8"
        )
        return body.decode("utf-8", errors="replace"), violation
