"""Ray Data: check a dataset on a cluster with :class:`~formatbook_core.batch.BatchChecker`.

::

    import ray
    from formatbook_core.batch.ray_data import check_dataset

    verdicts = check_dataset(ray.data.read_json("replies/"), "EXPECT JSON\\nEXPECT MAX 80 WORDS")
    verdicts.write_parquet("verdicts/")

which is, spelled out, ``dataset.map_batches(BatchChecker, fn_constructor_kwargs={"expect":
...}, batch_format="pyarrow", compute=ActorPoolStrategy(size=...))``: each actor parses the
expectations once and keeps them for every batch it is given. Ray is imported here only
when :func:`check_dataset` runs (``pip install 'formatbook[ray]'``).

Give the actors fewer CPUs than the cluster has, or the read tasks that feed them wait
for a CPU forever: on a 2-CPU machine, one actor (the default here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .columns import BatchChecker


def checker_kwargs(
    expect: str | None = None,
    *,
    field: str = "reply",
    expect_field: str | None = None,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    prefix: str = "",
    confine: bool = False,
) -> dict[str, Any]:
    """``fn_constructor_kwargs`` for ``map_batches(BatchChecker, ...)`` (checked now, not on the cluster)."""
    kwargs: dict[str, Any] = {
        "expect": expect,
        "field": field,
        "expect_field": expect_field,
        "base_dir": str(base_dir) if base_dir is not None else None,
        "timeout": timeout,
        "prefix": prefix,
        "confine": confine,
    }
    BatchChecker(**kwargs)  # a mistake is raised here, not in a remote actor
    return kwargs


def check_dataset(
    dataset: Any,
    expect: str | None = None,
    *,
    field: str = "reply",
    expect_field: str | None = None,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    prefix: str = "",
    actors: int = 1,
    batch_size: int = 256,
    confine: bool = False,
) -> Any:
    """``dataset`` (a ``ray.data.Dataset``) with the verdict columns added, lazily.

    ``expect`` is the EXPECT text of every row; ``expect_field`` a column of each row's own
    (a row without it uses ``expect``; ``confine`` keeps its schema files inside
    ``base_dir``). ``actors`` actors of one CPU each check the batches.
    """
    from ray.data import ActorPoolStrategy  # noqa: PLC0415 - Ray is an optional, heavy dependency

    return dataset.map_batches(
        BatchChecker,
        fn_constructor_kwargs=checker_kwargs(
            expect,
            field=field,
            expect_field=expect_field,
            base_dir=base_dir,
            timeout=timeout,
            prefix=prefix,
            confine=confine,
        ),
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=ActorPoolStrategy(size=actors),
    )
