"""The overhead ``ExpectationsLogitsProcessor`` adds to each decoding step, by reply length.

Run: ``python benchmarks/bench_processor.py`` (``--top-k 16,64``, ``--sizes 1000,10000``,
``--profile`` for a cProfile of the 1 KB window).

No model: a byte-level BPE tokenizer (1024 tokens) is trained here on LLM-like JSON, and a
valid JSON reply is tokenized. The processor is called as ``generate`` calls it, once per
step with the sequence so far and a score row that ranks the reply's next token first and
``top_k - 1`` other tokens after it (most of which the strict checker refuses: a JSON reply
allows few characters at most points). The time of each call is read off in a window of
200 steps once the reply holds 1 KB, 10 KB and 50 KB (CPU time, best of three runs). It
must be flat in the reply's length; the goal at top-k 16 on a 1 KB reply is at most 1 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

import torch
import transformers

sys.path.insert(0, str(Path(__file__).resolve().parent))

from json_stream import llm_like_json  # noqa: E402

from formatbook_core import Count, Expectations  # noqa: E402
from formatbook_core.generation.hf import ExpectationsLogitsProcessor
from formatbook_core.testing.hf_tokenizers import byte_level_bpe  # noqa: E402

WINDOW = 200
torch.set_num_threads(1)


def tokenizer_for(texts: list[str]) -> transformers.PreTrainedTokenizerFast:
    tokenizer: transformers.PreTrainedTokenizerFast = byte_level_bpe(texts, 1024)
    return tokenizer


def rows(ids: list[int], vocab: int, top_k: int, seed: int = 0) -> list[torch.Tensor]:
    """One score row per step: the reply's token first, ``top_k - 1`` random others next."""
    rng = random.Random(seed)
    out = []
    for token in ids:
        scores = torch.zeros(1, vocab)
        others = rng.sample(range(1, vocab), top_k)
        for rank, other in enumerate(o for o in others if o != token):
            if rank == top_k - 1:
                break
            scores[0, other] = 10.0 - rank * 0.1
        scores[0, token] = 20.0
        out.append(scores)
    return out


SCHEMA = {
    "type": "object",
    "properties": {
        "status": {"enum": ["ok", "error"]},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer", "minimum": 1}, "title": {"type": "string"}},
                "required": ["id", "title", "tags"],
            },
        },
    },
    "required": ["status", "model", "items"],
}
# name -> (expectations, whether the processor is told the token budget)
MODES = {
    "json": (Expectations(format="json"), False),
    "schema": (Expectations(format="json", schema=SCHEMA), False),
    "schema+words+budget": (Expectations(format="json", schema=SCHEMA, counts=[Count("words", max=10**6)]), True),
}


def run(
    tokenizer, ids: list[int], score_rows: list[torch.Tensor], top_k: int, marks: list[int], mode: str = "json"
) -> dict[int, float]:
    """Seconds per processor call in a window of WINDOW steps from each mark (a step index)."""
    exp, budget = MODES[mode]
    # the budget: the reply's tokens and a few more (the closing is asked near the end only)
    limit = len(ids) + 8 if budget else None
    processor = ExpectationsLogitsProcessor(tokenizer, exp, top_k=top_k, max_new_tokens=limit)
    seq = torch.tensor([[tokenizer.eos_token_id, *ids]])
    stamps: dict[int, float] = {}
    t0 = 0.0
    ends = {m + WINDOW: m for m in marks}
    for step, scores in enumerate(score_rows):
        if step in marks:
            t0 = time.process_time()
        out = processor(seq[:, : step + 1], scores)
        if step + 1 in ends:
            stamps[ends[step + 1]] = (time.process_time() - t0) / WINDOW
        if out[0, ids[step]] == float("-inf"):
            raise AssertionError(f"the processor refused the valid reply at step {step}: {processor.errors}")
        if step + 1 >= max(marks) + WINDOW:
            break
    return stamps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top-k", default="16,64")
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    doc = llm_like_json(max(sizes) + 20_000)
    tokenizer = tokenizer_for([llm_like_json(20_000, seed=s) for s in range(3)])
    ids = tokenizer(doc).input_ids
    # the step at which the decoded reply first reaches each size
    marks, length = [], 0
    pending = list(sizes)
    for step, token in enumerate(ids):
        if pending and length >= pending[0]:
            marks.append(step)
            pending.pop(0)
        length += len(tokenizer.decode([token]))
    print(f"ExpectationsLogitsProcessor, {len(tokenizer)}-token byte-level BPE, CPU time per step\n")
    print(f"{'mode':<22}{'top-k':<7}" + "".join(f"{f'{s // 1000} KB':>12}" for s in sizes))
    for mode in args.modes.split(","):
        for k in (int(x) for x in args.top_k.split(",")):
            score_rows = rows(ids[: max(marks) + WINDOW], len(tokenizer), k)
            if args.profile:
                profile = cProfile.Profile()
                profile.enable()
                run(tokenizer, ids, score_rows, k, marks[:1], mode)
                profile.disable()
                pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
                continue
            runs = [run(tokenizer, ids, score_rows, k, marks, mode).values() for _ in range(3)]
            best = [min(t) for t in zip(*runs, strict=True)]
            print(f"{mode:<22}{k:<7}" + "".join(f"{b * 1000:>9.3f} ms" for b in best), flush=True)


if __name__ == "__main__":
    main()
