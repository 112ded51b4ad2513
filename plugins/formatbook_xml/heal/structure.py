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

from ..markup import CDATA, COMMENT, DOCTYPE, EMPTY, PI, START, STRAY, TEXT, tokens
from ..syntax import depth_limit
from .state import Healing, fail
from .tags import fix_start_tag
from .text import fix_text

#: HTML void elements a model writes unclosed in XML (``Hello <br> world``): one left open
#: when its parent closes (or the text ends) was never a container, so its start tag is
#: closed in place (``<br/>``) rather than wrapped around the text after it. ``link``,
#: ``meta``, ``source`` hold text in RSS and other vocabularies: not listed.
VOID = frozenset({"br", "hr", "img", "wbr", "input"})

_PLAIN_DOCTYPE = re.compile(r"<!DOCTYPE[ \t\r\n]+[^\s\[>]+[ \t\r\n]*>\Z")


def repair_structure(h: Healing) -> None:  # noqa: C901 - one walk, one branch per token kind
    text = h.text
    out: list[str] = []
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
    for tok in tokens(text):
        kind, start, end = tok.kind, tok.start, tok.end
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
            out.append(fix_text(h, piece, start))
            seen_content = True
            continue
        if kind == STRAY:
            if not stack:
                raise fail("a stray '<' outside the root element", "xml.heal", start, end)
            h.repair("escaped_lt", "escaped a raw '<' in text as &lt;", start, end)
            out.append("&lt;")
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
                written[start] = len(out) - 1
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
    n = len(text)
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
    h.out = "".join(out).strip(" \t\r\n")


def _close_void(
    h: Healing, out: list[str], written: dict[int, int], open_: list[tuple[str, int]]
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
