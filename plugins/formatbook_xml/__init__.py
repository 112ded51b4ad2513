"""The ``xml`` format: XML 1.0 read by lxml with entity expansion, DTD loading and network
access off; well-formedness, XSD / RelaxNG / DTD / simple schemas, healing of the ways
models break XML, XPath counting scopes and a sound incremental checker.

What the format accepts, its options and every violation code and repair kind are listed
in this package's README.md.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import XmlFormat

__all__ = ["XmlFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``xml`` format."""
    register(XmlFormat())
