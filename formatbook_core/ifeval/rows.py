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
            from ..expectations import _nearest  # noqa: PLC0415 - shared "did you mean"

            near = _nearest(instruction_id, INSTRUCTIONS)
            hint = f" (did you mean {near}?)" if near else ""
            raise ExpectationError(f"unknown IFEval instruction id {instruction_id!r}{hint}")
    cleaned = tuple({k: v for k, v in kw.items() if v is not None} for kw in kwargs)
    for instruction_id, kw in zip(ids, cleaned, strict=True):
        missing = [name for name in INSTRUCTIONS[instruction_id] if name not in kw]
        if missing:
            raise ExpectationError(f"{instruction_id} needs kwargs {', '.join(missing)}")
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
