"""Generation against models that prefer what the schema refuses (issue 26): a wrong key,
``"36"`` for an integer, an enum miss, a missing required member. The strict guard judges
the schema while the reply is written (the JSON checker's schema prefix keywords), so the
intended value comes back with at most 2 backtracks, through ``generate()`` and through the
logits processor alike."""

from __future__ import annotations

import json

import pytest

from formatbook_core import Count, Expectations, check
from formatbook_core.generation import generate
from formatbook_core.generation.hf import ExpectationsLogitsProcessor
from formatbook_core.testing.hf_tokenizers import word_level

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer", "minimum": 0},
        "role": {"enum": ["admin", "user"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
    },
    "required": ["name", "age", "role"],
    "additionalProperties": False,
}
INTENDED = {"name": "Ada", "age": 36, "role": "admin", "tags": ["x"]}
# the reply the model means, piece by piece
PIECES = ["{", '"name"', ": ", '"Ada"', ", ", '"age"', ": ", "36", ", ", '"role"', ": ", '"admin"', ", "]
PIECES += ['"tags"', ": ", "[", '"x"', "]", "}"]

# what a saboteur offers first, by the index of the piece it replaces: each breaks the
# schema and nothing else (the grammar takes every one of them)
SABOTAGE = {
    1: ['"nmae"', '"Name"'],  # keys additionalProperties refuses
    3: ["36"],  # a number where a string is asked
    5: ['"years"'],
    7: ['"36"', "-1", "3.5"],  # a string, a number under the minimum, a fraction
    9: ['"rank"'],
    11: ['"root"', '"Admin"'],  # enum misses
    15: ['{"'],  # an object where an array is asked
    16: ["7", "null"],  # items of the wrong kind
    17: [', "y", "z"'],  # a third item past maxItems
}


def saboteur(sabotage: dict[int, list[str]], pieces: list[str] = PIECES):
    """A model that means ``pieces`` but prefers the sabotage at each index; off its script
    it has nothing to offer."""

    def model(prompt: str, reply: str) -> list:
        for k in range(len(pieces) + 1):
            if reply == "".join(pieces[:k]):
                break
        else:
            return []
        if k == len(pieces):
            return [None]
        return [*sabotage.get(k, []), pieces[k]]

    return model


PERSON = Expectations(format="json", schema=SCHEMA)


def test_a_saboteur_gets_the_intended_value_within_two_backtracks():
    result = generate(saboteur(SABOTAGE), "Who?", PERSON, max_tokens=60)
    assert result.ok and result.verdict == "pass"
    assert result.value == INTENDED
    # counted by hand: 14 sabotages offered, 12 refused where they are offered; '-1' and
    # '3.5' are taken, as a number's prefix never decides its value (-1e-400 is -0.0,
    # 3.5e1 is 35), and each is undone once the ', ' after it ends the number
    assert sum(len(v) for v in SABOTAGE.values()) == 14
    assert result.rejected == 12
    assert result.backtracks == 2


def test_a_saboteur_refused_at_its_first_character_costs_no_backtrack():
    sabotage = {k: [s for s in v if s not in ("-1", "3.5")] for k, v in SABOTAGE.items()}
    result = generate(saboteur(sabotage), "Who?", PERSON, max_tokens=60)
    assert result.ok and result.value == INTENDED
    assert result.backtracks == 0 and result.rejected == 12


def test_a_sabotage_the_grammar_and_a_prefix_allow_is_undone_within_two_backtracks():
    # '"adm' begins an enum member: taken; the saboteur then offers only 'in_x"' and 'ix"'
    # there (no member), so the step is undone and '"admin"' taken instead
    pieces = [*PIECES[:11], '"adm', 'in"', *PIECES[12:]]

    def model(prompt: str, reply: str) -> list:
        if reply == "".join(PIECES[:11]):
            return ['"adm', '"admin"']
        if reply == "".join(PIECES[:11]) + '"adm':
            return ['in_x"', 'ix"']
        return saboteur({7: ['"36"'], 11: []}, pieces)(prompt, reply)

    result = generate(model, "Who?", PERSON, max_tokens=60)
    assert result.ok and result.value == INTENDED
    assert result.backtracks == 1


def test_a_model_that_would_end_with_a_required_member_missing_is_kept_writing():
    # the model prefers to close the object before "role" (and to end there): the schema
    # refuses the brace while a required member is missing, at the brace
    result = generate(saboteur({8: ["}", None], 6: ["}"]}), "Who?", PERSON, max_tokens=60)
    assert result.ok and result.value == INTENDED and result.backtracks == 0
    assert result.rejected == 3  # '}' twice, the end once


# --- the logits processor, with word-level tokens that are exactly the pieces ------------

# torch is imported by the tests that use it, not at collection: importing it (with
# transformers) costs each pytest-xdist worker about 3.5 s of CPU, for two tests of 0.3 s.


@pytest.fixture
def torch():
    module = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    return module


def test_the_processor_masks_every_sabotage_and_writes_the_intended_value(torch):
    vocab = sorted({*PIECES, *(s for v in SABOTAGE.values() for s in v)})
    tokenizer = word_level(vocab)
    processor = ExpectationsLogitsProcessor(tokenizer, PERSON, top_k=len(tokenizer), max_new_tokens=40)
    seq = [tokenizer.eos_token_id]
    for _ in range(40):
        k = len(seq) - 1
        ranking = [*SABOTAGE.get(k, []), PIECES[k]] if k < len(PIECES) else []
        scores = torch.full((1, len(tokenizer)), -5.0)
        scores[0, tokenizer.eos_token_id] = -1.0 if k < len(PIECES) else 5.0  # it would end at once
        for rank, piece in enumerate(ranking):
            scores[0, tokenizer.convert_tokens_to_ids(piece)] = 10.0 - rank
        out = processor(torch.tensor([seq]), scores)
        seq.append(int(out[0].argmax()))
        if seq[-1] == tokenizer.eos_token_id:
            break
    processor.finish(torch.tensor([seq]))
    text = processor.texts[0]
    assert json.loads(text) == INTENDED, text
    assert processor.result().verdict == "pass" and processor.errors == [None]


def test_the_processor_closes_with_the_required_members_under_a_word_limit(torch):
    # a model that only ever wants more tags and names: at the budget the processor writes
    # the shortest members the schema still needs, and the word limit holds
    vocab = ["{", "}", "[", "]", ",", ": ", '"name"', '"age"', '"role"', '"tags"', '"Ada Lovelace"', '"x"']
    vocab += ['"', "a", "d", "m", "i", "n", "0", "1"]
    tokenizer = word_level(vocab)
    exp = Expectations(format="json", schema=SCHEMA, counts=[Count("words", max=3)])
    for budget in (40, 48, 64):  # the closing counts a token per character: 34 at the start
        processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=len(tokenizer), max_new_tokens=budget)
        ranking = ['"tags"', '"name"', '"Ada Lovelace"', "[", '"x"', ",", ": ", "{"]
        scores = torch.full((1, len(tokenizer)), -5.0)
        for rank, piece in enumerate(ranking):
            scores[0, tokenizer.convert_tokens_to_ids(piece)] = 10.0 - rank
        seq = [tokenizer.eos_token_id]
        for _ in range(budget):
            out = processor(torch.tensor([seq]), scores.clone())
            seq.append(int(out[0].argmax()))
            if seq[-1] == tokenizer.eos_token_id:
                break
        processor.finish(torch.tensor([seq]))
        result = check(processor.texts[0], exp)
        assert result.verdict == "pass", (budget, processor.texts[0], processor.errors)
        assert set(result.value) >= {"name", "age", "role"}
