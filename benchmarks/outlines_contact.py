"""Constrained generation against Outlines: a tiny GPT-2 writing contact cards under a schema.

Run: ``python benchmarks/outlines_contact.py`` (``--samples 10 --max-new-tokens 96``;
``--retrain`` to train the model again).

No model is downloaded. A byte-level BPE tokenizer (384 tokens) and a tiny GPT-2 (2 layers,
64 wide) are trained here, on the CPU, on synthetic replies to "Contact card as JSON:" —
most of them a ``Contact`` card, some with keys the schema does not know, a key missing,
the age as a string, the card's fields as plain ``key: value`` lines or a phone number in
digits. Training is brief (a fixed number of steps, about a minute on one core): the model
knows the shape but not the schema, as a small model prompted for JSON does. Both are
cached under ``benchmarks/.cache/`` (git-ignored, never committed).

Then, for ``--samples`` seeds, the model samples (temperature 1) at most
``--max-new-tokens`` tokens under:

* Outlines (``outlines.Generator(outlines.from_transformers(model, tokenizer), Contact)``,
  its JSON-Schema-to-regex index from outlines-core);
* formatbook's ``ExpectationsLogitsProcessor`` with ``Expectations(format="json",
  schema=Contact)``, and again with a word limit as well (``EXPECT MAX 6 WORDS``: at most
  six words in the card's strings), which Outlines cannot express.

A sample is valid when pydantic's ``Contact.model_validate_json`` takes it (and, for the
word limit, ``check()`` passes). Printed: valid/total, wall-clock milliseconds per generated
token (model step included), the processor's share of it, and the model step alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch
import transformers
from pydantic import BaseModel, ValidationError

from formatbook_core import Expectations, check
from formatbook_core.expectations import Count
from formatbook_core.generation.hf import ExpectationsLogitsProcessor
from formatbook_core.testing.hf_tokenizers import byte_level_bpe

CACHE = Path(__file__).resolve().parent / ".cache" / "outlines_contact"
PROMPT = "Contact card as JSON:\n"
STEPS = 600  # training steps: under a minute on one core (the loss flattens by 300)
torch.set_num_threads(1)  # a shared machine: one core


class Contact(BaseModel):
    """The card every sample must be."""

    name: str
    email: str
    age: int
    city: str


_FIRST = "Ada Alan Grace Linus Edsger Barbara Donald Margaret Ken Dennis Frances Tim Radia Sophie John Hedy".split()
_LAST = "Lovelace Turing Hopper Torvalds Dijkstra Liskov Knuth Hamilton Thompson Ritchie Allen Berners-Lee Perlman Wilson Backus Lamarr".split()
_CITIES = "London Paris Berlin Zürich Oslo Boston Austin Delft Cambridge Helsinki Vienna Lisbon".split()


def _card(rng: random.Random) -> dict:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    return {
        "name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}@example.com",
        "age": rng.randint(18, 95),
        "city": rng.choice(_CITIES),
    }


def _reply(rng: random.Random) -> str:
    """One training reply: mostly a valid card, sometimes the damage small models do."""
    card = _card(rng)
    roll = rng.random()
    if roll < 0.45:
        return json.dumps(card, ensure_ascii=False)
    if roll < 0.55:  # the fields as lines
        return "\n".join(f"{k}: {v}" for k, v in card.items())
    if roll < 0.65:  # digits first: a phone number
        return f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}\n" + json.dumps(card, ensure_ascii=False)
    if roll < 0.75:  # a key the schema does not know
        card = {**card, "phone": f"+44 {rng.randint(1000, 9999)} {rng.randint(100000, 999999)}"}
    elif roll < 0.85:  # the age as a string
        card = {**card, "age": str(card["age"])}
    elif roll < 0.95:  # a key missing
        card.pop(rng.choice(list(card)))
    else:  # an empty key
        card = {"": card["name"], **card}
    keys = list(card)
    if rng.random() < 0.3:
        rng.shuffle(keys)
    return json.dumps({k: card[k] for k in keys}, ensure_ascii=False)


def corpus(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [PROMPT + _reply(rng) for _ in range(n)]


def train_tokenizer(texts: list[str]) -> transformers.PreTrainedTokenizerFast:
    tokenizer: transformers.PreTrainedTokenizerFast = byte_level_bpe(texts, 384)
    return tokenizer


def train(steps: int = STEPS) -> tuple[transformers.GPT2LMHeadModel, transformers.PreTrainedTokenizerFast]:
    """Train the tokenizer and the model (``steps`` batches of 16 replies), deterministic."""
    texts = corpus(4000)
    tokenizer = train_tokenizer(texts)
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=160,
        n_embd=64,
        n_layer=2,
        n_head=4,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.eos_token_id,
    )
    model = transformers.GPT2LMHeadModel(config)
    encoded = [[tokenizer.eos_token_id, *tokenizer(t).input_ids, tokenizer.eos_token_id] for t in texts]
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    rng = random.Random(1)
    model.train()
    t0 = time.perf_counter()
    for step in range(steps):
        batch = rng.sample(encoded, 16)
        width = max(map(len, batch))
        ids = torch.full((len(batch), width), tokenizer.eos_token_id)
        labels = torch.full((len(batch), width), -100)
        for i, seq in enumerate(batch):
            ids[i, : len(seq)] = torch.tensor(seq)
            labels[i, : len(seq)] = torch.tensor(seq)
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 250 == 0 or step == steps - 1:
            print(f"  step {step:>5}  loss {loss.item():.3f}  {time.perf_counter() - t0:5.1f} s", file=sys.stderr)
    model.eval()
    return model, tokenizer


def load(retrain: bool = False) -> tuple[transformers.GPT2LMHeadModel, transformers.PreTrainedTokenizerFast]:
    """The cached model and tokenizer, trained first when missing (or asked)."""
    if not retrain and (CACHE / "config.json").exists():
        model = transformers.GPT2LMHeadModel.from_pretrained(CACHE).eval()
        tokenizer = transformers.PreTrainedTokenizerFast.from_pretrained(CACHE)
        return model, tokenizer
    print(f"training the tiny GPT-2 ({STEPS} steps) into {CACHE}", file=sys.stderr)
    model, tokenizer = train()
    CACHE.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(CACHE)
    tokenizer.save_pretrained(CACHE)
    return model, tokenizer


def valid(reply: str, expectations: Expectations | None = None) -> bool:
    try:
        Contact.model_validate_json(reply)
    except ValidationError:
        return False
    return expectations is None or check(reply, expectations).ok


def step_ms(model, tokenizer, max_new_tokens: int) -> float:
    """Milliseconds per token of unconstrained sampling: the model step alone."""
    ids = tokenizer(PROMPT, return_tensors="pt").input_ids
    torch.manual_seed(0)
    t0 = time.perf_counter()
    out = model.generate(
        ids,
        attention_mask=torch.ones_like(ids),
        max_new_tokens=max_new_tokens,
        min_new_tokens=max_new_tokens,
        do_sample=True,
        pad_token_id=tokenizer.eos_token_id,
    )
    return (time.perf_counter() - t0) * 1000 / (out.shape[1] - ids.shape[1])


def run_outlines(model, tokenizer, samples: int, max_new_tokens: int) -> tuple[int, float, list[str]]:
    import outlines  # noqa: PLC0415 - the bench extra

    generator = outlines.Generator(outlines.from_transformers(model, tokenizer), Contact)
    replies, tokens, seconds = [], 0, 0.0
    for seed in range(samples):
        torch.manual_seed(seed)
        t0 = time.perf_counter()
        reply = generator(PROMPT, max_new_tokens=max_new_tokens, do_sample=True, pad_token_id=tokenizer.eos_token_id)
        seconds += time.perf_counter() - t0
        tokens += max(len(tokenizer(reply).input_ids), 1)
        replies.append(reply)
    ok = sum(valid(r) for r in replies)
    return ok, seconds * 1000 / tokens, replies


def run_formatbook(
    model, tokenizer, exp: Expectations, samples: int, max_new_tokens: int
) -> tuple[int, float, float, list[str]]:
    ids = tokenizer(PROMPT, return_tensors="pt").input_ids
    replies, tokens, seconds, in_processor = [], 0, 0.0, 0.0
    for seed in range(samples):
        processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=16, max_new_tokens=max_new_tokens)
        spent = [0.0]

        def timed(input_ids, scores, processor=processor, spent=spent):
            t = time.perf_counter()
            out = processor(input_ids, scores)
            spent[0] += time.perf_counter() - t
            return out

        torch.manual_seed(seed)
        t0 = time.perf_counter()
        out = model.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=max_new_tokens,
            do_sample=True,
            logits_processor=transformers.LogitsProcessorList([timed]),
            pad_token_id=tokenizer.eos_token_id,
        )
        seconds += time.perf_counter() - t0
        in_processor += spent[0]
        processor.finish(out)
        new = out[0, ids.shape[1] :].tolist()
        tokens += max(len(new), 1)
        replies.append(processor.texts[0])
    ok = sum(valid(r, exp) for r in replies)
    return ok, seconds * 1000 / tokens, in_processor * 1000 / tokens, replies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--max-new-tokens", type=int, default=96)
    parser.add_argument("--retrain", action="store_true")
    parser.add_argument("--show", action="store_true", help="print every sample")
    args = parser.parse_args()
    model, tokenizer = load(args.retrain)
    n, budget = args.samples, args.max_new_tokens
    print(f"tiny GPT-2 ({sum(p.numel() for p in model.parameters()):,} parameters, {len(tokenizer)} tokens)")
    print(f"{n} samples, at most {budget} new tokens, temperature 1; model step alone: ", end="")
    print(f"{step_ms(model, tokenizer, budget):.2f} ms/token\n")
    print(f"{'':<34}{'valid':>8}{'ms/token':>10}{'processor':>11}")
    ok, ms, replies = run_outlines(model, tokenizer, n, budget)
    print(f"{'Outlines (Contact)':<34}{f'{ok}/{n}':>8}{ms:>10.2f}{'':>11}", flush=True)
    _show(args.show, replies)
    schema = Expectations(format="json", schema=Contact)
    ok, ms, proc, replies = run_formatbook(model, tokenizer, schema, n, budget)
    print(f"{'formatbook (Contact)':<34}{f'{ok}/{n}':>8}{ms:>10.2f}{proc:>11.2f}", flush=True)
    _show(args.show, replies)
    words = Expectations(format="json", schema=Contact, counts=[Count("words", max=6)])
    ok, ms, proc, replies = run_formatbook(model, tokenizer, words, n, budget)
    print(f"{'formatbook (Contact, MAX 6 WORDS)':<34}{f'{ok}/{n}':>8}{ms:>10.2f}{proc:>11.2f}", flush=True)
    _show(args.show, replies)


def _show(show: bool, replies: list[str]) -> None:
    if show:
        for reply in replies:
            print(f"    {reply!r}")


if __name__ == "__main__":
    main()
