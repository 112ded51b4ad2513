"""The text format under the contract suite, with text's own hostile inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS


class TestTextContract(FormatContract):
    format = get_format("text")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "hello"
    no_payload_code = None  # an empty text is valid: a reply that only thought is its empty text
    verdict_replies = ("Hello world.", "<think>x</think>Hi", "")
    attack_inputs = {
        **FOREIGN_ATTACKS,
        # grapheme segmentation and word counting on pathological Unicode
        "zalgo": "Z" + "\u0301\u0316\u0323" * 50_000,
        "flags": "\U0001f1fa\U0001f1f8" * 50_000,
        "bidi-overrides": "\u202e" * 10_000 + "abc\u202c",
        "ansi-escapes": "\x1b[31m" * 20_000,
        "huge-abbreviations": "e.g. Dr. Mr. i.e. " * 50_000,
    }
    damaged_inputs = {"crlf-and-nul": "a\r\n\x00b\rc"}
