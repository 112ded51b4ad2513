"""Where the YAML sits in a reply: the candidate payloads, best first.

The rules are the README's "Choosing the payload".
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from itertools import accumulate

from formatbook_core import Span
from formatbook_core.reply import Reply
from formatbook_core.spans import overlaps_any, strip_span

from .loading import PARSER_DEPTH, YamlError, compose
from .prose import labelled_sentence

_TAGS = {"yaml", "yml"}
# a line that opens YAML data at the margin: an item, a marker, a flow collection, a key
# (a word or a quoted key, then ": " or ":" at the end; a plain key may hold a ':' that no
# space follows, as YAML reads "a::" and "http://x: 1"); linear: each repetition is one
# character (a ':' only with a lookahead of one), at most 200 of them from a line start
_DATA = re.compile(
    r"""(?:-(?:[ \t]|$)|---|\{|\[|"[^"\n]{0,200}"[ \t]*:(?:[ \t]|$)|'[^'\n]{0,200}'[ \t]*:(?:[ \t]|$)|[^\s:#"'\-\[\]{}](?:[^:\n]|:(?=[^ \t\n])){0,200}?:(?:[ \t]|$))"""
)


def _is_prose_key(line: str, next_line: str | None) -> bool:
    """ "Here is the YAML:" — a sentence ending with a colon, not a parent key."""
    body = line.rstrip()
    if not body.endswith(":") or len(body[:-1].split()) < 3:
        return False
    return next_line is None or not next_line[:1].isspace() or next_line.strip() == ""


def _prose_like(line: str) -> bool:
    """A line at the margin that reads as a sentence, not as YAML syntax."""
    first = line[:1]
    return first.isalnum() or first in "(\u201c\u00ab\u00bf\u00a1" or line.startswith("**")


def _sentence(line: str) -> bool:
    """Prose after the data reads as a sentence: three words or more, or an ending in
    ``. ! ? :``. A short line (``cherries`` under ``- bananas``, ``age 36``) is data
    the writer got wrong or a cut-off line: healing judges it, it is not set aside."""
    body = line.strip()
    return len(body.split()) >= 3 or body.endswith((".", "!", "?", ":"))


def trimmed(reply: str, span: Span) -> Span:
    """``span`` of ``reply`` without its leading and trailing prose lines."""
    text = reply[span.start : span.end]
    raw = text.split("\n")
    # each line's offset, 8 bytes a line (a list of ints and a second split took about 25
    # bytes a character on a reply of short lines)
    offsets = array("q", accumulate((len(line) + 1 for line in raw), initial=0))
    lines = [line.removesuffix("\r") for line in raw]
    del raw
    following: list[str | None] = [None] * len(lines)  # the next non-blank line after each
    for i in range(len(lines) - 2, -1, -1):
        following[i] = lines[i + 1] if lines[i + 1].strip() else following[i + 1]
    first = None
    for i, line in enumerate(lines):
        if line.strip() == "" or line.lstrip().startswith("#"):
            continue
        if _DATA.match(line) and not _is_prose_key(line, following[i]) and not _noted(lines, i):
            first = i
            break
        if i and line[:1] in " \t" and _DATA.match(line.lstrip(" \t")):
            # data indented under the prose set aside ("Sure thing", "  a: 1"): healing
            # moves it to the margin, and the healed text would be trimmed here anyway
            first = i
            break
        if line[:1].isspace() or not _prose_like(line):  # not prose to skip: keep it all
            return span
    if first is None:
        return span
    while first > 0 and lines[first - 1].startswith("#"):
        first -= 1  # comment lines right above the data belong to it (healing keeps them)
    last = first
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if line.strip() == "" or line[:1].isspace() or line.startswith("#"):
            continue
        if lines[i - 1].strip() == "" and _noted(lines, i):
            break  # a note after the data: "Note: you can change it later."
        if _DATA.match(line) or not _prose_like(line) or not _sentence(line):
            last = i
            continue
        break
    else:
        last = len(lines) - 1
    # the data runs to the last non-blank line before the prose
    end_line = last
    for i in range(last, len(lines)):
        if i > last and lines[i][:1] not in (" ", "\t", "#", "") and lines[i].strip():
            break
        if lines[i].strip():
            end_line = i
    if lines[end_line].split(" #", 1)[0].rstrip().endswith(":") and any(x.strip() for x in lines[end_line + 1 :]):
        # "Steps:" over a numbered list, "bio:" over "Loves maths": the lines after may be
        # that key's value (a heading of the prose, or a value at the key's margin), so
        # the reply is not trimmed into a key of null
        return span
    start = span.start + offsets[first]
    end = span.start + offsets[end_line] + len(lines[end_line])
    return strip_span(reply, Span(start, end))


def _noted(lines: list[str], at: int) -> bool:
    """``lines[at]`` opens a note: a paragraph (up to a blank line) of labelled sentences
    (``Note: you can change it later.``) and sentences, at the margin, that either follows
    prose, stands apart from the data by a blank line, or is all there is (a mention is
    not a payload: see :mod:`.prose`)."""
    if not labelled_sentence(lines[at]):
        return False
    end = at
    while end < len(lines) and lines[end].strip():
        line = lines[end]
        if not (labelled_sentence(line) or (_prose_like(line) and _sentence(line) and not _DATA.match(line))):
            return False
        end += 1
    prose_before = (
        at > 0 and lines[at - 1].strip() != "" and _prose_like(lines[at - 1]) and not _DATA.match(lines[at - 1])
    )
    return prose_before or end == len(lines) or not lines[end].strip()


def _sentences(text: str) -> bool:
    """Every non-blank line of ``text`` reads as a sentence (three words or more, or an
    ending in . ! ? :)."""
    for line in text.split("\n"):
        line = line.strip()
        if line and len(line.split()) < 3 and not line.endswith((".", "!", "?", ":")):
            return False
    return True


def _sentences_around(reply: str, outer: Span, inner: Span) -> bool:
    """Every non-blank line cut off by ``inner`` reads as a sentence."""
    return _sentences(reply[outer.start : inner.start] + "\n" + reply[inner.end : outer.end])


def _payloads(text: str, span: Span, inner: Span, valid: bool) -> list[Span]:
    """``span`` (a fenced body, or the reply) and ``inner`` (it trimmed), best first.

    A valid text keeps its first and last lines unless they read as sentences; then the
    text without them comes first and the text as written after it. A text that is not
    valid is tried trimmed, then whole (for healing), unless a heading was set aside
    before it ("Here is the list:", lines that read as sentences): healing never turns
    that heading into a key (``{'Here is the list': ['a']}``, a cut-off line dropped),
    which the healed text, located again, would lose (two values for one reply)."""
    if inner == span:
        return [span]
    if valid:
        return [inner, span] if _sentences_around(text, span, inner) else [span]
    if inner.start > span.start and _sentences(text[span.start : inner.start]):
        return [inner]
    return [inner, span]


#: How many indented tags are read against the data around them, at most (each reading
#: parses the text around it again): ``Reply.notes_around_data``'s ``limit``.
MAX_INDENTED_TAGS = 4


_HOLDING = ("|", ">", '"', "'")  # scalar styles: literal, folded, double- and single-quoted


def _in_a_scalar(text: str, at: int) -> bool:
    """``text`` composes as YAML and ``at`` lies inside one of its block or quoted scalars."""
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    try:
        todo = compose(text, PARSER_DEPTH)
    except YamlError:
        return False
    seen: set[int] = set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            # a plain scalar may end before the tag as well as go on through it: only a
            # block or quoted scalar holds it without doubt
            if node.style in _HOLDING and node.start_mark.index < at < node.end_mark.index:
                return True
        elif isinstance(node, MappingNode):
            todo.extend(x for pair in node.value for x in pair)
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)
    return False


def _thoughts(reply: Reply, is_valid: Callable[[str], bool]) -> list[Span]:
    """The blocks the reply sets aside, without those whose opening tag, indented under
    the data, lies inside one of its values: ``a: |``, ``  x``, ``  <think>``, ``b: 2`` is
    a literal block holding the tag (the core would cut the value there, and the keys
    after it)."""

    def holds(region: Span, at: int) -> bool:
        data = trimmed(reply, strip_span(reply, region))
        text = reply[data.start : data.end]
        return data.start < at < data.end and is_valid(text) and _in_a_scalar(text, at - data.start)

    return reply.notes_around_data(holds, MAX_INDENTED_TAGS)


def locate(reply: str, is_valid: Callable[[str], bool]) -> list[Span]:
    """Candidate spans of ``reply``, best first (see the module doc)."""
    prepared = Reply.of(reply)
    thoughts = _thoughts(prepared, is_valid)
    blanked = prepared.blanked(blocks=thoughts)
    blocks = prepared.fences(blocks=thoughts)
    candidates: list[Span] = []
    # a body is trimmed in the blanked text: a think block that ends it (an unclosed one
    # runs to the end) is no part of the payload, as heal's second pass would find. A
    # body gives the candidates the same text gives without its fence, so that healing
    # the payload it gives again changes nothing
    tagged: list[Span] = []
    bare: list[Span] = []
    for f in blocks:
        if f.info in _TAGS or f.info == "":
            body = strip_span(blanked, f.body)
            if overlaps_any(thoughts, body.start, body.end):
                # a think block inside the body (not at its end): check() would set it aside,
                # so healing the body could never give a text that checks as it stands
                continue
            inner = trimmed(blanked, body)
            valid = inner != body and is_valid(blanked[body.start : body.end])
            (tagged if f.info in _TAGS else bare).extend(_payloads(blanked, body, inner, valid))
    rest = prepared.longest_stretches(blocks=thoughts)
    outer: list[Span] = []
    if rest:
        whole = rest[0]
        inner = trimmed(reply, whole)
        valid = is_valid(reply[whole.start : whole.end])
        outer = _payloads(reply, whole, inner, valid)
        if valid and not tagged and outer == [whole]:
            return outer
    seen: set[Span] = set()  # a list's `in` made many fences quadratic
    for span in [*tagged, *bare, *outer]:
        if span.end > span.start and span not in seen:
            seen.add(span)
            candidates.append(span)
    return candidates or prepared.prose_candidates(blocks=thoughts)
