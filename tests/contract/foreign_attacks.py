"""Attack documents of other formats (an XML entity bomb, a YAML alias bomb): every
built-in contract contributes them, since a model may send any format's attack whatever
was asked for. The XML and YAML plugins contribute their own as well."""

from __future__ import annotations


def billion_laughs() -> str:
    """An XML document whose entities would expand to 10^9 'lol's."""
    lines = ['<?xml version="1.0"?>', "<!DOCTYPE lolz [", ' <!ENTITY lol "lol">']
    for i in range(1, 10):
        prev = "lol" if i == 1 else f"lol{i - 1}"
        lines.append(f' <!ENTITY lol{i} "' + f"&{prev};" * 10 + '">')
    lines += ["]>", "<lolz>&lol9;</lolz>"]
    return "\n".join(lines)


def yaml_alias_bomb() -> str:
    """A YAML document whose aliases would expand to 9^9 nodes."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    return "\n".join(lines) + "\n"


FOREIGN_ATTACKS = {"billion-laughs": billion_laughs(), "yaml-alias-bomb": yaml_alias_bomb()}
