"""A YAML heal grown past ``max_size`` is refused as soon as that is certain (issue 30):
at the edit that takes the text past the limit, when no step still to run can take
enough back, before the grown text is read or scanned again. The work is counted (the
readings and line scans healing makes), not timed."""

from __future__ import annotations

import pytest

import formatbook_yaml.heal.hashes as hashes
import formatbook_yaml.heal.indent as indent
import formatbook_yaml.heal.state as state
import formatbook_yaml.heal.truncation as truncation
from formatbook_core import check, heal

#: 200 values holding ": " (each quoted: +2 characters), a key out of line with its
#: siblings, and a quoted string cut off at the end: every syntax step has work to do.
_RECORDS = "".join(f"k{i}: a: b\n" for i in range(200))
REPLY = _RECORDS + 'server:\n  host: x\n   port: 1\nnote: "cut'


@pytest.fixture
def work(monkeypatch):
    """The readings and line scans healing makes (the pipeline's own first reading of
    the reply is not one: healing starts from it)."""
    counts = {"read": 0, "scan": 0}

    def counting(module, name, key):
        original = getattr(module, name)

        def counted(*args, **kwargs):
            counts[key] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    counting(state, "read", "read")
    counting(truncation, "read", "read")
    for module in (state, hashes, indent, truncation):
        counting(module, "scan", "scan")
    return counts


def test_a_grown_heal_is_refused_at_the_edit_that_passes_the_limit(work):
    healed = check(REPLY, "EXPECT YAML")
    assert healed.ok and len(healed.text) == len(REPLY) + 2 * 200 + 1 - 1  # quotes, the string closed, port moved
    assert healed.value["k199"] == "a: b" and healed.value["server"] == {"host": "x", "port": 1}
    assert healed.value["note"] == "cut"
    assert work["read"] >= 3 and work["scan"] >= 3  # accepted: every step read its text
    work.update(read=0, scan=0)
    refused = check(REPLY, f"EXPECT YAML max_size={len(REPLY)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"] and refused.repairs == []
    # the line step's quotes make 2,529 characters; what may still go is the 5 leading
    # blanks, the last line with the line break before it (11) and no white space at the ends
    assert len(REPLY) == 2129
    message = refused.violations[0].message
    assert "healing the payload made 2,513 characters when it was stopped" in message
    # the hash step's scan of the reply, and the one of the grown text that finds a line
    # for the indentation step to move; no reading
    assert work == {"read": 0, "scan": 2}


def test_a_grown_heal_no_later_step_can_shrink_is_refused_before_its_reading(work):
    # the line step's quotes make the text valid: main read it (libyaml) and returned it
    # past the limit; no line is out of line, so no step can take the quotes back
    reply = "items:\n" + "".join(f"  - note: a: b {i}\n" for i in range(100))
    assert len(reply) == 7 + 100 * 18 - 10
    refused = check(reply, f"EXPECT YAML max_size={len(reply)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # the payload is located without its last line break (1,796), + 200 quotes = 1,996,
    # less the last line "  - note: 'a: b 99'" (19) and the line break before it
    assert "healing the payload made 1,976 characters when it was stopped" in refused.violations[0].message
    assert work == {"read": 0, "scan": 2}


def test_what_a_later_step_takes_back_is_waited_for():
    # quoting 'x: y' takes the text to 43 characters, past the limit of 41; moving
    # "other" onto its siblings' column then takes 10 back, the last line break 1
    reply = "key: value\nmore: 1\n          other: x: y\n"
    healed = heal(reply, "EXPECT YAML")
    assert healed.text == "key: value\nmore: 1\nother: 'x: y'" and len(reply) == 41
    assert check(reply, f"EXPECT YAML max_size={len(reply)}").text == healed.text
