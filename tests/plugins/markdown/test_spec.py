"""The Output Format Spec: parsing contracts, writing them back, coercing plain structures."""

from __future__ import annotations

import dataclasses
import json
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formatbook_core import ExpectationError
from formatbook_markdown.contract.coerce import coerce_spec
from formatbook_markdown.contract.model import OfsSection, OfsTable, OutputFormatSpec, SpecError
from formatbook_markdown.contract.names import normalize_section_name
from formatbook_markdown.contract.parse import parse_output_format_spec
from formatbook_markdown.contract.write import stringify_output_format_spec

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "spec"
CONTRACTS = sorted(FIXTURES.glob("*.md"))


def _read(path: pathlib.Path) -> str:
    return path.read_bytes().decode("utf-8")  # keep \r\n as written


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_fixture_contract_parses_to_expected(path: pathlib.Path) -> None:
    expected = json.loads((FIXTURES / f"{path.stem}.expected.json").read_text(encoding="utf-8"))
    assert dataclasses.asdict(parse_output_format_spec(_read(path))) == expected


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_fixture_contract_round_trips(path: pathlib.Path) -> None:
    spec = parse_output_format_spec(_read(path))
    assert parse_output_format_spec(stringify_output_format_spec(spec)) == spec


def test_fixtures_exist() -> None:
    assert len(CONTRACTS) >= 5


def test_issue_contract_written_back_canonically() -> None:
    spec = parse_output_format_spec(_read(FIXTURES / "issue_contract.md"))
    assert stringify_output_format_spec(spec) == (
        "## Output format\n"
        "\n"
        "Include these sections somewhere (order does not matter):\n"
        "- Short answer — text (required)\n"
        "- Reasoning — ordered list (required)\n"
        "- Assumptions — list (optional)\n"
        "\n"
        "Tables (only if needed):\n"
        "- (Option, Cost, Risk — table)\n"
        "- (Step, Owner — ordered table, by Owner)\n"
        "\n"
        "Empty sections:\n"
        "- If a section is empty, write `None`.\n"
    )


# ------------------------------------------------------------------ section lines


SECTION_LINES = json.loads((FIXTURES / "section_lines.json").read_text("utf-8"))
TABLE_LINES = json.loads((FIXTURES / "table_lines.json").read_text("utf-8"))


@pytest.mark.parametrize(
    "line, expected",
    [(c["line"], OfsSection(c["name"], c["kind"], c["required"], c["hint"])) for c in SECTION_LINES],
)
def test_section_line(line: str, expected: OfsSection) -> None:
    assert parse_output_format_spec(line).sections == [expected]


@pytest.mark.parametrize(
    "line, expected", [(c["line"], OfsTable(c["columns"], c["kind"], c["by"])) for c in TABLE_LINES]
)
def test_table_line(line: str, expected: OfsTable) -> None:
    spec = parse_output_format_spec(line)
    assert spec.sections == []
    assert spec.tables == [expected]


def test_tables_block_takes_unparenthesised_entries() -> None:
    spec = parse_output_format_spec("- A — text\nTables:\n- X, Y — table")
    assert spec.tables == [OfsTable(["X", "Y"], "table", None)]
    assert spec.tables_optional is True


def test_intro_prose_is_tolerated_and_order_phrases_are_read() -> None:
    spec = parse_output_format_spec(
        "# Output\nPlease be concise.\nInclude these sections in the following order:\n- A — text\n"
    )
    assert spec.title == "Output"
    assert spec.section_order_matters is True
    spec = parse_output_format_spec("Use these sections in any order:\n- A — text\n")
    assert spec.section_order_matters is False
    assert spec.title is None


def test_later_heading_is_read_as_a_block_line() -> None:
    spec = parse_output_format_spec("## Output format\n- A — text\n### Tables (only if needed)\n- X, Y — table\n")
    assert spec.title == "Output format"
    assert spec.tables == [OfsTable(["X", "Y"])]


# ------------------------------------------------------------------ the empty value


def test_absent_empty_block_means_none_by_default() -> None:
    assert parse_output_format_spec("- A — text").empty_section_value == "None"


def test_prose_mentioning_empty_is_no_declaration() -> None:
    spec = parse_output_format_spec('- A — text\nSections may be empty in "rare" cases.\n- - -\n- B — list')
    assert spec.empty_section_value == "None"
    assert [s.name for s in spec.sections] == ["A", "B"]


def test_megabyte_of_empty_words() -> None:
    assert parse_output_format_spec("- A — text\n" + "empty " * 200_000 + "write").empty_section_value == "None"


@pytest.mark.parametrize(
    "block, expected",
    [
        ("Empty sections:\n- If a section is empty, write `N/A`.", "N/A"),
        ("Empty sections:\n- Write ``a ` b`` when there is nothing to say.", "a ` b"),
        ('Empty sections:\n- If empty, write "Nothing".', "Nothing"),
        ("Empty sections: write `-`.", "-"),
        ("If a section is empty, write `n/a`.", "n/a"),
        ("Empty sections:\n- Empty sections are not allowed.", None),
        ("Empty sections are not allowed.", None),
        ("Empty sections:\n- Do not leave a section empty.", None),
    ],
)
def test_empty_value_declarations(block: str, expected: str | None) -> None:
    assert parse_output_format_spec(f"- A — text\n\n{block}\n").empty_section_value == expected


def test_empty_value_none_round_trips() -> None:
    spec = OutputFormatSpec(sections=[OfsSection("A")], empty_section_value=None)
    text = stringify_output_format_spec(spec)
    assert "- Empty sections are not allowed." in text
    assert parse_output_format_spec(text) == spec


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "md, line_number, words",
    [
        (
            "## Output format\n- Short answer — text\n- Reasoning — paragraph list\n",
            3,
            ["paragraph list", "ordered list"],
        ),
        ("- Answer: a sentence or two", 1, ["a sentence or two", "kinds"]),
        ("- A — text\n- (A, B — tabel)", 2, ["table"]),
        ("- A — text\nTables:\n- A and B", 3, ["table"]),
        ("- A — text\nTables:\n- (A, B — table, sorted)", 3, ["sorted"]),
        ("- A — text\nTables:\n- (A, , B — table)", 3, ["column"]),
        ("- A — text\nEmpty sections:\n- Write nothing", 3, ["empty"]),
        ("- A — text\nEmpty sections:\n- write ` `", 3, ["blank"]),
        ("- A — text\n- **a**: list", 2, ["twice", "line 1"]),
        ("- — text", 1, ["name"]),
        ("- A — text\nEmpty sections:\n- write `x`\n- write `y`", 4, ["second"]),
    ],
)
def test_unreadable_contract_names_the_line(md: str, line_number: int, words: list[str]) -> None:
    with pytest.raises(SpecError) as info:
        parse_output_format_spec(md)
    err = info.value
    assert err.line_number == line_number
    assert err.line == md.split("\n")[line_number - 1]
    assert f"line {line_number}" in str(err)
    for word in words:
        assert word in str(err)


@pytest.mark.parametrize(
    "md",
    ["", "   \n\n", "## Output format\n", "## Output format\nJust prose here.\n", "Empty sections:\n- write `None`"],
)
def test_contract_without_sections_is_an_error(md: str) -> None:
    with pytest.raises(SpecError, match="no section"):
        parse_output_format_spec(md)


def test_spec_error_is_a_value_error() -> None:
    assert issubclass(SpecError, ValueError)
    assert issubclass(SpecError, ExpectationError)  # a bad contract is a bad expectation
    with pytest.raises(SpecError) as err:
        parse_output_format_spec("- A — lsit")
    assert (err.value.line, err.value.line_number, err.value.suggestion) == ("- A — lsit", 1, "list")
    with pytest.raises(ValueError):
        parse_output_format_spec(b"- A - text")  # type: ignore[arg-type]


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Short answer", "short answer"),
        ("  Short   answer :", "short answer"),
        ("**Reasoning:**", "reasoning"),
        ("**Reasoning**:", "reasoning"),
        ("__Reasoning__", "reasoning"),
        ("*Reasoning* —", "reasoning"),
        ("1. Reasoning", "reasoning"),
        ("3.2 Reasoning", "reasoning"),
        ("1) Reasoning", "reasoning"),
        ("**1. Reasoning:**", "reasoning"),
        ("Step 1", "step 1"),
        ("2024 plan", "2024 plan"),
        ("Pros - cons", "pros - cons"),
        ("", ""),
        ("***", "***"),
    ],
)
def test_normalize_section_name(text: str, expected: str) -> None:
    assert normalize_section_name(text) == expected


def test_section_lookup_uses_normalized_names() -> None:
    spec = parse_output_format_spec(_read(FIXTURES / "issue_contract.md"))
    assert spec.section("**SHORT ANSWER:**").name == "Short answer"
    assert spec.section("2. reasoning").kind == "ordered_list"
    assert spec.section("Conclusion") is None


# ------------------------------------------------------------------ writing back

# names, hints and columns made of words (no contract syntax in them: the writer must succeed)
_words = (
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123 '/é", min_size=1, max_size=20)
    .map(str.strip)
    .filter(lambda s: s[:1].isalnum())
)
_sections = st.builds(
    OfsSection,
    name=_words,
    kind=st.sampled_from(["prose", "list", "ordered_list"]),
    required=st.booleans(),
    hint=st.none() | _words | st.sampled_from(["optional", "required", "one, two; three"]),
)
_tables = st.builds(
    OfsTable,
    columns=st.lists(_words, min_size=1, max_size=4),
    kind=st.sampled_from(["table", "ordered_table"]),
    by=st.none() | _words,
)


@settings(max_examples=150, deadline=None)
@given(
    sections=st.lists(_sections, min_size=1, max_size=5, unique_by=lambda s: normalize_section_name(s.name)),
    tables=st.lists(_tables, max_size=3),
    tables_optional=st.booleans(),
    empty=st.none() | st.sampled_from(["None", "N/A", "—", "`x`", "nothing here"]),
    title=st.none() | _words,
    order=st.booleans(),
)
def test_stringify_round_trips(sections, tables, tables_optional, empty, title, order) -> None:
    spec = OutputFormatSpec(sections, tables, tables_optional, empty, title, section_order_matters=order)
    assert parse_output_format_spec(stringify_output_format_spec(spec)) == spec


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "- ",
                " — ",
                " - ",
                ":",
                "(",
                ")",
                "`",
                "**",
                "#",
                ",",
                "\n",
                "\r",
                " ",
                "text",
                "list",
                "ordered",
                "table",
                "by",
                "x",
                "Tables",
                "Empty sections",
                "(optional)",
                "write",
                "not allowed",
                "\x00",
                "1. ",
            ]
        ),
        max_size=40,
    ).map("".join)
    | st.text(max_size=80)
)
def test_any_text_parses_or_raises_spec_error(md: str) -> None:
    try:
        spec = parse_output_format_spec(md)
    except SpecError as err:
        assert err.line_number is None or err.line_number >= 1
        return
    assert spec.sections or spec.tables


def test_round_trip_holds_for_plain_specs() -> None:
    spec = OutputFormatSpec(
        [OfsSection("Short answer", hint="one sentence"), OfsSection("Steps", "ordered_list", False)],
        [OfsTable(["A", "B"], "ordered_table", "B")],
        tables_optional=False,
        empty_section_value="n/a",
        title=None,
        section_order_matters=True,
    )
    assert parse_output_format_spec(stringify_output_format_spec(spec)) == spec


@pytest.mark.parametrize(
    "spec",
    [
        OutputFormatSpec([OfsSection("two\nlines")]),
        OutputFormatSpec([OfsSection("Answer — list")]),
        OutputFormatSpec([OfsSection("A")], [OfsTable(["x, y"])]),
        OutputFormatSpec([OfsSection("A")], format="html"),
    ],
)
def test_stringify_refuses_what_it_cannot_write(spec: OutputFormatSpec) -> None:
    with pytest.raises(SpecError, match="cannot be written"):
        stringify_output_format_spec(spec)


# ------------------------------------------------------------------ coerce_spec


def test_coerce_returns_a_spec_as_is() -> None:
    spec = OutputFormatSpec([OfsSection("A")])
    assert coerce_spec(spec) is spec


def test_coerce_text_and_path(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _read(FIXTURES / "issue_contract.md")
    expected = parse_output_format_spec(text)
    assert coerce_spec(text) == expected
    f = tmp_path / "contract.md"
    f.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert coerce_spec(f) == expected
    monkeypatch.chdir(tmp_path)
    assert coerce_spec("contract.md") == expected  # a one-line file name is read


def test_coerce_path_errors(tmp_path: pathlib.Path) -> None:
    with pytest.raises(SpecError, match="cannot read"):
        coerce_spec(tmp_path / "missing.md")
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"- A \xff text")
    with pytest.raises(SpecError, match="not UTF-8"):
        coerce_spec(bad)


def test_coerce_dict_and_list() -> None:
    spec = coerce_spec(
        {
            "sections": [
                {"name": "Short answer", "kind": "text"},
                {"name": "Reasoning", "kind": "ordered_list", "required": True, "hint": "steps"},
                {"name": "Assumptions", "kind": "bullets", "optional": True},
                "Risks — list (optional)",
            ],
            "tables": [{"columns": ["#", "Step", "Owner"], "kind": "ordered table", "by": "Owner"}, "(A, B — table)"],
            "empty_section_value": None,
        }
    )
    assert spec.sections == [
        OfsSection("Short answer", "prose", True, None),
        OfsSection("Reasoning", "ordered_list", True, "steps"),
        OfsSection("Assumptions", "list", False, None),
        OfsSection("Risks", "list", False, None),
    ]
    assert spec.tables == [OfsTable(["Step", "Owner"], "ordered_table", "Owner"), OfsTable(["A", "B"], "table", None)]
    assert spec.empty_section_value is None
    assert coerce_spec(["- A — list", {"name": "B"}]).sections == [OfsSection("A", "list"), OfsSection("B")]


def test_coerce_flexmd_camel_case_json() -> None:
    spec = coerce_spec(
        {
            "descriptorType": "output_format_spec",
            "format": "markdown",
            "sectionOrderMatters": False,
            "sections": [{"name": "Short answer", "kind": "prose"}],
            "tablesOptional": True,
            "tables": [],
            "emptySectionValue": "None",
        }
    )
    assert spec == OutputFormatSpec([OfsSection("Short answer")])


@pytest.mark.parametrize(
    "obj, words",
    [
        (42, "int"),
        (None, "NoneType"),
        (b"- A - text", "bytes"),
        ({"sections": "A"}, "sections"),
        ({"sections": [{"name": "A", "kind": "paragraph"}]}, "sections[0].kind"),
        ({"sections": [{"name": ""}]}, "sections[0].name"),
        ({"sections": [{"name": "A", "required": "yes"}]}, "sections[0].required"),
        ({"sections": [{"name": "A", "colour": "red"}]}, "unknown keys"),
        ({"sections": [{"name": "A"}, {"name": "a:"}]}, "twice"),
        ({"sections": [1]}, "sections[0]"),
        ({"sections": []}, "no section"),
        ({"sections": [{"name": "A"}], "tables": [{"columns": []}]}, "tables[0].columns"),
        ({"sections": [{"name": "A"}], "empty_section_value": ""}, "empty_section_value"),
        ({"sections": [{"name": "A"}], "bogus": 1}, "unknown spec key"),
        ({"sections": [{"name": "A"}], "format": "json"}, "format"),
        (["A — paragraph"], "unknown section kind"),
        ([], "no section"),
    ],
)
def test_coerce_rejects_with_spec_error(obj, words: str) -> None:
    with pytest.raises(SpecError) as info:
        coerce_spec(obj)
    assert words in str(info.value)


# ------------------------------------------------------------------ hostile input


def test_huge_contract_is_read_in_linear_time() -> None:
    lines = [f"- Section {i} — list (optional), hint {i}" for i in range(20000)]
    spec = parse_output_format_spec("## Output format\n" + "\n".join(lines))
    assert len(spec.sections) == 20000
    assert spec.sections[-1] == OfsSection("Section 19999", "list", False, "hint 19999")


@pytest.mark.parametrize(
    "md",
    [
        "- A — text\n" + "x " * 500_000,
        "- A — text\n" + " " * 1_000_000 + "x",
        "- A — text\n- (" + "B, " * 300_000 + "C — table, by " + " " * 100_000 + "x)",
        "- A — text\nEmpty sections: " + "`a" * 300_000,
    ],
    ids=["prose", "spaces", "wide-table", "backticks"],
)
def test_megabyte_lines_do_not_hang(md: str) -> None:
    spec = parse_output_format_spec(md)
    assert spec.sections[0] == OfsSection("A")


@pytest.mark.parametrize(
    "md",
    ["- A — list x" * 100_000, "- " + "*" * 1_000_000, "- A " + "— lists " * 150_000 + "x"],
    ids=["separators", "stars", "near-kinds"],
)
def test_megabyte_broken_lines_raise_spec_error(md: str) -> None:
    with pytest.raises(SpecError):
        parse_output_format_spec(md)


def test_megabyte_hint_after_a_kind() -> None:
    spec = parse_output_format_spec("- A " + "— list " * 150_000 + "x")
    assert spec.sections[0].kind == "list"
    assert spec.sections[0].hint.startswith("list — list")
    assert spec.sections[0].hint.endswith("— list x")


def test_normalize_megabyte_name() -> None:
    assert normalize_section_name("*" * 1_000_000 + "x").endswith("x")
    assert normalize_section_name("1. " * 300_000).startswith("1.")  # bounded rounds: a leftover stays


def test_binary_ish_contract() -> None:
    with pytest.raises(SpecError):
        parse_output_format_spec("\x00\x01\x02\ufffd\udcff" * 1000)
    spec = parse_output_format_spec("- A\x00B — text\n\x07")
    assert spec.sections == [OfsSection("A\x00B")]


_TOKENS = st.sampled_from(
    ["a", "b", " ", "—", "-", ":", "(", ")", ",", "`", "#", "*", "|", "text", "list", "ordered", "table"]
    + ["required", "optional", "by", "None", "empty", "write", ".", "\\", "\t"]
)


_LINE = st.lists(_TOKENS, max_size=10).map("".join)


_CONTRACT = st.lists(
    st.one_of(
        _LINE,
        _LINE.map(lambda s: "- " + s),
        _LINE.map(lambda s: "- (" + s + ")"),
        st.sampled_from(["## Output format", "Tables:", "Empty sections:", "- If a section is empty, write `None`."]),
    ),
    max_size=7,
).map("\n".join)


def test_a_section_named_with_a_parenthesis_is_written_back():
    """Issue 9, hardening (was test_hardening.py): 10. small cases."""
    spec = parse_output_format_spec("## Output format\n- (0\n- (a) (optional) — list")
    text = stringify_output_format_spec(spec)
    assert parse_output_format_spec(text) == spec
    assert [(s.name, s.kind, s.required) for s in spec.sections] == [("(0", "prose", True), ("(a)", "list", False)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CONTRACT)
def test_every_contract_the_parser_accepts_is_written_back(text):
    """Issue 9, hardening (was test_hardening.py): 10. small cases."""
    try:
        spec = parse_output_format_spec(text)
    except SpecError:
        return
    assert parse_output_format_spec(stringify_output_format_spec(spec)) == spec
