"""How often a check() reads the XML payload: lxml parses it once, counted (issue 24)."""

from __future__ import annotations

import pytest

import formatbook_xml.locate as locate
import formatbook_xml.syntax as syntax
from formatbook_core import check, get_format


@pytest.fixture
def reads(monkeypatch):
    """The lxml parses, counted where the strict reading and locate call them."""
    calls = []
    parse = syntax.parse
    for module in (syntax, locate):
        monkeypatch.setattr(module, "parse", lambda text: calls.append(text) or parse(text))
    return calls


EXPECT = 'EXPECT XML\nEXPECT MAX 50 WORDS\nEXPECT MAX 5 WORDS IN "//name"'


def test_a_clean_reply_is_read_once_values_and_scopes_included(reads):
    result = check("<person><name>Ada</name><age>36</age></person>", EXPECT)
    assert result.verdict == "pass" and result.counts == {"words": 2, 'words IN "//name"': 1}
    assert len(reads) == 1


def test_a_clean_payload_in_prose_is_read_once(reads):
    result = check("Here it is:\n\n<person><name>Ada</name></person>\n\nDone.", EXPECT)
    assert result.verdict == "healed" and result.counts["words"] == 1
    assert len(reads) == 1


def test_a_cut_off_reply_is_read_once_as_it_came_and_once_healed(reads):
    payload = "<person><name>Ada</name><age>36</age>"
    result = check(payload, EXPECT)
    assert result.verdict == "healed" and result.counts["words"] == 2
    # locate asks lxml whether the reply is one document (it is not: the walk locates
    # it); lxml reads a reply holding no DOCTYPE first (and refuses this one; the scanner
    # then says where it breaks); healing starts from that analysis instead of reading the
    # payload again, its confirmation reads the healed text, and the pipeline takes that
    # tree for the analysis and the values
    assert reads == [payload, payload, result.text]


def test_heal_alone_reads_a_broken_text_once_before_its_repair(reads):
    healed = get_format("xml").heal("<person><name>Ada</name><age>36</age>")
    assert healed.text == "<person><name>Ada</name><age>36</age></person>"
    assert reads == ["<person><name>Ada</name><age>36</age>", healed.text]
