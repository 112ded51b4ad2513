"""Outline, lists, tables and the Issues Envelope."""

from __future__ import annotations

from formatbook_core import Repair
from formatbook_markdown import (
    Issue,
    build_issues_envelope,
    build_outline,
    parse_issues_envelope,
    parse_list,
    parse_tables,
    render_outline,
)


def test_outline_nests_by_level_and_ignores_code():
    md = "Intro\n\n# A\na\n## B\nb\n```\n# not a heading\n```\n### C\nc\n## D\nTitle\n=====\nt\n"
    outline = build_outline(md)
    assert outline.preamble == "Intro"
    assert [(n.title, n.level) for n in outline.nodes] == [("A", 1), ("Title", 1)]
    a = outline.nodes[0]
    assert [c.title for c in a.children] == ["B", "D"]
    assert [c.title for c in a.children[0].children] == ["C"]
    assert "# not a heading" in a.children[0].content_md


def test_render_outline_writes_no_keys():
    md = "## Same\nx\n\n## Same\ny\n"
    outline = build_outline(md)
    assert [n.key for n in outline.nodes] == ["same", "same-2"]
    assert render_outline(outline) == "## Same\n\nx\n\n## Same\n\ny\n"
    assert "same-2" not in render_outline(outline)


def test_lists_nest_by_indentation_with_every_marker():
    parsed = parse_list("- a\n  + b\n    * c\n- d\n\n1) one\n2) two\n   continued\n")
    assert [i.text for i in parsed.items] == ["a", "d", "one", "two continued"]
    assert parsed.items[0].children[0].text == "b"
    assert parsed.items[0].children[0].children[0].text == "c"
    assert [i.index for i in parsed.items] == [None, None, 1, 2]
    assert not parsed.ordered
    assert parse_list("1. x\n2. y\n").ordered
    assert parse_list("---\n\nplain\n") is None
    assert parse_list("```\n- in code\n```\n") is None


def test_tables():
    tables = parse_tables("| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 \\| 4 | 5 |\n\nx | y\n---|---\n7 | 8\n")
    assert [(t.columns, t.rows) for t in tables] == [
        (["a", "b"], [["1", "2"], ["3 | 4", "5"]]),
        (["x", "y"], [["7", "8"]]),
    ]
    ordered = parse_tables("| # | Step |\n|---|---|\n| 1 | go |\n")[0]
    assert ordered.kind == "ordered_table"


def test_envelope_round_trip():
    issues = [
        Issue("markdown.missing_section", "the required section 'Reasoning' is\nmissing", "Reasoning"),
        Issue("markdown.table_columns", "wrong columns"),
    ]
    repairs = [Repair("filled", "added 'Assumptions'")]
    text = build_issues_envelope(issues, repairs, level=2)
    assert text.startswith("# Flex-MD Issues Envelope\n")
    env = parse_issues_envelope("Some prose first.\n\n" + text)
    assert env.status == "failed" and env.level == 2
    assert [(i.code, i.section, i.message) for i in env.issues] == [
        ("markdown.missing_section", "Reasoning", "the required section 'Reasoning' is missing"),
        ("markdown.table_columns", None, "wrong columns"),
    ]
    assert [(r.kind, r.message) for r in env.repairs] == [("filled", "added 'Assumptions'")]
    assert parse_issues_envelope("## Short answer\nYes.") is None
