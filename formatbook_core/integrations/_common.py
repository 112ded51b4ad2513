"""What the adapters share: the words a model or a caller reads about a reply that failed."""

from __future__ import annotations

from ..expectations import Expectations
from ..llm_feedback import correction
from ..llm_replies import Received
from ..results import Attempt, CheckResult

#: At most this many violations are named in an adapter's exception message.
MAX_NAMED = 5


def correction_for(result: CheckResult, expectations: Expectations, received: Received | None = None) -> str:
    """The correction ``ask`` would send after this reply (what was wrong, where, what to do).

    ``received`` is the reply as read from a stream: a stopped stream is then described
    as stopped, with what had arrived."""
    if received is not None:
        attempt = Attempt(
            "",
            received.text,
            result,
            stopped=received.stopped,
            stop_reason=received.stop_reason,
            stop_position=received.stop_position,
        )
    else:
        attempt = Attempt("", result.reply, result)
    return correction(attempt, expectations)


def failure_message(result: CheckResult) -> str:
    """``the reply does not meet the expectations: json.syntax: ...; count.max: ...`` (the first few)."""
    named = [f"{v.code}: {v}" for v in result.violations[:MAX_NAMED]]
    more = len(result.violations) - len(named)
    if more > 0:
        named.append(f"and {more} more")
    return "the reply does not meet the expectations: " + ("; ".join(named) or "no reason given")
