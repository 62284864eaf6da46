"""The cyclic garbage collector is paused while a file is ingested (`hyrag.ingestion.paused_gc`,
~0.75 s of a 100,000-row CSV's reading) and given back as the caller had it, whatever happens."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

import hyrag
from hyrag.errors import IngestFailed
from hyrag.ingestion import paused_gc
from tests.conftest import SAMPLE


@pytest.fixture
def gc_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_while_a_file_is_read_and_written_then_resumed(tmp_path, gc_on) -> None:
    seen: list[bool] = []
    with hyrag.open(tmp_path / "kb") as kb:
        kb._ingestor.progress_hook = lambda _what: seen.append(gc.isenabled())
        report = kb.ingest(SAMPLE / "sales.csv")
    assert report.claims > 0
    assert seen and not any(seen)  # reading, typing, writing: all without the collector
    assert gc.isenabled()


def test_resumed_after_a_failed_ingest(tmp_path, gc_on) -> None:
    with hyrag.open(tmp_path / "kb") as kb, pytest.raises(IngestFailed, match="line"):
        kb.ingest(SAMPLE / "broken" / "orders_broken.csv")
    assert gc.isenabled()


def test_left_off_when_the_caller_turned_it_off(tmp_path, gc_on) -> None:
    gc.disable()
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(SAMPLE / "sales.csv")
    assert not gc.isenabled()


def test_resumed_only_when_the_last_of_overlapping_pauses_ends(gc_on) -> None:
    inner_entered, outer_may_end = threading.Event(), threading.Event()
    during: list[bool] = []

    def other() -> None:
        with paused_gc():
            inner_entered.set()
            outer_may_end.wait(5)
            during.append(gc.isenabled())

    with paused_gc():
        worker = threading.Thread(target=other)
        worker.start()
        inner_entered.wait(5)
    assert not gc.isenabled()  # the other ingest is still running
    outer_may_end.set()
    worker.join(5)
    assert during == [False]
    assert gc.isenabled()
