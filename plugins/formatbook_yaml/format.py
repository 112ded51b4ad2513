"""``YamlFormat``: the ``yaml`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

import json
from typing import Any

from formatbook_core import Analysis, Healed, Option, ScopeNotFound, Span, StreamStatus, Violation
from formatbook_core.data_schema import SCHEMA_OPTIONS, DataFormat, build_model
from formatbook_core.limits import limits_from
from formatbook_core.pointers import scope_problem

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from . import values as _values
from .syntax import new_scanner, read, scanner_options

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
        then the value)."""
        if not isinstance(value, str):
            return Analysis(None, (Violation("yaml.syntax", "cannot read the reply as YAML: it is not text"),))
        max_size, max_depth = limits_from(options)
        if len(value) > max_size:
            return Analysis(None, (Violation("yaml.too_large", f"the YAML is longer than {max_size} characters"),))
        reading = read(value, options, max_depth)
        if reading.violation is not None:
            return Analysis(None, (reading.violation,))
        if schema is None:
            return Analysis(reading.value)
        js = self._schema(schema, options)
        assert js is not None
        violations = js.violations(reading.value)
        if violations or js.model is None:
            return Analysis(reading.value, violations)
        return _build_model(js.model, reading.value)

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
                    healed = self.heal(text, None, **options).text
                    text = healed
                return StreamStatus(True, complete=True, values=tuple(self.extract_values(text, None, **options)))
            except Exception as err:  # a failure, never a crash
                return StreamStatus(False, f"not valid YAML: {err}", len(text))

        return _stream.YamlChecker(new_scanner(options, max_depth), finish, strict=strict)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_yaml.locate`)."""
        return _locate.locate(reply, lambda text: self.is_valid(text, None, **options))

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair the text (tabs, colons in plain scalars, indentation, stray markers, a
        cut-off end), then make the schema-aware repairs, following
        :data:`formatbook_yaml.heal.PLAN`. Valid input comes back unchanged. Raises
        ``HealError``."""
        return _heal.heal(self, value, self._schema(schema, options), options)

    # --- values ---------------------------------------------------------------------
    def _documents(self, value: str, options: dict[str, Any]) -> list[Any]:
        max_size, max_depth = limits_from(options)
        reading = read(value, {**options, "root": "any"}, max_depth) if len(value) <= max_size else None
        if reading is None or reading.violation is not None:
            return []
        return [d.node for d in reading.documents]

    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Scalar values as written, in document order (keys, anchors, tags and nulls
        left out)."""
        try:
            out: list[str] = []
            for node in self._documents(value, options):
                out.extend(_values.node_values(node))
            return out
        except Exception:
            return []

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values under the JSON pointer ``scope``. Raises ``ScopeNotFound``."""
        roots = self._documents(value, options)
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


def _build_model(model: Any, value: Any) -> Analysis:
    """The model instance (see :func:`formatbook_core.data_schema.build_model`)."""
    instance, violations = build_model(model, json.dumps(value))
    return Analysis(value, violations) if violations else Analysis(instance)
