"""IFEval's 25 instruction ids and the kwargs each one reads (the reference checker's
``instructions_registry.INSTRUCTION_DICT``)."""

from __future__ import annotations

__all__ = ["INSTRUCTIONS", "GROUPS"]

#: instruction id -> the kwargs its check reads (all required in a row).
INSTRUCTIONS: dict[str, tuple[str, ...]] = {
    "keywords:existence": ("keywords",),
    "keywords:frequency": ("keyword", "frequency", "relation"),
    "keywords:forbidden_words": ("forbidden_words",),
    "keywords:letter_frequency": ("letter", "let_frequency", "let_relation"),
    "language:response_language": ("language",),
    "length_constraints:number_sentences": ("num_sentences", "relation"),
    "length_constraints:number_paragraphs": ("num_paragraphs",),
    "length_constraints:number_words": ("num_words", "relation"),
    "length_constraints:nth_paragraph_first_word": ("num_paragraphs", "nth_paragraph", "first_word"),
    "detectable_content:number_placeholders": ("num_placeholders",),
    "detectable_content:postscript": ("postscript_marker",),
    "detectable_format:number_bullet_lists": ("num_bullets",),
    "detectable_format:constrained_response": (),
    "detectable_format:number_highlighted_sections": ("num_highlights",),
    "detectable_format:multiple_sections": ("section_spliter", "num_sections"),
    "detectable_format:json_format": (),
    "detectable_format:title": (),
    "combination:two_responses": (),
    "combination:repeat_prompt": ("prompt_to_repeat",),
    "startend:end_checker": ("end_phrase",),
    "change_case:capital_word_frequency": ("capital_frequency", "capital_relation"),
    "change_case:english_capital": (),
    "change_case:english_lowercase": (),
    "punctuation:no_comma": (),
    "startend:quotation": (),
}

#: The groups IFEval's report prints ("keywords", "detectable_format", ...).
GROUPS = tuple(sorted({instruction_id.split(":")[0] for instruction_id in INSTRUCTIONS}))
