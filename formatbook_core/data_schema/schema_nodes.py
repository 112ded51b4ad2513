"""A JSON Schema compiled for judging a value while it is written (:mod:`.prefix`).

Each schema object becomes one :class:`Node` holding the keywords a prefix (or a value's
end) can decide; ``allOf``, ``anyOf``, ``oneOf`` and ``$ref`` stay links to other nodes,
and :meth:`Compiled.alternatives` flattens them into alternatives (each a conjunction of
nodes), capped at :data:`MAX_ALTERNATIVES`: past the cap a value is left to the
finish-time check. Every keyword not read here (``not``, ``if``/``then``/``else``,
``dependent*``, ``contains``, ``uniqueItems``, ``format``, ``unevaluated*``, references to
other documents, ``$dynamicRef``) is ignored, which only lets more through: the checker
stays sound, and ``finish()`` judges the whole value.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ..pointers import local_target

#: At most this many alternatives are tracked for one value; past it, the value is judged
#: at the end only (state stays O(depth x alternatives), never exponential).
MAX_ALTERNATIVES = 32
#: At most this many alternatives are tracked for one value across its parent's.
MAX_FRAME_ALTERNATIVES = 64
#: ``$ref`` chains and ``allOf`` nesting followed in place at most this deep.
MAX_IN_PLACE = 64

OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL = "object", "array", "string", "number", "boolean", "null"
_KINDS = {OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL}
_OLD_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07")


def kind_of(value: Any) -> str:
    """The JSON kind of a Python value (``integer`` is a ``number``)."""
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return STRING
    if isinstance(value, list):
        return ARRAY
    return OBJECT


class Node:
    """One schema object's keywords, as the prefix checker reads them."""

    __slots__ = (
        "false",
        "types",
        "integer",
        "props",
        "patterns",
        "additional",
        "names",
        "required",
        "min_props",
        "max_props",
        "prefix",
        "items",
        "items_keyword",
        "min_items",
        "max_items",
        "min_len",
        "max_len",
        "pattern",
        "minimum",
        "maximum",
        "xminimum",
        "xmaximum",
        "multiple",
        "enum",
        "enum_keyword",
        "enum_strings",
        "enum_folded",
        "all",
        "any",
        "one",
        "coerce",
        "norm_props",
        "_alts",
    )

    def __init__(self) -> None:
        self.false = False  # the schema ``false``: nothing is valid
        self.types: frozenset[str] | None = None  # kinds allowed (None: any)
        self.integer = False  # numbers must be integral (``integer`` but not ``number``)
        self.props: dict[str, Node] = {}
        self.patterns: tuple[tuple[str, Node], ...] = ()
        self.additional: Node | bool | None = None  # None: anything; False: no extra key
        self.names: Node | None = None  # propertyNames
        self.required: tuple[str, ...] = ()
        self.min_props: int | None = None
        self.max_props: int | None = None
        self.prefix: tuple[Node, ...] = ()
        self.items: Node | bool | None = None  # past the prefix; False: no more items
        self.items_keyword = "items"
        self.min_items: int | None = None
        self.max_items: int | None = None
        self.min_len: int | None = None
        self.max_len: int | None = None
        self.pattern: str | None = None
        self.minimum: int | float | None = None
        self.maximum: int | float | None = None
        self.xminimum: int | float | None = None
        self.xmaximum: int | float | None = None
        self.multiple: int | float | None = None
        self.enum: tuple[Any, ...] | None = None  # enum or const members
        self.enum_keyword = "enum"
        self.enum_strings: tuple[str, ...] = ()  # the string members, sorted (prefix look-ups bisect)
        self.enum_folded: tuple[str, ...] = ()  # the same, case-folded (lenient)
        self.all: tuple[Node, ...] = ()
        self.any: tuple[Node, ...] = ()
        self.one: tuple[Node, ...] = ()
        self.coerce: frozenset[str] = frozenset()  # lenient stand-in: kinds a string may turn into
        self.norm_props: tuple[str, ...] = ()  # lenient: property names as renames compare them
        self._alts: tuple[tuple[Node, ...], ...] | None = None


TRUE = Node()  # accepts everything


def norm_key(key: str) -> str:
    """A key as healing compares it with a property's name (case, ``_`` and ``-`` ignored)."""
    return key.replace("_", "").replace("-", "").lower()


class Compiled:
    """A schema (dict or boolean) compiled into nodes once, each schema object to one node
    (a ``$ref`` back to an object being compiled finds its node: recursive schemas end);
    alternatives and the prefix checker's judgements are memoised here, per schema."""

    def __init__(self, schema: Any) -> None:
        self.root_schema = schema
        dialect = schema.get("$schema", "") if isinstance(schema, dict) else ""
        self.old_draft = isinstance(dialect, str) and any(d in dialect for d in _OLD_DRAFTS)
        self._nodes: dict[int, Node] = {}
        self._keep: list[Any] = []  # the schema objects compiled (their ids stay theirs)
        self._conj: dict[tuple[Node, ...], tuple[tuple[Node, ...], ...] | None] = {}
        #: memos of the prefix checker, keyed by alternatives (tuples of nodes hash by identity)
        self.memo: dict[Any, Any] = {}
        self.root = self.node(schema)

    # --- compiling --------------------------------------------------------------------
    def node(self, schema: Any) -> Node:
        """The node of one schema object (compiled once)."""
        if schema is True or schema is None:
            return TRUE
        key = id(schema)
        found = self._nodes.get(key)
        if found is not None:
            return found
        node = Node()
        self._nodes[key] = node
        self._keep.append(schema)
        if schema is False:
            node.false = True
        elif isinstance(schema, dict):
            self._fill(node, schema)
        return node

    def _fill(self, node: Node, s: dict[str, Any]) -> None:
        ref = s.get("$ref")
        if isinstance(ref, str):
            target = local_target(self.root_schema, ref) if ref.startswith("#") else None
            linked = self.node(target) if isinstance(target, (dict, bool)) else TRUE
            if self.old_draft:  # before 2019-09 the siblings of $ref are ignored
                node.all = (linked,)
                return
            node.all = (linked,)
        _fill_types(node, s)
        _fill_object(self, node, s)
        _fill_array(self, node, s)
        _fill_scalar(node, s)
        for name in ("allOf", "anyOf", "oneOf"):
            subs = s.get(name)
            if isinstance(subs, list) and subs:
                nodes = tuple(self.node(x) for x in subs)
                if name == "allOf":
                    node.all = node.all + nodes
                elif name == "anyOf":
                    node.any = nodes
                else:
                    node.one = nodes

    # --- alternatives -----------------------------------------------------------------
    def alternatives(self, conj: tuple[Node, ...]) -> tuple[tuple[Node, ...], ...] | None:
        """The conjunction ``conj`` flattened into alternatives of nodes without
        combinators (any one may hold); ``None`` past :data:`MAX_ALTERNATIVES`."""
        found = self._conj.get(conj, self)
        if found is not self:
            return found  # type: ignore[return-value]
        key = conj
        out: tuple[tuple[Node, ...], ...] | None = ((),)
        for n in conj:
            alts = _node_alts(n, 0)
            if alts is None or out is None:
                out = None
                break
            out = _product(out, alts)
        if len(self._conj) < 65536:
            self._conj[key] = out
        return out


class _TooMany(Exception):
    pass


def _product(a: tuple[tuple[Node, ...], ...] | None, b: tuple[tuple[Node, ...], ...]) -> Any:
    if a is None or len(a) * len(b) > MAX_ALTERNATIVES:
        return None
    out = []
    for x, y in product(a, b):
        merged = x + tuple(n for n in y if n not in x)
        if merged not in out:
            out.append(merged)
    return tuple(out)


def _node_alts(node: Node, depth: int) -> tuple[tuple[Node, ...], ...] | None:
    """``node`` as alternatives of flat nodes (memoised on the node)."""
    if node._alts is not None:
        return node._alts
    if depth > MAX_IN_PLACE:
        return None
    out: Any = ((),) if node is TRUE else ((node,),)
    for sub in node.all:
        alts = _node_alts(sub, depth + 1)
        out = None if alts is None else _product(out, alts)
        if out is None:
            return None
    for group in (node.any, node.one):
        if not group:
            continue
        union: list[tuple[Node, ...]] = []
        for branch in group:
            alts = _node_alts(branch, depth + 1)
            if alts is None:
                return None
            union.extend(a for a in alts if a not in union)
        if len(union) > MAX_ALTERNATIVES:
            return None
        out = _product(out, tuple(union))
        if out is None:
            return None
    node._alts = out
    return out


def _number(x: Any) -> int | float | None:
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _count(x: Any) -> int | None:
    n = _number(x)
    return int(n) if n is not None and n >= 0 and float(n).is_integer() else None


def _fill_types(node: Node, s: dict[str, Any]) -> None:
    t = s.get("type")
    names = [t] if isinstance(t, str) else [x for x in t if isinstance(x, str)] if isinstance(t, list) else None
    if names is not None:
        kinds = {("number" if x == "integer" else x) for x in names if x in _KINDS or x == "integer"}
        node.types = frozenset(kinds)
        node.integer = "integer" in names and "number" not in names
    if "const" in s:
        node.enum = (s["const"],)
        node.enum_keyword = "const"
    elif isinstance(s.get("enum"), list):
        node.enum = tuple(s["enum"])
    if node.enum is not None:
        strings = [m for m in node.enum if isinstance(m, str)]
        node.enum_strings = tuple(sorted(strings))
        node.enum_folded = tuple(sorted(m.casefold() for m in strings))


def _fill_object(c: Compiled, node: Node, s: dict[str, Any]) -> None:
    props = s.get("properties")
    if isinstance(props, dict):
        node.props = {k: c.node(v) for k, v in props.items() if isinstance(k, str)}
        node.norm_props = tuple(norm_key(k) for k in node.props)
    pats = s.get("patternProperties")
    if isinstance(pats, dict):
        node.patterns = tuple((p, c.node(v)) for p, v in pats.items() if isinstance(p, str))
    extra = s.get("additionalProperties")
    if extra is False:
        node.additional = False
    elif isinstance(extra, dict):
        node.additional = c.node(extra)
    names = s.get("propertyNames")
    if isinstance(names, (dict, bool)) and names is not True:
        node.names = c.node(names)
    req = s.get("required")
    if isinstance(req, list):
        node.required = tuple(x for x in req if isinstance(x, str))
    node.min_props = _count(s.get("minProperties"))
    node.max_props = _count(s.get("maxProperties"))


def _fill_array(c: Compiled, node: Node, s: dict[str, Any]) -> None:
    items = s.get("items")
    prefix = s.get("prefixItems")
    rest: Any = items
    rest_keyword = "items"
    if isinstance(items, list):  # draft-07 and before: a tuple, then additionalItems
        prefix, rest, rest_keyword = items, s.get("additionalItems"), "additionalItems"
    if isinstance(prefix, list):
        node.prefix = tuple(c.node(x) for x in prefix)
    if rest is False:
        node.items = False
    elif isinstance(rest, dict):
        node.items = c.node(rest)
    node.items_keyword = rest_keyword
    node.min_items = _count(s.get("minItems"))
    node.max_items = _count(s.get("maxItems"))


def _fill_scalar(node: Node, s: dict[str, Any]) -> None:
    node.min_len = _count(s.get("minLength"))
    node.max_len = _count(s.get("maxLength"))
    pattern = s.get("pattern")
    node.pattern = pattern if isinstance(pattern, str) else None
    node.minimum = _number(s.get("minimum"))
    node.maximum = _number(s.get("maximum"))
    xmin, xmax = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
    if xmin is True:  # draft-04: a flag on minimum
        node.xminimum, node.minimum = node.minimum, None
    else:
        node.xminimum = _number(xmin)
    if xmax is True:
        node.xmaximum, node.maximum = node.maximum, None
    else:
        node.xmaximum = _number(xmax)
    multiple = _number(s.get("multipleOf"))
    node.multiple = multiple if multiple is not None and multiple > 0 else None


_COERCERS: dict[frozenset[str], Node] = {}


def coercer(kinds: frozenset[str]) -> Node:
    """The lenient stand-in for a node that wants ``kinds`` (number or boolean) and meets a
    string: healing turns ``"42"`` and ``"true"`` into them, so the string must stay a
    prefix of such a text and nothing else is judged."""
    found = _COERCERS.get(kinds)
    if found is None:
        found = Node()
        found.coerce = kinds
        _COERCERS[kinds] = found
    return found
