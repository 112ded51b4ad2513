"""``FormatContract``: the mixin a plugin's tests subclass, and ``make_contract``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .checks import (
    check_can_be_valid_prefixes,
    check_copy_independent,
    check_extract_values,
    check_heal_idempotent,
    check_heal_unchanged,
    check_locate_in_prose,
    check_protocol,
    check_robust,
    check_sample_is_valid,
    check_stream_prefixes,
    check_valid_document,
)
from .guard import Guard
from .inputs import garbage_input, garbage_names, mangled_variants
from .strategies import strategies as _strategies


class FormatContract:
    """Subclass it in your tests (name the subclass ``Test...``) and set ``format``.

    ``samples`` defaults to ``format.samples``; ``schema`` and ``options`` are passed to
    every call. ``whole_reply_locate`` defaults to the format's own attribute of that name
    (see ``check_locate_in_prose``). ``huge_size`` is the size of the huge garbage inputs,
    ``hypothesis_examples`` the examples per random test.

    A plugin contributes inputs of its own: ``attack_inputs`` (name -> hostile text or a
    callable taking ``huge_size``; each gets an answer and nothing raises) and
    ``damaged_inputs`` (name -> a damaged document: robust, healing is idempotent and, without
    a schema, gives a valid document).
    """

    format: Any = None
    samples: Sequence[str] | None = None
    schema: Any = None
    options: dict[str, Any] = {}
    whole_reply_locate: bool | None = None
    huge_size: int = 2_000_000
    hypothesis_examples: int = 150
    attack_inputs: Mapping[str, str | Callable[[int], str]] = {}
    damaged_inputs: Mapping[str, str] = {}

    # pytest calls this for every test method of the class (per-class parametrization).
    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "sample" in metafunc.fixturenames:
            samples = self.contract_samples()
            metafunc.parametrize("sample", samples, ids=[f"sample{i}" for i in range(len(samples))])
        if "garbage" in metafunc.fixturenames:
            names = [*garbage_names(), "huge-repeated-samples"]
            metafunc.parametrize("garbage", names, ids=names)
        for fixture, contributed in (("attack", self.attack_inputs), ("damaged", self.damaged_inputs)):
            if fixture in metafunc.fixturenames:
                _parametrize_contributed(metafunc, fixture, list(contributed))

    def contract_samples(self) -> list[str]:
        if self.samples is not None:
            return list(self.samples)
        if self.format is None:
            return []  # test_protocol says that the contract needs a format
        return list(Guard(self.format).fmt.samples or ())

    def locates_whole_reply(self) -> bool | None:
        if self.whole_reply_locate is not None:
            return self.whole_reply_locate
        return True if Guard(self.format).fmt.whole_reply_locate else None

    def attack_input(self, name: str) -> str:
        made = self.attack_inputs[name]
        return made(self.huge_size) if callable(made) else made

    def garbage_input(self, name: str) -> str:
        if name == "huge-repeated-samples":
            samples = [s for s in self.contract_samples() if s.strip()] or ["x"]
            block = "\n".join(samples) + "\n"
            return (block * (self.huge_size // len(block) + 1))[: self.huge_size]
        return garbage_input(name, self.huge_size)

    # --- protocol
    def test_protocol(self) -> None:
        check_protocol(self.format)

    def test_has_samples(self) -> None:
        if not (self.contract_samples()):
            raise AssertionError(f"{self.format!r} has no samples: set `samples` on the format or the test class")

    # --- samples
    def test_sample_is_valid(self, sample: str) -> None:
        check_sample_is_valid(self.format, sample, self.schema, self.options)

    def test_sample_streams_char_by_char_strict(self, sample: str) -> None:
        check_stream_prefixes(self.format, sample, True, self.schema, self.options)

    def test_sample_streams_char_by_char_relaxed(self, sample: str) -> None:
        check_stream_prefixes(self.format, sample, False, self.schema, self.options)

    def test_can_be_valid_on_prefixes(self, sample: str) -> None:
        check_can_be_valid_prefixes(self.format, sample, self.schema, self.options)

    def test_heal_leaves_sample_unchanged(self, sample: str) -> None:
        check_heal_unchanged(self.format, sample, self.schema, self.options)

    def test_heal_idempotent_on_mangled_samples(self, sample: str) -> None:
        for _label, text in mangled_variants(sample):
            check_robust(self.format, text, self.schema, self.options)
            healed = check_heal_idempotent(self.format, text, self.schema, self.options)
            if healed is not None and self.schema is None and len(healed.text) <= 20_000:
                check_valid_document(self.format, healed.text, self.schema, self.options, limit=16)

    def test_locate_finds_sample_in_prose(self, sample: str) -> None:
        check_locate_in_prose(self.format, sample, self.schema, self.options, self.locates_whole_reply())

    def test_extract_values_on_sample(self, sample: str) -> None:
        check_extract_values(self.format, sample, self.schema, self.options)

    def test_checker_copy_is_independent(self, sample: str) -> None:
        check_copy_independent(self.format, sample, self.schema, self.options)

    # --- garbage
    def test_garbage_never_raises(self, garbage: str) -> None:
        check_robust(self.format, self.garbage_input(garbage), self.schema, self.options)

    def test_attack_input_never_raises(self, attack: str) -> None:
        check_robust(self.format, self.attack_input(attack), self.schema, self.options)

    def test_damaged_input_heals_idempotently(self, damaged: str) -> None:
        text = self.damaged_inputs[damaged]
        check_robust(self.format, text, self.schema, self.options)
        healed = check_heal_idempotent(self.format, text, self.schema, self.options)
        if healed is not None and self.schema is None:
            check_valid_document(self.format, healed.text, self.schema, self.options, limit=16)

    def test_random_text_never_raises(self) -> None:
        from hypothesis import HealthCheck, given, settings  # noqa: PLC0415 - only when the test runs

        random_text, _ = _strategies(self.contract_samples())

        @settings(
            max_examples=self.hypothesis_examples,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(random_text)
        def run(text: str) -> None:
            check_robust(self.format, text, self.schema, self.options)

        run()

    def test_mutated_samples_never_raise(self) -> None:
        from hypothesis import HealthCheck, given, settings  # noqa: PLC0415 - only when the test runs

        _, mutated = _strategies(self.contract_samples())

        @settings(
            max_examples=self.hypothesis_examples,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(mutated)
        def run(text: str) -> None:
            check_robust(self.format, text, self.schema, self.options)

        run()


def _parametrize_contributed(metafunc: Any, fixture: str, names: list[str]) -> None:
    if names:
        metafunc.parametrize(fixture, names, ids=[f"{fixture}-{n}" for n in names])
        return
    import pytest  # noqa: PLC0415 - pytest only when the contract runs under it

    reason = f"the contract class contributes no {fixture}_inputs"
    metafunc.parametrize(fixture, [pytest.param(None, marks=pytest.mark.skip(reason=reason))], ids=[f"no-{fixture}"])


def make_contract(fmt: Any, **attributes: Any) -> type:
    """A ``FormatContract`` subclass for ``fmt``, named ``Test<Name>Contract`` so that
    pytest collects it when it is bound to a module-level name."""
    name = "".join(part.capitalize() for part in str(Guard(fmt).name).replace("-", "_").split("_") if part)
    safe = "".join(ch for ch in name if ch.isalnum()) or "Format"
    return type(f"Test{safe}Contract", (FormatContract,), {"format": fmt, **attributes})


def contract_cases(fmt: Any) -> list[tuple[Any, str]]:
    """``(format, sample)`` pairs, for parametrizing your own tests over a format's samples."""
    return [(fmt, s) for s in Guard(fmt).fmt.samples or ()]
