"""Numbers written the way JavaScript or Python allow but JSON does not (``+1``, ``.5``,
``5.``, ``007``, an exponent cut off: ``1e``, digit separators: ``1_234``) and their JSON spelling: one definition
for the healer (which rewrites them) and the relaxed stream checker (which reports the
value healing will write)."""

from __future__ import annotations

import re

_CANONICAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
# Python's and JavaScript's digit separators: one underscore between two digits.
_SEPARATED = re.compile(r"[-+]?[0-9]+(?:_[0-9]+)*(?:\.[0-9]+(?:_[0-9]+)*)?(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?")
_RELAXED = re.compile(r"([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?)([0-9]*))?")


def normalize(raw: str) -> str | None:
    """The JSON spelling of the number ``raw`` (``raw`` itself when it is JSON already),
    or ``None`` when it is not a number."""
    if _CANONICAL.fullmatch(raw):
        return raw
    if "_" in raw:
        if _SEPARATED.fullmatch(raw) is None:
            return None
        raw = raw.replace("_", "")
        if _CANONICAL.fullmatch(raw):
            return raw
    m = _RELAXED.fullmatch(raw)
    if m is None:
        return None
    sign, whole, frac, esign, exp = m.groups()
    if not whole and not frac:
        return None
    out = "-" if sign == "-" else ""
    out += whole.lstrip("0") or "0"
    if frac:
        out += "." + frac
    elif frac is not None:
        out += ".0"
    if exp:
        out += "e" + ("-" if esign == "-" else "") + exp
    return out


_HUGE_EXPONENT = re.compile(r"[eE]\+?0*[1-9][0-9]{17}").search
_ZERO_MANTISSA = re.compile(r"-?0(?:\.0*)?[eE]").match


def beyond_range(number: str) -> bool:
    """Whether the JSON number ``number`` is too large for any exact value (a double
    overflows, and a ``decimal.Decimal``'s exponent stops near 10**18): the grammar allows
    it, formatbook refuses it (both checkers and ``parse_strict``), rather than round it
    to infinity."""
    return _HUGE_EXPONENT(number) is not None and _ZERO_MANTISSA(number) is None
