"""The check's locating of a reply lxml refuses as it stands (``XmlFormat.candidates``):
where escaping its text heals it, that heal's tree answers whether the reply is one
document (:func:`formatbook_xml.locate.mended_like_masked`) instead of a parse of the
text with ``&`` and stray ``<`` masked, and the heal is handed on to healing. The tests
check the claim it rests on (mended well-formed => masked well-formed, the same depth), on
generated damage and on the shapes where the two readings part, and that ``check()``
answers the same with and without it."""

from __future__ import annotations

import random

import pytest

import formatbook_xml.heal as xml_heal
import formatbook_xml.locate as xml_locate
from formatbook_core import Analysis, check, get_format
from formatbook_core.limits import limits_from
from formatbook_xml.parser import parse
from formatbook_xml.syntax import check_syntax, deeper_than
from tests.plugins.xml.documents import DAMAGE, damaged, document

BARE = ["&", "AT&T", "a < b", "<", "< ", "&nbsp;", "&eacute;", "&#0;", "&#65", "]]>", "\x01", "<<", "&<", "x<-y"]

#: where the mended and the masked readings part (the masked one is refused)
PARTING = [
    "<r>a & b ]]> c</r>",  # ']]>' in text: healing escapes it, masking keeps it
    "<r>a & b \x01 c</r>",  # a character XML refuses: healing removes it
    '<r xmlns:p="u&amp;" xmlns:q="u_amp;" p:k="1" q:k="2">AT&T</r>',  # equal names once masked
    "<r>AT&T <&nbsp; x</r>",  # '<&' masked '<_', a start tag (the '&' is masked first)
]


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = document(rng, size=rng.choice([60, 300, 1_500]))
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(BARE) + text[at:]
        out.append(text)
        out.append(damaged(rng, document(rng, size=300), rng.randint(1, 3)))
    return out


def _masked_tree(doc: str):
    return parse(xml_locate._STRAY_LT.sub("_", doc.replace("&", "_")))[0]


def _mended(doc: str):
    """The escaping-only heal of ``doc`` as ``candidates`` makes it, when it stands for the
    masked reading, else ``None``."""
    limits = limits_from({})
    read = parse(doc)
    if read[0] is not None:
        return None
    _, violations = check_syntax(doc, limits, read=read, explain=False)
    healed = xml_heal.heal_escaping(doc, {}, Analysis(None, tuple(violations), brief=True))
    if healed is None or not xml_locate.mended_like_masked(doc, healed.repairs):
        return None
    return healed


@pytest.mark.parametrize("seed", range(4))
def test_a_mended_tree_stands_for_the_masked_parse(seed: int) -> None:
    taken = 0
    for text in _texts(seed, 150):
        doc = text.strip()
        healed = _mended(doc)
        if healed is None:
            continue
        taken += 1
        masked = _masked_tree(doc)
        assert masked is not None, doc[:300]
        tree = healed.analysis.document
        for limit in (1, 2, 3, 5, 8):
            assert deeper_than(tree, limit) == deeper_than(masked, limit), (doc[:300], limit)
    assert taken >= 25  # the claim is tested, not skipped (39 to 60 of 300 texts)


@pytest.mark.parametrize("text", PARTING)
def test_where_the_readings_part_the_masked_parse_decides(text: str) -> None:
    limits = limits_from({})
    read = parse(text)
    _, violations = check_syntax(text, limits, read=read, explain=False)
    healed = xml_heal.heal_escaping(text, {}, Analysis(None, tuple(violations), brief=True))
    assert healed is not None  # escaping heals it...
    assert _masked_tree(text) is None  # ...but masked it is not one document
    assert not xml_locate.mended_like_masked(text, healed.repairs)  # so the parse of it decides


def test_the_heal_is_handed_on_and_is_the_heal() -> None:
    fmt = get_format("xml")
    text = "<r>AT&T and a < b &nbsp;</r>"
    (located,) = fmt.candidates(text)
    assert isinstance(located.analysis, xml_heal.Escaped) and located.analysis.healed is not None
    assert not located.analysis.ok and located.analysis.brief
    assert fmt.heal_analyzed(located.analysis, text) is located.analysis.healed
    assert located.analysis.healed == fmt.heal(text)
    # another text or other options: healed again, not taken
    other = "<r>AT&T and a < b &eacute;</r>"
    assert fmt.heal_analyzed(located.analysis, other) == fmt.heal(other)
    for options in ({"max_depth": 5}, {"root": "x"}, {"max_size": 40}):
        again = fmt.heal_analyzed(located.analysis, text, **options)
        assert again is not located.analysis.healed and again == fmt.heal(text, **options)


EXPECTS = ["EXPECT XML", "EXPECT XML max_depth=3", "EXPECT XML max_size=200", 'EXPECT XML root="r"']


@pytest.mark.parametrize("seed", range(3))
def test_check_is_the_same_without_it(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    texts = _texts(seed + 10, 40) + PARTING
    texts += [rng.choice(["", "Here:\n", "<think>t</think>\n"]) + t + rng.choice(["", "\nBye."]) for t in texts[:30]]
    texts += [document(rng, 200).replace("</r>", rng.choice(DAMAGE) + "</r>", 1) for _ in range(30)]
    new = [check(t, e).to_dict() for t in texts for e in EXPECTS]
    monkeypatch.setattr(xml_heal, "heal_escaping", lambda *a, **k: None)  # the masked parse, as before
    old = [check(t, e).to_dict() for t in texts for e in EXPECTS]
    for i, (a, b) in enumerate(zip(new, old, strict=True)):
        assert a == b, (texts[i // len(EXPECTS)][:200], EXPECTS[i % len(EXPECTS)])
