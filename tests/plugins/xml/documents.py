"""XML texts for the differential tests: the project's fixtures and samples, the XML files
lxml ships, the conformance corpus when one is there, generated documents like the replies
models write, and those documents damaged the ways models and fuzzers damage them; and the
reading the tests compare with (:func:`scanner_first`)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import lxml

from formatbook_core import get_format
from formatbook_core.limits import Limits
from formatbook_xml.parser import parse
from formatbook_xml.scan import Scanner
from formatbook_xml.syntax import depth_limit, problem_violation, scan_violation

FIXTURES = Path(__file__).parent / "fixtures"
WORDS = ["the", "report", "AT&amp;T", "a &lt; b", "caf\u00e9", "&#233;", "&#x263A;", "x]y", "q&quot;s", "\u2014", "1.5"]
NAMES = ["r", "item", "title", "body", "a:b", "x-y", "br", "img", "\u00e9l\u00e9ment", "code", "p", "Item"]
# what models and fuzzers break XML with, inserted at random places
DAMAGE = [
    "&", "AT&T", "a < b", "<", "&nbsp;", "&eacute;", "]]>", "\x01", "\ufffe", "&#0;", "&#xD800;", "&#65",
    "<br>", "<hr/>", "</title>", "</Title>", "</r>", "<b><i>x</b></i>", " k=v", ' k="1" k="2"', "<x id=3>",
    "<!-- c -->", "<!-- a -- b -->", "<![CDATA[x]]>", "<?pi x?>", "<?xml version='1.0'?>", "<?XML x?>",
    "<!DOCTYPE r>", "<!DOCTYPE r [<!ENTITY e 'x'>]>", "<!D", "<!d", "\ufeff", "\r\n", "\r", "<a:b/>",
    '<r xmlns:a="u" a:k="1" a:k="2"/>', "<p:q>", "</", "<!", "<a\n", "'", '"', "=", "/>", ">",
]  # fmt: skip


def files() -> Iterator[tuple[str, str]]:
    """``(name, text)`` of every real XML file at hand: the fixtures (replies, healed
    replies, schemas), lxml's own XSLT and RelaxNG files, and the XML conformance corpus
    in ``$FORMATBOOK_CONFORMANCE_DIR/xml`` when it is there."""
    roots = [FIXTURES, Path(lxml.__file__).parent]
    base = os.environ.get("FORMATBOOK_CONFORMANCE_DIR")
    if base and (Path(base) / "xml").is_dir():
        roots.append(Path(base) / "xml")
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".xml", ".xsd", ".rng", ".xsl", ".txt") and path.is_file():
                data = path.read_bytes()
                if len(data) <= 2_000_000:
                    yield str(path), data.decode("utf-8", "replace")
    for i, sample in enumerate(get_format("xml").samples):
        yield f"sample {i}", sample


def document(rng: random.Random, size: int = 2_000, depth: int = 6) -> str:
    """A well-formed document of about ``size`` characters, like a model's reply: nested
    elements with attributes, prose with references, comments, CDATA, PIs."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n' if rng.random() < 0.5 else "", "<r>"]
    stack = ["r"]
    total = 0
    while total < size:
        roll = rng.random()
        if roll < 0.25 and len(stack) < depth:
            name = rng.choice(NAMES)
            attrs = "".join(f' k{i}="{rng.choice(WORDS)}"' for i in range(rng.randint(0, 2)))
            if ":" in name:
                attrs += ' xmlns:a="urn:a"'
            if rng.random() < 0.2:
                piece = f"<{name}{attrs}/>"
            else:
                piece = f"<{name}{attrs}>"
                stack.append(name)
        elif roll < 0.45 and len(stack) > 1:
            piece = f"</{stack.pop()}>"
        elif roll < 0.5:
            piece = rng.choice(["<!-- note -->", "<![CDATA[if (a < b && c) {}]]>", "<?render fast?>", "\n  "])
        else:
            piece = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30)))
        out.append(piece)
        total += len(piece)
    out.extend(f"</{name}>" for name in reversed(stack))
    out.append("\n" if rng.random() < 0.5 else "")
    return "".join(out)


def damaged(rng: random.Random, text: str, times: int = 1) -> str:
    """``text`` with ``times`` pieces of :data:`DAMAGE` inserted, a character dropped or
    the end cut off, at random places."""
    for _ in range(times):
        at = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.75:
            text = text[:at] + rng.choice(DAMAGE) + text[at:]
        elif roll < 0.9:
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at]
    return text


def deep(rng: random.Random) -> str:
    """A document nested about as deep as libxml2 allows (256), give or take."""
    n = rng.choice([3, 50, 254, 255, 256, 257, 300])
    return "<a>" * n + rng.choice(["x", "", "&amp;"]) + "</a>" * n


def scanner_first(text: str, limits: Limits, *, explain: bool = True, read: object = None) -> tuple[object, list]:
    """``check_syntax`` as it was before lxml read first (issue 29): the scanner over the
    whole text, then lxml on what it accepted (``explain`` and ``read`` are taken and
    ignored: this is also the reading healing did)."""
    scanner = Scanner(depth_limit(limits))
    scanner.feed(text)
    problem = scanner.end_problem()
    if problem is not None:
        return None, [scan_violation(text, problem)]
    root, problems = parse(text)
    if root is None:
        return None, [problem_violation(text, p) for p in problems]
    return root, []
