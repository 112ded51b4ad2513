"""Steps on properties, card by card: VERSION (added, written 3.0/4.0, put first in 4.0),
text values escaped, 4.0 dates in their basic form, N derived from FN (3.0) and FN from
N or ORG when missing. Nothing the reply gave is changed beyond its encoding."""

from __future__ import annotations

import re
from functools import lru_cache

from formatbook_core import HealError, Span, Violation
from formatbook_core.contentlines import raw_backslashes

from .. import typed
from ..contentlines import ContentLine, escape_text, split_unescaped, unescape_text
from .state import Card, Healing, Record

#: What only vCard 4.0 has: a card holding one of these gets VERSION:4.0 when it has none.
FOUR_ONLY_PROPERTIES = frozenset(
    {"KIND", "GENDER", "ANNIVERSARY", "LANG", "MEMBER", "RELATED", "CLIENTPIDMAP", "XML", "CALADRURI", "CALURI"}
    | {"DEATHDATE", "BIRTHPLACE", "DEATHPLACE"}
)
FOUR_ONLY_PARAMS = frozenset({"PID", "ALTID", "MEDIATYPE", "CALSCALE", "SORT-AS", "PREF"})
#: Typed values whose surrounding blanks are no part of them (``EMAIL: ada@example.org``).
_TRIMMED = frozenset({"EMAIL", "TEL", "BDAY", "ANNIVERSARY", "DEATHDATE", "URL", "UID", "KIND", "GENDER", "REV"})
_VERSION_SPELLINGS = {"3": "3.0", "3.0": "3.0", "4": "4.0", "4.0": "4.0"}
_PREFIXES = frozenset("mr mr. mrs mrs. ms ms. miss dr dr. prof prof. sir dame rev rev. fr fr.".split())
_SUFFIXES = frozenset("jr jr. sr sr. ii iii iv phd ph.d. md m.d. esq esq.".split())
# the particles of a family name (``van`` in Ludwig van Beethoven: family "van Beethoven")
_PARTICLES = frozenset("van von der den de del della di da du dos das do le la ter ten bin ibn al el".split())


def set_value(rec: Record, value: str) -> None:
    """Give the content line ``rec`` a new value (its name and parameters as written)."""
    cl = rec.cl
    if cl is None or value == cl.value:
        return
    head = rec.text[: len(rec.text) - len(cl.value)]
    rec.set(head + value)
    rec.cl = ContentLine(cl.name, value, cl.params, cl.group)


def _new(name: str, value: str, at: int) -> Record:
    text, cl = _line(name, value)
    return Record(text, Span(at, at), None, cl)


@lru_cache(maxsize=64)
def _line(name: str, value: str) -> tuple[str, ContentLine]:
    """The text and (frozen) content line of an added property: one for every card that
    gets the same (``VERSION:3.0`` added to each of many cards)."""
    return f"{name}:{value}", ContentLine(name, value)


def _four_only(card: Card) -> bool:
    for rec in card.props:
        cl = rec.cl
        if cl is None:
            continue
        if cl.name in FOUR_ONLY_PROPERTIES or any(p in FOUR_ONLY_PARAMS for p, _ in cl.params):
            return True
        value = cl.value.strip().lower()
        if (cl.name == "TEL" and value.startswith("tel:")) or (
            cl.name in ("PHOTO", "LOGO") and value.startswith("data:")
        ):
            return True
        if cl.name == "BDAY" and value.startswith("--"):
            return True
    return False


def fix_version(h: Healing, card: Card, index: int) -> None:
    versions = [r for r in card.props if r.cl is not None and r.cl.name == "VERSION"]
    at = card.begin.span.end
    if not versions:
        version = "4.0" if _four_only(card) else "3.0"
        card.props.insert(0, _new("VERSION", version, at))
        why = " (it uses what only 4.0 has)" if version == "4.0" else ""
        h.repair("version_added", f"added VERSION:{version} to card {index}{why}", at, at)
        card.version = version
        return
    spelled = {_VERSION_SPELLINGS.get(r.cl.value.strip()) for r in versions if r.cl is not None}
    if None in spelled or len(spelled) > 1:
        raise HealError(
            f"card {index}: VERSION must be 3.0 or 4.0",
            [Violation("vcard.version", f"card {index}: VERSION {versions[0].text!r} is not 3.0 or 4.0", (index,))],
        )
    version = spelled.pop() or "3.0"
    keep = versions[0]
    for extra in versions[1:]:
        card.props.remove(extra)
        h.repair("version_duplicate", f"dropped a second VERSION of card {index}", *extra.span)
    if keep.cl is not None and keep.cl.value != version:
        h.repair("version_value", f"wrote {keep.cl.value!r} as VERSION:{version}", *keep.span)
        set_value(keep, version)
    if version == "4.0" and card.props[0] is not keep:
        card.props.remove(keep)
        card.props.insert(0, keep)
        h.repair("version_moved", f"moved VERSION:4.0 right after BEGIN:VCARD in card {index}", *keep.span)
    card.version = version


def _fix_escapes(name: str, value: str, version: str) -> str:
    must = ""
    if name in typed.SINGLE_TEXT:
        must = ",;" if version == "3.0" else ","
    elif name in typed.COMPOUND_ESCAPED:
        must = ","
    if raw_backslashes(value):  # no backslash is an escape: each one is written \\
        return _escape_plain(value.replace("\\", "\\\\"), must)
    if "\\" not in value:
        return _escape_plain(value, must)
    # every backslash starts an escape, kept as written; the text between them is plain
    parts = _ESCAPE_PAIR.split(value)
    parts[::2] = [_escape_plain(part, must) for part in parts[::2]]
    return "".join(parts)


#: an escape (a backslash and what it escapes), kept whole by re.split
_ESCAPE_PAIR = re.compile(r"(\\[\\,;nN])")


def _escape_plain(text: str, must: str) -> str:
    """``text`` (holding no escape) with each separator of ``must`` escaped and each
    newline written ``\\n``."""
    for ch in must:
        text = text.replace(ch, "\\" + ch)
    return text.replace("\n", "\\n")


def fix_values(h: Healing, card: Card, index: int) -> None:
    """Escaping of text values, and dates in 4.0's basic form."""
    for rec in card.props:
        cl = rec.cl
        if cl is None:
            continue
        if cl.name in _TRIMMED and cl.value != cl.value.strip():
            set_value(rec, cl.value.strip())
            h.repair("trimmed", f"took the blanks around the {cl.name} value of card {index} out", *rec.span)
            cl = rec.cl
            if cl is None:
                continue
        if cl.name in typed.ESCAPED:
            fixed = _fix_escapes(cl.name, cl.value, card.version)
            if fixed != cl.value:
                set_value(rec, fixed)
                h.repair("escaped", f"escaped , ; \\ or newlines in the {cl.name} value of card {index}", *rec.span)
        elif cl.name in typed.DATE_PROPERTIES and card.version == "4.0":
            value_type = cl.param("VALUE")
            if typed.date_problem(cl.value, "4.0", value_type[0] if value_type else "") is not None:
                basic = typed.basic_date(cl.value)
                if basic is not None:
                    set_value(rec, basic)
                    h.repair("date_basic", f"wrote {cl.name} {cl.value!r} as {basic} (vCard 4.0 form)", *rec.span)


def _first(card: Card, name: str) -> Record | None:
    return next((r for r in card.props if r.cl is not None and r.cl.name == name), None)


def name_from_fn(fn: str) -> str:
    """An N value (family;given;additional;prefix;suffix, escaped) read from a formatted
    name: ``Dr. Ada King Lovelace Jr.`` → ``Lovelace;Ada;King;Dr.;Jr.``; ``Lovelace, Ada``
    → ``Lovelace;Ada;;;``; ``Ludwig van Beethoven`` → ``van Beethoven;Ludwig;;;`` (a family
    name keeps its particles); a single word is the family name."""
    if fn.count(",") == 1:
        surname, given_names = (part.strip() for part in fn.split(","))
        words = given_names.split()
        fields = [[surname], words[:1], words[1:], [], []]
    else:
        words = fn.split()
        prefix = [w for w in words[:1] if w.lower() in _PREFIXES and len(words) > 1]
        words = words[len(prefix) :]
        suffix = [w for w in words[-1:] if w.lower() in _SUFFIXES and len(words) > 1]
        words = words[: len(words) - len(suffix)]
        at = len(words) - 1  # where the family name starts: its particles with it
        while at > 1 and words[at - 1].lower() in _PARTICLES:
            at -= 1
        family = [" ".join(words[at:])] if words else []
        given = words[:at][:1]
        fields = [family, given, words[1:at], prefix, suffix]
    return ";".join(",".join(escape_text(w) for w in f) for f in fields)


def fn_from_name(n: str) -> str:
    """A formatted name from an N value: prefix, given, additional, family, suffix."""
    fields = [[unescape_text(v) for v in split_unescaped(f, ",")] for f in split_unescaped(n, ";")]
    fields += [[]] * (5 - len(fields))
    order = (3, 1, 2, 0, 4)
    words = [w.strip() for i in order for w in fields[i] if w.strip()]
    return " ".join(words)


def fix_names(h: Healing, card: Card, index: int) -> None:
    """FN from N (or ORG) when missing; N from FN in a 3.0 card that lacks it."""
    fn = _first(card, "FN")
    if fn is None:
        n, org = _first(card, "N"), _first(card, "ORG")
        text = ""
        if n is not None and n.cl is not None:
            text = fn_from_name(n.cl.value)
        if not text.strip() and org is not None and org.cl is not None:
            text = unescape_text(split_unescaped(org.cl.value, ";")[0])
        if text.strip():
            at = card.props[-1].span.end if card.props else card.begin.span.end
            fn = _new("FN", escape_text(text.strip()), at)
            card.props.append(fn)
            source = "N" if n is not None and fn_from_name(n.cl.value if n.cl else "").strip() else "ORG"
            h.repair("fn_derived", f"added FN:{text.strip()} to card {index}, from its {source}", at, at)
    if card.version == "3.0" and _first(card, "N") is None and fn is not None and fn.cl is not None:
        plain = unescape_text(fn.cl.value)
        if plain.strip():
            value = name_from_fn(plain)
            at = fn.span.end
            card.props.insert(card.props.index(fn) + 1, _new("N", value, at))
            h.repair("n_derived", f"added N:{value} to card {index}, read from its FN (required in 3.0)", at, at)
