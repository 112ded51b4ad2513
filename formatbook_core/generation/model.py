"""The model interface generation asks: candidates for the next piece of text, best first."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable


class Candidate(NamedTuple):
    """One possible next piece of the reply.

    ``text`` is what it appends; ``logprob`` its log probability when the model says (only
    reported, never needed: candidates come in order of preference). ``end`` marks the
    end-of-text candidate (its ``text`` is empty).
    """

    text: str
    logprob: float | None = None
    end: bool = False


#: The end-of-text candidate: the model would stop here.
END = Candidate("", None, True)


@runtime_checkable
class CandidateModel(Protocol):
    """A model that ranks candidates for the next piece of the reply."""

    def candidates(self, prompt: str, reply: str) -> Sequence[Candidate]:
        """Candidates to append to ``reply`` (the text generated so far after ``prompt``),
        best first. ``END`` among them says the model would stop there."""


def as_candidate(item: Any) -> Candidate:
    """A ``Candidate`` from what a plain callable may give: a ``Candidate``, a string,
    ``None`` (end of text) or a ``(text, logprob)`` pair (``(None, logprob)``: the end)."""
    if isinstance(item, Candidate):
        return item
    if item is None:
        return END
    if isinstance(item, str):
        return Candidate(item)
    if isinstance(item, tuple) and len(item) == 2:
        text, logprob = item
        logprob = None if logprob is None else float(logprob)
        if text is None:
            return Candidate("", logprob, True)
        if isinstance(text, str):
            return Candidate(text, logprob)
    raise TypeError(f"a candidate is a str, None (end of text), (text, logprob) or Candidate, not {item!r}")


class CallableModel:
    """Adapts ``fn(prompt, reply) -> iterable`` (of what :func:`as_candidate` takes) to
    :class:`CandidateModel`."""

    def __init__(self, fn: Callable[[str, str], Iterable[Any]]):
        self.fn = fn

    def candidates(self, prompt: str, reply: str) -> list[Candidate]:
        return [as_candidate(item) for item in self.fn(prompt, reply)]


def as_model(model: Any) -> CandidateModel:
    """``model`` itself when it has ``candidates``; a :class:`CallableModel` for a callable."""
    if isinstance(model, CandidateModel):
        return model
    if callable(model):
        return CallableModel(model)
    raise TypeError(f"a model has a candidates(prompt, reply) method or is a callable, not {type(model).__name__}")
