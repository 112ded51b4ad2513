"""``HtmlFormat``: the ``html`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

from typing import Any

from formatbook_core import Analysis, AnalyzingFormat, ExpectationError, Healed, ScopeNotFound, Span, Violation
from formatbook_core.limits import limits_from
from formatbook_core.schema_files import BASE_DIR
from formatbook_core.verdicts import Verdicts

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from .parse import Parsed, discard, mode_of, parse
from .schema import HtmlSchema, load_schema
from .select import Mirror, compile_selector
from .values import outermost, values_of
from .verdict import MAX_REPORTED, content_violations, syntax_violations

_SAMPLES = (
    "<p>Paris is the capital of <strong>France</strong>.</p>",
    '<h2>Weekly report</h2>\n<ul>\n  <li>Fixed the login bug</li>\n  <li>Wrote the <a href="/docs">docs</a></li>\n'
    "</ul>\n<p>Two tasks, one &amp; a half hours each.</p>",
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Answer</title>\n</head>\n'
    "<body>\n<h1>Answer</h1>\n<p>It is <em>42</em>.</p>\n</body>\n</html>",
    "<table>\n<thead><tr><th>City</th><th>Population</th></tr></thead>\n<tbody>\n<tr><td>Z\u00fcrich</td><td>421,878</td></tr>\n"
    "</tbody>\n</table>",
    '<figure><img src="cat.png" alt="A cat asleep"><figcaption>Our cat</figcaption></figure>\n'
    "<!-- a comment -->\n<p>Line one<br>line two</p>",
    '<article><h3 title="Summary">Summary</h3><p>See <code>a &lt; b</code> and<br>the list:</p><ol><li>one<li>two</ol></article>',
)


# The verdicts (violations, never a tree) of the last texts read, by (loaded schema,
# max_depth): is_valid, validate, heal and the relaxed checker's finish of one reply ask
# about the same text object, and each reading runs html5lib over all of it (see
# formatbook_core.verdicts). max_size is no part of the key: it is judged before a reading.
_VERDICTS: Verdicts[tuple[Violation, ...]] = Verdicts()

# The codes a parse without an error or a limit may still give (content and schema):
# html5lib found nothing wrong in such a text, so no continuation of it is ruled out.
_AFTER_A_CLEAN_PARSE = frozenset(("html.markdown", "html.no_element", "html.required"))


class HtmlFormat(AnalyzingFormat):
    """HTML, judged by html5lib's implementation of the WHATWG parsing algorithm.

    A reply starting with ``<!DOCTYPE`` or ``<html`` is a document, anything else a
    fragment in a ``body`` context; valid means at least one element and no parse error.
    Schema: ``{"required": [CSS selectors]}``. Scopes are CSS selectors. See README.md."""

    name = "html"
    aliases = ("htm", "xhtml5")
    mime_types = ("text/html",)
    scope_kind = "CSS selector"
    description = "HTML, judged by the HTML5 (WHATWG) parsing algorithm; scopes are CSS selectors."
    samples = _SAMPLES
    option_specs = (BASE_DIR,)

    # --- helpers --------------------------------------------------------------------
    @staticmethod
    def depth(options: dict[str, Any]) -> int:
        return limits_from(options).max_depth

    def _schema(self, schema: Any, options: dict[str, Any]) -> HtmlSchema | None:
        if schema is None or isinstance(schema, HtmlSchema):
            return schema
        return self.load_schema(schema, **options)

    def _parse(self, text: str, options: dict[str, Any]) -> Parsed:
        return parse(text, max_depth=self.depth(options), keep=MAX_REPORTED, stop_after=MAX_REPORTED + 1)

    def violations_of(self, parsed: Parsed, length: int, schema: Any) -> list[Violation]:
        """Every violation of one parse: syntax, then content, then the schema."""
        if parsed.limit is not None or parsed.count or parsed.stopped:
            return syntax_violations(parsed, length)
        found = content_violations(parsed, length)
        if found:
            return found
        if schema is not None:
            return schema.violations(parsed.root)
        return []

    # --- schemas --------------------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> Any:
        """An :class:`~formatbook_html.schema.HtmlSchema` (required CSS selectors)."""
        return load_schema(schema, base_dir=options.get("base_dir"))

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        if not isinstance(value, str):
            return Analysis(None, (Violation("html.syntax", f"the reply is {type(value).__name__}, not text"),))
        max_size = limits_from(options).max_size
        if len(value) > max_size:
            return Analysis(
                None, (Violation("html.too_large", f"the HTML has more than {max_size:,} characters (max_size)"),)
            )
        try:
            loaded = self._schema(schema, options)
        except ExpectationError as err:
            return Analysis(None, (Violation("html.schema", f"the schema cannot be used: {err}"),))
        key = (loaded, self.depth(options))
        known = _VERDICTS.get(value, key)
        if known:  # an invalid text's analysis is its verdict alone (no tree is kept)
            return Analysis(None, known)
        parsed = self._parse(value, options)
        violations = tuple(self.violations_of(parsed, len(value), loaded))
        _VERDICTS.put(value, violations, key)
        if violations:
            discard(parsed)  # (freed now, not by a later pause of the garbage collector)
            return Analysis(None, violations)
        return Analysis(value, document=parsed)  # the tree: values and scopes are read there

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        """``analyze``'s violations (remembered when the same text was just read)."""
        return list(self._verdict(value, schema, options))

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """Whether ``value`` is valid as it stands (the schema included). Never raises."""
        try:
            return not self._verdict(value, schema, options)
        except Exception:  # a bug is no verdict: is_valid answers False
            return False

    def _verdict(self, value: Any, schema: Any, options: dict[str, Any]) -> tuple[Violation, ...]:
        """``analyze(...).violations``, remembered or read (no tree left behind to collect)."""
        if isinstance(value, str) and len(value) <= limits_from(options).max_size:
            known = self._remembered(value, schema, options)
            if known is not None:
                return known
        analysis = self.analyze(value, schema, **options)
        if isinstance(analysis.document, Parsed):
            discard(analysis.document)
        return analysis.violations

    def _remembered(self, text: str, schema: Any, options: dict[str, Any]) -> tuple[Violation, ...] | None:
        """The verdict kept for ``text`` (that object) under this schema and max_depth."""
        try:
            return _VERDICTS.get(text, (self._schema(schema, options), self.depth(options)))
        except ExpectationError:
            return None  # analyze says why

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """False only when html5lib reported an error before reaching the end of
        ``partial`` (or a limit was passed): end-of-input errors may still be mended."""
        try:
            if not isinstance(partial, str):
                return False
            max_size, max_depth = limits_from(options)
            if len(partial) > max_size:
                return False
            mode = mode_of(partial)
            if mode is None:
                return True
            known = self._remembered(partial, schema, options)
            if known is not None and all(v.code in _AFTER_A_CLEAN_PARSE for v in known):
                return True  # read lately, and html5lib found no error or limit in it
            parsed = parse(partial, mode, max_depth=max_depth, keep=1, stop_after=1, definite_only=True)
            discard(parsed)
            if parsed.limit is not None and not parsed.limit_at_end:
                return False
            return parsed.definite == 0
        except Exception:
            return True  # never falsy by accident: a crash here says nothing about the text

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> Any:
        """The incremental checker (see :mod:`formatbook_html.stream`)."""
        max_size, max_depth = limits_from(options)
        loaded = self._schema(schema, options)
        if strict:
            return _stream.HtmlChecker(self, loaded, options, max_size, max_depth)
        return _stream.RelaxedChecker(self, loaded, options, max_size)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        return _locate.locate(reply)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Rewrite the tree the HTML5 algorithm builds, every change listed (see
        :mod:`formatbook_html.heal`). Raises ``HealError``."""
        return _heal.heal(value, self._schema(schema, options), options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, starting from ``analysis`` (``text``'s) instead of reading it again."""
        return _heal.heal(text, self._schema(schema, options), options, analysis=analysis)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Visible text per block (not script/style), then alt and title attributes."""
        if not isinstance(value, str) or not value.strip():
            return []
        return self.values_of(Analysis(document=self._parse(value, options)), value)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values of the elements the CSS selector ``scope`` matches. Raises ``ScopeNotFound``."""
        return self.scope_of(Analysis(), value, scope, schema, **options)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values``, from the tree ``analyze`` built."""
        parsed = analysis.document
        if not isinstance(parsed, Parsed):
            return self.extract_values(text, schema, **options)
        if parsed.root is None or not text.strip():
            return []
        return values_of(list(parsed.root.childNodes))

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope``, from the tree ``analyze`` built."""
        try:
            compile_selector(scope)
        except ExpectationError as err:
            raise ScopeNotFound(str(err)) from None
        parsed = analysis.document
        if not isinstance(parsed, Parsed):  # an analysis without the tree: read the text
            parsed = self._parse(text, options) if isinstance(text, str) else None
        if parsed is None or parsed.root is None:
            raise ScopeNotFound(f"no element matches {scope!r}: the HTML could not be read")
        found = Mirror(parsed.root).select(scope)
        if not found:
            raise ScopeNotFound(f"no element of the HTML matches the CSS selector {scope!r}")
        return values_of(outermost(found))

    def validate_scope(self, scope: str) -> str | None:
        try:
            compile_selector(scope)
        except ExpectationError as err:
            return f'{err}; an HTML scope is a CSS selector such as "article p"'
        return None

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return _guidance.guidance(self._schema(schema, options))
