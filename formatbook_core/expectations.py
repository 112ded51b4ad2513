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

import difflib
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .options import declared_options, read_text_value, validate_options
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


@dataclass(frozen=True)
class Count:
    """A limit on a counting unit: ``Count("words", max=3)``, optionally within a ``scope``
    that the format resolves (a Markdown section, a JSON pointer, a CSV column...).

    ``per="value"`` (``EXPECT MAX 10 WORDS IN "comment" per=value``) applies the limit to
    each value on its own (each cell, each string) instead of to their sum; the count
    reported is the largest value's (the smallest's for a MIN-only limit)."""

    unit: str
    min: int | None = None
    max: int | None = None
    exactly: int | None = None
    scope: str | None = None
    per: str | None = None

    @property
    def key(self) -> str:
        """The key of this count in ``CheckResult.counts``: ``words``, ``words IN "x"``,
        ``words IN "x" per value``."""
        key = self.unit if self.scope is None else f'{self.unit} IN "{self.scope}"'
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
        return " ".join(f"{p} {self.unit.upper()}" for p in parts) + scope + per


@dataclass
class Expectations:
    """What a reply must be: a format (with schema and options) and counts.

    Every argument is optional; ``Expectations(format="json", schema=Person)`` is the same
    as ``EXPECT JSON`` with that schema. Building one validates it (unknown format or unit,
    contradictory counts, a scope on a format without scopes or one the format's
    ``validate_scope`` says can never match) and raises
    ``ExpectationError``.
    """

    format: str | None = None
    schema: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    counts: list[Count] = field(default_factory=list)
    #: where relative schema paths were resolved from (informational)
    base_dir: Path | None = None
    registry: Any = field(default=None, repr=False, compare=False)
    _lines: dict[int, str] = field(default_factory=dict, repr=False, compare=False)
    _loaded_schema: Any = field(default=None, repr=False, compare=False)
    _schema_loaded: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.options = dict(self.options or {})
        self.counts = list(self.counts or [])
        self._validate()

    # --- resolved parts --------------------------------------------------------------
    def _registry(self) -> Any:
        if self.registry is not None:
            return self.registry
        return default_registry()

    @property
    def fmt(self) -> Any:
        """The format object (``None`` when no format is expected)."""
        if self.format is None:
            return None
        return self._registry().get(self.format)

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

        registry = self._registry()
        bounds: dict[tuple[str, str | None, str | None], dict[str, int]] = {}
        for index, count in enumerate(self.counts):
            line = self._lines.get(index)
            if not isinstance(count, Count):
                raise ExpectationError(f"counts must be Count objects, not {count!r}", line)
            unit = registry.unit(count.unit) if isinstance(count.unit, str) else None
            if unit is None:
                suggestion = _nearest(str(count.unit).lower(), registry.unit_names())
                raise ExpectationError(
                    f"unknown counting unit {count.unit!r}" + _hint(suggestion), line, suggestion and suggestion.upper()
                )
            if unit.name != count.unit:
                count = Count(unit.name, count.min, count.max, count.exactly, count.scope, count.per)
                self.counts[index] = count
            for label, amount in (("MIN", count.min), ("MAX", count.max), ("EXACTLY", count.exactly)):
                if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int) or amount < 0):
                    raise ExpectationError(f"{label} needs a whole number ≥ 0, not {amount!r}", line)
            if count.min is None and count.max is None and count.exactly is None:
                raise ExpectationError(f"a count of {count.unit} needs MIN, MAX or EXACTLY", line)
            if count.per not in (None, "value"):
                raise ExpectationError(f'per={count.per!r}: the only "per" is per=value (each value on its own)', line)
            if count.scope is not None:
                if fmt is None:
                    raise ExpectationError(f'a scope (IN "{count.scope}") needs a format that resolves it', line)
                if getattr(fmt, "scope_kind", None) is None:
                    raise ExpectationError(f'the {fmt.name} format has no counting scopes (IN "{count.scope}")', line)
                validate_scope = getattr(fmt, "validate_scope", None)
                problem = validate_scope(count.scope) if callable(validate_scope) else None
                if problem:
                    raise ExpectationError(f'IN "{count.scope}" can never match: {problem}', line)
            seen = bounds.setdefault((count.unit, count.scope, count.per), {})
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


def parse_expectations(
    text: str | Iterable[str], *, base_dir: str | Path | None = None, registry: Any = None
) -> Expectations:
    """Read EXPECT lines (a string or an iterable of lines) into ``Expectations``.

    Blank lines and lines starting with ``#`` are ignored; the word ``EXPECT`` may be left
    out (the CLI's ``-e "MAX 3 WORDS"``). A schema file is resolved against ``base_dir``
    (default: the current directory) and must exist; a URL is kept as given.
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    fmt_name: str | None = None
    fmt_line: str | None = None
    schema: Any = None
    options: dict[str, Any] = {}
    counts: list[Count] = []
    count_lines: dict[int, str] = {}

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
            count = _parse_count(words, raw.strip(), reg)
            count_lines[len(counts)] = raw.strip()
            counts.append(count)
            continue
        # a format line
        if fmt_name is not None:
            raise ExpectationError(
                f"two formats expected: {fmt_name.upper()} ({fmt_line}) and {words[0].upper()} ({raw.strip()})",
                raw.strip(),
            )
        if not _is_format(reg, words[0]):
            suggestion = _nearest(head, [*reg.names(), *SIGNS, "expect"])
            raise ExpectationError(
                f"unknown format or sign {words[0]!r} in {raw.strip()!r}" + _hint(suggestion),
                raw.strip(),
                suggestion and suggestion.upper(),
            )
        fmt_name, fmt_line = words[0].lower(), raw.strip()
        for word in words[1:]:
            if "=" in word and not _URL.match(word):
                key, _, value = word.partition("=")
                if not key:
                    raise ExpectationError(f"an option needs a name: {word!r} in {raw.strip()!r}", raw.strip())
                options[key] = _unescape(value)
            elif schema is None:
                schema = _resolve_schema(word, base, raw.strip())
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


def _parse_count(words: list[str], line: str, registry: Any) -> Count:
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
    unit_word = words[2]
    unit = registry.unit(unit_word)
    if unit is None:
        suggestion = _nearest(unit_word.lower(), registry.unit_names())
        raise ExpectationError(
            f"{line!r}: unknown unit {unit_word!r}" + _hint(suggestion), line, suggestion and suggestion.upper()
        )
    scope = None
    per = None
    rest = words[3:]
    if rest and rest[-1].lower().startswith("per="):
        per = rest[-1][4:].lower()
        rest = rest[:-1]
    if rest:
        if rest[0].lower() != "in" or len(rest) != 2:
            suggestion = "IN" if rest[0].lower() != "in" else None
            raise ExpectationError(
                f'{line!r}: after the unit only IN "scope" and per=value may follow' + _hint(suggestion),
                line,
                suggestion,
            )
        scope = rest[1]
    return Count(unit.name, scope=scope, per=per, **{sign: amount})


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


def _nearest(word: str, choices: Iterable[str]) -> str | None:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return match[0] if match else None


def _hint(suggestion: str | None) -> str:
    return f" (did you mean {suggestion.upper()}?)" if suggestion else ""
