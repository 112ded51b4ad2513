"""IFEval instructions as EXPECT lines (formatbook's definitions) or as instruction
objects that apply IFEval's own definitions (:mod:`.reference`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..results import ExpectationError, Violation
from .ids import INSTRUCTIONS
from .reference import check_instruction

__all__ = ["expect_lines", "IfevalInstruction", "language_verdict"]

_ONE_OF = ("My answer is yes.", "My answer is no.", "My answer is maybe.")


def _q(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _limit(relation: str, amount: int, noun: str) -> str:
    if relation == "at least":
        return f"MIN {amount} {noun}"
    if relation == "less than":
        if amount <= 0:
            raise ExpectationError(f"'less than {amount}' can never be followed")
        return f"MAX {amount - 1} {noun}"
    raise ExpectationError(f"relation must be 'less than' or 'at least', not {relation!r}")


_LINES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "existence": lambda kw: [f"EXPECT CONTAINS {_q(k)}" for k in kw["keywords"]],
    "frequency": lambda kw: ["EXPECT " + _limit(kw["relation"], kw["frequency"], _q(kw["keyword"].strip()))],
    "forbidden_words": lambda kw: [f"EXPECT NOT CONTAINS {_q(w)}" for w in kw["forbidden_words"]],
    # a one-character literal matches every occurrence, as IFEval counts a letter
    "letter_frequency": lambda kw: [
        "EXPECT " + _limit(kw["let_relation"], kw["let_frequency"], _q(kw["letter"].strip()))
    ],
    "response_language": lambda kw: [f"EXPECT LANGUAGE {kw['language']}"],
    "number_sentences": lambda kw: ["EXPECT " + _limit(kw["relation"], kw["num_sentences"], "SENTENCES")],
    "number_paragraphs": lambda kw: [f'EXPECT EXACTLY {kw["num_paragraphs"]} PARAGRAPHS SEPARATED BY "***"'],
    "number_words": lambda kw: ["EXPECT " + _limit(kw["relation"], kw["num_words"], "WORDS")],
    "nth_paragraph_first_word": lambda kw: [
        f"EXPECT EXACTLY {kw['num_paragraphs']} PARAGRAPHS",
        f"EXPECT PARAGRAPH {kw['nth_paragraph']} STARTS WITH {_q(kw['first_word'])}",
    ],
    "number_placeholders": lambda kw: [f"EXPECT MIN {kw['num_placeholders']} PLACEHOLDERS"],
    "postscript": lambda kw: [f"EXPECT POSTSCRIPT {_q(kw['postscript_marker'].strip())}"],
    "number_bullet_lists": lambda kw: [f"EXPECT EXACTLY {kw['num_bullets']} BULLETS"],
    "constrained_response": lambda kw: ["EXPECT ONE OF " + " | ".join(_q(o) for o in _ONE_OF)],
    "number_highlighted_sections": lambda kw: [f"EXPECT MIN {kw['num_highlights']} HIGHLIGHTS"],
    "multiple_sections": lambda kw: [
        f"EXPECT MIN {kw['num_sections']} SECTIONS MARKED {_q(kw['section_spliter'].strip())}"
    ],
    "json_format": lambda kw: ["EXPECT JSON"],
    "title": lambda kw: ["EXPECT TITLE"],
    "two_responses": lambda kw: ['EXPECT EXACTLY 2 RESPONSES SEPARATED BY "******"'],
    "repeat_prompt": lambda kw: [f"EXPECT STARTS WITH {_q(kw['prompt_to_repeat'].strip())}"],
    "end_checker": lambda kw: [f"EXPECT ENDS WITH {_q(kw['end_phrase'].strip())}"],
    "capital_word_frequency": lambda kw: [
        "EXPECT " + _limit(kw["capital_relation"], kw["capital_frequency"], "CAPITAL WORDS")
    ],
    "english_capital": lambda kw: ["EXPECT CASE upper", "EXPECT LANGUAGE en"],
    "english_lowercase": lambda kw: ["EXPECT CASE lower", "EXPECT LANGUAGE en"],
    "no_comma": lambda kw: ['EXPECT MAX 0 ","'],
    "quotation": lambda kw: ["EXPECT QUOTED"],
}


def expect_lines(instruction_id: str, kw: dict[str, Any]) -> list[str]:
    """The EXPECT lines that state one IFEval instruction with formatbook's definitions.

    >>> expect_lines("punctuation:no_comma", {})
    ['EXPECT MAX 0 ","']
    """
    if instruction_id not in INSTRUCTIONS:
        raise ExpectationError(f"unknown IFEval instruction id {instruction_id!r}")
    return _LINES[instruction_id.split(":", 1)[1]](kw)


def _devanagari(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    inside = sum(1 for ch in letters if 0x0900 <= ord(ch) <= 0x097F)
    return bool(letters) and inside / len(letters) > 0.5


def language_verdict(text: str, code: str, registry: Any = None) -> bool | None:
    """Is ``text`` in ``code``? ``None`` when no language can be told (no letters).

    Asks the registered ``LANGUAGE`` kind; Nepali, which it refuses, is judged by its
    script (Devanagari) here, since IFEval's data asks for it.
    """
    from ..expectations import parse_instruction  # noqa: PLC0415 - the kinds registry loads plugins

    if code == "ne":
        return _devanagari(text) if any(ch.isalpha() for ch in text) else None
    instruction = parse_instruction(f"LANGUAGE {code}", registry)
    violations = instruction.check(text)
    if any(v.code == "language.unknown" for v in violations):
        return None
    return not violations


@dataclass(frozen=True)
class IfevalInstruction:
    """One IFEval instruction judged by IFEval's own definitions (an instruction object,
    usable in ``Expectations(instructions=[...])``)."""

    instruction_id: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    registry: Any = field(default=None, compare=False, repr=False)
    #: IFEval judges the reply's text only, never the values alone.
    also_values: ClassVar[str | None] = None

    def describe(self) -> str:
        return f"IFEVAL {self.instruction_id} {json.dumps(self.kwargs, sort_keys=True)}"

    def guidance(self) -> str:
        return f"Follow IFEval instruction {self.instruction_id} with {json.dumps(self.kwargs, sort_keys=True)}."

    def stream(self) -> None:
        return None

    def followed(self, text: str) -> bool:
        """IFEval's verdict on ``text`` (an empty or blank reply follows nothing)."""
        if not text.strip():
            return False
        return bool(check_instruction(self.instruction_id, self.kwargs, text, self._language))

    def _language(self, text: str, code: str) -> bool | None:
        return language_verdict(text, code, self.registry)

    def check(self, text: str) -> list[Violation]:
        if self.followed(text):
            return []
        return [
            Violation(
                "ifeval.not_followed",
                f"{self.instruction_id} not followed (IFEval's definition)",
                keyword=self.instruction_id,
                expected=self.kwargs,
            )
        ]
