"""Healing copies clean stretches whole (issue 29): the structure walk takes the text,
comments, CDATA and clean tags between two changes of the stack in one match and copies
them in one slice. A clean document heals to itself; damage anywhere, in the middle of
long clean stretches too, heals exactly as the token-by-token walk healed it (the same
text, the same repairs and spans, the same refusals), which the walk still is with the
copying switched off."""

from __future__ import annotations

import random
import re

import pytest

import formatbook_xml.format as xml_format
from formatbook_core import HealError, check, get_format
from formatbook_core.limits import Limits
from formatbook_xml.heal import state, steps, structure
from formatbook_xml.parser import parse
from tests.plugins.xml import documents

XML = get_format("xml")


def _outcome(text: str, **options):
    """What healing gives: the text and the repairs, or the refusal."""
    try:
        healed = XML.heal(text, **options)
    except HealError as err:
        return "refused", str(err), [(v.code, v.message, v.span) for v in err.violations]
    return "healed", healed.text, [(r.kind, r.message, r.span) for r in healed.repairs]


@pytest.fixture
def token_walk(monkeypatch):
    """Heal as before: every token through the walk, every reading scanner first."""

    def outcome(text: str, **options):
        with monkeypatch.context() as m:
            m.setattr(structure, "_copy_clean", lambda h, pos, *rest: pos)
            m.setattr(structure, "_escape_only", lambda h: False)
            m.setattr(steps, "check_syntax", documents.scanner_first)
            return _outcome(text, **options)

    return outcome


def _heal_again(self, analysis, text, schema=None, **options):
    return self.heal(text, schema, **options)


def _walk(text: str) -> state.Healing:
    h = state.Healing(text, None, Limits(), "root")
    structure.repair_structure(h)
    return h


def test_a_clean_document_heals_to_itself_in_a_few_slices(monkeypatch):
    rng = random.Random(1)
    text = documents.document(rng, 200_000).strip()
    assert parse(text)[0] is not None
    slow = []
    tokens = structure.tokens
    monkeypatch.setattr(structure, "tokens", lambda text, pos=0: slow.append(pos) or tokens(text, pos))
    h = _walk(text)
    assert h.out == text and h.repairs == []
    # the walk looked at tokens one by one only outside the root, at the root's tags, and at
    # what the copying leaves to it: processing instructions, tags with a character
    # reference in an attribute value
    left = text.count("<?") + len(re.findall("<[^<>]*&#[^<>]*>", text))
    assert len(slow) <= 4 + left and left * 5 < text.count("<"), (len(slow), left, text.count("<"))
    assert XML.heal(text).text == text and XML.heal(text).repairs == ()


def test_damage_inside_long_clean_stretches_heals_as_before(token_walk):
    prose = "The quarterly report shows revenue grew by 12% compared with last year. " * 400
    clean = f'<r><item id="1"><body>{prose}</body><body>{prose}</body></item></r>'
    middle = clean.index("<body>") + len(prose) // 2  # inside the first body's prose
    for damage in ("AT&T", "a < b", "&nbsp;", "]]>", "\x01", "<br>", "</item>", "<b><i>x</b></i>", "&#0;"):
        text = clean[:middle] + damage + clean[middle:]
        got = _outcome(text)
        assert got == token_walk(text), damage
        at = {"AT&T": 2, "a < b": 2, "&nbsp;": 0}.get(damage)  # where its one repair starts
        if at is not None:
            assert got[0] == "healed" and [r[2].start for r in got[2]] == [middle + at], damage


def test_hand_checked_repairs_in_a_long_stretch():
    prose = "word " * 2_000
    text = f"<r><p>{prose}AT&T {prose}</p><p>{prose}if a < b{prose}</p></r>"
    healed = XML.heal(text)
    at = text.index("AT&T") + 2
    lt = text.index("a < b") + 2
    assert [(r.kind, r.span.start, r.span.end) for r in healed.repairs] == [
        ("escaped_ampersand", at, at + 1),
        ("escaped_lt", lt, lt + 1),
    ]
    assert healed.text == text.replace("AT&T", "AT&amp;T").replace("a < b", "a &lt; b")


def test_generated_damaged_documents_heal_as_before(token_walk):
    rng = random.Random(2029)
    kinds = set()
    for i in range(500):
        text = documents.document(rng, rng.choice([300, 3_000]))
        text = documents.damaged(rng, text, rng.choice([1, 2, 5]))
        options = {"max_depth": rng.choice([3, 1000])} if i % 4 == 0 else {}
        got = _outcome(text, **options)
        assert got == token_walk(text, **options), text[:400]
        kinds.add(got[0])
    assert kinds == {"healed", "refused"}


def test_fixture_replies_heal_as_before(token_walk):
    for name, text in documents.files():
        assert _outcome(text) == token_walk(text), name


def test_check_heals_as_before(token_walk, monkeypatch):
    """Through check(): healing starts from the analysis the pipeline made."""
    rng = random.Random(7)
    for _ in range(100):
        text = documents.damaged(rng, documents.document(rng, 1_000), 2)
        result = check(text, "EXPECT XML")
        with monkeypatch.context() as m:  # and heal read the payload again
            m.setattr(structure, "_copy_clean", lambda h, pos, *rest: pos)
            m.setattr(structure, "_escape_only", lambda h: False)
            m.setattr(steps, "check_syntax", documents.scanner_first)
            m.setattr(xml_format, "check_syntax", documents.scanner_first)
            m.setattr(xml_format.XmlFormat, "heal_analyzed", _heal_again)
            before = check(text, "EXPECT XML")
        assert result.to_dict() == before.to_dict()


#: damage that escaping alone may mend, in text or anywhere else (a tag, a comment, CDATA,
#: outside the root), and damage that takes the walk
ESCAPES = ["&", "AT&T", "a < b", "<", "&nbsp;", "&NewLine;", "&Tab;", "&quot;x", "]]>", "&#65", "&#0;", "< /x>", "\x01"]
ESCAPES += ["<?xml version='1.0'?>", "<?XmL x?>", "<?xml-stylesheet x?>"]  # (not a declaration: for the walk)


def test_escaping_only_heals_as_the_walk(token_walk):
    """The escaping-only path (one lxml read, no walk) gives the walk's text, repairs and
    refusals, wherever the damage falls: in text, in attribute values, comments, CDATA,
    before or after the root (where ``&NewLine;`` would mend to white space)."""
    rng = random.Random(29)
    taken = []
    real = structure._escape_only

    def spy(h):
        taken.append(real(h))
        return taken[-1]

    for i in range(250):
        text = documents.document(rng, rng.choice([200, 1_200]))
        for _ in range(rng.choice([1, 2, 4])):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(ESCAPES if rng.random() < 0.9 else documents.DAMAGE) + text[at:]
        if i % 3 == 0:
            text = " \n" + text + rng.choice(["", "\n", " <!-- end -->", " &Tab;"])
        with pytest.MonkeyPatch.context() as m:
            m.setattr(structure, "_escape_only", spy)
            got = _outcome(text)
        assert got == token_walk(text), text[:400]
    assert 30 < sum(taken) < len(taken)  # the path was taken, and left to the walk


def test_escaping_only_hand_checked():
    text = '<?xml version="1.0"?>\n<r a="1"><p>AT&T &amp; a < b&nbsp;</p><!-- x & y --></r>\n'
    healed = XML.heal(text)
    assert healed.text == '<?xml version="1.0"?>\n<r a="1"><p>AT&amp;T &amp; a &lt; b\xa0</p><!-- x & y --></r>'
    at, lt, nb = text.index("&T"), text.index("< b"), text.index("&nbsp;")
    assert [(r.kind, r.span.start, r.span.end) for r in healed.repairs] == [
        ("escaped_ampersand", at, at + 1),
        ("escaped_lt", lt, lt + 1),
        ("html_entity", nb, nb + 6),
    ]
    with pytest.raises(HealError):  # mends to white space after the root: text there, refused
        XML.heal("<r>AT&T</r>&NewLine;")
