"""The contract test-suite (formatbook_core.testing) run over every registered format.

One ``Test<Name>Contract`` class per format of the default registry, built at collection
time, so a plugin is covered as soon as its entry point registers it.
"""

from __future__ import annotations

from formatbook_core import list_formats
from formatbook_core.testing import make_contract

#: Formats whose ``locate`` returns the whole reply by design (DESIGN.md: the text format
#: takes nothing out; the markdown contract sees every fence and ``<think>`` block).
WHOLE_REPLY_FORMATS = {"text", "markdown"}

_ENTRIES = list_formats()


def _contract_for(entry):
    whole = True if entry.format.name in WHOLE_REPLY_FORMATS else None
    return make_contract(entry.format, whole_reply_locate=whole)


for _cls in map(_contract_for, _ENTRIES):
    globals()[_cls.__name__] = _cls


def test_every_registered_format_has_a_contract_class():
    names = {e.format.name for e in _ENTRIES}
    assert "text" in names
    for entry in _ENTRIES:
        cls = globals().get(make_contract(entry.format).__name__)
        assert cls is not None and cls.format is entry.format


def test_every_registered_format_has_a_non_empty_sample():
    # The contract's sample checks are only as good as the samples: each format needs at
    # least one that carries something.
    for entry in _ENTRIES:
        assert any(s.strip() for s in entry.format.samples), f"format {entry.format.name!r} has no non-empty sample"
