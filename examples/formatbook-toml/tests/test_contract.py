"""formatbook's contract test-suite, run on the TOML format: what every plugin should do.

pip install ./examples/formatbook-toml && pytest examples/formatbook-toml/tests
"""

from formatbook_toml import TomlFormat

from formatbook_core.testing import FormatContract


class TestTomlContract(FormatContract):
    format = TomlFormat()


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


def test_streaming_reports_settled_values():
    checker = TomlFormat().stream()
    assert checker.feed('title = "A short').values == ()
    status = checker.feed(' title"\nport = 80')
    assert status.values == ("A short title",)
    assert checker.finish()
