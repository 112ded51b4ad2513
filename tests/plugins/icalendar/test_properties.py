"""Properties over generated calendars: replies written as models write them heal to a
calendar icalendar reads back with every field the reply gave; valid calendars stream on
every prefix and heal to themselves."""

from __future__ import annotations

import datetime

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from icalendar import Calendar

from formatbook_core import get_format

FMT = get_format("icalendar")
UTC = datetime.timezone.utc
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# text a model writes in a summary: letters, digits, punctuation that needs escaping
_TEXT = st.text(
    alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789,;:\\.-!?'\"éü€😀")),
    min_size=1,
    max_size=120,
).filter(lambda t: t.strip() and t == t.strip() and not _reads_as_escape(t))


def _reads_as_escape(text: str) -> bool:
    """A backslash before , ; \\ n or N is read as an escape the model already wrote (the
    one reading healing can take), so generated text the model meant literally avoids it."""
    return any(text[i] == "\\" and (i + 1 == len(text) or text[i + 1] in ",;\\nN") for i in range(len(text)))


_WHEN = st.datetimes(min_value=datetime.datetime(1990, 1, 1), max_value=datetime.datetime(2090, 12, 31)).map(
    lambda d: d.replace(microsecond=0)
)


@st.composite
def model_event(draw):
    """(reply text, the fields it means): ISO dates, LF, unescaped text, no UID/DTSTAMP."""
    summary = draw(_TEXT)
    location = draw(st.none() | _TEXT)
    # a continuation line of upper-case letters, digits and "-" alone reads as a property
    # name being written when the reply is cut off after it (documented): not generated
    description_lines = draw(st.lists(_TEXT, min_size=1, max_size=3))
    assume(not any(all(ch == "-" or ch.isdigit() or "A" <= ch <= "Z" for ch in t) for t in description_lines[1:]))
    start = draw(_WHEN)
    end = start + datetime.timedelta(minutes=draw(st.integers(1, 600)))
    utc = draw(st.booleans())
    sep = draw(st.sampled_from(["T", " "]))
    stamp = "Z" if utc else ""
    lines = ["BEGIN:VEVENT", f"SUMMARY:{summary}", f"DTSTART:{start.isoformat(sep=sep)}{stamp}"]
    lines.append(f"DTEND:{end.strftime('%Y-%m-%d')}{sep}{end.strftime('%H:%M:%S')}{stamp}")
    if location is not None:
        lines.append(f"LOCATION:{location}")
    lines.append("DESCRIPTION:" + "\n".join(description_lines))
    lines.append("END:VEVENT")
    wrap = draw(st.booleans())
    if wrap:
        lines = ["BEGIN:VCALENDAR", *lines, "END:VCALENDAR"]
    if draw(st.booleans()):  # cut off before the last END line
        lines = lines[:-1]
    tz = UTC if utc else None
    meant = {
        "SUMMARY": summary,
        "LOCATION": location,
        "DESCRIPTION": "\n".join(description_lines),
        "DTSTART": start.replace(tzinfo=tz),
        "DTEND": end.replace(tzinfo=tz),
    }
    return "\n".join(lines), meant


@SETTINGS
@given(model_event())
def test_healing_keeps_every_field_the_reply_gave(case):
    reply, meant = case
    healed = FMT.heal(reply, now="2025-01-01T00:00:00Z")
    assert FMT.is_valid(healed.text)
    again = FMT.heal(healed.text, now="2025-01-01T00:00:00Z")
    assert again.text == healed.text and not again.repairs
    assert all(len(line.encode()) <= 75 for line in healed.text.split("\r\n"))
    (event,) = Calendar.from_ical(healed.text).walk("VEVENT")
    for name, value in meant.items():
        if value is None:
            assert name not in event
        elif isinstance(value, datetime.datetime):
            assert event[name].dt == value, name
        else:
            assert str(event[name]) == value, name
    assert event["DTSTAMP"].dt == datetime.datetime(2025, 1, 1, tzinfo=UTC)
    assert str(event["UID"]).endswith("@formatbook")


@st.composite
def valid_calendar(draw):
    events = []
    for i in range(draw(st.integers(1, 3))):
        summary = draw(_TEXT)
        escaped = summary.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        start = draw(_WHEN)
        fold = draw(st.booleans())
        line = f"SUMMARY:{escaped}"
        if fold and len(line) > 10:
            line = line[:10] + "\r\n " + line[10:]
        events.append(
            f"BEGIN:VEVENT\r\nUID:{i}@t\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:{start.strftime('%Y%m%dT%H%M%SZ')}\r\n"
            f"{line}\r\nEND:VEVENT\r\n"
        )
    return "BEGIN:VCALENDAR\r\nPRODID:-//t//EN\r\nVERSION:2.0\r\n" + "".join(events) + "END:VCALENDAR\r\n"


@SETTINGS
@given(valid_calendar(), st.integers(1, 40))
def test_valid_calendars_stream_on_every_prefix_and_heal_to_themselves(text, chunk):
    assert FMT.is_valid(text)
    checker = FMT.stream(strict=True)
    for i in range(0, len(text), chunk):
        assert checker.feed(text[i : i + chunk])
        assert FMT.can_be_valid(text[: i + chunk])
    assert checker.finish()
    healed = FMT.heal(text)
    assert healed.text == text and not healed.repairs
