"""Open: a fence line inside a JSON payload ends the payload, and what follows the fence is
dropped while check() answers ok=True with the part before it (found by the new-user trial
at the end of the session of stop 21). The relaxed stream ends the payload at a fence line
on purpose (tests/plugins/json/test_fuzz_findings.py), so the fix is a design choice for
both sides: most likely a refusal (a ``json.fence_inside`` violation) when the container a
fence line cuts is continued after the fence, in check() and at the guard's finish()."""

from __future__ import annotations

import pytest

from formatbook_core import check

CASES = [
    ('Data: {"a": 1,\n```\nnote\n```\n"b": 2}', {"a": 1, "b": 2}),
    ('{"a": [1, 2,\n```\n3]}', {"a": [1, 2, 3]}),
    ('{"a": "one\n```\nmore words here", "b": "two"}', {"a": "one\n```\nmore words here", "b": "two"}),
]


@pytest.mark.xfail(
    strict=True,
    reason="a fence line ends the payload: check() heals the part before it and answers ok=True "
    "without what follows the fence (wrong data); see the module docstring",
)
@pytest.mark.parametrize(("reply", "meant"), CASES)
def test_a_payload_continued_after_a_fence_line_is_not_passed_in_part(reply: str, meant: object) -> None:
    result = check(reply, "EXPECT JSON")
    assert not result.ok or result.value == meant
