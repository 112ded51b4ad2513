"""Tokenizers built here, with no download, for testing and measuring generation with
Hugging Face ``transformers`` (``formatbook[hf]``): a word-level one whose tokens are
exactly the pieces given, and a byte-level BPE trained on a few texts."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["EOS", "byte_level_bpe", "word_level"]

#: the end-of-text token of every tokenizer here (GPT-2's spelling)
EOS = "<|endoftext|>"


def word_level(vocab: list[str]) -> Any:
    """A tokenizer whose tokens are exactly ``vocab`` (plus :data:`EOS`), joined with
    nothing when decoded, and splitting text back into them when encoding."""
    import tokenizers  # noqa: PLC0415 - only with the hf extra
    import transformers  # noqa: PLC0415 - only with the hf extra

    ids = {token: i for i, token in enumerate([EOS, *vocab])}
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(ids, unk_token=EOS))
    alternatives = "|".join(re.escape(t) for t in sorted(vocab, key=len, reverse=True))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Split(tokenizers.Regex(alternatives), behavior="isolated")
    tok.decoder = tokenizers.decoders.Fuse()
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS, pad_token=EOS)


def byte_level_bpe(texts: list[str], vocab_size: int) -> Any:
    """A byte-level BPE of ``vocab_size`` tokens trained on ``texts`` (as GPT-2's, smaller)."""
    import tokenizers  # noqa: PLC0415 - only with the hf extra
    import transformers  # noqa: PLC0415 - only with the hf extra

    byte_level = tokenizers.pre_tokenizers.ByteLevel
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = byte_level(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=[EOS], initial_alphabet=byte_level.alphabet(), show_progress=False
    )
    tok.train_from_iterator(texts, trainer)
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=EOS, pad_token=EOS)
