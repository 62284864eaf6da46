"""Issue 21: the same corpus ingested in one store and by Ray tasks into a dataset gives the same
claims, links, tables and answers; failures and duplicates are reported per file.

Runs against a local Ray instance of 2 CPUs bound to 127.0.0.1 (`make test-scale`); without the
'scale' extra the module is skipped with the reason."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from hyrag.scale import job

job.local_ray_env()  # before Ray is imported: it binds 127.0.0.1 only, reports no usage
ray = pytest.importorskip(
    "ray", reason="the 'scale' extra is not installed (pip install 'hyrag[scale]'; make "
    "test-scale runs these tests)")

import hyrag  # noqa: E402 - after the skip: nothing below runs without Ray
from hyrag.cli import main  # noqa: E402
from hyrag.scale.layout import DATA_TABLES, MANIFEST, Manifest, is_dataset  # noqa: E402
from hyrag.scale.merge import claim_set_digest  # noqa: E402
from tests.conftest import SAMPLE  # noqa: E402

# Columns that record when a row was written: the only ones two ingests may differ in.
WHEN = {"ingested_at", "created_at"}
QUESTIONS = (
    "What was the graduate employment rate of Crestwood College?",
    "What was the total sales revenue in 2024?",
    "Which region had the highest sales revenue in 2024?",
    "What was the growth of Northwind Traders revenue from FY2023 to FY2024?",
)


def _corpus(root: Path) -> Path:
    """The sample data (CSV, XLSX, PDF, Markdown: 36 files) plus what makes order matter: a
    second `sales.csv` with other rows (its table is `sales_2` in one store), a byte-identical
    copy (the same source: "unchanged") and a broken file (reported, nothing of it kept)."""
    corpus = root / "corpus"
    for sub in ("", "messy", "conflicts", "alt", "docs", "docs/partial_coverage"):
        (corpus / sub).mkdir(parents=True, exist_ok=True)
        for f in sorted((SAMPLE / sub).iterdir()):
            if f.is_file() and f.suffix in {".csv", ".xlsx", ".pdf", ".md"} \
                    and f.name != "README.md":
                shutil.copy(f, corpus / sub / f.name)
    (corpus / "zz_more").mkdir()
    (corpus / "zz_more" / "sales.csv").write_text(
        "region,year,revenue\nNorth,2024,100\nSouth,2024,250\n", encoding="utf-8")
    shutil.copy(SAMPLE / "hr.csv", corpus / "zz_more" / "hr_copy.csv")
    shutil.copy(SAMPLE / "broken" / "orders_broken.csv", corpus / "zz_more" / "orders.csv")
    return corpus


@pytest.fixture(scope="module", autouse=True)
def hashed_vectors():
    """Both stores embed with the deterministic hashed vectors: what is compared is the data
    each path stored, not the model (the local model would take ~75 s per store here)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HYRAG_EMBED_TIER", "hashed")
        yield


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _corpus(tmp_path_factory.mktemp("scale"))


@pytest.fixture(scope="module")
def single(corpus: Path, tmp_path_factory: pytest.TempPathFactory):
    kb = hyrag.open(tmp_path_factory.mktemp("single") / "kb")
    _, errors = kb.ingest_many([corpus], keep_going=True)
    yield kb, errors
    kb.close()


@pytest.fixture(scope="module")
def distributed(corpus: Path, tmp_path_factory: pytest.TempPathFactory):
    """The command a user runs, `hyrag ingest --engine ray ... --json`, on a local instance
    started first (the job joins it) so the test can ask Ray where it listens."""
    job.start_local_ray(2)
    try:
        gcs = ray.get_runtime_context().gcs_address
        loc = tmp_path_factory.mktemp("dist") / "dataset"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["ingest", "--engine", "ray", "--workers", "2", str(corpus),
                         "--kb", str(loc), "--keep-going", "--json"])
    finally:
        ray.shutdown()
    report = json.loads(out.getvalue())
    kb = hyrag.open(loc)
    yield {**report, "exit_code": code}, kb, gcs
    kb.close()


def _rows(store, table: str) -> list[tuple]:
    cols = [c for (c,) in store.con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "ORDER BY ordinal_position", [table]).fetchall() if c not in WHEN]
    sel = ", ".join(f'"{c}"' for c in cols)
    return sorted(store.con.execute(f'SELECT {sel} FROM "{table}"').fetchall(), key=repr)


def test_the_local_ray_instance_listens_on_loopback_only(distributed):
    _, _, gcs = distributed
    assert gcs.startswith("127.0.0.1:")


def test_the_corpus_is_large_and_mixed(corpus):
    files = [p for p in corpus.rglob("*") if p.is_file()]
    assert len(files) >= 20
    assert {p.suffix for p in files} >= {".csv", ".xlsx", ".pdf", ".md"}


def test_ray_ingest_gives_the_same_claim_set(single, distributed):
    kb1, _ = single
    report, kb2, _ = distributed
    assert claim_set_digest(kb1.store) == claim_set_digest(kb2.store) == report["claim_digest"]
    assert _rows(kb1.store, "claims") == _rows(kb2.store, "claims")
    links = _rows(kb1.store, "claim_links")
    assert links == _rows(kb2.store, "claim_links")
    kinds = {row[2] for row in links}
    assert {"supports", "contradicts", "derived_from"} <= kinds  # the set-wise links exist


def test_ray_ingest_gives_the_same_tables(single, distributed):
    kb1, _ = single
    _, kb2, _ = distributed
    assert kb1.store.user_tables() == kb2.store.user_tables()
    assert "sales_2" in kb2.store.user_tables()  # named as the second `sales` in file order
    for table in (*DATA_TABLES, *kb1.store.user_tables()):
        assert _rows(kb1.store, table) == _rows(kb2.store, table), table


def test_failed_duplicate_and_renamed_files_are_reported(corpus, single, distributed):
    _, errors = single
    report, kb2, _ = distributed
    assert report["exit_code"] == 1  # a file failed, as `hyrag ingest --keep-going` says
    assert [f["file"] for f in report["failed"]] == [str(corpus / "zz_more" / "orders.csv")]
    assert report["failed"][0]["error"] == " ".join(str(errors[0]).split())  # the same line
    assert report["unchanged"] == [str(corpus / "zz_more" / "hr_copy.csv")]
    assert report["renamed"] == [str(corpus / "zz_more" / "sales.csv")]
    peaks = report["peak_rss_bytes"]
    assert len(peaks) >= 1 and min(peaks.values()) > 0
    audit = kb2.store.con.execute(
        "SELECT payload FROM audit WHERE kind = 'ingest_failed'").fetchall()
    assert len(audit) == 1 and "orders.csv" in audit[0][0]


def test_sql_search_and_ask_answer_the_same(single, distributed):
    kb1, _ = single
    _, kb2, _ = distributed
    query = ("SELECT region, round(sum(revenue), 2) AS revenue FROM sales "
             "GROUP BY region ORDER BY revenue DESC")
    assert kb1.sql(query).rows == kb2.sql(query).rows
    for q in QUESTIONS:
        hits1 = [(c.claim_id, round(c.fused_score, 9)) for c in kb1.search(q, k=10).claims]
        hits2 = [(c.claim_id, round(c.fused_score, 9)) for c in kb2.search(q, k=10).claims]
        assert hits1 and hits1 == hits2, q
        a1, a2 = kb1.ask(q), kb2.ask(q)
        assert (a1.decision, a1.text) == (a2.decision, a2.text), q
        assert [e["claim_id"] for e in a1.evidence] == [e["claim_id"] for e in a2.evidence], q


def test_the_dataset_is_recognised_and_complete(corpus, distributed):
    report, kb2, _ = distributed
    loc = Path(report["location"])
    assert is_dataset(loc) and (loc / MANIFEST).is_file()
    manifest = Manifest.read(loc)
    assert kb2.dataset == loc and kb2.path == loc / ".hyrag-kb"
    assert not [p for p in loc.parent.iterdir() if ".tmp-" in p.name]  # no temp folder left
    files = sum(1 for p in corpus.rglob("*") if p.is_file())
    assert manifest.files == report["files"] == files
    # every file but the broken one and the copy, each once
    assert report["ingested"] == manifest.sources == files - 2
    assert manifest.claim_digest == report["claim_digest"]
    assert [f.file for f in manifest.failed] == [f["file"] for f in report["failed"]]

