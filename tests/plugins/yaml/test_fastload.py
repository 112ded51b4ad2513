"""The fast reading (libyaml's events, :mod:`formatbook_yaml.fastload`) gives exactly the
full reading's verdict, value and values as written, or leaves the text to it.

Each text is read twice, with the fast path off and on: where the fast path answers, the
full reading must be valid with an equal value (types included: ``1`` is not ``1.0`` nor
``True``), and the values ``extract_values`` counts must be the nodes' values. Texts: the
format's samples, the healing fixtures, the pathological shapes, the yaml-test-suite
corpus when present, and generated documents (seeded, one in three damaged by an edit).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest

import formatbook_yaml.syntax as syntax
from formatbook_core import Expectations, check
from formatbook_yaml import YamlFormat
from formatbook_yaml.fastload import MAX_KEY, available, fast_values
from formatbook_yaml.values import node_values

from .pathological import CASES
from .yamlgen import texts

pytestmark = pytest.mark.skipif(not available(), reason="PyYAML's C extension is not installed")

HERE = Path(__file__).resolve().parent
OPTIONS = ({}, {"root": "any", "documents": "many"})
CORPUS = Path(os.environ.get("FORMATBOOK_CONFORMANCE_DIR") or HERE.parents[3].parent / "shared" / "conformance")


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _full(text: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch, depth: int = 1000) -> syntax.Reading:
    with monkeypatch.context() as m:
        m.setattr(syntax, "fast_values", lambda *a, **k: None)
        return syntax.read(text, options, depth)


def _agree(text: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> bool:
    """Read ``text`` both ways; ``True`` when the fast path answered (and agreed)."""
    fast = syntax.read(text, options, 1000)
    full = _full(text, options, monkeypatch)
    if fast.written is None:  # left to the full reading: the same reading
        assert (fast.violation, fast.value) == (full.violation, full.value) or _same(fast.value, full.value)
        return False
    assert full.violation is None, (text, full.violation)
    assert _same(fast.value, full.value), (text, fast.value, full.value)
    assert fast.written == [v for d in full.documents for v in node_values(d.node)], text
    # the nodes a fast reading composes on demand are the full reading's
    assert [v for d in fast.documents for v in node_values(d.node)] == fast.written
    return True


def _answered(items: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    return sum(_agree(text, options, monkeypatch) for text in items for options in OPTIONS)


def test_the_samples_agree(monkeypatch):
    assert _answered(list(YamlFormat.samples), monkeypatch) >= 6


def test_the_healing_fixtures_agree(monkeypatch):
    replies = [p.read_text(encoding="utf-8") for p in sorted((HERE / "fixtures" / "heal").iterdir())]
    assert _answered(replies, monkeypatch) >= 1


def test_the_pathological_shapes_agree(monkeypatch):
    assert _answered([case.make(case.size) for case in CASES], monkeypatch) >= 6


def test_generated_documents_agree(monkeypatch):
    """1,500 generated texts, each read with both option sets; the fast path must answer
    for a fair share of them (else this tests nothing)."""
    assert _answered(texts(20261202, 1_500), monkeypatch) >= 600


@pytest.mark.skipif(not (CORPUS / "yaml").is_dir(), reason="yaml-test-suite not found (FORMATBOOK_CONFORMANCE_DIR)")
def test_the_yaml_test_suite_agrees(monkeypatch):
    cases = sorted((CORPUS / "yaml").rglob("in.yaml"))
    answered = _answered([p.read_bytes().decode("utf-8") for p in cases], monkeypatch)
    assert answered >= 100


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # a duplicate key: the full reading words the violation and its span
        "~: 1\n~: 2\nx: 3\n",  # two null keys, let through by the full reading
        "a: &x [1]\nb: [*x, *x]\nc: *y\n",  # an unknown alias: the full reading words it
        "a: &x [*x]\n",  # an alias inside its own anchor: a cycle
        "a: &x [1]\n*x : 2\n",  # an alias as a key
        "a: !!int '7'\nb: 1\n",  # tags
        "a: ! 12\nb: 1\n",  # the non-specific tag: a string
        "%YAML 1.2\n---\na: 1\nb: 2\n",  # a directive
        "? [a, b]\n: 1\nc: 2\n",  # a collection as a key
        "Error: the request timed out.\n",  # one labelled pair: prose.py reads its nodes
        "a: |\n\n  x\nb: 1\n",  # leading blank lines in a block scalar
        "a: |\n  x\n   \nb: 1\n",  # a line of spaces in a block scalar
        "a: |2\n   x\nb: 1\n",  # an indentation indicator
        "\ufeffa: 1\nb: 2\n",  # a byte order mark
        "a: \u00851\nb: 2\n",  # NEL: a line break to YAML 1.1 and the readers
        "a: x\x01y\nb: 2\n",  # a control character: libyaml's reader refuses it
        "a: \x9b\nb: 2\n",  # a C1 character: likewise
        "a: \ud800\nb: 2\n",  # a lone surrogate: not UTF-8
        "a: 1\n---\nb: 2\n",  # a second document (where one is asked for)
        "- " + "x" * (MAX_KEY + 1) + ": 1\n  b: 2\n",  # a long key
    ],
)
def test_what_needs_nodes_is_left_to_the_full_reading(text, monkeypatch):
    assert fast_values(text, max_depth=1000, many=False) is None
    _agree(text, {}, monkeypatch)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "a: 1\nb: 3.10\nc: 0777\nd: yes\ne: ~\nf: '1'\n",
            {"a": 1, "b": 3.1, "c": "0777", "d": "yes", "e": None, "f": "1"},
        ),
        ("- [1, {x: .inf}]\n- 'it''s'\n- \"\\u00e9\"\n", [[1, {"x": math.inf}], "it's", "é"]),
        ("a: |\n  one\n  two\nb: >-\n  folded\n  text\n", {"a": "one\ntwo\n", "b": "folded text"}),
        ("a: 1\r\nb: two\r\n  words\r\n", {"a": 1, "b": "two words"}),
    ],
)
def test_the_fast_path_reads_these(text, value, monkeypatch):
    """Replies of the usual shapes are read fast, to the values written by hand."""
    fast = fast_values(text, max_depth=1000, many=False)
    assert fast is not None and fast[0] == [value]
    assert _agree(text, {}, monkeypatch)


def test_a_check_counts_the_values_the_fast_path_read():
    text = "title: Two words\nscore: 1.50\ntags: [a, b]\nempty:\nnone: null\n"
    assert fast_values(text, max_depth=1000, many=False) is not None
    result = check(text, "EXPECT YAML\nEXPECT MAX 50 WORDS")
    assert result.ok and result.counts == {"words": 5}  # Two words 1.50 a b


def test_a_schema_violation_is_shown_as_written():
    """The nodes a violation needs are composed after a fast read: ``3.10`` as written."""
    schema = {"properties": {"version": {"type": "integer"}}}
    result = check("version: 3.10\nname: x\n", Expectations(format="yaml", schema=schema))
    assert not result.ok and result.violations[0].message.startswith("3.10 is not of type 'integer'")


def test_nesting_near_the_limit_is_left_to_the_full_reading(monkeypatch):
    deep = "a: " + "[" * 20 + "]" * 20 + "\n"
    assert fast_values(deep, max_depth=30, many=False) is not None
    assert fast_values(deep, max_depth=21, many=False) is None
    for depth in (19, 20, 21, 22, 23):
        full = _full(deep, {}, monkeypatch, depth)
        fast = syntax.read(deep, {}, depth)
        assert (fast.violation is None) == (full.violation is None)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",
        "a: &x [1, {c: d, e: ~}]\nb: *x\nc: [*x, *x]\n",
        "base: &b {host: h, port: 80}\nprod: &p [*b, {extra: *b}]\nall: [*p, *p]\n",
        "- &s ' spaced '\n- *s\n- &n null\n- *n\n",  # written values: what node_values gives
        "a: &x [1]\n---\nb: 2\nc: 3\n",  # a second document (refused where one is asked for)
    ],
)
def test_aliases_to_complete_nodes_are_read_and_shared(text, monkeypatch):
    """An alias to a complete node is the anchored value itself, as in the full reading
    (whose memo shares it); the written values repeat the anchored node's."""
    for options in OPTIONS:
        if _agree(text, options, monkeypatch):
            break
    else:
        pytest.fail(f"the fast path answered none of {text!r}'s readings")
    value = fast_values("a: &x [1]\nb: *x\n", max_depth=1000, many=False)[0][0]
    assert value["a"] is value["b"]


def test_aliases_past_the_floor_or_the_depth_are_left():
    bomb = "a: &a [x, y]\nb: [" + ", ".join("*a" for _ in range(5_000)) + "]\n"
    assert fast_values(bomb, max_depth=1000, many=False) is None  # 15,000 nodes expanded
    deep = "a: &x " + "[" * 8 + "1" + "]" * 8 + "\nb: " + "[" * 8 + "*x" + "]" * 8 + "\n"
    # 17 levels of lists and the root once expanded: within max_depth - 2
    assert fast_values(deep, max_depth=18, many=False) is None
    assert fast_values(deep, max_depth=19, many=False) is not None
