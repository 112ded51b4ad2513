"""Step ``required``: the properties RFC 5545 requires and a healer can supply without
inventing data — ``VERSION:2.0`` and a ``PRODID`` on a calendar, a ``UID`` derived from
the component's own content (the same reply always gets the same UID) and a ``DTSTAMP``
(the option ``now``, else the current UTC time) on events, to-dos, journals and
free/busy components."""

from __future__ import annotations

import datetime
import hashlib
from collections import OrderedDict
from typing import Any

from formatbook_core import HealError, Violation

from ..contentlines import ContentLine
from .state import Healing, Line, new_line

PRODID = "-//formatbook//healed//EN"
_STAMPED = frozenset({"VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"})


# Without ``now``, the first time a payload is healed in this process stamps it: check()
# and heal() of one reply (or one reply healed twice) a second apart give the same text
# (the fuzzer's check/heal agreement found them differing across a second's boundary).
_FIRST_HEALED: OrderedDict[str, datetime.datetime] = OrderedDict()
_REMEMBERED = 256


def _first_healed(payload: str) -> datetime.datetime:
    key = hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
    moment = _FIRST_HEALED.get(key)
    if moment is None:
        moment = _FIRST_HEALED[key] = datetime.datetime.now(datetime.timezone.utc)
        if len(_FIRST_HEALED) > _REMEMBERED:
            _FIRST_HEALED.popitem(last=False)
    return moment


def dtstamp(now: Any, payload: str | None = None) -> str:
    """``now`` (an ISO 8601 text or a datetime; naive means UTC) as a UTC DTSTAMP value;
    without it the current UTC time (the time ``payload`` was first healed, when given)."""
    if now is None:
        moment = _first_healed(payload) if payload is not None else datetime.datetime.now(datetime.timezone.utc)
    elif isinstance(now, datetime.datetime):
        moment = now
    else:
        try:
            moment = datetime.datetime.fromisoformat(str(now).strip().replace("Z", "+00:00"))
        except ValueError:
            raise HealError(
                f"the option now={now!r} is no ISO 8601 time",
                [Violation("icalendar.value", f"now={now!r} is no ISO 8601 date-time")],
            ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def add_required(h: Healing) -> None:
    """The required properties each component lacks, added right after its ``BEGIN``.

    Linear in the lines (issue 30): the lines added are collected and placed in one pass
    at the end (an insert into the output at each ``END`` moved all the lines after it),
    and a component's content is a range of one list of the property lines in reply
    order (a component's lines were copied into its parent's at each ``END``)."""
    texts: list[str] = []  # every property line, in order: a component's are a range
    # the open components: [name, index of their BEGIN in h.lines, names seen, index of
    # their first line in texts, whether they hold a stamped component]
    stack: list[list[Any]] = []
    added_after: dict[int, list[Line]] = {}  # index of a BEGIN in h.lines -> lines added
    counter: dict[str, int] = {}
    stamp: str | None = None
    for at, line in enumerate(h.lines):
        p = line.parts
        assert p is not None
        if p.name == "BEGIN":
            stack.append([p.value.upper(), at, set(), len(texts), False])
            continue
        if p.name == "END" and stack:
            name, begin_at, seen, first, holds_stamped = stack.pop()
            added: list[Line] = []
            if name == "VCALENDAR":
                if "VERSION" not in seen:
                    added.append(new_line(ContentLine("VERSION", (), "2.0"), line.start))
                    h.repair("added_version", "VERSION:2.0 added to the calendar", line.start, line.start)
                if "PRODID" not in seen:
                    added.append(new_line(ContentLine("PRODID", (), PRODID), line.start))
                    h.repair("added_prodid", f"PRODID:{PRODID} added to the calendar", line.start, line.start)
            elif name in _STAMPED:
                if "UID" not in seen:
                    index = counter.get(name, 0)
                    # A component holding a stamped one cannot be healed (those sit right
                    # in a VCALENDAR: confirm refuses the placement), so its UID is never
                    # seen: it is not derived from its content, which holds the content of
                    # the components in it (each line hashed once per stamped component
                    # around it, up to max_depth times).
                    content = "" if holds_stamped else "\n".join(texts[first:])
                    digest = hashlib.sha256(f"{name}#{index}\n".encode() + content.encode("utf-8")).hexdigest()
                    uid = f"{digest[:32]}@formatbook"
                    added.append(new_line(ContentLine("UID", (), uid), line.start))
                    h.repair(
                        "added_uid", f"UID:{uid} added to the {name} (derived from its content)", line.start, line.start
                    )
                if "DTSTAMP" not in seen:
                    if stamp is None:  # once per heal: the first-healed look-up hashes the payload
                        stamp = dtstamp(h.options.get("now"), h.text)
                    added.append(new_line(ContentLine("DTSTAMP", (), stamp), line.start))
                    h.repair("added_dtstamp", f"DTSTAMP:{stamp} added to the {name}", line.start, line.start)
                counter[name] = counter.get(name, 0) + 1
            if added:  # right after BEGIN, where a reader looks for them
                added_after[begin_at] = added
            if stack and (holds_stamped or name in _STAMPED):
                stack[-1][4] = True
            continue
        if stack:
            stack[-1][2].add(p.name)
            texts.append(line.text)
    if added_after:
        out: list[Line] = []
        for at, line in enumerate(h.lines):
            out.append(line)
            more = added_after.get(at)
            if more is not None:
                out.extend(more)
        h.lines = out
