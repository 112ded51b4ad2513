"""The size limit is the core's, decided on the reply as received before any work.

Issue 30 ("refusing costs more than accepting"): a reply longer than ``max_size`` is
refused with ``reply.too_large`` before the format locates, analyzes or heals anything,
for every registered format (proved by counting the format's calls, not by timing). A
reply within the limit whose healing grows it past the limit fails too (the ruling in
docs/rules.md, "Limits"), so that ``heal(heal(x)) == heal(x)`` holds under any
``max_size``. The formats and inputs come from the registry and the contract classes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from formatbook_core import Expectations, Healed, HealError, StreamGuard, check, heal, hookimpl, list_formats
from formatbook_core.limits import refuse_grown, too_large
from tests.contract.facts import contract_classes

from .conftest_formats import KvFormat, kv_registry

#: what the pipeline may ask of a format: none of it runs for a refused reply
_WORK = ("candidates", "locate", "analyze", "heal", "heal_analyzed", "is_valid", "extract_values", "stream")

_FORMATS = {entry.format.name: entry.format for entry in list_formats()}


def _counted(monkeypatch: pytest.MonkeyPatch, fmt: Any) -> Counter[str]:
    """Count the calls of ``fmt``'s work methods (on its class: the registry's instance is
    the one the pipeline calls), each still doing its work."""
    calls: Counter[str] = Counter()
    cls = type(fmt)
    for name in _WORK:
        original = getattr(cls, name, None)
        if original is None:
            continue

        def counting(self: Any, *args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, counting)
    return calls


def _sample(fmt: Any) -> str:
    """The format's longest sample: a payload it reads."""
    return max(fmt.samples, key=len)


def _expect(fmt: Any, max_size: int) -> Expectations:
    return Expectations(format=fmt.name, options={"max_size": max_size})


@pytest.mark.parametrize("name", sorted(_FORMATS))
def test_a_reply_one_over_the_limit_is_refused_before_the_format_works(monkeypatch, name):
    fmt = _FORMATS[name]
    reply = _sample(fmt)
    exp = _expect(fmt, len(reply) - 1)
    calls = _counted(monkeypatch, fmt)
    result = check(reply, exp)
    assert not result.ok
    assert [v.code for v in result.violations] == ["reply.too_large"]
    v = result.violations[0]
    assert v.keyword == "max_size" and v.expected == len(reply) - 1
    assert f"{len(reply):,} characters" in v.message
    with pytest.raises(HealError) as refused:
        heal(reply, exp)
    assert [v.code for v in refused.value.violations] == ["reply.too_large"]
    # the same as UTF-8 bytes: the length counts characters, not bytes
    assert [v.code for v in check(reply.encode(), exp).violations] == ["reply.too_large"]
    assert calls == Counter(), dict(calls)


@pytest.mark.parametrize("name", sorted(_FORMATS))
def test_a_reply_exactly_at_the_limit_is_read(monkeypatch, name):
    """The boundary: at the limit the format does its work (the counter sees it), and no
    size violation comes back."""
    fmt = _FORMATS[name]
    reply = _sample(fmt)
    calls = _counted(monkeypatch, fmt)
    result = check(reply, _expect(fmt, len(reply)))
    assert "reply.too_large" not in [v.code for v in result.violations]
    assert calls["candidates"] + calls["locate"] >= 1, dict(calls)


def test_bytes_are_measured_in_characters_not_bytes():
    """Four 4-byte characters are 4 characters: at a limit of 4 they pass admission."""
    fmt = _FORMATS["text"] if "text" in _FORMATS else next(iter(_FORMATS.values()))
    reply = "\U0001f600" * 4
    codes = [v.code for v in check(reply.encode(), _expect(fmt, 4)).violations]
    assert "reply.too_large" not in codes
    assert [v.code for v in check(reply.encode(), _expect(fmt, 3)).violations] == ["reply.too_large"]


def test_the_check_keyword_overrides_the_option_for_admission():
    fmt = next(iter(_FORMATS.values()))
    reply = _sample(fmt)
    assert [v.code for v in check(reply, _expect(fmt, 10 * len(reply)), max_size=len(reply) - 1).violations] == [
        "reply.too_large"
    ]


# --- the ruling: a reply within the limit whose healing grows it past the limit fails ------


class _Growing(KvFormat):
    """kv, whose healing also doubles every value (a format whose repairs lengthen a text)."""

    name = "kvgrow"
    aliases = ()
    mime_types = ()

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        healed = super().heal(value, schema, **options)
        grown = "\n".join(f"{line}{line.partition(': ')[2]}" for line in healed.text.split("\n"))
        return Healed(grown, healed.repairs)


class _GrowingPlugin:
    @hookimpl
    def register_formats(self, register: Any) -> None:
        register(_Growing())


def _growing_registry() -> Any:
    reg = kv_registry()
    reg.register_plugin(_GrowingPlugin(), "kvgrow-plugin")
    return reg


def test_a_heal_that_grows_past_the_limit_fails_with_the_cores_code():
    """'a = b' heals to 'a: bb' (5 characters): within max_size 5 it passes, at 4 (the
    reply's own length, so admitted) it fails with reply.too_large, not the format's code."""
    reg = _growing_registry()
    exp5 = Expectations(format="kvgrow", options={"max_size": 5}, registry=reg)
    exp4 = Expectations(format="kvgrow", options={"max_size": 4}, registry=reg)
    assert heal("a = b", exp5).text == "a: bb"
    assert check("a = b", exp5).ok
    result = check("a=b", exp4)  # 3 characters: admitted; healed to 'a: bb', 5 > 4
    assert not result.ok
    assert [v.code for v in result.violations] == ["reply.too_large"]
    v = result.violations[0]
    assert v.keyword == "max_size" and v.expected == 4
    assert "healing the payload made 5 characters" in v.message
    assert result.repairs == []  # the failed healing lists no repairs
    with pytest.raises(HealError) as refused:
        heal("a=b", exp4)
    assert [v.code for v in refused.value.violations] == ["reply.too_large"]


def _damaged_cases() -> list[tuple[str, Any, str, str]]:
    """(id, contract class, input name, damaged text) for every contract's damaged inputs."""
    out = []
    for cls in contract_classes():
        if cls.format is None:
            continue
        for key, text in cls.damaged_inputs.items():
            out.append((f"{cls.__name__}-{key}", cls, key, text))
    return out


_DAMAGED = _damaged_cases()


def _heal(text: str, cls: Any, max_size: int | None) -> Healed | None:
    options = dict(cls.options) if max_size is None else {**cls.options, "max_size": max_size}
    try:
        return heal(text, Expectations(format=cls.format.name, schema=cls.schema, options=options))
    except HealError:
        return None


@pytest.mark.parametrize(("cls", "key", "text"), [c[1:] for c in _DAMAGED], ids=[c[0] for c in _DAMAGED])
def test_heal_is_idempotent_under_the_smallest_limit_that_admits_the_reply(cls, key, text):
    """Under ``max_size`` = the reply's length (and a few more), what heal returns is within
    the limit and heals to itself; a heal that grows the reply past the limit fails with
    ``reply.too_large`` (and passes once the limit admits the healed text)."""
    free = _heal(text, cls, None)
    for limit in sorted({len(text), len(text) + 1, len(text) + 7}):
        once = _heal(text, cls, limit)
        if once is None:
            if free is not None and len(free.text) > limit:
                with pytest.raises(HealError) as refused:
                    heal(
                        text,
                        Expectations(
                            format=cls.format.name, schema=cls.schema, options={**cls.options, "max_size": limit}
                        ),
                    )
                assert refused.value.violations[0].code == "reply.too_large"
            continue
        assert len(once.text) <= limit, (limit, once.text)
        twice = _heal(once.text, cls, limit)
        assert twice is not None and twice.text == once.text, (limit, once.text)
    if free is not None and len(free.text) > len(text):  # a growing heal: pass at its own length
        again = _heal(text, cls, len(free.text))
        assert again is not None and again.text == free.text


def test_some_contract_damaged_input_grows_when_healed():
    """The ruling's case is exercised by real formats, not only by the double."""
    grown = [c[0] for c in _DAMAGED if (h := _heal(c[3], c[1], None)) is not None and len(h.text) > len(c[3])]
    assert grown


# --- the limits module --------------------------------------------------------------------


def test_too_large_is_decided_on_a_length():
    assert too_large(10, 10) is None
    v = too_large(11, 10)
    assert v is not None and v.code == "reply.too_large" and v.keyword == "max_size" and v.expected == 10
    assert "the reply has 11 characters" in v.message
    grown = too_large(11, 10, healed=True)
    assert grown is not None and "healing the payload made 11" in grown.message


def test_refuse_grown_raises_the_cores_verdict():
    refuse_grown(10, 10)  # within: nothing
    with pytest.raises(HealError) as refused:
        refuse_grown(11, 10)
    assert [v.code for v in refused.value.violations] == ["reply.too_large"]
    assert "healing the payload made 11 characters" in refused.value.violations[0].message


# --- streaming ----------------------------------------------------------------------------


class _Spy:
    """A format's stream checker that records what it is fed."""

    def __init__(self, checker: Any) -> None:
        self.checker = checker
        self.fed: list[str] = []

    def feed(self, chunk: str) -> Any:
        self.fed.append(chunk)
        return self.checker.feed(chunk)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.checker, name)


@pytest.mark.parametrize("lag", [0, 16])
@pytest.mark.parametrize("name", sorted(_FORMATS))
def test_a_guard_refuses_a_chunk_past_the_limit_before_its_checker_reads_it(name, lag):
    fmt = _FORMATS[name]
    reply = _sample(fmt)
    guard = StreamGuard(_expect(fmt, len(reply) - 1), lag=lag)
    spy = guard._checker = _Spy(guard._checker)
    status = guard.feed(reply + " " * lag)  # one chunk past the limit
    assert not status.ok
    assert "max_size" in (status.reason or "")
    assert spy.fed == []
    assert not guard.finish().ok


@pytest.mark.parametrize("name", sorted(_FORMATS))
def test_a_guard_at_the_limit_feeds_its_checker(name):
    fmt = _FORMATS[name]
    reply = _sample(fmt)
    guard = StreamGuard(_expect(fmt, len(reply)))
    spy = guard._checker = _Spy(guard._checker)
    status = guard.feed(reply)
    assert "max_size" not in (status.reason or "")
    assert "".join(spy.fed) != ""
