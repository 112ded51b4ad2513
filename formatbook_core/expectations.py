"""EXPECT lines and the ``Expectations`` they build.

One expectation per line, Promptbook style, case-insensitive, a leading ``- `` allowed::

    EXPECT JSON schemas/contact.json        a format, optionally a schema (file or URL)
    EXPECT MARKDOWN contract.md level=2     format options as key=value (values may be quoted)
    EXPECT MIN 2 WORDS                      MIN/MINIMUM, MAX/MAXIMUM, EXACTLY/EXACT
    EXPECT MAX 40 WORDS IN "Short answer"   a scope, resolved by the format
    EXPECT MAX 10 WORDS IN "comment" per=value   the limit on each value (cell) on its own

Every malformed or contradictory line raises ``ExpectationError`` naming the line and, where
one is close, the nearest valid word.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .kinds import Instruction, contradiction
from .options import declared_options, nearest, read_text_value, validate_options
from .registry import ConflictError, UnknownFormatError, default_registry
from .results import ExpectationError, FormatbookError

SIGNS = {
    "min": "min",
    "minimum": "min",
    "max": "max",
    "maximum": "max",
    "exactly": "exactly",
    "exact": "exactly",
}
_NUMBER_WORDS = {"none": 0, "zero": 0}
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
#: Options EXPECT text confined to base_dir may not set: each would reach past it.
_UNCONFINED_OPTIONS = frozenset({"allow_fetch", "base_dir"})


@dataclass(frozen=True)
class Count:
    """A limit on a counting unit: ``Count("words", max=3)``, optionally within a ``scope``
    that the format resolves (a Markdown section, a JSON pointer, a CSV column...).

    ``per="value"`` (``EXPECT MAX 10 WORDS IN "comment" per=value``) applies the limit to
    each value on its own (each cell, each string) instead of to their sum; the count
    reported is the largest value's (the smallest's for a MIN-only limit).

    ``arg`` is the argument of a unit that takes one: ``Count("paragraphs separated by",
    exactly=4, arg="***")``; the quoted-literal unit of the instructions plugin is
    ``Count("literal", max=0, arg=",")`` (``EXPECT MAX 0 ","``)."""

    unit: str
    min: int | None = None
    max: int | None = None
    exactly: int | None = None
    scope: str | None = None
    per: str | None = None
    arg: str | None = None
    #: how the unit is written in an EXPECT line, set when the Expectations are built
    #: (``","`` for a literal, ``PARAGRAPHS SEPARATED BY "***"``)
    label: str | None = field(default=None, compare=False, repr=False)

    @property
    def noun(self) -> str:
        """The unit as a count names it: ``words``, ``","``, ``paragraphs separated by "***"``."""
        if self.label is not None:
            return self.label
        if self.arg is None:
            return self.unit
        return f"{self.unit} {_quote(self.arg)}"

    def amount(self, n: int | None) -> str:
        """``n`` of the unit, as a sentence says it: ``1 word``, ``3 words``, ``1 ","``."""
        return amount_of(n, self.noun)

    @property
    def key(self) -> str:
        """The key of this count in ``CheckResult.counts``: ``words``, ``words IN "x"``,
        ``words IN "x" per value``, ``","``."""
        key = self.noun if self.scope is None else f'{self.noun} IN "{self.scope}"'
        return key if self.per is None else f"{key} per {self.per}"

    @property
    def upper(self) -> int | None:
        """The most this count may reach (``MAX`` or ``EXACTLY``), if bounded."""
        return self.exactly if self.exactly is not None else self.max

    @property
    def lower(self) -> int | None:
        return self.exactly if self.exactly is not None else self.min

    def describe(self) -> str:
        """``MAX 3 WORDS`` — the limit as an EXPECT line would write it."""
        parts = []
        if self.exactly is not None:
            parts.append(f"EXACTLY {self.exactly}")
        else:
            if self.min is not None:
                parts.append(f"MIN {self.min}")
            if self.max is not None:
                parts.append(f"MAX {self.max}")
        scope = f' IN "{self.scope}"' if self.scope is not None else ""
        per = f" per={self.per}" if self.per is not None else ""
        noun = self.noun
        written = noun if noun.startswith('"') else _upper_outside_quotes(noun)
        return " ".join(f"{p} {written}" for p in parts) + scope + per


def amount_of(n: int | None, noun: str) -> str:
    """``1 word``, ``3 words``: a plural noun made singular for one (``1 ","`` stays)."""
    return f"{n} {noun[:-1] if n == 1 and noun.endswith('s') else noun}"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _upper_outside_quotes(text: str) -> str:
    head, sep, tail = text.partition('"')
    return head.upper() + sep + tail


@dataclass
class Expectations:
    """What a reply must be: a format (with schema and options), counts and instructions.

    Every argument is optional; ``Expectations(format="json", schema=Person)`` is the same
    as ``EXPECT JSON`` with that schema. ``instructions`` are the expectations that are not
    counts (kinds registered by plugins): each is an instruction object or its EXPECT text
    (``instructions=['ENDS WITH "Thanks!"']``), which is parsed when the Expectations are
    built. Building one validates it (unknown format or unit,
    contradictory counts, a scope on a format without scopes or one the format's
    ``validate_scope`` says can never match) and raises
    ``ExpectationError``.
    """

    format: str | None = None
    schema: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    counts: list[Count] = field(default_factory=list)
    instructions: list[Any] = field(default_factory=list)
    #: where relative schema paths were resolved from (informational)
    base_dir: Path | None = None
    registry: Any = field(default=None, repr=False, compare=False)
    _lines: dict[int, str] = field(default_factory=dict, repr=False, compare=False)
    _loaded_schema: Any = field(default=None, repr=False, compare=False)
    _schema_loaded: bool = field(default=False, repr=False, compare=False)
    #: (format, registry, its generation, the format object) of the last look-up
    _found_fmt: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.options = dict(self.options or {})
        self.counts = list(self.counts or [])
        self.instructions = list(self.instructions or [])
        self._validate()

    # --- resolved parts --------------------------------------------------------------
    def active_registry(self) -> Any:
        """The registry these expectations read formats, units and kinds from: their own
        ``registry``, else the process-wide one."""
        if self.registry is not None:
            return self.registry
        return default_registry()

    def source_line(self, index: int) -> str | None:
        """The EXPECT line count ``index`` was parsed from (``-1``: the format's line);
        ``None`` for expectations built in code."""
        return self._lines.get(index)

    @property
    def fmt(self) -> Any:
        """The format object (``None`` when no format is expected). The look-up is kept
        while the format's name, the registry and what the registry indexes stay the same
        (a check asks for it on every reply)."""
        if self.format is None:
            return None
        registry = self.registry if self.registry is not None else default_registry()  # active_registry()
        found = self._found_fmt
        if (
            found is not None
            and found[1] is registry
            and found[0] == self.format
            and found[2] == getattr(registry, "generation", None)
        ):
            return found[3]
        fmt = registry.get(self.format)
        generation = getattr(registry, "generation", None)
        self._found_fmt = (self.format, registry, generation, fmt) if generation is not None else None
        return fmt

    @property
    def loaded_schema(self) -> Any:
        """The schema as the format uses it (``load_schema`` runs once, on first use)."""
        if not self._schema_loaded:
            fmt = self.fmt
            schema = self.schema
            if fmt is not None and schema is not None:
                try:
                    schema = fmt.load_schema(schema, **self.options)
                except ExpectationError:
                    raise
                except Exception as exc:  # a schema that cannot be read is a bad expectation
                    raise ExpectationError(f"cannot use schema {self.schema!r} for {self.format}: {exc}") from exc
            self._loaded_schema = schema
            self._schema_loaded = True
        return self._loaded_schema

    def _validate_instructions(self, registry: Any) -> None:
        """Parse instructions given as EXPECT text; reject what is no instruction, and two
        instructions no text can follow together (``CASE lower`` with ``ENDS WITH "Bye."``)."""
        for index, instruction in enumerate(self.instructions):
            if isinstance(instruction, str):
                instruction = self.instructions[index] = parse_instruction(instruction, registry)
            elif not isinstance(instruction, Instruction):
                raise ExpectationError(
                    f"an instruction is EXPECT text or an object with check(), describe(), guidance() and stream(), "
                    f"not {instruction!r}"
                )
            for earlier in self.instructions[:index]:
                why = contradiction(earlier, instruction)
                if why:
                    raise ExpectationError(f"{earlier.describe()} contradicts {instruction.describe()}: {why}")

    def unit_of(self, count: Count) -> Any:
        """The unit object that counts ``count`` (with its argument bound)."""
        from .kinds import bind_unit  # noqa: PLC0415 - light, but only for counts

        return bind_unit(self.active_registry().unit(count.unit), count.arg)

    # --- validation ------------------------------------------------------------------
    def _validate(self) -> None:
        fmt = None
        if self.format is not None:
            if not isinstance(self.format, str) or not self.format.strip():
                raise ExpectationError(f"a format is named by a string, not {self.format!r}")
            try:
                fmt = self.fmt
            except UnknownFormatError as exc:
                raise ExpectationError(str(exc), self._lines.get(-1), exc.suggestion) from exc
            except ConflictError as exc:
                raise ExpectationError(str(exc), self._lines.get(-1)) from exc
        elif self.schema is not None or self.options:
            raise ExpectationError("a schema or format options were given without a format")
        if fmt is not None and self.options:
            self.options = validate_options(fmt, self.options, self._lines.get(-1))

        registry = self.active_registry()
        self._validate_instructions(registry)
        bounds: dict[tuple[str, str | None, str | None], dict[str, int]] = {}
        for index, count in enumerate(self.counts):
            line = self._lines.get(index)
            if not isinstance(count, Count):
                raise ExpectationError(f"counts must be Count objects, not {count!r}", line)
            unit = registry.unit(count.unit) if isinstance(count.unit, str) else None
            if unit is None:
                suggestion = nearest(str(count.unit).lower(), registry.unit_names())
                raise ExpectationError(
                    f"unknown counting unit {count.unit!r}" + _hint(suggestion), line, suggestion and suggestion.upper()
                )
            count = self.counts[index] = _with_unit(count, unit, line)
            for label, amount in (("MIN", count.min), ("MAX", count.max), ("EXACTLY", count.exactly)):
                if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int) or amount < 0):
                    raise ExpectationError(f"{label} needs a whole number ≥ 0, not {amount!r}", line)
            if count.min is None and count.max is None and count.exactly is None:
                raise ExpectationError(f"a count of {count.unit} needs MIN, MAX or EXACTLY", line)
            if count.per not in (None, "value"):
                raise ExpectationError(f'per={count.per!r}: the only "per" is per=value (each value on its own)', line)
            if count.scope is not None and unit.reads == "text":
                raise ExpectationError(
                    f"{unit.name.upper()} counts markup in the whole checked text: it cannot be scoped"
                    f' (IN "{count.scope}")',
                    line,
                )
            if count.scope is not None:
                if fmt is None:
                    raise ExpectationError(f'a scope (IN "{count.scope}") needs a format that resolves it', line)
                if fmt.scope_kind is None:
                    raise ExpectationError(f'the {fmt.name} format has no counting scopes (IN "{count.scope}")', line)
                problem = fmt.validate_scope(count.scope)
                if problem:
                    raise ExpectationError(f'IN "{count.scope}" can never match: {problem}', line)
            seen = bounds.setdefault((count.noun, count.scope, count.per), {})
            for label, amount in (("min", count.min), ("max", count.max), ("exactly", count.exactly)):
                if amount is None:
                    continue
                if label in seen and seen[label] != amount:
                    raise ExpectationError(
                        f"two different {label.upper()} limits on {count.key}: {seen[label]} and {amount}", line
                    )
                seen[label] = amount
            low = seen.get("exactly", seen.get("min"))
            high = seen.get("exactly", seen.get("max"))
            if "exactly" in seen and (
                ("min" in seen and seen["min"] > seen["exactly"]) or ("max" in seen and seen["max"] < seen["exactly"])
            ):
                raise ExpectationError(f"EXACTLY {seen['exactly']} contradicts the other limits on {count.key}", line)
            if low is not None and high is not None and low > high:
                raise ExpectationError(f"MIN {low} is more than MAX {high} on {count.key}", line)


def _with_unit(count: Count, unit: Any, line: str | None) -> Count:
    """``count`` naming ``unit`` by its name, its argument checked and its label set."""
    from .kinds import bind_unit  # noqa: PLC0415

    if count.arg is not None and not isinstance(count.arg, str):
        raise ExpectationError(f"the argument of a count is a string, not {count.arg!r}", line)
    bind_unit(unit, count.arg, line)  # raises for a missing or unexpected argument
    label = unit.spelled(count.arg) if unit.spelled is not None and count.arg is not None else None
    if unit.name != count.unit or label != count.label:
        return replace(count, unit=unit.name, label=label)
    return count


def parse_expectations(
    text: str | Iterable[str], *, base_dir: str | Path | None = None, registry: Any = None, confine: bool = False
) -> Expectations:
    """Read EXPECT lines (a string or an iterable of lines) into ``Expectations``.

    Blank lines and lines starting with ``#`` are ignored; the word ``EXPECT`` may be left
    out (the CLI's ``-e "MAX 3 WORDS"``). A schema file is resolved against ``base_dir``
    (default: the current directory) and must exist; a URL is kept as given. An EXPECT
    line may name any file the process can read: for EXPECT text from untrusted data, set
    ``confine`` — then a schema is a file inside ``base_dir`` (a relative path without
    ``..`` or ``~``, not leading out through a symbolic link), and URLs and the options
    ``allow_fetch`` and ``base_dir`` are refused.
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    fmt_name: str | None = None
    fmt_line: str | None = None
    schema: Any = None
    options: dict[str, Any] = {}
    counts: list[Count] = []
    count_lines: dict[int, str] = {}
    instructions: list[Any] = []

    reg = registry or default_registry()

    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        body = line[2:].strip() if line.startswith("- ") else line
        try:
            words = shlex.split(body, posix=True)
        except ValueError as exc:
            raise ExpectationError(f"cannot read {raw.strip()!r}: {exc}", raw.strip()) from exc
        if words and words[0].lower() == "expect":
            words = words[1:]
        if not words:
            raise ExpectationError(f"{raw.strip()!r} expects nothing", raw.strip())
        head = words[0].lower()
        if head in SIGNS or head.isdigit() or head.lstrip("-").isdigit():
            count = _parse_count(_tokens(body, raw.strip()), raw.strip(), reg)
            count_lines[len(counts)] = raw.strip()
            counts.append(count)
            continue
        # a line that starts with a format's name is a format line (no kind phrase starts
        # so); asked first, so that a format line imports that format's plugin only
        instruction = None if reg.knows_format(words[0]) else _parse_kind(_tokens(body, raw.strip()), raw.strip(), reg)
        if instruction is not None:
            instructions.append(instruction)
            continue
        # a format line
        if fmt_name is not None:
            raise ExpectationError(
                f"two formats expected: {fmt_name.upper()} ({fmt_line}) and {words[0].upper()} ({raw.strip()})",
                raw.strip(),
            )
        if not _is_format(reg, words[0]):
            suggestion = _nearest_start(words, [*reg.names(), *SIGNS, "expect", *reg.kind_phrases()])
            raise ExpectationError(
                f"unknown format, sign or kind {words[0]!r} in {raw.strip()!r}" + _hint(suggestion),
                raw.strip(),
                suggestion and suggestion.upper(),
            )
        fmt_name, fmt_line = words[0].lower(), raw.strip()
        for word in words[1:]:
            if "=" in word and not _URL.match(word):
                key, _, value = word.partition("=")
                if not key:
                    raise ExpectationError(f"an option needs a name: {word!r} in {raw.strip()!r}", raw.strip())
                if confine and key in _UNCONFINED_OPTIONS:
                    raise ExpectationError(
                        f"{raw.strip()!r}: the option {key!r} is refused in EXPECT text confined to base_dir",
                        raw.strip(),
                    )
                options[key] = _unescape(value)
            elif schema is None:
                schema = (
                    _confined_schema(word, base, raw.strip()) if confine else _resolve_schema(word, base, raw.strip())
                )
            else:
                raise ExpectationError(
                    f"{raw.strip()!r} names two schemas ({schema} and {word}); options are written key=value",
                    raw.strip(),
                )

    if fmt_name is not None and options and _undeclared(reg, fmt_name):
        options = {key: read_text_value(value) for key, value in options.items()}
    lines_by_index = dict(count_lines)
    if fmt_line is not None:
        lines_by_index[-1] = fmt_line
    return Expectations(
        format=fmt_name,
        schema=schema,
        options=options,
        counts=counts,
        instructions=instructions,
        base_dir=base,
        registry=registry,
        _lines=lines_by_index,
    )


def as_expectations(value: Any, **kwargs: Any) -> Expectations:
    """Accept ``Expectations`` or EXPECT text everywhere the API takes expectations."""
    if isinstance(value, Expectations):
        return value
    if value is None:
        return Expectations()
    if isinstance(value, str):
        return parse_expectations(value, **kwargs)
    raise ExpectationError(f"expectations must be Expectations or EXPECT text, not {type(value).__name__}")


#: EXPECT text without a schema, parsed: (text, registry, its generation) -> Expectations
_SHARED: dict[tuple[str, Any, int], Expectations] = {}
_SHARED_MAX = 256


def shared_expectations(value: Any) -> Expectations:
    """:func:`as_expectations` for a caller that only reads the answer (``check``,
    ``heal``): EXPECT text is parsed once and the same object answered again while the
    process-wide registry indexes nothing new.

    Only text naming no schema is kept: a schema file is read when the expectations are
    used, and may change on disk. The current directory, which such text is parsed
    against, then only names ``base_dir``, which a check does not read.
    """
    if value.__class__ is Expectations:
        return value  # (as_expectations' first answer, without the call)
    if not isinstance(value, str):
        return as_expectations(value)
    registry = default_registry()
    found = _SHARED.get((value, registry, registry.generation))
    if found is not None:
        return found
    exp = parse_expectations(value)
    if exp.schema is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        _SHARED[(value, registry, registry.generation)] = exp  # the generation after parsing
    return exp


def _tokens(body: str, line: str) -> list[Any]:
    """The words of a count or kind line, each knowing whether it was quoted; a leading
    ``EXPECT`` dropped."""
    from .kinds import tokenize  # noqa: PLC0415

    tokens = tokenize(body, line)
    if tokens and not tokens[0].quoted and tokens[0].text.lower() == "expect":
        tokens = tokens[1:]
    return tokens


def parse_instruction(text: str, registry: Any = None) -> Any:
    """One instruction from its EXPECT line (``'ENDS WITH "Thanks!"'``, ``EXPECT`` optional),
    through the kinds registered in ``registry`` (default: the process-wide one)."""
    reg = registry or default_registry()
    line = text.strip()
    body = line[2:].strip() if line.startswith("- ") else line
    instruction = _parse_kind(_tokens(body, line), line, reg)
    if instruction is None:
        first = body.split()[:3]
        suggestion = _nearest_start(first, reg.kind_phrases()) if first else None
        raise ExpectationError(
            f"{line!r} names no registered expectation kind" + _hint(suggestion),
            line,
            suggestion and suggestion.upper(),
        )
    return instruction


def _parse_kind(tokens: list[Any], line: str, registry: Any) -> Any:
    """The instruction of the longest registered kind phrase the line starts with, or
    ``None`` when no phrase matches."""
    words: list[str] = []
    for token in tokens:
        if token.quoted:
            break
        words.append(token.text.lower())
    for size in range(len(words), 0, -1):
        try:
            kind = registry.kind(" ".join(words[:size]))
        except ConflictError as exc:
            raise ExpectationError(str(exc), line) from exc
        if kind is None:
            continue
        try:
            instruction = kind.parse(list(tokens[size:]), line)
        except ExpectationError as exc:
            if exc.line is None:
                raise ExpectationError(str(exc), line, exc.suggestion) from exc
            raise
        except Exception as exc:  # a plugin failure is a bad expectation, named as such
            raise ExpectationError(
                f"{line!r}: the {kind.phrase.upper()} kind's parse() failed: {type(exc).__name__}: {exc}", line
            ) from exc
        return instruction
    return None


def _parse_count(tokens: list[Any], line: str, registry: Any) -> Count:
    words = [t.text for t in tokens]
    head = words[0].lower()
    if head not in SIGNS:
        raise ExpectationError(f"{line!r}: a count starts with MIN, MAX or EXACTLY", line, "MAX")
    sign = SIGNS[head]
    if len(words) < 3:
        raise ExpectationError(f"{line!r}: expected e.g. 'EXPECT MAX 3 WORDS'", line)
    amount_word = words[1].lower()
    if amount_word in _NUMBER_WORDS:
        amount = _NUMBER_WORDS[amount_word]
    elif re.fullmatch(r"\d+", amount_word):
        amount = int(amount_word)
    else:
        raise ExpectationError(f"{line!r}: the amount must be a whole number ≥ 0, not {words[1]!r}", line)
    unit, used = _unit_at(tokens, 2, registry)
    if unit is None:
        unit_word = words[2]
        if tokens[2].quoted:
            raise ExpectationError(
                f"{line!r}: no plugin counts quoted literals ({unit_word!r}); is formatbook_instructions installed?",
                line,
            )
        suggestion = nearest(unit_word.lower(), registry.unit_names())
        hint = _hint(suggestion)
        if not suggestion and not any(c.isalnum() for c in unit_word):
            hint = f' (a literal is written in quotes: {words[0].upper()} {words[1]} "{unit_word}")'
        raise ExpectationError(f"{line!r}: unknown unit {unit_word!r}" + hint, line, suggestion and suggestion.upper())
    rest = tokens[2 + used :]
    arg = None
    if unit.literal:
        arg = tokens[2].text
    elif unit.argument is not None:
        from .kinds import example_of  # noqa: PLC0415

        if not rest or (
            (not rest[0].quoted and rest[0].text.lower() in ("in",)) or rest[0].text.lower().startswith("per=")
        ):
            raise ExpectationError(
                f"{line!r}: {unit.name.upper()} needs a {unit.argument}: e.g. {example_of(unit)}", line
            )
        arg = rest[0].text
        rest = rest[1:]
    scope = None
    per = None
    if rest and not rest[-1].quoted and rest[-1].text.lower().startswith("per="):
        per = rest[-1].text[4:].lower()
        rest = rest[:-1]
    if rest:
        if rest[0].quoted or rest[0].text.lower() != "in" or len(rest) != 2:
            suggestion = "IN" if rest[0].quoted or rest[0].text.lower() != "in" else None
            raise ExpectationError(
                f'{line!r}: after the unit only IN "scope" and per=value may follow' + _hint(suggestion),
                line,
                suggestion,
            )
        scope = rest[1].text
    limits: dict[str, int] = {sign: amount}
    return Count(unit.name, scope=scope, per=per, arg=arg, **limits)  # type: ignore[arg-type]


def _unit_at(tokens: list[Any], index: int, registry: Any) -> tuple[Any, int]:
    """The unit written from ``tokens[index]`` on and how many tokens it takes: a quoted
    word is a literal (the unit marked ``literal``); otherwise the longest run of words
    naming a registered unit (``CAPITAL WORDS``, ``PARAGRAPHS SEPARATED BY``)."""
    if tokens[index].quoted:
        for unit in registry.units().values():
            if unit.literal:
                return unit, 1
        return None, 1
    words: list[str] = []
    for token in tokens[index:]:
        if token.quoted:
            break
        words.append(token.text.lower())
    for size in range(len(words), 0, -1):
        unit = registry.unit(" ".join(words[:size]))
        if unit is not None:
            return unit, size
    return None, 1


def _nearest_start(words: list[str], choices: Iterable[str]) -> str | None:
    """The nearest choice to the first one, two or three words (kinds have several)."""
    choices = list(choices)
    for size in (3, 2, 1):
        if len(words) >= size:
            found = nearest(" ".join(words[:size]).lower(), choices)
            if found:
                return found
    return None


def _is_format(registry: Any, name: str) -> bool:
    try:
        registry.entry(name)
    except UnknownFormatError:
        return False
    except ConflictError:
        return True  # the conflict is reported when the Expectations are built
    return True


def _resolve_schema(word: str, base: Path, line: str) -> Any:
    if _URL.match(word):
        return word
    path = Path(word).expanduser()
    if not path.is_absolute():
        path = base / path
    if not path.is_file():
        if word.startswith(("{", "[")):  # JSON written inline (shlex took its quotes off)
            raise ExpectationError(
                f"{line!r}: a schema in an EXPECT line is a file or a URL; give an inline schema in code "
                "(Expectations(schema=...)) or write it to a file",
                line,
            )
        raise ExpectationError(f"{line!r}: schema file {word!r} not found (looked in {path.parent})", line)
    return path


def _confined_schema(word: str, base: Path, line: str) -> Path:
    """The schema file ``word`` names inside ``base`` (``confine``): a relative path, no
    ``..``, no ``~``, no URL, and inside ``base`` once symbolic links are followed."""
    path = Path(word)
    if _URL.match(word) or word.startswith("~") or path.is_absolute() or ".." in path.parts:
        raise ExpectationError(
            f"{line!r}: the schema {word!r} is not a relative path inside base_dir without '..', "
            "as EXPECT text confined to base_dir must name it",
            line,
        )
    try:
        root = base.resolve()
        target = (root / path).resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # a NUL byte, a loop of symbolic links
        raise ExpectationError(f"{line!r}: the schema file {word!r} cannot be looked up: {exc}", line) from None
    if not target.is_relative_to(root):
        raise ExpectationError(f"{line!r}: the schema file {word!r} leads out of base_dir (a symbolic link)", line)
    if not target.is_file():
        raise ExpectationError(f"{line!r}: schema file {word!r} not found (looked in {(root / path).parent})", line)
    return target


def _unescape(value: str) -> str:
    """Escapes such as ``\\t`` are what a user types for a tab delimiter."""
    if "\\" in value:
        try:
            return value.encode("latin-1", "backslashreplace").decode("unicode_escape")
        except UnicodeDecodeError:
            return value
    return value


def _undeclared(registry: Any, name: str) -> bool:
    """The format declares no options: its values are read from text without types."""
    try:
        return declared_options(registry.get(name)) is None
    except FormatbookError:
        return False  # an unknown or conflicting name is reported when Expectations are built


def _hint(suggestion: str | None) -> str:
    return f" (did you mean {suggestion.upper()}?)" if suggestion else ""
