"""The fast reading: libyaml's C parser (PyYAML's binding) read as events, straight to values.

The full reading (:mod:`.loading`) composes ruamel's node graph in pure Python: about
100 bytes and 40 µs of work per node. Most replies need none of the judgements the nodes
serve, so this module reads the text once with libyaml's parser and builds the JSON-type
value from its events, with no node kept. It answers only where its answer is the full
reading's, and gives ``None`` (the full reading decides) wherever a judgement needs nodes
or the two parsers could read the text differently:

- any parser error (the full reading gives the violation, its wording and its span),
  a control or C1 character and a lone surrogate among them;
- a tab, NEL, U+2028, U+2029 or a BOM: the two readers differ on them;
- a directive or a tag (tags need the core schema's tag rules, ``!`` the string reading);
- an anchor on a key or a root, an alias as a key or a root, to an unknown or still
  open node, or one past the expansion floor (:data:`.loading.EXPANSION_FLOOR` nodes,
  aliases expanded) or past the depth limit once expanded: the full reading words these
  (an alias to a complete node is its value, shared as the full reading shares it);
- a collection used as a key, two equal keys in one mapping, a key longer than 1,000
  characters (both parsers refuse implicit keys past 1,024: no margin is spent on
  whether they count the same way);
- a block scalar with leading blank lines, a line of spaces only, an indentation
  indicator or nothing in it (ruamel's scanner refuses or reads some of them otherwise,
  see ``tests/conformance/test_yaml_test_suite.py``);
- a document root that is not a collection, or a root mapping of one pair with a scalar
  value (the labelled-sentence rule, :mod:`.prose`, reads its nodes);
- no document, or a second one where one is asked for;
- nesting within two levels of the depth limit.

Plain scalars are resolved by the same function as the full reading (:func:`.loading.plain`),
quoted and block scalars are their text, keys are their text. That the two readings agree
is tested on the format's samples, the test corpora and generated documents
(``tests/plugins/yaml/test_fastload.py``). Without PyYAML's C extension nothing changes:
every text takes the full reading.
"""

from __future__ import annotations

import re
from typing import Any

from .loading import EXPANSION_FLOOR, PARSER_DEPTH, plain

__all__ = ["available", "fast_values", "refuses"]

_LOADED: list[Any] = []  # [CParser or None, the event classes]: imported on first use


def _parser() -> Any:
    """PyYAML's libyaml parser class, or ``None`` without the C extension (imported on
    first use: ``import yaml`` costs about 15 ms)."""
    if not _LOADED:
        try:  # a wheel on every common platform; some builds lack the C extension
            from yaml import _yaml as c  # noqa: PLC0415 - lazy: heavy
            from yaml import events  # noqa: PLC0415 - lazy: heavy

            _LOADED.extend((c.CParser, events))
        except ImportError:  # pragma: no cover - the full reading then reads every text
            _LOADED.extend((None, None))
    return _LOADED[0]


def available() -> bool:
    """Whether the fast reading can run (PyYAML's C extension is installed)."""
    return _parser() is not None


#: Characters the fast reading leaves to the full one: a tab (the scanner's spacing tabs
#: are spaces by now; the others mean a value or a refusal), the YAML 1.1 line breaks and
#: the BOM. Controls, C1 characters and non-characters need no test: libyaml's reader
#: refuses them, as ruamel's does (the same set), and the full reading words it.
_LEAVE = ("\t", "\x85", "\u2028", "\u2029", "\ufeff")
#: The longest key read here (see the module's docstring).
MAX_KEY = 1_000
_SPACE_LINE = re.compile(r"\n[ \t]+(?:\r?\n|\r|$)")
_KEY = object()  # the mapping on top of the stack waits for a key


class _Leave(Exception):
    """The full reading decides."""


def fast_values(text: str, *, max_depth: int, many: bool) -> tuple[list[Any], list[str]] | None:
    """The values of ``text``'s documents (each a mapping or a list) and their scalar
    values as written (what :func:`.values.node_values` gives for the documents' nodes),
    or ``None`` when the full reading must decide (see the module's docstring). Never
    raises."""
    if _parser() is None or any(c in text for c in _LEAVE):  # memchr-fast, unlike a class
        return None
    try:
        return _read(text, min(max_depth, PARSER_DEPTH) - 2, many)
    except _Leave:
        return None
    except Exception:  # a parser error, an encoding error: the full reading words it
        return None


def refuses(text: str) -> bool:
    """Whether libyaml's parser refuses ``text`` (an error before its stream ends):
    ``False`` without the C extension, or where the two readers differ (a character of
    :data:`_LEAVE`). Never raises."""
    if _parser() is None or any(c in text for c in _LEAVE):
        return False
    parser, ev = _LOADED
    try:
        get, end = parser(text).get_event, ev.StreamEndEvent
    except UnicodeEncodeError:  # a lone surrogate, which libyaml cannot be given: not its call
        return False
    try:
        while type(get()) is not end:
            pass
    except Exception:  # a parser error (or the reader's, on a character it refuses)
        return True
    return False


def _read(source: str, limit: int, many: bool) -> tuple[list[Any], list[str]]:
    parser, ev = _LOADED
    ScalarEvent, AliasEvent, StreamEndEvent = ev.ScalarEvent, ev.AliasEvent, ev.StreamEndEvent  # noqa: N806
    MappingStartEvent, MappingEndEvent = ev.MappingStartEvent, ev.MappingEndEvent  # noqa: N806
    SequenceStartEvent, SequenceEndEvent = ev.SequenceStartEvent, ev.SequenceEndEvent  # noqa: N806
    DocumentStartEvent, DocumentEndEvent = ev.DocumentStartEvent, ev.DocumentEndEvent  # noqa: N806
    get = parser(source).get_event
    docs: list[Any] = []
    written: list[str] = []  # scalar values as written, keys and nulls left out
    stack: list[Any] = []  # open collections
    keys: list[Any] = []  # per open collection: the key waiting for its value, _KEY, or None (a list)
    # aliases: per open collection (anchor, written and nodes before it, deepest nesting
    # under it); per complete anchor (value, its written values, nodes, nesting height)
    opened: list[list[Any]] = []
    anchors: dict[str, tuple[Any, int, int, int, int]] = {}
    nodes = 0  # nodes with aliases expanded, as the full reading's check_graph counts them
    aliased = False
    while True:
        event = get()
        kind = type(event)
        if kind is ScalarEvent:
            if event.tag is not None or (event.anchor is not None and (event.anchor in anchors or not stack)):
                raise _Leave
            nodes += 1
            text_ = event.value
            style = event.style
            if style == "":
                value = plain(text_)
            else:
                value = text_
                if style in "|>" and _odd_block(source, event, text_):
                    raise _Leave
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.tag is not None or (keys and keys[-1] is _KEY) or event.anchor in anchors:
                raise _Leave
            if len(stack) >= limit:
                raise _Leave
            nodes += 1
            stack.append({} if kind is MappingStartEvent else [])
            keys.append(_KEY if kind is MappingStartEvent else None)
            opened.append([event.anchor, len(written), nodes - 1, len(stack)])
            continue
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            value = stack.pop()
            keys.pop()
            _closed(value, opened, anchors, len(written), nodes, len(stack))
        elif kind is DocumentStartEvent:
            if event.version is not None or event.tags:
                raise _Leave
            anchors.clear()  # anchors are the document's
            continue
        elif kind is DocumentEndEvent:
            continue
        elif kind is StreamEndEvent:
            break
        elif kind is AliasEvent:
            value, size = _alias(event.anchor, anchors, stack, keys, opened, written, limit)
            nodes += size
            aliased = True
            if nodes > EXPANSION_FLOOR:
                raise _Leave
        else:  # the stream's start
            continue
        if not stack:
            _root(docs, value, many)
            continue
        key = keys[-1]
        if key is _KEY:
            # (an anchor on a key: the full reading decides)
            if text_ in stack[-1] or event.end_mark.index - event.start_mark.index > MAX_KEY or event.anchor:
                raise _Leave
            keys[-1] = text_
            continue
        if kind is ScalarEvent:
            first = len(written)
            if value is not None and text_.strip():
                written.append(text_)
            if event.anchor is not None:
                anchors[event.anchor] = (value, first, len(written), 1, 0)
        if key is None:
            stack[-1].append(value)
        else:
            stack[-1][key] = value
            keys[-1] = _KEY
    if not docs or (aliased and nodes > EXPANSION_FLOOR):
        raise _Leave
    return docs, written


def _closed(value: Any, opened: list[list[Any]], anchors: dict[str, Any], written: int, nodes: int, depth: int) -> None:
    """A collection ends (``depth`` collections stay open): its nesting counts in its
    parent's, and an anchored one is recorded (value, written values, nodes, height)."""
    anchor, first, before, deepest = opened.pop()
    if opened and deepest > opened[-1][3]:
        opened[-1][3] = deepest
    if anchor is not None:
        anchors[anchor] = (value, first, written, nodes - before, deepest - depth)


def _alias(
    name: str,
    anchors: dict[str, tuple[Any, int, int, int, int]],
    stack: list[Any],
    keys: list[Any],
    opened: list[list[Any]],
    written: list[str],
    limit: int,
) -> tuple[Any, int]:
    """An alias to a complete node, as a value: the anchored value (shared, as the full
    reading shares it) and its node count; its written values are repeated. One the full
    reading refuses or words (undefined, still open, a key or a root, past the depth once
    expanded) is left to it."""
    known = anchors.get(name)
    if known is None or not stack or keys[-1] is _KEY:
        raise _Leave
    value, first, last, size, height = known
    deepest = len(stack) + height
    if deepest > limit:
        raise _Leave
    if deepest > opened[-1][3]:
        opened[-1][3] = deepest
    written.extend(written[first:last])
    return value, size


def _odd_block(source: str, event: Any, value: str) -> bool:
    """A block scalar where ruamel's scanner reads otherwise than libyaml: leading blank
    lines (refused when more indented than the content), a line of spaces only (kept
    differently at the end), an empty value or one opening with white space (an
    indentation indicator)."""
    if not value or value[0] in " \n":
        return True
    return _SPACE_LINE.search(source, event.start_mark.index, event.end_mark.index) is not None


def _root(docs: list[Any], value: Any, many: bool) -> None:
    """A document's root value: a collection, not one labelled pair; one document unless
    ``many``."""
    if not isinstance(value, (dict, list)) or (docs and not many):
        raise _Leave
    if isinstance(value, dict) and len(value) == 1 and not isinstance(next(iter(value.values())), (dict, list)):
        raise _Leave
    docs.append(value)
