"""The walk that repairs structure: one pass over the tolerant tokens (:mod:`..markup`).

* an XML declaration not at the start: white space before it is removed; one after other
  content is removed (it declares nothing there);
* a closing tag differing only in case is written as the element was opened, but for a
  root whose two tags differ in case where a schema names the root in one of its cases:
  both take the schema's spelling (``<Order>…</order>`` under root ``order``);
* misnested tags (``<b><i></b></i>``): the inner element is closed where the outer one
  closes, and its own closing tag, arriving later, is removed;
* a raw ``<`` in text is escaped; text and tags go through :mod:`.text` and :mod:`.tags`;
* markup cut by the end of the text (a tag, a comment, CDATA, a processing instruction)
  is closed when its content can be kept (comment, CDATA, PI) or removed when it is an
  unfinished tag; elements still open at the end are closed (``truncated_*`` repairs);
* several root elements are wrapped in one element (``Healing.wrapper``).

It refuses (``HealError``): text outside the root element, a closing tag that matches no
open element, one that closes through two unclosed elements of one name, one inside the
other (``<li>one<li>two</ul>``: siblings or nested?), a DOCTYPE with an internal subset or
an external identifier, no element.
"""

from __future__ import annotations

import re
from itertools import pairwise

from formatbook_core import HealError
from formatbook_core.healing import Written
from formatbook_core.runs import run

from ..markup import CDATA, COMMENT, DOCTYPE, EMPTY, PI, START, STRAY, TEXT, tokens
from ..parser import parse
from ..scan import BAD_CHARS, NAME_CHARS, NAME_START, NAME_START_CHARS
from ..syntax import DOCTYPE as DOCTYPE_OPEN
from ..syntax import deeper_than, depth_limit, holds
from .state import Healing, fail
from .tags import fix_start_tag
from .text import write_text

#: HTML void elements a model writes unclosed in XML (``Hello <br> world``): one left open
#: when its parent closes (or the text ends) was never a container, so its start tag is
#: closed in place (``<br/>``) rather than wrapped around the text after it. ``link``,
#: ``meta``, ``source`` hold text in RSS and other vocabularies: not listed.
VOID = frozenset({"br", "hr", "img", "wbr", "input"})

_PLAIN_DOCTYPE = re.compile(r"<!DOCTYPE[ \t\r\n]+[^\s\[>]+[ \t\r\n]*>\Z")

# A clean stretch: what the walk would copy unchanged, taken by one match instead of a
# token object and a repair check per piece: clean text (nothing to escape: only the five
# predefined references, no ']]>', no character XML refuses), comments and CDATA sections,
# up to the next tag, and that tag if it is clean (a start, empty or end tag whose
# attributes are quoted, spaced and hold nothing to escape). Every part is linear: each
# repetition opens with a character the part before it cannot take, and the tag is
# optional, so a match never backtracks into the stretch. (Taking whole leaf elements in
# the match, with a back-reference for their end tags, made fewer matches but slower ones.)
_NAME = f"[{NAME_START_CHARS}][{NAME_CHARS}]*"
_WSC = "[ \t\r\n]"
_REFS = "&(?:lt|gt|amp|apos|quot);"
_TEXT = f"[^<&\\]{BAD_CHARS}]*(?:(?:{_REFS}|\\](?!\\]>))[^<&\\]{BAD_CHARS}]*)*"
_MARKED = "<!--(?:[^-]|-(?!->))*-->|<!\\[CDATA\\[(?:[^\\]]|\\](?!\\]>))*\\]\\]>"


def _value(quote: str) -> str:
    plain = f"[^{quote}<&{BAD_CHARS}]*"
    return f"{quote}{plain}(?:{_REFS}{plain})*{quote}"


_ATTR = f"{_WSC}+{_NAME}{_WSC}*={_WSC}*(?:{_value(chr(34))}|{_value(chr(39))})"
#: groups: 1 a start or empty tag's name, 2 its attributes, 3 "/" for an empty tag, 4 an
#: end tag's name; the last group matched (``lastindex``) is 3 for a start or empty tag,
#: 4 for an end tag, none when the stretch stops before anything else or at the end
_CLEAN = run(f"{_TEXT}(?:(?:{_MARKED}){_TEXT})*(?:<({_NAME})((?:{_ATTR})*){_WSC}*(/?)>|</({_NAME}){_WSC}*>)?")
_MARKUP_OPENERS = ("!", "?", "/")
# Many clean stretches and clean tags in one match, the stack not followed (see
# :func:`_escape_only`): every repetition opens with ``<``, which no text run holds.
# Processing instructions too, but one whose target may be an XML declaration's.
_TAGS = f"<{_NAME}(?:{_ATTR})*{_WSC}*/?>|</{_NAME}{_WSC}*>|<\\?(?![xX][mM][lL])(?:[^?]|\\?(?!>))*\\?>"
_BULK = run(f"{_TEXT}(?:(?:{_MARKED}|{_TAGS}){_TEXT})*")
#: a text that may take the escaping-only path: an optional XML declaration, white space,
#: and the root's start tag, clean and not empty (group 1 its name)
_OPENING = re.compile(f"(?:<\\?xml{_WSC}[^<>?]*\\?>)?{_WSC}*<({_NAME})(?:{_ATTR})*{_WSC}*>")
_ATTR_NAMES = re.compile(f"({_NAME}){_WSC}*={_WSC}*(?:\"[^\"]*\"|'[^']*')")


def repair_structure(h: Healing) -> None:  # noqa: C901 - one walk, one branch per token kind
    if _escape_only(h):
        return
    text = h.text
    # refused (the core's reply.too_large) at the piece that takes the text past max_size
    out = Written(h.limits.max_size, strip=" \t\r\n")
    stack: list[tuple[str, int]] = []  # open elements: name, offset of their start tag
    # elements closed at a misnested end tag, whose own end tag is still to come: by name in
    # lower case, the names as written, latest last (a look-up, not a scan per end tag)
    closed_early: dict[str, list[str]] = {}
    roots = 0
    first_root_out: int | None = None  # index in ``out`` where the first root starts
    last_root_out = 0  # length of ``out`` when the last root ended
    limit = depth_limit(h.limits)
    seen_content = False  # anything but white space before (for the XML declaration)
    written: dict[int, int] = {}  # start offset of an open void element -> its index in ``out``
    root_out = 0  # index in ``out`` of the current root's start tag
    # the root a simple schema names: the spelling a root written in two cases takes
    wanted = h.schema.root if h.schema is not None and h.schema.kind == "simple" else None
    pos = 0
    n = len(text)
    while pos < n:
        if stack:  # inside the root: the clean stretch from here is copied as it stands
            pos = _copy_clean(h, pos, stack, out, written, limit)
            if pos >= n:
                break
        tok = next(tokens(text, pos))
        kind, start, end = tok.kind, tok.start, tok.end
        pos = end
        piece = text[start:end]
        if kind == TEXT:
            if not stack:
                if piece.strip():
                    where = "after" if roots else "before"
                    raise fail(
                        f"text {where} the root element", "xml.heal", start + len(piece) - len(piece.lstrip()), end
                    )
                if not seen_content and start == 0 and text.startswith("<?xml", end) and _decl_at(text, end):
                    h.repair("xml_declaration", "removed white space before the XML declaration", start, end)
                    continue
                out.append(piece)
                continue
            write_text(h, piece, start, out)
            seen_content = True
            continue
        if kind == STRAY:
            if not stack:
                raise fail("a stray '<' outside the root element", "xml.heal", start, end)
            _escape_stray(h, out, start)
            continue
        if kind == PI:
            if tok.name.lower() == "xml" and _decl_at(text, start):
                if seen_content or stack or roots:
                    h.repair("xml_declaration", "removed an XML declaration that was not at the start", start, end)
                    continue
                if tok.cut:
                    raise fail("the XML declaration is cut off", "xml.heal", start, end)
            if tok.cut:
                h.repair("truncated_pi", "closed a processing instruction cut off by the end of the text", end, end)
                piece += "?>"
            out.append(piece)
            seen_content = True
            continue
        if kind == COMMENT:
            if tok.cut:
                h.repair("truncated_comment", "closed a comment cut off by the end of the text", end, end)
                piece = piece.rstrip("-") + " -->" if piece.endswith("-") else piece + " -->"
            out.append(piece)
            seen_content = True
            continue
        if kind == CDATA:
            if not stack:
                raise fail("CDATA outside the root element", "xml.heal", start, end)
            if tok.cut:
                h.repair("truncated_cdata", "closed a CDATA section cut off by the end of the text", end, end)
                piece += "]]>"
            out.append(piece)
            continue
        if kind == DOCTYPE:
            if tok.cut or not _PLAIN_DOCTYPE.match(piece) or roots or stack:
                raise fail(
                    "a DOCTYPE with an internal subset or an external DTD (or misplaced) is refused",
                    "xml.doctype",
                    start,
                    end,
                )
            out.append(piece)
            seen_content = True
            continue
        if kind in (START, EMPTY):
            if tok.cut:
                h.repair("truncated_tag", f"removed the tag <{tok.name} cut off by the end of the text", start, end)
                continue
            if not stack:
                roots += 1
                if first_root_out is None:
                    first_root_out = len(out)
                root_out = len(out)
            out.append(fix_start_tag(h, piece, start))
            seen_content = True
            if kind == START and tok.name.lower() in VOID:
                _open_void(out, written, start)
            if kind == START:
                if len(stack) >= limit:
                    raise fail(f"elements nested deeper than {limit}", "xml.too_deep", start, end)
                stack.append((tok.name, start))
            elif not stack:
                last_root_out = len(out)
            continue
        # END
        if tok.cut:
            h.repair(
                "truncated_tag", f"removed the closing tag </{tok.name} cut off by the end of the text", start, end
            )
            continue
        name = tok.name
        if stack and stack[-1][0] == name:
            stack.pop()
            out.append(piece)
        elif stack and stack[-1][0].lower() == name.lower():
            right, opened = stack.pop()
            if not stack and wanted is not None and wanted.lower() == name.lower() and right != wanted:
                # the root's tags differ in case: the schema's spelling, not the start tag's
                out[root_out] = out[root_out].replace(f"<{right}", f"<{wanted}", 1)
                h.repair(
                    "close_tag_case",
                    f"wrote <{right}> as <{wanted}>, the root the schema names",
                    opened,
                    opened + 1 + len(right),
                )
                right = wanted
            if right != name:
                h.repair(
                    "close_tag_case", f"wrote </{name}> as </{right}>, the case the element was opened with", start, end
                )
            out.append(f"</{right}>")
        elif closed_early.get(name.lower()):
            match = closed_early[name.lower()].pop()
            h.repair(
                "misnested", f"removed </{name}>: <{match}> was already closed where its parent closed", start, end
            )
            continue
        else:
            depth = _find(stack, name)
            if depth is None:
                raise fail(f"the closing tag </{name}> matches no open element", "xml.mismatched_tag", start, end)
            inner = _close_void(h, out, written, stack[depth + 1 :])
            for (outer_name, _), (inner_name, _) in pairwise(inner):
                if outer_name.lower() == inner_name.lower():  # <li>one<li>two</list>
                    raise fail(
                        f"</{name}> closes <{outer_name}> elements never closed, one inside the other: "
                        "siblings (HTML-style) or nested, the text does not say",
                        "xml.heal",
                        start,
                        end,
                    )
            del stack[depth + 1 :]
            for inner_name, _ in reversed(inner):
                closed_early.setdefault(inner_name.lower(), []).append(inner_name)
                out.append(f"</{inner_name}>")
            if inner:
                h.repair(
                    "misnested",
                    "closed " + ", ".join(f"<{n}>" for n, _ in reversed(inner)) + f" before </{name}> (misnested tags)",
                    start,
                    start,
                )
            right = stack.pop()[0]
            if right != name:
                h.repair(
                    "close_tag_case", f"wrote </{name}> as </{right}>, the case the element was opened with", start, end
                )
            out.append(f"</{right}>")
        if not stack:
            last_root_out = len(out)
    stack = _close_void(h, out, written, stack)
    if stack:
        names = [name for name, _ in reversed(stack)]
        h.repair(
            "truncated_element",
            "closed " + ", ".join(f"<{x}>" for x in names) + " left open at the end of the text",
            n,
            n,
        )
        out.extend(f"</{x}>" for x in names)
        last_root_out = len(out)
    if roots == 0:
        raise fail("no XML element in the text", "xml.empty")
    if roots > 1 and first_root_out is not None:
        wrapper = h.wrapper
        out.insert(last_root_out, f"</{wrapper}>")
        out.insert(first_root_out, f"<{wrapper}>")
        h.repair("wrapped_roots", f"wrapped the {roots} top-level elements in <{wrapper}>", 0, n)
    # white space around the document is not part of it (locate takes the payload without
    # it): a repaired text that kept it would be trimmed again by the next check
    h.out = out.text()


def _copy_clean(
    h: Healing, pos: int, stack: list[tuple[str, int]], out: Written, written: dict[int, int], limit: int
) -> int:
    """Walk ``h.text`` from ``pos`` inside the root (``stack`` is not empty) as far as it
    goes with the commonest pieces, exactly as the token walk would: a clean stretch (see
    :data:`_CLEAN`) is copied to ``out`` in one slice, text to escape goes through
    :func:`.text.write_text`, a ``<`` opening no markup is escaped; ``stack`` (and
    ``written``, for the void elements it opens) kept as the walk keeps them. Returns where
    it stops: the next token the walk must look at (a tag to repair, an attribute repeated,
    an end tag not closing the innermost element or closing the root, an element past the
    depth limit, a PI...), or the end of the text."""
    text = h.text
    n = len(text)
    copied = pos
    match = _CLEAN.match
    while len(stack) < limit:  # (at the limit, an element opening must fail as the walk fails it)
        m = match(text, pos)  # (always matches: every part is optional)
        end = m.end()
        tag = m.lastindex
        if tag == 3:  # a start or empty tag
            name, attrs, empty = m.group(1, 2, 3)
            at = m.start(1) - 1
            if attrs and attrs.count("=") > 1:
                names = _ATTR_NAMES.findall(attrs)
                if len(set(names)) != len(names):
                    pos = at
                    break
            if not empty:
                if name.lower() in VOID:  # its own piece: closed in place if left open
                    out.append(text[copied:at])
                    out.append(text[at:end])
                    _open_void(out, written, at)
                    copied = end
                stack.append((name, at))
            pos = end
            continue
        if tag == 4:  # an end tag
            if len(stack) < 2 or stack[-1][0] != m.group(4):
                pos = m.start(4) - 2
                break
            stack.pop()
            pos = end
            continue
        pos = end  # the stretch ends before something else, or at the end of the text
        if end >= n:
            break
        if text[end] != "<":  # text to escape: as the walk mends a text token (from here on)
            lt = text.find("<", end)
            if lt < 0:
                lt = n
            if end > copied:
                out.append(text[copied:end])
            write_text(h, text[end:lt], end, out)
            pos = copied = lt
            continue
        nxt = text[end + 1 : end + 2]
        if nxt in _MARKUP_OPENERS or NAME_START.match(nxt):
            break  # markup for the walk
        if end > copied:  # a '<' opening nothing (the tokens' STRAY): escaped
            out.append(text[copied:end])
        _escape_stray(h, out, end)
        pos = copied = end + 1
    if pos > copied:
        out.append(text[copied:pos])
    return pos


def _escape_only(h: Healing) -> bool:
    """Heal ``h.text`` when escaping its text is all the walk would do, without the walk.

    Most damaged replies are well-formed but for a raw ``&`` or ``<`` (or an HTML entity,
    or ``]]>``) in text. Here the text from the root's start tag is taken in long clean
    matches (:data:`_BULK`, which follows no stack), each spot of text between them is
    mended by :func:`.text.write_text` or :func:`_escape_stray`, as the walk mends it, and
    lxml reads the result once. When it is well-formed, the walk would have made exactly
    these repairs: each other repair the walk makes (a closing tag's case, misnesting,
    truncation, several roots, a declaration's place, a void element left open, a start
    tag's quotes) mends what lxml refuses, and this path writes every tag as it stands.
    The mended spots are inside the root: the text opens with the root's start tag (after
    a declaration and white space) and ends with its end tag. Then ``h.out`` and
    ``h.root`` (its tree, which :func:`.steps.confirm` takes) are set and ``True`` is
    returned; otherwise nothing is kept (``False``) and the walk heals the text. Not
    taken either at other markup to look at (a DOCTYPE, a tag to repair, one cut off, a
    PI that may be an XML declaration)."""
    text = h.text
    opening = _OPENING.match(text)
    if opening is None:
        return False
    # the root's end tag (white space allowed before its '>') ends the text, found in its
    # last characters (no pattern made for the name)
    name = opening.group(1)
    tail = text.rstrip(" \t\r\n")
    last = tail[max(0, len(tail) - len(name) - 64) :]
    if not (last.endswith(">") and last[:-1].rstrip(" \t\r\n").endswith("</" + name)):
        return False
    before = len(h.repairs)
    out = Written(h.limits.max_size, strip=" \t\r\n")
    n = len(text)
    pos = copied = opening.end()
    match = _BULK.match
    try:
        out.append(text[:pos])  # the declaration, white space, the root's start tag: as they stand
        while True:
            end = match(text, pos).end()
            if end >= n:
                break
            if text[end] == "<":
                nxt = text[end + 1 : end + 2]
                if nxt in _MARKUP_OPENERS or NAME_START.match(nxt):
                    raise _NotOnlyText  # markup for the walk
                out.append(text[copied:end])
                _escape_stray(h, out, end)
                pos = copied = end + 1
                continue
            lt = text.find("<", end)
            if lt < 0:
                lt = n
            out.append(text[copied:end])
            write_text(h, text[end:lt], end, out)
            pos = copied = lt
        out.append(text[copied:])
    except (_NotOnlyText, HealError):  # HealError: past max_size, where the walk may refuse otherwise
        del h.repairs[before:]
        return False
    healed = out.text()
    # what check_syntax answers a text within max_size and without a DOCTYPE that lxml
    # parses (lxml reads it first), without its scanner's explaining pass when lxml does not
    root = None if len(healed) > h.limits.max_size or holds(healed, DOCTYPE_OPEN) else parse(healed)[0]
    if root is None or deeper_than(root, depth_limit(h.limits)):
        del h.repairs[before:]
        return False
    h.out, h.root = healed, root
    return True


class _NotOnlyText(Exception):
    """The text needs more than escaping (see :func:`_escape_only`)."""


def _escape_stray(h: Healing, out: list[str], at: int) -> None:
    """Escape the ``<`` at ``at`` that opens no markup, inside the root."""
    h.repair("escaped_lt", "escaped a raw '<' in text as &lt;", at, at + 1)
    out.append("&lt;")


def _open_void(out: Written, written: dict[int, int], at: int) -> None:
    """Note the void element whose start tag (at ``at`` of the text) was the last piece
    written: :func:`_close_void` may close it in place, which can make it shorter."""
    index = written[at] = len(out) - 1
    tag = out[index]
    out.allow(len(tag) - len(tag[:-1].rstrip()) - 2)


def _close_void(
    h: Healing, out: Written, written: dict[int, int], open_: list[tuple[str, int]]
) -> list[tuple[str, int]]:
    """``open_`` (elements about to be closed where their parent closes, or at the end)
    without the void ones (:data:`VOID`), whose start tags are closed in place."""
    kept = []
    for name, at in open_:
        index = written.get(at)
        if index is None or not out[index].endswith(">"):
            kept.append((name, at))
            continue
        out[index] = out[index][:-1].rstrip() + "/>"
        h.repair("void_element", f"wrote <{name}> as <{name}/>: an HTML void element holds no content", at, at)
    return kept


def _decl_at(text: str, start: int) -> bool:
    """Whether the processing instruction at ``start`` is an XML declaration (``<?xml`` and
    white space or ``?>``), not a PI such as ``<?xml-stylesheet``."""
    return text[start + 5 : start + 6] in (" ", "\t", "\r", "\n", "?", "")


def _find(stack: list[tuple[str, int]], name: str) -> int | None:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0] == name:
            return i
    lower = name.lower()
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0].lower() == lower:
            return i
    return None
