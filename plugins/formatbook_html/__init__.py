"""The ``html`` format: HTML judged by html5lib's implementation of the WHATWG parsing
algorithm, healed by writing out the tree that algorithm builds (every change listed),
with required CSS selectors as schema, CSS selector counting scopes and a sound
incremental checker. Its README.md lists its choices, options, codes and repair kinds.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import HtmlFormat

__all__ = ["HtmlFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``html`` format."""
    register(HtmlFormat())
