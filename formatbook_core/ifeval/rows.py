"""IFEval rows: ``{key, prompt, instruction_id_list, kwargs, response}``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..results import ExpectationError
from .ids import INSTRUCTIONS

__all__ = ["Row", "read_row"]


@dataclass(frozen=True)
class Row:
    """One IFEval prompt with its instructions and the reply to score.

    ``kwargs[i]`` are the arguments of ``instruction_ids[i]``; keys whose value is ``None``
    are dropped (the Hugging Face copy of IFEval lists every key of every instruction).
    """

    key: Any
    prompt: str
    instruction_ids: tuple[str, ...]
    kwargs: tuple[dict[str, Any], ...]
    response: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


_RELATIONS = ("less than", "at least")


def _kwarg_problem(name: str, value: Any) -> str | None:
    """What is wrong with an IFEval kwarg's value (None: nothing), checked before judging:
    a wrong type or relation would otherwise fail deep inside a checker."""
    if name.endswith("relation"):
        return None if value in _RELATIONS else "must be 'less than' or 'at least'"
    if name.startswith("num_") or name.endswith("frequency") or name == "nth_paragraph":
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        return None if ok else "must be a whole number ≥ 0"
    if name in ("keywords", "forbidden_words"):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else "must be a list of strings"
    return None if isinstance(value, str) else "must be a string"


def read_row(data: Any, *, response_field: str = "response") -> Row:
    """A :class:`Row` from a decoded JSON object; ``ExpectationError`` naming what is wrong."""
    if not isinstance(data, dict):
        raise ExpectationError(f"an IFEval row is a JSON object, not {type(data).__name__}")
    ids = data.get("instruction_id_list")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ExpectationError("an IFEval row needs instruction_id_list: a list of instruction ids")
    kwargs = data.get("kwargs", [{} for _ in ids])
    if not isinstance(kwargs, list) or len(kwargs) != len(ids) or not all(isinstance(k, dict) for k in kwargs):
        raise ExpectationError("kwargs must be a list of objects, one per instruction id")
    for instruction_id in ids:
        if instruction_id not in INSTRUCTIONS:
            from ..options import nearest  # noqa: PLC0415 - shared "did you mean"

            near = nearest(instruction_id, INSTRUCTIONS)
            hint = f" (did you mean {near}?)" if near else ""
            raise ExpectationError(f"unknown IFEval instruction id {instruction_id!r}{hint}")
    # None values are how a column-wise export (Hugging Face datasets) leaves out a kwarg;
    # a number it wrote as 3.0 (pandas, a nullable int column) is the whole number 3
    cleaned = tuple(
        {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in kw.items() if v is not None}
        for kw in kwargs
    )
    for instruction_id, kw in zip(ids, cleaned, strict=True):
        missing = [name for name in INSTRUCTIONS[instruction_id] if name not in kw]
        if missing:
            raise ExpectationError(f"{instruction_id} needs kwargs {', '.join(missing)}")
        for name in INSTRUCTIONS[instruction_id]:
            problem = _kwarg_problem(name, kw[name])
            if problem:
                raise ExpectationError(f"{instruction_id}: kwargs {name} {problem}, not {kw[name]!r}")
    response = data.get(response_field, "")
    if response is None:
        response = ""
    if not isinstance(response, str):
        raise ExpectationError(f"the {response_field!r} field must be a string")
    prompt = data.get("prompt", "")
    return Row(
        key=data.get("key"),
        prompt=prompt if isinstance(prompt, str) else str(prompt),
        instruction_ids=tuple(ids),
        kwargs=cleaned,
        response=response,
    )
