"""Expectation kinds that are not counts (``EXPECT ENDS WITH "Thanks!"``), and the words of
an EXPECT line as the kinds and the argument-taking units read them.

The core knows no kind by name: a plugin registers each kind through the
``register_expectation_kinds`` hook, and :func:`formatbook_core.expectations.parse_expectations`
hands a line to the kind whose ``phrase`` (``"ends with"``) its first words spell. Three
small protocols:

* :class:`ExpectationKind` — registered once: ``phrase``, ``description``, and
  ``parse(args, line)`` turning the rest of an EXPECT line into an :class:`Instruction`
  (or raising :class:`~formatbook_core.results.ExpectationError` with the nearest valid form).
* :class:`Instruction` — one parsed line: ``describe()`` (the line as EXPECT writes it),
  ``check(text)`` (the violations of the checked text), ``guidance()`` (the line as a
  request to a model) and ``stream()`` (a :class:`InstructionStream`, or ``None`` when
  only the whole reply can tell); optionally ``also_values`` (see
  :data:`INSTRUCTION_DEFAULTS`).
* :class:`InstructionStream` — ``feed(chunk)`` answers a falsy ``StreamStatus`` (with
  ``reason`` and ``position``, an offset into the text fed so far) once no continuation
  can pass ``check``; it must never turn falsy on a text ``check`` accepts, and its work
  is linear in the text fed.

A violation an instruction reports sets ``keyword`` to its kind's phrase (``"ends with"``)
and ``expected`` to what it wanted: the re-ask message then finds the instruction and adds
its ``guidance()`` as the fix.

Units that take an argument (``PARAGRAPHS SEPARATED BY "***"``, and the quoted literal
``","``) are ordinary units with ``argument`` set (a noun: ``"separator"``) and a
``with_argument(value)`` method giving the bound unit; the quoted-literal unit sets
``literal = True``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .results import ExpectationError, StreamStatus, Violation

__all__ = [
    "Token",
    "tokenize",
    "ExpectationKind",
    "Instruction",
    "InstructionStream",
    "INSTRUCTION_DEFAULTS",
    "bind_unit",
    "contradiction",
    "declared",
    "line_col",
    "quote",
]


@dataclass(frozen=True)
class Token:
    """One word of an EXPECT line; ``quoted`` when it was written in quotes (``","``)."""

    text: str
    quoted: bool = False

    def __str__(self) -> str:
        return self.text


def tokenize(body: str, line: str | None = None) -> list[Token]:
    """Split an EXPECT line as a shell does (``"..."`` with backslash escapes, ``'...'``
    verbatim), keeping whether each word was quoted. Raises ``ExpectationError`` for an
    unclosed quote. Linear: one pass."""
    tokens: list[Token] = []
    buf: list[str] = []
    quoted = False
    started = False
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c.isspace():
            if started:
                tokens.append(Token("".join(buf), quoted))
                buf, quoted, started = [], False, False
            i += 1
            continue
        if c in "\"'":
            close = i + 1
            piece: list[str] = []
            while close < n and body[close] != c:
                if c == '"' and body[close] == "\\" and close + 1 < n and body[close + 1] in '"\\':
                    close += 1
                piece.append(body[close])
                close += 1
            if close >= n:
                shown = line if line is not None else body
                raise ExpectationError(f"cannot read {shown!r}: a quote {c} is not closed", shown)
            if not started:
                quoted = True
            buf.extend(piece)
            started = True
            i = close + 1
            continue
        if c == "\\" and i + 1 < n:
            buf.append(body[i + 1])
            started = True
            i += 2
            continue
        buf.append(c)
        started = True
        i += 1
    if started:
        tokens.append(Token("".join(buf), quoted))
    return tokens


@runtime_checkable
class InstructionStream(Protocol):
    """The streaming side of one instruction (see the module docstring)."""

    def feed(self, chunk: str) -> StreamStatus:
        """Take the next piece of the checked text; falsy once no continuation can pass."""
        ...


@runtime_checkable
class Instruction(Protocol):
    """One parsed instruction (``ENDS WITH "Thanks!"``)."""

    def describe(self) -> str:
        """The instruction as an EXPECT line writes it (without ``EXPECT``)."""
        ...

    def check(self, text: str) -> list[Violation]:
        """The violations of ``text`` (empty when it follows the instruction)."""
        ...

    def guidance(self) -> str:
        """The instruction as one sentence a model acts on."""
        ...

    def stream(self) -> InstructionStream | None:
        """A fresh streaming checker, or ``None`` when only the whole text can tell."""
        ...


#: What the core reads from an instruction besides its four methods, with the default for
#: an instruction that leaves it out (read where it is used: an instruction is often a
#: frozen dataclass, which cannot be given it): ``also_values`` is ``"nowhere"`` when what the instruction forbids must not hide in a
#: format's decoded values either (CASE, NOT CONTAINS), ``"somewhere"`` when what it asks
#: for may be found there (CONTAINS), ``None`` when it judges the text only.
#: ``contradiction(other)`` returns a message when no text can follow both this instruction
#: and ``other`` (``CASE lower`` and ``ENDS WITH "Bye."``), else ``None``: such a pair is an
#: ``ExpectationError`` when the expectations are built, like contradictory counts. An
#: instruction that leaves it out contradicts nothing it cannot tell about.
INSTRUCTION_DEFAULTS: Mapping[str, Any] = {"also_values": None, "contradiction": None}


def declared(instruction: Any, name: str) -> Any:
    """The instruction's optional member ``name`` (one of :data:`INSTRUCTION_DEFAULTS`), or
    its default. An instruction is often a frozen dataclass that registration cannot give a
    default, so the optional members are read here, in one place."""
    return getattr(instruction, name, INSTRUCTION_DEFAULTS[name])


def contradiction(first: Any, second: Any) -> str | None:
    """What makes ``first`` and ``second`` impossible together, asked of each (an
    instruction knows its own kind), or ``None``."""
    for a, b in ((first, second), (second, first)):
        method = declared(a, "contradiction")
        found = method(b) if callable(method) else None
        if found:
            return str(found)
    return None


@runtime_checkable
class ExpectationKind(Protocol):
    """A kind of instruction, registered through ``register_expectation_kinds``."""

    #: the words its lines start with, lower case (``"ends with"``, ``"not contains"``)
    phrase: str
    #: one line for listings (``formatbook kinds``, the README table)
    description: str

    def parse(self, args: list[Token], line: str) -> Instruction:
        """The instruction the rest of the line (after ``phrase``) spells; raises
        ``ExpectationError`` (with the nearest valid form) for a malformed one."""
        ...


def bind_unit(unit: Any, argument: str | None, line: str | None = None) -> Any:
    """``unit`` with its argument bound (``PARAGRAPHS SEPARATED BY "***"``), or ``unit``
    itself for a unit without one; an argument missing or given to a unit that takes none
    is an ``ExpectationError``."""
    takes = unit.argument
    if takes is None:
        if argument is not None:
            raise ExpectationError(f"the unit {unit.name.upper()} takes no argument (got {argument!r})", line)
        return unit
    if argument is None or argument == "":
        raise ExpectationError(f"the unit {unit.name.upper()} needs a {takes}: e.g. {example_of(unit)}", line)
    return unit.with_argument(argument)


def example_of(unit: Any) -> str:
    """How an argument-taking unit is written, for error messages."""
    example = unit.example
    if example:
        return str(example)
    return f'EXPECT MAX 3 {unit.name.upper()} "..."'


def quote(text: str) -> str:
    """``text`` in double quotes as an EXPECT line writes it (``"`` and ``\\`` escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def line_col(text: str, offset: int, line_starts: list[int] | None = None) -> str:
    """``line 2 col 14`` for an offset into ``text`` (both counted from 1)."""
    line = text.count("\n", 0, offset) if line_starts is None else _bisect(line_starts, offset)
    start = text.rfind("\n", 0, offset) + 1
    return f"line {line + 1} col {offset - start + 1}"


def _bisect(starts: list[int], offset: int) -> int:
    from bisect import bisect_right  # noqa: PLC0415

    return bisect_right(starts, offset) - 1
