"""A reply with nothing outside its ``<think>`` blocks (a model that only thought, or was
cut off mid-thought: an unclosed block runs to the end) has no payload: every format fails
it, and ``heal`` raises ``HealError``. The think block's text is never read as the payload
(issue 9: ``<think>a: 1`` was the YAML ``{'<think>a': 1}``, ``<think>a,b\\n1,2`` the CSV
``[{'<think>a': '1', 'b': '2'}]``, ``<think><a/>`` the XML element ``think``)."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, StreamGuard, check, get_format, heal
from formatbook_core.fuzzing.properties import Target, check_heal, guard_agrees, heal_idempotent
from formatbook_core.locating import no_payload, outside_think
from formatbook_core.registry import list_formats
from formatbook_core.results import Span
from tests.contract.facts import declared

# format: (a payload valid as it stands, the violation of a reply that has none), from
# ``payload`` and ``no_payload_code`` on its contract class (text, whose empty text is
# valid, declares no code)
PAYLOADS = {
    fmt: (declared("payload")[fmt], code) for fmt, code in declared("no_payload_code").items() if code is not None
}

# the payload's text, wholly inside think blocks
SHAPES = {
    "unclosed": "<think>{p}",
    "closed": "<think>{p}</think>",
    "after white space": "  \n<think>{p}</think>",
    "two in a row": "<think>x</think><thinking>{p}",
    "two closed": "<think>{p}</think><reasoning>{p}</reasoning>",
    "blank space after": "<think>{p}</think>\n\n  \n",
    "empty block": "<think></think>",
    "tag alone": "<thinking>",
}

CASES = [pytest.param(fmt, shape, id=f"{fmt}-{shape}") for fmt in PAYLOADS for shape in SHAPES]


def test_every_format_but_text_is_listed():
    # a new format declares its payload and its "no payload" violation on its contract class
    assert {e.format.name for e in list_formats()} == {*PAYLOADS, "text"}


@pytest.mark.parametrize(("fmt", "shape"), CASES)
def test_a_reply_of_think_blocks_only_fails_and_does_not_heal(fmt, shape):
    payload, code = PAYLOADS[fmt]
    reply = SHAPES[shape].format(p=payload)
    result = check(reply, f"EXPECT {fmt.upper()}")
    assert not result.ok
    assert result.violations[0].code == code
    assert result.value is None
    with pytest.raises(HealError) as info:
        heal(reply, f"EXPECT {fmt.upper()}")
    assert info.value.violations[0].code == code


@pytest.mark.parametrize(("fmt", "shape"), CASES)
def test_the_properties_hold_on_a_reply_of_think_blocks_only(fmt, shape):
    # check and heal agree, heal is idempotent, a guard (strict too) agrees with check
    reply = SHAPES[shape].format(p=PAYLOADS[fmt][0])
    target = Target(fmt.upper())
    for seed in range(3):
        check_heal(target, reply, seed)
        heal_idempotent(target, reply, seed)
        guard_agrees(target, reply, seed)


@pytest.mark.parametrize("fmt", list(PAYLOADS))
@pytest.mark.parametrize("think", ["<think>{p}</think>\n", "<thinking>x</thinking>\n\n<reasoning>{p}</reasoning>  \n"])
def test_a_payload_after_closed_think_blocks_is_found_as_before(fmt, think):
    payload = PAYLOADS[fmt][0]
    reply = think.format(p=payload) + payload
    result = check(reply, f"EXPECT {fmt.upper()}")
    assert result.ok, result.violations
    assert [s.kind for s in result.set_aside] == ["think"] * think.count("</")
    assert heal(reply, f"EXPECT {fmt.upper()}").text == result.text
    # a strict guard only for a payload valid as it stands (vCard's line breaks are repaired)
    for strict in (False, True) if {r.kind for r in result.repairs} == {"located"} else (False,):
        guard = StreamGuard(f"EXPECT {fmt.upper()}", strict=strict)
        assert all(guard.feed(ch) for ch in reply)
        assert guard.finish().ok


def test_text_keeps_an_empty_text():
    # EXPECT TEXT accepts an empty reply; a reply that only thought is its empty text
    for shape in SHAPES.values():
        result = check(shape.format(p="hello"), "EXPECT TEXT")
        assert result.ok and result.text.strip() == ""


@pytest.mark.parametrize(
    ("reply", "spans"),
    [
        ("", [Span(0, 0)]),
        ("  \n", [Span(3, 3)]),
        ("<think>a: 1", [Span(11, 11)]),
        ("<think>a</think>\n ", [Span(18, 18)]),
        ("x\n<think>y</think> long\n", [Span(19, 23), Span(0, 1)]),  # longest first
    ],
)
def test_outside_think(reply, spans):
    assert outside_think(reply) == spans
    assert no_payload(reply) == Span(len(reply), len(reply))


def test_outside_think_mid_line_is_text_unless_anywhere():
    reply = "x <think>y</think> long\n"
    assert outside_think(reply) == [Span(0, 23)]
    assert outside_think(reply, anywhere=True) == [Span(19, 23), Span(0, 1)]


def test_a_format_that_locates_nothing_never_gets_the_think_block(monkeypatch):
    # the core's fallback for a plugin whose locate() returns []: the reply without its
    # think blocks, as the format's own fallbacks
    monkeypatch.setattr(type(get_format("yaml")), "locate", lambda self, reply, schema=None, **options: [])
    assert check("<think>a: 1</think>\nb: 2", "EXPECT YAML").value == {"b": 2}
    assert check("<think>a: 1", "EXPECT YAML").violations[0].code == "yaml.empty"
