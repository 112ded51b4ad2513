"""Issue 9 (fuzz repro markdown-contract-b7529d1075): ```` ```markdown ```` fences nested in
one another without closers. Below L2 each is unwrapped in turn (a fence surfacing inside an
unwrapped one is unwrapped too), a bounded number of rounds; heal's text is then valid, or
heal raises ``HealError``: never the half-unwrapped text it returned at 17 levels."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, get_format
from formatbook_markdown.heal.container import MAX_UNWRAP_ROUNDS
from formatbook_markdown.heal.enforce import enforce_flex_md

FMT = get_format("markdown")
OPEN = "```markdown"


def _openers(n: int) -> str:
    return "\n".join([OPEN] * n)


@pytest.mark.parametrize("n", [1, 2, 3, MAX_UNWRAP_ROUNDS, MAX_UNWRAP_ROUNDS + 1])
def test_only_openers_hold_no_markdown(n: int) -> None:
    # every line is a fence opener: unwrapped, nothing is left, and an empty reply is no repair
    text = _openers(n)
    assert not FMT.is_valid(text)
    with pytest.raises(HealError):
        FMT.heal(text)


def test_the_fuzz_repro_is_refused_not_half_unwrapped() -> None:
    # 17 openers: 16 rounds unwrap 16 of them and one is left; that is said, not returned
    result = enforce_flex_md(_openers(17))
    assert not result.ok
    assert [i.code for i in result.issues] == ["markdown.container_depth"]
    with pytest.raises(HealError, match="nested more than 16 deep"):
        FMT.heal(_openers(17))


@pytest.mark.parametrize(
    "text,healed",
    [
        # one unclosed container: its opener goes
        (OPEN + "\n# A\n\ntext", "# A\n\ntext\n"),
        # two openers then content: both go, the content stays
        (_openers(2) + "\n# B\n\nmore", "# B\n\nmore\n"),
        (_openers(3) + "\n# C\n\nlast", "# C\n\nlast\n"),
        # content between the openers: each opener unwraps the rest, all content is kept in order
        (OPEN + "\n# A\n\ntext\n" + OPEN + "\n# B\n\nmore", "# A\n\ntext\n# B\n\nmore\n"),
        (
            OPEN + "\n# A\n\ntext\n" + OPEN + "\n# B\n\nmore\n" + OPEN + "\n# C\n\nlast",
            "# A\n\ntext\n# B\n\nmore\n# C\n\nlast\n",
        ),
        # 16 levels is within the bound
        (_openers(MAX_UNWRAP_ROUNDS) + "\n# D\n\nkept", "# D\n\nkept\n"),
    ],
)
def test_nested_openers_with_content_unwrap(text: str, healed: str) -> None:
    h = FMT.heal(text)
    assert h.text == healed
    assert {r.kind for r in h.repairs} == {"container_unwrapped"}
    assert FMT.is_valid(h.text)
    assert FMT.heal(h.text).text == h.text


def test_content_under_too_many_openers_is_refused() -> None:
    with pytest.raises(HealError, match="nested more than 16 deep"):
        FMT.heal(_openers(MAX_UNWRAP_ROUNDS + 1) + "\n# D\n\nkept")
