"""``Verdicts``: the verdicts of the last few texts, kept by the text object and a key."""

from __future__ import annotations

from formatbook_core.verdicts import Verdicts


def _new(text: str) -> str:
    """An equal string that is another object."""
    return text.encode().decode()


def test_a_verdict_is_kept_for_that_object_and_key_only() -> None:
    memo: Verdicts[str] = Verdicts()
    text = "some reply " * 3
    memo.put(text, "bad", (None, 10))
    assert memo.get(text, (None, 10)) == "bad"
    assert memo.get(text, (None, 11)) is None  # another key
    twin = _new(text)
    assert twin == text and twin is not text
    assert memo.get(twin, (None, 10)) is None  # an equal new string is read again
    assert memo.get(b"some reply", (None, 10)) is None  # not text: nothing kept
    memo.put(b"bytes", "x")
    assert memo.get(b"bytes") is None


def test_the_oldest_goes_and_a_text_put_again_moves_first() -> None:
    memo: Verdicts[int] = Verdicts(size=3)
    texts = [_new(f"text {i}") for i in range(4)]
    for i, t in enumerate(texts[:3]):
        memo.put(t, i)
    memo.put(texts[0], 10)  # again: first, and no second entry for it
    memo.put(texts[3], 3)  # the oldest (texts[1]) goes
    assert [memo.get(t) for t in texts] == [10, None, 2, 3]
    for _ in range(5):
        memo.put(texts[3], 3)  # a text read again and again pushes no other out
    assert [memo.get(t) for t in texts] == [10, None, 2, 3]
