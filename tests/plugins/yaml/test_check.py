"""YAML check(): verdicts and values of whole replies as models write them (a reply must
never pass with data it did not mean), and heal idempotence on them."""

from __future__ import annotations

import pytest

import formatbook_core
from formatbook_core import HealError, check, get_format, heal
from formatbook_yaml.lines import FLOW_DEPTH
from formatbook_yaml.loading import PARSER_DEPTH

FMT = get_format("yaml")


@pytest.mark.parametrize(
    "reply",
    [
        "key: value\nkey: other",
        "a: 1\nb: 2\na: 3",
        "name: Ada\nname: Bob\n",
    ],
)
def test_a_duplicate_key_on_the_last_line_is_not_dropped_as_a_cut_off_line(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    # README: "`0777` ... are strings". The code read them as decimal ints (777, 1234),
    # losing the zip code's leading zero.
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


def test_an_explicit_int_tag_still_reads_a_leading_zero_as_a_number() -> None:
    """User finding (was test_user_findings.py)."""
    result = check("mode: !!int 0777", "EXPECT YAML")
    assert result.ok
    assert result.value == {"mode": 777}


@pytest.mark.parametrize("reply", ["Steps:\n1. first\n2. second", "Answer:\n42 apples\nand 3 pears."])
def test_a_heading_over_prose_is_not_a_key_of_null(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected


@pytest.mark.parametrize(
    "reply",
    ["color: #ff0000\nsize: 3", "size: 3\ncolor: #ff0000", "colors:\n  - #ff0000\n  - #00ff00"],
)
def test_a_value_starting_with_a_hash_is_not_read_strictly(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert not result.repairs


def test_a_glued_hash_line_keeps_every_prefix_streamable() -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert "truncated_line" in [r.kind for r in result.repairs]


@pytest.mark.parametrize("reply", ["- apples\n- bananas\ncherries", "- apples\n- bananas\ncherries\n\nEnjoy them."])
def test_a_short_line_after_the_data_is_not_set_aside_as_prose(reply: str) -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == expected
    assert [s.kind for s in result.set_aside] == ["prose"]


def test_flow_collections_nested_past_the_loaders_depth_are_refused_at_once():
    """User finding (was test_user_findings.py)."""
    # fuzz seed 909: 480 nested flow collections took the loader seconds per read (heal
    # reads many times) before it refused them; the line scanner now refuses them first
    assert FLOW_DEPTH == PARSER_DEPTH
    result = check('[{"":' * 240 + "es\nof text.\n", "EXPECT YAML")
    assert not result.ok and result.violations[0].code == "yaml.too_deep"
    assert check("[" * 250 + "]" * 250, "EXPECT YAML").ok  # the deepest the loader reads


def test_collection_keys_nested_in_collection_keys_are_refused_before_they_explode() -> None:
    """User finding (was test_user_findings.py)."""
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
    """User finding (was test_user_findings.py)."""
    result = check(reply, "EXPECT YAML")
    assert not result.ok
    assert [v.code for v in result.violations] == ["yaml.syntax"]
    assert "names no Unicode character" in result.violations[0].message
    with pytest.raises(HealError):
        heal(reply, "EXPECT YAML")


def test_the_last_code_point_is_read() -> None:
    """User finding (was test_user_findings.py)."""
    assert check('a: "\\U0010FFFF"', "EXPECT YAML").value == {"a": "\U0010ffff"}


def _heal_twice(reply: str) -> tuple[str, formatbook_core.Healed]:
    first = formatbook_core.heal(reply, "EXPECT YAML")
    return first.text, formatbook_core.heal(first.text, "EXPECT YAML")


def test_a_valid_reply_under_a_heading_heals_to_its_list_once() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    text, again = _heal_twice("a a a:\n- a")
    assert text == "- a"
    assert again.text == "- a" and again.repairs == ()
    result = check("Here is the list:\n- a\n- b", "EXPECT YAML")
    assert result.ok and result.value == ["a", "b"]


def test_a_key_line_that_is_no_sentence_is_still_data() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # two words, a colon: a key (not trimmed), so the whole reply heals as before
    result = check("my list:\n- a\n- b\nc", "EXPECT YAML")
    assert result.ok and result.value == {"my list": ["a", "b"]}
    assert [r.kind for r in result.repairs] == ["truncated_line"]


@pytest.mark.parametrize(
    ("reply", "healed"),
    [
        (":\n a\na\n \n...", ":\n a\n a"),  # fuzz repro yaml-heal_idempotent-dab02e2345
        ("name: Ada\n  age: 3\n \n---", "name: Ada\nage: 3"),
        ("a: 1\n\t\n---", "a: 1"),
    ],
)
def test_a_removed_marker_leaves_no_white_space_at_the_end(reply: str, healed: str) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # removing the stray marker left the blank line before it (' ' or a tab): the healed
    # text ended in white space, which locate strips from a payload, so a second heal
    # gave another text. A located payload never ends in white space; healing's text
    # must not either when the value reads the same without it.
    text, again = _heal_twice(reply)
    assert text == healed
    assert again.text == healed and again.repairs == ()


@pytest.mark.parametrize(
    ("reply", "healed", "value"),
    [
        # fuzz --seed 501: the block scalar's last line break was kept, as data; the
        # next locate stripped it (': |\n a\n a')
        (": |\n a\na\n \n...", ": |\n a\n a", {"": "a\na"}),
        ("a: |+\n  x\n\n---", "a: |+\n  x", {"a": "x"}),
    ],
)
def test_white_space_at_the_end_is_removed_even_when_it_was_data(reply: str, healed: str, value: object) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # check() never reads white space at a payload's end (locate strips it): the value
    # of heal's text is the value check() gives it
    text, again = _heal_twice(reply)
    assert text == healed
    assert again.text == healed and again.repairs == ()
    assert check(reply, "EXPECT YAML").value == value == check(healed, "EXPECT YAML").value


@pytest.mark.parametrize(
    ("reply", "payload", "value"),
    [
        # fuzz --seed 501 (yaml-heal_idempotent-b4a3198f65): 'a::' (key 'a:', YAML reads
        # it so) was trimmed as a sentence ending in ':' once the fence was gone
        ("~~~\na: a\na::", "a: a\na::", {"a": "a", "a:": None}),
        ("name: x\nurl: http://x.org\nhttp://y.org: 2", "name: x\nurl: http://x.org\nhttp://y.org: 2", None),
        # a fenced body's heading reads as prose, as without the fence
        ("```yaml\nHere is the list:\n- a\n- b\n```", "- a\n- b", ["a", "b"]),
        ("```\nHere is the list:\n- a\n```\nThat is all.", "- a", ["a"]),
    ],
)
def test_a_fenced_payload_reads_as_it_does_without_its_fence(reply: str, payload: str, value: object) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    text, again = _heal_twice(reply)
    assert text == payload
    assert again.text == payload and again.repairs == ()
    if value is not None:
        assert check(reply, "EXPECT YAML").value == value == check(payload, "EXPECT YAML").value


def test_an_escaped_line_separator_is_read_as_written() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    result = check('a: "x\\Ly"', "EXPECT YAML")
    assert result.ok and result.value == {"a": "x\u2028y"}


@pytest.mark.parametrize(
    "reply",
    [
        "Steps to reproduce:\n- click\n- wait\nExpected: crash",
        "```yaml\nSteps to reproduce:\n- click\n- wait\nExpected: crash\n```",
    ],
)
def test_a_reply_valid_as_written_keeps_its_heading_when_the_rest_alone_fails(reply: str) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # the heading is set aside only for a reading that passes: '- click\n- wait\nExpected:
    # crash' alone is no YAML, the text as written is (nothing healed, so heal's text is
    # the reply's own and locating it again gives it back)
    result = check(reply, "EXPECT YAML")
    assert result.ok
    assert result.value == {"Steps to reproduce": ["click", "wait"], "Expected": "crash"}
    text, again = _heal_twice(reply)
    assert again.text == text and again.repairs == ()


def test_a_long_key_line_read_as_a_sentence_heals_once() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # fuzz --seed 503 (yaml-heal_idempotent-52c5f25a04): a key of 204 letters and a word
    # reads as a sentence to locate (keys of data are at most 200 characters there), so
    # '---' alone came first; the whole reply, healed (the stray '...' and the cut-off
    # 'a' dropped), must stay a candidate when its text is located again
    key = "a" * 204 + " a"
    text, again = _heal_twice(f"---\n{key}: a\na\n...")
    assert text == f"---\n{key}: a"
    assert again.text == text and again.repairs == ()
    assert check(text, "EXPECT YAML").value == {key: "a"}


def test_a_fenced_body_with_a_think_block_inside_is_no_payload() -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    # its body was healed to '[\n<reasoning></reasoning>a]', which check() reads without the
    # block as '[' (fuzz seed 31337, yaml-heal_idempotent-cdc4047c16)
    reply = "~~~\n[\n<reasoning></reasoning>a"
    assert not check(reply, "EXPECT YAML").ok
    with pytest.raises(HealError):
        heal(reply, "EXPECT YAML")
    # a block that ends the body is no part of it, as before
    result = check("```yaml\na: 1\n<think>x</think>\n```", "EXPECT YAML")
    assert result.ok and result.value == {"a": 1}


@pytest.mark.parametrize(
    ("reply", "text", "value"),
    [
        # a key past the locator's 200-character window reads as prose: the indented line
        # after it is the data, as it is once healing has moved it to the margin (fuzz
        # seed 5772156, yaml-heal_idempotent-bfba0fd5fa: the reply was located whole, and
        # the healed text then trimmed to 'a:')
        ("a" * 201 + " aa: a\n a:", "a:", {"a": None}),
        ("Sure thing\n  a: 1\n  b: 2", "a: 1\nb: 2", {"a": 1, "b": 2}),
        ("Sure thing\n  - a\n  - b", "- a\n- b", ["a", "b"]),
    ],
)
def test_data_indented_under_a_prose_line_is_the_payload(reply: str, text: str, value: object) -> None:
    """Fuzz finding of issue 9, checked by hand (was test_fuzz_hardening.py)."""
    healed, again = _heal_twice(reply)
    assert healed == text
    assert again.text == text and again.repairs == ()
    assert check(reply, "EXPECT YAML").value == value
