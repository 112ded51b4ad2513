"""Healing without a schema does not read its own output again: the records it wrote are
the value. Here the output is read again, strictly, and must give exactly that value."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import HealError, check, get_format
from formatbook_core.testing.inputs import mangled_variants

CSV = get_format("csv")
REPLIES = [
    *CSV.samples,
    "name, age\nAda, 36\n\nAlan, 41",
    '| a | b |\n|---|---|\n| x, y | "q" |\n|  | z |',
    'name,quote\nAda,"She said "hi" to me"\n',
    "a;b\n1,5;2\n",
    "a\tb\n \tx\n",
    "a,b\n1,2,\n3, \n",
]


def _agrees(text: str) -> None:
    try:
        healed = CSV.heal(text)
    except HealError:
        return
    result = check(text, "EXPECT CSV")
    if not result.ok or result.text != healed.text:
        return
    again = CSV._analyze(healed.text, None, {})
    assert again.violations == (), (text, healed.text, again.violations)
    assert again.value == result.value, (text, healed.text)


@pytest.mark.parametrize("text", REPLIES)
def test_written_text_reads_back_as_its_records(text):
    for _, variant in [("as is", text), *mangled_variants(text)]:
        _agrees(variant)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list('ab ,;\t|"\n\r-:é')), max_size=40))
def test_random_text_heals_to_what_it_reads_back(text):
    _agrees("name,value\n" + text)
