"""Memory per character of a check: bounded on replies of many short lines."""

from __future__ import annotations

from formatbook_core.fuzzing.pathological import traced_check
from formatbook_yaml.fastload import available
from formatbook_yaml.loading import compose


def test_nodes_share_their_tags() -> None:
    """ruamel made a Tag (and its text) per node: about 100 bytes a node."""
    root = compose("- a\n- b\n- [c, d]\n- [e]\n", 100)[0]
    scalars = [root.value[0], root.value[1], *root.value[2].value, *root.value[3].value]
    assert len({id(node.tag) for node in scalars}) == 1
    assert root.value[2].tag is root.value[3].tag


def _bytes_per_character(text: str, expect: str) -> float:
    result, peak = traced_check(text, expect)
    assert result.ok
    return peak


def test_short_lines_stay_under_the_bound() -> None:
    """``- a`` lines took 250 bytes a character (3.3 GB for 16 MB), then 159 with ruamel's
    nodes; ``keyN: value`` lines 99. The fast reading keeps no node (about 5 bytes a
    character for the value), and locating keeps 8 bytes a line for the offsets: about 21
    and 15 now, under issue 30's 50 for realistic shapes."""
    short, keys = (50, 50) if available() else (170, 110)  # without PyYAML's C extension: nodes
    assert _bytes_per_character("- a\n" * 5_000, "EXPECT YAML") < short
    assert _bytes_per_character("".join(f"key{i}: value\n" for i in range(3_000)), "EXPECT YAML") < keys


def test_the_full_reading_keeps_offsets_not_marks() -> None:
    """A node keeps two offsets, not ruamel's marks (index, pointer, line, column, name,
    buffer: about 180 bytes each)."""
    root = compose("a: &x [1, 2]\nb: *x\n", 100)[0]
    key, value = root.value[0]
    assert isinstance(key.start_mark, int) and not hasattr(key.start_mark, "buffer")
    assert (key.start_mark.index, key.end_mark.index) == (0, 1)
    assert (value.start_mark.index, value.end_mark.index) == (3, 12)  # from the anchor
    assert (root.start_mark.index, root.end_mark.index) == (0, 19)


def test_the_full_reading_stays_under_the_bound() -> None:
    """A tag sends a reply to ruamel's nodes (the fast reading leaves it): ``keyN:
    value`` lines took 101 bytes a character, ``- a`` lines 153; offsets-only marks, a
    value table for anchored nodes only and no graph tables without an alias: 43 and 54."""
    keys = "k: !!str a\n" + "".join(f"key{i}: value\n" for i in range(3_000))
    short = "- !!str a\n" + "- a\n" * 5_000
    assert _bytes_per_character(keys, "EXPECT YAML") < 50
    assert _bytes_per_character(short, "EXPECT YAML") < 75
