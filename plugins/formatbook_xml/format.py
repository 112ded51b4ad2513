"""``XmlFormat``: the ``xml`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

from typing import Any

from formatbook_core import Analysis, AnalyzingFormat, Healed, Located, Option, ScopeNotFound, Span, Violation
from formatbook_core.collector import paused_gc
from formatbook_core.limits import limits_from
from formatbook_core.reply import ThinkTags
from formatbook_core.schema_files import BASE_DIR

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from . import values as _values
from .parser import parse
from .scan import NAME_RUN, NAME_START
from .schema import XmlSchema, load_schema
from .syntax import DOCTYPE, check_syntax, deeper_than, depth_limit, holds, problem_violation

_SAMPLES = (
    "<answer>Paris</answer>",
    '<?xml version="1.0" encoding="UTF-8"?>\n<response>\n  <reasoning>The user asks for the capital of France.'
    "</reasoning>\n  <answer>Paris</answer>\n</response>",
    '<order id="42" status="open">\n  <item sku="A-1" qty="2"><name>Tea &amp; biscuits</name><price>3.50</price></item>\n'
    '  <item sku="B-7" qty="1"><name>Mug</name><price>8.00</price></item>\n</order>',
    '<doc xmlns="urn:example:doc" xmlns:x="urn:example:x">\n  <!-- a comment -->\n  <?render mode="fast"?>\n'
    "  <x:note>if a &lt; b &amp;&amp; c &gt; d</x:note>\n  <code><![CDATA[if (a < b && c) { return; }]]></code>\n"
    "  <empty/>\n  <char>&#233;&#x263A; caf\u00e9</char>\n</doc>",
    "<!DOCTYPE note>\n<note lang='en'>AT&amp;T said &quot;hi&quot; &apos;there&apos;</note>\n<!-- end -->",
)


def _xml_name(value: Any) -> str | None:
    if ":" not in value and NAME_START.match(value[:1]) and NAME_RUN.fullmatch(value):
        return None
    return "must be an XML element name without a prefix"


class XmlFormat(AnalyzingFormat):
    """XML 1.0 (well-formed, one root element), parsed by lxml with entity expansion,
    DTD loading and network access off. Schemas: the simple form
    ``{"root": ..., "required": [...]}``, XSD, RelaxNG or DTD (text or path). Options:
    ``root`` (the element several roots are wrapped in; locate then takes several
    top-level elements as one payload), ``allow_fetch``, ``base_dir``, and the limits."""

    name = "xml"
    aliases = ()
    mime_types = ("application/xml", "text/xml")
    scope_kind = "XPath"
    description = (
        "XML 1.0 (lxml, safe parsing), with XSD, RelaxNG, DTD or a simple root/required form; scopes are XPath."
    )
    samples = _SAMPLES
    #: think tags may be elements: with ``root`` a ``<reasoning>`` element is payload, and a
    #: top-level element named like a think tag is read as a think block (locate keeps it)
    think_tags = ThinkTags.MARKUP
    option_specs = (
        Option(
            "root",
            str,
            None,
            "the element several top-level elements are wrapped in by healing; also makes locate take them as one payload",
            check=_xml_name,
        ),
        Option(
            "allow_fetch",
            bool,
            False,
            "a schema given as a URL, and its imports and includes, may be fetched (http/https)",
        ),
        BASE_DIR,
    )

    # --- schemas --------------------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> XmlSchema:
        """An :class:`~formatbook_xml.schema.XmlSchema` (see :mod:`formatbook_xml.schema`)."""
        return load_schema(
            schema,
            allow_fetch=bool(options.get("allow_fetch", False)),
            base_dir=options.get("base_dir"),
            max_size=limits_from(options).max_size,
        )

    def _schema(self, schema: Any, options: dict[str, Any]) -> XmlSchema | None:
        if schema is None or isinstance(schema, XmlSchema):
            return schema
        return self.load_schema(schema, **options)

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """Well-formedness (the strict scanner, then lxml), then the schema. The value
        is the root element (an lxml element)."""
        try:
            root, violations = check_syntax(value, limits_from(options))
        except Exception as err:  # a last guard: a violation, never a crash
            return Analysis(None, (Violation("xml.syntax", f"cannot read the text as XML: {err}"),))
        if root is None:
            return Analysis(None, tuple(violations))
        xs = self._schema(schema, options)
        # the tree is the document: values and scopes are read from it, not from the text
        if xs is None:
            return Analysis(root, document=root)
        return Analysis(root, tuple(xs.violations(root, value)), document=root)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is well-formed XML (the schema is not
        consulted). Linear in ``partial``."""
        limits = limits_from(options)
        return _stream.can_be_valid(partial, depth_limit(limits), limits.max_size)

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> _stream.XmlChecker:
        """The incremental checker (see :mod:`formatbook_xml.stream`)."""
        xs = self._schema(schema, options)
        limits = limits_from(options)

        if strict:

            def accept(text: str) -> str | None:
                # the checker's scanner has read this very text: lxml and the schema are left
                if len(text) > limits.max_size:
                    return f"the text is longer than {limits.max_size:,} characters (max_size)"
                root, problems = parse(text)
                if root is None:
                    return problem_violation(text, problems[0]).message
                if xs is not None:
                    violations = xs.violations(root, text)
                    if violations:
                        return violations[0].message
                return None

        else:

            def accept(text: str) -> str | None:
                if self.is_valid(text, xs, **options):
                    return None
                try:
                    self.heal(text, xs, **options)
                except Exception as err:  # HealError: the reason
                    return str(err)
                return None

        return _stream.XmlChecker(accept, strict=strict, max_depth=depth_limit(limits))

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_xml.locate`)."""
        max_depth = depth_limit(limits_from(options))
        return _locate.locate(reply, root=options.get("root"), max_depth=max_depth)

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        """``locate``'s candidates; a reply that is one document lxml read to locate it
        carries that reading as its analysis (without a schema), not read again."""
        limits = limits_from(options)
        made: list[_heal.Escaped] = []

        def mend(doc: str, read: tuple[Any, list[Any]]) -> Any:
            # a text lxml refuses, which healing reads next: healed now if escaping its text
            # is all it takes, that tree answering whether it is one document (instead of
            # a parse of it masked), the heal handed on with the analysis
            if holds(doc, "<!D"):
                return None  # (the scanner may refuse a DOCTYPE: healing says so)
            _, violations = check_syntax(doc, limits, read=read, explain=False)
            brief = _heal.Escaped(None, tuple(violations), brief=True)
            with paused_gc():  # as the pipeline heals: an object or more per repair, none in cycles
                healed = _heal.heal_escaping(doc, options, brief)
            if healed is None or healed.analysis is None or not _locate.mended_like_masked(doc, healed.repairs):
                return None
            made.append(_heal.Escaped(None, brief.violations, brief=True, healed=healed, text=doc, options=options))
            return healed.analysis.document

        spans, read = _locate.locate_read(
            reply, root=options.get("root"), max_depth=depth_limit(limits), mend=mend if schema is None else None
        )
        if read is None or schema is not None:
            return list(spans)
        span = spans[0]
        payload = reply[span.start : span.end]
        root = read[0]
        if root is None:  # lxml refused it: analyze's verdict, lxml's reading given
            if made and made[0].text == payload:
                return [Located(span, made[0])]
            # brief: healing needs the verdict only (and whether the scanner refuses a
            # DOCTYPE, which explain=False keeps); the scanner's account is asked for when
            # reported (a 1 KB reply: ~50 us, twice lxml's parse, mostly dropped once healed)
            _, violations = check_syntax(payload, limits, read=read, explain=False)
            return [Located(span, Analysis(None, tuple(violations), brief=True))]
        # what check_syntax answers for this text: lxml reads a text without a DOCTYPE
        # first, and its tree stands when within the limits
        if len(payload) > limits.max_size or holds(payload, DOCTYPE) or deeper_than(root, depth_limit(limits)):
            return list(spans)
        return [Located(span, Analysis(root, document=root))]

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair what :data:`formatbook_xml.heal.PLAN` lists; valid input comes back
        unchanged; ``HealError`` when a repair would be a guess."""
        return _heal.heal(value, self._schema(schema, options), options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal`` of ``text``, whose ``analyze`` with ``schema`` gave ``analysis``: the
        verdict is taken from it, not read again."""
        return _heal.heal(text, self._schema(schema, options), options, analysis=analysis)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Text nodes and attribute values (CDATA included), not names; ``[]`` when the
        text is not well-formed."""
        return self.values_of(self._read(value, options), value)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under the XPath ``scope``. Raises ``ScopeNotFound``."""
        return self.scope_of(self._read(value, options), value, scope)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values`` of the tree ``analyze`` built."""
        return _values.extract_values(analysis.document)

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope`` on the tree ``analyze`` built."""
        if analysis.document is None:
            reason = analysis.violations[0].message if analysis.violations else "it was not read"
            raise ScopeNotFound(f"cannot find {scope!r}: the text is not well-formed XML ({reason})")
        return _values.extract_scope(analysis.document, scope)

    def _read(self, text: str, options: dict[str, Any]) -> Analysis:
        """Well-formedness only (no schema): the tree, as ``analyze`` keeps it."""
        root, violations = check_syntax(text, limits_from(options))
        return Analysis(root, tuple(violations), document=root)

    def validate_scope(self, scope: str) -> str | None:
        """A scope is an XPath expression (``//answer``)."""
        try:
            _values.compile_scope(scope)
        except ScopeNotFound as err:
            return f'{err}; an XML scope is an XPath expression such as "//{scope}"'
        return None

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return _guidance.guidance(self._schema(schema, options), options.get("root"))
