"""Which natural language a text is written in: lingua, built small and cached.

Why this shape: lingua with every language in high-accuracy mode holds about 1.1 GB of
models; in low-accuracy mode (trigrams only) about 80 MB, and it is as good as the full
models on texts of a few sentences but weak on a short line. So a text is ranked by a
low-accuracy detector over :data:`CANDIDATES`; when it is short (under
:data:`SHORT_TEXT` characters) the high-accuracy models decide between the expected
language and the few best-ranked ones only, which loads a handful of models, not all of
them. Detectors are built on first use and cached for the process.

Kannada and Malayalam, which lingua does not know, are told by their scripts (each has one
of its own). Nepali shares Devanagari with Hindi and Marathi and lingua has no model for
it, so it is refused when the expectation is built (:func:`unsupported_reason`).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from typing import Any

from formatbook_core.results import ExpectationError

#: ISO 639-1 codes lingua knows (its 75 languages).
LINGUA_CODES = frozenset(
    "af ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gu he hi hr hu hy id is it ja ka kk ko "
    "la lg lt lv mi mk mn mr ms nb nl nn pa pl pt ro ru sk sl sn so sq sr st sv sw ta te th tl tn tr ts uk ur "
    "vi xh yo zh zu".split()
)

#: Languages told by a script of their own: code -> (first, last) code point of the block.
SCRIPT_CODES: dict[str, tuple[int, int]] = {
    "kn": (0x0C80, 0x0CFF),  # Kannada
    "ml": (0x0D00, 0x0D7F),  # Malayalam
}

#: Languages every text is ranked against: IFEval's 30 (less the three lingua lacks) and
#: the widely written ones a reply in them is most often confused with.
CANDIDATES = frozenset(
    "en es pt ar hi fr ru de ja it bn uk th ur ta te bg ko pl he fa vi sw mr gu pa fi "
    "zh nl sv da nb tr id cs el ro hu ca hr sk sr".split()
)

#: Below this many characters the high-accuracy models decide.
SHORT_TEXT = 120
#: How many of the best-ranked languages the high-accuracy models choose between.
FINALISTS = 3

_LOCK = threading.Lock()


@dataclass(frozen=True)
class Detection:
    """What the detector found: ``code`` (ISO 639-1, or ``None`` when it could not tell)
    and the confidence it gave that language (0..1)."""

    code: str | None
    confidence: float


def supported(code: str) -> bool:
    """The LANGUAGE kind can judge this ISO 639-1 code."""
    return code in LINGUA_CODES or code in SCRIPT_CODES


def unsupported_reason(code: str) -> str | None:
    """Why ``code`` cannot be judged, or ``None`` when it can."""
    if supported(code):
        return None
    if code == "ne":
        return "Nepali cannot be told from Hindi and Marathi (one script, and lingua has no Nepali model)"
    return f"{code!r} is not an ISO 639-1 code lingua knows"


#: How to get what this plugin needs, named in the error when it is missing.
EXTRA = "pip install 'formatbook[language]'"


def require_detector(line: str = "") -> None:
    """Raise ``ExpectationError`` naming the ``language`` extra when lingua is not
    installed (it is an extra: its models are most of a full install's size)."""
    if find_spec("lingua") is None:
        raise ExpectationError(f"EXPECT LANGUAGE needs the language detector: {EXTRA}", line or None)


def _language(code: str) -> Any:
    from lingua import IsoCode639_1, Language

    return Language.from_iso_code_639_1(getattr(IsoCode639_1, code.upper()))


@lru_cache(maxsize=1)
def _ranker() -> Any:
    from lingua import LanguageDetectorBuilder

    languages = [_language(code) for code in sorted(CANDIDATES)]
    return LanguageDetectorBuilder.from_languages(*languages).with_low_accuracy_mode().build()


@lru_cache(maxsize=64)
def _judge(codes: frozenset[str]) -> Any:
    from lingua import LanguageDetectorBuilder

    languages = [_language(code) for code in sorted(codes)]
    return LanguageDetectorBuilder.from_languages(*languages).build()


def _letters(text: str) -> int:
    return sum(1 for ch in text if ch.isalpha())


def _script_share(text: str, block: tuple[int, int]) -> float:
    letters = 0
    inside = 0
    for ch in text:
        if ch.isalpha() or unicodedata.category(ch) in ("Mn", "Mc"):
            letters += 1
            if block[0] <= ord(ch) <= block[1]:
                inside += 1
    return inside / letters if letters else 0.0


def detect(text: str, expected: str | None = None) -> Detection:
    """The language ``text`` is written in.

    ``expected`` (a supported code) joins the finalists of a short text, so that the
    answer to "is this German?" weighs German's full models; it never forces the answer.
    A text without letters gives ``Detection(None, 0.0)``.
    """
    if not isinstance(text, str):
        return Detection(None, 0.0)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (JSON's "\ud800"): no letters, and lingua cannot take them
        text = "".join(c for c in text if not "\ud800" <= c <= "\udfff")
    if _letters(text) == 0:
        return Detection(None, 0.0)
    for code, block in SCRIPT_CODES.items():
        share = _script_share(text, block)
        if share > 0.5:
            return Detection(code, share)
    with _LOCK:  # lingua's detectors are shared; building one twice wastes memory
        ranked = _ranker().compute_language_confidence_values(text)
        if not ranked:
            return Detection(None, 0.0)
        if len(text) >= SHORT_TEXT:
            best = ranked[0]
            return Detection(best.language.iso_code_639_1.name.lower(), float(best.value))
        finalists = {value.language.iso_code_639_1.name.lower() for value in ranked[:FINALISTS]}
        if expected is not None and expected in LINGUA_CODES:
            finalists.add(expected)
        if len(finalists) == 1:
            return Detection(next(iter(finalists)), 1.0)
        values = _judge(frozenset(finalists)).compute_language_confidence_values(text)
    if not values:
        return Detection(None, 0.0)
    best = values[0]
    return Detection(best.language.iso_code_639_1.name.lower(), float(best.value))
