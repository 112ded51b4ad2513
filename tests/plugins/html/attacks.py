"""Hostile HTML shapes: each must be answered (a violation or a verdict) in about linear
time. Shared by the contract test (attack_inputs) and pathological.py."""

from __future__ import annotations


def deep_divs(n: int) -> str:
    return "<div>" * (n // 5)


def distinct_unclosed_bold(n: int) -> str:
    """Formatting elements the adoption agency keeps in its list (Noah's ark does not
    merge them: their attributes differ)."""
    return "".join(f"<b x={i}>" for i in range(n // 10))


def reconstructed_bold(n: int) -> str:
    """Unclosed <b>s recreated in every later paragraph (reconstruct the active
    formatting elements): quadratic output without a bound."""
    return "".join(f"<p><b x={i}></p>" for i in range(300)) + "<p>x</p>" * (n // 8)


def many_attributes(n: int) -> str:
    return "<p " + " ".join(f"a{i}=1" for i in range(n // 6)) + ">y</p>"


def huge_attribute(n: int) -> str:
    return "<p title='" + "x" * n + "'>y</p>"


def many_text_tokens(n: int) -> str:
    """One paragraph of many character tokens (html5lib's own tree copies the text node
    for each): valid HTML."""
    return "<p>" + "a & b " * (n // 6) + "</p>"


def misnested(n: int) -> str:
    return "<b><i>x</b></i>" * (n // 16)


def nested_anchors(n: int) -> str:
    return "<a>" * (n // 3)


def table_voodoo(n: int) -> str:
    return "<table>" + "<div>x</div>" * (n // 12)


def optgroups(n: int) -> str:
    return "<select>" + "<optgroup>" * (n // 10) + "</select>"


def long_numeric_reference(n: int) -> str:
    return "<p>&#" + "1" * max(n, 5000) + ";</p>"


def many_lt(n: int) -> str:
    return "<" * n


ATTACKS = {
    "deep-divs": deep_divs,
    "distinct-unclosed-bold": distinct_unclosed_bold,
    "reconstructed-bold": reconstructed_bold,
    "many-attributes": many_attributes,
    "huge-attribute": huge_attribute,
    "many-text-tokens": many_text_tokens,
    "misnested": misnested,
    "nested-anchors": nested_anchors,
    "table-voodoo": table_voodoo,
    "optgroups": optgroups,
    "long-numeric-reference": long_numeric_reference,
    "many-lt": many_lt,
}
