"""Refusing a grown heal costs less than the heal (issue 30): a heal writing into the
core's ``Written`` stops at the piece that takes its text past ``max_size``. The work is
counted (characters written, calls), not timed."""

from __future__ import annotations

import pytest

import formatbook_csv.heal.writer as csv_writer
import formatbook_json.heal.structure as json_structure
import formatbook_xml.heal.structure as xml_structure
from formatbook_core import HealError, check, heal
from formatbook_core.healing import Written


def test_written_refuses_at_the_piece_that_passes_the_limit():
    out = Written(10)
    out.append("abcd")
    out.extend(["ef", "ghij"])  # 10: at the limit, within
    assert out.size == 10 and "".join(out) == "abcdefghij"
    with pytest.raises(HealError) as refused:
        out.append("k")
    (v,) = refused.value.violations
    assert v.code == "reply.too_large" and v.keyword == "max_size" and v.expected == 10
    assert "healing the payload made 11 characters when it was stopped, more than the limit of 10" in v.message


def test_written_counts_replaced_and_inserted_pieces():
    out = Written(6)
    out.append("<a>")
    out[0] = "<b/>"  # 4
    out.insert(0, "xy")  # 6
    assert out.size == 6 and out.text() == "xy<b/>"
    with pytest.raises(HealError):
        out[1] = "<bb/>"  # 7


def test_written_waits_for_what_stripping_or_a_later_change_takes_back():
    out = Written(5, strip=" \n")
    out.extend(["  ", " ab", "cde", "  ", "\n"])  # 11 written, "abcde" (5) once stripped
    assert out.size == 11 and out.text() == "abcde"
    with pytest.raises(HealError) as refused:
        out.append("f ")  # "abcde  \nf" is 9 once stripped
    assert "made 9 characters when it was stopped" in refused.value.violations[0].message
    allowing = Written(6)
    allowing.append("<br  >")  # may be closed in place as <br/>: 1 character back
    allowing.allow(len("<br  >") - len("<br/>"))
    allowing.append("x")  # 7 written, 6 at least: within
    with pytest.raises(HealError) as refused:
        allowing.append("y")  # 8 written, 7 at least
    assert "made 7 characters when it was stopped" in refused.value.violations[0].message


def _xml_heal_counting(monkeypatch, reply: str, max_size: int):
    """Heal ``reply`` as XML under ``max_size``; the calls to write a text token and the
    characters of the text written."""
    calls = []
    written: list[Written] = []
    write_text, init = xml_structure.write_text, Written.__init__

    def counting(*args, **kwargs):
        calls.append(args[1])
        return write_text(*args, **kwargs)

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        written.append(self)

    monkeypatch.setattr(xml_structure, "write_text", counting)
    monkeypatch.setattr(Written, "__init__", recording)
    result = check(reply, f"EXPECT XML max_size={max_size}")
    return result, len(calls), [w.size for w in written]


def test_an_xml_heal_grown_past_the_limit_stops_where_it_passes_it(monkeypatch):
    # each item is 11 characters and heals to 27 ('&' -> '&amp;'): 1,000 of them in <r>
    reply = "<r>" + "<i>&&&&</i>" * 1000 + "</r>"
    assert len(reply) == 3 + 11 * 1000 + 4 == 11007
    accepted, calls, sizes = _xml_heal_counting(monkeypatch, reply, 100_000)
    assert accepted.ok and calls == 1000 and sizes == [3 + 27 * 1000 + 4]
    refused, calls, sizes = _xml_heal_counting(monkeypatch, reply, len(reply))
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # 407 items and <r> make 10,992; the 408th's <i> 10,995; its '&amp;'s 11,000, 11,005, 11,010.
    # Three passes each stop there: the escaping-only heal made while locating (which answers
    # whether the reply is one document), the escaping-only path of heal (the locate's heal is
    # handed on only when it was not stopped), then the token walk, which reads the same
    # stretch again because a refusal it alone can make (a tag nested too deep, one that
    # closes nothing) would come first; none reads past the piece that passes the limit
    assert calls == 3 * 408 and sizes == [11010, 11010, 11010]
    assert "healing the payload made 11,010 characters when it was stopped" in refused.violations[0].message
    assert refused.repairs == [] and not refused.ok


def test_a_heal_at_the_limit_exactly_still_passes_and_white_space_around_is_not_counted():
    reply = "<r>" + "<i>a & b</i>" * 10 + "</r>"  # each item grows by 4
    healed = heal(reply, "EXPECT XML").text
    assert len(healed) == len(reply) + 40
    assert check(reply, f"EXPECT XML max_size={len(healed)}").ok
    assert not check(reply, f"EXPECT XML max_size={len(healed) - 1}").ok
    # white space after the root is written, then stripped: it does not count
    spaced = "\n  " + reply + "  \n\n  "
    assert heal(spaced, f"EXPECT XML max_size={len(healed)}").text == healed
    # a void element closed in place gives characters back: <br     > (9) is written, <br/> (5) kept
    void = "<r>" + "<i>a & b</i>" * 10 + "<br     ></r>"
    closed = heal(void, "EXPECT XML").text
    assert closed.endswith("<br/></r>") and len(closed) == len(void) + 40 - 4
    assert heal(void, f"EXPECT XML max_size={len(closed)}").text == closed


def test_a_csv_heal_is_refused_at_the_row_that_passes_the_limit(monkeypatch):
    written = _recording_written(monkeypatch)
    assert csv_writer.Written is Written
    reply = "name,note\n" + 'Ada,say "hi" now\n' * 100  # each row's cell is quoted: +4
    healed = heal(reply, "EXPECT CSV").text
    assert len(healed) == len(reply) + 4 * 100
    written.clear()
    refused = check(reply, f"EXPECT CSV max_size={len(reply)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # the header (10) and rows healed to 21 characters: 10 + 21 * 80 = 1,690, then 1,711 > 1,710
    assert len(reply) == 1710 and [w.size for w in written] == [10 + 21 * 81]


def test_written_counts_what_plus_equals_adds():
    """``out += pieces`` is counted like ``extend``: list's own ``+=`` would pass the count."""
    out = Written(5)
    out += ["ab", "cd"]
    assert isinstance(out, Written) and out.size == 4 and out.text() == "abcd"
    with pytest.raises(HealError):
        out += ["ef"]


def test_a_vcard_heal_is_refused_at_the_line_that_passes_the_limit(monkeypatch):
    written = _recording_written(monkeypatch)
    reply = "BEGIN:VCARD\r\nFN:Ada\r\n" * 1000  # each card gets VERSION, N and END: 21 -> 56 characters
    healed = heal(reply, "EXPECT VCARD").text
    assert len(reply) == 21_000 and len(healed) == 56 * 1000 and written[-1].size == len(healed)
    written.clear()
    refused = check(reply, f"EXPECT VCARD max_size={len(reply)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # 375 cards make 21,000 exactly; the 376th's BEGIN:VCARD (11) takes it to 21,011
    assert [w.size for w in written] == [56 * 375 + 11]
    assert "healing the payload made 21,011 characters when it was stopped" in refused.violations[0].message


def test_an_html_heal_is_refused_at_the_piece_that_passes_the_limit(monkeypatch):
    written = _recording_written(monkeypatch)
    reply = "<p>a < b</p>" * 1000  # each item heals from 12 to 15 characters: '<' -> '&lt;'
    healed = heal(reply, "EXPECT HTML").text
    assert len(reply) == 12_000 and len(healed) == 15_000 and written[-1].size == 15_000
    written.clear()
    refused = check(reply, f"EXPECT HTML max_size={len(reply)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # 800 items make 12,000 exactly; the 801st's <p> takes it to 12,003
    assert [w.size for w in written] == [12_003]
    assert "healing the payload made 12,003 characters when it was stopped" in refused.violations[0].message


def test_an_html_heal_may_write_a_doubled_newline_it_takes_back():
    """A newline after <pre> is written twice, and the writing without it is kept where
    the parser keeps both (a table cell): that newline is not held against the limit."""
    reply = "<table><tr><td><pre>\nx</pre></td></tr></table><p>a < b</p>"
    healed = heal(reply, "EXPECT HTML").text
    assert healed.count("\n") == 1
    assert check(reply, f"EXPECT HTML max_size={len(healed)}").ok
    assert not check(reply, f"EXPECT HTML max_size={len(healed) - 1}").ok


def _recording_written(monkeypatch) -> list[Written]:
    """Every ``Written`` made from now on, in order (to read the characters each wrote)."""
    written: list[Written] = []
    init = Written.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        written.append(self)

    monkeypatch.setattr(Written, "__init__", recording)
    return written


def test_a_json_heal_is_refused_at_the_comma_where_its_text_must_pass_the_limit(monkeypatch):
    """JSON edits in place: at each comma ending a member, what precedes it stays, so the
    text healed so far is at least the comma's offset plus what the edits added."""
    calls = []
    apply_string = json_structure._apply_string

    def counting(res, s, e, fix):
        calls.append(s)
        return apply_string(res, s, e, fix)

    monkeypatch.setattr(json_structure, "_apply_string", counting)
    reply = "[" + ", ".join(["'a\"b'"] * 1000) + "]"  # each string heals from 5 to 6 characters
    assert len(reply) == 7000 and len(heal(reply, "EXPECT JSON").text) == 8000
    calls.clear()
    refused = check(reply, f"EXPECT JSON max_size={len(reply)}")
    assert [v.code for v in refused.violations] == ["reply.too_large"]
    # the comma after string k stands at 7k + 6 with k + 1 strings healed: 8k + 7 > 7,000 first at k = 875
    assert "healing the payload made 7,007 characters when it was stopped" in refused.violations[0].message
    assert len(calls) == 876


def test_a_json_heal_that_grows_then_shrinks_is_judged_on_its_end():
    """What the edits added is not held against the limit while text after it may still
    go: 500 strings grow by one each, then 100 comments go (10 characters each)."""
    reply = "[" + ", ".join(["'a\"b'"] * 500 + ["1 /* note */"] * 100) + "]"
    healed = heal(reply, "EXPECT JSON").text
    assert len(reply) == 4900 and len(healed) == 4900 + 500 - 100 * len("/* note */")  # the blank stays
    assert check(reply, f"EXPECT JSON max_size={len(reply)}").ok  # the reply is the longer: it fits
