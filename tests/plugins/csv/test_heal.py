"""Healing CSV replies written the way models write them: every healed reply is read back
and every value compared with what the reply meant (written here by hand), and every
repair is listed with a span into the reply."""

from __future__ import annotations

import csv
import io
import time

import pytest

from formatbook_core import HealError, check, get_format, heal

CSV = get_format("csv")
PEOPLE = [{"name": "Ada", "age": "36"}, {"name": "Alan", "age": "41"}]

# (label, reply, the rows it means, repair kinds that must be listed)
CASES = [
    (
        "fenced-with-spaces",
        "Sure! Here is the data:\n\n```csv\nname, age\nAda, 36\nAlan, 41\n```\nAnything else?",
        PEOPLE,
        {"located", "space_after_delimiter"},
    ),
    (
        "markdown-table",
        "| Name | Age |\n|:-----|----:|\n| Ada | 36 |\n| Alan | 41 |",
        [{"Name": "Ada", "Age": "36"}, {"Name": "Alan", "Age": "41"}],
        {"markdown_table", "alignment_row"},
    ),
    (
        "markdown-table-escaped-pipe",
        "| expr | meaning |\n|---|---|\n| a \\| b | a or b |\n| a, b | both |",
        [{"expr": "a | b", "meaning": "a or b"}, {"expr": "a, b", "meaning": "both"}],
        {"markdown_table"},
    ),
    (
        "semicolons-decimal-commas",
        "item;price\nTea;2,50\nCake;3,10\n",
        [{"item": "Tea", "price": "2,50"}, {"item": "Cake", "price": "3,10"}],
        {"delimiter"},
    ),
    ("tabs", "name\tage\nAda\t36\nAlan\t41\n", PEOPLE, {"delimiter"}),
    (
        "mixed",
        "name,age,city\nAda,36,London\nAlan;41;Wilmslow\n",
        [{"name": "Ada", "age": "36", "city": "London"}, {"name": "Alan", "age": "41", "city": "Wilmslow"}],
        {"mixed_delimiters"},
    ),
    (
        "unescaped-quotes",
        'name,quote\nAda,"She said "hi" to me"\nAlan,"ok"\n',
        [{"name": "Ada", "quote": 'She said "hi" to me'}, {"name": "Alan", "quote": "ok"}],
        {"unescaped_quote"},
    ),
    (
        "inch-mark",
        'item,size\nTV,55"\nPhone,6"\n',
        [{"item": "TV", "size": '55"'}, {"item": "Phone", "size": '6"'}],
        {"unescaped_quote"},
    ),
    ("blank-lines", "name,age\n\nAda,36\n\nAlan,41\n\n", PEOPLE, {"blank_line"}),
    ("truncated-last-row", "name,age\nAda,36\nAlan,41\nGrace", PEOPLE, {"located"}),
    ("truncated-in-quotes", 'name,age\nAda,36\nAlan,41\n"Grace, 8', PEOPLE, {"truncated_row"}),
    ("trailing-commas", "name,age\nAda,36,\nAlan,41,\n", PEOPLE, {"trailing_delimiter"}),
    ("trailing-commas-everywhere", "name,age,\nAda,36,\nAlan,41,\n", PEOPLE, {"trailing_delimiter"}),
    (
        "spaces-and-quoted",
        'name, city\nAda, "London, UK"\nAlan, "Wilmslow, UK"\n',
        [{"name": "Ada", "city": "London, UK"}, {"name": "Alan", "city": "Wilmslow, UK"}],
        {"space_after_delimiter"},
    ),
    ("crlf-and-spaces", "name, age\r\nAda, 36\r\nAlan, 41\r\n", PEOPLE, {"space_after_delimiter"}),
    (
        "prose-around",
        "Here are the results, as requested:\nname,age\nAda,36\nAlan,41\n\nLet me know if you need more.",
        PEOPLE,
        {"located"},
    ),
    (
        "intro-and-outro-sentences",
        "Here you go, enjoy.\nname,age\nAda,36\nAlan,41\nHope this helps, let me know!",
        PEOPLE,
        {"located"},
    ),
    ("think-then-table", "<think>They want CSV, two columns.</think>\nname,age\nAda,36\nAlan,41", PEOPLE, {"located"}),
    ("padded-header", "name ,age \nAda,36\nAlan,41\n", PEOPLE, {"header_spaces"}),
]


@pytest.mark.parametrize("label,reply,rows,kinds", CASES, ids=[c[0] for c in CASES])
def test_healed_reply_means_what_was_written(label, reply, rows, kinds):
    result = check(reply, "EXPECT CSV")
    assert result.ok, [str(v) for v in result.violations]
    assert result.verdict == "healed"
    assert result.value == rows
    assert kinds <= {r.kind for r in result.repairs}
    for r in result.repairs:
        assert r.span is not None and 0 <= r.span.start <= r.span.end <= len(reply)
    # the healed text is CSV any reader reads the same way
    parsed = list(csv.DictReader(io.StringIO(result.text, newline="")))
    assert parsed == rows


@pytest.mark.parametrize(
    "reply,code",
    [
        ("I think, however, that the answer is yes. But, honestly, it depends.", "csv.header"),
        ("Apples, oranges, and bananas are fruit.\nCarrots, peas, and beans are vegetables.", "csv.header"),
        ("Yes, I can.\nNo, you cannot.", "csv.header"),
        ("Name: Ada, Age: 36\nName: Alan, Age: 41", "csv.header"),
        ("First, preheat the oven.\nThen, mix the flour.\nFinally, bake it.", "csv.header"),
        ("name,age,city\nAda,36,London\nAlan,41,Wilmslow, UK\n", "csv.ambiguous_row"),
        ("name,age,city\nAda,36,London\nAlan,41\nGrace,85,Arlington\n", "csv.field_count"),
        ("name;age,city\nAda;36,London\n", "csv.header"),
        ("name;age\tcity\nAda;36\tLondon\n", "csv.ambiguous_delimiter"),
        ("1,2,3\n4,5,6\n", "csv.header"),
        ("name,name\nAda,Ada\n", "csv.duplicate_column"),
        ("name,age\n", "csv.no_data"),
        ("name,age\nAda,36\n\nname,age\nAlan,41\n", "csv.ambiguous_row"),
    ],
)
def test_fails_rather_than_guessing(reply, code):
    result = check(reply, "EXPECT CSV")
    assert not result.ok
    assert code in {v.code for v in result.violations}, [(v.code, v.message) for v in result.violations]
    with pytest.raises(HealError):
        CSV.heal(reply)


def test_prose_with_commas_is_answered_fast():
    prose = "Well, to be honest, I think, on balance, that it depends, mostly, on the weather. " * 2000
    start = time.process_time()
    assert not check(prose, "EXPECT CSV").ok
    assert time.process_time() - start < 5  # CPU seconds, generous: a hang, not a speed, fails


def test_ragged_row_padded_only_when_the_schema_lets_it_be_empty():
    reply = "name,age,city\nAda,36,London\nAlan,41\nGrace,85,Arlington\n"
    loose = {"columns": ["name", "age", "city"], "required": ["name"]}
    result = check(reply, __import__("formatbook_core").Expectations(format="csv", schema=loose))
    assert result.ok and result.value[1] == {"name": "Alan", "age": "41", "city": ""}
    assert "ragged_row" in {r.kind for r in result.repairs}
    strict = {"columns": ["name", "age", "city"], "required": ["city"]}
    result = check(reply, __import__("formatbook_core").Expectations(format="csv", schema=strict))
    assert not result.ok and result.violations[0].code == "csv.field_count"


def test_heal_writes_the_delimiter_asked_for():
    healed = get_format("tsv").heal("name,age\nAda,36\n")
    assert healed.text == "name\tage\nAda\t36\n"
    assert CSV.heal("a;b\n1,5;2\n").text == 'a,b\n"1,5",2\n'


def test_valid_reply_unchanged_and_idempotent():
    for sample in CSV.samples:
        assert CSV.heal(sample).text == sample and not CSV.heal(sample).repairs
    once = CSV.heal("name, age\nAda, 36\n\nAlan, 41")
    assert once.text == "name,age\nAda,36\nAlan,41"
    assert CSV.heal(once.text).text == once.text


def test_a_quote_left_open_across_lines_is_not_guessed():
    reply = 'name,notes\nAda,"never closed\nAlan,fine\n'
    assert not check(reply, "EXPECT CSV").ok
    with pytest.raises(HealError) as err:
        CSV.heal(reply)
    assert err.value.violations[0].code == "csv.unclosed_quote"


def test_truncated_last_row_dropped_and_listed():
    healed = CSV.heal("name,age,city\nAda,36,London\nAlan,41")
    assert healed.text == "name,age,city\nAda,36,London"
    assert [(r.kind, r.span) for r in healed.repairs] == [("truncated_row", (28, 35))]


@pytest.mark.parametrize("text", ["name\tage\n\t\n", "name\tage\n;\n", "name\tage\n\t\n\t\n"])
def test_a_last_row_of_empty_tab_fields_is_no_data_for_heal_or_analyze(text: str) -> None:
    # Found by the contract's mutated samples: heal read a line of tabs (or wrote the ';'
    # row with tabs) as a row of empty cells and returned it as valid, while the strict
    # reading takes a line of tabs after the table as white space (csv.no_data here).
    fmt = get_format("csv")
    assert not fmt.analyze(text, delimiter="tab").ok
    with pytest.raises(HealError):
        fmt.heal(text, delimiter="tab")


def test_a_line_of_tabs_after_rows_is_white_space_not_a_row() -> None:
    healed = get_format("csv").heal("name\tage\nAda\t36\n\t\n;\n", delimiter="tab")
    assert check(healed.text, "EXPECT CSV delimiter=tab").value == [{"name": "Ada", "age": "36"}]


@pytest.mark.parametrize(
    "reply",
    [
        "x| a | b |\n|---|---|\n| 1 | 2 |\n",  # the pipes read as delimiters: '2 ' ends the reply
        "x| a | b |\n| 1 | 2 |\r\n",
        "a|b|\n1|2 |\n",
        "a;b;\n1;2 ;\n",
        "a,b,\n1,2  ,\n\n",
        "a\tb\t\n1\t2 \t\n",
        "\x00| a | b |\n| 1 | 2 |\n",
    ],
)
def test_a_last_cell_ending_in_blanks_is_healed_once(reply: str) -> None:
    """Issue 30, held out: dropping a delimiter that ended the last line left the text
    ending in blanks before its line break; the next reading took them off (locate), so
    heal(heal(x)) != heal(x) and the last cell's value changed between the two."""
    expect = "EXPECT TSV" if "\t" in reply else "EXPECT CSV"
    result = check(reply, expect)
    once = heal(reply, expect).text
    assert heal(once, expect).text == once
    again = check(once, expect)
    assert again.ok and again.value == result.value
    assert result.value[-1][list(result.value[-1])[-1]].startswith("2")
