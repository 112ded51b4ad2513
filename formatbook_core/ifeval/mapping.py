"""IFEval instructions as EXPECT lines (formatbook's definitions) or as instruction
objects that apply IFEval's own definitions (:mod:`.reference`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..results import ExpectationError, Violation
from .reference import CHECKS

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


def expect_lines(instruction_id: str, kw: dict[str, Any]) -> list[str]:
    """The EXPECT lines that state one IFEval instruction with formatbook's definitions.

    >>> expect_lines("punctuation:no_comma", {})
    ['EXPECT MAX 0 ","']
    """
    kind = instruction_id.split(":", 1)[-1]
    if kind == "existence":
        return [f"EXPECT CONTAINS {_q(k)}" for k in kw["keywords"]]
    if kind == "frequency":
        return ["EXPECT " + _limit(kw["relation"], kw["frequency"], _q(kw["keyword"].strip()))]
    if kind == "forbidden_words":
        return [f"EXPECT NOT CONTAINS {_q(w)}" for w in kw["forbidden_words"]]
    if kind == "letter_frequency":
        return ["EXPECT " + _limit(kw["let_relation"], kw["let_frequency"], _q(kw["letter"].strip()))]
    if kind == "response_language":
        return [f"EXPECT LANGUAGE {kw['language']}"]
    if kind == "number_sentences":
        return ["EXPECT " + _limit(kw["relation"], kw["num_sentences"], "SENTENCES")]
    if kind == "number_paragraphs":
        return [f'EXPECT EXACTLY {kw["num_paragraphs"]} PARAGRAPHS SEPARATED BY "***"']
    if kind == "number_words":
        return ["EXPECT " + _limit(kw["relation"], kw["num_words"], "WORDS")]
    if kind == "nth_paragraph_first_word":
        return [
            f"EXPECT EXACTLY {kw['num_paragraphs']} PARAGRAPHS",
            f"EXPECT PARAGRAPH {kw['nth_paragraph']} STARTS WITH {_q(kw['first_word'])}",
        ]
    if kind == "number_placeholders":
        return [f"EXPECT MIN {kw['num_placeholders']} PLACEHOLDERS"]
    if kind == "postscript":
        return [f"EXPECT POSTSCRIPT {_q(kw['postscript_marker'].strip())}"]
    if kind == "number_bullet_lists":
        return [f"EXPECT EXACTLY {kw['num_bullets']} BULLETS"]
    if kind == "constrained_response":
        return ["EXPECT ONE OF " + " | ".join(_q(o) for o in _ONE_OF)]
    if kind == "number_highlighted_sections":
        return [f"EXPECT MIN {kw['num_highlights']} HIGHLIGHTS"]
    if kind == "multiple_sections":
        return [f"EXPECT MIN {kw['num_sections']} SECTIONS MARKED {_q(kw['section_spliter'].strip())}"]
    if kind == "json_format":
        return ["EXPECT JSON"]
    if kind == "title":
        return ["EXPECT TITLE"]
    if kind == "two_responses":
        return ['EXPECT EXACTLY 2 RESPONSES SEPARATED BY "******"']
    if kind == "repeat_prompt":
        return [f"EXPECT STARTS WITH {_q(kw['prompt_to_repeat'].strip())}"]
    if kind == "end_checker":
        return [f"EXPECT ENDS WITH {_q(kw['end_phrase'].strip())}"]
    if kind == "capital_word_frequency":
        return ["EXPECT " + _limit(kw["capital_relation"], kw["capital_frequency"], "CAPITAL WORDS")]
    if kind == "english_capital":
        return ["EXPECT CASE upper", "EXPECT LANGUAGE en"]
    if kind == "english_lowercase":
        return ["EXPECT CASE lower", "EXPECT LANGUAGE en"]
    if kind == "no_comma":
        return ['EXPECT MAX 0 ","']
    if kind == "quotation":
        return ["EXPECT QUOTED"]
    raise ExpectationError(f"unknown IFEval instruction id {instruction_id!r}")


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
        return bool(CHECKS(self.instruction_id, self.kwargs, text, self._language))

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
