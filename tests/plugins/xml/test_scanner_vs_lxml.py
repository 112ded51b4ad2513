"""The strict scanner against lxml on random XML-ish text (a derandomised differential):
it never refuses what lxml parses (but the DOCTYPEs it refuses on purpose), it refuses
what lxml refuses except namespace errors (which lxml alone sees, at finish), and its
verdict does not depend on how the text is cut into chunks."""

from __future__ import annotations

import random

from formatbook_xml.parser import parse
from formatbook_xml.scan import Scanner

PIECES = [
    "<a", "<b", "</a", "</b", ">", "/>", " ", "x", "=", "'", '"', "]]>", "&", "amp;", "#", "x41;", "65;",
    "<!--", "-->", "-", "<?", "?>", "xml", "pi", "<![CDATA[", "]]", "<!DOCTYPE", "\ufeff", "\n", "\r",
    "<a>", "</a>", "\u00b7", "1", ":", "<!", "[", "]", "lt;", "quot;", "nbsp;", "&#", "&#x", "D800;",
    "FFFE;", "10FFFF;", "\u00e9", "<c d='1' e=\"2\"/>", "<!-- c -->", "<?p d?>",
]  # fmt: skip


def _scan(text: str, sizes: random.Random | None = None) -> tuple[str, str, int] | None:
    scanner = Scanner(256)
    if sizes is None:
        scanner.feed(text)
    else:
        i = 0
        while i < len(text):
            j = i + sizes.randint(1, 5)
            scanner.feed(text[i:j])
            i = j
    return scanner.end_problem()


def test_scanner_and_lxml_agree():
    rng = random.Random(2026)
    disagreements = []
    for _ in range(30_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10)))
        if rng.random() < 0.6:
            text = "<r>" + text + "</r>"
        problem = _scan(text)
        scanned = problem is None
        root, problems = parse(text)
        assert (_scan(text, rng) is None) == scanned, text
        if scanned and root is None and all(p.type_name.startswith("NS_") for p in problems):
            continue  # a namespace error: lxml's alone
        if not scanned and problem[0] == "xml.doctype":
            continue  # refused on purpose (entity declarations, external DTDs)
        if scanned != (root is not None):
            disagreements.append((text, scanned))
    assert disagreements == []
