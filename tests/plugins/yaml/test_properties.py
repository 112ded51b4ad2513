"""Universal properties on YAML written by another program: ruamel.yaml's own dumper, in
block and flow styles, on random JSON-like values. Each document is valid, reads back to
the value dumped, streams on every prefix (soundness), is accepted by ``can_be_valid`` on
every prefix, and heals to itself."""

from __future__ import annotations

import io
import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from formatbook_core import get_format

FMT = get_format("yaml")

_TEXT = st.text(
    alphabet=st.sampled_from(list("abcXYZ 019:#-'\"\\,[]{}&*!|>%@`?\t\u00e9\u4e2d\U0001f600"))
    | st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
    max_size=12,
)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | _TEXT
)
# (a key starting with ':' is dumped plain in flow style, "{:1: null}", which ruamel's own
# parser refuses: one of the listed yaml-test-suite disagreements, 4MUZ and kin)
_KEYS = st.text(alphabet=st.sampled_from(list("abcdxyz_ 12:-")), min_size=1, max_size=8).filter(
    lambda k: not k.startswith(":")
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)
_ROOTS = st.lists(_VALUES, min_size=1, max_size=4) | st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=5)


def _dump(value: object, flow: bool) -> str:
    from ruamel.yaml import YAML  # noqa: PLC0415 - lazy in the product; here for symmetry

    y = YAML(typ="safe", pure=True)
    y.default_flow_style = flow
    y.allow_unicode = True
    out = io.StringIO()
    y.dump(value, out)
    return out.getvalue()


def _starts_flow_indicator(value: object) -> bool:
    """A string starting with '?' or ':' is dumped plain in flow style, where ruamel's
    parser reads it otherwise (the listed disagreements 652Z, HM87/01, 4MUZ): the format
    refuses "?x" (yaml.ambiguous) and ruamel refuses ":x"."""
    if isinstance(value, str):
        return value[:1] in ("?", ":")
    if isinstance(value, dict):
        return any(_starts_flow_indicator(k) or _starts_flow_indicator(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_starts_flow_indicator(v) for v in value)
    return False


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b and type(a) is type(b)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ROOTS, st.booleans())
def test_dumped_yaml_reads_back_streams_and_heals_to_itself(value, flow):
    assume(not (flow and _starts_flow_indicator(value)))
    text = _dump(value, flow)
    analysis = FMT.analyze(text)
    assert analysis.ok, (text, analysis.violations)
    assert _same(analysis.value, value), (text, analysis.value, value)
    checker = FMT.stream()
    for i, ch in enumerate(text):
        status = checker.feed(ch)
        assert status, (text[: i + 1], status.reason)
    assert checker.finish()
    for cut in range(len(text) + 1):
        assert FMT.can_be_valid(text[:cut]), text[:cut]
    assert FMT.heal(text).repairs == ()


@settings(max_examples=100, deadline=None)
@given(_ROOTS, st.integers(0, 10_000), st.sampled_from(["\t", ": x", "\n---\n", "", " #"]))
def test_heal_is_idempotent_and_its_spans_lie_in_the_reply(value, where, damage):
    text = _dump(value, False)
    cut = where % (len(text) + 1)
    broken = text[:cut] + damage + text[cut:] if damage else text[:cut]
    try:
        healed = FMT.heal(broken)
    except ValueError:
        return
    assert FMT.is_valid(healed.text) or not FMT.is_valid(healed.text, root="any")
    for r in healed.repairs:
        assert 0 <= r.span.start <= r.span.end <= len(broken)
    again = FMT.heal(healed.text)
    assert again.text == healed.text
