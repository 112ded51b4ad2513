"""Empty, huge (a few MB) and binary input to every public function of this package's
modules: each gives its documented result and none hangs."""

from __future__ import annotations

import os

import pytest

from formatbook_markdown import (
    build_issues_envelope,
    build_outline,
    enforce_flex_md,
    extract_output,
    parse_issues_envelope,
    parse_list,
    parse_tables,
    render_outline,
    validate_output,
)
from formatbook_markdown.format import MarkdownFormat

from .helpers import SPEC

BINARY = bytes(range(256)).decode("latin-1") * 4 + "\x00\ud800"
HUGE = "## Short answer\n\n" + ("Plain words in a long answer. " * 100_000) + "\n\n## Reasoning\n\n1. x\n"  # ~3 MB
INPUTS = {"empty": "", "binary": BINARY, "huge": HUGE}


@pytest.mark.parametrize("name", list(INPUTS))
def test_enforce_and_layer_b(name):
    text = INPUTS[name]
    r = enforce_flex_md(text, SPEC, level=1)
    if name == "empty":
        assert not r.ok and r.issues[0].code == "markdown.empty"
    elif name == "binary":
        # no heading: the text is the preamble, and no section of the contract is there
        assert not r.ok and [i.code for i in r.issues] == ["markdown.no_sections"]
        assert r.extracted.preamble is not None
    else:
        assert r.ok and r.repairs == [] and r.repaired_md is text
        assert len(r.extracted.sections_by_name["Short answer"].md) > 2_000_000
    v = validate_output(text, SPEC)
    assert v.ok == r.ok
    ex = extract_output(text, SPEC)
    assert isinstance(ex.sections_by_name, dict)


@pytest.mark.parametrize("name", list(INPUTS))
def test_parsers(name):
    text = INPUTS[name]
    outline = build_outline(text)
    rendered = render_outline(outline)
    if name == "empty":
        assert outline.nodes == [] and rendered == ""
    elif name == "huge":
        assert [n.title for n in outline.nodes] == ["Short answer", "Reasoning"]
        assert rendered.startswith("## Short answer\n\nPlain words")
    else:
        assert outline.nodes == []
    assert parse_list(text) is None if name != "huge" else parse_list(text).items[0].text == "x"
    assert parse_tables(text) == []


@pytest.mark.parametrize("name", list(INPUTS))
def test_format_methods(name):
    fmt = MarkdownFormat()
    text = INPUTS[name]
    for schema in (None, SPEC):
        assert isinstance(fmt.is_valid(text, schema), bool)
        assert fmt.can_be_valid(text, schema) in (True, False)
        values = fmt.extract_values(text, schema)
        assert all(v.strip() for v in values)
        checker = fmt.stream(schema)
        checker.feed(text)
        assert isinstance(checker.finish().ok, bool)
    assert fmt.extract_values("", SPEC) == []
    if name == "huge":
        assert fmt.extract_scope(text, "Reasoning", SPEC) == ["x"]


def test_non_text_and_bytes():
    assert enforce_flex_md(b"## Short answer\nYes.\n## Reasoning\n1. a\n", SPEC).ok
    assert not enforce_flex_md(os.urandom(64) + b"\xff", SPEC).ok  # bad UTF-8 is replaced, then judged
    with pytest.raises(TypeError):
        enforce_flex_md(42, SPEC)
    assert build_outline(None).nodes == [] and render_outline(None) == ""
    assert parse_list(None) is None and parse_tables(b"x") == []
    assert parse_issues_envelope(None) is None and parse_issues_envelope("") is None
    assert parse_issues_envelope(BINARY) is None
    assert parse_issues_envelope(build_issues_envelope([])).issues == []
