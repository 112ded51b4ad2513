"""How the work of feeding a StreamGuard one character at a time grows with the reply.

A subprocess builds the reply at two sizes (n and 4n) and feeds it, character by
character, to a fresh guard; it reports the CPU time of each size. Linear work grows about
4 times, quadratic work 16 times; :func:`feeding_grows_linearly` allows ``BOUND`` (9,
generous: a loaded machine slows both sizes alike). Nothing asserts how long anything takes.

The small size is the best of three runs. The large one is run until a run is within the
bound, at most three times: the best of three is within the bound exactly when one run
is, so the verdict is that of the best of three, without the two extra runs at 4n that a
linear guard does not need.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

BOUND = 9
FLOOR = 0.005  # seconds: under this the small size measures nothing

_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    from formatbook_core import StreamGuard
    exp, make, n, finish = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
    bound, floor = float(sys.argv[5]), float(sys.argv[6])

    def once(reply):
        guard = StreamGuard(exp)
        start = time.process_time()
        for ch in reply:
            guard.feed(ch)
        if finish:
            guard.finish()
        return time.process_time() - start

    def reply(size):
        return eval(make, {"n": size})

    once(reply(n // 4))  # warm up imports and caches
    small_reply = reply(n)
    small = min(once(small_reply) for _ in range(3))
    large_reply = reply(4 * n)
    large = once(large_reply)
    for _ in range(2):
        if large < bound * max(small, floor):
            break
        large = min(large, once(large_reply))
    print(json.dumps([small, large]))
    """
)


def feeding_grows_linearly(name: str, exp: str, make: str, n: int, *, finish: bool = False) -> None:
    """Assert that feeding the reply ``make`` (a Python expression of ``n``) under ``exp``
    grows less than ``BOUND`` times from n to 4n characters; ``finish``: time
    ``finish()`` too."""
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, exp, make, str(n), "1" if finish else "0", str(BOUND), str(FLOOR)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    small, large = json.loads(out.stdout)
    assert large < BOUND * max(small, FLOOR), f"{name}: {small:.3f}s at n, {large:.3f}s at 4n"
