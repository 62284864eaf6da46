"""Execute examples/quickstart.ipynb top to bottom in a real Jupyter kernel and check what it
shows: the Crestwood/Northgate gap declared, the ERP/CRM conflict with both values, the SQL
route, the entropy plot, no cell errors, under 90 s.

The kernel is this interpreter: a kernel spec written to a temporary folder runs
`sys.executable -m ipykernel_launcher` (never a `python3` found elsewhere on the machine), with
the repository on PYTHONPATH so an uninstalled checkout works too. No network is used.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "quickstart.ipynb"
KERNEL = "hyrag-test-python"


def test_notebook_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.id


@pytest.fixture()
def kernel_manager(tmp_path):
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec_dir = tmp_path / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    # the notebook makes its working folder with tempfile.mkdtemp, as a user's would; in the
    # test that folder lives under the test's own temporary folder, so no run leaves one behind
    (tmp_path / "tmp").mkdir()
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "HyRAG test (this interpreter)",
        "language": "python",
        "env": {"PYTHONPATH": str(ROOT), "IPYTHONDIR": str(tmp_path / "ipython"),
                "MPLCONFIGDIR": str(tmp_path / "mpl"), "TMPDIR": str(tmp_path / "tmp")},
    }))
    ksm = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")], ensure_native_kernel=False)
    assert ksm.get_kernel_spec(KERNEL).argv[0] == sys.executable
    return KernelManager(kernel_name=KERNEL, kernel_spec_manager=ksm)


def _outputs(cell) -> dict[str, str]:
    """mime type -> joined content of a cell's outputs (streams under 'stream')."""
    out: dict[str, str] = {}
    for o in cell.outputs:
        if o.output_type == "stream":
            out["stream"] = out.get("stream", "") + o.text
        elif o.output_type in ("execute_result", "display_data"):
            for mime, data in o.data.items():
                out[mime] = out.get(mime, "") + (data if isinstance(data, str) else str(data))
        elif o.output_type == "error":
            out["error"] = f"{o.ename}: {o.evalue}"
    return out


def test_quickstart_runs_top_to_bottom(kernel_manager):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb, km=kernel_manager, timeout=90, allow_errors=False,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    t0 = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - t0
    assert elapsed < 90, f"notebook took {elapsed:.1f} s"

    cells = {c.id: _outputs(c) for c in nb.cells if c.cell_type == "code"}
    for cid, out in cells.items():
        assert "error" not in out, (cid, out["error"])
        assert "Traceback" not in out.get("stream", ""), cid

    # ingestion and the knowledge base display
    assert "sales.csv" in cells["ingest"]["text/html"]
    kb_html = cells["kb"]["text/html"]
    assert "hyrag-tables" in kb_html and "erp_revenue" in kb_html and "crm_revenue" in kb_html
    assert "region" in cells["schema"]["text/html"]

    # the Crestwood / Northgate gap is declared in its own section
    gap = cells["gap"]["text/html"]
    assert "hyrag-gaps" in gap and "Knowledge Gaps" in gap
    gaps_section = gap[gap.index('<section class="hyrag-gaps">'):]
    gaps_section = gaps_section[:gaps_section.index("</section>")]
    assert "Northgate University" in gaps_section
    assert "88 percent" in gap  # Crestwood's rate is answered, with its citation
    assert "Northgate University" in cells["gap_frame"]["text/plain"]

    # the ERP/CRM conflict shows both values with their sources
    conflict = cells["conflict"]["text/html"]
    assert "hyrag-conflicts" in conflict
    sec = conflict[conflict.index('<section class="hyrag-conflicts">'):]
    sec = sec[:sec.index("</section>")]
    for needle in ("65554.53", "59595.03", "crm_revenue.csv", "erp_revenue.csv"):
        assert needle in sec, needle
    assert "needs_verification" in conflict

    # the other demo questions: a lookup, a comparison, a derivation, a clarify case
    assert ">answer<" in cells["lookup"]["text/html"] and "88 percent" in cells["lookup"]["text/html"]
    assert "412" in cells["lookup2"]["text/html"]
    assert "672,527.24" in cells["comparison"]["text/html"]
    assert "hyrag-derivations" in cells["growth"]["text/html"]
    assert ">clarify<" in cells["clarify"]["text/html"]

    # the SQL route, as a QueryResult and as a DataFrame
    assert "North" in cells["sql"]["text/html"] and "hyrag-sql" in cells["sql"]["text/html"]
    assert "region" in cells["sql_frame"]["text/plain"]

    # the entropy trace: printed and plotted as a PNG
    assert "entropy per step" in cells["entropy"]["stream"]
    assert "image/png" in cells["entropy"]
