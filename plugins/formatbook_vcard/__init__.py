"""The ``vcard`` format (alias ``vcf``): vCard 3.0 and 4.0, checked line by line with the
RFC 6350 content-line layer (:mod:`.contentlines`), read into components by vobject,
healed to RFC form with every repair listed, streamed by a sound incremental checker.
Property names are its counting scopes. Every code and repair kind is in README.md.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import VCardFormat

__all__ = ["VCardFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``vcard`` format."""
    register(VCardFormat())
