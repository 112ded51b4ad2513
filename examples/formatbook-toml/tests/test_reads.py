"""How often a check() reads the TOML payload, counted: once for a clean reply, and a
broken one's healed text is read once more, by the heal that confirms it (issue 24)."""

from __future__ import annotations

import formatbook_toml
import pytest

from formatbook_core import Count, Expectations, check
from formatbook_core.registry import Registry


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the plugin hands to tomllib."""
    calls: list[str] = []
    read = formatbook_toml._read
    monkeypatch.setattr(formatbook_toml, "_read", lambda text: calls.append(text) or read(text))
    return calls


def _expect() -> Expectations:
    registry = Registry(autoload=False)
    registry.register_plugin(formatbook_toml, "toml")
    counts = [Count("words", max=9), Count("words", max=3, scope="/server")]
    return Expectations(format="toml", counts=counts, registry=registry)


def test_a_clean_reply_is_read_once(reads: list[str]) -> None:
    result = check('[server]\nhost = "example.org"\nport = 8080\n', _expect())
    assert result.verdict == "pass" and result.counts == {"words": 2, 'words IN "/server"': 2}
    assert len(reads) == 1


def test_a_healed_reply_is_read_once_more_by_the_heal_that_confirms_it(reads: list[str]) -> None:
    result = check("Here it is:\n\n```toml\n[server]\ndebug = True\n```\n", _expect())
    assert result.verdict == "healed" and result.counts == {"words": 1, 'words IN "/server"': 1}
    assert reads == ["[server]\ndebug = True", "[server]\ndebug = true"]
