"""The strict checker and can_be_valid: sound on every prefix of every valid card
(hypothesis), and failing as soon as the text shows the error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import StreamGuard, get_format
from formatbook_vcard import contentlines
from formatbook_vcard.contentlines import fold

VCARD = get_format("vcard")


def first_failure(text: str) -> int | None:
    """The offset of the character at which the strict checker, fed one character at a
    time, turns falsy. White space is held until what follows it arrives (white space
    after the last card is no part of it), so an error shown by white space (a bare LF, a
    space in a name) fails at the next other character; the card rules run on a line once
    the next line's first character shows that it is complete (not folded)."""
    checker = VCARD.stream(strict=True)
    for i, ch in enumerate(text):
        status = checker.feed(ch)
        if not status:
            assert status.position is not None and status.position <= i
            return i
    return None


HEAD = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nN:A;;;;\r\n"


@pytest.mark.parametrize(
    "text, at",
    [
        ("Sure! Here it is", 0),  # outside a card only BEGIN:VCARD may stand
        ("BEGIN:VCALENDAR", len("BEGIN:VCA")),
        ("END:VCARD\r\nX", 0),  # "E" is no start of BEGIN:VCARD
        (HEAD + "Here is more text", len(HEAD) + 5),  # a space in a property name
        (HEAD + "X-A;P:v", len(HEAD) + 5),  # a parameter without '='
        ("BEGIN:VCARD\nVERSION:3.0", len("BEGIN:VCARD\n")),  # a bare LF, once something follows it
        ("BEGIN:VCARD\rX", len("BEGIN:VCARD\r")),
        (HEAD + "EMAIL:nobody\r\nE", len(HEAD) + len("EMAIL:nobody\r\n")),  # line complete: next char
        (HEAD + "BEGIN:VCARD\r\nX", len(HEAD) + len("BEGIN")),  # nested: at the ':'
        (HEAD + "END:VCALENDAR\r\nX", len(HEAD) + len("END:VCA")),  # wrong END: at the 'L'
        ("BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\nB", len("BEGIN:VCARD\r\nFN:A\r\nEND:VCAR")),  # no VERSION: at 'D'
        ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD", len("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCAR")),
    ],
)
def test_fails_as_soon_as_the_text_shows_it(text, at):
    assert first_failure(text) == at
    assert not VCARD.can_be_valid(text)
    assert VCARD.can_be_valid(text[:at])


def test_white_space_waits_for_what_follows():
    card = HEAD + "END:VCARD"
    assert first_failure(card + "\r\n\n\n  \t") is None  # white space after the last card
    checker = VCARD.stream(strict=True)
    assert checker.feed(card + "\n\n") and checker.finish()
    assert first_failure(card + "\n\nBEGIN:VCARD") == len(card) + 2  # an LF between cards


# --- soundness: every prefix of a valid card is accepted ----------------------------
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(
    lambda s: s.strip() == s and s.strip()
)


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")


@st.composite
def cards(draw) -> str:
    version = draw(st.sampled_from(["3.0", "4.0"]))
    lines = ["BEGIN:VCARD", f"VERSION:{version}", "FN:" + _escape(draw(_TEXT))]
    if version == "3.0" or draw(st.booleans()):
        lines.append("N:" + _escape(draw(_TEXT)) + ";;;;")
    extra = draw(
        st.lists(
            st.sampled_from(
                [
                    "EMAIL;TYPE=work:ada@example.org",
                    'TEL;TYPE="cell,voice":+1 555 010 9999',
                    "BDAY:19901231",
                    "item2.X-ABLabel:Büro",
                    "CATEGORIES:a,b",
                    "NOTE:" + "folded note " * 8,
                ]
            ),
            max_size=4,
            unique=True,
        )
    )
    lines += extra
    lines.append("NOTE:" + _escape(draw(_TEXT)))
    lines.append("END:VCARD")
    body = "\r\n".join(fold(line) for line in lines)
    return body + draw(st.sampled_from(["", "\r\n", "\r\n\n "]))


@settings(max_examples=150, deadline=None)
@given(st.lists(cards(), min_size=1, max_size=3))
def test_every_prefix_of_valid_cards_is_accepted(docs):
    text = "\r\n".join(d.rstrip("\r\n ") for d in docs)
    assert VCARD.is_valid(text)
    assert first_failure(text) is None
    checker = VCARD.stream(strict=True)
    for ch in text:
        checker.feed(ch)
    assert checker.finish()
    for cut in range(0, len(text) + 1, 7):
        assert VCARD.can_be_valid(text[:cut])


def test_feed_work_is_linear_in_the_chunk():
    """Feeding one character at a time a card with a 200,000-character value stays cheap:
    counted as calls into the line scanner's per-piece work, not timed."""
    calls = {"n": 0, "chars": 0}
    original = contentlines.LineScanner.feed

    def counting(self, piece):
        calls["n"] += 1
        calls["chars"] += len(piece)
        return original(self, piece)

    contentlines.LineScanner.feed = counting
    try:
        text = HEAD + "NOTE:" + "x" * 200_000 + "\r\nEND:VCARD\r\n"
        checker = VCARD.stream(strict=True)
        for i in range(0, len(text), 7):
            assert checker.feed(text[i : i + 7])
        fed = calls["chars"]
        assert checker.finish()
    finally:
        contentlines.LineScanner.feed = original
    # each character is scanned once as it comes and once more when its line is complete
    assert fed <= 2 * len(text)
    assert calls["n"] < len(text) // 7 + 20  # one call per chunk, not per character


def test_relaxed_checker_and_guard_accept_what_heals():
    reply = "Sure!\n```vcf\nBEGIN:VCARD\nFN:Ada Lovelace\nEMAIL:ada@example.org\nEND:VCARD\n```"
    guard = StreamGuard("EXPECT VCARD")
    for ch in reply:
        assert guard.feed(ch)
    assert guard.finish().verdict == "healed"
    strict = StreamGuard("EXPECT VCARD", strict=True)
    assert not strict.feed(reply)


def test_copy_is_independent():
    checker = VCARD.stream(strict=True)
    checker.feed(HEAD)
    clone = checker.copy()
    assert not clone.feed("oops no colon\r\nX")
    assert checker.feed("END:VCARD\r\n") and checker.finish()
