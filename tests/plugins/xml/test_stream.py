"""The strict incremental checker: early failures, soundness on every prefix (a hypothesis
property over generated documents and random chunkings), agreement with is_valid, and
linear work."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from formatbook_core import StreamGuard, check, get_format
from formatbook_xml.scan import Scanner

XML = get_format("xml")


def _first_failure(text: str, chunk: int = 1) -> int | None:
    checker = XML.stream()
    fed = 0
    for i in range(0, len(text), chunk):
        piece = text[i : i + chunk]
        fed += len(piece)
        if not checker.feed(piece):
            return fed
    return None


@pytest.mark.parametrize(
    ("text", "fails_at"),
    [
        ("<answer>42</answx>", len("<answer>42</answx")),  # at the first wrong character
        ("<answer>42</answer> and more", len("<answer>42</answer> a")),  # text after the root
        ("<a/>\n<b>", len("<a/>\n<b")),  # a second root, at its name
        ("<a>AT&T</a>", len("<a>AT&T")),  # '&T' is no predefined entity: at the T
        ("<a>&nbsp;</a>", len("<a>&n")),
        ("<a><b></a>", len("<a><b></a")),
        ("Sure! <a/>", 1),
        ("<a x=1>", len("<a x=1")),
    ],
)
def test_failures_come_as_soon_as_the_text_shows_them(text, fails_at):
    assert _first_failure(text) == fails_at
    assert not XML.can_be_valid(text[:fails_at])
    assert XML.can_be_valid(text[: fails_at - 1])


# --- generated well-formed documents ---------------------------------------------------------

_names = st.sampled_from(["a", "b", "answer", "x:y", "r\u00e9", "_n-1.2", "B"])
_RAW = {"<": "&lt;", "&": "&amp;", ">": "&gt;"}
_text = st.lists(
    st.sampled_from(list("ab <&>]\"' \n\u00e9\u65e5-") + ["&amp;", "&lt;", "&#65;", "&#x263A;", "]]"]),
    max_size=12,
).map(lambda pieces: "".join(_RAW.get(p, p) for p in pieces).replace("]]>", "]]&gt;"))


def _escape_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


@st.composite
def _element(draw, depth=0):
    name = draw(_names)
    attrs = draw(
        st.dictionaries(
            st.sampled_from(["id", "k", "z:q"]), st.text(alphabet="ab <&\"'\u00e9\t>", max_size=5), max_size=2
        )
    )
    ns = ' xmlns:x="urn:x" xmlns:z="urn:z"' if depth == 0 else ""
    head = f"<{name}{ns}" + "".join(f' {k}="{_escape_attr(v)}"' for k, v in attrs.items())
    if draw(st.booleans()) and depth > 0:
        return head + draw(st.sampled_from(["/>", " />"]))
    parts = []
    for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
        kind = draw(st.sampled_from(["text", "elem", "comment", "cdata", "pi"]))
        if kind == "text":
            parts.append(draw(_text))
        elif kind == "elem":
            parts.append(draw(_element(depth + 1)))
        elif kind == "comment":
            parts.append("<!--" + draw(st.text(alphabet="ab -<>&", max_size=6)).replace("--", "- ").rstrip("-") + "-->")
        elif kind == "cdata":
            parts.append("<![CDATA[" + draw(st.text(alphabet="a<&]>", max_size=6)).replace("]]>", "]] >") + "]]>")
        else:
            parts.append("<?pi " + draw(st.text(alphabet="a ?<", max_size=5)).replace("?>", "? >") + "?>")
    return head + ">" + "".join(parts) + f"</{name}" + draw(st.sampled_from(["", " ", "\n"])) + ">"


@st.composite
def _document(draw):
    prolog = draw(st.sampled_from(["", '<?xml version="1.0"?>\n', "<!-- c -->", "<!DOCTYPE a>\n", "\n "]))
    return prolog + draw(_element()) + draw(st.sampled_from(["", "\n", "<!-- end -->", "<?pi?>\n"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document(), st.lists(st.integers(1, 7), min_size=1, max_size=50))
def test_every_prefix_of_a_valid_document_stays_truthy(doc, sizes):
    # hand-built to be well-formed, and checked against lxml: the property is about the checker
    etree.fromstring(doc.encode("utf-8"))
    assert XML.is_valid(doc), XML.validate(doc)
    checker = XML.stream()
    pos = 0
    i = 0
    while pos < len(doc):
        size = sizes[i % len(sizes)]
        i += 1
        assert checker.feed(doc[pos : pos + size]), (doc, pos)
        pos += size
    assert checker.finish()
    for cut in range(len(doc) + 1):
        assert XML.can_be_valid(doc[:cut])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(list("<>/&;!-?[]=\"' abx:\n") + ["<a>", "</a>", "<![CDATA[", "]]>", "<!--", "-->"]), max_size=30
    ).map("".join),
    st.integers(1, 5),
)
def test_the_verdict_does_not_depend_on_the_chunking(text, size):
    whole = Scanner()
    whole.feed(text)
    cut = Scanner()
    for i in range(0, len(text), size):
        cut.feed(text[i : i + size])
    assert whole.ok == cut.ok
    assert whole.end_problem() is None or cut.end_problem() is not None
    assert (whole.end_problem() is None) == (cut.end_problem() is None)
    # and a checker answers False only when is_valid is False on every continuation we try
    if not whole.ok:
        assert not XML.is_valid(text)
        assert not XML.is_valid(text + "</a>")


def test_finish_agrees_with_is_valid_where_only_lxml_sees_the_problem():
    text = "<a><p:b/></a>"  # an unbound prefix: the scanner cannot tell, lxml can
    checker = XML.stream()
    assert checker.feed(text)
    assert not checker.finish()
    assert not XML.is_valid(text)


def test_copy_is_independent():
    checker = XML.stream()
    checker.feed("<a><b>")
    clone = checker.copy()
    assert not clone.feed("</a>")
    assert checker.feed("</b></a>")
    assert checker.finish()


def test_relaxed_checker_accepts_what_heals_and_refuses_what_does_not():
    relaxed = XML.stream(strict=False)
    for piece in ("<a>AT&T ", "and a < b"):
        assert relaxed.feed(piece)
    assert relaxed.finish()
    refused = XML.stream(strict=False)
    refused.feed("Sorry, no XML here.")
    assert not refused.finish()


def test_work_is_linear_in_the_text():
    # the scanner's work per feed is bounded by its chunk: count regex steps by length only;
    # here: feeding a 4x longer text in the same chunks takes 4x the feeds and never rescans
    unit = "<item n='1'>text &amp; more</item>"
    for copies in (100, 400):
        text = "<r>" + unit * copies + "</r>"
        scanner = Scanner()
        longest = 0
        for i in range(0, len(text), 4):
            scanner.feed(text[i : i + 4])
            longest = max(longest, len(scanner._parts))
        assert scanner.end_problem() is None
        assert longest <= 3  # only the name being read is kept, never the text before


def test_stream_guard_strict_stops_a_second_root():
    guard = StreamGuard("EXPECT XML", strict=True)
    assert guard.feed("<a>1</a>")
    assert not guard.feed("<b>")


def test_stream_guard_never_stops_what_check_accepts():
    reply = "Here:\n<answer>AT&T &nbsp; a < b</answer>\nThanks"
    assert check(reply, "EXPECT XML").ok
    guard = StreamGuard("EXPECT XML")
    for ch in reply:
        assert guard.feed(ch)
    assert guard.finish().ok


def test_strict_finish_keeps_the_size_limit():
    checker = XML.stream(max_size=10)
    assert checker.feed("<a>0123456789</a>")
    assert not checker.finish()
    assert not XML.is_valid("<a>0123456789</a>", max_size=10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document(), st.lists(st.integers(1, 9), min_size=1, max_size=50), st.booleans())
def test_values_reported_while_streaming_are_extract_values(doc, sizes, windows):
    if windows:
        doc = doc.replace("\n", "\r\n")
    checker = XML.stream()
    reported: list[str] = []
    pos = i = 0
    while pos < len(doc):
        size = sizes[i % len(sizes)]
        i += 1
        status = checker.feed(doc[pos : pos + size])
        assert status
        reported.extend(status.values)
        pos += size
    assert checker.finish()
    assert reported == XML.extract_values(doc)


@pytest.mark.parametrize(
    "doc",
    [
        '<r a="x\r\ny\tz" b="&#10;&#13;q" xmlns:p="urn:p" p:c="v">t&#13;\r\nu<![CDATA[c\r\n]]]]>w<!--x-->tail<?p?>z</r>',
        "<r>]]&gt;<![CDATA[]]]><![CDATA[]]]]]>e</r>",
        "<r>\r</r>",
        "<r><a>1</a><b>2 &amp; 3</b>  <c k='v'/></r>",
    ],
)
def test_values_reported_char_by_char(doc):
    checker = XML.stream()
    reported = [v for ch in doc for v in checker.feed(ch).values]
    assert reported == XML.extract_values(doc)
    whole = XML.stream().feed(doc).values
    assert list(whole) == XML.extract_values(doc)


def test_strict_stream_guard_stops_when_settled_words_exceed_the_limit():
    guard = StreamGuard("EXPECT XML\nEXPECT MAX 3 WORDS", strict=True)
    assert guard.feed("<r><a>one two</a>")
    assert not guard.feed("<b>three four</b>")
