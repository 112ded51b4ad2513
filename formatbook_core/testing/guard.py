"""Calling a format under guard: every exception the contract does not allow becomes a
failure that says what was called on which input, and every answer is checked for the
documented type."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..definition import FORMAT_DEFAULTS, Checker, FormatDefinition, give_defaults
from ..results import StreamStatus
from .inputs import show


class Guard:
    """Calls a format's methods with the contract's schema and options and turns any
    exception that is not allowed into an ``AssertionError`` that says what was called."""

    def __init__(self, fmt: Any, schema: Any = None, options: dict[str, Any] | None = None):
        if fmt is None:
            raise AssertionError("the contract needs a format: set `format = MyFormat()` on the test class")
        # the format as registration sees it: optional attributes it lacks get their defaults
        self.fmt = give_defaults(fmt, FORMAT_DEFAULTS, "format")
        self.schema = schema
        self.options = dict(options or {})
        self.name = fmt.name if isinstance(fmt, FormatDefinition) else type(fmt).__name__

    def call(self, method: str, text: str, *extra: Any, allowed: tuple[type[BaseException], ...] = ()) -> Any:
        try:
            return getattr(self.fmt, method)(text, *extra, self.schema, **self.options)
        except allowed:
            raise
        except Exception as exc:
            raise AssertionError(
                f"{self.name}.{method} raised {type(exc).__name__}: {exc} on input {show(text)}"
            ) from exc

    def stream(self, strict: bool) -> Any:
        try:
            return self.fmt.stream(self.schema, strict=strict, **self.options)
        except Exception as exc:
            raise AssertionError(f"{self.name}.stream(strict={strict}) raised {type(exc).__name__}: {exc}") from exc

    def step(self, checker: Any, what: str, text: str, *args: Any) -> Any:
        try:
            return getattr(checker, what)(*args)
        except Exception as exc:
            raise AssertionError(
                f"{self.name} checker.{what} raised {type(exc).__name__}: {exc} while streaming {show(text)}"
            ) from exc


def check_status(g: Guard, status: Any, fed: int, where: str) -> bool:
    if not (isinstance(status, StreamStatus)):
        raise AssertionError(f"{g.name} checker.{where} returned {type(status).__name__}, not StreamStatus")
    if not (isinstance(status.values, tuple) and all(isinstance(v, str) for v in status.values)):
        raise AssertionError(
            f"{g.name} checker.{where}: StreamStatus.values must be a tuple of str, got {status.values!r}"
        )
    if not (isinstance(status.open, str)):
        raise AssertionError(f"{g.name} checker.{where}: StreamStatus.open must be str")
    if status.position is not None:
        if not (0 <= status.position <= fed):
            raise AssertionError(
                f"{g.name} checker.{where}: position {status.position} outside the {fed} characters fed"
            )
    return bool(status)


def check_spans(g: Guard, spans: Iterable[Any], length: int, what: str, text: str) -> None:
    for span in spans:
        if span is None:
            continue
        if not (isinstance(span, tuple) and len(span) == 2 and all(isinstance(x, int) for x in span)):
            raise AssertionError(f"{g.name}.{what}: {span!r} is not a Span on {show(text)}")
        if not (0 <= span[0] <= span[1] <= length):
            raise AssertionError(f"{g.name}.{what}: span {tuple(span)} outside the {length} characters of {show(text)}")


def feed(g: Guard, strict: bool, text: str, chunks: Sequence[str]) -> tuple[bool, bool]:
    """Feed ``chunks`` to a fresh checker; return (every feed truthy, finish truthy) and check
    that a falsy answer stays falsy."""
    checker = g.stream(strict)
    if not (isinstance(checker, Checker)):
        raise AssertionError(f"{g.name}.stream() returned {type(checker).__name__}, not a Checker")
    fed = 0
    all_ok = True
    for chunk in chunks:
        fed += len(chunk)
        ok = check_status(g, g.step(checker, "feed", text, chunk), fed, "feed")
        if not all_ok:
            if ok:
                raise AssertionError(
                    f"{g.name} checker (strict={strict}) answered falsy, then truthy again at offset {fed} of {show(text)}: "
                    "once no continuation can be valid, none can"
                )
        all_ok = all_ok and ok
    done = check_status(g, g.step(checker, "finish", text), fed, "finish")
    if not all_ok:
        if done:
            raise AssertionError(
                f"{g.name} checker (strict={strict}) rejected a chunk but finish() is truthy on {show(text)}"
            )
    return all_ok, done


def chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]
