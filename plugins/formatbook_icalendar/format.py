"""``ICalendarFormat``: the ``icalendar`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

import datetime
from typing import Any

from formatbook_core import Analysis, AnalyzingFormat, Healed, Option, ScopeNotFound, Span, Violation
from formatbook_core.limits import limits_from
from formatbook_core.schema_files import BASE_DIR

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import stream as _stream
from . import validate as _validate
from . import values as _values
from .schema import CalendarSchema, load_schema

_SAMPLES = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//formatbook//samples//EN\r\nBEGIN:VEVENT\r\n"
    "UID:team-lunch-20250501@example.com\r\nDTSTAMP:20250420T090000Z\r\nDTSTART:20250501T120000Z\r\n"
    "DTEND:20250501T130000Z\r\nSUMMARY:Team lunch\r\nLOCATION:Cafe Luna\\, 2nd floor\r\nEND:VEVENT\r\n"
    "END:VCALENDAR\r\n",
    "BEGIN:VCALENDAR\r\nPRODID:-//formatbook//samples//EN\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\n"
    "TZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n"
    "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\n"
    "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\n"
    "TZOFFSETTO:+0200\r\nTZNAME:CEST\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\n"
    "UID:standup@example.com\r\nDTSTAMP:20250101T000000Z\r\nDTSTART;TZID=Europe/Berlin:20250106T093000\r\n"
    "DURATION:PT15M\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=50\r\nSUMMARY:Daily stand-up\r\n"
    "DESCRIPTION:Three questions:\\nWhat did you do? What will you do? Anything blocking?\r\n"
    "ATTENDEE;CN=Ana Lima;ROLE=REQ-PARTICIPANT:mailto:ana@example.com\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
    "DESCRIPTION:Stand-up in 5 minutes\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//formatbook//samples//EN\r\nBEGIN:VTODO\r\n"
    "UID:todo-42@example.com\r\nDTSTAMP:20250301T080000Z\r\nDUE;VALUE=DATE:20250315\r\nSUMMARY:File the taxes\r\n"
    "PRIORITY:1\r\nSTATUS:NEEDS-ACTION\r\nCATEGORIES:Home,Paperwork\r\nEND:VTODO\r\nBEGIN:VJOURNAL\r\n"
    "UID:journal-7@example.com\r\nDTSTAMP:20250302T200000Z\r\nDTSTART;VALUE=DATE:20250302\r\n"
    "SUMMARY:Notes\r\nDESCRIPTION:A long description that goes on and on until it has to be folded because it is "
    "longer than se\r\n venty-five octets.\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n",
)


def _iso_time(value: str) -> str | None:
    """``now`` is checked when the expectations are built: ``now=yesterday`` is an
    ``ExpectationError`` then, not a failure of every reply healing adds a DTSTAMP to."""
    try:
        datetime.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return "must be an ISO 8601 date-time (2024-05-01T09:00:00Z)"
    return None


class ICalendarFormat(AnalyzingFormat):
    """iCalendar (RFC 5545), read with the ``icalendar`` library. Schemas: a mapping
    from component names to ``min``/``max``/``required`` (see :mod:`.schema`). Options:
    ``now`` (the DTSTAMP healing adds), ``base_dir`` and the limits."""

    name = "icalendar"
    aliases = ("ical", "ics")
    mime_types = ("text/calendar",)
    scope_kind = "property name"
    description = "iCalendar (RFC 5545) calendars; healing to RFC form; scopes are property names."
    samples = _SAMPLES
    option_specs = (
        Option(
            "now",
            str,
            None,
            "the time healing writes into a missing DTSTAMP (ISO 8601; default: the current UTC time)",
            check=_iso_time,
        ),
        BASE_DIR,
    )

    # --- schemas --------------------------------------------------------------------
    def load_schema(self, schema: Any, **options: Any) -> Any:
        return load_schema(schema, options.get("base_dir"))

    def _schema(self, schema: Any, options: dict[str, Any]) -> CalendarSchema | None:
        return load_schema(schema, options.get("base_dir"))

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """Parse (the value is the ``icalendar.Calendar``) and validate; see :mod:`.validate`."""
        max_size, max_depth = limits_from(options)
        return _validate.analyze(value, self._schema(schema, options), max_size, max_depth)

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        """``analyze``'s violations (remembered when the same text was just analysed)."""
        max_size, max_depth = limits_from(options)
        return list(_validate.violations_of(value, self._schema(schema, options), max_size, max_depth))

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """Whether ``value`` is valid as it stands (the schema included). Never raises."""
        try:
            return not self.validate(value, schema, **options)
        except Exception:  # a bug is no verdict: is_valid answers False
            return False

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is a valid calendar (strict)."""
        if not isinstance(partial, str):
            return False
        checker = _stream.CalendarChecker(strict=True, max_depth=limits_from(options).max_depth)
        return bool(checker.feed(partial))

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> _stream.CalendarChecker:
        """The incremental checker (see :mod:`.stream`)."""
        loaded = self._schema(schema, options)
        opts = dict(options)

        def final(text: str) -> str | None:
            violations = self.validate(text, loaded, **opts)
            return str(violations[0]) if violations else None

        def relaxed(text: str) -> tuple[str | None, str]:
            try:
                healed = self.heal(text, loaded, **opts)
            except Exception as err:  # HealError (or a bug): not healable
                return str(err), text
            if healed.analysis is None:
                return final(healed.text), healed.text
            # the analysis healing confirmed its text with: not read a third time
            return (None if healed.analysis.ok else str(healed.analysis.violations[0])), healed.text

        return _stream.CalendarChecker(
            strict=strict, max_depth=limits_from(options).max_depth, final=final, relaxed=relaxed
        )

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        return _locate.locate(reply)

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair towards RFC 5545 form, each change listed (see :mod:`.heal`). Raises
        ``HealError``."""
        return _heal.heal(value, self._schema(schema, options), options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, starting from ``analysis`` (``text``'s) instead of reading it again."""
        return _heal.heal(text, self._schema(schema, options), options, analysis=analysis)

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        if not isinstance(value, str):
            return []
        return _values.extract_values(value)

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        if not isinstance(value, str):
            raise ScopeNotFound("not text")
        return _values.extract_scope(value, scope)

    def validate_scope(self, scope: str) -> str | None:
        return _values.scope_problem(scope)

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return _guidance.guidance(self._schema(schema, options))
