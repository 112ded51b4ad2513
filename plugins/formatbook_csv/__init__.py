"""The ``csv`` format: RFC 4180 CSV with a header of column names, healing of what models
write instead (Markdown tables, other delimiters, stray quotes and blanks, ragged and
cut-off rows), schemas that name the columns or type each row, column-name counting
scopes and a sound incremental checker. ``tsv`` is the same format with a tab delimiter.

Everything the format accepts, its options and every violation code and repair kind are
listed in this package's README.md.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .format import CsvFormat

__all__ = ["CsvFormat", "register_formats"]


@hookimpl
def register_formats(register):
    """Register the ``csv`` format, and ``tsv``: CSV with a tab delimiter."""
    fmt = CsvFormat()
    register(fmt)
    register(fmt, alias="tsv", options={"delimiter": "\t"})
