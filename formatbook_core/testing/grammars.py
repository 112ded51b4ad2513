"""Exported grammars checked with the engines' own parsers, for a format's tests.

:func:`accepts` answers, engine by engine, whether a grammar (``formatbook_core.grammars``)
matches a text as a whole:

* ``lark`` — the Lark text compiled by Lark itself (Earley, the default parser);
* ``llguidance-lark`` — the Lark text compiled by llguidance (what Outlines and vLLM's
  guided decoding run), fed byte by byte through a byte-level tokenizer;
* ``xgrammar-gbnf`` — the GBNF text compiled by xgrammar (``Grammar.from_ebnf``, which
  reads llama.cpp's GBNF).

llguidance also reads GBNF, through a converter that makes every rule that does not
recurse a lexer token: its greedy lexer then refuses texts the grammar matches (a section
that may end or go on at a blank line), so the GBNF is not judged by it; the Lark export is
what to give llguidance.

Each engine is imported on first use (``pip install lark llguidance xgrammar``, in the
``test`` extra). A grammar an engine refuses to compile raises ``AssertionError`` with the
engine's message.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..grammars import Grammar

__all__ = ["ENGINES", "accepts", "compiled"]

ENGINES = ("lark", "llguidance-lark", "xgrammar-gbnf")


class _ByteTokenizer:
    """256 tokens, one per byte, and an end token: every text is a sequence of tokens."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]

    def __call__(self, text: bytes) -> list[int]:
        return list(text)


@cache
def _tokenizer() -> Any:
    from llguidance import LLTokenizer, TokenizerWrapper  # noqa: PLC0415 - a test engine, imported on first use

    return LLTokenizer(TokenizerWrapper(_ByteTokenizer()), slices=[])


def compiled(grammar: Grammar) -> dict[str, Any]:
    """The grammar compiled by every engine (``AssertionError`` naming the one that refuses it)."""
    import lark  # noqa: PLC0415 - a test engine, imported on first use
    import xgrammar  # noqa: PLC0415 - a test engine, imported on first use
    from llguidance import LLMatcher, grammar_from  # noqa: PLC0415 - a test engine, imported on first use

    lark_text, gbnf_text = grammar.to_lark(), grammar.to_gbnf()
    out: dict[str, Any] = {}
    try:
        out["lark"] = lark.Lark(lark_text)
    except lark.exceptions.LarkError as exc:
        raise AssertionError(f"Lark refuses the grammar: {exc}\n{lark_text}") from None
    spec = grammar_from("lark", lark_text)
    problem = LLMatcher.validate_grammar(spec, _tokenizer())
    if problem:
        raise AssertionError(f"llguidance refuses the Lark grammar: {problem}\n{lark_text}")
    # a matcher at the start of the grammar, copied for each text: building one compiles the
    # grammar again (about 2 ms), a copy is a microsecond; reset() would keep an error
    out["llguidance-lark"] = LLMatcher(_tokenizer(), spec, log_level=0)
    try:
        compiler = xgrammar.GrammarCompiler(xgrammar.TokenizerInfo([]), cache_enabled=False)
        out["xgrammar-gbnf"] = compiler.compile_grammar(xgrammar.Grammar.from_ebnf(gbnf_text))
    except RuntimeError as exc:
        raise AssertionError(f"xgrammar refuses the GBNF grammar: {exc}\n{gbnf_text}") from None
    return out


def accepts(grammar: Grammar | dict[str, Any], text: str) -> dict[str, bool]:
    """Engine → whether it matches ``text`` whole (``grammar`` or :func:`compiled`'s answer)."""
    import lark  # noqa: PLC0415 - a test engine, imported on first use
    import xgrammar  # noqa: PLC0415 - a test engine, imported on first use

    engines = compiled(grammar) if isinstance(grammar, Grammar) else grammar
    out: dict[str, bool] = {}
    try:
        engines["lark"].parse(text)
        out["lark"] = True
    except lark.exceptions.LarkError:
        out["lark"] = False
    matcher = engines["llguidance-lark"].deep_copy()
    fed = matcher.consume_tokens(list(text.encode("utf-8")))
    out["llguidance-lark"] = bool(fed) and not matcher.is_error() and matcher.is_accepting()
    xg = xgrammar.GrammarMatcher(engines["xgrammar-gbnf"], terminate_without_stop_token=True)
    out["xgrammar-gbnf"] = bool(xg.accept_string(text)) and xg.is_terminated()
    return out
