"""The ``text`` format: any text is valid, and its value is the text itself."""

from __future__ import annotations

from typing import Any

from formatbook_core import BaseFormat, Span, StreamStatus, hookimpl


class TextChecker:
    """Incremental checker for plain text: every chunk is fine; the whole text is one
    open value while it streams."""

    def __init__(self) -> None:
        self._parts: list[str] = []

    def feed(self, chunk: str) -> StreamStatus:
        self._parts.append(chunk)
        return StreamStatus(True, open=chunk)

    def copy(self) -> TextChecker:
        clone = TextChecker()
        clone._parts = list(self._parts)
        return clone

    def finish(self) -> StreamStatus:
        text = "".join(self._parts)
        return StreamStatus(True, complete=True, values=(text,) if text.strip() else ())


class TextFormat(BaseFormat):
    """Plain text. Valid whatever it holds; counts run on the whole text."""

    name = "text"
    whole_reply_locate = True  # the reply is the payload: nothing is taken out
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
        # The whole reply is the text: nothing is ever taken out of it.
        return [Span(0, len(reply))]

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> TextChecker:
        return TextChecker()

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return "Reply in plain text."


@hookimpl
def register_formats(register):
    register(TextFormat())
