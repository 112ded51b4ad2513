"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import pytest

from formatbook_core import check


@pytest.mark.parametrize(
    ("fn", "family", "given", "additional"),
    [
        ("Ludwig van Beethoven", ["van Beethoven"], "Ludwig", []),
        ("Jean-Claude Van Damme", ["Van Damme"], "Jean-Claude", []),
        ("Vincent van der Berg", ["van der Berg"], "Vincent", []),
        ("Leonardo da Vinci", ["da Vinci"], "Leonardo", []),
        ("Ada King Lovelace", ["Lovelace"], "Ada", ["King"]),
        ("Dr. Martin Luther King Jr.", ["King"], "Martin", ["Luther"]),
    ],
)
def test_n_derived_from_fn_keeps_the_particles_of_the_family_name(
    fn: str, family: list[str], given: str, additional: list[str]
) -> None:
    # 'Ludwig van Beethoven' became N:Beethoven;Ludwig;van;; — 'van' as a middle name.
    result = check(f"BEGIN:VCARD\nVERSION:3.0\nFN:{fn}\nEND:VCARD", "EXPECT VCARD")
    assert result.ok
    n = result.value.n.value
    as_list = lambda v: v if isinstance(v, list) else ([v] if v else [])  # noqa: E731
    assert as_list(n.family) == family
    assert n.given == given
    assert as_list(n.additional) == additional


def test_a_windows_path_keeps_its_backslashes() -> None:
    # '\n' of '\notes' was kept as an escape while '\U' and '\a' were doubled: the NOTE
    # passed as 'C:\Users\ada' + newline + 'otes.txt'.
    reply = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nN:A;;;;\nNOTE:C:\\Users\\ada\\notes.txt\nEND:VCARD"
    result = check(reply, "EXPECT VCARD")
    assert result.ok
    assert result.value.note.value == "C:\\Users\\ada\\notes.txt"


def test_escapes_the_writer_meant_are_still_read() -> None:
    reply = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nN:A;;;;\nNOTE:one\\ntwo\\, three; four\nEND:VCARD"
    result = check(reply, "EXPECT VCARD")
    assert result.ok
    assert result.value.note.value == "one\ntwo, three; four"
