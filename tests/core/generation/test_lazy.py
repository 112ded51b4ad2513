"""The generation adapters import torch, transformers and openai only when used."""

from __future__ import annotations

from tests.core.test_lazy_imports import loaded_modules


def test_importing_the_adapters_loads_no_heavy_library():
    loaded = loaded_modules(
        """
        import formatbook_core.generation
        from formatbook_core.generation.hf import ExpectationsLogitsProcessor, HFCandidates
        from formatbook_core.generation.openai_completions import CompletionsModel
        """
    )
    assert not {"torch", "transformers", "tokenizers", "openai"} & set(loaded)
