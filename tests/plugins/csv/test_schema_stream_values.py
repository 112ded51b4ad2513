"""Schemas (columns, required, JSON Schema typing, pydantic), the incremental checker and
counting through ``formatbook_core.check``."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_core import Count, ExpectationError, Expectations, StreamGuard, check, get_format, guidance

CSV = get_format("csv")
ROW_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "member": {"type": "boolean"}},
    "required": ["name", "age"],
}


def test_cells_typed_by_the_schema():
    result = check("name,age,member\nAda,42,true\nAlan,41,FALSE\n", Expectations(format="csv", schema=ROW_SCHEMA))
    assert result.verdict == "pass"
    assert result.value == [{"name": "Ada", "age": 42, "member": True}, {"name": "Alan", "age": 41, "member": False}]


def test_violation_names_row_and_column_with_the_cell_span():
    reply = "name,age,member\nAda,42,true\nAlan,forty,false\n"
    result = check(reply, Expectations(format="csv", schema=ROW_SCHEMA))
    assert not result.ok
    v = result.violations[0]
    assert v.path == (1, "age")
    assert 'row 2, column "age"' in v.message
    assert reply[v.span.start : v.span.end] == "forty"


def test_empty_required_cell_is_a_violation():
    result = check("name,age\nAda,\n", Expectations(format="csv", schema=ROW_SCHEMA))
    assert not result.ok and result.violations[0].path[:2] == (0, "age")


def test_columns_forms():
    assert check("name,age\nAda,36\n", Expectations(format="csv", schema=["age", "name"])).ok
    missing = check("name,city\nAda,London\n", Expectations(format="csv", schema=["name", "age"]))
    assert {v.code for v in missing.violations} == {"csv.missing_column", "csv.unexpected_column"}
    schema = {"columns": ["name", "age"], "required": ["age"]}
    bad = check("name,age\nAda,\n", Expectations(format="csv", schema=schema))
    assert [(v.code, v.path) for v in bad.violations] == [("csv.required", (0, "age"))]
    with pytest.raises(ExpectationError):
        _ = Expectations(format="csv", schema={"columns": ["a"], "required": ["b"]}).loaded_schema
    # a one-column table needs a schema
    assert not CSV.is_valid("name\nAda\n")
    assert check("name\nAda\n", Expectations(format="csv", schema=["name"])).ok


def test_columns_file_and_guidance(tmp_path):
    path = tmp_path / "columns.json"
    path.write_text(json.dumps({"columns": ["name", "age"], "required": ["name"]}))
    text = guidance(f"EXPECT CSV {path}")
    assert "name, age" in text and "Never leave empty: name" in text
    typed = guidance(Expectations(format="csv", schema=ROW_SCHEMA))
    assert "age (integer)" in typed and "member (boolean)" in typed
    assert "tabs" in guidance("EXPECT TSV")


def test_pydantic_model_rows():
    pydantic = pytest.importorskip("pydantic")

    class Person(pydantic.BaseModel):
        name: str
        age: int

    result = check("name,age\nAda,36\n", Expectations(format="csv", schema=Person))
    assert result.ok and result.value == [Person(name="Ada", age=36)]
    assert not check("name,age\nAda,old\n", Expectations(format="csv", schema=Person)).ok


def test_enum_case_and_column_spelling_repaired():
    schema = {"type": "object", "properties": {"first_name": {"type": "string"}, "level": {"enum": ["low", "high"]}}}
    result = check("firstName,level\nAda,HIGH\n", Expectations(format="csv", schema=schema))
    assert result.ok, result.violations
    assert result.value == [{"first_name": "Ada", "level": "high"}]
    assert {r.kind for r in result.repairs} == {"renamed_key", "enum_case"}


# --- streaming -------------------------------------------------------------------------
def test_extra_field_fails_at_its_delimiter():
    text = "a,b\n1,2,3\n"
    checker = CSV.stream(strict=True)
    statuses = [bool(checker.feed(ch)) for ch in text]
    assert statuses.index(False) == text.index(",3")
    assert not CSV.can_be_valid("a,b\n1,2,")
    assert CSV.can_be_valid("a,b\n1,2")


@pytest.mark.parametrize(
    "prefix",
    [
        'a,b\n1,"x"y',
        "a, b",
        "a,b\n1,2\n\n3",
        "a,b\r1",
        "a,b\n1, 2",
        'a,b\n"1" 2',
        "a,a,",
        "The answer is yes. But,",
        'a,b\n1,x"',
    ],
)
def test_impossible_prefixes_fail(prefix):
    assert not CSV.can_be_valid(prefix)


cell = st.text(alphabet=st.sampled_from(list('ab ,"\n\r;é')), max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(cell, min_size=2, max_size=2), min_size=1, max_size=4), st.booleans())
def test_every_prefix_of_a_valid_document_streams(rows, crlf):
    def cell_text(c: str) -> str:  # RFC 4180 quoting, written by hand (csv.writer leaves a lone \r bare)
        if any(ch in c for ch in ',"\r\n') or c.startswith(" "):
            return '"' + c.replace('"', '""') + '"'
        return c

    eol = "\r\n" if crlf else "\n"
    text = "name,value" + eol + "".join(",".join(cell_text(c) for c in row) + eol for row in rows)
    assert CSV.is_valid(text), text
    assert CSV.analyze(text).value == [{"name": r[0], "value": r[1]} for r in rows]
    checker = CSV.stream(strict=True)
    for i, ch in enumerate(text):
        assert checker.feed(ch), (text, i)
    assert checker.finish()


# --- values and counts -----------------------------------------------------------------
def test_values_are_data_cells_not_the_header():
    assert CSV.extract_values("name,comment\nAda,Hello there\nAlan,\n") == ["Ada", "Hello there", "Alan"]


def test_scoped_count_by_column():
    reply = "name,comment\nAda,short one\nAlan,a much longer comment than the other\n"
    result = check(reply, 'EXPECT CSV\nEXPECT MAX 10 WORDS IN "comment"')
    assert result.counts == {'words IN "comment"': 9}
    assert result.ok
    assert not check(reply, 'EXPECT CSV\nEXPECT MAX 8 WORDS IN "comment"').ok
    missing = check(reply, 'EXPECT CSV\nEXPECT MAX 8 WORDS IN "notes"')
    assert missing.violations[0].code == "count.scope_missing"
    assert check(reply, "EXPECT CSV\nEXPECT MAX 11 WORDS").counts == {"words": 11}


def test_guard_stops_on_a_settled_cell():
    guard = StreamGuard('EXPECT CSV\nEXPECT MAX 3 WORDS IN "comment"', strict=True)
    assert guard.feed("name,comment\nAda,one two")
    assert not guard.feed(" three four\n")


def test_tsv_alias():
    tsv = get_format("tsv")
    assert tsv.is_valid("a\tb\n1\t2\n") and not tsv.is_valid("a,b\n1,2\n")
    assert get_format("text/tab-separated-values").name == "csv"
    assert CSV.is_valid("a;b\n1;2\n", delimiter="auto")


def test_white_space_check_sets_aside_never_stops_the_strict_checker():
    # check() strips white space around the payload, so the strict guard may not stop there
    for text in ("a,b\n1,2\n\n\n", "a,b\n1,2\r\r", "\n\na,b\n1,2", 'a,b\n1,"2"  ', "a,b\n1, \n"):
        checker = CSV.stream(strict=True)
        assert all(checker.feed(ch) for ch in text), repr(text)
        assert (
            check(
                text,
                "EXPECT CSV",
            ).ok
            or text == "a,b\n1, \n"
        )


def test_a_limit_per_value_applies_to_each_cell():
    reply = "name,comment\nAda,short one\nAlan,a much longer comment than the other\n"
    total = check(reply, 'EXPECT CSV\nEXPECT MAX 10 WORDS IN "comment"')
    assert total.ok and total.counts == {'words IN "comment"': 9}
    each = check(reply, 'EXPECT CSV\nEXPECT MAX 5 WORDS IN "comment" per=value')
    assert not each.ok
    assert each.counts == {'words IN "comment" per value': 7}
    v = each.violations[0]
    assert v.code == "count.max" and "a much longer comment" in v.message
    assert check(reply, 'EXPECT CSV\nEXPECT MAX 7 WORDS IN "comment" per=value').ok
    # a total and a per-value limit on one column are two limits, not a contradiction
    both = check(reply, 'EXPECT CSV\nEXPECT MAX 9 WORDS IN "comment"\nEXPECT MAX 7 WORDS IN "comment" per=value')
    assert both.ok, both.violations
    low = check(reply, 'EXPECT CSV\nEXPECT MIN 3 WORDS IN "comment" per=value')
    assert not low.ok and low.counts == {'words IN "comment" per value': 2}
    assert "per=value" in each.violations[0].message or "in the value" in each.violations[0].message
    with pytest.raises(ExpectationError):
        Expectations(format="csv", counts=[Count("words", max=3, per="row")])
    assert "in each value" in guidance('EXPECT CSV\nEXPECT MAX 5 WORDS IN "comment" per=value')


@pytest.mark.parametrize(
    ("text", "options"),
    [("name\tage\nAda\t\r", {"delimiter": "\t"}), ("name|age\nAda|\r", {"delimiter": "auto"}), ("a,b\n1,2\r", {})],
)
def test_a_carriage_return_ending_the_text_ends_the_row(text, options):
    # found by the derandomised contract run in CI: is_valid strips the trailing white space,
    # the strict checker's finish() took the lone CR for a broken line end
    fmt = get_format("csv")
    checker = fmt.stream(None, strict=True, **options)
    assert checker.feed(text) and checker.finish()
    assert fmt.is_valid(text, None, **options)
