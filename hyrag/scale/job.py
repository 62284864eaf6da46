"""The distributed ingest's driver: list the files, run one task per file, merge, link, write.

Engine: Ray core tasks, one per file, each running the single-node ingest into a scratch store
(`hyrag.scale.worker`). Why Ray: the work is embarrassingly parallel per file and CPU-bound in
Python (parsing), so it needs processes, not threads; Ray runs the same code on a laptop's
cores and on a cluster, ships Arrow results through its shared-memory object store without a
copy into the driver's heap, reports a worker crash per task, and is the path LanceDB documents
for distributed work over Lance datasets (Ray Data, `lance-ray`). The merge, the set-wise linking
and the write run on the driver (`hyrag.scale.merge`, `hyrag.scale.layout`): linking needs every
claim, and DuckDB does it in one join.

Nothing is visible at the location until the whole dataset is: it is written to a hidden
sibling folder and renamed into place. A file that fails is reported with its error (as
`hyrag ingest --keep-going` does) and leaves nothing of itself in the dataset.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Protocol

from hyrag.errors import HyragError, IngestFailed, ScaleError
from hyrag.ingestion import TableKey
from hyrag.scale.layout import FailedFile, Manifest, write_dataset
from hyrag.scale.merge import Merger, MergeReport, claim_set_digest
from hyrag.scale.worker import FileResult, ingest_file
from hyrag.settings import Settings
from hyrag.store import Store

INSTALL_HINT = "pip install 'hyrag[scale]'"
DEFAULT_WORKERS = 2
TASK_RETRIES = 1  # runs again of a task whose worker died (not of a file that failed to parse)
# A local Ray instance this job starts: bounded, because the machine is shared (the object store
# holds results between a task's end and the driver's fetch; larger ones spill to disk).
RAY_OBJECT_STORE_BYTES = 500 * 2**20
# Ray binds its services to the machine's address unless told this is no cluster; a local job
# then listens on 127.0.0.1 only, and sends no usage statistics.
RAY_LOCAL_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"}
# What the single-node `hyrag ingest` accepts and this engine does not (yet): governance acts
# on one store per request, a job writes a dataset nobody has opened.
UNSUPPORTED_OPTIONS = ("policy", "as", "attest")


@dataclass(frozen=True)
class JobReport:
    """What a job did and what it cost. Seconds are wall-clock on the driver unless named for
    the tasks; `transfer_seconds` is the price of running apart: each task exporting its rows
    to Arrow plus the driver fetching them."""

    location: str
    manifest: Manifest
    files: int
    ingested: tuple[str, ...]
    unchanged: tuple[str, ...]
    failed: tuple[FailedFile, ...]
    renamed: tuple[str, ...]
    workers: int
    start_seconds: float  # starting the local Ray instance (0 when one was running)
    ingest_seconds: float  # first task submitted -> last result merged
    link_seconds: float  # the set-wise links, after the parallel step
    write_seconds: float  # the claim-set digest and the dataset written
    task_seconds: float  # sum over tasks of the Ingestor's own time
    transfer_seconds: float
    transfer_bytes: int
    peak_rss_bytes: Mapping[int, int] = field(default_factory=dict)  # worker pid -> peak

    @property
    def seconds(self) -> float:
        """The job, without starting Ray (a long-lived cluster is started once)."""
        return self.ingest_seconds + self.link_seconds + self.write_seconds

    def to_dict(self) -> dict[str, object]:
        return {
            "location": self.location, "dataset_id": self.manifest.dataset_id,
            "files": self.files, "ingested": len(self.ingested),
            "unchanged": list(self.unchanged),
            "failed": [{"file": f.file, "error": f.error} for f in self.failed],
            "renamed": list(self.renamed), "claims": self.manifest.claims,
            "links": self.manifest.links, "tables": len(self.manifest.tables),
            "claim_digest": self.manifest.claim_digest, "workers": self.workers,
            "seconds": round(self.seconds, 3), "start_seconds": round(self.start_seconds, 3),
            "ingest_seconds": round(self.ingest_seconds, 3),
            "link_seconds": round(self.link_seconds, 3),
            "write_seconds": round(self.write_seconds, 3),
            "task_seconds": round(self.task_seconds, 3),
            "transfer_seconds": round(self.transfer_seconds, 3),
            "transfer_bytes": self.transfer_bytes,
            "peak_rss_bytes": {str(k): v for k, v in self.peak_rss_bytes.items()},
        }


@dataclass(frozen=True)
class _Call:
    index: int
    path: str
    table_names: Mapping[TableKey, str] | None = None


class _Runner(Protocol):
    def submit(self, call: _Call) -> None: ...

    def pending(self) -> int: ...

    def next_result(self) -> tuple[FileResult, float]: ...


def require_ray() -> ModuleType:
    """Ray, or a one-line error saying how to install it (the default install stays lean)."""
    try:
        import ray
    except ImportError as e:
        raise ScaleError(f"the ray engine needs Ray, which is not installed: {INSTALL_HINT} "
                         f"({e})") from None
    return ray


def refuse_unsupported(**given: object) -> None:
    """A one-line error naming every option given that the ray engine does not support,
    rather than ignoring it (a policy silently not applied would be worse than no run)."""
    bad = [name for name in UNSUPPORTED_OPTIONS if given.get(name) not in (None, False, "")]
    if bad:
        opts = ", ".join(f"--{b}" for b in bad)
        raise ScaleError(f"{opts} not supported with --engine ray yet: ingest without "
                         "governance options, then open the dataset under a policy "
                         "(hyrag.open(LOCATION, policy=..., subject=...))")


def run(
    paths: Iterable[str | os.PathLike[str]],
    location: str | os.PathLike[str],
    *,
    workers: int = DEFAULT_WORKERS,
    settings: Settings | None = None,
    tenant: str = "default",
    classification: str = "internal",
    keep_going: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
    executor: str = "ray",
) -> JobReport:
    """Ingest `paths` (folders expanded, sorted, as `hyrag ingest` does) with `workers` tasks at
    a time and write the dataset at `location`. A file that fails is reported with its error;
    without `keep_going` any failure writes nothing (every failed file named), with it the
    dataset holds the other files and its manifest lists the failed. `executor="inline"` runs
    the tasks one after another in this process (no Ray): the same merge and layout, for tests
    and debugging."""
    from hyrag.kb import expand_paths

    if workers < 1:
        raise ScaleError(f"workers must be >= 1, got {workers}")
    dest = Path(location)
    if dest.exists():
        raise ScaleError("the dataset location exists; choose a new one or remove it first",
                         source=str(dest))
    settings = settings or Settings()
    files = [str(p) for p in expand_paths(paths)]
    if not files:
        raise ScaleError("no files to ingest")
    with (_runner(executor, workers, settings, tenant, classification) as (runner, start_s),
          tempfile.TemporaryDirectory(prefix="hyrag-merge-") as tmp):
        store = Store(tmp)
        try:
            t0 = time.perf_counter()
            with store.transaction():  # one commit for the merge (Merger's docstring says why)
                merged, stats = _ingest(runner, files, store, progress)
            t1 = time.perf_counter()
            failed = tuple(FailedFile(r.path, r.error or "") for r in merged.failed)
            if failed and not keep_going:
                shown = "; ".join(f.error for f in failed[:5])
                more = f"; and {len(failed) - 5} more" if len(failed) > 5 else ""
                raise IngestFailed(
                    f"{len(failed)} of {len(files)} file(s) failed, nothing written (keep going "
                    f"to write the others: --keep-going): {shown}{more}")
            digest = claim_set_digest(store)
            manifest = write_dataset(
                store, dest, claim_digest=digest, files=len(files), failed=failed,
                engine={"name": executor, "workers": workers,
                        "renamed": len(merged.renamed)})
            t3 = time.perf_counter()
        finally:
            store.close()
    return JobReport(
        location=str(dest), manifest=manifest, files=len(files), ingested=merged.ingested,
        unchanged=merged.unchanged, failed=failed, renamed=merged.renamed, workers=workers,
        start_seconds=start_s, ingest_seconds=t1 - t0 - merged.link_seconds,
        link_seconds=merged.link_seconds, write_seconds=t3 - t1, **stats)


def _ingest(runner: _Runner, files: list[str], store: Store,
            progress: Callable[[int, int, str], None] | None) -> tuple[MergeReport, dict]:
    merger = Merger(store, len(files))
    for i, f in enumerate(files):
        runner.submit(_Call(i, f))
    done = 0
    task_s = transfer_s = 0.0
    nbytes = 0
    peaks: dict[int, int] = {}
    while runner.pending():
        r, fetch_s = runner.next_result()
        task_s += r.ingest_seconds
        transfer_s += r.export_seconds + fetch_s
        nbytes += r.nbytes
        if r.pid:
            peaks[r.pid] = max(peaks.get(r.pid, 0), r.peak_rss_bytes)
        reruns = merger.offer(r)
        for rr in reruns:
            runner.submit(_Call(rr.index, rr.path, rr.table_names))
        done += 1
        if progress:
            progress(min(done, len(files)), len(files), r.path)
    merged = merger.finish()
    return merged, {"task_seconds": task_s, "transfer_seconds": transfer_s,
                    "transfer_bytes": nbytes, "peak_rss_bytes": peaks}


@contextmanager
def _runner(executor: str, workers: int, settings: Settings, tenant: str,
            classification: str) -> Iterator[tuple[_Runner, float]]:
    if executor == "inline":
        yield _InlineRunner(settings, tenant, classification), 0.0
        return
    if executor != "ray":
        raise ScaleError(f"unknown executor {executor!r} (ray, inline)")
    if "ray" not in sys.modules:  # not imported, so not connected: a local instance it is
        local_ray_env()
    ray = require_ray()
    started = not ray.is_initialized()
    t0 = time.perf_counter()
    if started:
        start_local_ray(workers)
    start_s = time.perf_counter() - t0 if started else 0.0
    try:
        yield _RayRunner(ray, workers, settings, tenant, classification), start_s
    finally:
        if started:
            ray.shutdown()


def local_ray_env() -> None:
    """Set `RAY_LOCAL_ENV` (where not set already). Ray reads it when it is first imported, so
    this must run before `import ray` to take effect; a process that has imported Ray may be
    connected to a cluster, and is left as it is."""
    for k, v in RAY_LOCAL_ENV.items():
        os.environ.setdefault(k, v)


def start_local_ray(workers: int, *, object_store_bytes: int = RAY_OBJECT_STORE_BYTES) -> None:
    """A Ray instance on this machine only: `workers` CPUs, a bounded object store, no
    dashboard; bound to 127.0.0.1 when Ray was first imported after `local_ray_env`."""
    if "ray" not in sys.modules:
        local_ray_env()
    ray = require_ray()
    ray.init(num_cpus=workers, include_dashboard=False, object_store_memory=object_store_bytes,
             log_to_driver=False, configure_logging=False)


class _InlineRunner:
    def __init__(self, settings: Settings, tenant: str, classification: str) -> None:
        self._kw = {"tenant": tenant, "classification": classification}
        self._settings = settings
        self._queue: list[_Call] = []

    def submit(self, call: _Call) -> None:
        self._queue.append(call)

    def pending(self) -> int:
        return len(self._queue)

    def next_result(self) -> tuple[FileResult, float]:
        c = self._queue.pop(0)
        r = ingest_file(c.index, c.path, self._settings, table_names=c.table_names, **self._kw)
        return replace(r, pid=0), 0.0


class _RayRunner:
    """At most `workers` tasks of one CPU each; results fetched as they finish."""

    def __init__(self, ray: ModuleType, workers: int, settings: Settings, tenant: str,
                 classification: str) -> None:
        self._ray = ray
        # A task is pure (its own scratch store), so a crashed one is safe to run again: once,
        # for a lost node; a file that kills its worker twice (memory) is reported failed.
        self._task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(ingest_file)
        self._settings = ray.put(settings)
        self._kw = {"tenant": tenant, "classification": classification}
        self._refs: dict[object, _Call] = {}

    def submit(self, call: _Call) -> None:
        ref = self._task.remote(call.index, call.path, self._settings,
                                table_names=call.table_names, **self._kw)
        self._refs[ref] = call

    def pending(self) -> int:
        return len(self._refs)

    def next_result(self) -> tuple[FileResult, float]:
        ray = self._ray
        ready, _ = ray.wait(list(self._refs), num_returns=1)
        call = self._refs.pop(ready[0])
        t0 = time.perf_counter()
        try:
            r = ray.get(ready[0])
        except HyragError:
            raise
        except Exception as e:  # a worker crash, an out-of-memory kill: this file failed
            msg = " ".join(str(e).split())[:500]
            r = FileResult(call.index, call.path, error=f"file {call.path}: task failed: {msg}")
        return r, time.perf_counter() - t0
