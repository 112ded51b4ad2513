"""The ``LANGUAGE`` expectation kind: ``EXPECT LANGUAGE de`` — the reply is written in
German (ISO 639-1 codes), detected by lingua (lingua-language-detector).

Registered through the ``register_expectation_kinds`` hook exactly as a third-party kind
is. lingua is imported and its detectors built only when a reply is judged; see
:mod:`.detect` for how the detector is kept small, and README.md for its accuracy.
"""

from __future__ import annotations

from formatbook_core import hookimpl

from .detect import Detection, detect, supported
from .kind import LanguageInstruction, LanguageKind

__all__ = ["Detection", "LanguageInstruction", "LanguageKind", "detect", "supported", "register_expectation_kinds"]


@hookimpl
def register_expectation_kinds(register):
    """Register the ``LANGUAGE`` kind."""
    register(LanguageKind())
