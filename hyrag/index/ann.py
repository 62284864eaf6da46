"""When and how a vector index switches from the exact scan to an approximate (ANN) index.

Why a threshold: below about 100,000 vectors the exact scan is fast enough (a 100k x 384 float32
matrix-vector product is a few milliseconds) and exact, so an approximate index would only cost
recall and a training pass. Above it, the scan grows linearly (about 180 ms per query at one
million vectors on a 2-core machine) and the knowledge base trains an IVF index once, then
again only when the rows written since exceed a share of the indexed ones (LanceDB searches the
unindexed tail exactly and merges it, so results stay complete in between).

Why IVF_SQ by default: measured with `hyrag bench latency` at one million 384-d vectors on this
machine, IVF_SQ (8-bit scalar quantisation) trained in about a minute where IVF_PQ took about
four, and answered at lower latency and higher recall against the exact scan (the closing note of
issue 4 has the figures). IVF_PQ stays available for tables too large to hold quantised vectors
in memory. A small refine factor re-ranks the candidates with the full vectors, which recovers
most of the recall the quantisation costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hyrag.errors import SettingsError


class AnnIndexType(StrEnum):
    """LanceDB vector index families HyRAG builds (all IVF-partitioned, cosine)."""

    IVF_SQ = "IVF_SQ"  # 8-bit scalar quantisation: fast to train, high recall
    IVF_PQ = "IVF_PQ"  # product quantisation: smallest index, slower to train
    IVF_RQ = "IVF_RQ"  # RaBitQ binary codes: smallest codes, needs refine for recall
    IVF_FLAT = "IVF_FLAT"  # no compression: exact within the probed partitions

    @classmethod
    def parse(cls, value: str | AnnIndexType) -> AnnIndexType:
        try:
            return cls(str(getattr(value, "value", value)).upper())
        except ValueError:
            valid = ", ".join(m.value for m in cls)
            raise SettingsError(
                f"ann_index_type {value!r} is not supported; valid: {valid}"
            ) from None


@dataclass(frozen=True)
class AnnSettings:
    """The approximate-index knobs (mirrored as `ann_*` fields of `hyrag.settings.Settings`).

    `min_vectors`: an index holding at least this many vectors gets an ANN index.
    `nprobes`: IVF partitions searched per query (more: higher recall, slower).
    `refine_factor`: candidates re-ranked with full vectors = k x this (0: none).
    `rebuild_growth`: retrain once unindexed rows exceed this share of the indexed rows.
    `mirror_max_vectors`: a table of at most this many vectors is searched exactly from its
    NumPy mirror without importing LanceDB (`hyrag.index.mirror`; 0: never).
    `partitions`: IVF partitions; 0 means one per `partition_rows` vectors (about 244 at one
    million). The textbook sqrt(n) (1,000 at one million) spread each neighbourhood over more
    partitions than 32 probes reach: recall@10 fell to 0.53 against 0.99 here (measured with
    `hyrag bench latency --partitions 1000` beside the default).
    """

    min_vectors: int = 100_000
    index_type: AnnIndexType = AnnIndexType.IVF_SQ
    nprobes: int = 32
    refine_factor: int = 2
    rebuild_growth: float = 0.25
    partitions: int = 0
    partition_rows: int = 4096  # vectors per IVF partition when `partitions` is 0
    sample_rate: int = 64  # training vectors per partition (LanceDB's default is 256)
    max_iterations: int = 20  # k-means iterations (LanceDB's default is 50)
    mirror_max_vectors: int = 250_000

    def __post_init__(self) -> None:
        object.__setattr__(self, "index_type", AnnIndexType.parse(self.index_type))
        for name in ("min_vectors", "nprobes", "sample_rate", "max_iterations", "partition_rows"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise SettingsError(f"ann_{name} must be a positive integer, got {v!r}")
        for name in ("refine_factor", "partitions", "mirror_max_vectors"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise SettingsError(f"ann_{name} must be an integer >= 0, got {v!r}")
        if not isinstance(self.rebuild_growth, int | float) or self.rebuild_growth <= 0:
            raise SettingsError(f"ann_rebuild_growth must be > 0, got {self.rebuild_growth!r}")

    @classmethod
    def from_settings(cls, s: object | None) -> AnnSettings:
        """From `hyrag.settings.Settings` (None: the defaults)."""
        if s is None:
            return cls()
        return cls(
            min_vectors=s.ann_min_vectors,  # type: ignore[attr-defined]
            index_type=s.ann_index_type,  # type: ignore[attr-defined]
            nprobes=s.ann_nprobes,  # type: ignore[attr-defined]
            refine_factor=s.ann_refine_factor,  # type: ignore[attr-defined]
            rebuild_growth=s.ann_rebuild_growth,  # type: ignore[attr-defined]
            mirror_max_vectors=s.ann_mirror_max_vectors,  # type: ignore[attr-defined]
        )

    def needs_build(self, indexed: int, unindexed: int) -> bool:
        """Whether (re)training is due, given the rows the current ANN index covers."""
        total = indexed + unindexed
        if total < self.min_vectors:
            return False
        if indexed == 0:
            return True
        return unindexed > self.rebuild_growth * indexed

    def num_partitions(self, n: int) -> int:
        return self.partitions or max(1, int(round(n / self.partition_rows)))
