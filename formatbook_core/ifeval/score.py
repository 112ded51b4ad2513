"""Scoring IFEval rows: per reply, which instructions it follows, strict and loose; over a
file, IFEval's instruction-level and prompt-level accuracy."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..results import ExpectationError
from .mapping import IfevalInstruction, expect_lines
from .rows import Row, read_row

__all__ = ["DEFINITIONS", "InstructionResult", "RowResult", "Score", "loose_variants", "score", "score_row", "Judge"]

#: ``"formatbook"``: formatbook's definitions (EXPECT lines); ``"ifeval"``: IFEval's own.
DEFINITIONS = ("formatbook", "ifeval")


def loose_variants(response: str) -> list[str]:
    """The replies IFEval's loose score also tries: without the first line, the last line,
    both, and each of those (and the reply) with every ``*`` removed."""
    lines = response.split("\n")
    first = "\n".join(lines[1:]).strip()
    last = "\n".join(lines[:-1]).strip()
    both = "\n".join(lines[1:-1]).strip()
    return [response, response.replace("*", ""), first, last, both] + [
        text.replace("*", "") for text in (first, last, both)
    ]


class Judge:
    """Decides one instruction on a text, by the chosen definitions."""

    def __init__(self, instruction_id: str, kwargs: dict[str, Any], definitions: str, registry: Any = None):
        self.instruction_id = instruction_id
        self.definition = definitions
        self.lines: list[str] = []
        self._expectations: Any = None
        #: why formatbook's definition could not be used (IFEval's decided instead)
        self.fallback: str | None = None
        self._reference = IfevalInstruction(instruction_id, dict(kwargs), registry)
        if definitions == "formatbook":
            try:
                self.lines = expect_lines(instruction_id, kwargs)
                self._expectations = expectations_from_lines(self.lines, registry)
            except ExpectationError as exc:
                # a line formatbook cannot state (e.g. a unit no plugin registers): IFEval's
                # definition decides, and the result says so
                self.definition = "ifeval"
                self.fallback = str(exc)

    def followed(self, text: str) -> bool:
        if not text.strip():
            return False
        if self._expectations is None:
            return self._reference.followed(text)
        from ..pipeline import check  # noqa: PLC0415

        return bool(check(text, self._expectations).ok)


def expectations_from_lines(lines: list[str], registry: Any) -> Any:
    """``Expectations`` from EXPECT lines; a line whose quoted argument holds a line break
    (a multi-line prompt to repeat) is read whole, as one instruction."""
    from ..expectations import Expectations, parse_expectations, parse_instruction  # noqa: PLC0415

    single = [line for line in lines if "\n" not in line and "\r" not in line]
    parsed = parse_expectations(single, registry=registry)
    extra = [parse_instruction(line, registry) for line in lines if line not in single]
    if not extra:
        return parsed
    return Expectations(
        format=parsed.format,
        schema=parsed.schema,
        options=parsed.options,
        counts=parsed.counts,
        instructions=[*parsed.instructions, *extra],
        registry=registry,
    )


@dataclass(frozen=True)
class InstructionResult:
    """One instruction of one reply: followed strictly, followed loosely, and by which
    definitions it was judged."""

    instruction_id: str
    strict: bool
    loose: bool
    definition: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class RowResult:
    """One reply's results (``strict``/``loose``: every instruction followed)."""

    key: Any
    results: tuple[InstructionResult, ...]

    @property
    def strict(self) -> bool:
        return all(r.strict for r in self.results)

    @property
    def loose(self) -> bool:
        return all(r.loose for r in self.results)

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "follow_all_instructions": self.strict,
            "follow_all_instructions_loose": self.loose,
            "instruction_id_list": [r.instruction_id for r in self.results],
            "follow_instruction_list": [r.strict for r in self.results],
            "follow_instruction_list_loose": [r.loose for r in self.results],
        }


@dataclass
class Score:
    """IFEval's four accuracies over scored rows, and counts per instruction id."""

    rows: list[RowResult] = field(default_factory=list)

    def _ratio(self, values: Iterable[bool]) -> float:
        items = list(values)
        return sum(items) / len(items) if items else 0.0

    @property
    def prompt_strict(self) -> float:
        return self._ratio(r.strict for r in self.rows)

    @property
    def prompt_loose(self) -> float:
        return self._ratio(r.loose for r in self.rows)

    @property
    def instruction_strict(self) -> float:
        return self._ratio(i.strict for r in self.rows for i in r.results)

    @property
    def instruction_loose(self) -> float:
        return self._ratio(i.loose for r in self.rows for i in r.results)

    def per_instruction(self) -> dict[str, tuple[int, int, int]]:
        """instruction id -> (how many, followed strictly, followed loosely)."""
        table: dict[str, list[int]] = {}
        for row in self.rows:
            for result in row.results:
                entry = table.setdefault(result.instruction_id, [0, 0, 0])
                entry[0] += 1
                entry[1] += result.strict
                entry[2] += result.loose
        return {key: (a, b, c) for key, (a, b, c) in sorted(table.items())}


_JUDGES: dict[tuple[str, str, str, int], Judge] = {}


def _judge(instruction_id: str, kwargs: dict[str, Any], definitions: str, registry: Any) -> Judge:
    key = (instruction_id, json.dumps(kwargs, sort_keys=True, default=str), definitions, id(registry))
    judge = _JUDGES.get(key)
    if judge is None:
        if len(_JUDGES) > 4096:
            _JUDGES.clear()
        judge = _JUDGES[key] = Judge(instruction_id, kwargs, definitions, registry)
    return judge


def score_row(row: Row | dict[str, Any], definitions: str = "formatbook", *, registry: Any = None) -> RowResult:
    """Judge every instruction of ``row`` (a :class:`Row` or a decoded JSON row) on its
    response, strict and loose."""
    if not isinstance(row, Row):
        row = read_row(row)
    if definitions not in DEFINITIONS:
        raise ExpectationError(f"definitions must be one of {', '.join(DEFINITIONS)}, not {definitions!r}")
    variants = loose_variants(row.response)
    results = []
    for instruction_id, kwargs in zip(row.instruction_ids, row.kwargs, strict=True):
        judge = _judge(instruction_id, kwargs, definitions, registry)
        strict = judge.followed(row.response)
        loose = strict or any(judge.followed(text) for text in variants[1:])
        results.append(InstructionResult(instruction_id, strict, loose, judge.definition, tuple(judge.lines)))
    return RowResult(row.key, tuple(results))


def score(
    rows: Iterable[Row | dict[str, Any]],
    definitions: str = "formatbook",
    *,
    registry: Any = None,
    progress: Callable[[RowResult], None] | None = None,
) -> Score:
    """Score IFEval rows (:class:`Row` objects or decoded JSON rows): see :class:`Score` (``progress`` is called after each row)."""
    result = Score()
    for row in rows:
        row_result = score_row(row, definitions, registry=registry)
        result.rows.append(row_result)
        if progress is not None:
            progress(row_result)
    return result
