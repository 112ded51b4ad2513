"""A quoted scalar over lines inside flow collections is valid (issue 25).

``[{z: "a\\nb"},\\n1]`` was refused with ``yaml.bracket``: the quote's continuation line
was read as block YAML, so its ``}`` closed nothing, and the hypothesis property test
(dumped YAML reads back) failed on such draws. Values checked by hand (a quoted scalar
folds its line break into a space)."""

from __future__ import annotations

import pytest

from formatbook_core import check
from formatbook_yaml.format import YamlFormat

FMT = YamlFormat()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('[{z: "a\nb"},\n1]', [{"z": "a b"}, 1]),
        ("[{z: 'a\n  b'}, 1]", [{"z": "a b"}, 1]),
        ('[{z: "a\nb"}\n,1]', [{"z": "a b"}, 1]),
        ('{a: [x, "p\n q"], b: 2}', {"a": ["x", "p q"], "b": 2}),
        ('k: [{z: "a\n  b"},\n  1]\nm: 2', {"k": [{"z": "a b"}, 1], "m": 2}),
        ('[{z: "a\r\nb"},\r\n1]', [{"z": "a b"}, 1]),
    ],
)
def test_a_quoted_scalar_over_lines_inside_flow(text: str, value: object) -> None:
    analysis = FMT.analyze(text)
    assert analysis.ok, analysis.violations
    assert analysis.value == value
    assert all(FMT.can_be_valid(text[:cut]) for cut in range(len(text) + 1))
    checker = FMT.stream()
    assert all(checker.feed(ch) for ch in text)
    assert checker.finish()
    assert check(f"```yaml\n{text}\n```", "EXPECT YAML").value == value


def test_a_closing_bracket_after_the_quote_is_still_judged() -> None:
    assert not FMT.is_valid('[{z: "a\nb"}}]')
