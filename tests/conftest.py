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
