"""Repairs of numbers written the way JavaScript or Python allow but JSON does not:
``+1``, ``.5``, ``5.``, ``007``, an exponent cut off (``1e``)."""

from __future__ import annotations

import re

_RELAXED = re.compile(r"([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?)([0-9]*))?")

MESSAGE = "rewrote a number in JSON's notation"


def normalize(raw: str) -> str | None:
    """The JSON spelling of the number ``raw``, or ``None`` when it is not a number."""
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
