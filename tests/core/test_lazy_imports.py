"""Heavy dependencies are imported only when used, so that `import formatbook_core`,
listing the formats and `formatbook --help` stay fast (ARCHITECTURE.md: plugins import lxml,
ruamel.yaml, icalendar, vobject, jsonschema lazily).

Each check runs in a fresh interpreter and reads ``sys.modules`` at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

HEAVY = ("lxml", "jsonschema", "jsonschema_rs", "ruamel", "icalendar", "vobject", "pydantic", "rich")
# Never needed outside tests: the contract suite (formatbook_core.testing) imports them lazily.
TEST_ONLY = ("pytest", "hypothesis")


def loaded_modules(code: str, *argv: str) -> list[str]:
    """Run ``code`` in a fresh interpreter (plugins auto-loaded) and return the top-level
    names of the modules it imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FORMATBOOK_")}
    script = textwrap.dedent(code) + textwrap.dedent(
        """
        import json as _json, sys as _sys
        with open(_sys.argv[1], "w") as _out:
            _json.dump(sorted({m.split(".")[0] for m in _sys.modules}), _out)
        """
    )
    out_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"fb-modules-{os.getpid()}-{abs(hash(code))}.json")
    run = subprocess.run([sys.executable, "-c", script, out_path, *argv], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    try:
        with open(out_path) as f:
            return json.load(f)
    finally:
        os.unlink(out_path)


def heavy_in(modules: list[str], names=HEAVY) -> list[str]:
    return [m for m in modules if m in names]


def test_the_probe_sees_what_is_imported():
    # the check itself can fail: a module imported on purpose shows up
    assert "rich" in loaded_modules("import rich")


def test_import_and_list_formats_load_no_heavy_dependency():
    modules = loaded_modules(
        """
        import warnings
        warnings.simplefilter("ignore")  # a plugin still being written may fail to load
        import formatbook_core
        formats = formatbook_core.list_formats()
        assert any(e.format.name == "text" for e in formats)
        """
    )
    assert "formatbook_core" in modules and "formatbook_text" in modules
    assert heavy_in(modules, HEAVY + TEST_ONLY) == []


def test_get_format_of_each_builtin_loads_no_heavy_dependency():
    modules = loaded_modules(
        """
        import warnings
        warnings.simplefilter("ignore")
        import formatbook_core
        for entry in formatbook_core.list_formats():
            formatbook_core.get_format(entry.format.name)
        """
    )
    assert heavy_in(modules) == []


def test_formatbook_help_loads_no_heavy_dependency():
    modules = loaded_modules(
        """
        import sys, warnings
        warnings.simplefilter("ignore")
        from formatbook_core.cli import main
        sys_argv, sys.argv = sys.argv, ["formatbook", "--help"]
        try:
            code = main(["--help"])
        except SystemExit as exc:
            code = exc.code
        sys.argv = sys_argv
        assert code in (0, None), code
        """
    )
    assert "formatbook_core" in modules
    assert heavy_in(modules, HEAVY + TEST_ONLY) == []


def test_formatbook_formats_loads_no_heavy_dependency_when_piped():
    # `formatbook formats` only lists names: plain output when piped, no rich, no lxml
    modules = loaded_modules(
        """
        import sys, warnings, io, contextlib
        warnings.simplefilter("ignore")
        from formatbook_core.cli import main
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                code = main(["formats"])
            except SystemExit as exc:
                code = exc.code
        assert code in (0, None), code
        assert "text" in buf.getvalue()
        """
    )
    assert heavy_in(modules, tuple(m for m in HEAVY if m != "rich")) == []


def test_the_contract_suite_imports_pytest_and_hypothesis_only_when_run():
    # third-party plugins import formatbook_core.testing from their tests; importing it
    # (and building a contract class) must not need the test tools yet
    modules = loaded_modules(
        """
        from formatbook_core.testing import FormatContract, make_contract
        from formatbook_core import BaseFormat
        make_contract(BaseFormat())
        """
    )
    assert "formatbook_core" in modules
    assert heavy_in(modules, HEAVY + TEST_ONLY) == []


def test_a_format_line_imports_only_that_formats_plugin():
    # the built-in plugins are found from their entry points without importing them: a
    # valid JSON reply imports formatbook_json alone, and not its healing either
    modules = loaded_modules(
        """
        import sys
        from formatbook_core import check
        assert check('{"a": 1}', "EXPECT JSON").ok
        assert "formatbook_json.heal" not in sys.modules
        """
    )
    plugins = [m for m in modules if m.startswith("formatbook_") and m != "formatbook_core"]
    assert plugins == ["formatbook_json"]
    assert "regex" not in modules  # the counting patterns: compiled when something is counted


def test_a_count_compiles_the_counting_patterns():
    assert "regex" in loaded_modules(
        """
        from formatbook_core import check
        assert check('{"a": "déjà vu"}', "EXPECT JSON\\nEXPECT MAX 1 WORDS").counts == {"words": 2}  # not ASCII
        """
    )


def test_an_alias_a_count_and_a_kind_still_find_their_plugins():
    modules = loaded_modules(
        """
        from formatbook_core import check
        assert check("a: 1", "EXPECT YML").ok  # an alias: every plugin is asked
        assert not check("one two three", "EXPECT MAX 2 WORDS").ok
        assert check("Hello there.", 'EXPECT TEXT\\nENDS WITH "there."').ok
        """
    )
    assert {"formatbook_yaml", "formatbook_instructions"} <= set(modules)


# the frameworks formatbook_core/integrations/ adapts: only their own adapter imports them
FRAMEWORKS = ("langchain_core", "pydantic_ai", "instructor", "litellm", "llm", "click", "openai")


def test_the_core_the_ask_loop_and_the_integrations_package_import_no_framework():
    modules = loaded_modules(
        """
        import warnings
        warnings.simplefilter("ignore")
        import formatbook_core
        from formatbook_core import ask, ask_async, check
        import formatbook_core.integrations
        from formatbook_core.integrations.litellm import litellm_chat  # LiteLLM itself on the first request
        litellm_chat("openai/x")
        assert check('{"a": 1}', "EXPECT JSON").ok
        """
    )
    assert "formatbook_core" in modules
    assert heavy_in(modules, FRAMEWORKS) == []


def test_the_probe_sees_a_framework_an_adapter_imports():
    modules = loaded_modules("import formatbook_core.integrations.langchain")
    assert "langchain_core" in modules
