"""Pathological iCalendar replies for tests/fuzz/test_pathological.py: each ``Case`` is run
at ``size`` and ``8 * size``; check, heal and a StreamGuard fed in small chunks must grow
about linearly."""

from formatbook_core import get_format
from formatbook_core.fuzzing.pathological import Case

HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"
EVENT = (
    "BEGIN:VEVENT\r\nUID:{i}\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\nSUMMARY:a b\r\nEND:VEVENT\r\n"
)

# the contract's huge-repeated-samples input: the format's samples joined by blank lines,
# repeated (each calendar healed, every blank line removed; issue 29 timed it as
# super-linear: the test's cut decided whether it healed, and a healed text was parsed
# four times; counted here, both grow linearly)
SAMPLES = "\n".join(get_format("icalendar").samples) + "\n"

CASES = [
    Case(
        "many-events",
        lambda n: HEAD + "".join(EVENT.format(i=i) for i in range(n)) + "END:VCALENDAR\r\n",
        38,
        "EXPECT ICALENDAR",
    ),
    # issue 31: each BEGIN counted its earlier siblings of the same name (quadratic)
    Case(
        "many-sibling-components",
        lambda n: HEAD + "BEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20250101T000000Z\r\nEND:VTODO\r\n" * n + "END:VCALENDAR\r\n",
        220,
        "EXPECT ICALENDAR",
    ),
    Case(
        "long-folded-description",
        lambda n: HEAD + "BEGIN:VEVENT\r\nDESCRIPTION:" + "word\r\n " * n,
        94,
        "EXPECT ICALENDAR",
    ),
    Case("deep-unclosed-components", lambda n: "BEGIN:VCALENDAR\n" + "BEGIN:X-A\n" * n, 130, "EXPECT ICALENDAR"),
    # issue 30: nested events with a UID each (healing closes them and adds a DTSTAMP to
    # each; 8n passes the depth limit: refused at that BEGIN, by the validator and healing;
    # was 4.0x the steps at 8n, now 0.8x). Its 2.6 s -> 25.6 s at 0.4 -> 1.6 MB was work in
    # C (lines inserted, copied), which steps do not see: test_deep_nesting.py counts it
    Case(
        "nested-unclosed-events",
        lambda n: "BEGIN:VCALENDAR\r\n" + "BEGIN:VEVENT\r\nUID:1\r\n" * n,
        130,
        "EXPECT ICALENDAR",
    ),
    Case(
        "many-lf-lines-broken-value",
        lambda n: "BEGIN:VEVENT\nDESCRIPTION:start\n" + "more text here\n" * n,
        65,
        "EXPECT ICS",
    ),
    Case("many-params", lambda n: HEAD + "BEGIN:VEVENT\r\nX-A" + ";P=1" * n + ":v\r\n", 94, "EXPECT ICALENDAR"),
    Case("backslashes-in-text", lambda n: "BEGIN:VEVENT\nSUMMARY:" + "\\x" * n + "\nEND:VEVENT", 220, "EXPECT ICS"),
    Case("many-commas-to-escape", lambda n: "BEGIN:VEVENT\nSUMMARY:" + "a," * n + "\nEND:VEVENT", 200, "EXPECT ICS"),
    Case(
        "prose-then-calendar",
        lambda n: "word " * n + "\n" + HEAD + EVENT.format(i=1) + "END:VCALENDAR",
        500,
        "EXPECT ICALENDAR",
    ),
    # a think block before each fence: which blocks hold or overlap a fence was found by
    # scanning every block for every fence, and think_inside every block for every candidate
    Case(
        "think-blocks-and-fences",
        lambda n: ("<think>x</think>\n```\n" + "BEGIN:VCALENDAR" + "\n```\n") * n,
        62,
        "EXPECT ICALENDAR",
    ),
    # issue 30: the locator upper-cased the reply once per bare component, scanned every
    # earlier candidate for every BEGIN line, and each nested BEGIN:VCALENDAR of an unclosed
    # calendar read on to the end of the reply
    Case("many-bare-events", lambda n: "Here:\n" + EVENT.format(i=1) * n, 62, "EXPECT ICS"),
    # n kept: 8n is past the depth limit (1,000), where the work is bounded; at n = 130 the
    # run at 8n cost as much and grew 9.7x
    Case("nested-unclosed-calendars", lambda n: "BEGIN:VCALENDAR\n" * n, 250, "EXPECT ICALENDAR"),
    Case(
        "many-tagged-fences",
        lambda n: "".join(f"```ics\nBEGIN:VCALENDAR\nX-N:{i}\nEND:VCALENDAR\n```\n" for i in range(n)),
        125,
        "EXPECT ICALENDAR",
    ),
    Case("repeated-samples", lambda n: SAMPLES * n, 2, "EXPECT ICALENDAR", chunk=256),
]
