"""Memory per character of a check: bounded on replies of many short lines."""

from __future__ import annotations

import tracemalloc

from formatbook_core import check
from formatbook_yaml.fastload import available
from formatbook_yaml.loading import compose


def test_nodes_share_their_tags() -> None:
    """ruamel made a Tag (and its text) per node: about 100 bytes a node."""
    root = compose("- a\n- b\n- [c, d]\n- [e]\n", 100)[0]
    scalars = [root.value[0], root.value[1], *root.value[2].value, *root.value[3].value]
    assert len({id(node.tag) for node in scalars}) == 1
    assert root.value[2].tag is root.value[3].tag


def _bytes_per_character(text: str, expect: str) -> float:
    check(text[:100], expect)  # lazy imports out of the measure
    tracemalloc.start()
    try:
        assert check(text, expect).ok
        return tracemalloc.get_traced_memory()[1] / len(text)
    finally:
        tracemalloc.stop()


def test_short_lines_stay_under_the_bound() -> None:
    """``- a`` lines took 250 bytes a character (3.3 GB for 16 MB), then 159 with ruamel's
    nodes; ``keyN: value`` lines 99. The fast reading keeps no node (about 5 bytes a
    character for the value), and locating keeps 8 bytes a line for the offsets: about 21
    and 15 now, under issue 30's 50 for realistic shapes."""
    short, keys = (50, 50) if available() else (170, 110)  # without PyYAML's C extension: nodes
    assert _bytes_per_character("- a\n" * 5_000, "EXPECT YAML") < short
    assert _bytes_per_character("".join(f"key{i}: value\n" for i in range(3_000)), "EXPECT YAML") < keys
