"""Column layouts of the retrieval indexes: strings as NumPy buffers, not Python objects.

Why: a catalog of 1.1 M claims held as object arrays is 14 M Python strings; making them was
~45% of a fresh process's first search (issue 20), and each process made them again. Here a
text column is a *pool* of its distinct strings (one UTF-8 byte buffer and its offsets) plus
one integer code per row (-1 for a missing value). Every array is plain numbers or bytes, so
it is saved as `.npy` and opened memory-mapped (`numpy.load(mmap_mode="r")`): a fresh process
reads only the pages a query touches, and a string is decoded only when a result shows it.

Lookups by key (a claim id, an item id, a normalised name, a BM25 term) go through a pool
sorted by its UTF-8 bytes and a binary search (`bisect` over the pool), ~20 decodes per lookup
instead of one dict of a million keys built per process.

Every class here reads and writes its arrays with `to_arrays(prefix)` / `from_arrays(prefix,
arrays)`; `hyrag.kbcache` stores them (no pickling: a knowledge-base folder from someone else
can hold wrong data, never code that runs on open).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

import numpy as np

_EMPTY_U8 = np.zeros(0, dtype=np.uint8)


def _arr(arrays: dict[str, np.ndarray], name: str, kinds: str) -> np.ndarray:
    """`arrays[name]`, refused unless its dtype kind is one of `kinds` ("u", "i", "f", "b").
    A wrong kind means a damaged or foreign file: the caller treats it as a cache miss."""
    a = arrays[name]
    if a.dtype.kind not in kinds or a.ndim < 1:
        raise ValueError(f"cached array {name} has dtype {a.dtype}, expected kind {kinds}")
    return a


class Pool(Sequence[bytes]):
    """Distinct strings as one UTF-8 buffer: string j is data[offsets[j]:offsets[j + 1]]."""

    __slots__ = ("_buf", "_decoded", "data", "offsets")

    def __init__(self, data: np.ndarray, offsets: np.ndarray) -> None:
        self.data, self.offsets = data, offsets
        self._buf = memoryview(data) if data.size else memoryview(b"")  # slices without NumPy
        self._decoded: list[str] | None = None

    @classmethod
    def of(cls, strings: Iterable[str]) -> Pool:
        encoded = [s.encode("utf-8") for s in strings]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        if encoded:
            np.cumsum([len(b) for b in encoded], out=offsets[1:])
        data = np.frombuffer(b"".join(encoded), dtype=np.uint8) if encoded else _EMPTY_U8
        return cls(data, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @overload
    def __getitem__(self, j: int) -> bytes: ...
    @overload
    def __getitem__(self, j: slice) -> Sequence[bytes]: ...
    def __getitem__(self, j: int | slice) -> bytes | Sequence[bytes]:
        """The raw bytes of string j (what `bisect` compares)."""
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        return bytes(self._buf[int(self.offsets[j]) : int(self.offsets[j + 1])])

    def text(self, j: int) -> str:
        if self._decoded is not None:
            return self._decoded[j]
        return self[j].decode("utf-8")

    def decoded(self) -> list[str]:
        """Every string, decoded once and kept (for small pools: kinds, sources, tables)."""
        if self._decoded is None:
            self._decoded = [self[j].decode("utf-8") for j in range(len(self))]
        return self._decoded

    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}.data": self.data, f"{prefix}.offsets": self.offsets}

    @classmethod
    def from_arrays(cls, prefix: str, arrays: dict[str, np.ndarray]) -> Pool:
        data, offsets = _arr(arrays, f"{prefix}.data", "u"), _arr(arrays, f"{prefix}.offsets", "i")
        if len(offsets) < 1 or (len(offsets) > 1 and int(offsets[-1]) > len(data)):
            raise ValueError(f"cached pool {prefix} is cut short")
        return cls(data, offsets)


def _prefixes(pool: Pool) -> np.ndarray:
    """Each string's first 8 bytes (zero-padded) as a big-endian number: sorted strings have
    non-decreasing prefixes, so one `searchsorted` in C narrows a lookup to the few strings
    that share its prefix (a bisection in Python over a million keys cost ~20 slices each)."""
    n = len(pool)
    if not n or not pool.data.size:
        return np.zeros(n, dtype=np.uint64)
    out = np.zeros(n, dtype=np.uint64)
    start, end = pool.offsets[:-1], pool.offsets[1:]
    for k in range(8):  # one byte column at a time: no (n, 8) temporaries
        pos = start + k
        byte = pool.data[np.minimum(pos, pool.data.size - 1)].astype(np.uint64)
        out |= np.where(pos < end, byte, np.uint64(0)) << np.uint64(56 - 8 * k)
    return out


def _prefix_of(b: bytes) -> np.uint64:
    return np.uint64(int.from_bytes(b[:8].ljust(8, b"\0"), "big"))


class SortedKeys:
    """A set of strings sorted by their UTF-8 bytes, each with an integer (`values`; None: its
    rank): `get(key)` is a binary search, no dict of every key is ever built."""

    __slots__ = ("_prefix", "pool", "values")

    def __init__(self, pool: Pool, values: np.ndarray | None = None,
                 prefix: np.ndarray | None = None) -> None:
        self.pool, self.values = pool, values
        self._prefix = prefix

    @classmethod
    def build(cls, keys: Sequence[str], values: Sequence[int] | np.ndarray | None = None
              ) -> SortedKeys:
        """From distinct `keys` (any order), key i carrying values[i] (default: i)."""
        encoded = [k.encode("utf-8") for k in keys]
        order = sorted(range(len(encoded)), key=encoded.__getitem__)
        vals = np.arange(len(keys), dtype=np.int64) if values is None else np.asarray(values)
        pool = Pool.of(encoded[j].decode("utf-8") for j in order)
        return cls(pool, np.asarray(vals, dtype=np.int64)[order] if len(order) else
                   np.zeros(0, dtype=np.int64))

    @property
    def prefix(self) -> np.ndarray:
        if self._prefix is None:
            self._prefix = _prefixes(self.pool)
        return self._prefix

    def __len__(self) -> int:
        return len(self.pool)

    def rank(self, key: str) -> int | None:
        """The key's position in sorted order, or None when absent."""
        b = key.encode("utf-8")
        p = _prefix_of(b)
        lo = int(self.prefix.searchsorted(p, "left"))
        hi = int(self.prefix.searchsorted(p, "right"))
        if lo == hi:
            return None
        j = bisect.bisect_left(self.pool, b, lo, hi) if hi - lo > 1 else lo
        return j if j < hi and self.pool[j] == b else None

    def get(self, key: str, default: int | None = None) -> int | None:
        j = self.rank(key) if isinstance(key, str) else None
        if j is None:
            return default
        return j if self.values is None else int(self.values[j])

    def __getitem__(self, key: str) -> int:
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.rank(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.pool.decoded())

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = self.pool.to_arrays(prefix)
        out[f"{prefix}.prefix"] = self.prefix
        if self.values is not None:
            out[f"{prefix}.values"] = self.values
        return out

    @classmethod
    def from_arrays(cls, prefix: str, arrays: dict[str, np.ndarray]) -> SortedKeys:
        pool = Pool.from_arrays(prefix, arrays)
        values = arrays.get(f"{prefix}.values")
        if values is not None:
            values = _arr(arrays, f"{prefix}.values", "i")
            if len(values) != len(pool):
                raise ValueError(f"cached keys {prefix}: {len(values)} values, {len(pool)} keys")
        pre = arrays.get(f"{prefix}.prefix")
        if pre is not None and (pre.dtype != np.uint64 or len(pre) != len(pool)):
            raise ValueError(f"cached keys {prefix}: prefixes do not match the keys")
        return cls(pool, values, pre)


class TextColumn:
    """One string (or None) per row: `codes[i]` indexes the pool of distinct strings, -1 for
    None. `col[i]` decodes one value; `col[mask]` is a column of the selected rows (the pool
    is shared); `isin` and `distinct` work on the codes without decoding every row."""

    __slots__ = ("_codes", "_n", "pool")

    def __init__(self, codes: np.ndarray | None, pool: Pool, n: int | None = None) -> None:
        """`codes` None: row i holds pool string i (a column of distinct values: ids, texts)."""
        self._codes, self.pool = codes, pool
        self._n = len(codes) if codes is not None else (len(pool) if n is None else n)

    @classmethod
    def of(cls, values: Sequence[str | None]) -> TextColumn:
        """From Python values (tests and small catalogs; the store path is `from_arrow`)."""
        index: dict[str, int] = {}
        codes = np.fromiter((-1 if v is None else index.setdefault(v, len(index))
                             for v in values), dtype=np.int32, count=len(values))
        return cls(codes, Pool.of(index))

    @classmethod
    def from_arrow(cls, col: Any) -> TextColumn:
        """Dictionary-encode an Arrow string column (`col`: a pyarrow array or chunked array) in
        C++: no Python string per row."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if isinstance(col, pa.ChunkedArray):
            col = col.combine_chunks()
        enc = pc.dictionary_encode(col.cast(pa.large_string()))
        dictionary = enc.dictionary.cast(pa.large_string())
        codes = np.asarray(enc.indices.fill_null(-1).to_numpy(zero_copy_only=False),
                           dtype=np.int32)
        bufs = dictionary.buffers()
        n = len(dictionary)
        off = np.frombuffer(bufs[1], dtype=np.int64)[dictionary.offset:dictionary.offset + n + 1]
        off = off.copy() if n else np.zeros(1, dtype=np.int64)
        base = int(off[0])
        data = (np.frombuffer(bufs[2], dtype=np.uint8)[base:int(off[-1])].copy()
                if bufs[2] is not None and n else _EMPTY_U8)
        return cls(codes, Pool(data, off - base))

    @property
    def identity(self) -> bool:
        """Whether row i holds pool string i (no codes stored)."""
        return self._codes is None

    @property
    def codes(self) -> np.ndarray:
        if self._codes is None:
            self._codes = np.arange(self._n, dtype=np.int32)
        return self._codes

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int | np.integer) -> str | None: ...
    @overload
    def __getitem__(self, i: np.ndarray | slice) -> TextColumn: ...
    def __getitem__(self, i: int | np.integer | np.ndarray | slice) -> str | None | TextColumn:
        if isinstance(i, int | np.integer):
            c = int(i) if self._codes is None else int(self._codes[i])
            return None if c < 0 else self.pool.text(c)
        return TextColumn(self.codes[i], self.pool)

    def __iter__(self) -> Iterator[str | None]:
        return iter(self.tolist())

    def tolist(self) -> list[str | None]:
        """Every row decoded (a Python string each: for small columns and the index builders)."""
        if self._codes is None:
            return list(self.pool.decoded())
        table = [*self.pool.decoded(), None]  # code -1 reads the trailing None
        return [table[c] for c in self._codes.tolist()]

    def notnull(self) -> np.ndarray:
        return self.codes >= 0

    def pool_mask(self, values: Iterable[str]) -> np.ndarray:
        """Which pool strings are among `values` (one comparison per distinct string)."""
        want = set(values)
        return np.fromiter((s in want for s in self.pool.decoded()), dtype=bool,
                           count=len(self.pool))

    def isin(self, values: Iterable[str]) -> np.ndarray:
        """Rows whose value is among `values` (None never is)."""
        hit = np.append(self.pool_mask(values), False)  # index -1 (None) reads False
        return hit[self.codes]

    def distinct(self, mask: np.ndarray | None = None) -> set[str]:
        """The distinct non-None values (of the rows `mask` admits)."""
        codes = self.codes if mask is None else self.codes[mask]
        return {self.pool.text(int(c)) for c in np.unique(codes) if c >= 0}

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = self.pool.to_arrays(prefix)
        if self._codes is not None:
            out[f"{prefix}.codes"] = self._codes
        return out

    @classmethod
    def from_arrays(cls, prefix: str, arrays: dict[str, np.ndarray], n: int) -> TextColumn:
        pool = Pool.from_arrays(prefix, arrays)
        codes = arrays.get(f"{prefix}.codes")
        if codes is None:
            if len(pool) != n:
                raise ValueError(f"cached column {prefix}: {len(pool)} values for {n} rows")
            return cls(None, pool, n)
        codes = _arr(arrays, f"{prefix}.codes", "i")
        if len(codes) != n or (n and int(codes.max(initial=-1)) >= len(pool)):
            raise ValueError(f"cached column {prefix} does not match {n} rows")
        return cls(codes, pool)


class Groups:
    """A map from string keys to lists of integers (CSR): key k's members are
    members[offsets[r]:offsets[r + 1]] for its sorted rank r. Replaces a dict of lists built
    per process (the catalog's row -> cells, the graph's name -> claims)."""

    __slots__ = ("keys", "members", "offsets")

    def __init__(self, keys: SortedKeys, offsets: np.ndarray, members: np.ndarray) -> None:
        self.keys, self.offsets, self.members = keys, offsets, members

    @classmethod
    def build(cls, key_of_row: np.ndarray, keys: Sequence[str], order: np.ndarray | None = None
              ) -> Groups:
        """Group rows by `key_of_row` (an index into `keys`, -1: no key). Members are row
        numbers, in the order `order` gives (default ascending). A key no row has is left out
        (a restricted view's names are only those of the claims it sees)."""
        key_of_row = np.asarray(key_of_row, dtype=np.int64)
        rows = np.arange(len(key_of_row), dtype=np.int64) if order is None else order
        rows = rows[key_of_row[rows] >= 0]
        used = np.zeros(len(keys), dtype=bool)
        used[key_of_row[rows]] = True
        kept = np.flatnonzero(used)
        sk = SortedKeys.build([keys[j] for j in kept.tolist()])  # values: index into kept
        rank_of = np.full(len(keys), -1, dtype=np.int64)
        if sk.values is not None and len(kept):
            rank_of[kept[sk.values]] = np.arange(len(kept))
        ranks = rank_of[key_of_row[rows]]
        by = np.argsort(ranks, kind="stable")
        counts = np.bincount(ranks, minlength=len(kept)) if len(kept) else np.zeros(0, np.int64)
        offsets = np.zeros(len(kept) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return cls(SortedKeys(sk.pool), offsets, rows[by].astype(np.int64))

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys)

    def at(self, rank: int) -> np.ndarray:
        return self.members[int(self.offsets[rank]) : int(self.offsets[rank + 1])]

    def get(self, key: str, default: Sequence[int] = ()) -> Sequence[int]:
        r = self.keys.rank(key) if isinstance(key, str) else None
        return default if r is None else self.at(r).tolist()

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {**self.keys.to_arrays(f"{prefix}.keys"), f"{prefix}.offsets": self.offsets,
                f"{prefix}.members": self.members}

    @classmethod
    def from_arrays(cls, prefix: str, arrays: dict[str, np.ndarray]) -> Groups:
        keys = SortedKeys.from_arrays(f"{prefix}.keys", arrays)
        offsets = _arr(arrays, f"{prefix}.offsets", "i")
        members = _arr(arrays, f"{prefix}.members", "i")
        if len(offsets) != len(keys) + 1 or int(offsets[-1]) != len(members):
            raise ValueError(f"cached groups {prefix} do not match their keys")
        return cls(keys, offsets, members)


class Labels(Sequence[str]):
    """Members of one group read as strings of a pool, decoded only when read: the graph asks
    a value's item count first, and a category held by 25,000 rows is never decoded."""

    __slots__ = ("members", "pool")

    def __init__(self, members: np.ndarray, pool: Pool) -> None:
        self.members, self.pool = members, pool

    def __len__(self) -> int:
        return len(self.members)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self.pool.text(int(j)) for j in self.members[i]]
        return self.pool.text(int(self.members[i]))


class LabelledGroups:
    """`Groups` whose members index a pool of strings, read back as those strings (the graph's
    name -> items holding it, stored as codes of the catalog's item-id pool)."""

    __slots__ = ("groups", "labels")

    def __init__(self, groups: Groups, labels: Pool) -> None:
        self.groups, self.labels = groups, labels

    def __len__(self) -> int:
        return len(self.groups)

    def __contains__(self, key: object) -> bool:
        return key in self.groups

    def __iter__(self) -> Iterator[str]:
        return iter(self.groups)

    def get(self, key: str, default: Sequence[str] = ()) -> Sequence[str]:
        r = self.groups.keys.rank(key) if isinstance(key, str) else None
        return default if r is None else Labels(self.groups.at(r), self.labels)
