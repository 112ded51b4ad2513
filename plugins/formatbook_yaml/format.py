"""``YamlFormat``: the ``yaml`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from formatbook_core import Analysis, Healed, Located, Option, ScopeNotFound, Span, StreamStatus, Violation
from formatbook_core.data_schema import SCHEMA_OPTIONS, DataFormat, build_model
from formatbook_core.limits import limits_from
from formatbook_core.pointers import scope_problem

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from . import values as _values
from .syntax import Reading, new_scanner, read, scanner_options
from .written import as_written, shown_as_written

_SAMPLES = (
    "answer: Paris\nconfidence: 0.92\n",
    "# weekly report\ntitle: Weekly report\nitems:\n  - name: Fix login bug\n    done: true\n    hours: 3.5\n"
    "  - name: Write docs\n    done: false\n    hours: null\nsummary: >-\n  Two tasks,\n  one finished.\n",
    "- city: Zürich\n  population: 421878\n- city: 'São Paulo'\n  population: 12325232\n",
    'config: {retries: 3, backoff: [1, 2, 4]}\nnote: "a: colon inside quotes"\nscript: |\n  echo hi\n  exit 0\n',
    "---\nanchors:\n  base: &base {a: 1}\n  copy: *base\nempty:\n...\n",
    '{"json": "is YAML too", "list": [1, 2.5, true, null]}',
)

_OPTIONS = (
    Option(
        "root",
        str,
        "collection",
        "what a document's root may be: a mapping or list, or any node",
        choices=("collection", "any"),
    ),
    Option(
        "documents", str, "one", "one document, or a stream of them (the value is then a list)", choices=("one", "many")
    ),
    *SCHEMA_OPTIONS,
)


class YamlFormat(DataFormat):
    """YAML 1.2 (ruamel.yaml's parser, read as data only). Schemas: JSON Schema as a
    dict, a file path, a URL (only with ``allow_fetch=True``) or a pydantic model class,
    applied to the value as JSON types. Options: ``root`` (``"collection"``),
    ``documents`` (``"one"``), ``allow_fetch``, ``base_dir`` and the core's limits."""

    name = "yaml"
    aliases = ("yml",)
    mime_types = ("application/yaml", "application/x-yaml", "text/yaml")
    scope_kind = "JSON pointer"
    description = "YAML 1.2 read safely (ruamel.yaml), with JSON Schema or a pydantic model; scopes are JSON pointers."
    samples = _SAMPLES
    option_specs = _OPTIONS

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """One strict read, then the schema (and the pydantic model, whose instance is
        then the value). The reading, nodes included, is the analysis's document."""
        return self.judged(self.strict_read(value, options), schema, options)

    def strict_read(self, value: Any, options: dict[str, Any], reading: Reading | None = None) -> Analysis:
        """The strict read alone: the schema-less analysis (``reading``: the one healing
        made of ``value`` with these options, taken instead of reading it again)."""
        if not isinstance(value, str):
            return Analysis(None, (Violation("yaml.syntax", "cannot read the reply as YAML: it is not text"),))
        max_size, max_depth = limits_from(options)
        if len(value) > max_size:
            return Analysis(None, (Violation("yaml.too_large", f"the YAML is longer than {max_size} characters"),))
        reading = reading or read(value, options, max_depth)
        if reading.violation is not None:
            return Analysis(None, (reading.violation,), document=reading)
        return Analysis(reading.value, document=reading)

    def judged(self, read: Analysis, schema: Any, options: dict[str, Any]) -> Analysis:
        """``read`` (a schema-less analysis) judged by ``schema``: what ``analyze`` gives,
        without reading the text again."""
        if schema is None:
            return read
        js = self._schema(schema, options)
        assert js is not None
        if not read.ok:
            reading = read.document
            if not (isinstance(reading, Reading) and _names_label(js.schema, reading)):
                return read
            read = Analysis(reading.value, document=Reading(reading.documents, reading.value, None))
        value = read.value
        violations = js.violations(value)
        reading = read.document
        if violations and isinstance(reading, Reading):
            roots, many = [d.node for d in reading.documents], options.get("documents", "one") == "many"
            value, changed = as_written(roots, many, value, violations)
            if changed:  # plain numbers where the schema asks for text: the text as written
                reading = Reading(reading.documents, value, None)
                violations = js.violations(value)
            violations = shown_as_written(roots, many, value, violations)
        if violations or js.model is None:
            return Analysis(value, violations, document=reading)
        return replace(_build_model(js.model, value), document=reading)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` can be valid YAML (the schema is not
        consulted: a prefix rarely tells)."""
        try:
            max_depth = limits_from(options).max_depth
            return _stream.can_be_valid(partial, **scanner_options(options, max_depth))
        except Exception:  # sound: when unsure, stay truthy
            return True

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> _stream.YamlChecker:
        """The incremental checker (see :mod:`formatbook_yaml.stream`)."""
        max_depth = limits_from(options).max_depth
        js = self._schema(schema, options) if strict else None

        def finish(text: str) -> StreamStatus:
            try:
                if strict:
                    analysis = self.analyze(text, js, **options)
                    if not analysis.ok:
                        v = analysis.violations[0]
                        return StreamStatus(False, v.message, v.span.start if v.span else len(text))
                else:
                    healed = self.heal(text, None, **options)
                    text = healed.text
                    analysis = healed.analysis or Analysis()  # none: the values read the text
                return StreamStatus(True, complete=True, values=tuple(self.values_of(analysis, text, None, **options)))
            except Exception as err:  # a failure, never a crash
                return StreamStatus(False, f"not valid YAML: {err}", len(text))

        return _stream.YamlChecker(new_scanner(options, max_depth), finish, strict=strict, schema=js)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_yaml.locate`)."""
        return self._located(reply, options)[0]

    def candidates(self, reply: str, schema: Any = None, **options: Any) -> list[Span | Located]:
        """``locate``'s spans, each payload locating read carrying its analysis (judged
        by ``schema``), so that the pipeline does not read it again."""
        spans, readings = self._located(reply, options)
        out: list[Span | Located] = []
        for span in spans:
            read = readings.get(reply[span.start : span.end])
            out.append(span if read is None else Located(span, self.judged(read, schema, options)))
        return out

    def _located(self, reply: str, options: dict[str, Any]) -> tuple[list[Span], dict[str, Analysis]]:
        """The spans, and the schema-less analysis of each text locating read."""
        readings: dict[str, Analysis] = {}

        def is_valid(text: str) -> bool:
            read = readings.get(text)
            if read is None:
                try:
                    read = readings[text] = self.strict_read(text, options)
                except Exception:  # as is_valid: a failure, never a crash
                    return False
            return read.ok

        return _locate.locate(reply, is_valid), readings

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair the text (tabs, colons in plain scalars, indentation, stray markers, a
        cut-off end), then make the schema-aware repairs, following
        :data:`formatbook_yaml.heal.PLAN`. Valid input comes back unchanged. Raises
        ``HealError``."""
        return _heal.heal(value, self._schema(schema, options), options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, starting from the reading ``analysis`` (``text``'s) holds."""
        return _heal.heal(text, self._schema(schema, options), options, analysis=analysis)

    # --- values ---------------------------------------------------------------------
    def _roots(self, analysis: Analysis, text: str, options: dict[str, Any]) -> list[Any]:
        """The documents' root nodes: from the reading ``analysis`` holds, else (an
        analysis that kept none) from reading ``text`` with any root."""
        reading = analysis.document
        if not isinstance(reading, Reading) or reading.violation is not None:
            reading = self.strict_read(text, {**options, "root": "any"}).document
        if not isinstance(reading, Reading) or reading.violation is not None:
            return []
        return [d.node for d in reading.documents]

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Scalar values as written, in document order (keys, anchors, tags and nulls
        left out)."""
        return self.values_of(Analysis(), value, None, **options)

    def values_of(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_values``, from the nodes of the reading ``analysis`` holds."""
        reading = analysis.document
        if isinstance(reading, Reading) and reading.violation is None and reading.written is not None:
            return list(reading.written)  # the fast path read them with the value
        try:
            out: list[str] = []
            for node in self._roots(analysis, text, options):
                out.extend(_values.node_values(node))
            return out
        except Exception:
            return []

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under the JSON pointer ``scope``. Raises ``ScopeNotFound``."""
        return self.scope_of(Analysis(), value, scope, None, **options)

    def scope_of(self, analysis: Analysis, text: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """``extract_scope``, from the nodes of the reading ``analysis`` holds."""
        roots = self._roots(analysis, text, options)
        if not roots:
            raise ScopeNotFound(f"cannot find {scope!r}: the text is not valid YAML")
        try:
            nodes = _values.find(roots, scope, options.get("documents", "one") == "many")
        except ScopeNotFound:
            raise
        except Exception as err:
            raise ScopeNotFound(f"cannot find {scope!r}: {err}") from None
        out: list[str] = []
        for node in nodes:
            out.extend(_values.node_values(node))
        return out

    def validate_scope(self, scope: str) -> str | None:
        """A scope is a JSON pointer (``""``, ``"/summary"``, ``"#/items/0"``)."""
        return scope_problem(scope, "YAML")

    def guidance(self, schema: Any = None, **options: Any) -> str:
        js = self._schema(schema, options)
        return _guidance.guidance(js.schema if js is not None else None)


def _names_label(schema: Any, reading: Reading) -> bool:
    """``reading`` is refused only as a labelled sentence (``yaml.prose``) and ``schema``
    names its label as a property: ``Answer: yes, it is Paris.`` is data where the schema
    asks for an ``Answer``."""
    if reading.violation is None or reading.violation.code != "yaml.prose" or not isinstance(schema, dict):
        return False
    names = set(schema.get("properties") or ()) | set(schema.get("required") or ())
    value = reading.value
    docs = value if isinstance(value, list) else [value]
    return all(isinstance(d, dict) and set(d) <= names for d in docs)


def _build_model(model: Any, value: Any) -> Analysis:
    """The model instance (see :func:`formatbook_core.data_schema.build_model`)."""
    instance, violations = build_model(model, json.dumps(value))
    return Analysis(value, violations) if violations else Analysis(instance)
