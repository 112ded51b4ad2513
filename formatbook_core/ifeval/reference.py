"""IFEval's own definitions, for ``definitions="ifeval"``: each check as the reference
checker (google-research ``instruction_following_eval/instructions.py``) decides it,
rewritten here as plain linear scans (its regular expressions ``^\\s*\\*[^\\*].*$`` and
``\\[.*?\\]`` are read the way Python's ``re`` matches them, without their worst cases).

Two definitions rest on NLTK in the reference and are rebuilt here without NLTK: sentences
(Punkt's English model: its abbreviation and sentence-starter lists, its statistics of
capitalisation approximated) and the words ``word_tokenize`` gives for capital words
(``benchmarks/ifeval_agreement.py`` measures both against NLTK). Language detection uses the registered ``LANGUAGE`` kind (lingua) where
the reference uses langdetect; as there, a text whose language cannot be told counts as
followed. Keywords are matched literally (the reference reads them as regular expressions;
IFEval's keywords are plain words, where the two agree).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

__all__ = ["RULES", "check_instruction", "count_sentences", "count_capital_words", "count_words"]

_WORD = re.compile(r"\w+")

#: The abbreviations of Punkt's English model (NLTK ``punkt_tab/english``: lower case,
#: without the final period). Note what is not there: ``e.g``, ``i.e``, ``etc``.
_ABBREVIATIONS = frozenset(
    "a.a a.c a.d a.g a.h a.m a.m.e a.s a.t adm ala ariz aug ave b.f b.v bros c c.i.t c.o.m.b c.v calif chg cie co "
    "col colo conn corp cos ct d d.c d.h d.w dec dr e e.f e.h e.l e.m f f.g f.j feb fla fri ft g g.d g.f g.k ga gen "
    "h h.c h.f h.m i.m.s ill inc j.b j.c j.j j.k j.p j.r jan jr k kan ky l l.a l.f l.p lt ltd m m.b.a m.d.c m.j maj "
    "messrs mg mich minn mr mrs ms n n.c n.d n.h n.j n.m n.v n.y nev nov oct ok okla ore p p.a.m p.m pa ph.d prof r "
    "r.a r.h r.i r.j r.k r.t rep reps s s.a s.a.y s.c s.g s.p.a s.s sen sep sept sr st sw t t.j tenn tues u.k u.n "
    "u.s u.s.a u.s.s.r v va vs vt w w.c w.r w.va w.w wash wed wis yr".split()
)
#: The sentence starters of Punkt's English model: after an abbreviation or an ellipsis,
#: one of them capitalised starts a sentence.
_STARTERS = frozenset(
    "according although among both but despite even he however i if in indeed instead it many meanwhile moreover "
    "most nevertheless nonetheless nor sales separately similarly since so some the there these they this though "
    "thus under when while yet".split()
)
#: Common words that Punkt's statistics have seen in lower case: after an initial ("J.")
#: a capitalised one starts a sentence (the model's orthographic context has lower case for
#: it); approximates that test without the model's 20,000-word table. After an abbreviation
#: or an ellipsis only the sentence starters count: nearly all of these words have also been
#: seen capitalised inside a sentence, which makes Punkt's heuristic undecided there.
_COMMON = _STARTERS | frozenset(
    "a an and or then we you my our your she his her its their what how why where who which each every all no not "
    "one to for with on at by as from of after before also first finally next here now please let note that those "
    "just only once other another such".split()
)
#: What Punkt lets follow a sentence's final punctuation directly (else white space must).
_AFTER_END = "?!)\";}]*:@'({["
#: Characters that are words of their own in Punkt's tokens; a word does not start with these.
_NON_WORD = ")\";}]*:@'({[!?"
_NOT_WORD_START = '("`{[:;&#*@)}]-,'
_NUMBER = re.compile(r"-?[.,]?\d[\d,.\-]*\.?")
_INITIAL = re.compile(r"[^\W\d]\.")


def count_words(text: str) -> int:
    """IFEval's words: runs of ``\\w`` (NLTK's ``RegexpTokenizer(r"\\w+")``)."""
    return sum(1 for _ in _WORD.finditer(text))


def _first_token(word: str) -> str:
    """The first of Punkt's tokens in a white-space-separated word."""
    if word[0] in _NOT_WORD_START:
        return word[0]
    end = 1  # a word may start with "'" (Punkt's words end before a non-word character)
    while end < len(word) and word[end] not in _NON_WORD:
        end += 1
    return word[:end] or word[0]


def _end_at(word: str) -> int:
    """Where a candidate sentence end sits in ``word`` (-1: none): the last ``.?!`` followed
    by the word's end or by a character of :data:`_AFTER_END` (Punkt's period context)."""
    for k in range(len(word) - 1, -1, -1):
        if word[k] in ".?!" and (k + 1 == len(word) or word[k + 1] in _AFTER_END):
            return k
    return -1


def _breaks(word: str, k: int, following: str) -> bool:
    """Does the candidate end at ``word[k]`` end a sentence, before ``following`` (the
    next of Punkt's tokens)? Punkt's two passes, its orthographic statistics approximated:
    a lower-case word never starts a sentence, a capitalised one does only when it is one
    of the model's sentence starters."""
    if word[k] in "?!":
        return True
    start = k
    while start > 0 and word[start - 1] not in _NON_WORD:
        start -= 1
    if start > 0 and word[start - 1] not in _NOT_WORD_START:
        start -= 1  # "'", "!" or "?" may start a word
    while start < k and word[start] in _NOT_WORD_START:
        start += 1
    token = word[start : k + 1]
    if len(token) >= 2 and token[-2] == ".":  # an ellipsis ("word..." is "word" and "...")
        abbreviation, ellipsis = False, True
    else:
        kind = token[:-1].lower()
        abbreviation, ellipsis = kind in _ABBREVIATIONS or kind.split("-")[-1] in _ABBREVIATIONS, False
    initial = _INITIAL.fullmatch(token) is not None
    number = not ellipsis and _NUMBER.fullmatch(token) is not None
    upper = following[:1].isupper()
    lower = following[:1].islower() or following in (";", ":", ",", ".", "!", "?")
    starter = upper and following.lower() in _STARTERS
    common = upper and following.lower() in _COMMON
    if ellipsis or (abbreviation and not initial):
        # Punkt's second pass: a break when the orthographic heuristic says so (not for
        # "Then", "We", "And": seen capitalised mid-sentence) or the word is a starter
        return starter
    if initial or number:
        if lower:
            return False
        if initial and upper and not common:
            return False
    return not abbreviation


def count_sentences(text: str) -> int:
    """Sentences as NLTK's Punkt English model splits them (IFEval's ``count_sentences``),
    approximated without its data: a sentence ends at ``?`` or ``!``; at ``.`` unless
    the word is one of the model's abbreviations, an initial, or a number before a
    lower-case word; after an abbreviation or an ellipsis only before a sentence starter.
    No end punctuation, no split: a line break alone splits nothing.
    """
    words = text.split()
    if not words:
        return 0
    count = 1
    for index, word in enumerate(words):
        k = _end_at(word)
        if k < 0:
            continue
        if k + 1 < len(word):
            following = word[k + 1]  # a closing bracket or quote right after the mark
            if index + 1 == len(words) and not word[k + 1 :].strip("\"')]}"):
                continue  # closers ending the text join the last sentence
        elif index + 1 < len(words):
            following = _first_token(words[index + 1])
        else:
            continue  # the text's last word
        count += _breaks(word, k, following)
    return count


_CLITICS = ("'s", "'m", "'d", "'ll", "'re", "'ve", "n't")
_SPLIT_WORDS = {"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "gimme": 3, "lemme": 3}


def _tokens(text: str) -> list[str]:
    """Words about as NLTK's ``word_tokenize`` cuts them, for telling capital words."""
    out: list[str] = []
    # word_tokenize cuts every "..." out as a token of its own, even inside a word
    for chunk in text.replace("...", " ").split():
        piece: list[str] = []
        for i, ch in enumerate(chunk):
            split = ch in ';@#$%&?!()[]{}<>"*“”‘’«»`' or (
                ch in ",:" and (i + 1 >= len(chunk) or not chunk[i + 1].isdigit())
            )
            if split:
                if piece:
                    out.append("".join(piece))
                piece = []
            else:
                piece.append(ch)
        if piece:
            out.append("".join(piece))
    words: list[str] = []
    for token in out:
        # a sentence's final period is cut off before the clitics are ("CAN'T." is
        # "CA", "N'T", "."); a period is never a capital word, so it is simply dropped
        bare = token.rstrip(".") or token
        lower = bare.lower()
        cut = next((c for c in _CLITICS if lower.endswith(c) and len(lower) > len(c)), None)
        if cut is not None:
            words.extend((bare[: -len(cut)], bare[-len(cut) :]))
        elif lower in _SPLIT_WORDS:
            words.extend((bare[: _SPLIT_WORDS[lower]], bare[_SPLIT_WORDS[lower] :]))
        else:
            words.append(token)
    return words


def count_capital_words(text: str) -> int:
    """Words written in capitals (``str.isupper``), cut about as ``word_tokenize`` cuts them."""
    return sum(1 for word in _tokens(text) if word.isupper())


def _compare(value: int, relation: str, threshold: int) -> bool:
    if relation == "less than":
        return value < threshold
    if relation == "at least":
        return value >= threshold
    raise ValueError(f"relation must be 'less than' or 'at least', not {relation!r}")


def _count_literal(text: str, literal: str) -> int:
    if not literal:
        return 0
    return len(re.findall(re.escape(literal), text, flags=re.IGNORECASE))


def _placeholders(text: str) -> int:
    count = 0
    for line in text.split("\n"):
        pos = 0
        while True:
            start = line.find("[", pos)
            if start < 0:
                break
            end = line.find("]", start + 1)
            if end < 0:
                break
            count += 1
            pos = end + 1
    return count


def _bullets(text: str) -> int:
    """``^\\s*\\*[^\\*].*$`` plus ``^\\s*-.*$`` (MULTILINE), counted as ``re.findall`` does."""
    n = len(text)
    total = 0
    for mark in "*-":
        pos = 0
        while pos <= n:
            k = pos
            while k < n and text[k].isspace():
                k += 1
            matched = k < n and text[k] == mark
            if matched and mark == "*":
                matched = k + 1 < n and text[k + 1] != "*"
            if matched:
                total += 1
                body = k + 2 if mark == "*" else k + 1
                end = text.find("\n", body)
                end = n if end < 0 else end
            else:
                end = text.find("\n", k)
                if end < 0:
                    break
            pos = end + 1  # the next line start (a match ends at its line's end)
    return total


def _highlights(text: str) -> int:
    count = 0
    n = len(text)
    i = text.find("*")
    while 0 <= i < n:  # \*[^\n\*]*\*
        j = i + 1
        while j < n and text[j] not in "\n*":
            j += 1
        if j < n and text[j] == "*":
            count += bool(text[i + 1 : j].strip())
            i = text.find("*", j + 1)
        else:
            i = text.find("*", j)
    i = text.find("**")
    while i >= 0:  # \*\*[^\n\*]*\*\*
        j = i + 2
        while j < n and text[j] not in "\n*":
            j += 1
        if text.startswith("**", j):
            count += bool(text[i + 2 : j].strip())
            i = text.find("**", j + 2)
        else:
            i = text.find("**", i + 1)
    return count


def _sections(text: str, splitter: str) -> int:
    if not splitter:
        return 0
    count = 0
    pos = 0
    n = len(text)
    while True:
        p = text.find(splitter, pos)
        if p < 0:
            return count
        q = p + len(splitter)
        if q < n and text[q].isspace() and q + 1 < n and text[q + 1].isdecimal():
            q += 1
        if q < n and text[q].isdecimal():
            while q < n and text[q].isdecimal():
                q += 1
            count += 1
            pos = q
        else:
            pos = p + 1


def _paragraphs_stars(text: str, wanted: int) -> bool:
    pieces = text.split("***")
    count = len(pieces)
    for index, piece in enumerate(pieces):
        if not piece.strip():
            if index in (0, len(pieces) - 1):
                count -= 1
            else:
                return False
    return count == wanted


def _nth_paragraph(text: str, num_paragraphs: int, nth: int, first_word: str) -> bool:
    paragraphs = text.split("\n\n")
    count = sum(1 for p in paragraphs if p.strip())
    if not (0 < nth <= count):
        return False
    paragraph = paragraphs[nth - 1].strip()
    if not paragraph:
        return False
    word = paragraph.split()[0].strip().lstrip("'").lstrip('"')
    found = []
    for letter in word:
        if letter in ".,?!'\"":
            break
        found.append(letter.lower())
    return count == num_paragraphs and "".join(found) == first_word.lower()


def _postscript(text: str, marker: str) -> bool:
    value = text.lower()
    if marker == "P.P.S":
        return re.search(r"p\.\s?p\.\s?s", value) is not None
    if marker == "P.S.":
        return re.search(r"p\.\s?s\.", value) is not None
    # the reference reads other markers as patterns: '.' is any character but a line break
    pattern = "".join("[^\\n]" if ch == "." else re.escape(ch) for ch in marker.lower())
    return re.search(pattern, value) is not None


def _title(text: str) -> bool:
    for line in text.split("\n"):
        a = line.find("<<")
        if a < 0:
            continue
        b = line.rfind(">>")
        if b >= a + 3 and line[a : b + 2].lstrip("<").rstrip(">").strip():
            return True
    return False


def _two_responses(text: str) -> bool:
    pieces = text.split("******")
    valid = []
    for index, piece in enumerate(pieces):
        if not piece.strip():
            if index not in (0, len(pieces) - 1):
                return False
        else:
            valid.append(piece)
    return len(valid) == 2 and valid[0].strip() != valid[1].strip()


def _json(text: str) -> bool:
    value = text.strip()
    for prefix in ("```json", "```Json", "```JSON", "```"):
        if value.startswith(prefix):
            value = value[len(prefix) :]
            break
    if value.endswith("```"):
        value = value[:-3]
    try:
        json.loads(value.strip())
    except (ValueError, RecursionError):
        return False
    return True


Language = Callable[[str, str], "bool | None"]


def _language_followed(text: str, code: str, language: Language) -> bool:
    verdict = language(text, code)
    return True if verdict is None else verdict  # undetectable counts as followed, as in IFEval


def _quoted(text: str) -> bool:
    value = text.strip()
    return len(value) > 1 and value[0] == '"' and value[-1] == '"'


def _forbidden(text: str, words: list[str]) -> bool:
    return not any(re.search(r"\b" + re.escape(w) + r"\b", text, flags=re.IGNORECASE) for w in words)


_OPTIONS = ("My answer is yes.", "My answer is no.", "My answer is maybe.")

Rule = Callable[[dict[str, Any], str, Language], bool]

#: IFEval's check per instruction (the part of the id after the colon): kwargs, text,
#: the language judge -> followed.
RULES: dict[str, Rule] = {
    "existence": lambda kw, t, _: all(_count_literal(t, k) > 0 for k in kw["keywords"]),
    "frequency": lambda kw, t, _: _compare(_count_literal(t, kw["keyword"].strip()), kw["relation"], kw["frequency"]),
    "forbidden_words": lambda kw, t, _: _forbidden(t, kw["forbidden_words"]),
    "letter_frequency": lambda kw, t, _: _compare(
        t.lower().count(kw["letter"].strip().lower()), kw["let_relation"], kw["let_frequency"]
    ),
    "response_language": lambda kw, t, lang: _language_followed(t, kw["language"], lang),
    "number_sentences": lambda kw, t, _: _compare(count_sentences(t), kw["relation"], kw["num_sentences"]),
    "number_paragraphs": lambda kw, t, _: _paragraphs_stars(t, kw["num_paragraphs"]),
    "number_words": lambda kw, t, _: _compare(count_words(t), kw["relation"], kw["num_words"]),
    "nth_paragraph_first_word": lambda kw, t, _: _nth_paragraph(
        t, kw["num_paragraphs"], kw["nth_paragraph"], kw["first_word"]
    ),
    "number_placeholders": lambda kw, t, _: _placeholders(t) >= kw["num_placeholders"],
    "postscript": lambda kw, t, _: _postscript(t, kw["postscript_marker"].strip()),
    "number_bullet_lists": lambda kw, t, _: _bullets(t) == kw["num_bullets"],
    "constrained_response": lambda kw, t, _: any(o in t.strip() for o in _OPTIONS),
    "number_highlighted_sections": lambda kw, t, _: _highlights(t) >= kw["num_highlights"],
    "multiple_sections": lambda kw, t, _: _sections(t, kw["section_spliter"].strip()) >= kw["num_sections"],
    "json_format": lambda kw, t, _: _json(t),
    "title": lambda kw, t, _: _title(t),
    "two_responses": lambda kw, t, _: _two_responses(t),
    "repeat_prompt": lambda kw, t, _: t.strip().lower().startswith(kw["prompt_to_repeat"].strip().lower()),
    "end_checker": lambda kw, t, _: t.strip().strip('"').lower().endswith(kw["end_phrase"].strip().lower()),
    "capital_word_frequency": lambda kw, t, _: _compare(
        count_capital_words(t), kw["capital_relation"], kw["capital_frequency"]
    ),
    "english_capital": lambda kw, t, lang: t.isupper() and _language_followed(t, "en", lang),
    "english_lowercase": lambda kw, t, lang: t.islower() and _language_followed(t, "en", lang),
    "no_comma": lambda kw, t, _: "," not in t,
    "quotation": lambda kw, t, _: _quoted(t),
}


def check_instruction(instruction_id: str, kw: dict[str, Any], text: str, language: Language) -> bool:
    """IFEval's verdict for one instruction on ``text`` (``KeyError`` for an unknown id)."""
    return RULES[instruction_id.split(":", 1)[1]](kw, text, language)
