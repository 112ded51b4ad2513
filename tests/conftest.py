"""Test-wide settings.

Hypothesis: no deadlines (these machines vary by half from run to run, and tests never
time anything). Under CI (``CI`` set) the runs are derandomized, so a submission's verdict
does not depend on the seed; locally every run explores new examples, and what it finds
becomes a regression test.
"""

import functools
import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


# --- the two tiers ----------------------------------------------------------------------
# `scripts/dev.py test` runs the fast tier: every behaviour test, the conformance corpora
# and the replayed repros. `test --slow` runs the slow tier (.ci/run runs both): what is slow by
# nature rather than by accident. The rule lives here, in one place, rather than as marks
# scattered over the files:
#   - pathological inputs, checked for never raising or for linear growth (the contract's
#     attack inputs and its huge or many-line garbage, the growth tests);
#   - the short fuzz pass (random search lives in `dev.py fuzz`; its finds are replayed in
#     the fast tier as repros);
#   - whole processes and environments: virtual environments built, Ray and Hugging Face
#     integrations, batch runs killed and resumed, pages rendered in headless Chromium.
_SLOW_FILES = (
    "tests/fuzz/test_pathological.py",
    "tests/fuzz/test_short_pass.py",
    "tests/core/test_streaming_growth.py",
    "tests/plugins/markdown/test_linear_time.py",
    "tests/batch/test_ray.py",
    "tests/core/generation/test_hf.py",
    "tests/report/test_browser.py",  # headless Chromium, 2-3 s a page
    "tests/core/test_third_party_plugin.py",  # a virtual environment built
)
_SLOW_TESTS = ("test_attack_input_never_raises[", "test_garbage_never_raises[huge-", "test_garbage_never_raises[many-")
_SLOW_NAMES = ("test_resume_after_a_kill", "test_a_worker_stuck_in_c_code", "feeding_one_character_at_a_time_is_linear")


# a file that may hold a slow test by name: a contract class (the contract's attack inputs
# and garbage are its slow tests) or a test named as one of _SLOW_NAMES
_SLOW_HOLDER_TEXTS = ("FormatContract", *_SLOW_NAMES)


def _tier_of(config) -> str | None:
    """ "fast" or "slow" when ``-m`` asks for exactly one tier (as ``scripts/dev.py test`` does)."""
    expression = " ".join(config.getoption("markexpr", "").split())
    return {"not slow": "fast", "slow": "slow"}.get(expression)


def _relative(path, config) -> str | None:
    try:
        return path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None


@functools.cache
def _may_hold_slow_tests(path, relative: str) -> bool:
    if relative in _SLOW_FILES:
        return True
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True  # unknown: pytest judges it
    return any(needle in text for needle in _SLOW_HOLDER_TEXTS)


def pytest_ignore_collect(collection_path, config):
    """Leave unimported a file the asked-for tier has no test in.

    Importing is most of a file's cost in a tier that deselects all its tests:
    tests/core/generation/test_hf.py brings torch and transformers, tests/batch/test_ray.py
    ray, in every xdist worker, for tests that ``-m "not slow"`` then deselects; and the slow
    tier would import all 220-odd files for the twenty that hold its tests. Only the two
    expressions ``scripts/dev.py test`` gives (``not slow``, ``slow``) leave files out; any
    other is judged by pytest as usual. Which files may hold slow tests is read from their
    text (`_SLOW_HOLDER_TEXTS`); pytest_collection_modifyitems fails a run where a slow test
    stands in a file that reading would leave out, so no slow test can fall between the tiers.
    """
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    tier = _tier_of(config)
    relative = _relative(collection_path, config)
    if tier is None or relative is None:
        return None
    if tier == "fast" and relative in _SLOW_FILES:
        return True
    if tier == "slow" and not _may_hold_slow_tests(collection_path, relative):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    import pytest  # noqa: PLC0415 - only where the hook runs

    slow = pytest.mark.slow
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        name = item.nodeid.rsplit("::", 1)[-1]
        if path in _SLOW_FILES or name.startswith(_SLOW_TESTS) or any(n in name for n in _SLOW_NAMES):
            item.add_marker(slow)
        if item.get_closest_marker("slow") is not None and not _may_hold_slow_tests(item.path, path):
            raise pytest.UsageError(
                f"{item.nodeid} is slow, but its file does not say so: the slow tier would skip it."
                " Name its file in _SLOW_FILES (tests/conftest.py)"
            )


# --- one worker per group ---------------------------------------------------------------
# Tests that share one costly measurement run on one pytest-xdist worker: the cases of a
# format's pathological.py, or of one part of a costly format's (tests/fuzz/test_pathological.py
# measures them in one subprocess, which every worker meeting such a case would otherwise
# run again; their ids start with the format, or "html.2", up to the first "-").
# xdist's own `xdist_group` mark does nothing under pytest 9.2 (pytest-xdist issue 1386:
# the group rides on the node id, which pytest 9.2 no longer lets a plugin rewrite), so
# the groups are read from the node ids the controller sees. `dev.py test` asks for this
# with --dist=loadgroup; every other test is handed out on its own.
_GROUPED = ("tests/fuzz/test_pathological.py::test_growth_is_about_linear[",)


def xdist_group_of(nodeid: str) -> str | None:
    """The group of the test ``nodeid`` (its format or part, for a pathological case), or None."""
    for prefix in _GROUPED:
        if nodeid.startswith(prefix):
            return prefix + nodeid[len(prefix) :].partition("-")[0]
    return None


class _GroupScheduler:
    """Registered when pytest-xdist is there (its hook is unknown to pytest without it)."""

    def pytest_xdist_make_scheduler(self, config, log):
        if config.getvalue("dist") != "loadgroup":
            return None
        from xdist.scheduler import LoadGroupScheduling  # noqa: PLC0415 - only with xdist

        class Grouped(LoadGroupScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return xdist_group_of(nodeid) or super()._split_scope(nodeid)

        return Grouped(config, log)


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_GroupScheduler(), "formatbook-xdist-groups")
