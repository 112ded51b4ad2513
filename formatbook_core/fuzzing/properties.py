"""The properties every input must keep, through the public API.

Each property is a function ``(target, text, seed)`` that returns quietly or raises
``Broken``. ``seed`` picks the random chunkings a property feeds a ``StreamGuard``, so a
saved repro replays exactly.

* ``contract`` — ``formatbook_core.testing.check_robust``: the contract suite's rules on
  the format itself (never raises, answers agree, heal idempotent, checkers agree).
* ``check_heal`` — ``check`` never raises; ``heal`` raises only ``HealError``; ``heal``
  succeeds exactly when ``check`` accepts, and returns the payload ``check`` returns.
* ``heal_idempotent`` — healing ``heal``'s output changes nothing, and ``check`` finds it
  valid as it stands.
* ``guard_agrees`` — a ``StreamGuard`` fed random chunks never turns falsy on a reply
  ``check`` accepts, and its ``finish()`` is ``check()``'s verdict; a strict guard never
  stops a reply that is valid with no repair.
* ``guard_limits`` — with ``MAX`` limits of every unit set at exactly what ``check``
  counted, ``check`` still accepts, and a guard fed random chunks never turns falsy.
"""

from __future__ import annotations

import dataclasses
import random
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..expectations import Count, Expectations, parse_expectations
from ..pipeline import check, heal
from ..results import CheckResult, HealError
from ..streaming import StreamGuard
from ..testing import check_robust

# Far above any count an input can reach: the counting target asks for every unit and
# fails only when the format does.
_NO_LIMIT = 10**12


class Broken(Exception):
    """A property does not hold. ``kind`` is short and stable (the shrinker keeps an input
    only while it breaks the property the same way); ``detail`` says everything."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass
class Target:
    """What inputs are checked against: one EXPECT format line (``JSON``, ``MARKDOWN
    contracts/answer.md level=2``), its schema resolved against ``base_dir``."""

    expect: str
    base_dir: Path | None = None

    def __post_init__(self) -> None:
        self.expectations = parse_expectations(f"EXPECT {self.expect}", base_dir=self.base_dir)
        if self.expectations.counts or self.expectations.fmt is None:
            raise ValueError(f"a fuzz target is one EXPECT format line, not {self.expect!r}")
        self.format = self.expectations.fmt.name
        units = self.expectations.active_registry().units()
        # a unit that takes an argument (PARAGRAPHS SEPARATED BY "***", a quoted literal)
        # counts nothing without one: the units that stand alone are fuzzed
        self.units = sorted(name for name, unit in units.items() if unit.argument is None)
        self.counting = self.with_counts([Count(u, max=_NO_LIMIT) for u in self.units])

    def with_counts(self, counts: list[Count]) -> Expectations:
        # dataclasses.replace keeps the schema already loaded
        return dataclasses.replace(self.expectations, counts=counts)

    @property
    def label(self) -> str:
        return self.expect


def _call(what: str, fn: Callable[..., Any], *args: Any, allowed: tuple[type[BaseException], ...] = (), **kw: Any):
    try:
        return fn(*args, **kw)
    except allowed:
        raise
    except Exception as exc:
        raise Broken(f"{what} raised {type(exc).__name__}", "".join(traceback.format_exception(exc))[-4000:]) from exc


def _chunks(text: str, rng: random.Random) -> list[str]:
    """A random chunking: mostly small pieces (tokens split anywhere), now and then a run
    of single characters or one big piece."""
    out: list[str] = []
    i = 0
    while i < len(text):
        size = rng.choice((1, 1, 2, 3, 5, 8, 16, 64, 1024))
        out.append(text[i : i + size])
        i += size
    return out


def _codes(result: CheckResult) -> list[str]:
    return [v.code for v in result.violations]


def contract(target: Target, text: str, seed: int) -> None:
    exp = target.expectations
    try:
        check_robust(exp.fmt, text, exp.loaded_schema, exp.options)
    except AssertionError as err:
        message = str(err)
        cause = err.__cause__
        # the kind: what broke, without the input quoted in the message
        kind = re.split(r"\s['\"]", message, maxsplit=1)[0].strip()
        if cause is not None:
            kind = f"{kind} {type(cause).__name__}"
        raise Broken(f"contract: {re.sub(r'[0-9]+', 'N', kind)[:120]}", message[:4000]) from err


def check_heal(target: Target, text: str, seed: int) -> None:
    exp = target.expectations
    result = _call("check", check, text, exp)
    try:
        healed = _call("heal", heal, text, exp, allowed=(HealError,))
    except HealError:
        healed = None
    if result.ok != (healed is not None):
        raise Broken(
            "check and heal disagree",
            f"check ok={result.ok} ({_codes(result)}), heal {'succeeded' if healed else 'raised HealError'}",
        )
    if healed is not None and healed.text != result.text:
        raise Broken("heal's text is not check's", f"check: {result.text!r}\nheal: {healed.text!r}")


def heal_idempotent(target: Target, text: str, seed: int) -> None:
    exp = target.expectations
    try:
        healed = _call("heal", heal, text, exp, allowed=(HealError,))
    except HealError:
        return
    try:
        again = _call("heal (again)", heal, healed.text, exp, allowed=(HealError,))
    except HealError as err:
        raise Broken("healed text does not heal", f"{healed.text!r}: {err}") from err
    if again.text != healed.text or again.repairs:
        around = again.text.strip() == healed.text.strip() and not again.repairs
        raise Broken(
            "heal is not idempotent" + (" (white space around the payload)" if around else ""),
            f"{text!r} -> {healed.text!r} -> {again.text!r} with {[r.kind for r in again.repairs]}",
        )
    result = _call("check (healed)", check, healed.text, exp)
    if not result.ok or result.repairs:
        raise Broken(
            "check does not accept heal's text as it stands",
            f"{healed.text!r}: ok={result.ok} violations={_codes(result)} repairs={[r.kind for r in result.repairs]}",
        )


def _guard_run(exp: Expectations, text: str, pieces: list[str], strict: bool = False) -> tuple[int | None, CheckResult]:
    """Feed ``pieces``; the offset after the first falsy answer (or None) and ``finish()``."""
    guard = _call("StreamGuard()", StreamGuard, exp, strict=strict)
    stopped: int | None = None
    fed = 0
    for piece in pieces:
        fed += len(piece)
        status = _call("StreamGuard.feed", guard.feed, piece)
        if not status and stopped is None:
            stopped = fed
    return stopped, _call("StreamGuard.finish", guard.finish)


def guard_agrees(target: Target, text: str, seed: int) -> None:
    exp = target.expectations
    rng = random.Random(seed)
    pieces = _chunks(text, rng)
    result = _call("check", check, text, exp)
    stopped, final = _guard_run(exp, text, pieces)
    if result.ok and stopped is not None:
        raise Broken(
            "guard stopped a reply check accepts",
            f"stopped after {stopped} of {len(text)} characters; chunks {[len(p) for p in pieces][:50]}",
        )
    if final.ok != result.ok or _codes(final) != _codes(result):
        raise Broken("guard finish() is not check()", f"finish: {final.ok} {_codes(final)}; check: {result.ok}")
    if result.ok and not result.repairs:
        stopped, _ = _guard_run(exp, text, pieces, strict=True)
        if stopped is not None:
            raise Broken(
                "strict guard stopped a reply valid as it stands",
                f"stopped after {stopped} of {len(text)} characters; chunks {[len(p) for p in pieces][:50]}",
            )


def guard_limits(target: Target, text: str, seed: int) -> None:
    counted = _call("check (counting)", check, text, target.counting)
    if not counted.ok:
        return
    exp = target.with_counts([Count(u, max=counted.counts[u]) for u in target.units])
    at_limit = _call("check (at MAX)", check, text, exp)
    if not at_limit.ok:
        raise Broken(
            "check fails at MAX limits equal to its own counts",
            f"counts {counted.counts}; violations {[str(v) for v in at_limit.violations]}",
        )
    rng = random.Random(seed)
    pieces = _chunks(text, rng)
    stopped, _ = _guard_run(exp, text, pieces)
    if stopped is not None:
        raise Broken(
            "guard stopped a reply within its MAX limits",
            f"stopped after {stopped} of {len(text)} characters; counts {counted.counts}; "
            f"chunks {[len(p) for p in pieces][:50]}",
        )


PROPERTIES: dict[str, Callable[[Target, str, int], None]] = {
    "contract": contract,
    "check_heal": check_heal,
    "heal_idempotent": heal_idempotent,
    "guard_agrees": guard_agrees,
    "guard_limits": guard_limits,
}
