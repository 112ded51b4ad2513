"""The ``json`` format: RFC 8259 JSON, with healing, JSON Schema (dicts, files, pydantic
models), JSON pointer counting scopes and a sound incremental checker.

Healing keeps the reply's layout: only the broken bits are edited, and schema-aware
repairs edit the values in place too, so numbers keep the spelling the model wrote (see
:mod:`.heal` and its plan). What the format accepts, its options and every violation
code and repair kind are listed in this package's README.md.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import JsonFormat

__all__ = ["JsonFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``json`` format."""
    register(JsonFormat())
