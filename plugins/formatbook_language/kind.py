"""The LANGUAGE expectation kind: ``EXPECT LANGUAGE de`` (ISO 639-1).

The whole reply is judged, once it is complete: a language cannot be told from a prefix
(a German reply may open with an English name), so :meth:`LanguageInstruction.stream`
gives ``None`` and a streamed reply is judged at ``finish()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from formatbook_core.results import ExpectationError, Violation

from .detect import detect, require_detector, supported, unsupported_reason
from .names import NAMES

__all__ = ["LanguageKind", "LanguageInstruction"]


@dataclass(frozen=True)
class LanguageInstruction:
    """The reply is written in ``code`` (an ISO 639-1 code the detector supports)."""

    code: str
    #: A language is judged on the whole text only, never on the values alone.
    also_values: ClassVar[str | None] = None

    def describe(self) -> str:
        return f"LANGUAGE {self.code}"

    def guidance(self) -> str:
        return f"Write your entire reply in {NAMES.get(self.code, self.code)}, no other language."

    def stream(self) -> None:
        return None  # judged on the whole reply, at finish()

    def check(self, text: str) -> list[Violation]:
        found = detect(text, self.code)
        name = NAMES.get(self.code, self.code)
        if found.code is None:
            return [
                Violation(
                    "language.unknown",
                    f"cannot tell the reply's language (no letters to read); expected {name}",
                    keyword="language",
                    expected=self.code,
                )
            ]
        if found.code != self.code:
            other = NAMES.get(found.code, found.code)
            return [
                Violation(
                    "language.mismatch",
                    f"written in {other} ({found.code}, confidence {found.confidence:.2f}) instead of {name} "
                    f"({self.code})",
                    keyword="language",
                    expected=self.code,
                )
            ]
        return []


class LanguageKind:
    """``LANGUAGE <code>``: the reply's natural language, detected by lingua."""

    phrase = "language"
    description = "the reply is written in one language, by ISO 639-1 code (LANGUAGE de)"

    def parse(self, args: list[Any], line: str) -> LanguageInstruction:
        if len(args) != 1:
            raise ExpectationError(f"{line!r}: expected one ISO 639-1 code, e.g. 'EXPECT LANGUAGE de'", line)
        code = str(args[0]).strip().lower()
        reason = unsupported_reason(code)
        if reason is not None:
            by_name = {name.lower(): key for key, name in NAMES.items()}
            if code in by_name:  # "LANGUAGE german": the code is what the line wants
                raise ExpectationError(
                    f"{line!r}: a language is named by its ISO 639-1 code (did you mean {by_name[code]}?)",
                    line,
                    f"LANGUAGE {by_name[code]}",
                )
            raise ExpectationError(f"{line!r}: {reason}", line)
        require_detector(line)
        return LanguageInstruction(code)


def language_instruction(code: str) -> LanguageInstruction:
    """``LanguageInstruction(code)`` for a supported code; ``ExpectationError`` otherwise."""
    if not supported(code):
        raise ExpectationError(unsupported_reason(code) or f"cannot judge {code!r}")
    require_detector()
    return LanguageInstruction(code)
