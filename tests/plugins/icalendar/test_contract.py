"""The iCalendar format under the contract suite, with its own hostile and damaged inputs."""

from __future__ import annotations

from formatbook_core import get_format
from formatbook_core.testing import FormatContract

from ...contract.foreign_attacks import FOREIGN_ATTACKS

_HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n"


class TestICalendarContract(FormatContract):
    format = get_format("icalendar")
    # facts the core's tests read (tests/contract/facts.py): a short payload valid as it
    # stands, the violation of a reply with none (nothing outside its think blocks), and
    # replies of every verdict for the tests of whole results
    payload = (
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:x\nBEGIN:VEVENT\nUID:1\nDTSTAMP:20240101T000000Z\n"
        "DTSTART:20240101T000000Z\nEND:VEVENT\nEND:VCALENDAR"
    )
    no_payload_code = "icalendar.empty"
    verdict_replies = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20250101T000000Z\r\n"
        "DTSTART;TZID=Europe/Paris:20250501T100000\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\n"
        "GEO:48.85;2.35\r\nSUMMARY:Tea\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "```ics\nBEGIN:VEVENT\nSUMMARY:Lunch, Bob\nDTSTART:2025-05-01\nEND:VEVENT\n```",  # healed
        "BEGIN:VEVENT\nSUMMARY:no start\nEND:VEVENT",  # a failure
    )
    options = {"now": "2025-01-01T00:00:00Z"}
    # 250 KB, not the contract's 2 MB: no limit lies between (max_size is 16 MiB; the deep
    # components still nest 20,833 levels, past max_depth and Python's recursion limit),
    # growth with size is counted by pathological.py (repeated-samples,
    # deep-unclosed-components, many-params, long-folded-description), and the repeated
    # samples are still cut where the text heals (as at 2 MB): relaxed checkers run too
    huge_size = 250_000
    attack_inputs = {
        **FOREIGN_ATTACKS,
        "deep-components": lambda n: "BEGIN:VCALENDAR\r\n" + "BEGIN:X-A\r\n" * (n // 12),
        "long-folded-line": lambda n: _HEAD + "BEGIN:VEVENT\r\nDESCRIPTION:" + "a\r\n " * (n // 4),
        "many-params": lambda n: _HEAD + "BEGIN:VEVENT\r\nX-A" + ";P=1" * (n // 4) + ":v\r\n",
        "unclosed-quote": lambda n: _HEAD + 'BEGIN:VEVENT\r\nX-A;P="' + "x" * n,
        "many-ends": "END:VEVENT\r\n" * 50_000,
        "only-folds": " \r\n" * 50_000,
        "nul-in-name": "BEGIN:VCALENDAR\r\nBEGIN:\x00\r\n",
        "huge-duration": _HEAD + "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T000000Z\r\n"
        "DURATION:P999999999999999999W\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "bad-zone-path": _HEAD + "BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20250101T000000Z\r\n"
        "DTSTART;TZID=../../../../etc/passwd:20250101T000000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    }
    damaged_inputs = {
        "lf-line-endings": "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\nUID:1@x\n"
        "DTSTAMP:20250101T000000Z\nDTSTART:20250501T100000Z\nSUMMARY:Tea\nEND:VEVENT\nEND:VCALENDAR\n",
        "iso-dates": "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Review\nDTSTART:2025-05-01T10:00\n"
        "DTEND:2025-05-01 11:30:00+02:00\nEND:VEVENT\nEND:VCALENDAR\n",
        "bare-event": "BEGIN:VEVENT\nSUMMARY:Lunch, with Bob; bring cake\nDTSTART:20250501T120000Z\nEND:VEVENT",
        "truncated": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:1\r\n"
        "DTSTAMP:20250101T000000Z\r\nDTSTART:20250501T100000Z\r\nSUMMARY:Tea",
        "windows-zone": "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Eastern Standard Time:20250501T090000\n"
        "SUMMARY:Call\nEND:VEVENT\nEND:VCALENDAR",
        "broken-description": "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20250501T090000Z\n"
        "DESCRIPTION:First line\nsecond line, with a comma\nEND:VEVENT\nEND:VCALENDAR",
        "indented": "BEGIN:VCALENDAR\n  VERSION:2.0\n  BEGIN:VEVENT\n    DTSTART:20250501T090000Z\n"
        "    SUMMARY:Indented\n  END:VEVENT\nEND:VCALENDAR\n",
    }
