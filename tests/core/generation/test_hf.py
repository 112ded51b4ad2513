"""The transformers adapters with a tiny randomly initialised GPT-2 and tokenizers built
here (no download): whatever the random weights prefer, the reply keeps its expectations."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")

from formatbook_core import Expectations, StreamGuard, check  # noqa: E402
from formatbook_core.expectations import Count  # noqa: E402
from formatbook_core.generation import generate  # noqa: E402
from formatbook_core.generation.hf import ExpectationsLogitsProcessor, HFCandidates  # noqa: E402
from formatbook_core.testing.hf_tokenizers import EOS, word_level  # noqa: E402
from formatbook_core.testing.hf_tokenizers import byte_level_bpe as train_bpe  # noqa: E402

SEEDS = range(6)
torch.set_num_threads(1)  # tiny matrices: threads cost more than they save on a shared machine


def byte_level_bpe():
    """A byte-level BPE trained here on a few lines with multi-byte characters."""
    corpus = ['{"name": "Zoë", "city": "Zürich"}', '["中文", "café", "naïve"]', "Ada wrote the first program."] * 10
    return train_bpe(corpus, 320)


def tiny_model(tokenizer, seed: int):
    torch.manual_seed(seed)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=128,
        n_embd=32,
        n_layer=2,
        n_head=2,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.eos_token_id,
        initializer_range=1.0,  # large weights: strong, arbitrary preferences
    )
    return transformers.GPT2LMHeadModel(config).eval()


def run(model, tokenizer, processor, max_new_tokens: int = 40) -> list[int]:
    """Greedy decoding from the end-of-text token alone: the random weights decide."""
    start = torch.tensor([[tokenizer.eos_token_id]])
    out = model.generate(
        start,
        attention_mask=torch.ones_like(start),
        max_new_tokens=max_new_tokens,
        do_sample=False,
        logits_processor=transformers.LogitsProcessorList([processor]),
        pad_token_id=tokenizer.eos_token_id,
    )
    if isinstance(processor, ExpectationsLogitsProcessor):
        processor.finish(out)
    return out[0, 1:].tolist()


ARRAY_VOCAB = ["[", "]", ",", '"Ada"', '"Zoë"', '"中文"', '"Ada Lovelace"', '"x y z"']
ARRAY = Expectations(
    format="json",
    schema={"type": "array", "items": {"type": "string"}, "minItems": 1},
    options={"max_depth": 1},
    counts=[Count("words", max=3)],
)


@pytest.mark.parametrize("seed", SEEDS)
def test_processor_with_lookahead_gives_valid_json_within_max_words(seed):
    tokenizer = word_level(ARRAY_VOCAB)
    model = tiny_model(tokenizer, seed)
    processor = ExpectationsLogitsProcessor(tokenizer, ARRAY, top_k=3, lookahead=True)
    ids = run(model, tokenizer, processor)
    text = tokenizer.decode(ids, skip_special_tokens=True)
    assert processor.errors == [None]
    assert ids[-1] == tokenizer.eos_token_id  # it ended, and only when it could
    result = check(text, ARRAY)
    assert result.ok and result.verdict == "pass", (seed, text)
    value = json.loads(text)
    assert value and all(isinstance(v, str) for v in value)
    assert sum(len(v.split()) for v in value) <= 3
    assert processor.texts == [text]


@pytest.mark.parametrize("seed", SEEDS)
def test_processor_never_lets_the_random_weights_leave_the_expectations(seed):
    tokenizer = byte_level_bpe()
    model = tiny_model(tokenizer, seed)
    exp = Expectations(format="json", counts=[Count("words", max=4)])
    processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=8)
    ids = run(model, tokenizer, processor, max_new_tokens=30)
    text = tokenizer.decode(ids, skip_special_tokens=True)
    # decoded against the text so far: what the processor checked is what was written
    assert processor.texts == [text]
    fresh = StreamGuard(exp, strict=True)
    assert fresh.feed(text), (seed, text)  # a prefix that can still pass, within MAX 4 WORDS
    if ids and ids[-1] == tokenizer.eos_token_id:
        assert check(text, exp).verdict == "pass"
    # the unconstrained model writes something else: the mask did the work
    free = run(model, tokenizer, lambda input_ids, scores: scores, max_new_tokens=30)
    assert free != ids


def test_a_multi_byte_character_in_one_merged_token_is_checked_whole():
    tokenizer = word_level(ARRAY_VOCAB)
    processor = ExpectationsLogitsProcessor(tokenizer, ARRAY, top_k=len(tokenizer))
    ids = [tokenizer.convert_tokens_to_ids(t) for t in ["[", '"中文"', ","]]
    scores = torch.zeros((1, len(tokenizer)))
    for n in range(len(ids) + 1):
        processor(torch.tensor([[tokenizer.eos_token_id, *ids[:n]]]), scores)
    assert processor.texts == ['["中文",']


OBJECT_VOCAB = ["{", "}", ",", ":", '"name"', '"city"', '"Ada"', '"Zoë"', '"Ada Lovelace"']
PERSON = Expectations(
    format="json",
    schema={
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": {"type": "string"},
    },
    options={"max_depth": 1},
    counts=[Count("words", max=3)],
)


@pytest.mark.parametrize("seed", SEEDS)
def test_candidates_with_backtracking_give_json_valid_for_the_schema(seed):
    tokenizer = word_level(OBJECT_VOCAB)
    model = tiny_model(tokenizer, seed)
    result = generate(HFCandidates(model, tokenizer, top_k=len(tokenizer)), EOS, PERSON, backtrack_budget=400)
    assert result.ok and result.verdict == "pass", (seed, result.reply)
    value = json.loads(result.reply)
    assert isinstance(value.get("name"), str) and all(isinstance(v, str) for v in value.values())
    assert sum(len(v.split()) for v in value.values()) <= 3


def test_a_token_that_ends_inside_a_character_is_masked_and_a_merged_one_kept():
    tokenizer = byte_level_bpe()
    vocab = tokenizer.get_vocab()
    # byte-level BPE spells each byte as one printable character: the first byte of '中'
    # (0xE4) alone is an incomplete UTF-8 sequence
    lead = next(t for t in vocab if len(t) == 1 and tokenizer.decode([vocab[t]]) == "\ufffd")
    merged = next(t for t in vocab if tokenizer.decode([vocab[t]]) == "中文")
    exp = Expectations(format="json")
    processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=2)
    prefix = tokenizer('["').input_ids
    scores = torch.zeros((1, len(tokenizer)))
    scores[0, vocab[lead]] = 5.0
    scores[0, vocab[merged]] = 4.0
    for n in range(len(prefix) + 1):
        out = processor(torch.tensor([[tokenizer.eos_token_id, *prefix[:n]]]), scores)
    assert out[0, vocab[lead]] == float("-inf") and out[0, vocab[merged]] == 4.0
    assert processor.texts == ['["']


def greedy(processor, tokenizer, ranking: list[str], steps: int) -> list[int]:
    """Greedy decoding with a fixed preference (``ranking``, best first) at every step."""
    scores = torch.full((1, len(tokenizer)), -50.0)
    for rank, token in enumerate(ranking):
        scores[0, tokenizer.convert_tokens_to_ids(token)] = 10.0 - rank
    seq = [tokenizer.eos_token_id]
    for _ in range(steps):
        out = processor(torch.tensor([seq]), scores.clone())
        seq.append(int(out[0].argmax()))
        if seq[-1] == tokenizer.eos_token_id:
            break
    processor.finish(torch.tensor([seq]))
    return seq[1:]


NEST_VOCAB = ["[", "{", '"k"', ":", ",", '"x"', "1", "]", "}"]


@pytest.mark.parametrize("budget", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("ranking", [["[", "{", '"k"', ":", ",", '"x"', "1"], ["{", '"k"', ":", "[", ",", "1"]])
def test_a_model_that_only_opens_is_closed_within_max_new_tokens(budget, ranking):
    # the model prefers to open containers (and never to close them, nor to end): left to
    # itself it nests until the budget cuts it; told the budget, the processor keeps the
    # checker's shortest closing within the tokens left
    tokenizer = word_level(NEST_VOCAB)
    exp = Expectations(format="json")
    processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=len(tokenizer), max_new_tokens=budget)
    ids = greedy(processor, tokenizer, ranking, budget)
    text = tokenizer.decode(ids, skip_special_tokens=True)
    assert len(ids) <= budget
    assert processor.result().verdict == "pass", (budget, text)  # as written: no repair
    assert processor.errors == [None]
    json.loads(text)
    # without the budget the same model leaves the document open at the limit
    blind = ExpectationsLogitsProcessor(tokenizer, exp, top_k=len(tokenizer))
    cut = tokenizer.decode(greedy(blind, tokenizer, ranking, budget), skip_special_tokens=True)
    assert budget == 1 or blind.result().verdict != "pass", cut


@pytest.mark.parametrize("seed", SEEDS)
def test_random_weights_under_a_budget_still_end_with_a_complete_document(seed):
    tokenizer = byte_level_bpe()
    model = tiny_model(tokenizer, seed)
    exp = Expectations(format="json")
    processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=8, max_new_tokens=12)
    ids = run(model, tokenizer, processor, max_new_tokens=12)
    text = tokenizer.decode(ids, skip_special_tokens=True)
    assert processor.texts == [text]
    # the strict checker ends there: the budget left room to close whatever was open
    # (check() itself may still refuse what the guard lets through early: a leading
    # U+001F, which the guard's think scanner skips as white space and check() does not)
    guard = StreamGuard(exp, strict=True)
    assert guard.feed(text) and guard.closing() == "" and guard.can_end(), (seed, text)


def test_a_tokens_text_decoded_once_is_what_decoding_in_context_gives():
    from formatbook_core.generation.hf import _added, _Pieces  # noqa: PLC0415 - the internals under test

    tokenizer = byte_level_bpe()
    pieces = _Pieces(tokenizer)
    assert pieces.anchor is not None
    whole = [t for t in range(len(tokenizer)) if _added(tokenizer, [], t) is not None]
    for prev in whole[::7]:
        for token in whole[::5]:
            assert pieces.after(prev, token) == _added(tokenizer, [prev], token), (prev, token)
    assert pieces.anchor is not None  # no disagreement: the cache stays on
