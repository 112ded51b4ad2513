"""Replies a new user checked as models write them, each a bug found in review: the
reply must never pass with data it did not mean."""

from __future__ import annotations

import pytest

from formatbook_core import HealError, check, get_format, heal

FMT = get_format("yaml")
from formatbook_yaml.lines import FLOW_DEPTH
from formatbook_yaml.loading import PARSER_DEPTH


@pytest.mark.parametrize(
    "reply",
    [
        "key: value\nkey: other",
        "a: 1\nb: 2\na: 3",
        "name: Ada\nname: Bob\n",
    ],
)
def test_a_duplicate_key_on_the_last_line_is_not_dropped_as_a_cut_off_line(reply: str) -> None:
    # The last line holds a complete key (its ':' is written): no cut-off end makes a
    # key repeat, so dropping the line as "truncated" silently loses one of the values.
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert "yaml.duplicate_key" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("zip: 01234", {"zip": "01234"}),
        ("mode: 0777", {"mode": "0777"}),
        ("code: -007", {"code": "-007"}),
        ("n: 0", {"n": 0}),
        ("n: -0", {"n": 0}),
        ("n: 10", {"n": 10}),
        ("x: 0.5", {"x": 0.5}),
    ],
)
def test_an_integer_with_a_leading_zero_stays_the_text_written(reply: str, expected: dict) -> None:
    # README: "`0777` ... are strings". The code read them as decimal ints (777, 1234),
    # losing the zip code's leading zero.
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


def test_an_explicit_int_tag_still_reads_a_leading_zero_as_a_number() -> None:
    result = check("mode: !!int 0777", "EXPECT YAML")
    assert result.ok
    assert result.value == {"mode": 777}


@pytest.mark.parametrize("reply", ["Steps:\n1. first\n2. second", "Answer:\n42 apples\nand 3 pears."])
def test_a_heading_over_prose_is_not_a_key_of_null(reply: str) -> None:
    # The heading was located as the payload and the prose under it set aside: ok=True
    # with {'Steps': None}, the steps the reply gave gone from the value.
    result = check(reply, "EXPECT YAML")
    assert not result.ok


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Here is the list:\n- a\n- b", ["a", "b"]),
        ("config:\n  name: Ada\n\nThat is all.", {"config": {"name": "Ada"}}),
        ("name: Ada\nage: 30\nNote that the age is approximate.", {"name": "Ada", "age": 30}),
    ],
)
def test_prose_around_data_is_still_set_aside(reply: str, expected: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


@pytest.mark.parametrize(
    "reply",
    ["color: #ff0000\nsize: 3", "size: 3\ncolor: #ff0000", "colors:\n  - #ff0000\n  - #00ff00"],
)
def test_a_value_starting_with_a_hash_is_not_read_strictly(reply: str) -> None:
    # It passed as {'color': None}: YAML reads '#ff0000' as a comment, the writer meant the colour.
    assert not FMT.is_valid(reply)
    assert [v.code for v in FMT.analyze(reply).violations] == ["yaml.ambiguous"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("color: #ff0000\nsize: 3", {"color": "#ff0000", "size": 3}),
        ("color: #ff0000", {"color": "#ff0000"}),
        ("color: #ff0000 # red\n", {"color": "#ff0000"}),
        ("tags: #python #yaml\nn: 1", {"tags": "#python #yaml", "n": 1}),
        ("colors:\n  - #ff0000\n  - #00ff00", {"colors": ["#ff0000", "#00ff00"]}),
        ("- name: a\n  color: #abc\n- name: b", [{"name": "a", "color": "#abc"}, {"name": "b"}]),
    ],
)
def test_a_value_starting_with_a_hash_heals_into_the_text_written(reply: str, expected: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert "quoted_scalar" in [r.kind for r in result.repairs]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("a: # a comment\nb: 2", {"a": None, "b": 2}),
        ("a: #note\n  b: 1", {"a": {"b": 1}}),
        ("a: #note\n- 1\n- 2", {"a": [1, 2]}),
        ("- #note\n  k: v", [{"k": "v"}]),
    ],
)
def test_a_comment_over_a_nested_value_or_after_a_space_stays_a_comment(reply: str, expected: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert not result.repairs


def test_a_glued_hash_line_keeps_every_prefix_streamable() -> None:
    # the key may still get a nested value: only the next line (or the end) decides
    text = "color: #ff0000\nsize: 3\n"
    for cut in range(len(text) + 1):
        assert FMT.can_be_valid(text[:cut]) == (cut <= len("color: #ff0000\n") + len("size: 3")), cut


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("key: 'it's broken'", {"key": "it's broken"}),
        ("quote: '\"Hello\" world'", {"quote": '"Hello" world'}),
        ("key: 'a' and 'b'", {"key": "'a' and 'b'"}),
        ('key: "Hello" world', {"key": '"Hello" world'}),
    ],
)
def test_an_apostrophe_in_a_single_quoted_value_keeps_the_quotes_as_quotes(reply: str, expected: object) -> None:
    # "key: 'it's broken'" passed as {'key': "'it's broken'"}: the writer's quotes became data.
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


@pytest.mark.parametrize(
    "reply",
    [
        "list:\n  - 1\n  - 2\n  -3",  # meant '- 3': no continuation of '  -3' is valid
        "Answer:\n42",  # the value at the key's margin, or a next key cut off
        "name: Ada\nbio:\nLoves maths",
        "steps:\n  - mix\n  - bake:\n  - cool\n  -serve",
    ],
)
def test_a_last_line_no_cut_explains_alone_is_not_dropped(reply: str) -> None:
    # It passed as {'list': [1, 2]} and {'Answer': None}: the truncation step dropped any
    # last line whose removal made the text valid.
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert "yaml.ambiguous" in [v.code for v in result.violations]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            "items:\n  - name: Bread\n    qty: 2\n  - name: Milk\n    qty",
            {"items": [{"name": "Bread", "qty": 2}, {"name": "Milk"}]},
        ),
        ("person:\n  name: Ada\n  ag", {"person": {"name": "Ada"}}),
    ],
)
def test_a_cut_off_last_line_is_still_dropped(reply: str, expected: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert "truncated_line" in [r.kind for r in result.repairs]


@pytest.mark.parametrize("reply", ["- apples\n- bananas\ncherries", "- apples\n- bananas\ncherries\n\nEnjoy them."])
def test_a_short_line_after_the_data_is_not_set_aside_as_prose(reply: str) -> None:
    # 'cherries' (its '- ' forgotten) was set aside as trailing prose: ok=True without it.
    result = check(reply, "EXPECT YAML")
    assert not result.ok


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("- apples\n- bananas\nThese are my favourites.", ["apples", "bananas"]),
        ("name: Ada\nage: 36\nHope this helps!", {"name": "Ada", "age": 36}),
        ("name: Ada\nLet me know if you need more", {"name": "Ada"}),
    ],
)
def test_a_sentence_after_the_data_is_still_set_aside(reply: str, expected: object) -> None:
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert [s.kind for s in result.set_aside] == ["prose"]


def test_flow_collections_nested_past_the_loaders_depth_are_refused_at_once():
    # fuzz seed 909: 480 nested flow collections took the loader seconds per read (heal
    # reads many times) before it refused them; the line scanner now refuses them first
    assert FLOW_DEPTH == PARSER_DEPTH
    result = check('[{"":' * 240 + "es\nof text.\n", "EXPECT YAML")
    assert not result.ok and result.violations[0].code == "yaml.too_deep"
    assert check("[" * 250 + "]" * 250, "EXPECT YAML").ok  # the deepest the loader reads


def test_collection_keys_nested_in_collection_keys_are_refused_before_they_explode() -> None:
    # fuzz seed 2112: '{' * 50 took minutes (32 levels: 18 s). A collection key reads as its
    # JSON text, and each level escapes the one below again, so the key doubles per level.
    nested = "{" * 20 + "}" * 20
    result = check(nested, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.key_too_large"]
    shallow = check("{" * 3 + "}" * 3, "EXPECT YAML")
    assert shallow.ok and shallow.value == {'{"{}": null}': None}  # the key: the inner mapping as JSON
    assert not check("{" * 50, "EXPECT YAML").ok  # the cut-off form: refused, in well under a second


@pytest.mark.parametrize(
    "reply",
    [
        'a: "\\Uaaaaaaaa"',  # past 2**31: ruamel's chr() overflows (fuzz seed 7777, 2189c12a8e)
        'a: "\\U00110000"',  # one past the last code point: chr() raises ValueError
        '- "x\\Ufffffffff',  # cut off too
    ],
)
def test_an_escape_past_the_last_code_point_is_a_syntax_violation(reply: str) -> None:
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.syntax"]
    assert "names no Unicode character" in result.violations[0].message
    with pytest.raises(HealError):
        heal(reply, "EXPECT YAML")


def test_the_last_code_point_is_read() -> None:
    assert check('a: "\\U0010FFFF"', "EXPECT YAML").value == {"a": "\U0010ffff"}
