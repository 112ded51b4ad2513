"""``DataFormat``: the base of every format whose value is data (JSON, YAML, CSV, a
plugin's own): it declares the schema options and loads schemas under the core's
security rules, so that no format repeats them."""

from __future__ import annotations

from typing import Any

from ..definition import AnalyzingFormat
from ..options import Option
from ..schema_files import BASE_DIR
from .loading import JsonSchema, load_schema

#: The options every data format takes for its schemas.
SCHEMA_OPTIONS = (
    Option("allow_fetch", bool, False, "a schema given as a URL (http or https) may be fetched"),
    BASE_DIR,
)


class DataFormat(AnalyzingFormat):
    """A format whose value is data, checked with JSON Schema or a pydantic model.

    A schema is a dict, a path, JSON text, a URL (fetched only with ``allow_fetch=True``)
    or a pydantic model class, loaded once by :func:`~formatbook_core.data_schema.load_schema`
    (every reference refused unless fetching is allowed; a file read under the size cap
    of :mod:`formatbook_core.schema_files`). A subclass lists its own options before
    :data:`SCHEMA_OPTIONS` and, when its schemas take another form (CSV's columns),
    overrides :meth:`load_schema` and :attr:`schema_type`."""

    option_specs: tuple[Option, ...] = SCHEMA_OPTIONS
    #: What :meth:`load_schema` returns: a schema of this type is used as it is.
    schema_type: type = JsonSchema

    def load_schema(self, schema: Any, **options: Any) -> Any:
        """A :class:`~formatbook_core.data_schema.JsonSchema` (compiled lazily, cached)."""
        return load_schema(schema, allow_fetch=options.get("allow_fetch", False), base_dir=options.get("base_dir"))

    def _schema(self, schema: Any, options: dict[str, Any]) -> Any:
        """``schema`` loaded (``None`` stays ``None``; a loaded one is used as it is)."""
        if schema is None or isinstance(schema, self.schema_type):
            return schema
        return self.load_schema(schema, **options)
