"""The vCard format under the contract suite, with its own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS

_CARD = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nN:A;;;;\r\n"


def _photo(size: int) -> str:
    return _CARD + "PHOTO;ENCODING=b;TYPE=JPEG:" + "QUJD" * (size // 4) + "\r\nEND:VCARD\r\n"


class TestVCardContract(FormatContract):
    format = get_format("vcard")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = "BEGIN:VCARD\nVERSION:4.0\nFN:a\nEND:VCARD"
    no_payload_code = "vcard.empty"
    verdict_replies = (
        "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada Lovelace\r\nBDAY:18151210\r\nEND:VCARD\r\n",
        "Here:\n```vcf\nBEGIN:VCARD\nFN:Ada, Countess\nEMAIL:ada@example.org\n```",  # healed, cut off
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nN:A;;;;\r\nEND:VCARD\r\n" * 2,  # a list of components
        "Sorry, no card.",
    )
    # 300 KB, not the contract's 2 MB: no limit of vCard's lies between (max_size is 16
    # MiB), and growth with size is measured by pathological.py (repeated-samples,
    # photo-base64, long-note-unescaped)
    huge_size = 300_000
    attack_inputs = {
        **FOREIGN_ATTACKS,
        # vobject's line regex backtracks exponentially on these (seconds for 25 commas)
        "vobject-backtracking-commas": _CARD + "X-A;B=" + "," * 5_000 + "!\r\nEND:VCARD\r\n",
        "vobject-backtracking-values": _CARD + "X-A;P=" + "a," * 5_000 + ";\r\nEND:VCARD\r\n",
        "huge-base64-photo": _photo,
        "bad-base64-photo": _CARD + "PHOTO;ENCODING=b:QUJ\r\nEND:VCARD\r\n",
        # 2,000 cards (108 KB), not 20,000: a list of components all the same, past the 50
        # violations a reading stops at; growth with the count is measured by
        # pathological.py (many-cards-lf); vobject reads a card in about 0.2 ms, 5 reads here
        "many-cards": (_CARD + "END:VCARD\r\n") * 2_000,
        "many-params": _CARD + "X-A" + ";P=a" * 50_000 + ":v\r\nEND:VCARD\r\n",
        "nested-begins": "BEGIN:VCARD\r\n" * 50_000,
        "many-folds": _CARD + "NOTE:a" + "\r\n b" * 100_000 + "\r\nEND:VCARD\r\n",
        "unclosed-quote": _CARD + 'X-A;P="' + "a" * 100_000,
        "lone-cr": _CARD.replace("\r\n", "\r") + "END:VCARD",
        "quoted-printable-2.1": "BEGIN:VCARD\nVERSION:2.1\nN;ENCODING=QUOTED-PRINTABLE:;=E9\nFN:=\n=E9\nEND:VCARD\n",
        "surrogates": _CARD.replace("FN:A", "FN:\ud800") + "END:VCARD\r\n",
        "vcalendar": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VCARD\r\nEND:VCALENDAR\r\n",
        "huge-unescaped-note": _CARD + "NOTE:" + "a, b; " * 100_000 + "\r\nEND:VCARD\r\n",
    }
    damaged_inputs = {
        "lf-only": "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nN:Lovelace;Ada;;;\nEND:VCARD\n",
        "no-version-no-n": "BEGIN:VCARD\r\nFN:Ada Lovelace\r\nEMAIL:ada@example.org\r\nEND:VCARD",
        "truncated": "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nEMAIL:ada@exa",
        "unescaped": "BEGIN:VCARD\nVERSION:3.0\nFN:Smith, John\nN:Smith;John;;;\nNOTE:a, b; c\nEND:VCARD",
        "broken-note": "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nNOTE:first line\nsecond line\nEND:VCARD",
        "type-shorthand": "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nN:;Ada;;;\nTEL;CELL;VOICE:+1 555 123 4567\nEND:VCARD",
        "iso-date-4": "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nBDAY:1815-12-10\nEND:VCARD",
        "long-line": "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nNOTE:" + "word " * 60 + "\nEND:VCARD",
        "indented": "  BEGIN:VCARD\n  VERSION:4.0\n  FN:Ada\n  END:VCARD",
        "fenced": "```vcard\nBEGIN:VCARD\nVERSION:4.0\nFN:Ada\nEND:VCARD\n```",
        "two-cards-no-end": "BEGIN:VCARD\nVERSION:4.0\nFN:A\nBEGIN:VCARD\nVERSION:4.0\nFN:B\nEND:VCARD",
    }
