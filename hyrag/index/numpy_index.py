"""The pure NumPy index: exact cosine by one matrix-vector product over the admitted rows.

It is the fallback when LanceDB is absent and the ground truth the approximate index is measured
against (`hyrag bench latency`). The pre-filter is a boolean mask built from metadata columns;
only rows the mask admits are scored, so the top k is taken among admitted rows only.
Persistence is one `.npz` per index in `<kb>/vectors/`, rewritten on change (this backend is for
small knowledge bases and tests; large ones use LanceDB).

Knowledge bases are folders people copy and share, so opening one must never run code it holds:
the `.npz` is read with `allow_pickle=False`, and every array in it is a plain numeric, boolean
or fixed-width unicode array (ids and names as `<U` strings, a missing table name as a `False` in
`tables_set`). A file that would need unpickling (an object array: one crafted to run code, or
one written by an older HyRAG) is not loaded: the index starts empty and `stale` is set, so the
vector store re-embeds every source (`hyrag.index.builder.VectorStore`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hyrag.embed import EmbedInfo
from hyrag.index import Hit, VectorBatch, VectorFilter, VectorIndex

_FIELDS = ("ids", "vectors", "source_ids", "kinds", "tables", "ok_lo", "ok_hi")
# numpy dtype kinds each field may have on disk: unicode text, floats (vectors, time spans)
_KINDS = {"ids": "U", "vectors": "f", "source_ids": "U", "kinds": "U", "tables": "U",
          "ok_lo": "f", "ok_hi": "f"}


def _text(values: object) -> np.ndarray:
    """Fixed-width unicode (never an object array, which only pickling can store)."""
    arr = np.asarray([str(v) for v in values], dtype=str)
    return arr if arr.size else np.zeros(0, dtype="<U1")


class NumpyIndex(VectorIndex):
    def __init__(self, folder: Path | None, name: str, *, persist: bool = True) -> None:
        self.folder = folder
        self.name = name
        self.persist = persist and folder is not None
        self.info = None
        self.ids = np.zeros(0, dtype=object)
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self.source_ids = np.zeros(0, dtype=object)
        self.kinds = np.zeros(0, dtype=object)
        self.tables = np.zeros(0, dtype=object)
        self.ok_lo = np.zeros(0, dtype=np.float64)
        self.ok_hi = np.zeros(0, dtype=np.float64)
        self.stale = False  # the file on disk could not be read safely: rebuild from the store
        if self.persist:
            self._load()

    # -- persistence -----------------------------------------------------------------------
    def _paths(self) -> tuple[Path, Path]:
        assert self.folder is not None
        return self.folder / f"{self.name}.npz", self.folder / f"{self.name}.model.json"

    def _load(self) -> None:
        data, meta = self._paths()
        if meta.exists():
            self.info = EmbedInfo(**json.loads(meta.read_text()))
        if data.exists():
            try:
                with np.load(data, allow_pickle=False) as z:
                    arrays = {k: z[k] for k in _FIELDS}
                    tables_set = z["tables_set"] if "tables_set" in z.files else None
            except (ValueError, KeyError, OSError, EOFError) as e:
                # an object array (pickle), a missing field or a damaged file: nothing of it is
                # used; the vectors are rebuilt from the claims store
                self.stale = True
                self.stale_reason = f"{data.name}: {type(e).__name__}: {e}"
                return
            n = len(arrays["ids"])
            if any(arrays[k].dtype.kind not in _KINDS[k] or len(arrays[k]) != n
                   for k in _FIELDS) or (tables_set is not None and len(tables_set) != n):
                self.stale = True
                self.stale_reason = f"{data.name}: unexpected array types or lengths"
                return
            self.ids, self.vectors = arrays["ids"].astype(object), arrays["vectors"]
            self.source_ids = arrays["source_ids"].astype(object)
            self.kinds = arrays["kinds"].astype(object)
            tables = arrays["tables"].astype(object)
            if tables_set is not None:
                tables[~tables_set.astype(bool)] = None
            self.tables = tables
            self.ok_lo, self.ok_hi = arrays["ok_lo"], arrays["ok_hi"]

    def _save(self) -> None:
        if not self.persist:
            return
        data, _ = self._paths()
        data.parent.mkdir(parents=True, exist_ok=True)
        tmp = data.with_suffix(".tmp.npz")
        tables_set = np.array([t is not None for t in self.tables], dtype=bool)
        np.savez(
            tmp,
            ids=_text(self.ids),
            vectors=np.asarray(self.vectors, dtype=np.float32),
            source_ids=_text(self.source_ids),
            kinds=_text(self.kinds),
            tables=_text(["" if t is None else t for t in self.tables]),
            tables_set=tables_set,
            ok_lo=np.asarray(self.ok_lo, dtype=np.float64),
            ok_hi=np.asarray(self.ok_hi, dtype=np.float64),
        )
        tmp.replace(data)  # atomic: a crash leaves the old file or the new one

    def _save_info(self) -> None:
        if not self.persist or self.info is None:
            return
        _, meta = self._paths()
        meta.parent.mkdir(parents=True, exist_ok=True)
        i = self.info
        meta.write_text(json.dumps({"tier": i.tier, "model": i.model, "dim": i.dim}))

    # -- writes ----------------------------------------------------------------------------
    def reset(self) -> None:
        """Empty the index (and its file): every source is indexed again from the store."""
        self.ids = np.zeros(0, dtype=object)
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self.source_ids = np.zeros(0, dtype=object)
        self.kinds = np.zeros(0, dtype=object)
        self.tables = np.zeros(0, dtype=object)
        self.ok_lo = np.zeros(0, dtype=np.float64)
        self.ok_hi = np.zeros(0, dtype=np.float64)
        self._codes_n = -1
        self.stale = False
        self._save()

    def _add(self, batch: VectorBatch) -> None:
        v = np.asarray(batch.vectors, dtype=np.float32)
        self.vectors = v if self.vectors.size == 0 else np.vstack([self.vectors, v])
        self.ids = np.concatenate([self.ids, np.array(batch.ids, dtype=object)])
        self.source_ids = np.concatenate(
            [self.source_ids, np.array(batch.source_ids, dtype=object)]
        )
        self.kinds = np.concatenate([self.kinds, np.array(batch.kinds, dtype=object)])
        self.tables = np.concatenate([self.tables, np.array(batch.tables, dtype=object)])
        self.ok_lo = np.concatenate([self.ok_lo, np.array(batch.ok_lo, dtype=np.float64)])
        self.ok_hi = np.concatenate([self.ok_hi, np.array(batch.ok_hi, dtype=np.float64)])
        self._save()

    def delete_sources(self, source_ids: Sequence[str]) -> int:
        if not len(self.ids):
            return 0
        drop = np.isin(self.source_ids, list(source_ids))
        n = int(drop.sum())
        if n:
            keep = ~drop
            self.ids, self.vectors = self.ids[keep], self.vectors[keep]
            self.source_ids, self.kinds = self.source_ids[keep], self.kinds[keep]
            self.tables, self.ok_lo, self.ok_hi = (
                self.tables[keep],
                self.ok_lo[keep],
                self.ok_hi[keep],
            )
            self._codes_n = -1
            self._save()
        return n

    # -- reads -----------------------------------------------------------------------------
    def _source_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """Sources as small integers (cached): an isin over ints, not over a million strings."""
        if getattr(self, "_codes_n", -1) != len(self.ids):
            uniq, codes = np.unique(self.source_ids.astype(str), return_inverse=True)
            self._codes = (uniq, codes.astype(np.int32))
            self._codes_n = len(self.ids)
        return self._codes

    def mask(self, flt: VectorFilter | None) -> np.ndarray:
        m = np.ones(len(self.ids), dtype=bool)
        if flt is None:
            return m
        if flt.allowed_sources is not None:
            uniq, codes = self._source_codes()
            m &= np.isin(codes, np.flatnonzero(np.isin(uniq, list(flt.allowed_sources))))
        if flt.kinds is not None:
            m &= np.isin(self.kinds, list(flt.kinds))
        if flt.ids is not None:
            m &= np.isin(self.ids, list(flt.ids))
        if flt.interval is not None:
            lo, hi = flt.interval
            with np.errstate(invalid="ignore"):  # NaN spans never pass a time filter
                m &= (self.ok_lo <= hi) & (self.ok_hi >= lo)
        return m

    def search(self, vector: np.ndarray, k: int, flt: VectorFilter | None = None) -> list[Hit]:
        if not len(self.ids) or k <= 0 or (flt is not None and flt.is_empty_set()):
            return []
        m = self.mask(flt)
        if not m.any():
            return []
        # Score every row, then drop the non-admitted ones before the top k is taken: cheaper
        # than gathering the admitted rows, and the same ranking among admitted rows.
        rows = np.flatnonzero(m)
        scores = (self.vectors @ np.asarray(vector, dtype=np.float32))[rows]
        k = min(k, rows.size)
        top = np.argpartition(-scores, k - 1)[:k] if k < rows.size else np.arange(rows.size)
        order = sorted(top, key=lambda i: (-float(scores[i]), str(self.ids[rows[i]])))
        return [
            Hit(
                str(self.ids[rows[i]]),
                float(scores[i]),
                str(self.source_ids[rows[i]]),
                str(self.kinds[rows[i]]),
                self.tables[rows[i]],
            )
            for i in order
        ]

    def count(self) -> int:
        return int(len(self.ids))

    def sources(self) -> set[str]:
        return {str(s) for s in set(self.source_ids.tolist())}
