"""The contract suite itself: it passes a correct format and catches each kind of broken one.

Each broken format differs from the correct ``Digits`` in one method, so a check that
failed to notice would pass here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from formatbook_core import Analysis, Healed, Repair, Span, StreamStatus, Violation
from formatbook_core.testing import (
    FormatContract,
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
    contract_cases,
    garbage_input,
    garbage_names,
    make_contract,
    mangled_variants,
    prefix_positions,
    wrap_in_prose,
)

from .digits_format import Digits, DigitsChecker

_ROOT = Path(__file__).resolve().parents[2]


class TestDigitsContract(FormatContract):
    """A third party's use of the mixin: the correct format passes the whole suite."""

    format = Digits()
    huge_size = 300_000
    hypothesis_examples = 40


class TestDigitsWithOptionsContract(FormatContract):
    """``samples``, ``schema`` and ``options`` set on the class reach every call."""

    class _Recording(Digits):
        seen: set = set()

        def is_valid(self, value, schema=None, **options):
            type(self).seen.add((schema, tuple(sorted(options))))
            return super().is_valid(value, schema, **options)

    format = _Recording()
    samples = ("42",)
    schema = "a-schema"
    options = {"base": 10}
    huge_size = 1000
    hypothesis_examples = 5

    def test_options_reached_the_format(self):
        type(self.format).seen.clear()
        check_sample_is_valid(self.format, "42", self.schema, self.options)
        assert ("a-schema", ("base",)) in type(self.format).seen
        assert (None, ()) not in type(self.format).seen


# --- the helpers ----------------------------------------------------------------------


def test_prefix_positions_short_text_gets_every_prefix():
    assert prefix_positions(3) == [0, 1, 2, 3]


def test_prefix_positions_long_text_keeps_both_ends_and_stays_small():
    picks = prefix_positions(10_000, limit=20)
    assert picks[0] == 0 and picks[-1] == 10_000
    assert {1, 2, 9_999} <= set(picks)
    assert len(picks) <= 20 + 1 + 16
    assert picks == sorted(set(picks))


def test_wrap_in_prose_uses_a_fence_longer_than_the_sample_backticks():
    (_, reply), *_ = wrap_in_prose("a\n````\nb", "markdown")
    assert "`````markdown\na\n````\nb\n`````" in reply


def test_mangled_variants_differ_from_the_sample_and_each_other():
    variants = dict(mangled_variants('{"a": [1, 2]}'))
    assert variants["trailing-comma"] == '{"a": [1, 2], }'
    assert variants["truncated-last"] == '{"a": [1, 2]'
    assert variants["quotes-swapped"] == "{'a': [1, 2]}"
    assert len(set(variants.values())) == len(variants)
    assert '{"a": [1, 2]}' not in variants.values()


def test_garbage_inputs_are_hostile_and_sized():
    assert garbage_input("empty") == ""
    assert garbage_input("deep-brackets") == "[" * 100_000
    assert len(garbage_input("huge-line", 1234)) == 1234
    assert "\ud800" in garbage_input("lone-surrogates")
    assert len(set(garbage_names())) == len(garbage_names())


def test_contract_cases_pairs_the_format_with_each_sample():
    fmt = Digits()
    assert contract_cases(fmt) == [(fmt, "0"), (fmt, "12345"), (fmt, "007")]


def test_make_contract_names_the_class_for_pytest():
    cls = make_contract(Digits(), huge_size=5)
    assert cls.__name__ == "TestDigitsContract"
    assert issubclass(cls, FormatContract) and cls.huge_size == 5


def test_the_correct_format_passes_the_plain_checks():
    fmt = Digits()
    check_protocol(fmt)
    for sample in fmt.samples:
        check_sample_is_valid(fmt, sample)
        check_stream_prefixes(fmt, sample, strict=True)
        check_can_be_valid_prefixes(fmt, sample)
        check_heal_unchanged(fmt, sample)
        check_locate_in_prose(fmt, sample, whole_reply=False)
        check_copy_independent(fmt, sample)
    assert check_heal_idempotent(fmt, "1a2").text == "12"
    assert check_heal_idempotent(fmt, "no digits") is None


# --- broken formats, one defect each --------------------------------------------------


class RaisesOnDeepNesting(Digits):
    def is_valid(self, value, schema=None, **options):
        if "[[[[" in value:
            raise RecursionError("maximum recursion depth exceeded")
        return super().is_valid(value, schema, **options)


class HealRaisesValueError(Digits):
    def heal(self, value, schema=None, **options):
        if not value:
            raise ValueError("empty")
        return super().heal(value, schema, **options)


class ChunkOfOneRejected(Digits):
    class _Checker(DigitsChecker):
        def feed(self, chunk):
            if len(chunk) == 1 and self.fed >= 1:
                self.failed_at = self.fed
            return super().feed(chunk)

        def copy(self):
            clone = ChunkOfOneRejected._Checker(self.strict)
            clone.fed, clone.digits, clone.failed_at = self.fed, self.digits, self.failed_at
            return clone

    def stream(self, schema=None, *, strict=True, **options):
        return self._Checker(strict)


class SharedCopy(Digits):
    class _Checker(DigitsChecker):
        def copy(self):
            return self  # the "copy" is the same object

    def stream(self, schema=None, *, strict=True, **options):
        return self._Checker(strict)


class ShallowCopy(Digits):
    """A copy that shares its mutable state with the original."""

    class _Checker:
        def __init__(self, strict, state=None):
            self.strict = strict
            self.state = state if state is not None else {"fed": 0, "bad": None, "digits": 0}

        def feed(self, chunk):
            for ch in chunk:
                if not ch.isdigit() and self.strict and self.state["bad"] is None:
                    self.state["bad"] = self.state["fed"]
                self.state["digits"] += ch.isdigit()
                self.state["fed"] += 1
            return StreamStatus(self.state["bad"] is None)

        def copy(self):
            return ShallowCopy._Checker(self.strict, self.state)

        def finish(self):
            return StreamStatus(self.state["bad"] is None and self.state["digits"] > 0, complete=True)

    def stream(self, schema=None, *, strict=True, **options):
        return self._Checker(strict)


class HealChangesValidInput(Digits):
    def heal(self, value, schema=None, **options):
        healed = super().heal(value, schema, **options)

        return Healed(healed.text.lstrip("0") or "0", (Repair("zeros", "dropped leading zeros"),))


class HealSilentlyChanges(Digits):
    def heal(self, value, schema=None, **options):
        return Healed(super().heal(value, schema, **options).text)  # repairs forgotten


class HealLeavesInvalid(Digits):
    def heal(self, value, schema=None, **options):
        if self.is_valid(value):
            return Healed(value)
        return Healed(value.replace("x", "", 1), (Repair("x", "removed one x"),))


class LocatesWholeReply(Digits):
    def locate(self, reply, schema=None, **options):
        return [Span(0, len(reply))]


class LocateOutOfBounds(Digits):
    def locate(self, reply, schema=None, **options):
        return [Span(0, len(reply) + 5)]


class WhitespaceValues(Digits):
    def extract_values(self, value, schema=None, **options):
        return [value, " "]


class BytesValues(Digits):
    def extract_values(self, value, schema=None, **options):
        return [value.encode()]


class UpperCaseName(Digits):
    name = "Digits"


class NoOptions(Digits):
    def is_valid(self, value, schema=None):
        return super().is_valid(value, schema)


class CanBeValidTooStrict(Digits):
    def can_be_valid(self, partial, schema=None, **options):
        return len(partial) < 3 and super().can_be_valid(partial, schema, **options)


class StrictFinishAcceptsInvalid(Digits):
    class _Checker(DigitsChecker):
        def finish(self):
            return StreamStatus(True, complete=True)

        def copy(self):
            return StrictFinishAcceptsInvalid._Checker(self.strict)

    def stream(self, schema=None, *, strict=True, **options):
        return self._Checker(strict)


class ChangesItsMind(Digits):
    """Answers falsy on a bad character, then truthy again."""

    class _Checker(DigitsChecker):
        def feed(self, chunk):
            status = super().feed(chunk)
            self.failed_at = None
            return status

    def stream(self, schema=None, *, strict=True, **options):
        return self._Checker(strict)


class RelaxedStricterThanHeal(Digits):
    def stream(self, schema=None, *, strict=True, **options):
        return DigitsChecker(True)  # ignores strict=False: rejects what heal would repair


class RejectsOwnSample(Digits):
    samples = ("12", "1 2")


class AnalyzeDisagrees(Digits):
    def analyze(self, value, schema=None, **options):
        return Analysis(value, ())


class ValuesOfDisagrees(Digits):
    """Counts from the parse (what check() counts) differ from extract_values."""

    def values_of(self, analysis, text, schema=None, **options):
        return [text, text]


class HealedAnalysisDisagrees(Digits):
    """Heal hands on an analysis of its text that analyze does not give."""

    def heal(self, value, schema=None, **options):
        healed = super().heal(value, schema, **options)
        return Healed(healed.text, healed.repairs, analysis=Analysis(None, (Violation("digits.x", "wrong"),)))


BROKEN = [
    (RaisesOnDeepNesting(), lambda f: check_robust(f, garbage_input("deep-brackets")), "RecursionError"),
    (HealRaisesValueError(), lambda f: check_robust(f, ""), "ValueError"),
    (ChunkOfOneRejected(), lambda f: check_stream_prefixes(f, "12345"), "rejected the valid prefix"),
    (SharedCopy(), lambda f: check_copy_independent(f, "12345"), "returned the checker itself"),
    (ShallowCopy(), lambda f: check_copy_independent(f, "12345"), "shares state"),
    (HealChangesValidInput(), lambda f: check_heal_unchanged(f, "007"), "changed the valid sample"),
    (HealSilentlyChanges(), lambda f: check_heal_idempotent(f, "1a"), "without listing a repair"),
    (HealLeavesInvalid(), lambda f: check_heal_idempotent(f, "1xx"), "not valid"),
    (LocatesWholeReply(), lambda f: check_locate_in_prose(f, "123"), "did not find the sample"),
    (LocateOutOfBounds(), lambda f: check_robust(f, "12"), "outside"),
    (WhitespaceValues(), lambda f: check_extract_values(f, "12"), "whitespace-only"),
    (BytesValues(), lambda f: check_extract_values(f, "12"), "bytes item"),
    (UpperCaseName(), check_protocol, "lower case"),
    (NoOptions(), check_protocol, r"\*\*options"),
    (CanBeValidTooStrict(), lambda f: check_can_be_valid_prefixes(f, "12345"), "can_be_valid rejects"),
    (CanBeValidTooStrict(), lambda f: check_robust(f, "12345"), "can_be_valid is false"),
    (StrictFinishAcceptsInvalid(), lambda f: check_robust(f, ""), r"finish\(\) accepts"),
    (ChangesItsMind(), lambda f: check_robust(f, "a1"), "then truthy again|finish\\(\\) is truthy"),
    (RelaxedStricterThanHeal(), lambda f: check_robust(f, "1a"), "relaxed checker"),
    (RejectsOwnSample(), lambda f: check_sample_is_valid(f, "1 2"), "rejects its own sample"),
    (AnalyzeDisagrees(), lambda f: check_robust(f, "x"), "analyze reports"),
    (ValuesOfDisagrees(), lambda f: check_extract_values(f, "12"), r"values_of\(analyze\(text\)\)"),
    (HealedAnalysisDisagrees(), lambda f: check_heal_idempotent(f, "1a"), "hands on an analysis"),
]


@pytest.mark.parametrize(
    ("fmt", "check", "message"),
    [pytest.param(*case, id=f"{type(case[0]).__name__}-{i}") for i, case in enumerate(BROKEN)],
)
def test_the_contract_catches(fmt, check, message):
    with pytest.raises(AssertionError, match=message):
        check(fmt)


def test_a_contract_without_a_format_fails_loudly():
    with pytest.raises(AssertionError, match="needs a format"):
        check_robust(None, "x")


def test_a_third_party_test_module_reports_contract_failures(tmp_path):
    """The mixin works from a foreign test module: failures are failures, not errors."""
    (tmp_path / "test_thirdparty.py").write_text(
        textwrap.dedent(
            """
        from formatbook_core import BaseFormat
        from formatbook_core.testing import FormatContract

        class Upper(BaseFormat):
            name = "upper"
            samples = ("ABC", "abc")  # the second sample is not valid

            def is_valid(self, value, schema=None, **options):
                return value.isupper()

            def can_be_valid(self, partial, schema=None, **options):
                return partial == partial.upper()

        class TestUpperContract(FormatContract):
            format = Upper()
            huge_size = 1000
            hypothesis_examples = 5
        """
        )
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "sample_is_valid or protocol",
            str(tmp_path / "test_thirdparty.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "test_sample_is_valid[sample1] FAILED" in out or "1 failed" in out, out
    assert "rejects its own sample 'abc'" in out, out
    assert "2 passed" in out, out


class Anything(Digits):
    """Every text is valid, and the payload is always the whole reply (like ``text``)."""

    def validate(self, value, schema=None, **options):
        return []

    def can_be_valid(self, partial, schema=None, **options):
        return True

    def locate(self, reply, schema=None, **options):
        return [Span(0, len(reply))]


def test_a_whole_reply_locate_passes_when_the_whole_reply_is_a_payload():
    check_locate_in_prose(Anything(), "12")  # auto: the wrapped reply is valid
    check_locate_in_prose(Anything(), "12", whole_reply=True)
    with pytest.raises(AssertionError, match="did not find the sample"):
        check_locate_in_prose(Anything(), "12", whole_reply=False)


def test_a_declared_whole_reply_locate_needs_no_valid_reply():
    # LocatesWholeReply's wrapped reply is not valid digits: auto-detection refuses it,
    # a declaration accepts it
    check_locate_in_prose(LocatesWholeReply(), "123", whole_reply=True)
    with pytest.raises(AssertionError, match="did not find the sample"):
        check_locate_in_prose(LocatesWholeReply(), "123", whole_reply=None)


def test_the_checks_fail_under_python_dash_O_too():
    """The checks raise AssertionError explicitly: `assert` statements vanish under -O."""
    code = textwrap.dedent(
        """
        from formatbook_core.testing import check_robust, check_sample_is_valid
        from tests.contract.digits_format import Digits
        for call in (lambda: check_sample_is_valid(Digits(), "abc"), lambda: check_robust(None, "x")):
            try:
                call()
            except AssertionError:
                pass
            else:
                raise SystemExit("a check passed under -O")
        assert False, "asserts are on"  # vanishes under -O, so reaching here is fine
        print("ok")
        """
    )
    run = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, cwd=_ROOT)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


class CrashesOnAnAttack(Digits):
    def validate(self, value, schema=None, **options):
        if "<!ENTITY" in value:
            raise RecursionError("entity expansion")
        return super().validate(value, schema, **options)


def test_a_contributed_attack_input_reaches_the_format(tmp_path):
    (tmp_path / "test_attacks.py").write_text(
        textwrap.dedent(
            """
        from formatbook_core.testing import FormatContract
        from tests.contract.test_contract_catches import CrashesOnAnAttack

        class TestAttacked(FormatContract):
            format = CrashesOnAnAttack()
            attack_inputs = {"entities": '<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>', "plain": "123"}
            damaged_inputs = {"letters": "12a3"}
        """
        )
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "attack_input or damaged_input",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=_ROOT,
        env={**os.environ, "PYTHONPATH": str(_ROOT)},
    )
    out = run.stdout + run.stderr
    assert "test_attack_input_never_raises[attack-entities] FAILED" in out or "1 failed" in out, out
    assert "RecursionError: entity expansion" in out, out
    assert "1 failed, 2 passed" in out, out


def test_whole_reply_locate_is_read_from_the_format():
    class Declares(LocatesWholeReply):
        whole_reply_locate = True

    assert make_contract(Declares())().locates_whole_reply() is True
    assert make_contract(LocatesWholeReply())().locates_whole_reply() is None
    assert make_contract(Declares(), whole_reply_locate=False)().locates_whole_reply() is False
