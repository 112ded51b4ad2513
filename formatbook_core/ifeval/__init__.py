"""IFEval's verifiable instructions, checked by formatbook, and IFEval's score.

A row in IFEval's format (``{key, prompt, instruction_id_list, kwargs, response}``) is
read with :func:`read_row`; each of its instructions becomes EXPECT lines
(:func:`expect_lines`, formatbook's definitions) or an instruction object applying
IFEval's own definitions (:class:`IfevalInstruction`); :func:`to_expectations` gives one
``Expectations`` for the whole row. :func:`score` judges rows as IFEval's
``evaluation_lib`` does: per reply each instruction followed or not, **strict** (the reply
as it is) and **loose** (also the reply without its first line, without its last line,
without both, and each of those with every ``*`` removed: eight texts, any one enough), and
IFEval's instruction-level and prompt-level accuracy of both. A blank reply follows nothing.

``definitions="ifeval"`` reproduces IFEval's reference checker; ``"formatbook"`` (the
default) judges each instruction by its EXPECT lines. They differ, on purpose:

* words — IFEval: runs of ``\\w`` (``don't`` is 2 words, ``3.14`` 2); formatbook: UAX #29
  (``don't`` 1, ``3.14`` 1, each CJK ideograph 1).
* sentences — IFEval: NLTK Punkt's English model; here rebuilt without NLTK from the
  model's abbreviation and sentence-starter lists, its statistics of capitalisation
  approximated (:func:`count_sentences`; equal counts on 99.5% of 992 test texts, see
  ``benchmarks/ifeval_agreement.py``); formatbook: its sentence unit (a data file of
  abbreviations, decimals and URLs never split, ``。！？`` end sentences).
* keywords (CONTAINS, ``MIN 3 "data"``) — IFEval: a case-insensitive substring (``data``
  inside ``database`` counts) read as a regular expression; formatbook: case-insensitive,
  whole word when the literal starts and ends with a letter or digit. Forbidden words:
  whole words in both.
* letters — both count one character case-insensitively (formatbook: the one-character
  literal ``MIN 3 "z"``, which no whole-word rule applies to).
* capital words — IFEval: tokens of NLTK's ``word_tokenize`` for which ``isupper()``
  (``DON'T`` is 2, ``I`` is 1; cut here as it cuts them, without NLTK: equal on 99.9%);
  formatbook: its CAPITAL WORDS unit.
* language — IFEval: langdetect, and an undetectable text counts as followed; formatbook:
  lingua (``EXPECT LANGUAGE``), and an undetectable text fails (``language.unknown``).
  With ``definitions="ifeval"`` lingua still decides (langdetect is not a dependency; the two
  agree on "is it English?" for 99.0% of the test texts), an undetectable text is followed,
  and Nepali (which lingua lacks) is judged by its script.
* bullets, highlights, placeholders, sections, postscript, title, two responses, ``***``
  paragraphs — IFEval's regular expressions (a line starting ``-`` is a bullet, even
  ``---``; ``**bold**`` is two highlights; ``[`` … ``]`` on one line a placeholder);
  formatbook: the instruction plugin's units (see its README).
* JSON — IFEval: ``json.loads`` after stripping one fence; formatbook: ``EXPECT JSON``
  (located in prose, healed when the repair is obvious).
* starts / ends with, repeat prompt, end phrase — IFEval lower-cases and strips (and
  strips ``"`` before the end phrase); formatbook: the STARTS WITH / ENDS WITH kinds,
  case-sensitive, with no quote stripped.
* one of ("My answer is yes." ...) — IFEval: an option anywhere in the reply; formatbook:
  ``ONE OF``, the reply (outer white space aside) is exactly one option.
* two responses — IFEval also requires the two to differ and fails an empty part between
  separators; formatbook: ``EXACTLY 2 RESPONSES SEPARATED BY "******"`` counts non-blank
  parts. Paragraphs separated by ``***``: likewise, an empty part inside fails IFEval only.
* a ``<think>`` block opening the reply — IFEval judges it as reply text; formatbook sets
  it aside (the text format) before the formatbook definitions judge.

Violation code of :class:`IfevalInstruction`: ``ifeval.not_followed``.
"""

from __future__ import annotations

from typing import Any

from ..results import ExpectationError
from .ids import GROUPS, INSTRUCTIONS
from .mapping import IfevalInstruction, expect_lines, language_verdict
from .reference import count_capital_words, count_sentences, count_words
from .rows import Row, read_row
from .score import (
    DEFINITIONS,
    InstructionResult,
    RowResult,
    Score,
    expectations_from_lines,
    loose_variants,
    score,
    score_row,
)

__all__ = [
    "DEFINITIONS",
    "GROUPS",
    "INSTRUCTIONS",
    "IfevalInstruction",
    "InstructionResult",
    "Row",
    "RowResult",
    "Score",
    "count_capital_words",
    "count_sentences",
    "count_words",
    "expect_lines",
    "language_verdict",
    "loose_variants",
    "read_row",
    "score",
    "score_row",
    "to_expectations",
]


def to_expectations(row: Row | dict[str, Any], definitions: str = "formatbook", *, registry: Any = None) -> Any:
    """One ``Expectations`` holding every instruction of ``row``.

    ``"formatbook"``: the EXPECT lines of :func:`expect_lines` (a JSON instruction makes
    it an ``EXPECT JSON`` check); ``"ifeval"``: one :class:`IfevalInstruction` per
    instruction, IFEval's own definitions.
    """
    from ..expectations import Expectations  # noqa: PLC0415

    if not isinstance(row, Row):
        row = read_row(row)
    if definitions == "ifeval":
        return Expectations(
            instructions=[
                IfevalInstruction(i, kw, registry) for i, kw in zip(row.instruction_ids, row.kwargs, strict=True)
            ],
            registry=registry,
        )
    if definitions != "formatbook":
        raise ExpectationError(f"definitions must be one of {', '.join(DEFINITIONS)}, not {definitions!r}")
    lines = [line for i, kw in zip(row.instruction_ids, row.kwargs, strict=True) for line in expect_lines(i, kw)]
    return expectations_from_lines(lines, registry)
