"""The ``text`` format: any text is valid, and its value is the text itself (without a
``<think>`` block that opens the reply, which is set aside)."""

from __future__ import annotations

from typing import Any

from formatbook_core import BaseFormat, Reply, Span, StreamStatus, hookimpl
from formatbook_core.textlog import TextLog


class TextChecker:
    """Incremental checker for plain text: every chunk is fine; the whole text is one
    open value while it streams."""

    def __init__(self) -> None:
        self._log = TextLog()  # copies share the text fed before them: copy() is O(1)

    def feed(self, chunk: str) -> StreamStatus:
        self._log.append(chunk)
        return StreamStatus(True, open=chunk)

    def copy(self) -> TextChecker:
        clone = TextChecker.__new__(TextChecker)
        clone._log = self._log.copy()
        return clone

    def finish(self) -> StreamStatus:
        text = self._log.text()
        return StreamStatus(True, complete=True, values=(text,) if text.strip() else ())


class TextFormat(BaseFormat):
    """Plain text. Valid whatever it holds; counts run on the whole text."""

    name = "text"
    whole_reply_locate = True  # the reply is the payload (Reply.whole_payload)
    aliases = ("txt", "plain", "plaintext")
    mime_types = ("text/plain",)
    description = "Any text; its value is the text itself."
    samples = ("Hello world.", "Two lines\nof text.\n", "")
    structured = False  # the text is the value: no syntax to discount when counting

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        return isinstance(value, str)

    def validate(self, value: str, schema: Any = None, **options: Any) -> list:
        return []

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        return True

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return [value] if value.strip() else []

    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        # the model's reasoning is no part of its answer (StreamGuard sets it aside too)
        return [Reply.of(reply).whole_payload()]

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> TextChecker:
        return TextChecker()

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return "Reply in plain text."


@hookimpl
def register_formats(register):
    register(TextFormat())
