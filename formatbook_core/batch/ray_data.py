"""Ray Data: check a dataset on a cluster with :class:`~formatbook_core.batch.BatchChecker`.

::

    import ray
    from formatbook_core.batch.ray_data import check_dataset

    verdicts = check_dataset(ray.data.read_json("replies/"), "EXPECT JSON\\nEXPECT MAX 80 WORDS")
    verdicts.write_parquet("verdicts/")

which is, spelled out, ``dataset.map_batches(BatchChecker, fn_constructor_kwargs={"expect":
...}, batch_format="pyarrow", compute=actor_pool())``: each actor parses the expectations
once and keeps them for every batch it is given. Ray is imported here only when
:func:`check_dataset` or :func:`actor_pool` runs (``pip install 'formatbook[ray]'``).

The actors must leave the cluster a CPU, or the read tasks that feed them wait for one
forever, with no error: ``ActorPoolStrategy(size=4)`` hangs after ``ray.init(num_cpus=2)``
(4 actors of one CPU each never all start), and so does ``size=2`` (no CPU is left to
read). :func:`actor_pool` sizes the pool from the cluster: one actor a CPU, one CPU left.
"""

from __future__ import annotations

import os
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


def pool_size(cpus: float | None) -> int:
    """Actors for a cluster of ``cpus`` CPUs: one a CPU, one CPU left for the read tasks
    (never fewer than one actor)."""
    return max(1, int(cpus or 1) - 1)


def actor_pool(actors: int | None = None) -> Any:
    """``ray.data.ActorPoolStrategy`` of ``actors`` actors; ``None``: sized from the
    cluster's CPUs (:func:`pool_size`), those of this machine when Ray is not started yet
    (as ``ray.init()`` would take them). A size given is taken as it is (an autoscaling
    cluster may grow to it)."""
    import ray  # noqa: PLC0415 - Ray is an optional, heavy dependency

    if actors is None:
        cpus = ray.cluster_resources().get("CPU") if ray.is_initialized() else os.cpu_count()
        actors = pool_size(cpus)
    elif actors < 1:
        raise ValueError(f"actors must be at least 1, not {actors}")
    return ray.data.ActorPoolStrategy(size=actors)


def check_dataset(
    dataset: Any,
    expect: str | None = None,
    *,
    field: str = "reply",
    expect_field: str | None = None,
    base_dir: str | Path | None = None,
    timeout: float | None = None,
    prefix: str = "",
    actors: int | None = None,
    batch_size: int = 256,
    confine: bool = False,
) -> Any:
    """``dataset`` (a ``ray.data.Dataset``) with the verdict columns added, lazily.

    ``expect`` is the EXPECT text of every row; ``expect_field`` a column of each row's own
    (a row without it uses ``expect``; ``confine`` keeps its schema files inside
    ``base_dir``). ``actors`` actors of one CPU each check the batches (``None``: as many
    as the cluster has CPUs but one, see :func:`actor_pool`).
    """
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
        compute=actor_pool(actors),
    )
