"""Safe loading: YAML text to JSON-type values, through ruamel.yaml's parser and composer.

Nothing of ruamel's constructors runs: the composed node graph is turned into values here,
so no tag can ever build a Python object. Plain scalars are resolved by the YAML 1.2 core
schema (``yes``/``no``/``on`` stay strings, ``1_000`` and ``2024-01-05`` too, and a date is
the ISO text it is written as); known ``!!`` tags (``!!str``, ``!!int``, ``!!float``,
``!!bool``, ``!!null``, ``!!map``, ``!!seq``, ``!!binary``, ``!!timestamp``, ``!!set``,
``!!omap``, ``!!pairs``) are honoured, local tags (``!thing``) are read as plain data, and a
Python tag is a violation. Aliases are shared, never copied: a document whose aliases
would expand beyond a bound (a "billion laughs") or refer to themselves is a violation.
"""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

from formatbook_core import Span, Violation

CORE = "tag:yaml.org,2002:"
PLAIN = "tag:formatbook:plain"  # what the resolver answers for a plain implicit scalar
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = {".inf", ".Inf", ".INF"}
_NAN = {".nan", ".NaN", ".NAN"}
_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_KNOWN = {"str", "int", "float", "bool", "null", "map", "seq", "binary", "timestamp", "set", "omap", "pairs", "merge"}
#: Expanded nodes allowed beyond the nodes written: aliases may repeat a part a few times,
#: never blow it up (a "billion laughs" is 10**9 nodes from a few hundred bytes).
EXPANSION_FACTOR = 100
EXPANSION_FLOOR = 10_000
#: The composer recurses per level: deeper documents are refused before Python's stack is.
PARSER_DEPTH = 250  # lines.FLOW_DEPTH follows it


class YamlError(Exception):
    """A reply that is not loadable YAML: carries the violation."""

    def __init__(self, violation: Violation):
        super().__init__(violation.message)
        self.violation = violation


class Document:
    """One composed document: its root ``node`` (a ruamel node) and its ``value``."""

    __slots__ = ("node", "value")

    def __init__(self, node: Any, value: Any):
        self.node = node
        self.value = value


class Mark(int):
    """A node's offset in the text (what ruamel's mark calls ``index``), and nothing else."""

    __slots__ = ()

    @property
    def index(self) -> int:
        return int(self)


_CLASSES: list[Any] = []


def _yaml(max_depth: int) -> Any:
    """A ruamel ``YAML`` reading plain scalars as marked (resolved here, by the YAML 1.2
    core schema) and ``!`` as a string tag; its classes are built once."""
    from ruamel.yaml import YAML  # noqa: PLC0415 - lazy: heavy

    if not _CLASSES:
        _CLASSES.extend(_classes())
    resolver, composer = _CLASSES
    y = YAML(typ="safe", pure=True)
    y.Resolver = resolver
    y.Composer = composer
    y.max_depth = max(1, min(max_depth, PARSER_DEPTH))
    return y


def _classes() -> tuple[Any, Any]:
    from ruamel.yaml.nodes import ScalarNode  # noqa: PLC0415 - lazy: heavy
    from ruamel.yaml.resolver import VersionedResolver  # noqa: PLC0415 - lazy: heavy
    from ruamel.yaml.tag import Tag  # noqa: PLC0415 - lazy: heavy

    plain = Tag(suffix=PLAIN)
    shared: dict[tuple[Any, Any], Any] = {}

    class PlainResolver(VersionedResolver):
        """Marks plain scalars instead of resolving them (YAML 1.2 core schema below).

        Every node gets one shared ``Tag`` per tag: ruamel made a new one per node, and
        with it the tag's text when first read (about 100 bytes per node, half of what
        a reply of short lines took)."""

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is ScalarNode and implicit[0]:
                return plain
            tag = super().resolve(kind, value, implicit)
            return shared.setdefault((tag.handle, tag.suffix), tag)

    from ruamel.yaml.composer import Composer  # noqa: PLC0415 - lazy: heavy

    class StrictComposer(Composer):
        """``! 12`` (the non-specific tag) is the string "12", never the number.

        A node keeps its offsets only (:class:`Mark`): ruamel's marks hold the index, the
        pointer, the line, the column, the name and the buffer, about 180 bytes each and
        two per node, two thirds of what the node graph of a reply of short lines took.
        ``aliased`` says whether an alias was read (then nodes may be shared)."""

        aliased = False

        def return_alias(self, a: Any) -> Any:
            self.aliased = True
            return a

        def compose_scalar_node(self, anchor: Any) -> Any:
            event = self.parser.peek_event()
            if event.ctag is not None and str(event.ctag) == "!":
                event.ctag = Tag(suffix=CORE + "str")
            node = super().compose_scalar_node(anchor)
            node.start_mark, node.end_mark = Mark(node.start_mark.index), Mark(node.end_mark.index)
            return node

        def compose_sequence_node(self, anchor: Any) -> Any:
            node = super().compose_sequence_node(anchor)
            node.start_mark, node.end_mark = Mark(node.start_mark.index), Mark(node.end_mark.index)
            return node

        def compose_mapping_node(self, anchor: Any) -> Any:
            node = super().compose_mapping_node(anchor)
            node.start_mark, node.end_mark = Mark(node.start_mark.index), Mark(node.end_mark.index)
            return node

    return PlainResolver, StrictComposer


_NO_CHARACTER = "not valid YAML: an escape names no Unicode character (the last is \\U0010FFFF)"


def compose(text: str, max_depth: int) -> list[Any]:
    """The documents' root nodes; raises :class:`YamlError`."""
    return compose_graph(text, max_depth)[0]


def compose_graph(text: str, max_depth: int) -> tuple[list[Any], bool]:
    """The documents' root nodes, and whether an alias was read (without one, each node
    has one parent: the graph is a tree); raises :class:`YamlError`."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError  # noqa: PLC0415 - lazy: heavy

    y = _yaml(max_depth)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            roots = [n for n in y.compose_all(text) if n is not None]
            return roots, y.composer.aliased
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = mark.index if mark is not None else len(text)
        what = (err.problem or err.context or "not YAML").strip()
        line = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        code = "yaml.too_deep" if "depth" in what else "yaml.syntax"
        raise YamlError(Violation(code, f"not valid YAML: {what}{line}", span=_at(text, where))) from None
    except RecursionError:
        raise YamlError(Violation("yaml.too_deep", "the YAML is nested too deeply to read")) from None
    except OverflowError:
        # ruamel decodes "\\U" escapes with chr(): past 2**31 it overflows, not ValueError
        raise YamlError(Violation("yaml.syntax", _NO_CHARACTER)) from None
    except (YAMLError, AssertionError, ValueError, TypeError, AttributeError, KeyError, IndexError) as err:
        if isinstance(err, ValueError) and str(err).startswith("chr()"):
            raise YamlError(Violation("yaml.syntax", _NO_CHARACTER)) from None
        # ruamel raises a few plain errors on odd input (an assert on a %YAML 1.3 directive)
        raise YamlError(Violation("yaml.syntax", f"not valid YAML: {str(err).strip()[:200]}")) from None


def _at(text: str, where: int) -> Span:
    where = max(0, min(where, len(text)))
    return Span(where, min(len(text), where + 1))


def tag_of(node: Any) -> str:
    tag = node.ctag
    return "" if tag is None else str(tag)


def check_graph(root: Any, max_depth: int, aliased: bool = True) -> None:
    """Refuse alias cycles, expansion beyond the bound and depth beyond ``max_depth``
    (one iterative pass over the node graph, each node once), and Python tags.

    Without an alias (``aliased`` false) the graph is a tree the composer has already
    bounded in depth: only the tags are looked at, with no table per node (the tables
    took about 130 bytes a node, the peak of reading a reply of short lines)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    if not aliased:
        todo = [root]
        while todo:
            node = todo.pop()
            if "python" in tag_of(node).lower():
                raise _bad_tag(node, tag_of(node))
            if isinstance(node, MappingNode):
                todo.extend(x for pair in node.value for x in pair)
            elif isinstance(node, SequenceNode):
                todo.extend(node.value)
        return
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    distinct = 0
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            kids = _children(node, MappingNode, SequenceNode)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            depth[key] = 1 + max((depth[id(k)] for k in kids), default=0)
            if depth[key] > max_depth:
                raise YamlError(
                    Violation("yaml.too_deep", f"the YAML is nested deeper than {max_depth} levels", span=_span(node))
                )
            continue
        if key in size:
            continue
        if key in on_path:
            raise YamlError(Violation("yaml.alias_cycle", "an alias refers to a node that holds it", span=_span(node)))
        on_path.add(key)
        distinct += 1
        if "python" in tag_of(node).lower():
            raise _bad_tag(node, tag_of(node))
        stack.append((node, True))
        for kid in _children(node, MappingNode, SequenceNode):
            if id(kid) in on_path:
                raise YamlError(
                    Violation("yaml.alias_cycle", "an alias refers to a node that holds it", span=_span(kid))
                )
            if id(kid) not in size:
                stack.append((kid, False))
    total = size[id(root)]
    if total > EXPANSION_FLOOR and total > EXPANSION_FACTOR * distinct:
        raise YamlError(
            Violation(
                "yaml.alias_expansion",
                f"aliases would expand {distinct} nodes into {total}: refused (a 'billion laughs')",
                span=_span(root),
            )
        )


def _children(node: Any, mapping: Any, sequence: Any) -> list[Any]:
    if isinstance(node, mapping):
        return [x for pair in node.value for x in pair]
    if isinstance(node, sequence):
        return list(node.value)
    return []


def _span(node: Any) -> Span:
    return Span(node.start_mark.index, max(node.start_mark.index, node.end_mark.index))


def to_value(root: Any) -> Any:
    """The JSON-type value of a checked node graph (:func:`check_graph` first)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode  # noqa: PLC0415 - lazy: heavy

    memo: dict[int, Any] = {}  # only nodes with an anchor: no other node can be shared

    def build(node: Any) -> Any:
        key = id(node) if node.anchor is not None else None
        if key is not None and key in memo:
            return memo[key]
        if isinstance(node, MappingNode):
            out: dict[str, Any] = {}
            if key is not None:
                memo[key] = out
            for k, v in node.value:
                name = key_text(k, build)
                # (YAML 1.2 wants unique keys; two empty keys or two equal collection
                # keys are let through, as the YAML test suite reads them)
                if name in out and _plain_key(k) is not None:
                    raise YamlError(
                        Violation("yaml.duplicate_key", f"the key {name!r} appears twice in one mapping", span=_span(k))
                    )
                out[name] = build(v)
            if tag_of(node) == CORE + "set":
                return out
            return out
        if isinstance(node, SequenceNode):
            items: list[Any] = []
            if key is not None:
                memo[key] = items
            items.extend(build(v) for v in node.value)
            return items
        value = scalar(node)
        if key is not None:
            memo[key] = value
        return value

    return build(root)


def _plain_key(node: Any) -> Any:
    from ruamel.yaml.nodes import ScalarNode  # noqa: PLC0415 - lazy: heavy

    if not isinstance(node, ScalarNode):
        return None
    return scalar(node)


#: the longest JSON text a collection key may read as (each level of collection keys inside
#: collection keys escapes the level below again, so the text doubles with every level)
MAX_KEY_TEXT = 100_000


def key_text(node: Any, build: Any) -> str:
    """A mapping key as JSON wants it: a string (a scalar key as written, a collection
    key as its JSON text)."""
    from ruamel.yaml.nodes import ScalarNode  # noqa: PLC0415 - lazy: heavy

    if isinstance(node, ScalarNode):
        value = scalar(node)
        return value if isinstance(value, str) else str(node.value)
    text = json.dumps(build(node), ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_KEY_TEXT:
        # A collection key inside a collection key is escaped once more at every level:
        # 32 nested '{' would make a key of billions of characters.
        raise YamlError(
            Violation(
                "yaml.key_too_large",
                f"a collection used as a mapping key reads as over {MAX_KEY_TEXT:,} characters of JSON "
                "(collection keys nested in collection keys)",
                span=_span(node),
                expected=MAX_KEY_TEXT,
            )
        )
    return text


def scalar(node: Any) -> Any:
    """A scalar node's value under the YAML 1.2 core schema (and its explicit tag)."""
    text = node.value
    tag = tag_of(node)
    if tag == PLAIN:
        return plain(text)
    if tag in ("", "!") or tag == CORE + "str":
        return text
    if tag.startswith(CORE):
        name = tag[len(CORE) :]
        if name.startswith("python") or name not in _KNOWN:
            raise _bad_tag(node, tag)
        if name in ("int", "float", "bool", "null"):
            value = plain(text.strip())
            if isinstance(value, str) and name in ("int", "float") and _INT10.fullmatch(value):
                value = int(value)  # !!int 0777: the tag says it is a number
            ok = {
                "int": isinstance(value, int) and not isinstance(value, bool),
                "float": isinstance(value, (int, float)) and not isinstance(value, bool),
                "bool": isinstance(value, bool),
                "null": value is None,
            }[name]
            if not ok:
                raise YamlError(
                    Violation("yaml.tag", f"{text!r} is not a valid !!{name}", span=_span(node), expected=name)
                )
            return float(value) if name == "float" else value
        return text  # binary, timestamp: the text as written
    if "python" in tag.lower():
        raise _bad_tag(node, tag)
    return text  # a local or foreign tag: the data as written


def _bad_tag(node: Any, tag: str) -> YamlError:
    return YamlError(
        Violation(
            "yaml.python_tag" if "python" in tag.lower() else "yaml.tag",
            f"the tag {tag} is refused: YAML is read as data only, nothing is ever constructed",
            span=_span(node),
        )
    )


def plain(text: str) -> Any:
    """A plain scalar under the YAML 1.2 core schema."""
    if text in _NULL:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    first = text[0]
    if first in "0123456789-+.":
        try:
            if _INT10.fullmatch(text):
                if len(text.lstrip("+-")) > 1 and text.lstrip("+-")[0] == "0":
                    return text  # 0777, 01234: a code or zip more than a number (README)
                return int(text) if len(text) < 4000 else float(text)
            if _INT8.fullmatch(text):
                return int(text[2:], 8) if len(text) < 4000 else text
            if _INT16.fullmatch(text):
                return int(text[2:], 16) if len(text) < 4000 else text
            if _FLOAT.fullmatch(text):
                return float(text)
        except ValueError:  # beyond Python's int digits: as written
            return text
        if text in _INF or text[1:] in _INF:
            return float("-inf") if first == "-" else float("inf")
        if text in _NAN:
            return float("nan")
    return text


def load(text: str, *, max_depth: int, many: bool) -> tuple[list[Document], Violation | None]:
    """The documents of ``text`` with their values, or the first violation."""
    try:
        roots, aliased = compose_graph(text, max_depth)
        docs = []
        for root in roots:
            check_graph(root, max_depth, aliased)
            docs.append(Document(root, to_value(root)))
            if not many and len(docs) > 1:
                break
        return docs, None
    except YamlError as err:
        return [], err.violation
    except RecursionError:
        return [], Violation("yaml.too_deep", "the YAML is nested too deeply to read")
