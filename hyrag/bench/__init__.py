"""Benchmarks: heavy measurements that print the seed figure beside ours; never run by tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def embed_tier(tier: str, *, force: bool = True) -> Iterator[None]:
    """Run a block with `HYRAG_EMBED_TIER` set, and put the caller's value back after: a bench
    called in-process (the smoke tests) must not leave its tier to the tests that follow.
    With `force=False` a tier the caller already chose wins (a user timing the local model)."""
    old = os.environ.get("HYRAG_EMBED_TIER")
    if force or old is None:
        os.environ["HYRAG_EMBED_TIER"] = tier
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HYRAG_EMBED_TIER", None)
        else:
            os.environ["HYRAG_EMBED_TIER"] = old
