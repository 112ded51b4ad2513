"""Open (issue 9's last sub-case): ``<think>`` inside a quoted YAML value opens a think block
for every format (the core's ``think_spans``; an unclosed one runs to the end of the reply),
so the payload is cut at the tag and healing reads the cut as the reply's end: the reply
passes with the value emptied and the keys after it dropped. Strict expected failures: the
reply must fail (or keep its value); fixing it means deciding where a think tag inside a
line of a payload is text, for every format and for StreamGuard alike."""

from __future__ import annotations

import pytest

from formatbook_core import check


@pytest.mark.xfail(strict=True, reason="open: a think tag inside a quoted value cuts the YAML (issue 9)")
@pytest.mark.parametrize(
    "reply",
    [
        'a: "<think>"\nb: 2',  # ok, {'a': ''}: the value emptied, b dropped
        '- "<think>"\n- b',  # ok, ['']
        'a: "x <think> y"\nb: 2',  # ok, {'a': 'x'}
    ],
)
def test_a_think_tag_inside_a_quoted_value_never_passes_cut(reply: str) -> None:
    result = check(reply, "EXPECT YAML")
    assert not result.ok or "<think>" in str(result.value)
