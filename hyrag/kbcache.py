"""Indexes that depend only on what a knowledge base holds, saved in its folder between processes.

The answer engine's schema catalog, the BM25 postings and the name graph of retrieval are pure
functions of the store's contents, and building them was most of a fresh process's first
question (issue 20: 1-4 s on the sample knowledge base, ~48 s at 1.1 M claims). Each is built
once, written to `KB/cache/NAME.json`, or as column arrays to `KB/cache/NAME.KEY/*.npy`, and
read back by the next process: `.npy` files are opened memory-mapped, so a fresh process reads
only the pages its first query touches (the retrieval catalog, BM25 postings and name graph of
1.1 M claims are ~400 MB; reading them whole took seconds).

A saved index is used only when its key matches the one computed now. The key covers
- the store's `generation` (advanced by every committed ingest, `Store.transaction`) and the
  caller's own content signature (sources, versions, links), so an ingest in any process, or by
  an older HyRAG that does not advance the counter, is never served a stale index;
- the source code of the modules that build and read the index, so a changed builder never
  reads a file laid out by the old one.

A folder of arrays is named by its key, so a writer never replaces files a reader has mapped:
it fills a temporary folder, renames it to `NAME.KEY` (atomic), then removes the folders of
other keys (a process that still maps them keeps its pages: unlinked files live until unmapped).

Only JSON and NumPy arrays without pickling are read (`allow_pickle=False`): a knowledge-base
folder received from someone else can hold wrong data, never code that runs on open. A file
that cannot be read (cut short, another layout) is a miss and is rebuilt; a folder that cannot
be written (read-only media) just means the index is rebuilt in every process, as before.
Indexes of a subject's restricted view (`hyrag.policy.views.GovernedStore`) are never saved:
their statistics differ per subject and are derived from the saved full index in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

CACHE_DIR = "cache"
# Bumped when this module's own file layout changes (the modules' code is keyed separately).
FORMAT = 1
FILE_MODE = 0o644
_MISS_ERRORS = (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile)


@cache
def code_digest(modules: tuple[str, ...]) -> str:
    """sha256 over the source files of the named (imported) modules."""
    h = hashlib.sha256(str(FORMAT).encode())
    for name in modules:
        path = getattr(sys.modules[name], "__file__", None)
        h.update(name.encode())
        if path:
            h.update(Path(path).read_bytes())
    return h.hexdigest()[:16]


def persistable(store: object) -> bool:
    """Whether `store` is a whole knowledge base (not a subject's view) kept in a folder."""
    from hyrag.store import Store

    return isinstance(store, Store)


def cache_key(store: Any, modules: Iterable[str], *parts: object) -> str:
    """The key a saved index must carry to be used now (see the module docstring)."""
    raw = json.dumps([store.generation(), code_digest(tuple(modules)), [str(p) for p in parts]])
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def path_of(store: Any, name: str, suffix: str) -> Path:
    return Path(store.folder) / CACHE_DIR / f"{name}{suffix}"


def read_json(store: Any, name: str, key: str) -> Any:
    """The saved object under `name` when its key is `key`, else None."""
    try:
        with path_of(store, name, ".json").open("rb") as f:
            doc = json.load(f)
    except _MISS_ERRORS:
        return None
    if not isinstance(doc, dict) or doc.get("key") != key:
        return None
    return doc.get("data")


def write_json(store: Any, name: str, key: str, data: object) -> bool:
    """Save `data` under `name` with `key` (atomically); False when the folder is not writable."""
    payload = json.dumps({"key": key, "data": data}, ensure_ascii=False,
                         separators=(",", ":")).encode("utf-8")
    return _write(path_of(store, name, ".json"), lambda f: f.write(payload))


def read_arrays(store: Any, name: str, key: str) -> dict | None:
    """The saved arrays under `name` when their key is `key`, else None."""
    import numpy as np

    try:
        with np.load(path_of(store, name, ".npz"), allow_pickle=False) as z:
            if str(z["__key__"]) != key:
                return None
            return {k: z[k] for k in z.files if k != "__key__"}
    except _MISS_ERRORS:
        return None


def write_arrays(store: Any, name: str, key: str, arrays: dict) -> bool:
    import numpy as np

    return _write(path_of(store, name, ".npz"),
                  lambda f: np.savez(f, __key__=np.array(key), **arrays))


MANIFEST = "manifest.json"


def columns_dir(store: Any, name: str, key: str) -> Path:
    return Path(store.folder) / CACHE_DIR / f"{name}.{key}"


def read_columns(store: Any, name: str, key: str) -> tuple[dict, dict] | None:
    """(arrays memory-mapped read-only, the JSON state saved beside them) of `name` under
    `key`, else None (never written, another key, or a file missing or unreadable)."""
    return read_folder(columns_dir(store, name, key), key)


def write_columns(store: Any, name: str, key: str, arrays: dict, state: object = None) -> bool:
    """Save `arrays` (plain numeric / bytes NumPy arrays) and a JSON `state` as `name` under
    `key` (see the module docstring); False when the folder is not writable."""
    return write_folder(columns_dir(store, name, key), key, arrays, state)


def read_folder(folder: Path, key: str) -> tuple[dict, dict] | None:
    """`read_columns` for a folder given by its path (`NAME.KEY` in any parent)."""
    import numpy as np

    try:
        with (folder / MANIFEST).open("rb") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or doc.get("key") != key:
            return None
        arrays = {}
        for arr_name in doc["arrays"]:
            if not isinstance(arr_name, str) or "/" in arr_name or arr_name.startswith("."):
                return None  # names are file names in this folder, never a path elsewhere
            a = np.load(folder / f"{arr_name}.npy", mmap_mode="r", allow_pickle=False)
            if a.dtype.hasobject:
                return None
            # a plain ndarray over the same mapped pages: np.memmap's __getitem__ costs
            # ~7 us a call in Python, and readers slice these arrays per string
            arrays[arr_name] = a.view(np.ndarray)
        return arrays, doc.get("state") or {}
    except _MISS_ERRORS:
        return None


def write_folder(final: Path, key: str, arrays: dict, state: object = None) -> bool:
    """`write_columns` to a folder given by its path, named `NAME.KEY`: the folders of the
    same NAME and other keys beside it are removed once it is written."""
    import numpy as np

    name = final.name[: -len(key) - 1]
    if (final / MANIFEST).exists():
        return True  # another process saved the same contents
    if final.exists():  # a folder of this key without its manifest: a damaged one
        shutil.rmtree(final, ignore_errors=True)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=final.parent))
    except OSError:
        return False
    try:
        for arr_name, a in arrays.items():
            if "/" in arr_name or arr_name.startswith("."):
                raise ValueError(f"array name {arr_name!r} is not a file name")
            np.save(tmp / f"{arr_name}.npy", np.ascontiguousarray(a), allow_pickle=False)
        payload = json.dumps({"key": key, "arrays": sorted(arrays), "state": state},
                             ensure_ascii=False, separators=(",", ":"))
        (tmp / MANIFEST).write_text(payload, encoding="utf-8")
        for p in (tmp, *tmp.iterdir()):
            os.chmod(p, 0o755 if p.is_dir() else FILE_MODE)
        os.rename(tmp, final)
    except (OSError, ValueError):
        shutil.rmtree(tmp, ignore_errors=True)
        return (final / MANIFEST).exists()
    for old in final.parent.glob(f"{name}.*"):
        if old != final and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    return True


def _write(path: Path, fill) -> bool:
    """Write through a temporary file in the same folder, then rename: a reader in another
    process sees the old file or the whole new one, never half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f)
        os.chmod(tmp, FILE_MODE)  # mkstemp's 0600 would hide it from the folder's other users
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return False
    return True
