"""StreamGuard(lag=N) (issue 13): chunks are gathered until they hold N characters and
checked as one piece. The verdicts are the same as without a lag, at most N characters
later; the guard still never stops a reply check() accepts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, check

from .guard_replies import JSON_DAMAGE, chunkings, json_payload, reply
from .test_guard_property import at_exact_counts, first_stop

LAGS = (1, 7, 64, 256)
DOOMED = '{"note": "' + " ".join(f"w{i}" for i in range(400)) + '"}'


def _chunks(text: str, size: int = 4) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("lag", LAGS)
def test_a_doomed_reply_is_stopped_at_most_lag_characters_later(lag):
    exp = "EXPECT JSON\nEXPECT MAX 20 WORDS"
    chunks = _chunks(DOOMED)
    now = first_stop(StreamGuard(exp), chunks)
    later = first_stop(StreamGuard(exp, lag=lag), chunks)
    assert now is not None and later is not None
    at_now = sum(len(c) for c in chunks[: now[0] + 1])
    at_later = sum(len(c) for c in chunks[: later[0] + 1])
    # (without a lag the open value is counted in runs of 64 characters: either may be first)
    assert at_later <= at_now + lag + 4 and at_later < len(DOOMED) // 2
    assert "words already exceed MAX 20 WORDS" in now[1].reason
    assert "words already exceed MAX 20 WORDS" in later[1].reason


@pytest.mark.parametrize("lag", LAGS)
def test_finish_is_check_and_text_holds_every_chunk(lag):
    text = 'Here: ```json\n{"a": "one two", "b": [1, 2,],}\n```'
    guard = StreamGuard("EXPECT JSON\nEXPECT MAX 5 WORDS", lag=lag)
    for chunk in _chunks(text, 3):
        assert guard.feed(chunk)
    assert guard.text == text
    assert guard.finish().to_dict() == check(text, "EXPECT JSON\nEXPECT MAX 5 WORDS").to_dict()


def test_a_chunk_after_the_stop_is_kept_in_order():
    guard = StreamGuard("EXPECT JSON\nEXPECT MAX 2 WORDS", lag=8)
    for chunk in _chunks(DOOMED[:160]):
        guard.feed(chunk)
    assert not guard.status
    assert not guard.feed("tail")
    assert guard.text == DOOMED[:160] + "tail"


def test_max_size_is_enforced_with_a_lag():
    guard = StreamGuard("EXPECT TEXT max_size=10", lag=4)
    statuses = [guard.feed(c) for c in ("abc", "def", "ghi", "jkl", "mno")]
    assert not statuses[-1] and "max_size" in statuses[-1].reason


def test_a_negative_lag_is_refused():
    with pytest.raises(ValueError):
        StreamGuard("EXPECT JSON", lag=-1)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_a_lagging_guard_never_stops_what_check_accepts(data):
    text = data.draw(reply(json_payload(JSON_DAMAGE), fenced=False))
    chunks = data.draw(chunkings(text))
    lag = data.draw(st.sampled_from(LAGS))
    exp = at_exact_counts(text, "EXPECT JSON")
    if exp is None:
        return
    guard = StreamGuard(exp, lag=lag)
    stop = first_stop(guard, chunks)
    assert stop is None, f"stopped at chunk {stop[0]} ({stop[1].reason}) on {text!r}"
    assert guard.finish().to_dict() == check(text, exp).to_dict()
