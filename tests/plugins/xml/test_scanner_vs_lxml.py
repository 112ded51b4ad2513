"""The strict scanner against lxml on random XML-ish text (a derandomised differential):
it never refuses what lxml parses (but the DOCTYPEs it refuses on purpose), it refuses
what lxml refuses except namespace errors (which lxml alone sees, at finish), and its
verdict does not depend on how the text is cut into chunks.

``check_syntax`` lets lxml read a text first when it holds no DOCTYPE (issue 29): on real
files, generated documents, damaged ones and random texts, under several depth limits,
its verdicts and violations are those of the scanner-first order it replaced."""

from __future__ import annotations

import random

from lxml import etree

from formatbook_core.limits import Limits
from formatbook_xml.parser import parse
from formatbook_xml.scan import Scanner
from formatbook_xml.syntax import check_syntax, problem_violation
from tests.plugins.xml import documents

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


# --- check_syntax reads with lxml first: the answers of the scanner-first order ---------


LIMITS = [Limits(), Limits(max_depth=256), Limits(max_depth=255), Limits(max_depth=5), Limits(max_depth=1)]


def _same_answer(text: str, limits: Limits) -> None:
    root, violations = check_syntax(text, limits)
    old_root, old_violations = documents.scanner_first(text, limits)
    assert violations == old_violations, text[:300]
    assert (root is None) == (old_root is None), text[:300]
    if root is not None:
        assert etree.tostring(root) == etree.tostring(old_root)
    # healing's reading: the same verdict, and a DOCTYPE refused exactly when it was
    quick_root, quick = check_syntax(text, limits, explain=False)
    assert (quick_root is None) == (root is None)
    assert [v.code == "xml.doctype" for v in quick[:1]] == [v.code == "xml.doctype" for v in violations[:1]]
    if "<!D" in text:
        assert quick == violations
    elif quick != violations[:1]:  # not the scanner's answer (on a prefix): lxml's first
        assert quick == [problem_violation(text, parse(text)[1][0])]


def test_real_files_get_the_scanner_first_answers():
    names = []
    for name, text in documents.files():
        names.append(name)
        for limits in LIMITS:
            _same_answer(text, limits)
    assert any(name.endswith(".rng") for name in names) and any(name.endswith(".xsl") for name in names)


def test_generated_and_damaged_documents_get_the_scanner_first_answers():
    rng = random.Random(29)
    verdicts = set()
    for i in range(300):
        text = documents.document(rng, rng.choice([200, 2_000, 20_000]))
        for variant in (text, documents.damaged(rng, text), documents.damaged(rng, text, 3), documents.deep(rng)):
            limits = LIMITS[i % len(LIMITS)]
            _same_answer(variant, limits)
            verdicts.add(check_syntax(variant, limits)[0] is not None)
    assert verdicts == {True, False}


def test_random_texts_get_the_scanner_first_answers():
    rng = random.Random(30)
    pieces = PIECES + documents.DAMAGE
    for i in range(15_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        if rng.random() < 0.6:
            text = "<r>" + text + "</r>"
        _same_answer(text, LIMITS[i % len(LIMITS)])


def test_hostile_doctypes_never_reach_lxml(monkeypatch):
    """A text holding <!DOCTYPE is read by the scanner first, as before: one declaring
    entities or naming an external DTD is refused without lxml seeing it."""
    import formatbook_xml.syntax as syntax  # noqa: PLC0415

    seen = []
    monkeypatch.setattr(syntax, "parse", lambda text: seen.append(text) or parse(text))
    for text in (
        '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
        '<!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd"><r/>',
        '<!DOCTYPE r [<!ENTITY % p "&#83;YSTEM"> %p;]><r/>',
    ):
        root, violations = check_syntax(text, Limits())
        assert root is None and violations[0].code == "xml.doctype"
    assert seen == []
    assert check_syntax("<!DOCTYPE r>\n<r/>", Limits())[0] is not None and seen == ["<!DOCTYPE r>\n<r/>"]
