"""A labelled sentence: a line of prose that YAML would read as a key and its value.

``Error: the request timed out.``, ``Reason: policy.``, ``Note: you can change it later.``
are YAML mappings of one key, and prose to any reader: a label (one to three words,
capitalised, or in a script without case) followed by ``: `` and a plain value that ends
like a sentence (``. ! ? …`` and their full-width forms, after a letter or a closing
bracket or quote, or after two words or more). ``name: Ada``, ``status: ok`` and ``version: 1.2.`` are not: a lower-case
key, a value that does not end like a sentence, a number. Where such a line stands is
what decides (:mod:`.locate` at a payload's edges, :mod:`.syntax` for a whole document).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["labelled_sentence", "sentence_pair"]

# a label and its value on one line; linear: one unbounded class per word, at most three
# words, no class overlapping the separator that follows it
_LINE = re.compile(r"([^\W\d_][\w'\u2019-]*(?: [\w'\u2019-]+){0,2}):[ \t]+(\S[^\n]*)")
_ENDS = (".", "!", "?", "\u2026", "\u3002", "\uff01", "\uff1f")
_CLOSERS = ")]\"'\u201d\u2019\u00bb"
_INDICATORS = "\"'[{&*!|>%@`#,"


def _label(key: str) -> bool:
    """A capitalised label of one to three words (a script without case counts)."""
    return bool(key) and key[0].isalpha() and not key[0].islower() and len(key.split()) <= 3


def _sentence_value(value: str) -> bool:
    """A plain value that ends like a sentence, after a letter (or a closing bracket or
    quote), or of two words or more: ``the request timed out.``, ``policy.``, ``as of
    2023.``; not ``1.``, not ``ok``."""
    body = value.split(" #", 1)[0].rstrip()
    if not body or body[0] in _INDICATORS:
        return False
    trimmed = body.rstrip(_CLOSERS)
    if not trimmed.endswith(_ENDS):
        return False
    words = trimmed.rstrip("".join(_ENDS))
    before = words[-1:]
    return before.isalpha() or (before != "" and before in _CLOSERS) or len(words.split()) >= 2


def labelled_sentence(line: str) -> bool:
    """``line`` (at the margin, no line break) is a labelled sentence."""
    m = _LINE.fullmatch(line.rstrip())
    return m is not None and _label(m.group(1)) and _sentence_value(m.group(2))


def sentence_pair(node: Any) -> bool:
    """``node`` (a composed root) is a block mapping of one labelled sentence: a plain key
    and a plain value, as :func:`labelled_sentence` reads them."""
    from ruamel.yaml.nodes import MappingNode, ScalarNode  # noqa: PLC0415 - lazy: heavy

    if not isinstance(node, MappingNode) or node.flow_style or len(node.value) != 1:
        return False
    key, value = node.value[0]
    if not (isinstance(key, ScalarNode) and isinstance(value, ScalarNode)):
        return False
    if key.style is not None or value.style is not None:
        return False
    return _label(str(key.value)) and _sentence_value(" ".join(str(value.value).split()))
