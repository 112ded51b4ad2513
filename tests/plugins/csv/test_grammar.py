"""CSV's grammar export: the declared columns as GBNF and Lark (header fixed, rows with one
field per column, quoting), checked with Lark, llguidance and xgrammar on held samples and
damaged ones, and the subset rule over single-character edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from formatbook_core import Expectations, check
from formatbook_core.exports import grammar
from formatbook_core.testing.grammars import accepts
from formatbook_csv import CsvFormat
from tests.grammar_cases import ALL, assert_grammar, assert_subset

REPLIES = Path(__file__).parents[3] / "examples" / "replies"


def exp(schema=None, **options) -> Expectations:
    return Expectations(format="csv", schema=schema, options=options)


def test_the_team_example_and_its_columns():
    e = exp(str(REPLIES / "schemas" / "people-columns.json"))  # name, role required; years
    good = [
        (REPLIES / "pass-csv-team.csv").read_text(),
        "name,role,years\r\nAda,Analyst,\r\n",
        'name,role,years\n"Lovelace, Ada","She said ""hi""",3',
        'name,role,years\nAda,"Two\nlines",3\nAlan,R,',
    ]
    bad = [
        "name,role,years\n",  # no data row
        "name,role,years\nAda,Analyst\n",  # a field missing
        "name,role,years\nAda,Analyst,3,4\n",  # one too many
        'name,role,years\nAda,"",3\n',  # a required column left empty
        "name,role,years\n,Analyst,3\n",
        "name,role,years\nAda, Analyst,3\n",  # a blank opening an unquoted field
        "name,role,years\nAda,Analyst,3 \n",  # white space ending one
        'name,role,years\nAda,Ana"lyst,3\n',  # a quote inside an unquoted field
        "role,name,years\nAnalyst,Ada,3\n",  # the header is fixed
        "name,role,years\nAda,Analyst,3\n\n",  # a blank line
        "name,role,years\rAda,Analyst,3",  # a lone CR is no line end
    ]
    assert_grammar(e, good, bad)
    assert grammar(e).left == ()


def test_a_json_schema_types_the_fields():
    e = exp(str(REPLIES / "schemas" / "order-row.json"))  # sku, quantity (integer, minimum 1), status (enum)
    good = ["sku,quantity,status\nA-100,2,open\nB-200,12,shipped\n"]
    bad = [
        (REPLIES / "fail-csv-schema.csv").read_text(),  # quantity "two"
        "sku,quantity,status\nA-100,2,lost\n",
        "sku,quantity,status\nA-100,,open\n",  # required
        "sku,quantity,status\nA-100,2.5,open\n",
    ]
    assert_grammar(e, good, bad)
    assert grammar(e).left == ("minimum (column quantity)",)


def test_types_optional_columns_and_a_header_cell_that_needs_quotes():
    schema = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "price, EUR": {"type": "number"},
            "ok": {"type": "boolean"},
            "note": {"type": "string"},
        },
        "required": ["id"],
    }
    good = ['id,"price, EUR",ok,note\n1,2.5,true,fine\n2,,,\n-3,4,false,""\n']
    bad = [
        'id,"price, EUR",ok,note\n1,x,true,a\n',
        'id,"price, EUR",ok,note\n1,2,yes,a\n',
        "id,price, EUR,ok,note\n1,2,true,a\n",
    ]
    assert_grammar(exp(schema), good, bad)


def test_the_delimiter_option_and_the_tsv_alias():
    columns = ["a", "b"]
    assert_grammar(exp(columns, delimiter=";"), ["a;b\n1;x y\n"], ["a,b\n1,2\n", "a;b\n1;2;3\n"])
    tsv = Expectations(format="tsv", schema=columns)
    # a tab ending the text is stripped with it by check() (a\tb\n1\t\n has no data row
    # there): the last column's field is never empty in TSV
    assert_grammar(tsv, ["a\tb\n1\tx y\n", "a\tb\n\t1\n"], ["a,b\n1,2\n", "a\tb\n1\t 2\n", "a\tb\n1\t\n"])


def test_one_column_never_writes_a_blank_line():
    # a blank line is no row: an empty field of the only column is written ""
    assert_grammar(exp(["name"]), ['name\nAda\n""\nAlan'], ["name\nAda\n\nAlan\n"])


def test_without_columns_the_samples_of_the_format_and_tables_of_plain_names():
    good = [*CsvFormat.samples, "a b,c_2\n1,\n"]
    bad = [
        "a,b\n1,2,3\n",  # a row of another length
        "a,b\n1\n",
        "I think, however, that it depends.\nyes, no\n",  # prose: no header of names
        "1,2\n3,4\n",  # numbers are no header
        "Name: Ada,x\n1,2\n",  # a label with its value
        "a\n1\n",  # one column needs a schema
        "a,b\n",
    ]
    assert_grammar(exp(), good, bad)
    assert grammar(exp()).left == ("unique column names",)
    # what is left is the checker's: a header naming a column twice matches, and fails
    assert accepts(grammar(exp()), "a,a\n1,2\n") == ALL and not check("a,a\n1,2\n", exp()).ok


def test_a_json_schema_without_properties_leaves_the_row_schema_to_the_checker():
    assert "the row schema (no declared columns)" in grammar(exp({"type": "object", "minProperties": 2})).left


@pytest.mark.parametrize(
    ("schema", "sample"),
    [
        (["name", "role"], 'name,role\nAda,"A, B"\nAl,x\n'),
        ({"columns": ["id", "n"], "required": ["id"]}, "id,n\r\nx1,\r\n"),
        (None, 'id,name\n1,"A, B"\n,x'),
        (
            {
                "type": "object",
                "properties": {"q": {"type": "integer"}, "s": {"enum": ["a", "b c"]}},
                "required": ["s"],
            },
            "q,s\n12,b c\n,a",
        ),
    ],
)
def test_a_text_the_grammar_matches_passes_check(schema, sample):
    assert assert_subset(exp(schema), [sample]) > 5
