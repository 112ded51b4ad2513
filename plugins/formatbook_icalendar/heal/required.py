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
    out: list[Line] = []
    # components: [name, index of their BEGIN in out, names seen, lines]
    stack: list[list[Any]] = []
    counter: dict[str, int] = {}
    stamp: str | None = None
    for line in h.lines:
        p = line.parts
        assert p is not None
        if p.name == "BEGIN":
            out.append(line)
            stack.append([p.value.upper(), len(out), set(), []])
            continue
        if p.name == "END" and stack:
            name, begin_at, seen, content = stack.pop()
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
                    digest = hashlib.sha256(
                        f"{name}#{index}\n".encode() + "\n".join(content).encode("utf-8")
                    ).hexdigest()
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
            # added right after BEGIN, where a reader looks for them
            out[begin_at:begin_at] = added
            out.append(line)
            if stack:
                stack[-1][3].extend(content)
            continue
        if stack:
            stack[-1][2].add(p.name)
            stack[-1][3].append(line.text)
        out.append(line)
    h.lines = out
