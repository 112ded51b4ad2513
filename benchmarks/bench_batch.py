"""Checking many replies: throughput, batch-path overhead, memory over a large file, Ray.

Run: ``python benchmarks/bench_batch.py`` (``--rows N`` for the throughput mix, ``--mb M``
for the memory run's file size, ``--skip-ray``, ``--skip-memory``).

The mix (1–5 KB a reply, each row with its own EXPECT lines): a third JSON with a schema
(valid, fenced, cut off, with a trailing comma, or breaking the schema), a third Markdown
under a contract (level 2, with a word limit on a section), a third plain text with word
and sentence limits. Measured:

- throughput of ``formatbook check --jsonl --workers 1`` and ``--workers 2`` (separate
  processes, wall time and the CPU time of the process tree), replies per second;
- the batch path (``check_rows``: records, per-row expectations through the cache) and
  the CLI's per-row work (JSON row parsed, record written as JSON) against ``check()`` in a
  loop with the expectations parsed beforehand;
- peak RSS of the whole process tree (parent and workers, sampled from /proc every 50 ms)
  while ``--workers 2`` checks a generated JSONL of ``--mb`` megabytes of short text
  replies (200 MB: about a million rows), and that each row got one verdict, in order;
- Ray Data local (``ray.init(num_cpus=2)``, one actor): the time per row over the
  in-process batch path, start-up excluded.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from formatbook_core import check  # noqa: E402
from formatbook_core.batch import check_row, check_rows, process_cache  # noqa: E402
from formatbook_core.batch.cache import cached_expectations  # noqa: E402
from formatbook_core.serialising import dumps_json  # noqa: E402

WORDS = (
    "the service stores each order in a relational table and the team checks every reply "
    "against the schema before it reaches a customer while counting words and sentences "
    "so that answers stay short clear and useful for people reading them on small screens"
).split()

SCHEMA = {
    "type": "object",
    "required": ["title", "summary", "items"],
    "properties": {
        "title": {"type": "string"},
        "summary": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "price", "tags"],
                "properties": {
                    "name": {"type": "string"},
                    "price": {"type": "number", "minimum": 0},
                    "in_stock": {"type": "boolean"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}

CONTRACT = """## Output format
- Short answer — text (required)
- Reasoning — ordered list (required)
- Assumptions — list (optional)
"""


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def _json_reply(rng: random.Random, size: int) -> str:
    items = []
    while len(json.dumps(items)) < size - 300:
        items.append(
            {
                "name": _sentence(rng, 3)[:-1],
                "price": round(rng.uniform(1, 500), 2),
                "in_stock": rng.random() < 0.7,
                "tags": [rng.choice(WORDS) for _ in range(3)],
            }
        )
    value = {"title": _sentence(rng, 4), "summary": _sentence(rng, 25), "items": items}
    text = json.dumps(value, indent=2)
    damage = rng.random()
    if damage < 0.15:
        return f"Here is the catalogue:\n```json\n{text}\n```\nAsk if you need more."
    if damage < 0.25:
        return text[: int(len(text) * 0.8)]  # cut off
    if damage < 0.35:
        return text.replace("]\n}", "],\n}", 1)  # a trailing comma
    if damage < 0.45:
        value["items"][0]["price"] = "free"  # breaks the schema
        return json.dumps(value, indent=2)
    return text


def _markdown_reply(rng: random.Random, size: int) -> str:
    reasons = []
    while sum(len(r) for r in reasons) < size - 400:
        reasons.append(f"{len(reasons) + 1}. {_sentence(rng, rng.randint(8, 20))}")
    short = _sentence(rng, rng.randint(5, 30))
    text = f"## Short answer\n{short}\n\n## Reasoning\n" + "\n".join(reasons) + "\n"
    if rng.random() < 0.3:
        text += "\n## Assumptions\n- " + _sentence(rng, 8) + "\n"
    if rng.random() < 0.15:
        text = "Sure! " + text  # prose before the document
    return text


def _text_reply(rng: random.Random, size: int) -> str:
    out = []
    while sum(len(s) + 1 for s in out) < size:
        out.append(_sentence(rng, rng.randint(6, 18)))
    return " ".join(out)


def make_rows(n: int, folder: Path, seed: int = 7) -> list[dict]:
    (folder / "catalogue.json").write_text(json.dumps(SCHEMA))
    (folder / "answer.md").write_text(CONTRACT)
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        size = rng.randint(1000, 5000)
        kind = i % 3
        if kind == 0:
            reply, expect = _json_reply(rng, size), "EXPECT JSON catalogue.json\nEXPECT MAX 900 WORDS"
        elif kind == 1:
            reply = _markdown_reply(rng, size)
            expect = 'EXPECT MARKDOWN answer.md level=2\nEXPECT MAX 20 WORDS IN "Short answer"'
        else:
            reply, expect = _text_reply(rng, size), "EXPECT TEXT\nEXPECT MAX 600 WORDS\nEXPECT MIN 5 SENTENCES"
        rows.append({"id": i, "reply": reply, "expect": expect})
    return rows


def _write(rows: list[dict], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def _cli(path: Path, workers: int, out: Path, extra: list[str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one CLI run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-m", "formatbook_core", "check", "--jsonl", str(path), "--expect-field", "expect"]
    subprocess.run(
        [*command, "--workers", str(workers), "--out", str(out), *(extra or [])],
        check=False,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def throughput(rows: list[dict], folder: Path, runs: int) -> None:
    path = folder / "mix.jsonl"
    _write(rows, path)
    mb = path.stat().st_size / 1e6
    print(f"throughput: {len(rows)} replies, {mb:.1f} MB, mean {mb * 1e3 / len(rows):.1f} KB a reply")
    best: dict[int, tuple[float, float]] = {}
    for _ in range(runs):
        for workers in (1, 2):
            wall, cpu = _cli(path, workers, folder / f"v{workers}.jsonl")
            if workers not in best or wall < best[workers][0]:
                best[workers] = (wall, cpu)
    same = (folder / "v1.jsonl").read_bytes() == (folder / "v2.jsonl").read_bytes()
    for workers, (wall, cpu) in best.items():
        print(
            f"  --workers {workers}: {len(rows) / wall:8.0f} replies/s  (wall {wall:.2f} s, CPU {cpu:.2f} s, "
            f"{len(rows) / cpu:.0f} replies per CPU-second)"
        )
    print(f"  speed-up: {best[1][0] / best[2][0]:.2f}x wall; identical output: {same}")
    print(f"  load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def overhead(rows: list[dict], folder: Path, runs: int) -> None:
    cwd = os.getcwd()
    os.chdir(folder)  # schema paths in the EXPECT lines are relative to it
    try:
        parsed = {r["expect"]: cached_expectations(r["expect"], folder) for r in rows}
        pairs = [(r["reply"], parsed[r["expect"]]) for r in rows]
        lines = [json.dumps(r).encode() for r in rows]

        def plain() -> None:
            for reply, exp in pairs:
                check(reply, exp)

        def plain_dict() -> None:
            for reply, exp in pairs:
                check(reply, exp).to_dict()

        def batch() -> None:
            for _ in check_rows(rows, expect_field="expect", base_dir=folder):
                pass

        def cli_rows() -> None:
            for i, raw in enumerate(lines, start=1):
                record = {"line": i, **check_row(json.loads(raw), expect_field="expect", base_dir=folder)}
                dumps_json(record)

        # CPU time of this process, runs interleaved, best of each: the machine is shared
        contenders = (
            ("check() loop", plain),
            ("check().to_dict()", plain_dict),
            ("check_rows", batch),
            ("CLI row work", cli_rows),
        )
        times: dict[str, float] = {}
        for _ in range(runs):
            for name, fn in contenders:
                spent = _cpu(fn)
                times[name] = min(times.get(name, spent), spent)
        base = times["check() loop"]
        print(f"overhead ({len(rows)} replies, in one process, CPU time, best of {runs} interleaved):")
        for name, seconds in times.items():
            print(
                f"  {name:18s} {seconds * 1e6 / len(rows):7.0f} µs a reply  (+{(seconds / base - 1) * 100:5.1f}% over check())"
            )
        cache = process_cache()
        print(f"  expectation cache: {len(cache)} texts, {cache.hits} hits, {cache.misses} misses")
    finally:
        os.chdir(cwd)


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def _time(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _tree_rss(pid: int) -> int:
    """RSS in bytes of ``pid`` and its descendants (Linux /proc)."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack.extend(int(c) for c in f.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def memory(folder: Path, megabytes: int) -> None:
    rng = random.Random(3)
    path = folder / "big.jsonl"
    # short text replies (100-300 bytes, as the "a million short replies"): the
    # memory run measures the stream and the pool, not the plugins
    samples = [_text_reply(rng, rng.randint(100, 300)) for _ in range(500)]
    written, i = 0, 0
    with open(path, "w", encoding="utf-8") as f:
        while written < megabytes * 1_000_000:
            line = json.dumps({"id": i, "reply": samples[i % len(samples)]}) + "\n"
            f.write(line)
            written += len(line)
            i += 1
    print(f"memory: {path.stat().st_size / 1e6:.0f} MB, {i} rows, --workers 2")
    command = [
        sys.executable,
        "-m",
        "formatbook_core",
        "check",
        "--jsonl",
        str(path),
        "-e",
        "TEXT",
        "-e",
        "MAX 600 WORDS",
    ]
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "--workers", "2", "--out", str(folder / "big-v.jsonl")], stdout=subprocess.DEVNULL
    )
    samples_rss: list[tuple[float, int]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            samples_rss.append((time.perf_counter() - start, _tree_rss(proc.pid)))
            time.sleep(0.05)

    thread = threading.Thread(target=sample)
    thread.start()
    proc.wait()
    stop.set()
    thread.join()
    wall = time.perf_counter() - start
    timed = [(t, r) for t, r in samples_rss if r]
    rss = [r for _, r in timed]

    def at(share: float) -> int:  # the RSS sampled nearest to that share of the run
        return min(timed, key=lambda tr: abs(tr[0] - share * wall))[1]

    middle = [r for t, r in timed if 0.1 * wall <= t <= 0.9 * wall]
    verdicts, in_order = 0, True
    with open(folder / "big-v.jsonl", "rb") as f:
        for verdicts, raw in enumerate(f, start=1):
            in_order = in_order and raw.startswith(b'{"line": %d, ' % verdicts)
    shown = ", ".join(f"{int(q * 100)}% {at(q) / 1e6:.0f}" for q in (0.1, 0.25, 0.5, 0.75, 0.9))
    print(f"  {i / wall:.0f} rows/s, {wall:.0f} s; RSS of the process tree (MB) at {shown}; peak {max(rss) / 1e6:.0f}")
    print(
        f"  from 10% to 90% of the run the RSS stays within {(max(middle) - min(middle)) / 1e6:.1f} MB "
        f"({min(middle) / 1e6:.0f}-{max(middle) / 1e6:.0f} MB; three processes, pages shared after fork counted in each)"
    )
    print(f"  {verdicts} verdicts for {i} rows, in input order: {in_order}")


def ray_overhead(rows: list[dict], folder: Path) -> None:
    try:
        import ray  # noqa: PLC0415 - optional: the other measures run without it
    except ImportError:
        print("ray: not installed (pip install 'formatbook[ray]')")
        return
    from formatbook_core.batch.ray_data import check_dataset  # noqa: PLC0415

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    print(f"ray: start-up {time.perf_counter() - start:.1f} s")
    try:
        items = [{"id": r["id"], "reply": r["reply"], "expect": r["expect"]} for r in rows]
        # one warm-up run starts the actor and loads the plugins in it
        check_dataset(ray.data.from_items(items[:50]), expect_field="expect", base_dir=folder).take_all()
        local = _time(lambda: list(check_rows(items, expect_field="expect", base_dir=folder)))
        got: list = []
        remote = _time(
            lambda: got.extend(
                check_dataset(ray.data.from_items(items), expect_field="expect", base_dir=folder).take_all()
            )
        )
        per_row = (remote - local) / len(items)
        print(
            f"  {len(items)} rows: in-process {local:.2f} s, Ray Data (1 actor) {remote:.2f} s: "
            f"{per_row * 1e6:+.0f} µs a row over the in-process path"
        )
    finally:
        ray.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mb", type=int, default=200, help="size of the memory run's JSONL")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--only", choices=["throughput", "overhead", "memory", "ray"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = make_rows(args.rows, folder)
        if args.only in (None, "throughput"):
            throughput(rows, folder, args.runs)
        if args.only in (None, "overhead"):
            overhead(rows[: min(len(rows), 1500)], folder, args.runs)
        if args.only in (None, "memory") and not args.skip_memory:
            memory(folder, args.mb)
        if args.only in (None, "ray") and not args.skip_ray:
            ray_overhead(rows[: min(len(rows), 1500)], folder)


if __name__ == "__main__":
    main()
