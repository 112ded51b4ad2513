"""Test-wide settings.

Hypothesis: no deadlines (these machines vary by half from run to run, and tests never
time anything). Under CI (``CI`` set) the runs are derandomized, so a submission's verdict
does not depend on the seed; locally every run explores new examples, and what it finds
becomes a regression test.
"""

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
)
_SLOW_TESTS = ("test_attack_input_never_raises[", "test_garbage_never_raises[huge-", "test_garbage_never_raises[many-")
_SLOW_NAMES = ("test_resume_after_a_kill", "test_a_worker_stuck_in_c_code", "feeding_one_character_at_a_time_is_linear")


def pytest_collection_modifyitems(config, items):
    import pytest  # noqa: PLC0415 - only where the hook runs

    slow = pytest.mark.slow
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        name = item.nodeid.rsplit("::", 1)[-1]
        if path in _SLOW_FILES or name.startswith(_SLOW_TESTS) or any(n in name for n in _SLOW_NAMES):
            item.add_marker(slow)
