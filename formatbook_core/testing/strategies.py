"""Hypothesis strategies for the contract's random tests: text drawn from structural
characters and the samples' own, and samples with a stretch replaced. hypothesis is
imported only when a strategy is built."""

from __future__ import annotations

from collections.abc import Sequence

from .inputs import STRUCTURAL


def strategies(samples: Sequence[str]):
    from hypothesis import strategies as st  # noqa: PLC0415 - hypothesis only when a test runs

    alphabet = "".join(sorted(set(STRUCTURAL).union(*map(set, samples)))) if samples else STRUCTURAL
    random_text = st.one_of(st.text(max_size=200), st.text(alphabet=alphabet, max_size=200))
    if not samples:
        return random_text, random_text

    @st.composite
    def mutated(draw):
        sample = draw(st.sampled_from(list(samples)))
        i = draw(st.integers(0, len(sample)))
        j = draw(st.integers(i, len(sample)))
        insert = draw(st.text(alphabet=alphabet, max_size=6))
        return sample[:i] + insert + sample[j:]

    return random_text, mutated()
