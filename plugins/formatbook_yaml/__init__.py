"""The ``yaml`` format (alias ``yml``): YAML 1.2 read safely through ruamel.yaml's parser,
with healing, JSON Schema (dicts, files, pydantic models) through
``formatbook_core.data_schema``, JSON pointer counting scopes and a sound, linear
incremental checker.

Nothing in a reply is ever constructed: the composed nodes are turned into JSON-type
values here (see :mod:`.loading`). What the format accepts, its options and every
violation code and repair kind are listed in this package's README.md.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import YamlFormat

__all__ = ["YamlFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``yaml`` format (alias ``yml``)."""
    register(YamlFormat())
