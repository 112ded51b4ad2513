"""Steps on lines: fences, line breaks, indentation, blank lines, unfolding into records,
lines broken without a fold, and parameters written vCard 2.1 style (``TEL;CELL:``)."""

from __future__ import annotations

from formatbook_core import SetAside, Span
from formatbook_core.contentlines import is_fence_line
from formatbook_core.reply import set_aside_between

from ..contentlines import ContentLine, ContentLineError, parse, physical_lines
from ..typed import ESCAPED
from .state import Healing, Record


def _is_fence(line: str) -> bool:
    return is_fence_line(line.strip())


def split_lines(h: Healing) -> None:
    """The payload's physical lines into records: fences, line breaks other than CRLF,
    a uniform indentation and blank lines repaired; folded lines unfolded."""
    text = h.text
    lines = [(s, e, b) for s, e, b in physical_lines(text)]
    # blank lines around the payload are no part of it
    lead = next((k for k, (s, e, _) in enumerate(lines) if text[s:e].strip()), len(lines))
    del lines[:lead]  # at once: one pop(0) per line moved the whole list each time
    while lines and not text[lines[-1][0] : lines[-1][1]].strip():
        lines.pop()
    if lines and _is_fence(text[lines[0][0] : lines[0][1]]):
        s, e, _ = lines.pop(0)
        h.repair("fence", "took out the opening code fence", s, e)
    if lines and _is_fence(text[lines[-1][0] : lines[-1][1]]):
        s, e, _ = lines.pop()
        h.repair("fence", "took out the closing code fence", s, e)
    h.ends_with_break = bool(lines) and lines[-1][2] != ""
    bad = [(e, b) for s, e, b in lines[:-1] if b != "\r\n"]
    if bad:
        h.repair(
            "line_break",
            f"wrote {len(bad)} line break(s) as CRLF (RFC 6350 §3.2)",
            bad[0][0],
            bad[-1][0] + len(bad[-1][1]),
        )
    blank = [(s, e) for s, e, _ in lines if not text[s:e].strip()]
    if blank:
        h.repair("blank_line", f"took out {len(blank)} blank line(s)", blank[0][0], blank[-1][1])
        lines = [ln for ln in lines if text[ln[0] : ln[1]].strip()]
    lines = set_aside_between(h, lines, "prose")
    if not lines:
        return
    # a whole card indented: every line after the first starts with white space
    first = text[lines[0][0] : lines[0][1]].lstrip()
    rest = lines[1:]
    cut = 0
    if first[:6].upper() == "BEGIN:" and rest and all(text[s] in " \t" for s, _, _ in rest):
        cut = min(len(text[s:e]) - len(text[s:e].lstrip(" \t")) for s, e, _ in rest)
        h.repair("indentation", f"took out an indentation of {cut} character(s)", rest[0][0], rest[-1][1])
    else:
        lines = _dedent_properties(h, lines)
    records: list[Record] = []
    raw_parts: list[str] = []
    text_parts: list[str] = []
    span_start = span_end = 0
    clean = True
    for k, (s, e, _) in enumerate(lines):
        if k == 0:
            s += len(text[s:e]) - len(text[s:e].lstrip())
        elif cut:
            s += cut
        piece = text[s:e]
        if text_parts and piece[:1] in (" ", "\t"):
            text_parts.append(piece[1:])
            raw_parts.append(piece)
            span_end = e
            clean = clean and not cut
            continue
        if text_parts:
            records.append(_record(text_parts, raw_parts, span_start, span_end, clean))
        text_parts, raw_parts = [piece], [piece]
        span_start, span_end = s, e
        clean = True
    if text_parts:
        rec = _record(text_parts, raw_parts, span_start, span_end, clean)
        rec.broken = not h.ends_with_break
        records.append(rec)
    h.records = records


#: Property names an indented line may start with and still be read as a property (a fold
#: continuation starting with one of these followed by ":" or ";" is unlikely).
KNOWN = frozenset(
    "VERSION FN N NICKNAME PHOTO BDAY ANNIVERSARY GENDER ADR LABEL TEL EMAIL IMPP LANG TZ GEO TITLE ROLE LOGO ORG"
    " MEMBER RELATED CATEGORIES NOTE PRODID REV SOUND UID URL KEY KIND END BEGIN SOURCE NAME PROFILE MAILER AGENT"
    " CLASS SORT-STRING FBURL CALADRURI CALURI XML CLIENTPIDMAP DEATHDATE BIRTHPLACE DEATHPLACE EXPERTISE HOBBY"
    " INTEREST ORG-DIRECTORY".split()
)


def _looks_like_text(rec: Record, cl: ContentLine) -> bool:
    """A line that parses as a property but reads as text (``Agenda: discuss budget``
    after a NOTE): a name that is no vCard property, not ``X-``, not upper case."""
    name_written = rec.text[: rec.text.find(":")].split(";")[0].rpartition(".")[2]
    return cl.name not in KNOWN and not cl.name.startswith("X-") and name_written != name_written.upper()


def _property_head(line: str) -> bool:
    stop = min((i for i in (line.find(":"), line.find(";")) if i >= 0), default=-1)
    return stop > 0 and line[:stop].rpartition(".")[2].upper() in KNOWN


def _dedent_properties(h: Healing, lines: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Indented property lines inside a card that is not indented as a whole (the model
    indented its properties): when every indented line, without its indentation, starts
    with a vCard property name and ":" or ";", and there are at least two, they are
    properties, not folds: their indentation is taken out."""
    text = h.text
    indented = [(s, e, b) for s, e, b in lines[1:] if text[s] in " \t"]
    if len(indented) < 2 or not all(_property_head(text[s:e].lstrip(" \t")) for s, e, _ in indented):
        return lines
    h.repair(
        "indentation",
        f"took out the indentation of {len(indented)} property line(s)",
        indented[0][0],
        indented[-1][1],
    )
    out = []
    for s, e, b in lines:
        piece = text[s:e]
        out.append((s + len(piece) - len(piece.lstrip(" \t")), e, b))
    return out


def _record(text_parts: list[str], raw_parts: list[str], start: int, end: int, clean: bool) -> Record:
    return Record("".join(text_parts), Span(start, end), "\r\n".join(raw_parts) if clean else None)


def relaxed_parse(h: Healing, rec: Record) -> ContentLine | None:
    """``rec`` as a content line, ``TEL;CELL:`` read as ``TEL;TYPE=CELL:`` (repaired);
    ``None`` when it is no content line."""
    try:
        return parse(rec.text)
    except ContentLineError:
        pass
    fixed = _type_params(rec.text)
    if fixed is None:
        return None
    try:
        cl = parse(fixed)
    except ContentLineError:
        return None
    rec.set(fixed)
    h.repair("type_param", "wrote a parameter without a name as TYPE=… (vCard 3.0 and 4.0 name it)", *rec.span)
    return cl


def _type_params(text: str) -> str | None:
    """``text`` with each bare parameter (``;CELL``) written ``;TYPE=CELL``, or ``None``."""
    colon = text.find(":")
    if colon < 0 or '"' in text[:colon]:
        return None
    head, value = text[:colon], text[colon:]
    parts = head.split(";")
    if len(parts) < 2:
        return None
    changed = False
    for i in range(1, len(parts)):
        if "=" not in parts[i] and parts[i].strip():
            parts[i] = "TYPE=" + parts[i].strip()
            changed = True
    return ";".join(parts) + value if changed else None


def join_broken(h: Healing) -> None:
    """Parse each record. A line that is no content line inside a card continues the
    property before it, broken without a fold: in a text value the break was a newline of
    the value (kept, escaped as ``\\n`` later), elsewhere the line goes on as it is. Lines
    that are no content line outside a card are prose: set aside."""
    out: list[Record] = []
    in_card = False
    for rec in h.records:
        cl = relaxed_parse(h, rec)
        prev = out[-1] if out else None
        if (
            cl is not None
            and in_card
            and prev is not None
            and prev.cl is not None
            and prev.cl.name in ESCAPED
            and _looks_like_text(rec, cl)
        ):
            cl = None  # a line of the text value before it
        if cl is not None:
            rec.cl = cl
            if cl.name == "BEGIN":
                in_card = True
            elif cl.name == "END":
                in_card = False
            out.append(rec)
            continue
        if rec.broken and in_card:
            out.append(rec)  # a cut line: the truncation step decides
            continue
        if _is_fence(rec.text):
            # markup around the cards, not a line of a value: taken out, never joined to one
            h.repair("fence", "took out a code fence line between the payload's lines", *rec.span)
            continue
        if in_card and prev is not None and prev.cl is not None and prev.cl.name not in ("BEGIN", "END", "VERSION"):
            # a text value keeps the newline (escaped by the values step; an X- property's
            # value is text unless it says otherwise); a URI or base64 goes on as it is
            x_text = prev.cl.name.startswith("X-") and not prev.cl.param("VALUE") and not prev.cl.param("ENCODING")
            glue = "\n" if prev.cl.name in ESCAPED else ("\\n" if x_text else "")
            prev.set(prev.text + glue + rec.text)
            prev.cl = ContentLine(prev.cl.name, prev.cl.value + glue + rec.text, prev.cl.params, prev.cl.group)
            prev.span = Span(prev.span.start, rec.span.end)
            prev.broken = rec.broken
            what = "a newline of the value" if glue else "the same value"
            h.repair("line_joined", f"joined a line broken without a fold to {prev.cl.name} ({what})", *rec.span)
            continue
        h.set_aside.append(SetAside("prose", rec.text, rec.span))
        h.repair("prose", f"set aside a line that is no property: {rec.text[:40]!r}", *rec.span)
    h.records = out
