"""Property tests: valid JSON heals to itself; healing is idempotent; garbage never
raises anything but HealError; the format keeps the shared contract."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import HealError, Span
from formatbook_core.testing import FormatContract
from formatbook_json import JsonFormat

FMT = JsonFormat()

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_values, st.sampled_from([None, 2]), st.booleans())
def test_valid_json_heals_to_itself(value, indent, ascii_only):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    h = FMT.heal(text)
    assert h.text == text and h.repairs == ()


def _break(text: str, how: int) -> str:
    if how == 0:
        return text.replace('"', "'")
    if how == 1:
        return text.replace("]", ",]").replace("}", ",}")
    if how == 2:
        return text.replace("true", "True").replace("null", "None")
    if how == 3:
        return text[: len(text) * 2 // 3]
    return text + "}]"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_values, st.integers(0, 4))
def test_healing_is_idempotent(value, how):
    broken = _break(json.dumps(value), how)
    try:
        h = FMT.heal(broken)
    except HealError:
        return
    json.loads(h.text)  # valid JSON
    for r in h.repairs:
        assert isinstance(r.span, Span) and 0 <= r.span.start <= r.span.end <= len(broken)
    again = FMT.heal(h.text)
    assert again.repairs == () and again.text == h.text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}[]:,\"' \n\\/*ab1.-eTNn\u201c\u201d\x00")), max_size=40))
def test_garbage_raises_only_heal_error(text):
    try:
        h = FMT.heal(text)
    except HealError as err:
        assert err.violations
        return
    json.loads(h.text)
    assert FMT.heal(h.text).repairs == ()


def test_deep_nesting_is_a_heal_error_not_a_crash():
    for text in ("[" * 1_000_000, "[" * 1_000_000 + "]" * 1_000_000, '{"a":' * 200_000):
        try:
            FMT.heal(text)
        except HealError as err:
            assert err.violations[0].code in (
                "json.too_deep",
                "json.heal",
                "json.too_large",
            )  # or too long to heal
        else:  # pragma: no cover - must not happen
            raise AssertionError("a million levels healed")
        assert not FMT.is_valid(text)
        assert FMT.analyze(text).violations


def test_oversize_is_a_violation():
    text = '["' + "x" * 2000 + '"]'
    a = FMT.analyze(text, max_size=1000)
    assert [v.code for v in a.violations] == ["json.too_large"]
    try:
        FMT.heal(text, max_size=1000)
    except HealError as err:
        assert err.violations[0].code == "json.too_large"
    else:  # pragma: no cover
        raise AssertionError("oversize healed")


def test_binary_ish_input():
    for text in ("\x00\x01\x02\xff\ufffe", "\ud800", "PK\x03\x04" + "\x00" * 100, "\x1b[31m{}\x1b[0m"):
        assert not FMT.is_valid(text)
        try:
            FMT.heal(text)
        except HealError:
            pass
        FMT.locate(text)
        FMT.extract_values(text)


def test_huge_valid_reply():
    text = json.dumps({"rows": [{"id": i, "text": "lorem ipsum " * 3} for i in range(40_000)]})
    assert len(text) > 2_000_000
    assert FMT.is_valid(text)
    assert FMT.heal(text).repairs == ()


class TestJsonContract(FormatContract):
    format = FMT
