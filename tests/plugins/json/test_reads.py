"""How often a check() parses the JSON payload, counted (issue 24): the locator's parse
of a wholly strict reply is handed on explicitly (no thread-local), and the text healing
confirmed is not parsed again."""

from __future__ import annotations

import threading

import pytest

import formatbook_json.format as json_format
import formatbook_json.heal.strict as heal_strict
import formatbook_json.syntax as syntax
from formatbook_core import Count, Expectations, check

SCHEMA = {"type": "object", "required": ["name"], "properties": {"tags": {"type": "array"}}}


@pytest.fixture
def reads(monkeypatch):
    """orjson's reads and the exact parser's, wherever the format calls them."""
    calls: list[str] = []
    loads, slow = syntax._loads, syntax._slow_path
    monkeypatch.setattr(syntax, "_loads", lambda text: calls.append("orjson") or loads(text))
    monkeypatch.setattr(syntax, "_slow_path", lambda *a: calls.append("exact") or slow(*a))
    monkeypatch.setattr(heal_strict.orjson, "loads", lambda text: calls.append("orjson") or loads(text))
    return calls


def test_a_clean_reply_is_parsed_once_by_the_locator_and_handed_on(reads):
    result = check(
        '{"name": "Ada", "tags": ["a", "b"]}',
        Expectations(
            format="json", schema=SCHEMA, counts=[Count("words", max=9), Count("words", max=2, scope="/tags")]
        ),
    )
    assert result.verdict == "pass" and result.counts == {"words": 3, 'words IN "/tags"': 2}
    assert reads == ["orjson"]


def test_a_clean_payload_in_prose_is_parsed_once(reads):
    result = check('Here:\n\n{"name": "Ada"}\n\nDone.', "EXPECT JSON\nEXPECT MAX 9 WORDS")
    assert result.verdict == "healed" and result.counts == {"words": 1}
    assert reads == ["orjson"]  # prose first: the locator tries no parse of the whole reply


def test_the_healed_text_is_not_parsed_again_after_heal_confirmed_it(reads):
    result = check('{"name": "Ada", "tags": ["a", "b",}', "EXPECT JSON\nEXPECT MAX 9 WORDS")
    assert result.verdict == "healed" and result.counts == {"words": 3}
    # the locator's try, the pipeline's analysis (orjson, then the exact parser for the
    # violation), heal's first look, heal's confirmation: the pipeline takes that one
    assert reads == ["orjson", "orjson", "exact", "orjson", "orjson"]


def test_the_format_holds_no_thread_local():
    assert not [v for v in vars(json_format).values() if isinstance(v, threading.local)]
