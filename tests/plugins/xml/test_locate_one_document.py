"""Locate's one-parse reading of a reply that is one XML document (``one_document``)
against the token walk it stands in for (``locate(walk_only=True)``): the same candidates,
hence the same payload, violations and set-aside prose, on the fixtures, the samples, every
reply the XML tests and the contract write, and generated replies with prose, think blocks,
fences, mentions and damage around and inside one document."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import formatbook_core.testing.contract as contract
import formatbook_xml.locate as xml_locate
from formatbook_core import check
from formatbook_xml.locate import locate, one_document
from formatbook_xml.markup import tokens
from tests.plugins.xml.documents import damaged, deep, document, files

from .pathological import CASES

HERE = Path(__file__).parent
#: (root, max_depth) as the format passes them: the default, a shallow limit, ``root=``
OPTIONS = [(None, 256), (None, 3), ("response", 256), (None, None)]

AROUND = [
    ("", ""),
    ("  \n", "\n\n"),
    ("Here is the XML:\n", "\nHope it helps."),
    ("Sure -> here it is:\n", ""),  # a '>' in the prose before
    ("", "\nDone -> bye"),  # a '>' after: the document is not first '<' to last '>'
    ("Use <b> tags. ", ""),
    ("", "\nand a < b"),
    ("<think>I should use <b> tags</think>\n", ""),
    ("<THINK>x</THINK>\n<reasoning>why</reasoning>\n", "\n"),
    ("<think>never closed\n", ""),
    ("```xml\n", "\n```"),
    ("```\n", "\n```\nafter"),
    ("Put it in `", "` please"),
    ("In an <r> tag: ", ""),
    ("<!-- before -->\n", "\n<!-- after -->"),
    ("<answer></answer> then ", ""),
    ('<?xml version="1.0"?>\n', ""),
    ("\ufeff", ""),
    ('<!DOCTYPE r [<!ENTITY e "]>x">]>\n', ""),  # the tokenizer ends the DOCTYPE at "]>"
]


def _literals() -> list[str]:
    """Every string literal holding a '<' in the XML tests and the contract module."""
    found = []
    for path in [*sorted(HERE.glob("*.py")), Path(contract.__file__)]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "<" in node.value:
                found.append(node.value)
    return found


def _generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        doc = document(rng, size=rng.choice([50, 400, 2_000]))
        if rng.random() < 0.2:
            doc = rng.choice(["<think>", "<reasoning>", "<response>", "<r>", "<Think>"]) + doc.split("<r>", 1)[1]
            doc = doc.rsplit("</r>", 1)[0] + "</" + doc[1 : doc.index(">")] + ">"
        before, after = rng.choice(AROUND)
        text = before + doc + after
        if rng.random() < 0.3:
            text = damaged(rng, text, rng.randint(1, 3))
        out.append(text)
    out += [deep(rng) for _ in range(20)]
    return out


CORPUS = (
    [text for _, text in files()]
    + _literals()
    + [case.make(n) for case in CASES for n in (1, 2, 40)]
    + [
        before + doc + after
        for doc in ("<r/>", "<r>x</r>", "<a><a>x</a></a>", "<a>x<a>y</a></a>")
        for before, after in AROUND
    ]
)


def _same(text: str) -> None:
    for root, max_depth in OPTIONS:
        new = locate(text, root=root, max_depth=max_depth)
        old = locate(text, root=root, max_depth=max_depth, walk_only=True)
        assert new == old, (text[:200], root, max_depth)


@pytest.mark.parametrize("chunk", range(4))
def test_same_candidates_on_the_corpus(chunk: int) -> None:
    for text in CORPUS[chunk::4]:
        _same(text)


@pytest.mark.parametrize("seed", range(6))
def test_same_candidates_on_generated_replies(seed: int) -> None:
    for text in _generated(seed, 150):
        _same(text)


def test_the_one_parse_is_taken_where_it_should() -> None:
    """The comparison above is not vacuous: the one-parse reading answers for documents
    with white space, a declaration or plain prose around them, and not otherwise."""
    rng = random.Random(7)
    doc = document(rng, size=2_000)
    start = doc.index("<")
    for before, after in [("", ""), ("  \n", "\n"), ("Here it is:\n", "\nBye."), ("<think>hm</think>\n", "")]:
        text = before + doc + after
        span = one_document(text, {"think"}, 256)
        assert span is not None
        assert text[span.start : span.end] == doc.strip()
        assert span.start == len(before) + start
    bare = "<r>AT&T said a < b &nbsp;<i k='x&y'>x</i> 3 <4 <</r>"  # the walk reads them as text
    assert one_document("Here:\n" + bare, {"think"}, 256) == (6, 6 + len(bare))
    for text in ["a < b " + doc, doc + "\n</r>", "<b>x</b>" + doc, "<!DOCTYPE r>" + doc, doc + "\n-> done"]:
        assert one_document(text, {"think"}, 256) is None
    assert one_document("<think>x</think>", {"think"}, 256) is None  # a think block, not a root
    assert one_document("<a><b><c/></b></a>", (), 2) is None  # deeper than max_depth: the walk decides


def test_a_mentioned_root_is_left_to_the_walk() -> None:
    text = "<a>x<a>y</a></a>"  # the first <a> reads as a mention, then as the element around
    assert next(tokens(text)).name == "a"
    assert one_document(text, (), 256) is None
    assert locate(text) == locate(text, walk_only=True) == [(0, len(text))]


def test_check_is_the_same_with_either_locate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``check()``: the same verdict, payload, value, violations and set-aside
    prose, the analysis locating made taken or not (a schema, a lower max_depth)."""
    rng = random.Random(3)
    texts = _generated(11, 40) + [before + document(rng, 300) + after for before, after in AROUND]
    texts += ["<a>" * 40 + "</a>" * 40, "<r>" + "x" * 200 + "</r>"]
    expects = [
        "EXPECT XML",
        "EXPECT XML max_depth=20",
        "EXPECT XML max_size=100",
        'EXPECT XML root="response"',
        'EXPECT XML root="response" max_depth=20',
    ]
    new = [check(t, e).to_dict() for t in texts for e in expects]
    walk = xml_locate.locate_read  # what XmlFormat.candidates calls: the analysis too
    monkeypatch.setattr(xml_locate, "locate_read", lambda *a, **k: walk(*a, **k, walk_only=True))
    old = [check(t, e).to_dict() for t in texts for e in expects]
    for i, (a, b) in enumerate(zip(new, old, strict=True)):
        assert a == b, (texts[i // len(expects)][:200], expects[i % len(expects)])


BARE = ["&", "AT&T", "a < b", "<", "< ", "&nbsp;", "<!", "</", "<3", "x<-y", "&#0;", "<<", "&<", "<?", "<!-"]


@pytest.mark.parametrize("seed", range(3))
def test_same_candidates_with_bare_ampersands_and_lts(seed: int) -> None:
    """The damage the one parse reads past (the walk reads it as text), put anywhere:
    in text, in tags, comments, CDATA, the prolog and the prose around."""
    rng = random.Random(seed)
    taken = 0
    for _ in range(150):
        before, after = rng.choice(AROUND)
        text = before + document(rng, size=rng.choice([50, 400])) + after
        for _ in range(rng.randint(1, 5)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(BARE) + text[at:]
        _same(text)
        taken += one_document(text, {"think"}, 256) is not None
    assert taken >= 10  # the comparison covers the one parse, not only the walk


@pytest.mark.parametrize(
    "prolog",
    [
        '<?xml version="1.0"?>',
        '<?xml version="1.0"?>\n<!-- c -->\n<?pi x?>\n',
        "<!-- a -->\u00a0\u2003<!-- b -->",  # blank as str.strip reads it
        "<?xml version='1.0'?> text ",  # prose after the declaration: no root
        "<!-- cut ",
        "<?xml cut ",
        "<!-- a --><!DOCTYPE r>",
        "<?xml?><![CDATA[x]]>",
        "<!-- a --></r>",
        "<?pi?>< r",
    ],
)
def test_same_candidates_after_any_prolog(prolog: str) -> None:
    """The prolog is skipped as the tokens read it: declarations, PIs, comments and blank
    text between them; anything else (text, a cut-off one, other markup) is no root."""
    for after in ("<r>x</r>", "<r/>\n", "<think>t</think>\n<r>x</r>"):
        _same(prolog + after)
        _same("\n<think>t</think>\n" + prolog + after)
