"""A small, correct format used to test the contract suite itself: a run of ASCII digits.

Valid: one or more digits, nothing else. Healing deletes every other character (each
deletion a repair) and fails when no digit is left. The strict checker rejects the first
non-digit; the relaxed one accepts anything and decides at ``finish``.
"""

from __future__ import annotations

from typing import Any

from formatbook_core import BaseFormat, Healed, HealError, Repair, Span, StreamStatus, Violation


class DigitsChecker:
    def __init__(self, strict: bool):
        self.strict = strict
        self.fed = 0
        self.digits = 0
        self.failed_at: int | None = None

    def feed(self, chunk: str) -> StreamStatus:
        for i, ch in enumerate(chunk):
            if ch.isascii() and ch.isdigit():
                self.digits += 1
            elif self.strict and self.failed_at is None:
                self.failed_at = self.fed + i
        self.fed += len(chunk)
        if self.failed_at is not None:
            return StreamStatus(False, "not a digit", self.failed_at)
        return StreamStatus(True)

    def copy(self) -> DigitsChecker:
        clone = DigitsChecker(self.strict)
        clone.fed, clone.digits, clone.failed_at = self.fed, self.digits, self.failed_at
        return clone

    def finish(self) -> StreamStatus:
        if self.failed_at is not None:
            return StreamStatus(False, "not a digit", self.failed_at)
        if not self.digits:
            return StreamStatus(False, "no digits", self.fed)
        return StreamStatus(True, complete=True)


class Digits(BaseFormat):
    name = "digits"
    aliases = ("num",)
    mime_types = ("text/x-digits",)
    samples = ("0", "12345", "007")

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        for i, ch in enumerate(value):
            if not (ch.isascii() and ch.isdigit()):
                return [Violation("digits.char", f"{ch!r} is not a digit", span=Span(i, i + 1))]
        if not value:
            return [Violation("digits.empty", "no digits", span=Span(0, 0))]
        return []

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        return all(ch.isascii() and ch.isdigit() for ch in partial)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        kept = "".join(ch for ch in value if ch.isascii() and ch.isdigit())
        if not kept:
            raise HealError("no digits to keep", self.validate(value))
        repairs = tuple(
            Repair("removed", f"removed {ch!r}", Span(i, i + 1))
            for i, ch in enumerate(value)
            if not (ch.isascii() and ch.isdigit())
        )
        return Healed(kept, repairs)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return [value] if self.is_valid(value, schema, **options) else []

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> DigitsChecker:
        return DigitsChecker(strict)
