"""The search: the best candidate that keeps the reply able to pass, with bounded backtracking."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from ..expectations import Expectations, as_expectations
from ..pipeline import check
from ..results import CheckResult, FormatbookError
from ..streaming import StreamGuard
from .model import Candidate, as_model


@dataclass(frozen=True)
class Generated(CheckResult):
    """A generated reply's ``CheckResult`` (as ``check()`` gives it), plus how the search went.

    ``steps``: candidates taken (including those later undone by backtracking);
    ``rejected``: candidates refused (the checker or a limit said no, or the end came
    too early); ``backtracks``: steps undone; ``model_calls``: times the model was asked.
    """

    steps: int = 0
    rejected: int = 0
    backtracks: int = 0
    model_calls: int = 0

    def to_dict(self, *, attempts: bool = True) -> dict[str, Any]:
        data = super().to_dict(attempts=attempts)
        data["generation"] = {
            "steps": self.steps,
            "rejected": self.rejected,
            "backtracks": self.backtracks,
            "model_calls": self.model_calls,
        }
        return data


class GenerationError(FormatbookError):
    """No reply meeting the expectations was found within ``max_tokens`` and the
    backtracking budget. ``prefix`` is the longest valid prefix reached (one the strict
    checker and every MAX limit accepted); the counters are as in :class:`Generated`."""

    def __init__(self, reason: str, prefix: str, *, steps: int, rejected: int, backtracks: int, model_calls: int):
        super().__init__(f"{reason}; the longest valid prefix has {len(prefix)} characters")
        self.reason = reason
        self.prefix = prefix
        self.steps = steps
        self.rejected = rejected
        self.backtracks = backtracks
        self.model_calls = model_calls


class _Frame:
    """One step of the reply: the guard before it, the model's candidates, the next to try."""

    __slots__ = ("guard", "cands", "next")

    def __init__(self, guard: StreamGuard):
        self.guard = guard
        self.cands: list[Candidate] | None = None
        self.next = 0


class _Search:
    def __init__(self, model: Any, prompt: str, exp: Expectations, max_tokens: int, budget: int):
        self.model = as_model(model)
        self.prompt = prompt
        self.exp = exp
        self.max_tokens = max_tokens
        self.budget = budget
        self.steps = self.rejected = self.backtracks = self.calls = 0
        # a full check() that refused the end is not run again until the reply has grown
        # by an eighth: a model that offers the end at every step costs O(n log n), not O(n^2)
        self.end_after = 0

    def fail(self, reason: str, prefix: str) -> GenerationError:
        return GenerationError(
            reason,
            prefix,
            steps=self.steps,
            rejected=self.rejected,
            backtracks=self.backtracks,
            model_calls=self.calls,
        )

    def ends(self, guard: StreamGuard, text: str) -> CheckResult | None:
        """The reply's ``CheckResult`` when it may end here, else ``None``."""
        if len(text) < self.end_after or not guard.can_end():
            return None
        result = check(text, self.exp)
        if result.ok:
            return result
        self.end_after = len(text) + max(1, len(text) // 8)
        return None

    def run(self) -> Generated:
        # the frames a backtrack can reach: at most ``budget`` steps back
        stack: deque[_Frame] = deque(maxlen=self.budget + 1)
        tokens: list[str] = []
        text = ""
        best = ""
        frame = _Frame(StreamGuard(self.exp, strict=True))
        while True:
            full = len(tokens) >= self.max_tokens  # only the end may follow now
            if frame.cands is None:
                self.calls += 1
                frame.cands = list(self.model.candidates(self.prompt, text))
            taken: StreamGuard | None = None
            cands = frame.cands
            while frame.next < len(cands):
                cand = cands[frame.next]
                frame.next += 1
                if cand.end:
                    result = self.ends(frame.guard, text)
                    if result is not None:
                        return self.result(result)
                    self.rejected += 1
                    continue
                if not cand.text or full:
                    continue  # an empty piece would take a step and change nothing
                probe = frame.guard.copy()
                if probe.feed(cand.text):
                    taken = probe
                    break
                self.rejected += 1
            if taken is not None:
                self.steps += 1
                stack.append(frame)
                piece = cands[frame.next - 1].text
                tokens.append(piece)
                text += piece  # the only reference: CPython appends in place
                frame = _Frame(taken)
                continue
            # no candidate fits: undo the last step and take the next candidate there
            if len(text) > len(best):
                best = text
            if full:
                raise self.fail(f"max_tokens ({self.max_tokens}) spent without a complete reply", best)
            if not stack:
                raise self.fail("no candidate can continue the reply", best)
            if self.backtracks >= self.budget:
                raise self.fail(f"the backtracking budget ({self.budget}) is spent", best)
            self.backtracks += 1
            self.end_after = 0  # a shorter reply: its end is judged afresh
            frame = stack.pop()
            text = text[: len(text) - len(tokens.pop())]

    def result(self, result: CheckResult) -> Generated:
        fields = {name: getattr(result, name) for name in result.__dataclass_fields__}
        return Generated(
            **fields, steps=self.steps, rejected=self.rejected, backtracks=self.backtracks, model_calls=self.calls
        )


def generate(
    model: Any,
    prompt: str = "",
    expectations: Expectations | str | None = None,
    *,
    max_tokens: int = 1024,
    backtrack_budget: int = 32,
) -> Generated:
    """Generate a reply that meets ``expectations``, one candidate at a time.

    ``model`` is a :class:`~formatbook_core.generation.model.CandidateModel` or a callable
    ``fn(prompt, reply)`` giving candidates best first. At each step the best candidate
    after which the format's strict checker and every MAX limit still hold is taken; the
    end of text is taken only when the reply then passes ``check()`` (MIN limits, a
    complete document, the schema). With no candidate left, the last step is undone and
    the next candidate there tried, at most ``backtrack_budget`` times in all. The reply
    holds at most ``max_tokens`` pieces: after the last one only the model's end of text
    is taken. Raises :class:`GenerationError` (with the longest valid prefix) when
    ``max_tokens`` or the budget is spent without a reply that passes; raises
    ``ExpectationError`` for bad expectations.
    """
    if max_tokens < 0 or backtrack_budget < 0:
        raise ValueError("max_tokens and backtrack_budget are 0 or more")
    exp = as_expectations(expectations)
    return _Search(model, prompt, exp, max_tokens, backtrack_budget).run()
