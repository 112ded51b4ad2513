"""Expectation-aware generation: a reply that cannot leave its expectations.

A model ranks candidates for the next piece of the reply (:class:`CandidateModel`, or any
callable ``fn(prompt, reply)`` through :func:`as_model`); :func:`generate` takes, at each
step, the best candidate after which the reply can still pass:

* **what decides**: a :class:`~formatbook_core.streaming.StreamGuard` with ``strict=True``
  (the format's strict incremental checker from its ``stream()``, the payload located as
  ``check()`` locates it, ``max_size``, and every MAX / EXACTLY count kept while
  streaming; JSON's checker judges a schema's prefix keywords as well, so a wrong key, a
  string where an integer is asked or an enum miss is refused where it is offered). The
  core knows no format by name: whatever a plugin's checker accepts is accepted. Each candidate is fed to a ``copy()`` of the guard, so a step costs the
  candidates tried times (copy + feed), never the length of the reply so far (see
  ``benchmarks/bench_generate.py``);
* **when it ends**: only on the model's end-of-text candidate (:data:`END`), and only when
  the guard's checker would accept the end (``StreamGuard.can_end``, a copy's
  ``finish()``) and ``check()`` of the reply passes: MIN counts, a complete document, the
  schema and a Markdown contract's required sections are the stopping rule. A ``check()``
  that refuses the end is not run again until the reply has grown by an eighth, so a model
  that offers the end at every step costs O(n log n) checks, not O(n^2);
* **backtracking**: when no candidate fits (or the model offers none), the last step is
  undone and the next candidate at that step is tried; at most ``backtrack_budget``
  steps are undone in all. Only the last ``backtrack_budget + 1`` states are kept;
* **failure**: when ``max_tokens`` pieces are in the reply and the model's next
  candidates hold no end that passes (only the end may follow the last piece), the
  budget is spent, or the very first step has no candidate, :class:`GenerationError` is
  raised with ``prefix``, the longest valid prefix reached (strictly valid so far, within
  every MAX limit), and the counters.

The result, :class:`Generated`, is ``check()``'s ``CheckResult`` for the reply plus
``steps`` (candidates taken), ``rejected`` (candidates refused), ``backtracks`` and
``model_calls``.

Adapters: :mod:`.openai_completions` (an OpenAI-compatible *completions* endpoint that
returns ``logprobs`` with top alternatives: vLLM, llama.cpp's server) and :mod:`.hf` (a
Hugging Face ``transformers`` ``LogitsProcessor`` that masks the rejected top-k tokens).
"""

from __future__ import annotations

from .model import END, CallableModel, Candidate, CandidateModel, as_candidate, as_model
from .search import Generated, GenerationError, generate

__all__ = [
    "END",
    "CallableModel",
    "Candidate",
    "CandidateModel",
    "Generated",
    "GenerationError",
    "as_candidate",
    "as_model",
    "generate",
]
