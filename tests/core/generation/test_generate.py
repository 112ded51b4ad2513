"""generate(): the best candidate that keeps the reply able to pass, with backtracking."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Count, Expectations, StreamGuard, check
from formatbook_core.generation import END, Candidate, Generated, GenerationError, as_candidate, generate
from formatbook_markdown.contract.parse import parse_output_format_spec

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
PERSON = Expectations(format="json", schema=SCHEMA)
# the reply the scripted model means, token by token
TOKENS = ["{", '"name"', ": ", '"Ada', ' Lovelace"', ", ", '"age"', ": ", "3", "6", "}"]
BREAKER = "]\x01"  # ']' breaks JSON outside a string, a raw control character inside one


def scripted(every: int, breaker: str = BREAKER):
    """A model that means TOKENS but whose first choice is ``breaker`` every ``every`` steps;
    off its script it has nothing to offer."""

    def model(prompt: str, reply: str) -> list:
        for k in range(len(TOKENS) + 1):
            if reply == "".join(TOKENS[:k]):
                break
        else:
            return []
        wanted: list = [TOKENS[k]] if k < len(TOKENS) else [" trailing", None]
        if k % every == 0:
            wanted.insert(0, breaker)
        return wanted

    return model


@pytest.mark.parametrize("every", [1, 2, 3, 5])
def test_a_model_that_breaks_json_every_few_tokens_still_yields_the_valid_json(every):
    result = generate(scripted(every), "Who?", PERSON, max_tokens=50)
    assert isinstance(result, Generated) and result.ok and result.verdict == "pass"
    assert result.value == {"name": "Ada Lovelace", "age": 36}
    assert json.loads(result.text) == {"name": "Ada Lovelace", "age": 36}
    # counted by hand: a breaker at each k in 0..11 with k % every == 0 (the last step, k=11,
    # also refuses " trailing" after the complete document), none taken, nothing undone
    offered = len([k for k in range(12) if k % every == 0])
    assert result.rejected == offered + 1
    assert result.steps == len(TOKENS) and result.backtracks == 0
    assert result.model_calls == len(TOKENS) + 1


def test_a_breaker_that_parses_but_leads_nowhere_is_undone_by_backtracking():
    # '"x"' after '"name"' would make an object key followed by a string: a dead end later
    # only for the script (the model has nothing to offer off its script) -> backtracking
    def model(prompt: str, reply: str) -> list:
        if reply == '{"name": ':
            return ['"Bob', '"Ada Lovelace"']
        if reply == '{"name": "Bob':
            return []  # off the script: nothing to offer
        if reply == '{"name": "Ada Lovelace"':
            return [', "age": 36}']
        if reply.endswith("}"):
            return [None]
        return ['{"name": ']

    result = generate(model, "", PERSON)
    assert result.ok and result.value == {"name": "Ada Lovelace", "age": 36}
    assert result.backtracks == 1 and result.steps == 4


def test_the_schema_makes_the_end_wait_for_a_complete_document():
    # the model would stop after every piece; the end is taken only once check() passes
    pieces = ['{"name": "Ada"', ', "age": 36', "}"]

    def model(prompt: str, reply: str) -> list:
        done = len([p for p in pieces if p in reply])
        return [None, pieces[done]] if done < len(pieces) else [None]

    result = generate(model, "", PERSON)
    assert result.ok and result.text == '{"name": "Ada", "age": 36}'
    assert result.rejected == 3  # the end, refused after each of the first three steps (and at the start)


def ramble(prompt: str, reply: str) -> list:
    return [" word", END]


@pytest.mark.parametrize("limit", [1, 5, 12])
def test_a_rambling_model_yields_at_most_max_n_words(limit):
    result = generate(ramble, "", f"EXPECT TEXT\nEXPECT MAX {limit} WORDS", max_tokens=100)
    assert result.ok and result.counts == {"words": limit}
    assert result.text == " word" * limit
    assert len(result.text.split()) <= limit


def test_min_words_is_a_stopping_rule_the_end_waits_for():
    def eager(prompt: str, reply: str) -> list:
        return [END, " word"]

    result = generate(eager, "", "EXPECT MIN 4 WORDS\nEXPECT MAX 6 WORDS")
    assert result.ok and result.text == " word" * 4
    assert result.rejected == 4  # the end, refused at 0, 1, 2 and 3 words


def test_no_valid_continuation_ends_with_the_error_and_the_longest_valid_prefix():
    def stuck(prompt: str, reply: str) -> list:
        return ['{"a": 1', "}x", "x"]

    with pytest.raises(GenerationError) as err:
        generate(stuck, "", "EXPECT JSON", max_tokens=10, backtrack_budget=5)
    assert err.value.prefix == '{"a": 1'
    assert "no candidate can continue" in err.value.reason
    assert err.value.backtracks == 1  # undone once, then the first step had nothing left
    assert check(err.value.prefix + "}", "EXPECT JSON").ok  # a valid prefix indeed


def test_the_backtracking_budget_is_kept():
    def only_words(prompt: str, reply: str) -> list:
        return [" word"]  # never the end

    with pytest.raises(GenerationError) as err:
        generate(only_words, "", "EXPECT MAX 2 WORDS", max_tokens=50, backtrack_budget=2)
    assert "budget (2)" in err.value.reason and err.value.backtracks == 2
    # the guard counts a word once the next begins: three words are a prefix it accepts
    assert err.value.prefix == " word word word"


def test_max_tokens_is_kept():
    with pytest.raises(GenerationError) as err:
        generate(lambda p, r: ["a"], "", "EXPECT TEXT", max_tokens=7)
    assert "max_tokens (7)" in err.value.reason and err.value.prefix == "a" * 7
    # asked once more after the seventh piece: only an end could have followed
    assert err.value.steps == 7 and err.value.model_calls == 8 and err.value.backtracks == 0


def test_the_end_may_follow_the_last_of_max_tokens_pieces():
    result = generate(lambda p, r: ["a", None], "", "EXPECT MIN 1 WORDS", max_tokens=3)
    assert result.ok and result.reply == "aaa"  # "a" first: the end comes only after the third
    assert result.rejected == 0 and result.model_calls == 4


def test_markdown_contract_the_reply_ends_only_with_every_required_section():
    spec = parse_output_format_spec(
        "## Output format\n- Short answer — text (required)\n- Reasoning — ordered list (required)\n\n"
        "Empty sections:\n- Empty sections are not allowed.\n"
    )
    exp = Expectations(format="markdown", schema=spec, counts=[Count("words", max=3, scope="Short answer")])
    script = ["## Short answer\n", "Yes.\n", "\n## Reasoning\n1. Because.\n"]

    def model(prompt: str, reply: str) -> list:
        done = len([s for s in script if s in reply])
        if reply.endswith("Yes.\n") and "Reasoning" not in reply:
            return [None, "and a long ramble goes on here\n", script[done]]
        return [None, script[done]] if done < len(script) else [None]

    result = generate(model, "", exp)
    assert result.ok and result.text == "".join(script)
    assert "ramble" not in result.text  # seven words where the scope allows three
    assert result.counts == {'words IN "Short answer"': 1}


def test_csv_rows_keep_the_header_width():
    def model(prompt: str, reply: str) -> list:
        rows = reply.count("\n")
        if rows == 0:
            return ["name,age\n"]
        if rows < 3:
            return [f"Ada,{rows},extra\n", f"Ada,{rows}\n"]  # the first choice adds a field
        return [None]

    result = generate(model, "", Expectations(format="csv", schema=["name", "age"]))
    assert result.ok and result.reply == "name,age\nAda,1\nAda,2\n"
    assert result.value == [{"name": "Ada", "age": "1"}, {"name": "Ada", "age": "2"}]
    assert result.rejected == 2


def test_result_and_error_report_the_search():
    result = generate(ramble, "", "EXPECT MAX 2 WORDS")
    data = result.to_dict()
    # by hand: asked at 0, 1, 2 and 3 words; at 3 both " word" (3 settled) and the end are
    # refused, so the third word is undone and the end taken at 2
    assert data["generation"] == {"steps": 3, "rejected": 2, "backtracks": 1, "model_calls": 4}
    assert json.loads(json.dumps(data)) == data


def test_candidates_from_a_plain_callable():
    assert as_candidate("a") == Candidate("a")
    assert as_candidate(None) == END and as_candidate((None, -0.5)).end
    assert as_candidate(("b", -1)) == Candidate("b", -1.0)
    with pytest.raises(TypeError):
        as_candidate(3)
    with pytest.raises(TypeError):
        generate(42, "", "EXPECT TEXT")


def test_copies_of_the_guard_never_affect_the_original():
    guard = StreamGuard("EXPECT JSON\nEXPECT MAX 3 WORDS", strict=True)
    assert guard.feed('{"a": "one two')
    clone = guard.copy()
    assert not clone.feed(' three four five"')  # four settled words: over the limit
    assert guard.feed(' three"}') and guard.can_end()
    other = guard.copy()  # (a finished guard takes no more text: feed() after finish() raises)
    assert guard.finish().ok
    assert not clone.can_end() and not clone.status
    assert other.text == '{"a": "one two three"}'
    assert not other.feed("x") and guard.status


def test_an_instruction_refusing_the_best_candidate_takes_the_next_one():
    # CASE lower refuses "W"; the model's second candidate "w" is taken there, without
    # backtracking (the refused probe once left the shared instruction stream failed)
    target = "hello, World"

    def model(prompt: str, reply: str) -> list[str | None]:
        if len(reply) >= len(target):
            return [None]
        return [target[len(reply)], target[len(reply)].lower(), " "]

    result = generate(model, "p", "EXPECT CASE lower")
    assert result.text == "hello, world"
    assert (result.rejected, result.backtracks) == (1, 0)
