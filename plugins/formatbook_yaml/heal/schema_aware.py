"""The schema step of healing: the repairs only a schema can justify, planned on the
value by :func:`formatbook_core.data_schema.plan` and applied here as edits of the YAML
text at the nodes' spans (the rest keeps its layout and comments).

YAML 1.1 surprises: ``yes``/``no``/``on``/``off`` (any case) are strings in YAML 1.2;
where the schema asks for a boolean they become ``true``/``false``, listed as
``yaml11_boolean`` (never silently). The plan is asked on a copy of the value where those
words read ``"true"``/``"false"``, so the shared layer decides where a boolean is wanted.
"""

from __future__ import annotations

import json
import re
from typing import Any

from formatbook_core.data_schema import SchemaRepair, plan_refused

from ..values import nodes_at
from .state import AFTER_SCHEMA, Healing

_WORDS = {"yes": "true", "on": "true", "y": "true", "no": "false", "off": "false", "n": "false"}


def _yaml11(value: Any, words: dict[tuple, str], path: tuple = ()) -> Any:
    if isinstance(value, dict):
        return {k: _yaml11(v, words, path + (k,)) for k, v in value.items()}
    if isinstance(value, list):
        return [_yaml11(v, words, path + (i,)) for i, v in enumerate(value)]
    if isinstance(value, str) and value.lower() in _WORDS:
        words[path] = value
        return _WORDS[value.lower()]
    return value


def repair_against_schema(h: Healing) -> None:
    reading = h.reading if h.reading is not None else h.reread()
    if reading.violation is not None or not reading.documents or h.schema is None:
        return
    words: dict[tuple, str] = {}
    value = _yaml11(reading.value, words)
    ops = plan_refused(reading.value, h.schema, value)  # only where the validator refused
    if not ops:
        return
    many = h.options.get("documents", "one") == "many"
    roots = [d.node for d in reading.documents]
    nodes = nodes_at(roots, {op.path for op in ops}, many)
    edits: list[tuple[int, int, str]] = []
    for op in ops:
        found = nodes.get(op.path)
        if found is None:
            continue
        key_node, node = found
        kind = op.kind
        if op.kind == "string_to_boolean" and op.path in words:
            kind = "yaml11_boolean"
        elif op.path in words and op.kind != "string_to_boolean":
            continue
        text = _edit(op, node, h.text)
        target = key_node if op.what == "key" else node
        if text is None or target is None:
            continue
        start, end = target.start_mark.index, target.end_mark.index
        edits.append((start, end, text))
        message = (
            op.describe()
            if kind == op.kind
            else (
                f"turned the YAML 1.1 word {words[op.path]!r} into the boolean the schema asks for at /"
                + "/".join(str(p) for p in op.path)
            )
        )
        h.repair(kind, message, start, end)
    if not edits:
        return
    h.edit(sorted(edits), ahead=AFTER_SCHEMA)
    h.reread()


#: A number as YAML 1.2 writes one bare: decimal (with ``_`` and an exponent), hex or octal.
_WRITTEN_NUMBER = re.compile(
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+"
)


def _edit(op: SchemaRepair, node: Any, text: str) -> str | None:
    """The new text for the node (or key) the repair names, or ``None`` when this repair
    cannot be written at that node."""
    from ruamel.yaml.nodes import ScalarNode  # noqa: PLC0415 - lazy: heavy

    if op.what == "value":
        return json.dumps(op.value, ensure_ascii=False) if isinstance(node, ScalarNode) else None
    if op.what == "integer":
        return str(op.value) if isinstance(node, ScalarNode) else None
    if op.what == "string":  # the number as written (3.10, 02134), quoted
        if not isinstance(node, ScalarNode) or node.style is not None:
            return None
        written = text[node.start_mark.index : node.end_mark.index].strip()
        # only a number written bare: a tag (`!!float 3.10`) chose the type, and its text
        # is no part of the value
        return json.dumps(written, ensure_ascii=False) if _WRITTEN_NUMBER.fullmatch(written) else None
    if op.what == "key":
        return json.dumps(op.text, ensure_ascii=False)
    if op.what == "wrap" and isinstance(node, ScalarNode):
        # a one-line scalar goes into a flow sequence; a plain one only when nothing in it
        # would read as flow syntax there (a comma, a bracket, ": ")
        source = text[node.start_mark.index : node.end_mark.index]
        plain_ok = node.style is not None or (not any(ch in source for ch in ",[]{}#") and ": " not in source)
        if "\n" not in source and plain_ok:
            return "[" + source + "]"
    return None
