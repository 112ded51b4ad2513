"""The format definition: what every format plugin provides.

``FormatDefinition`` is the protocol (Promptbook's four methods plus ``locate`` and
``stream``); ``BaseFormat`` gives every optional method a sane default, so a third-party
format can implement only ``is_valid``, ``can_be_valid``, ``heal`` and ``extract_values``.

Every method takes the reply as ``str``, an optional ``schema`` and format-specific keyword
``options``. None of them raises on any reply, except ``heal`` (``HealError``) and
``extract_scope`` (``ScopeNotFound``).

``Unit`` is the base of counting units (the built-in ones live in :mod:`.counting`). Every
attribute the core reads from a format or a unit is declared here with its default;
registration gives a plugin object that lacks one that default, once
(:func:`give_defaults`), so that the core reads plain attributes and never probes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import FunctionType, MethodType
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from .locating import default_locate
from .options import Option
from .reply import Reply, ThinkScanner, ThinkTags
from .results import Analysis, ExportError, Healed, HealError, Located, ScopeNotFound, Span, StreamStatus, Violation

if TYPE_CHECKING:
    from .exports import ResponseFormat
    from .grammars import Grammar


@runtime_checkable
class Checker(Protocol):
    """An incremental checker returned by ``FormatDefinition.stream``.

    ``feed`` costs time in proportion to the chunk, never to the text fed before it.

    Optional, for counts scoped with ``IN "..."`` kept while streaming: a checker may
    define ``scope_key(scope: str) -> str | None``, the key under which its statuses'
    ``scoped`` field reports values settled in that scope (``None``: that scope's values
    settle only at the end). A settled value is one every continuation leaves among
    ``extract_scope``'s values. Without the method (or with ``None``), ``StreamGuard``
    judges scoped counts at ``finish()`` only. (Optional, so not a member of the protocol:
    ``StreamGuard`` looks for it once per guard.)

    Optional, for generation within a token budget: ``closing() -> str | None``, the
    shortest text after which ``finish()`` would accept (``""`` when it would now),
    ``None`` when the checker cannot tell. Costs the state, never the text fed.
    ``StreamGuard.closing`` gives it; ``ExpectationsLogitsProcessor`` keeps it within the
    tokens left, so that a reply can always close before its budget ends.

    Optional, for a token stream's speed: ``quiet(counted: bool) -> Quiet | None``, how long
    the checker may be spared (see :class:`formatbook_core.results.Quiet`): ``StreamGuard``
    then answers for it and feeds it the chunks later, one piece (without limits) or, when
    ``counted`` (the guard counts what it reports), through ``feed_chunks(chunks) ->
    StreamStatus``: the chunks fed one by one, answered as one status (the values in
    order, the open text after the last of them, the last ``complete``), which the guard
    then needs too. ``None``: any chunk may change the answer. Costs the state.
    """

    def feed(self, chunk: str) -> StreamStatus:
        """Consume the next piece of the reply; falsy once no continuation can be valid."""

    def copy(self) -> Checker:
        """An independent clone of the current state."""

    def finish(self) -> StreamStatus:
        """The reply has ended: truthy when the text fed is a complete valid document."""


@runtime_checkable
class FormatDefinition(Protocol):
    """What a format plugin registers. See ARCHITECTURE.md, "The format definition"."""

    # Read-only members: a class attribute (``name = "json"``) or a property provides them.
    @property
    def name(self) -> str:
        """The format's name, lower case (``"json"``)."""

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names it is looked up by (``("yml",)``)."""

    @property
    def mime_types(self) -> tuple[str, ...]:
        """MIME types it is looked up by (``("application/json",)``)."""

    @property
    def scope_kind(self) -> str | None:
        """What an ``IN "..."`` counting scope names in this format ("JSON pointer",
        "section name"...), or ``None`` when the format has no scopes."""

    @property
    def description(self) -> str:
        """One line for listings (``formatbook formats``)."""

    @property
    def samples(self) -> tuple[str, ...]:
        """Valid sample documents (listings, the contract suite, the fuzzer's seeds)."""

    @property
    def structured(self) -> bool:
        """True when the format wraps its values in syntax (guidance says counts run on them)."""

    @property
    def option_specs(self) -> tuple[Option, ...] | None:
        """The options the format takes; ``None`` takes any option unchecked."""

    @property
    def whole_reply_locate(self) -> bool:
        """True when ``locate`` answers with the whole reply, not a payload inside it."""

    @property
    def think_tags(self) -> ThinkTags:
        """How think tags relate to the format's syntax (``ThinkTags.LINE_START`` by default)."""

    @property
    def surrounding_space(self) -> str | None:
        """The characters ``check()`` strips around the payload; ``None``: all white space."""

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """The reply is in the format and satisfies the schema. Never raises."""

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """False only when no continuation of ``partial`` can be valid (strict grammar)."""

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """The repaired text and its repairs; raises ``HealError`` when it cannot."""

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """The data carried, without the structure; counting runs on these."""

    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Where payloads of this format sit in ``reply``, best candidate first."""

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> Checker:
        """An incremental checker; ``strict=False`` follows the grammar ``heal`` accepts."""

    # The optional methods: ``BaseFormat`` defines them, and registration gives a format
    # that does not subclass it ``BaseFormat``'s (``FORMAT_DEFAULTS``).
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """Parse and validate in one pass: what the check pipeline calls."""

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under an ``IN "..."`` scope; raises ``ScopeNotFound`` when absent."""

    def validate_scope(self, scope: str) -> str | None:
        """Why ``scope`` can never match a reply of this format, or ``None``."""

    def guidance(self, schema: Any = None, **options: Any) -> str:
        """Prompt instructions asking for this format."""

    def load_schema(self, schema: Any, **options: Any) -> Any:
        """The schema as the format uses it (called once per ``Expectations``)."""

    # The parsed document (issue 24): what the pipeline calls, so that no stage reads the
    # payload again; each defaults to the ``str`` verb above.
    def candidates(self, reply: str, schema: Any = None, **options: Any) -> Sequence[Span | Located]:
        """``locate``'s candidates, a payload locating analyzed carrying that analysis."""

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal`` of ``text``, starting from its ``analysis``."""

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values`` of ``text``, from its ``analysis`` (its ``document``)."""

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope`` of ``text``, from its ``analysis``; raises ``ScopeNotFound``."""

    # Exports to the engines that constrain decoding (``formatbook_core.exports``): a
    # format that has one overrides the method; ``BaseFormat``'s raises ``ExportError``.
    def grammar(self, schema: Any = None, **options: Any) -> Grammar:
        """A grammar (``formatbook_core.grammars``) of replies the format and ``schema`` accept."""

    def response_format(self, schema: Any = None, **options: Any) -> ResponseFormat:
        """The ``response_format`` of an OpenAI-compatible request asking for such a reply."""


class BaseFormat:
    """Defaults for everything but the four Promptbook methods.

    Subclasses set ``name`` (lower case), ``aliases``, ``mime_types`` and override what
    they can do better. ``analyze`` is the one-pass entry point the check pipeline uses;
    the default builds it from ``validate`` and ``parse``.
    """

    name: str = ""
    aliases: tuple[str, ...] = ()
    mime_types: tuple[str, ...] = ()
    scope_kind: str | None = None
    description: str = ""
    #: Valid sample documents: shown by ``formatbook formats --samples`` and fed to the
    #: contract test-suite (every prefix must stream, healing must leave them unchanged).
    samples: tuple[str, ...] = ()
    #: True when the format wraps its values in syntax (keys, braces, headings), so that
    #: guidance says counts run on the values only; plain text sets it False.
    structured: bool = True
    #: The options this format takes besides the core's limits (``max_size``,
    #: ``max_depth``): validated when expectations are built, listed by
    #: ``formatbook formats --options``. ``None`` takes any option unchecked.
    option_specs: tuple[Option, ...] | None = ()
    #: True when ``locate`` answers with the whole reply (the format's payload needs its
    #: surroundings, as a Markdown contract does) instead of a payload found inside it.
    whole_reply_locate: bool = False
    #: How think tags relate to the format's syntax (:class:`~formatbook_core.reply.ThinkTags`):
    #: by default a tag opens a think block only at the start of the reply or of a line;
    #: ``ANYWHERE`` (JSON, whose locate tells a tag in a string from a note) wherever it is.
    #: The prepared reply finds the blocks so for every stage (locate, heal, the stream).
    think_tags: ThinkTags = ThinkTags.LINE_START
    #: The characters around the payload that are no part of it (``check()`` strips them,
    #: and ``StreamGuard`` holds them back at the end of what has come until text follows):
    #: ``None``, every character ``str.isspace`` counts; a format whose grammar reads some
    #: of those as text gives its own (JSON: ``spans.SPACES``, no control character), so
    #: that a strict guard refuses them at once, as ``check()`` does.
    surrounding_space: str | None = None

    # --- the text around a payload, as the format reads it ----------------------------
    @classmethod
    def prepare(cls, text: str) -> Reply:
        """``text`` prepared (:class:`~formatbook_core.reply.Reply`), read as the format
        declares: what a plugin given a bare ``str`` asks its notes and fences of."""
        return Reply.of(text, cls.think_tags)

    @classmethod
    def splitter(cls) -> ThinkScanner:
        """The stream splitter reading the format's way: fed chunks, it answers the
        stretches outside notes (what a relaxed checker reads before its payload)."""
        return ThinkScanner(cls.think_tags)

    # --- the four Promptbook methods -------------------------------------------------
    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        return not self.validate(value, schema, **options)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        return True

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        violations = self.validate(value, schema, **options)
        if violations:
            raise HealError(f"cannot heal {self.name}: {violations[0].message}", violations)
        return Healed(value)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        return [value] if value.strip() else []

    # --- optional, with defaults -----------------------------------------------------
    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        """Every violation of ``value``; the default asks ``is_valid``.

        A subclass must override ``validate`` or ``is_valid`` (each default uses the other).
        """
        if type(self).is_valid is BaseFormat.is_valid:
            raise TypeError(f"{type(self).__name__} must define validate() or is_valid()")
        if self.is_valid(value, schema, **options):
            return []
        return [Violation(f"{self.name}.invalid", f"not valid {self.name.upper()}")]

    def parse(self, value: str, schema: Any = None, **options: Any) -> Any:
        """The Python value the text carries; the default is the text itself."""
        return value

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """Parse and validate in one pass (override to avoid parsing twice)."""
        violations = self.validate(value, schema, **options)
        if violations:
            return Analysis(None, tuple(violations))
        return Analysis(self.parse(value, schema, **options), ())

    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """By default: fenced blocks tagged with one of this format's names, else the
        reply without its ``<think>`` blocks and surrounding blank space."""
        return default_locate(reply, (self.name, *self.aliases))

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> Sequence[Span | Located]:
        """``locate``'s candidates, each a ``Span`` or, where locating analyzed the
        payload (with ``schema``), a ``Located`` that carries that analysis: what the
        pipeline calls, so that a payload is not read twice. The default is ``locate``."""
        return self.locate(reply, schema, **options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal`` of ``text``, whose ``analyze`` (with ``schema``) gave ``analysis``: a
        format whose healing starts by analyzing the text takes that one instead. What
        the pipeline calls; the default is ``heal``."""
        return self.heal(text, schema, **options)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values`` of ``text``, from ``analysis`` (the valid ``analyze`` of
        ``text`` with ``schema``): a format that keeps its parse in ``analysis.document``
        reads the values there. The default reads ``text`` again."""
        return self.extract_values(text, schema, **options)

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope`` of ``text``, from ``analysis`` as :meth:`values_of` does;
        raises ``ScopeNotFound``. The default reads ``text`` again."""
        return self.extract_scope(text, scope, schema, **options)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> Checker:
        """Fallback checker that re-checks the whole prefix (quadratic): only for formats
        that offer nothing better."""
        return RecheckChecker(self, schema, strict=strict, options=options)

    def validate_scope(self, scope: str) -> str | None:
        """Why ``scope`` can never match a reply of this format (a JSON pointer that does
        not start with ``/``, say), or ``None`` when some reply may hold it. Called when
        the expectations are built, so that such a scope is an ``ExpectationError`` then
        and not a failure of every reply; the default accepts every scope."""
        return None

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under ``scope``; raises ``ScopeNotFound`` when the reply lacks it."""
        raise ScopeNotFound(f"the {self.name} format has no counting scopes (asked for {scope!r})")

    def guidance(self, schema: Any = None, **options: Any) -> str:
        """Prompt instructions asking for this format."""
        return f"Reply in {self.name.upper()} only."

    def load_schema(self, schema: Any, **options: Any) -> Any:
        """Turn a schema given as text, a path or an object into what the format uses.

        Called once per ``Expectations``; the default keeps the schema as given.
        """
        return schema

    def grammar(self, schema: Any = None, **options: Any) -> Grammar:
        """A grammar of replies this format and ``schema`` (as ``load_schema`` gave it)
        accept, for constrained decoding: every text it matches passes ``check()``, but
        for what it lists in ``Grammar.left``. The default: no grammar (``ExportError``)."""
        raise ExportError(f"format {self.name} has no grammar export")

    def response_format(self, schema: Any = None, **options: Any) -> ResponseFormat:
        """The ``response_format`` of an OpenAI-compatible chat request for this format and
        ``schema``, with what it lost. The default: none (``ExportError``)."""
        raise ExportError(f"format {self.name} has no response_format export (only JSON replies have one)")

    def __repr__(self) -> str:
        return f"<format {self.name}>"


class AnalyzingFormat(BaseFormat):
    """A format that parses and validates in one pass: it defines :meth:`analyze`, and
    ``validate``, ``is_valid`` (which never raises) and ``parse`` follow from it. Every
    built-in format with a parser is one."""

    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        raise TypeError(f"{type(self).__name__} must define analyze()")

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        return list(self.analyze(value, schema, **options).violations)

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """Whether ``value`` is valid as it stands (the schema included). Never raises."""
        try:
            return self.analyze(value, schema, **options).ok
        except Exception:  # a format's bug is no verdict: is_valid answers False
            return False

    def parse(self, value: str, schema: Any = None, **options: Any) -> Any:
        """The value ``analyze`` gives (``None`` when the text is not valid)."""
        return self.analyze(value, schema, **options).value


class RecheckChecker:
    """The base class's quadratic fallback: asks ``can_be_valid`` on the whole prefix.

    Accumulating chunks costs O(total) per feed; use it only when a format has nothing
    better. A relaxed (``strict=False``) checker cannot fail early: anything may heal.
    """

    def __init__(self, fmt: Any, schema: Any, *, strict: bool, options: dict[str, Any]):
        self._fmt = fmt
        self._schema = schema
        self._strict = strict
        self._options = options
        self._parts: list[str] = []
        self._failed: StreamStatus | None = None
        self._length = 0

    def feed(self, chunk: str) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        self._parts.append(chunk)
        self._length += len(chunk)
        if self._strict:
            text = "".join(self._parts)
            self._parts = [text]
            if not self._fmt.can_be_valid(text, self._schema, **self._options):
                self._failed = StreamStatus(False, f"no continuation can be valid {self._fmt.name}", self._length)
                return self._failed
        return StreamStatus(True)

    def copy(self) -> RecheckChecker:
        clone = RecheckChecker(self._fmt, self._schema, strict=self._strict, options=self._options)
        clone._parts = list(self._parts)
        clone._failed = self._failed
        clone._length = self._length
        return clone

    def finish(self) -> StreamStatus:
        if self._failed is not None:
            return self._failed
        text = "".join(self._parts)
        if not self._fmt.is_valid(text, self._schema, **self._options):
            if self._strict:
                return StreamStatus(False, f"not valid {self._fmt.name}", len(text))
            try:
                text = self._fmt.heal(text, self._schema, **self._options).text
            except HealError as err:
                return StreamStatus(False, str(err), len(text))
        return StreamStatus(
            True, complete=True, values=tuple(self._fmt.extract_values(text, self._schema, **self._options))
        )


class Unit(ABC):
    """A counting unit (``EXPECT MAX 3 WORDS``); the built-in ones are in :mod:`.counting`.

    Subclasses set ``name`` (plural, lower case), ``aliases`` and implement :meth:`count`.
    A derived unit sets ``based_on`` to the name of its base unit and implements
    :meth:`from_base` instead; it is then computed from the base unit's *total* over all
    values, never value by value. The other attributes are read by the core when set.
    """

    name: str = ""
    aliases: tuple[str, ...] = ()
    based_on: str | None = None
    #: the base unit itself, for a derived unit built outside the registry (else looked up)
    base: Unit | None = None
    description: str = ""
    #: ``"values"``: counted in a format's values; ``"text"``: markup counted in the checked
    #: text (bullets), which cannot be scoped
    reads: Literal["values", "text"] = "values"
    #: what the unit means, added to the guidance of a count of it
    hint: str = ""
    #: the noun of the argument the unit takes (``"separator"``), or ``None``; such a unit
    #: defines ``with_argument(value)``, giving the bound unit
    argument: str | None = None
    #: how a count of an argument-taking unit is written, for error messages
    example: str | None = None
    #: True for the quoted-literal unit (``EXPECT MAX 0 ","``)
    literal: bool = False
    #: ``spelled(argument) -> str``: how a count's label writes the bound argument
    spelled: Callable[[str], str] | None = None
    #: ``find(text) -> [(start, end), ...]``: where the units are, shown in a violation
    find: Callable[[str], list[tuple[int, int]]] | None = None
    #: True when ``count(text)`` never exceeds ``len(text)`` (each unit holds a character
    #: at least): a ``StreamGuard`` then counts the value still being written only once
    #: its length could take the count past the limit (the bound is the same, found later)
    at_most_one_per_character: bool = False

    @abstractmethod
    def count(self, text: str) -> int:
        """The number of units in ``text``."""

    def from_base(self, total: int) -> int:
        """For a derived unit: its count given the base unit's total over all values."""
        raise TypeError(f"unit {self.name!r} is not derived from another unit")

    def settled_end(self, text: str, start: int = 0) -> int:
        """The largest index ``i`` found where counting is additive for every continuation.

        For every string ``c``: ``count(text[:i]) + count(text[i:] + c) == count(text + c)``.
        ``start`` is a search hint: positions before it were examined by an earlier call, so
        only ``start`` onwards (plus a small bounded look-back) is searched, and the cost is
        ``O(len(text) - start)``. Returns 0 when no such index is found (0 is always safe).
        The base class knows no safe index; a unit without one is still counted correctly
        while streaming, only its settled lower bound stays at 0 until the value ends.
        """
        return 0

    def __repr__(self) -> str:
        return f"<unit {self.name}>"


#: What the core reads from a registered format besides the four Promptbook methods and
#: ``locate``/``stream``, with the default a format that does not subclass ``BaseFormat``
#: gets: ``BaseFormat``'s, except ``option_specs`` (a format that declares nothing takes any
#: option unchecked). A function is bound to the format as a method.
FORMAT_DEFAULTS: Mapping[str, Any] = {
    **{
        name: vars(BaseFormat)[name]
        for name in ("aliases", "mime_types", "scope_kind", "description", "samples", "structured")
    },
    "option_specs": None,
    "whole_reply_locate": False,
    "think_tags": ThinkTags.LINE_START,
    "surrounding_space": None,
    **{
        name: vars(BaseFormat)[name]
        for name in (
            *("validate", "parse", "analyze", "extract_scope", "validate_scope", "guidance", "load_schema"),
            *("candidates", "heal_analyzed", "values_of", "scope_of", "grammar", "response_format"),
        )
    },
}

#: What the core reads from a registered unit besides ``name`` and ``count``: ``Unit``'s
#: defaults, for a unit that does not subclass it.
UNIT_DEFAULTS: Mapping[str, Any] = {
    name: vars(Unit)[name]
    for name in (
        "aliases",
        "based_on",
        "base",
        "description",
        "reads",
        "hint",
        "argument",
        "example",
        "literal",
        "spelled",
        "find",
        "at_most_one_per_character",
    )
}


def give_defaults(obj: Any, defaults: Mapping[str, Any], what: str) -> Any:
    """Give ``obj`` every declared attribute it lacks, with its default; return ``obj``.

    Called once, where a plugin object enters the core (registration, a parsed
    instruction), so that every later read is plain attribute access. An object that
    cannot take an attribute (``__slots__``) is a ``TypeError`` naming what to declare.
    """
    for attr, default in defaults.items():
        if hasattr(obj, attr):
            continue
        value = MethodType(default, obj) if isinstance(default, FunctionType) else default
        try:
            setattr(obj, attr, value)
        except (AttributeError, TypeError) as exc:
            raise TypeError(f"{what} {obj!r} does not declare {attr!r} and cannot be given its default: {exc}") from exc
    return obj
