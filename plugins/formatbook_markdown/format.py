"""``MarkdownFormat``: the Markdown contract as a formatbook format.

The schema is the contract (an ``OutputFormatSpec``, contract text, a path, a plain
structure; ``None`` for no contract); the option ``level`` (0..3, default 1; ``"2"``
works too) is the strictness. A reply is valid when the repair plan leaves it unchanged
and finds nothing it cannot repair; its violations are the plan's issues followed by one
violation per repair it would make.

A thin adapter: the work is done by the modules beside it (``contract/``, ``reply/``,
``heal/``, ``values``, ``stream``, ``locate``). Those that read or repair a reply (about
thirty modules and markdown-it-py, ~40 ms) are imported on first use, inside the methods,
so that registering the format stays cheap.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from formatbook_core import (
    Analysis,
    AnalyzingFormat,
    ExpectationError,
    Healed,
    Option,
    ScopeNotFound,
    Span,
    Violation,
)

from .contract.level import parse_level
from .locate import locate_markdown
from .reply.body import as_text

if TYPE_CHECKING:
    from formatbook_core.grammars import Grammar

#: The last few enforce results, keyed by (text, id(spec), level); the spec is kept in
#: the value so that an id cannot be reused while its entry lives.
_RESULTS: OrderedDict[tuple[str, int, int], tuple[Any, Any]] = OrderedDict()
_RESULTS_SIZE = 8
#: The characters the texts of the results kept may hold together, the text about to be
#: read included: a result keeps its reply's outline, sections and tables (tens of bytes
#: a character). Older results go before a new one is made, not after: a check reads the
#: reply, then its healed text, and the reply's result was alive while the healed text's
#: was made (as much memory again). The latest result always stays until then.
_RESULTS_CHARS = 1 << 16

_SAMPLES = (
    "# Title\n\nA paragraph with *emphasis* and `code`.\n\n- one\n- two\n",
    "## Short answer\n\nYes.\n\n## Reasoning\n\n1. The sky is clear.\n2. The forecast agrees.\n",
    "| Option | Cost |\n| --- | --- |\n| A | 3 |\n",
    "Just a paragraph of text.\n",
)


def _level_problem(level: Any) -> str | None:
    try:
        parse_level(level)
    except ValueError:
        return "must be 0, 1, 2 or 3 (or L0..L3)"
    return None


class MarkdownFormat(AnalyzingFormat):
    """Markdown, optionally under a Flex-MD output contract (see README.md)."""

    name = "markdown"
    whole_reply_locate = True  # the repair plan needs every fence and <think> block
    option_specs = (
        Option("level", (int, str), 1, "the Flex-MD level: 0, 1, 2 or 3 (also L0..L3)", check=_level_problem),
    )
    aliases = ("md",)
    mime_types = ("text/markdown",)
    scope_kind = "section name"
    #: locate answers with the whole reply first, by design (the plan needs every fence)
    whole_reply_locate = True
    description = "Markdown; with a contract (Flex-MD v3): required sections, kinds, tables, levels L0–L3."
    samples = _SAMPLES

    # --- schema and options ----------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> Any:
        """The contract as an ``OutputFormatSpec`` (``coerce_spec``); the ``level``
        option is checked here too, so a bad one is a bad expectation."""
        from .contract.coerce import load_spec  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        if "level" in options:
            try:
                parse_level(options["level"])
            except ValueError as exc:
                raise ExpectationError(str(exc)) from None
        return load_spec(schema)

    def _setup(self, schema: Any, options: dict[str, Any]) -> tuple[Any, int, Violation | None]:
        from .contract.coerce import load_spec  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        try:
            level = parse_level(options.get("level", 1))
        except ValueError as exc:
            return None, 1, Violation("markdown.level", str(exc))
        try:
            spec = load_spec(schema)
        except Exception as exc:  # SpecError, or an unreadable object
            return None, level, Violation("markdown.spec", f"the contract cannot be read: {exc}")
        return spec, level, None

    def _enforce(self, value: Any, schema: Any, options: dict[str, Any]):
        from .heal.enforce import enforce_flex_md  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        spec, level, problem = self._setup(schema, options)
        if problem is not None:
            return None, problem
        text = _text(value)
        # is_valid, analyze, validate and heal are asked about the same text in a row
        key = (text, id(spec), level)
        hit = _RESULTS.get(key)
        if hit is not None and hit[0] is spec:
            _RESULTS.move_to_end(key)
            return hit[1], None
        chars = len(text) + sum(len(k[0]) for k in _RESULTS)
        while _RESULTS and (len(_RESULTS) >= _RESULTS_SIZE or chars > _RESULTS_CHARS):
            chars -= len(_RESULTS.popitem(last=False)[0][0])
        result = enforce_flex_md(text, spec, level)
        _RESULTS[key] = (spec, result)
        return result, None

    # --- the four Promptbook methods and friends -------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One pass: the repair plan run on ``value``. Valid when it changes nothing and
        finds no issue; the value is then the ``Extracted`` sections."""
        from .heal.enforce import violations_of  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        result, problem = self._enforce(value, schema, options)
        if problem is not None:
            return Analysis(None, (problem,))
        violations = violations_of(result)
        if violations:
            return Analysis(None, tuple(violations))
        return Analysis(result.extracted, ())

    def parse(self, value: str, schema: Any = None, **options: Any) -> Any:
        from .heal.enforce import extract_output  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        spec, level, problem = self._setup(schema, options)
        return extract_output(_text(value), spec, level)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        try:
            checker = self.stream(schema, strict=True, **options)
            return bool(checker.feed(_text(partial)))
        except Exception:
            return True  # unsure is "maybe": False must be certain

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """The repaired reply with its repairs and what was set aside; ``HealError``
        when the plan leaves issues (a missing section without empty value...)."""
        from .heal import heal  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        return heal(value, schema, options)

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        from .values import extract_values  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        spec, level, problem = self._setup(schema, options)
        try:
            return extract_values(_text(value), spec)
        except RecursionError:
            return []

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        from .values import extract_scope  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        spec, level, problem = self._setup(schema, options)
        found = extract_scope(_text(value), str(scope), spec)
        if found is None:
            raise ScopeNotFound(f"no section {scope!r} in the reply")
        return found

    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """The whole reply first (see :mod:`.locate`), then the default locator's spans."""
        spec, level, problem = self._setup(schema, options)
        return locate_markdown(reply, (self.name, *self.aliases), spec)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any):
        from .stream import MarkdownChecker  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        spec, level, problem = self._setup(schema, options)
        return MarkdownChecker(self, spec, level, strict, dict(options))

    def grammar(self, schema: Any = None, **options: Any) -> Grammar:
        """The contract's section skeleton as a grammar (see ``grammar.py``):
        ``ExportError`` without a contract or at level 0."""
        from .contract.coerce import load_spec  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)
        from .grammar import markdown_grammar  # noqa: PLC0415 - an export, built when asked for

        spec = load_spec(schema) if schema is not None else None
        return markdown_grammar(spec, parse_level(options.get("level", 1)))

    def guidance(self, schema: Any = None, **options: Any) -> str:
        from .contract.coerce import load_spec  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)
        from .contract.guidance import build_markdown_guidance  # noqa: PLC0415 - machinery loaded on first use (see the module docstring)

        return build_markdown_guidance(load_spec(schema), level=parse_level(options.get("level", 1)))


def _text(value: Any) -> str:
    try:
        return as_text(value)
    except TypeError:
        return ""
