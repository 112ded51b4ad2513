"""A labelled sentence is prose, not data (issue 25: a mention is not a payload).

``Error: the request timed out.`` is a YAML mapping of one key and a sentence to any
reader. Alone it is refused (``yaml.prose``); after prose it continues the prose; after
the data, apart from it by a blank line, it is a note set aside. ``name: Ada`` and
``status: ok`` stay data: a lower-case key, a value that does not end like a sentence.
Expected values checked by hand."""

from __future__ import annotations

import pytest

from formatbook_core import Expectations, StreamGuard, check
from formatbook_yaml.prose import labelled_sentence

ALONE = [
    "Error: the request timed out.",
    "Error: the request timed out.\r\n",
    "Hinweis: Das ist leider nicht möglich.",
    "Erreur : délai dépassé.",  # a space before the colon: not YAML's "key: " at all
    "Answer: yes, the capital is Paris!",
    "エラー: リクエストがタイムアウトしました。",
    "<think>they want YAML</think>\nError: the request timed out.",
    "```yaml\nError: the request timed out.\n```",
    "I can't help with that.\nReason: policy.",
    "Sorry, I cannot do that.\n\nReason: it violates our policy.",
    "Lo siento, no puedo ayudar.\nMotivo: la política.",
]


@pytest.mark.parametrize("reply", ALONE)
def test_a_labelled_sentence_with_no_data_fails(reply: str) -> None:
    result = check(reply, "EXPECT YAML")
    assert not result.ok, result.value


@pytest.mark.parametrize("reply", ALONE)
def test_streaming_agrees(reply: str) -> None:
    guard = StreamGuard("EXPECT YAML")
    for i in range(0, len(reply), 3):
        guard.feed(reply[i : i + 3])
    assert not guard.finish().ok


NOTES = [
    ("name: Ada\nage: 36\n\nNote: you can change it later.", {"name": "Ada", "age": 36}),
    ("name: Ada\r\nage: 36\r\n\r\nNote: you can change it later.\r\n", {"name": "Ada", "age": 36}),
    ("Here you go:\n\nname: Ada\nage: 36\n\nNote: you can change it later.", {"name": "Ada", "age": 36}),
    ("items:\n  - a\n  - b\n\nTip: keep the list short.\nAsk me for more.", {"items": ["a", "b"]}),
    ("```yaml\nname: Ada\n```\n\nNote: you can change it later.", {"name": "Ada"}),
    ("Note: sizes are in metres.\n\nheight: 3\nwidth: 4", {"height": 3, "width": 4}),
    ("ciudad: Madrid\n\nNota: los datos son de 2023.", {"ciudad": "Madrid"}),
    ("<think>ok</think>\nname: Ada\n\nHinweis: Das kann man später ändern.", {"name": "Ada"}),
]


@pytest.mark.parametrize(("reply", "value"), NOTES)
def test_a_note_at_the_edge_of_the_data_is_set_aside(reply: str, value: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == value
    assert result.set_aside


DATA = [
    ("name: Ada", {"name": "Ada"}),
    ("status: ok", {"status": "ok"}),
    ("Name: Ada Lovelace", {"Name": "Ada Lovelace"}),
    ("version: 1.", {"version": 1.0}),
    ("description: A small library.", {"description": "A small library."}),
    ("Summary: The server was down.\ncause: disk full", {"Summary": "The server was down.", "cause": "disk full"}),
    ("name: Ada\nNote: keep it.", {"name": "Ada", "Note": "keep it."}),
    ('Error: "the request timed out."', {"Error": "the request timed out."}),
]


@pytest.mark.parametrize(("reply", "value"), DATA)
def test_data_stays_data(reply: str, value: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok, result.violations
    assert result.value == value


def test_a_schema_naming_the_label_reads_it_as_data() -> None:
    schema = {"type": "object", "properties": {"Answer": {"type": "string"}}}
    result = check("Answer: yes, it is Paris.", Expectations(format="yaml", schema=schema))
    assert result.ok and result.value == {"Answer": "yes, it is Paris."}
    result = check("Answer: yes, it is Paris.", Expectations(format="yaml", schema={"type": "object"}))
    assert not result.ok and result.violations[0].code == "yaml.prose"


@pytest.mark.parametrize(
    ("line", "prose"),
    [
        ("Error: the request timed out.", True),
        ("Reason: policy.", True),
        ("Bitte Beachten: Das ist wichtig!", True),
        ("status: ok", False),
        ("Version: 1.", False),
        ("Error: [1, 2].", False),
        ("Too Many Words In Label: yes.", False),
        ("Name: Ada", False),
    ],
)
def test_labelled_sentence(line: str, prose: bool) -> None:
    assert labelled_sentence(line) is prose
