"""formatbook's contract test-suite, run on the TOML format: what every plugin should do.

pip install ./examples/formatbook-toml && pytest examples/formatbook-toml/tests
"""

import pytest
from formatbook_toml import TomlFormat

from formatbook_core import ScopeNotFound
from formatbook_core.testing import FormatContract


class TestTomlContract(FormatContract):
    format = TomlFormat()
    # 250 KB, not the contract's 2 MB: nothing of TOML's depends on the size below the core's
    # max_size (16 MiB); tomllib has no limit, and the plugin's one pattern on reply text
    # (_PY_BOOL) works line by line. A quadratic pattern would still show: 27,000 lines.
    huge_size = 250_000
    damaged_inputs = {"python-booleans": "[server]\ndebug = True\nverbose = False  # for now\n"}
    # heal's boolean pattern must stay linear, with a repair on every line
    attack_inputs = {"many-python-booleans": lambda size: "x = True\n" * (size // 9)}


def test_values_not_keys():
    fmt = TomlFormat()
    assert fmt.extract_values('name = "Ada Lovelace"\n[server]\nport = 8080\ndebug = false\n') == [
        "Ada Lovelace",
        "8080",
        "false",
    ]


def test_python_booleans_are_healed_and_nothing_else():
    fmt = TomlFormat()
    healed = fmt.heal('debug = True\nlabel = "True"\n')
    assert healed.text == 'debug = true\nlabel = "True"\n'
    assert [r.kind for r in healed.repairs] == ["toml.boolean_case"]
    assert healed.repairs[0].span == (8, 12)


def test_can_be_valid_catches_settled_errors_only():
    fmt = TomlFormat()
    assert fmt.can_be_valid('a = 1\nb = "unfinished')
    assert fmt.can_be_valid('a = """\nstill inside\n')
    assert fmt.can_be_valid("a = [\n  1,\n  2,\n")
    assert not fmt.can_be_valid("a = 1\na = 2\n")  # a key defined twice
    assert not fmt.can_be_valid("a = tru3\nb")


def test_streaming_is_the_core_fallback():
    """Formerly test_streaming_reports_settled_values: the plugin's own checker reported the
    values of each settled run of lines; it is now BaseFormat's re-checking fallback, which
    gives the values at finish() and still stops at an error on a complete line."""
    checker = TomlFormat().stream()
    assert checker.feed('title = "A short')
    assert checker.feed(' title"\nport = 80')
    assert checker.finish().values == ("A short title", "80")
    doomed = TomlFormat().stream()
    assert doomed.feed("a = 1\n")
    assert not doomed.feed("a = 2\n")


def test_a_syntax_violation_spans_where_tomllib_stopped():
    text = 'name = "Ada"\nport = 80 80\n'
    (violation,) = TomlFormat().validate(text)
    assert violation.code == "toml.syntax" and "line 2, column 11" in violation.message
    assert text[violation.span.start] == "8" and violation.span.start == text.index("80 80") + 3
    assert TomlFormat().validate("")[0].code == "toml.empty"


def test_scopes_are_json_pointers():
    fmt = TomlFormat()
    text = '[server]\nhost = "example.org"\nports = [80, 443]\n[[users]]\nname = "Ada Lovelace"\n'
    assert fmt.extract_scope(text, "/server") == ["example.org", "80", "443"]
    assert fmt.extract_scope(text, "/server/ports/1") == ["443"]
    assert fmt.extract_scope(text, "/users/0/name") == ["Ada Lovelace"]
    with pytest.raises(ScopeNotFound, match="the TOML has no '/owner'"):
        fmt.extract_scope(text, "/owner")
    assert fmt.validate_scope("server") is not None and fmt.validate_scope("/server") is None
