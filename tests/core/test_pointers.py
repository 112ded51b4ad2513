"""JSON pointers (RFC 6901) read once, in the core, for every format whose scopes are pointers."""

from __future__ import annotations

import pytest

from formatbook_core import ScopeNotFound
from formatbook_core.pointers import array_index, is_index, local_target, parse_pointer, resolve, scope_problem


@pytest.mark.parametrize(
    ("pointer", "tokens"),
    [
        ("", ()),
        ("/", ("",)),
        ("/a/b", ("a", "b")),
        ("/a~1b/c~0d", ("a/b", "c~d")),
        ("/~01", ("~1",)),  # ~1 is replaced first: "~01" is the key "~1"
        ("#/items/0", ("items", "0")),
        ("#/a%20b", ("a b",)),  # a URI fragment is percent-decoded
        ("#", ()),
    ],
)
def test_parse_pointer(pointer: str, tokens: tuple[str, ...]) -> None:
    assert parse_pointer(pointer) == tokens


def test_text_that_is_not_a_pointer() -> None:
    with pytest.raises(ScopeNotFound, match="must start with '/'"):
        parse_pointer("items")


@pytest.mark.parametrize(("token", "length", "index"), [("0", 1, 0), ("2", 3, 2), ("3", 3, None), ("01", 5, None)])
def test_array_index(token: str, length: int, index: int | None) -> None:
    assert array_index(token, length) == index


def test_only_ascii_digits_are_an_index() -> None:
    """``str.isdigit()`` takes "²", which ``int()`` refuses: not an index, never a crash."""
    assert not is_index("²")
    assert array_index("²", 5) is None
    assert not is_index("-")


def test_scope_problem_names_the_format() -> None:
    assert scope_problem("/title", "YAML") is None
    assert scope_problem("title", "YAML") == (
        """'title' is not a JSON pointer (it must start with '/'); a YAML scope is a JSON pointer such as "/title\""""
    )


def test_local_target_walks_objects_and_arrays() -> None:
    root = {"$defs": {"a/b": {"type": "string"}}, "prefixItems": [{"type": "integer"}], "": {"const": 1}}
    assert local_target(root, "#") is root
    assert local_target(root, "#/$defs/a~1b") == {"type": "string"}
    assert local_target(root, "#/prefixItems/0") == {"type": "integer"}
    assert local_target(root, "#/") == {"const": 1}  # RFC 6901: the empty key, as validation reads it


@pytest.mark.parametrize("ref", ["#/$defs/missing", "#/prefixItems/1", "#anchor", "other.json#/a", "#/$defs/a~1b/x"])
def test_local_target_names_nothing(ref: str) -> None:
    root = {"$defs": {"a/b": "leaf"}, "prefixItems": [{}]}
    assert local_target(root, ref) is None


def test_resolve_walks_a_parsed_value() -> None:
    value = {"a": [{"b": 1}, 2], "": 3}
    assert resolve(value, "/a/0/b") == (1, ("a", 0, "b"))
    assert resolve(value, "/") == (3, ("",))
    assert resolve(value, "") == (value, ())


@pytest.mark.parametrize(
    ("pointer", "why"),
    [
        ("/x", "no key 'x'"),
        ("/a/5", "no item '5' in a list of 2"),
        ("/a/01", "no item '01'"),
        ("/a/1/c", "'c' is inside a scalar"),
    ],
)
def test_resolve_says_what_it_did_not_find(pointer: str, why: str) -> None:
    with pytest.raises(ScopeNotFound, match=f"the TOML has no '{pointer}': {why}"):
        resolve({"a": [{"b": 1}, 2]}, pointer, "TOML")
