"""formatbook's counts against Promptbook 0.100.2's own counters (committed fixtures).

``fixtures/promptbook_counts.jsonl`` was made with ``../shared/tools/promptbook-count``
(``node count.mjs --jsonl``, Promptbook 0.100.2): each line holds a ``text``, Promptbook's
``promptbook`` counts for it and a ``group``:

* ``agree``: English sentences made only of plain words (letters only, at most a capital
  initial), spaces, commas and one final ``.``, ``?`` or ``!`` (alone, joined by spaces, or
  one a line). docs/counting.md says the two agree on every unit there.
* ``differ``: texts where formatbook deliberately fixes a Promptbook defect; ``formatbook``
  holds formatbook's documented answer (counted by hand) for the units that differ, and
  ``why`` the rule of the counting table (docs/counting.md). Every other unit still agrees.

No Node is needed to run these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import regex

from formatbook_core.counting import BUILTIN_UNITS

FIXTURE = Path(__file__).parent / "fixtures" / "promptbook_counts.jsonl"
ROWS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
UNITS = {unit.name: unit for unit in BUILTIN_UNITS}
PLAIN_SENTENCE = regex.compile(r"[A-Za-z][a-z]*(?:,? [A-Za-z][a-z]*)*[.?!]")


def _rows(group):
    return [pytest.param(row, id=row["text"][:40]) for row in ROWS if row["group"] == group]


def test_fixture_is_complete():
    agree = [r for r in ROWS if r["group"] == "agree"]
    differ = [r for r in ROWS if r["group"] == "differ"]
    assert len(agree) >= 40 and len(differ) >= 10
    for row in ROWS:
        assert set(row["promptbook"]) >= set(UNITS), row["text"]
    # The agreeing texts really are made of plain sentences only.
    for row in agree:
        for line in row["text"].split("\n"):
            for sentence in regex.split(r"(?<=[.?!]) ", line):
                assert PLAIN_SENTENCE.fullmatch(sentence), sentence


@pytest.mark.parametrize("row", _rows("agree"))
def test_agrees_with_promptbook_on_plain_sentences(row):
    ours = {name: unit.count(row["text"]) for name, unit in UNITS.items()}
    theirs = {name: row["promptbook"][name] for name in UNITS}
    assert ours == theirs


@pytest.mark.parametrize("row", _rows("differ"))
def test_differs_from_promptbook_where_design_says(row):
    text, expected = row["text"], row["formatbook"]
    assert expected, "a differing row names at least one unit"
    for name, unit in UNITS.items():
        ours = unit.count(text)
        if name in expected:
            assert ours == expected[name], (name, row["why"])
            assert ours != row["promptbook"][name], (name, "recorded as a difference")
        else:
            assert ours == row["promptbook"][name], name
