"""Flex-MD frames: parsing, writing back, validating, the JSON form."""

from __future__ import annotations

import dataclasses
import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formatbook_markdown.frames.json_form import flex_document_from_dict, flex_document_to_dict, is_flex_document_shape
from formatbook_markdown.frames.model import FlexDocument, FlexFrame, FlexPayload
from formatbook_markdown.frames.parse import parse_flex_md
from formatbook_markdown.frames.validate import validate_flex_md
from formatbook_markdown.frames.write import stringify_flex_md

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "frames"
DOCS = sorted(FIXTURES.glob("*.flexmd"))

# issues each fixture must report: (code, line, severity), written by hand
EXPECTED_ISSUES = {
    "conversation": [],
    "quoting": [("payload_parse_error", 17, "warning")],
    "broken": [
        ("bad_frame_header", 2, "warning"),
        ("dangling_payload", 5, "error"),
        ("unterminated_frame", 7, "error"),
        ("unterminated_fence", 8, "error"),
    ],
}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.stem)
def test_fixture_parses_to_expected(path: pathlib.Path) -> None:
    expected = json.loads((FIXTURES / f"{path.stem}.expected.json").read_text(encoding="utf-8"))
    assert dataclasses.asdict(parse_flex_md(path.read_text(encoding="utf-8"))) == expected


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.stem)
def test_fixture_round_trips(path: pathlib.Path) -> None:
    doc = parse_flex_md(path.read_text(encoding="utf-8"))
    assert parse_flex_md(stringify_flex_md(doc)) == doc


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.stem)
def test_fixture_validation(path: pathlib.Path) -> None:
    result = validate_flex_md(path.read_text(encoding="utf-8"))
    assert [(i.code, i.line, i.severity) for i in result.issues] == EXPECTED_ISSUES[path.stem]
    assert result.ok == all(sev != "error" for _, _, sev in EXPECTED_ISSUES[path.stem])


def test_every_fixture_has_expected_issues() -> None:
    assert {p.stem for p in DOCS} == set(EXPECTED_ISSUES)


# ------------------------------------------------------------------ headers and meta


def test_header_forms_and_quoted_values() -> None:
    doc = parse_flex_md('[[message role=user id=m1 ts="2024-01-01 10:00" mood="very \\"good\\""]]\nhi')
    frame = doc.frames[0]
    assert (frame.type, frame.role, frame.id, frame.ts) == ("message", "user", "m1", "2024-01-01 10:00")
    assert frame.meta == {"mood": 'very "good"'}
    assert frame.body_md == "hi"
    heading = parse_flex_md("### [[section id=s2]] Results  \ntext").frames[0]
    assert (heading.type, heading.id, heading.title, heading.body_md) == ("section", "s2", "Results", "text")


def test_bracket_line_with_trailing_text_is_not_a_header() -> None:
    doc = parse_flex_md("[[a]]\n[[Page]] is a wiki link\n    [[indented]]\n")
    assert [f.type for f in doc.frames] == ["a"]
    assert doc.frames[0].body_md == "[[Page]] is a wiki link\n    [[indented]]"


def test_meta_only_right_after_the_header_by_default() -> None:
    text = "[[m]]\n@a: 1\n\n@b: 2\nbody\n@c: 3\n"
    assert parse_flex_md(text).frames[0].meta == {"a": "1", "b": "2"}
    assert parse_flex_md(text).frames[0].body_md == "body\n@c: 3"
    anywhere = parse_flex_md(text, meta_anywhere=True).frames[0]
    assert anywhere.meta == {"a": "1", "b": "2", "c": "3"}
    assert anywhere.body_md == "body"


def test_meta_type_modes() -> None:
    text = '[[m]]\n@t: true\n@f: false\n@n: null\n@i: -12\n@x: 2.5e3\n@z: 0012\n@zero: 0\n@half: 0.5\n@q: "12"\n@tags: a, b,, c\n@s: hello'
    strings = parse_flex_md(text).frames[0].meta
    assert strings == {
        "t": "true",
        "f": "false",
        "n": "null",
        "i": "-12",
        "x": "2.5e3",
        "z": "0012",
        "zero": "0",
        "half": "0.5",
        "q": "12",
        "tags": ["a", "b", "c"],
        "s": "hello",
    }
    inferred = parse_flex_md(text, meta_type_mode="infer").frames[0].meta
    assert inferred == {
        "t": True,
        "f": False,
        "n": None,
        "i": -12,
        "x": 2500.0,
        "z": "0012",
        "zero": 0,
        "half": 0.5,
        "q": "12",
        "tags": ["a", "b", "c"],
        "s": "hello",
    }
    assert isinstance(inferred["i"], int) and isinstance(inferred["x"], float)
    schema = {"i": "integer", "x": float, "t": bool, "z": "integer", "s": "integer", "half": "array"}
    typed = parse_flex_md(text, meta_type_mode="schema", meta_schema=schema).frames[0].meta
    assert typed["i"] == -12 and typed["x"] == 2500.0 and typed["t"] is True
    assert typed["z"] == 12  # the schema wins over the leading-zero rule
    assert typed["s"] == "hello"  # does not convert: stays a string
    assert typed["half"] == ["0.5"]
    assert typed["f"] == "false"  # not in the schema: a string


def test_custom_array_keys() -> None:
    doc = parse_flex_md("[[m]]\n@tags: a, b\n@labels: x, y", array_keys=("labels",))
    assert doc.frames[0].meta == {"tags": "a, b", "labels": ["x", "y"]}


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        parse_flex_md("x", meta_type_mode="guess")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_flex_md(b"x")  # type: ignore[arg-type]


# ------------------------------------------------------------------ payloads


def test_payload_binding_needs_the_fence_next() -> None:
    text = "[[m]]\n@payload:name: a\n\n\n```json\n[1]\n```\n@payload:name: b\ntext\n```json\n[2]\n```"
    frame = parse_flex_md(text).frames[0]
    assert list(frame.payloads) == ["a"]
    assert frame.payloads["a"] == FlexPayload("json", "[1]", [1], None)
    assert frame.body_md == "@payload:name: b\ntext\n```json\n[2]\n```"


def test_payload_fence_rules() -> None:
    text = "[[m]]\n@payload:name: code\n````python\n```\nnot closed by three\n```\n````\n@payload:name: empty\n~~~\n~~~"
    frame = parse_flex_md(text).frames[0]
    assert frame.payloads["code"] == FlexPayload(
        "python", "```\nnot closed by three\n```", "```\nnot closed by three\n```"
    )
    assert frame.payloads["empty"] == FlexPayload(None, "", "")


def test_payload_bound_twice_keeps_the_last_and_warns() -> None:
    text = "[[m]]\n@payload:name: p\n```\none\n```\n@payload:name: p\n```\ntwo\n```"
    assert parse_flex_md(text).frames[0].payloads == {"p": FlexPayload(None, "two", "two")}
    issues = validate_flex_md(text).issues
    assert [(i.code, i.line, i.severity) for i in issues] == [("duplicate_payload", 6, "warning")]


def test_json_payload_errors_are_kept() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    frame = parse_flex_md(
        f"[[m]]\n@payload:name: d\n```json\n{deep}\n```\n@payload:name: big\n```json\n{'9' * 5000}\n```"
    ).frames[0]
    assert frame.payloads["d"].raw == deep
    assert frame.payloads["d"].value is None and frame.payloads["d"].parse_error
    assert frame.payloads["big"].value is None and frame.payloads["big"].parse_error


def test_table_payload_without_separator_is_an_error() -> None:
    frame = parse_flex_md("[[m]]\n@payload:name: t\n```table\n| a | b |\n| 1 | 2 |\n```").frames[0]
    assert frame.payloads["t"].value is None
    assert "separator" in frame.payloads["t"].parse_error


# ------------------------------------------------------------------ document level


def test_document_title_meta_and_untyped_first_frame() -> None:
    doc = parse_flex_md("# Title #\n\n@a: 1\n@tags: x\nloose text\n[[m]]\nbody")
    assert doc.title == "Title"
    assert doc.meta == {"a": "1", "tags": ["x"]}
    assert [(f.type, f.body_md) for f in doc.frames] == [("", "loose text"), ("m", "body")]


def test_text_without_frames() -> None:
    assert parse_flex_md("") == FlexDocument()
    assert parse_flex_md("\n  \n") == FlexDocument()
    assert parse_flex_md("just prose") == FlexDocument(frames=[FlexFrame(type="", body_md="just prose")])


def test_line_endings() -> None:
    assert parse_flex_md("[[m]]\r\n@a: 1\r\nx\ry") == parse_flex_md("[[m]]\n@a: 1\nx\ny")


# ------------------------------------------------------------------ writing back


def test_stringify_canonical_form() -> None:
    doc = FlexDocument(
        title="T",
        meta={"src": "x"},
        frames=[
            FlexFrame(
                type="message",
                role="user",
                title="Hello there",
                meta={"n": 3, "ok": True, "s": "true", "tags": ["a", "b"]},
                body_md="Hi.",
                payloads={"in": FlexPayload("json", '{"a": 1}', {"a": 1})},
            )
        ],
    )
    assert stringify_flex_md(doc) == (
        "# T\n\n@src: x\n\n"
        '[[message role=user title="Hello there"]]\n'
        '@n: 3\n@ok: true\n@s: "true"\n@tags: a, b\n\n'
        '@payload:name: in\n```json\n{"a": 1}\n```\n\n'
        "Hi.\n"
    )
    assert parse_flex_md(stringify_flex_md(doc), meta_type_mode="infer") == doc


@pytest.mark.parametrize(
    "doc",
    [
        FlexDocument(title="a\nb"),
        FlexDocument(frames=[FlexFrame(type="two words")]),
        FlexDocument(frames=[FlexFrame(type="m"), FlexFrame(type="")]),
        FlexDocument(frames=[FlexFrame(type="m", meta={"tags": ["a,b"]})]),
        FlexDocument(frames=[FlexFrame(type="m", meta={"other": ["a", "b"]})]),
        FlexDocument(frames=[FlexFrame(type="m", meta={"bad key": "x"})]),
        FlexDocument(frames=[FlexFrame(type="m", meta={"x": {"nested": 1}})]),
        FlexDocument(frames=[FlexFrame(type="m", payloads={" p": FlexPayload(None, "")})]),
    ],
)
def test_stringify_refuses_what_the_syntax_cannot_carry(doc: FlexDocument) -> None:
    with pytest.raises(ValueError):
        stringify_flex_md(doc)


_word = st.text(alphabet="abcxyz019_-", min_size=1, max_size=6).filter(lambda s: s[0].isalpha())
_value = st.text(alphabet="ab c,\"\\]='@#`:1.", max_size=12)
_meta = st.builds(
    lambda scalars, tags: {**scalars, **({"tags": tags} if tags is not None else {})},
    st.dictionaries(
        _word.filter(lambda k: k not in ("tags", "refs")),
        st.one_of(_value, st.integers(-99, 99), st.booleans(), st.none()),
        max_size=3,
    ),
    st.none() | st.lists(_word, max_size=3),
)
_body = st.lists(
    st.sampled_from(
        ["text", "", "- item", "```", "~~~", "@k: v", "## heading", "[[x]] y", "    code", "@payload:name:", "`a`"]
    ),
    max_size=6,
).map("\n".join)
_payload = st.builds(
    lambda lang, raw: FlexPayload(lang, raw, raw),
    st.sampled_from([None, "text", "python", "a`b"]),
    st.lists(st.sampled_from(["x", "```", "````", "~~~", "", "[[m]]", "@a: b"]), max_size=4).map("\n".join),
)
_frame = st.builds(
    FlexFrame,
    type=_word,
    role=st.none() | _value,
    id=st.none() | _value,
    ts=st.none() | _value,
    meta=_meta,
    title=st.none() | _value,
    body_md=st.just(""),
    payloads=st.dictionaries(_word, _payload, max_size=2),
)


@settings(max_examples=200, deadline=None)
@given(title=st.none() | _word, meta=_meta, frames=st.lists(_frame, max_size=4))
def test_generated_documents_round_trip_in_infer_mode(title, meta, frames) -> None:
    doc = FlexDocument(title=title, meta=meta, frames=frames)
    assert parse_flex_md(stringify_flex_md(doc), meta_type_mode="infer") == doc


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "[[m]]",
                "## [[s id=1]] T",
                "[[m role=user",
                "@a: 1",
                "@tags: x, y",
                "@payload:name: p",
                "```json",
                "```",
                "~~~",
                '{"a": 1}',
                "text",
                "",
                "# Title",
                "    ```",
                "[[a b]]",
                "@payload:name:",
                "\r",
                "\x00",
            ]
        ),
        max_size=25,
    ).map("\n".join)
)
def test_parse_stringify_parse_is_stable(text: str) -> None:
    for mode in ("strings", "infer"):
        for anywhere in (False, True):
            doc = parse_flex_md(text, meta_type_mode=mode, meta_anywhere=anywhere)
            again = parse_flex_md(stringify_flex_md(doc), meta_type_mode=mode, meta_anywhere=anywhere)
            assert again == doc
    result = validate_flex_md(text)
    assert result.ok == (not any(i.severity == "error" for i in result.issues))
    assert all(1 <= i.line <= text.count("\n") + text.count("\r") + 1 for i in result.issues)


# ------------------------------------------------------------------ validation


def test_validate_reports_the_three_structural_problems_with_lines() -> None:
    text = "[[message role=user\nhello\n[[m]]\n@payload:name: p\nno fence\n```\nopen"
    issues = [(i.code, i.line) for i in validate_flex_md(text).issues]
    assert issues == [("unterminated_frame", 1), ("dangling_payload", 4), ("unterminated_fence", 6)]
    assert validate_flex_md(text).ok is False


def test_validate_unclosed_quote_and_empty_payload_name() -> None:
    issues = [
        (i.code, i.line, i.severity) for i in validate_flex_md('[[m note="open]]\n[[m]]\n@payload:name:\n').issues
    ]
    assert issues == [("unterminated_frame", 1, "error"), ("bad_payload_declaration", 3, "error")]


def test_validate_clean_document() -> None:
    result = validate_flex_md("[[m]]\n@payload:name: p\n```json\n{}\n```\n")
    assert result.ok and result.issues == []


def test_dangling_payload_at_end_of_text() -> None:
    result = validate_flex_md("[[m]]\n@payload:name: p\n\n")
    assert [(i.code, i.line) for i in result.issues] == [("dangling_payload", 2)]
    assert parse_flex_md("[[m]]\n@payload:name: p\n\n").frames[0].body_md == "@payload:name: p"


# ------------------------------------------------------------------ JSON form


def test_json_form_round_trip() -> None:
    doc = parse_flex_md((FIXTURES / "conversation.flexmd").read_text(encoding="utf-8"))
    data = json.loads(json.dumps(flex_document_to_dict(doc)))
    assert data["frames"][0]["payloads"]["input"] == {
        "raw": '{"a": 1, "b": [true, null]}',
        "value": {"a": 1, "b": [True, None]},
        "lang": "json",
    }
    assert flex_document_from_dict(data) == doc


def test_json_form_is_tolerant() -> None:
    doc = flex_document_from_dict(
        {
            "frames": [
                {
                    "type": "m",
                    "id": 7,
                    "meta": {"x": {"y": 1}, "l": [1, "a"]},
                    "payloads": {"p": {"value": [1]}, "q": 3},
                }
            ]
        }
    )
    frame = doc.frames[0]
    assert frame.id == "7"
    assert frame.meta == {"x": '{"y": 1}', "l": ["1", "a"]}
    assert frame.payloads == {"p": FlexPayload(None, "[1]", [1], None)}


@pytest.mark.parametrize(
    "obj, shaped",
    [
        ({"frames": []}, True),
        ({"frames": [{"type": "m"}]}, True),
        ({"frames": [{}]}, True),
        ({"frames": [1]}, False),
        ({"frames": [{"type": 1}]}, False),
        ({"frames": {}}, False),
        ([], False),
        ({"a": 1}, False),
    ],
)
def test_shape(obj, shaped: bool) -> None:
    assert is_flex_document_shape(obj) is shaped
    if not shaped:
        with pytest.raises(ValueError):
            flex_document_from_dict(obj)


# ------------------------------------------------------------------ hostile input


def test_megabyte_inputs() -> None:
    lines = "\n".join(f"[[m id={i}]]\n@tags: a, b\nbody {i}" for i in range(10000))
    doc = parse_flex_md(lines)
    assert len(doc.frames) == 10000 and doc.frames[-1].id == "9999"
    assert parse_flex_md(stringify_flex_md(doc)) == doc
    long_header = "[[m " + "k=v " * 250_000 + "]]"
    assert len(parse_flex_md(long_header).frames[0].meta) == 1
    unclosed = '[[m a="' + "x" * 1_000_000
    assert validate_flex_md(unclosed).issues[0].code == "unterminated_frame"
    brackets = "[[" * 500_000
    assert parse_flex_md(brackets).frames[0].type == ""
    fences = "```\n" * 300_000
    assert validate_flex_md(fences).ok is True


def test_binary_ish_input() -> None:
    text = "\x00\x01[[m\x00]]\n@\x00: x\n\udcff\ufffe" * 20000
    doc = parse_flex_md(text)
    assert isinstance(doc, FlexDocument)
    assert isinstance(validate_flex_md(text).ok, bool)
    assert parse_flex_md(stringify_flex_md(doc)) == doc
