"""Issue 21 without Ray: the default install refuses `--engine ray` with the install line,
refuses the options the ray engine does not support, and the merge and the dataset layout (run
by the in-process executor, the same code a Ray task runs) write what one store would, all or
nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hyrag
from hyrag.cli import main
from hyrag.errors import IngestFailed, ScaleError, StoreError
from hyrag.ingestion import choose_table_name
from hyrag.scale import job
from hyrag.scale.layout import MANIFEST, is_dataset
from hyrag.scale.merge import claim_set_digest
from tests.conftest import SAMPLE


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """Five files whose order matters: two tables asking for `a_sales`, a byte-identical copy."""
    c = tmp_path / "corpus"
    (c / "b").mkdir(parents=True)
    shutil.copy(SAMPLE / "marketing.csv", c / "a_sales.csv")
    shutil.copy(SAMPLE / "conflicts" / "erp_revenue.csv", c / "erp_revenue.csv")
    shutil.copy(SAMPLE / "conflicts" / "crm_revenue.csv", c / "crm_revenue.csv")
    shutil.copy(SAMPLE / "conflicts" / "crm_revenue.csv", c / "zz_crm_copy.csv")
    (c / "b" / "a_sales.csv").write_text("region,year,revenue\nNorth,2024,1\n", encoding="utf-8")
    return c


def test_table_names_are_chosen_as_one_store_chooses_them():
    assert choose_table_name("Sales 2024", []) == "sales_2024"
    assert choose_table_name("sales", ["Sales", "sales_2"]) == "sales_3"
    assert choose_table_name("claims", []) == "t_claims"  # the engine's own name
    assert choose_table_name("", []) == "table"


def test_engine_ray_without_ray_says_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    code = main(["ingest", "--engine", "ray", str(SAMPLE / "hr.csv"),
                 "--kb", str(tmp_path / "ds")])
    err = capsys.readouterr().err
    assert code == 1 and "pip install 'hyrag[scale]'" in err and "Ray" in err
    assert not (tmp_path / "ds").exists()


@pytest.mark.parametrize(("flags", "named"), [
    (["--policy", "p.toml"], "--policy"), (["--as", "ana"], "--as"),
    (["--attest", "ok"], "--attest"), (["--as", "ana", "--attest", "ok"], "--as, --attest")])
def test_engine_ray_refuses_governance_options_by_name(tmp_path, capsys, monkeypatch, flags,
                                                       named):
    monkeypatch.delenv("HYRAG_SUBJECT", raising=False)
    code = main(["ingest", "--engine", "ray", str(SAMPLE / "hr.csv"),
                 "--kb", str(tmp_path / "ds"), *flags])
    err = capsys.readouterr().err
    assert code == 1 and f"{named} not supported with --engine ray" in err
    assert not (tmp_path / "ds").exists()


def test_workers_needs_engine_ray(tmp_path, capsys):
    code = main(["ingest", str(SAMPLE / "hr.csv"), "--workers", "2",
                 "--kb", str(tmp_path / "kb")])
    assert code == 1 and "--workers needs --engine ray" in capsys.readouterr().err


def test_merged_dataset_equals_one_store(corpus, tmp_path):
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest_many([corpus])
        digest = claim_set_digest(kb.store)
        tables = kb.store.user_tables()
        rows = kb.sql("SELECT * FROM a_sales_2").rows
    rep = job.run([corpus], tmp_path / "ds", executor="inline")
    assert rep.manifest.claim_digest == digest
    assert rep.unchanged == (str(corpus / "zz_crm_copy.csv"),)
    assert rep.renamed == (str(corpus / "b" / "a_sales.csv"),)  # second `a_sales`: `a_sales_2`
    with hyrag.open(tmp_path / "ds") as kb:
        assert claim_set_digest(kb.store) == digest
        assert kb.store.user_tables() == tables
        assert kb.sql("SELECT * FROM a_sales_2").rows == rows
        conflicts = kb.conflicts()
        assert len(conflicts) > 0  # linked set-wise after the tasks
    with hyrag.open(tmp_path / "ds", read_only=True) as kb:  # the loaded store is reused
        assert claim_set_digest(kb.store) == digest
    with hyrag.open(tmp_path / "ds") as kb, hyrag.open(tmp_path / "ds") as again:
        # a second open while the first holds the store: the same store, never rebuilt
        assert again.store is kb.store and claim_set_digest(again.store) == digest


def test_a_loaded_store_open_in_another_process_is_never_rebuilt(corpus, tmp_path):
    job.run([corpus], tmp_path / "ds", executor="inline")
    db = tmp_path / "ds" / ".hyrag-kb" / "hyrag.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, hyrag; kb = hyrag.open(sys.argv[1]); "
         "print('open', flush=True); sys.stdin.read()", str(tmp_path / "ds")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert holder.stdout.readline().strip() == "open"
        inode = db.stat().st_ino
        with pytest.raises(StoreError, match="open read-write in another process"):
            hyrag.open(tmp_path / "ds", read_only=True)
        assert db.stat().st_ino == inode  # the holder's store is still the one on disk
    finally:
        holder.communicate("", timeout=60)


def test_a_failed_file_writes_nothing_unless_keep_going(corpus, tmp_path):
    shutil.copy(SAMPLE / "broken" / "orders_broken.csv", corpus / "orders.csv")
    with pytest.raises(IngestFailed, match=r"1 of 6 file\(s\) failed, nothing written.*orders"):
        job.run([corpus], tmp_path / "ds", executor="inline")
    assert list(tmp_path.iterdir()) == [corpus]  # no dataset, no temporary folder
    rep = job.run([corpus], tmp_path / "ds", executor="inline", keep_going=True)
    assert [f.file for f in rep.failed] == [str(corpus / "orders.csv")]
    assert "orders.csv" in rep.failed[0].error and is_dataset(tmp_path / "ds")


def test_an_existing_location_is_refused(corpus, tmp_path):
    (tmp_path / "ds").mkdir()
    with pytest.raises(ScaleError, match="location exists"):
        job.run([corpus], tmp_path / "ds", executor="inline")


def test_a_folder_without_manifest_is_an_ordinary_knowledge_base(corpus, tmp_path):
    rep = job.run([corpus], tmp_path / "ds", executor="inline")
    (Path(rep.location) / MANIFEST).unlink()  # an incomplete dataset is not recognised
    assert not is_dataset(rep.location)
