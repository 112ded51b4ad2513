"""``VCardFormat``: the ``vcard`` format, a thin adapter over the modules beside it."""

from __future__ import annotations

from typing import Any

from formatbook_core import Analysis, AnalyzingFormat, Healed, HealError, Span, Violation
from formatbook_core.limits import limits_from

from . import guidance as _guidance
from . import heal as _heal
from . import locate as _locate
from . import values as _values
from .analysis import analyze, verdict
from .stream import RelaxedChecker, StrictChecker

_SAMPLES = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:John Smith\r\nN:Smith;John;;;\r\nEMAIL;TYPE=INTERNET:john.smith@example.com\r\n"
    "TEL;TYPE=CELL:+1 555 010 9999\r\nEND:VCARD\r\n",
    "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:individual\r\nFN:Dr. Ada King\\, Countess of Lovelace\r\n"
    "N:King;Ada;Augusta;Dr.;\r\nBDAY:18151210\r\nORG:Analytical Engines\\, Ltd.;Research\r\nTITLE:Mathematician\r\n"
    'TEL;VALUE=uri;TYPE="voice,work":tel:+44-20-7946-0000\r\nEMAIL;PREF=1:ada@example.org\r\n'
    "ADR;TYPE=work:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom\r\n"
    'NOTE:Wrote the first program. Friends call her "the Enchantress of Numbers"\r\n'
    " \\; see the notes for details.\r\nEND:VCARD\r\n",
    "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Müller\r\nN:Müller;Zoë;;;\r\nitem1.EMAIL:zoe@example.de\r\n"
    "item1.X-ABLabel:Büro\r\nBDAY:1990-02-28\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Li Wei\r\n"
    "N:Li;Wei;;;\r\nTEL;TYPE=HOME,VOICE:(010) 6552-9988\r\nCATEGORIES:friends,work\r\nEND:VCARD",
)


class VCardFormat(AnalyzingFormat):
    """vCard 3.0 (RFC 2426) and 4.0 (RFC 6350), read by vobject. ``check(...).value`` is
    the vobject component (a list of them for several cards). Options: ``max_size`` and
    ``max_depth`` (see ``formatbook_core.limits``)."""

    name = "vcard"
    aliases = ("vcf",)
    mime_types = ("text/vcard", "text/x-vcard")
    scope_kind = "property name"
    description = "vCard 3.0 and 4.0 (RFC 2426, RFC 6350), read by vobject; scopes are property names."
    samples = _SAMPLES
    option_specs = ()

    # --- checking -------------------------------------------------------------------
    def analyze(self, value: str, schema: Any = None, **options: Any) -> Analysis:
        """The content-line grammar and card rules, then vobject reads it."""
        try:
            return analyze(value, limits_from(options).max_size)
        except Exception as err:  # a bug must not escape as an exception: a violation
            return Analysis(None, (Violation("vcard.unreadable", f"cannot read the vCard: {type(err).__name__}"),))

    def validate(self, value: str, schema: Any = None, **options: Any) -> list[Violation]:
        """``analyze``'s violations, without reading the value (kept for the last text)."""
        return list(self._verdict(value, options))

    def is_valid(self, value: str, schema: Any = None, **options: Any) -> bool:
        """Whether ``value`` is a valid vCard. Never raises."""
        return not self._verdict(value, options)

    def _verdict(self, value: str, options: dict[str, Any]) -> tuple[Violation, ...]:
        try:
            return (
                verdict(value, limits_from(options).max_size)
                if isinstance(value, str)
                else analyze(value, 0).violations
            )
        except Exception as err:  # a bug must not escape as an exception: a violation
            return (Violation("vcard.unreadable", f"cannot read the vCard: {type(err).__name__}"),)

    def can_be_valid(self, partial: str, schema: Any = None, **options: Any) -> bool:
        """Whether some continuation of ``partial`` is a valid vCard (strict grammar)."""
        if not isinstance(partial, str):
            return False
        try:
            return bool(StrictChecker(limits_from(options).max_size).feed(partial))
        except Exception:  # a bug must not escape; a prefix is not refused on its account
            return True

    def stream(self, schema: Any = None, *, strict: bool = True, **options: Any) -> StrictChecker | RelaxedChecker:
        """The incremental checker (see :mod:`formatbook_vcard.stream`)."""
        max_size = limits_from(options).max_size
        if strict:
            return StrictChecker(max_size)
        return RelaxedChecker(lambda text: self.heal(text, schema, **options), max_size)

    # --- finding and healing --------------------------------------------------------
    def locate(self, reply: str, schema: Any = None, **options: Any) -> list[Span]:
        """Candidate payloads, best first (see :mod:`formatbook_vcard.locate`)."""
        try:
            return _locate.locate(reply)
        except Exception:  # a bug must not escape: the whole reply as the one candidate
            return [Span(0, len(reply))] if isinstance(reply, str) else []

    def heal(self, value: str, schema: Any = None, **options: Any) -> Healed:
        """Repair following :data:`formatbook_vcard.heal.PLAN`; valid input comes back
        unchanged. Raises ``HealError``."""
        return self._heal(value, None, options)

    def heal_analyzed(self, analysis: Analysis, text: str, schema: Any = None, **options: Any) -> Healed:
        """``heal``, starting from ``analysis`` (``text``'s) instead of reading it again."""
        # an analysis that crashed is no start: healing reads the text (and says why it cannot)
        unread = any(v.code == "vcard.unreadable" for v in analysis.violations)
        return self._heal(text, None if unread else analysis, options)

    def _heal(self, text: str, first: Analysis | None, options: dict[str, Any]) -> Healed:
        try:
            return _heal.heal(text, None, options, analysis=first)
        except HealError:
            raise
        except Exception as err:  # a bug must not escape as another exception
            problem = Violation("vcard.unreadable", f"cannot heal the vCard: {type(err).__name__}: {err}")
            raise HealError(problem.message, [problem]) from err

    # --- values ---------------------------------------------------------------------
    def extract_values(self, value: str, schema: Any = None, **options: Any) -> list[str]:
        """Names, organisation, title, notes, addresses (see :mod:`formatbook_vcard.values`)."""
        try:
            return _values.extract_values(value) if isinstance(value, str) else []
        except Exception:  # a bug must not escape: no values rather than a crash
            return []

    def extract_scope(self, value: str, scope: str, schema: Any = None, **options: Any) -> list[str]:
        """The values of the properties named ``scope`` (``"NOTE"``). Raises ``ScopeNotFound``."""
        return _values.extract_scope(value, scope)

    def validate_scope(self, scope: str) -> str | None:
        if _values.scope_name(scope) is None:
            return f"{scope!r} is not a vCard property name (letters, digits and '-', such as \"NOTE\")"
        return None

    def guidance(self, schema: Any = None, **options: Any) -> str:
        return _guidance.guidance()
