"""iCalendar: formatbook's heal and strict incremental checker against one
``icalendar.Calendar.from_ical`` of the same calendar, at about 100 KB and 1 MB.

- ``from_ical``: the icalendar library reading the valid calendar once;
- ``validate``: formatbook's ``is_valid`` on the valid calendar (it includes one from_ical);
- ``heal``: healing the calendar as models damage it (LF line breaks, ISO dates, no UID or
  DTSTAMP, unescaped commas, no VERSION/PRODID, cut off before the last END lines);
- ``stream``: the strict checker fed the valid calendar in 64-character chunks.

    python benchmarks/bench_icalendar.py [--runs 5] [--events 330,3300,33000]
"""

from __future__ import annotations

import argparse

from icalendar import Calendar
from timing import Row, best, fresh, interleaved

from formatbook_core import get_format

FMT = get_format("icalendar")


def valid_calendar(events: int) -> str:
    parts = ["BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n"]
    for i in range(events):
        day = 1 + i % 28
        parts.append(
            f"BEGIN:VEVENT\r\nUID:event-{i}@bench\r\nDTSTAMP:20250101T000000Z\r\n"
            f"DTSTART:202505{day:02d}T100000Z\r\nDTEND:202505{day:02d}T113000Z\r\n"
            f"SUMMARY:Meeting number {i} about the roadmap\\, budget and hiring\r\n"
            f"LOCATION:Room {i % 40}\\, Building {i % 3}\r\n"
            "DESCRIPTION:Agenda: review last week\\, plan the next one\\, and agree on owners.\\n"
            "Bring notes.\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\r\nEND:VEVENT\r\n"
        )
    parts.append("END:VCALENDAR\r\n")
    return "".join(parts)


def damaged_calendar(events: int) -> str:
    parts = ["BEGIN:VCALENDAR\n"]
    for i in range(events):
        day = 1 + i % 28
        parts.append(
            f"BEGIN:VEVENT\nDTSTART:2025-05-{day:02d}T10:00:00Z\nDTEND:2025-05-{day:02d} 11:30:00+00:00\n"
            f"SUMMARY:Meeting number {i} about the roadmap, budget and hiring\n"
            f"LOCATION:Room {i % 40}, Building {i % 3}\n"
            "DESCRIPTION:Agenda: review last week, plan the next one, and agree on owners.\nBring notes.\n"
            "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\nEND:VEVENT\n"
        )
    return "".join(parts)[: -len("END:VEVENT\n")]  # cut off: the last END lines are missing


def stream(text: str) -> None:
    checker = FMT.stream(strict=True)
    for i in range(0, len(text), 64):
        checker.feed(text[i : i + 64])
    assert checker.finish()


def bench_rows(quick: bool = True, sizes: tuple[int, ...] | None = None) -> list[Row]:
    """The table's rows: ``is_valid`` (goal ≤ 2× ``Calendar.from_ical``) and ``heal`` of the
    damaged calendar (goal ≤ 4×), interleaved with from_ical of the valid calendar."""
    out = []
    counts = tuple(max(1, round(n / 355)) for n in sizes) if sizes else None  # an event is ~355 characters
    for events in counts or ((330, 3300) if quick else (330, 3300, 33000)):
        good, bad = valid_calendar(events), damaged_calendar(events)
        t = interleaved(
            {
                "valid": lambda good=good: FMT.is_valid(fresh(good)),
                "heal": lambda bad=bad: FMT.heal(fresh(bad), now="2025-01-01T00:00:00Z"),
                "peer": lambda good=good: Calendar.from_ical(good),
            },
            3 if quick else 5 if events > 30 else 50,
        )
        out.append(Row("iCalendar is_valid", len(good), t["valid"], "icalendar", t["peer"], goal=2))
        out.append(Row("iCalendar heal", len(bad), t["heal"], "icalendar", t["peer"], goal=4))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--events", default="330,3300", help="calendar sizes, e.g. 330,3300,33000 (10 MB)")
    args = parser.parse_args()
    print(f"iCalendar, best of {args.runs} runs (CPU time)\n")
    print(
        f"{'size':>10} {'events':>7} {'from_ical':>10} {'validate':>10} {'heal':>10} {'stream':>10}   ratios to from_ical"
    )
    for events in (int(n) for n in args.events.split(",")):
        good = valid_calendar(events)
        bad = damaged_calendar(events)
        healed = FMT.heal(bad, now="2025-01-01T00:00:00Z")
        assert FMT.is_valid(healed.text) and FMT.is_valid(good)
        t_lib = best(lambda good=good: Calendar.from_ical(good), args.runs)
        t_val = best(lambda good=good: FMT.is_valid(fresh(good)), args.runs)
        t_heal = best(lambda bad=bad: FMT.heal(fresh(bad), now="2025-01-01T00:00:00Z"), args.runs)
        t_stream = best(lambda good=good: stream(good), args.runs)
        print(
            f"{len(good):>10,} {events:>7} {t_lib * 1000:>8.1f}ms {t_val * 1000:>8.1f}ms {t_heal * 1000:>8.1f}ms "
            f"{t_stream * 1000:>8.1f}ms   validate {t_val / t_lib:.2f}x, heal {t_heal / t_lib:.2f}x, "
            f"stream {t_stream / t_lib:.2f}x"
        )


if __name__ == "__main__":
    main()
