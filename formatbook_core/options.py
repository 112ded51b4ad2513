"""Format options, declared per format and validated once, when expectations are built.

A format lists its options as :class:`Option` values in ``option_specs``; every format also
takes the core's :data:`COMMON_OPTIONS` (the limits). ``EXPECT JSON max_dpth=3`` or
``max_depth=abc`` is then an ``ExpectationError`` naming the nearest valid option or the
type expected, the same in ``check``, ``StreamGuard``, ``guidance`` and the CLI.

A format that declares nothing (``option_specs = None``, a third-party format written
before options were declared) takes any option, its value read from text as before
(``true``/``false``, whole numbers, else text).
"""

from __future__ import annotations

import builtins
import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .limits import MAX_DEPTH, MAX_SIZE
from .results import ExpectationError

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TYPE_WORDS: dict[type, str] = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


@dataclass(frozen=True)
class Option:
    """One option a format takes: ``Option("delimiter", str, ",", "the cell separator")``.

    ``type`` is ``bool``, ``int``, ``float`` or ``str`` (or a tuple of types a value may
    have in code, the first one used to read a value written as text). ``choices`` limits
    the values; ``check`` returns a message when a value of the right type is still wrong
    (``"must be > 0"``), else ``None``.
    """

    name: str
    type: builtins.type | tuple[builtins.type, ...]
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    check: Callable[[Any], str | None] | None = None

    @property
    def types(self) -> tuple[builtins.type, ...]:
        return self.type if isinstance(self.type, tuple) else (self.type,)

    def describe_type(self) -> str:
        """``a whole number``, ``one of "one", "many"`` — what a value must be."""
        if self.choices:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        return " or ".join(_TYPE_WORDS.get(t) or t.__name__ for t in self.types)

    def coerce(self, value: Any) -> Any:
        """``value`` as this option's type; raises ``ValueError`` saying what was expected."""
        converted = _convert(value, self.types)
        if converted is _INVALID:
            raise ValueError(f"option {self.name} expects {self.describe_type()}, not {value!r}")
        if self.choices and converted not in self.choices:
            nearest_choice = nearest(str(converted), [str(c) for c in self.choices], cutoff=0.5)
            hint = f" (did you mean {nearest_choice}?)" if nearest_choice else ""
            raise ValueError(f"option {self.name} expects {self.describe_type()}, not {value!r}{hint}")
        if self.check is not None:
            problem = self.check(converted)
            if problem:
                raise ValueError(f"option {self.name} {problem}, not {value!r}")
        return converted


def _positive(value: Any) -> str | None:
    return None if value > 0 else "must be more than 0"


#: The options every format takes: the limits of :mod:`formatbook_core.limits`, and what a
#: payload healed as cut off is worth (``truncated``: the pipeline reads it, no format).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("max_size", int, MAX_SIZE, "replies longer than this many characters are refused", check=_positive),
    Option("max_depth", int, MAX_DEPTH, "nesting deeper than this is refused", check=_positive),
    Option(
        "truncated",
        str,
        "heal",
        "a payload healed as cut off by the end of the reply: heal passes it (result.truncated says so), "
        "fail refuses it (reply.truncated)",
        choices=("heal", "fail"),
    ),
)


def declared_options(fmt: Any) -> dict[str, Option] | None:
    """Every option ``fmt`` takes by name, or ``None`` when it declares none (takes any)."""
    specs = fmt.option_specs
    if specs is None:
        return None
    return {option.name: option for option in (*COMMON_OPTIONS, *specs)}


def validate_options(fmt: Any, options: Mapping[str, Any], line: str | None = None) -> dict[str, Any]:
    """``options`` checked against what ``fmt`` declares and converted to their types.

    Raises ``ExpectationError`` for an unknown option (naming the nearest valid one) or a
    value of the wrong type (naming the type expected).
    """
    declared = declared_options(fmt)
    name = fmt.name.upper()
    out: dict[str, Any] = {}
    for key, value in options.items():
        if not isinstance(key, str) or not key:
            raise ExpectationError(f"an option is named by a non-empty string, not {key!r}", line)
        if declared is None:
            out[key] = value
            continue
        option = declared.get(key)
        if option is None:
            near = nearest(key, declared, cutoff=0.5)
            hint = f" (did you mean {near}?)" if near else ""
            known = ", ".join(sorted(declared))
            raise ExpectationError(f"{name} has no option {key!r}{hint}; it takes: {known}", line, near)
        try:
            out[key] = option.coerce(value)
        except ValueError as exc:
            raise ExpectationError(f"{name}: {exc}", line) from None
    return out


def read_text_value(value: str) -> Any:
    """A value written as text, read without a declaration: booleans, whole numbers, text."""
    lowered = value.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if _INT.fullmatch(value) and not value.startswith("+"):
        return int(value)
    return value


_INVALID = object()


def _convert(value: Any, types: tuple[builtins.type, ...]) -> Any:
    if isinstance(value, str):
        # a value written as text (an EXPECT line): read as the first type that takes it,
        # kept as text only when no other type does and text is allowed
        text = value.strip()
        for kind in types:
            if kind is bool and text.lower() in (*_TRUE, *_FALSE):
                return text.lower() in _TRUE
            if kind is int and _INT.fullmatch(text):
                return int(text)
            if kind is float and _FLOAT.fullmatch(text):
                return float(text)
        return value if str in types else _INVALID
    for kind in types:
        if kind is bool:
            if isinstance(value, bool):
                return value
        elif kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        elif kind is float:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
        elif isinstance(value, kind):
            return value
    return _INVALID


def nearest(word: str, choices: Any, cutoff: float = 0.6) -> str | None:
    """The choice closest to ``word`` (a misspelt unit, option or id), or ``None`` when none is
    at least ``cutoff`` similar: what a "did you mean" suggests."""
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return match[0] if match else None


def _show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)
