"""A JSON Schema as a grammar for constrained decoding (``JsonFormat.grammar``).

What the grammar says (the README's "Grammar export" lists it, and what it leaves to the
checker): objects hold their declared ``properties`` in the order declared (required
ones always, the others optionally) and nothing else; ``enum`` and ``const`` are their
values written as JSON; arrays take ``items`` / ``prefixItems`` and ``minItems`` /
``maxItems``; strings take ``minLength`` / ``maxLength``; an integer or number whose
``minimum`` (or ``exclusiveMinimum``) is at least zero has no minus sign; ``anyOf`` and
``oneOf`` are alternatives, ``allOf`` is merged; ``type`` lists are alternatives; local
``$ref`` are rules (recursive schemas too). A keyword it cannot say is named in
``Grammar.left`` and judged by the checker, on the reply the grammar let through.

Every text the grammar matches is JSON the strict reader accepts, so a reply decoded
under it fails ``check()`` only on a keyword in ``left``.
"""

from __future__ import annotations

import json
from typing import Any

from formatbook_core import ExportError
from formatbook_core.data_schema.merging import TYPES as _TYPES
from formatbook_core.data_schema.merging import merge as _merge
from formatbook_core.grammars import (
    EMPTY,
    Builder,
    Expr,
    Grammar,
    Ref,
    Rep,
    alt,
    chars,
    lit,
    opt,
    seq,
    star,
)
from formatbook_core.pointers import local_target

#: Keywords that only annotate: never constraints, never left to the checker.
_ANNOTATIONS = frozenset(
    {
        *("$schema", "$id", "$anchor", "$comment", "$defs", "definitions", "title", "description"),
        *("default", "examples", "deprecated", "readOnly", "writeOnly", "$dynamicAnchor", "contentMediaType"),
        *("contentEncoding", "discriminator"),
    }
)
#: Keywords the grammar enforces, each where its type applies.
_SAID = frozenset(
    {
        *("type", "enum", "const", "properties", "required", "additionalProperties", "items", "prefixItems"),
        *("additionalItems", "minItems", "maxItems", "minLength", "maxLength", "anyOf", "oneOf", "allOf", "$ref"),
    }
)
_OBJECT_WORDS = ("properties", "required", "additionalProperties", "patternProperties", "propertyNames")
_ARRAY_WORDS = ("items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems")
#: How many schemas one value may merge (``allOf``, ``$ref`` beside constraints).
MERGE_LIMIT = 64


def json_grammar(schema: Any) -> Grammar:
    """The grammar of JSON texts whose value ``schema`` (a JSON Schema as a dict or bool,
    or ``None`` for any JSON) accepts; ``ExportError`` when the schema refers to another
    document or accepts no value."""
    writer = _Writer(schema if schema is not None else True)
    value = writer.value(writer.root, "value")
    space = writer.space()
    return writer.builder.grammar(seq(space, value, space))


class _Writer:
    """Walks a schema once, writing a rule per ``$ref`` target and a few shared tokens."""

    def __init__(self, root: Any):
        self.root = root
        self.builder = Builder()
        self._shared: dict[str, Ref] = {}
        self._refs: dict[str, Ref] = {}

    # --- shared tokens and rules ----------------------------------------------------
    def ws(self) -> Ref:
        return self._share("ws", lambda: chars(" \t\n\r"), repeat=True)

    def space(self) -> Ref:
        """White space or none: a rule of its own (Lark expands every ``x?`` of a rule into
        alternatives, 2^k of them for k optional pieces; a reference to a rule is one)."""
        return self._share("space", lambda: opt(self.ws()), token=False)

    def _share(self, name: str, build: Any, *, repeat: bool = False, token: bool = True) -> Ref:
        if name not in self._shared:
            body = build()
            self._shared[name] = self.builder.rule(name, Rep(body, 1, None) if repeat else body, token=token)
        return self._shared[name]

    def char(self) -> Expr:
        """One character of a JSON string, as written (an escape is one; a surrogate pair
        of ``\\u`` escapes is one too, and a lone surrogate none: the strict reader refuses it)."""

        def build() -> Expr:
            hexd = chars("0-9a-fA-F")
            plain = alt(
                seq(chars("0-9a-cA-C", "e-fE-F"), Rep(hexd, 3, 3)),  # not D...
                seq(chars("dD"), chars("0-7"), Rep(hexd, 2, 2)),  # D000-D7FF
            )
            high = seq(chars("dD"), chars("89abAB"), Rep(hexd, 2, 2))
            low = seq(chars("dD"), chars("c-fC-F"), Rep(hexd, 2, 2))
            escape = alt(chars('"\\/bfnrt'), seq(lit("u"), plain), seq(lit("u"), high, lit("\\u"), low))
            return alt(chars('"\\\x00-\x1f\x7f', negated=True), seq(lit("\\"), escape))

        return self._share("char", build)

    def string(self) -> Ref:
        return self._share("string", lambda: seq(lit('"'), star(self.char()), lit('"')))

    def integer(self, *, signed: bool = True) -> Ref:
        digits = alt(lit("0"), seq(chars("1-9"), star(chars("0-9"))))
        if not signed:
            return self._share("natural", lambda: digits)
        return self._share("integer", lambda: seq(opt(lit("-")), digits))

    def number(self, *, signed: bool = True) -> Ref:
        def build() -> Expr:
            fraction = opt(seq(lit("."), Rep(chars("0-9"), 1, None)))
            exponent = opt(seq(chars("eE"), opt(chars("+-")), Rep(chars("0-9"), 1, None)))
            return seq(self.integer(signed=signed), fraction, exponent)

        return self._share("number" if signed else "unsigned-number", build)

    def any_value(self) -> Ref:
        """Any JSON value (the rule of an empty schema, ``true``)."""
        if "any" not in self._shared:
            name = self.builder.name("any")
            self._shared["any"] = Ref(name)
            members = self._members(self.string(), Ref(name))
            obj = seq(lit("{"), self.space(), opt(seq(members, self.space())), lit("}"))
            arr = self._array(Ref(name), 0, None)
            scalars = alt(self.string(), self.number(), lit("true"), lit("false"), lit("null"))
            self.builder.define(name, alt(self.builder.rule("any-object", obj), arr, scalars))
        return self._shared["any"]

    # --- schemas --------------------------------------------------------------------
    def value(self, schema: Any, hint: str, depth: int = 0) -> Expr:
        """The grammar of the values ``schema`` accepts."""
        if schema is True or schema == {}:
            return self.any_value()
        if schema is False:
            raise ExportError("the JSON Schema accepts no value at " + hint + ": there is no grammar for it")
        if not isinstance(schema, dict):
            raise ExportError(f"not a JSON Schema at {hint}: {schema!r}")
        if depth > MERGE_LIMIT:
            raise ExportError(f"the JSON Schema merges too many schemas at {hint}")
        if "$ref" in schema:
            return self._ref(schema, hint, depth)
        if "allOf" in schema:
            return self.value(self._merged_all(schema, hint, depth), hint, depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                if key == "oneOf":
                    self.builder.leave("oneOf (only one branch matches)")
                rest = {k: v for k, v in schema.items() if k != key}
                branches = [
                    self.value(_merge(rest, b, hint), f"{hint} {i}", depth + 1) for i, b in enumerate(schema[key])
                ]
                return alt(*branches)
        self._note_left(schema)
        if "const" in schema:
            return _json_literal(schema["const"])
        if "enum" in schema:
            return alt(*(_json_literal(v) for v in schema["enum"]))
        kinds = _types(schema)
        if kinds is None:
            return self.any_value()
        return alt(*(self._typed(kind, schema, hint, depth) for kind in kinds))

    def _ref(self, schema: dict[str, Any], hint: str, depth: int) -> Expr:
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise ExportError(f"the JSON Schema refers to another document ({ref!r}): a grammar holds only the schema")
        others = {k: v for k, v in schema.items() if k != "$ref" and k not in _ANNOTATIONS}
        if others:  # $ref beside constraints: both apply, merged like allOf
            return self.value({**others, "allOf": [{"$ref": ref}]}, hint, depth + 1)
        if ref not in self._refs:
            name = self.builder.name(ref.rsplit("/", 1)[-1] or "root")
            self._refs[ref] = Ref(name)
            try:
                target = local_target(self.root, ref)
            except Exception as exc:
                raise ExportError(f"cannot resolve $ref {ref!r}: {exc}") from None
            self.builder.define(name, self.value(target, name, depth + 1))
        return self._refs[ref]

    def _merged_all(self, schema: dict[str, Any], hint: str, depth: int) -> dict[str, Any]:
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for member in schema["allOf"]:
            merged = _merge(merged, self._resolved(member, depth), hint)
        return merged

    def _resolved(self, schema: Any, depth: int) -> Any:
        """``schema`` with a lone local ``$ref`` followed (for ``allOf``'s merge)."""
        for _ in range(MERGE_LIMIT):
            if not (isinstance(schema, dict) and isinstance(schema.get("$ref"), str)):
                return schema
            ref = schema["$ref"]
            if not ref.startswith("#"):
                raise ExportError(
                    f"the JSON Schema refers to another document ({ref!r}): a grammar holds only the schema"
                )
            target = local_target(self.root, ref)
            schema = _merge({k: v for k, v in schema.items() if k != "$ref"}, target, ref)
        raise ExportError("the JSON Schema's allOf follows too many $ref")

    def _note_left(self, schema: dict[str, Any]) -> None:
        for key in schema:
            if key not in _SAID and key not in _ANNOTATIONS:
                self.builder.leave(key)

    def _typed(self, kind: str, schema: dict[str, Any], hint: str, depth: int) -> Expr:
        if kind == "object":
            return self._object(schema, hint, depth)
        if kind == "array":
            return self._array_of(schema, hint, depth)
        if kind == "string":
            low, high = schema.get("minLength", 0), schema.get("maxLength")
            if low == 0 and high is None:
                return self.string()
            bounded = Rep(self.char(), int(low), None if high is None else int(high))
            return self._share(f"string {low} {high}", lambda: seq(lit('"'), bounded, lit('"')))
        if kind in ("integer", "number"):
            bounds = [
                b
                for b in (schema.get("minimum"), schema.get("exclusiveMinimum"))
                if isinstance(b, int | float) and not isinstance(b, bool)
            ]
            signed = not bounds or max(bounds) < 0
            return self.integer(signed=signed) if kind == "integer" else self.number(signed=signed)
        if kind == "boolean":
            return alt(lit("true"), lit("false"))
        return lit("null")

    def _object(self, schema: dict[str, Any], hint: str, depth: int) -> Expr:
        found = schema.get("properties")
        props: dict[str, Any] = found if isinstance(found, dict) else {}
        required = [r for r in schema.get("required", ()) if isinstance(r, str)]
        extra = schema.get("additionalProperties", True)
        declared = dict(props)
        for name in required:  # required but not declared: its value is additionalProperties'
            declared.setdefault(name, extra if extra is not False else True)
        ws = self.space()
        if not declared:
            if extra is False:
                return seq(lit("{"), ws, lit("}"))
            value = self.value(extra, f"{hint} additional", depth + 1)
            return seq(lit("{"), ws, opt(seq(self._members(self.string(), value), ws)), lit("}"))
        pairs = [
            (name in required, seq(_json_literal(name), ws, lit(":"), ws, self.value(sub, f"{hint} {name}", depth + 1)))
            for name, sub in declared.items()
        ]
        rule = self.builder.rule(f"{hint} object", seq(lit("{"), ws, self._ordered(pairs, hint), lit("}")))
        return rule

    def _ordered(self, pairs: list[tuple[bool, Expr]], hint: str) -> Expr:
        """The members in order, required ones present, commas only between those written:
        the first member written is one of those up to the first required one, and after it
        every later member is ``, member`` (optional unless required)."""
        ws = self.space()
        tails: list[Expr] = [EMPTY] * (len(pairs) + 1)
        for i in range(len(pairs) - 1, -1, -1):
            needed, pair = pairs[i]
            step = seq(lit(","), ws, pair, ws)
            tails[i] = seq(step if needed else opt(step), tails[i + 1])
            if len(pairs) - i >= 2:  # shared by the alternatives below: a rule, not a copy
                tails[i] = self.builder.rule(f"{hint} members {i}", tails[i])
        firsts: list[Expr] = []
        for i, (needed, pair) in enumerate(pairs):
            firsts.append(seq(pair, ws, tails[i + 1]))
            if needed:
                break
        else:
            firsts.append(EMPTY)  # every member optional: none at all
        return alt(*firsts)

    def _members(self, key: Expr, value: Expr) -> Expr:
        ws = self.space()
        pair = seq(key, ws, lit(":"), ws, value)
        return seq(pair, star(seq(ws, lit(","), ws, pair)))

    def _array_of(self, schema: dict[str, Any], hint: str, depth: int) -> Expr:
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        high = None if high is None else int(high)
        prefix = schema.get("prefixItems")
        items = schema.get("items", True)
        if isinstance(items, list):  # draft 7's tuple form
            prefix, items = items, schema.get("additionalItems", True)
        if not prefix:
            return self._array(self.value(items, f"{hint} item", depth + 1), low, high)
        # every prefix item written (a subset of what the schema allows), then the rest
        n = len(prefix)
        if high is not None and high < n:
            prefix, n = prefix[:high], high
        ws = self.space()
        heads = [self.value(sub, f"{hint} item {i}", depth + 1) for i, sub in enumerate(prefix)]
        body: Expr = heads[0]
        for head in heads[1:]:
            body = seq(body, ws, lit(","), ws, head)
        if items is not False and (high is None or high > n):
            more = self.value(items, f"{hint} item", depth + 1)
            body = seq(body, Rep(seq(ws, lit(","), ws, more), max(0, low - n), None if high is None else high - n))
        elif low > n:
            raise ExportError(f"the JSON Schema at {hint} asks for {low} items and allows {n}")
        return seq(lit("["), ws, body, ws, lit("]"))

    def _array(self, item: Expr, low: int, high: int | None) -> Expr:
        ws = self.space()
        if high == 0:
            return seq(lit("["), ws, lit("]"))
        more = Rep(seq(ws, lit(","), ws, item), max(0, low - 1), None if high is None else high - 1)
        body = seq(item, more, ws)
        return seq(lit("["), ws, body if low > 0 else opt(body), lit("]"))


def _types(schema: dict[str, Any]) -> list[str] | None:
    """The types ``schema`` allows, or ``None`` for any value."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in _TYPES if k in kind]
    if any(k in schema for k in _OBJECT_WORDS):
        return ["object"]
    if any(k in schema for k in _ARRAY_WORDS):
        return ["array"]
    return None


def _json_literal(value: Any) -> Expr:
    return lit(json.dumps(value, ensure_ascii=False))
