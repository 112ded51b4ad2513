"""The grammar IR and its GBNF and Lark writers, checked with the engines' own parsers
(Lark, llguidance, xgrammar): what each writer must escape, and what it must not."""

from __future__ import annotations

import pytest

from formatbook_core.grammars import EMPTY, Builder, Grammar, Lit, Ref, Rep, alt, chars, lit, opt, plus, seq, star
from formatbook_core.testing.grammars import ENGINES, accepts, compiled


def one_rule(expr, *, token: bool = False) -> Grammar:
    b = Builder()
    ref = b.rule("x", expr, token=token)
    return b.grammar(seq(lit("<"), ref, lit(">")))


def assert_all(grammar, good, bad):
    engines = compiled(grammar)
    for text in good:
        assert accepts(engines, text) == dict.fromkeys(ENGINES, True), text
    for text in bad:
        assert accepts(engines, text) == dict.fromkeys(ENGINES, False), text


@pytest.mark.parametrize("token", [False, True])
def test_class_characters_that_are_syntax_in_some_engine(token):
    # "-" makes a range unless written where no engine reads one; "\\", "]", "^", "/"
    # end or change a class or Lark's regex; "&&", "--", "~~" are set operations in
    # llguidance's regex engine
    g = one_rule(plus(chars("-", "\\", "]", "^", "/", "[", "&", "~", "a")), token=token)
    assert_all(g, ["<-\\]^/[&~a>", "<-->", "<&&~~>"], ["<b>", "<>", "<!>", "<,>"])


@pytest.mark.parametrize("token", [False, True])
def test_a_negated_class_with_ranges_and_escapes_followed_by_hex_digits(token):
    # xgrammar reads "\x5B0" as one character: an escape is never followed by a hex digit
    # (">" is left out: a token is read greedily, so what follows it must not continue it)
    g = one_rule(plus(chars("[", "0-9", "\x00-\x1f", "\u2028", "#<>", negated=True)), token=token)
    assert_all(g, ["<abc>", "<é💡 z>", "<A-F>"], ["<[>", "<a0>", "<x\ty>", "<a\u2028b>", "<#>", "<<>"])


def test_literals_with_quotes_backslashes_controls_and_astral_characters():
    text = 'say "hi" \\ \t\n\x01A 💡 é'
    g = one_rule(lit(text))
    assert_all(g, [f"<{text}>"], ["<say>", f"<{text[:-1]}>", f"<{text} >"])
    assert "\\x01A" not in g.to_gbnf()  # xgrammar would read one character \x01A


def test_repetitions_and_empty_alternatives():
    g = one_rule(
        seq(Rep(lit("ab"), 2, 3), Rep(lit("c"), 2, None), opt(lit("d")), alt(lit("e"), EMPTY), Rep(lit("f"), 2, 2))
    )
    assert_all(
        g,
        ["<ababccff>", "<abababcccdeff>", "<ababccdff>"],
        ["<abccff>", "<ababababccff>", "<ababcff>", "<ababccf>", "<ababccfff>", "<ababccdeeff>"],
    )


def test_recursion_through_rules():
    b = Builder()
    name = b.name("nest")
    b.define(name, alt(lit("x"), seq(lit("("), Ref(name), star(seq(lit(","), Ref(name))), lit(")"))))
    assert_all(b.grammar(Ref(name)), ["x", "(x)", "((x,x),(x))"], ["", "()", "(x,)", "(x"])


def test_tokens_and_rules_are_written_as_lark_terminals_and_rules():
    b = Builder()
    word = b.rule("word", plus(chars("a-z")), token=True)
    g = b.grammar(b.rule("line", seq(word, star(seq(lit(" "), word)))))
    text = g.to_lark()
    assert text == 'start: WORD (" " WORD)*\nWORD: /[a-z]/+\n'
    assert g.to_gbnf() == 'root ::= word (" " word)*\nword ::= [a-z]+\n'
    assert_all(g, ["a bc"], ["a  b", "a1", " a"])


def test_a_bad_grammar_is_refused_when_built():
    with pytest.raises(ValueError, match="does not define: nope"):
        Grammar({"a": Ref("nope")}, "a")
    with pytest.raises(ValueError, match="matches the empty text"):
        Grammar({"a": seq(lit("x"), Ref("t")), "t": star(lit("y"))}, "a", frozenset({"t"}))
    with pytest.raises(ValueError, match="refers to the rule a"):
        Grammar({"a": seq(lit("x"), Ref("t")), "t": seq(lit("y"), Ref("a"))}, "a", frozenset({"t"}))
    with pytest.raises(ValueError, match="refers to itself"):
        Grammar({"a": Ref("t"), "t": seq(lit("y"), opt(Ref("t")))}, "a", frozenset({"t"}))
    with pytest.raises(ValueError, match="start rule cannot be a token"):
        Grammar({"a": lit("x")}, "a", frozenset({"a"}))


def test_names_are_unique_and_unreachable_rules_are_left_out():
    b = Builder()
    assert [b.name("Contact firstName"), b.name("contact-firstname"), b.name("root"), b.name("9 lives")] == [
        "contact-firstname",
        "contact-firstname-2",
        "root-2",
        "r-9-lives",
    ]
    unused = b.rule("unused", lit("u"))
    g = b.grammar(lit("x"))
    assert unused.name not in g.rules and set(g.rules) == {g.start}
    assert g.rules[g.start] == Lit("x")
