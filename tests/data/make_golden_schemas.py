"""Write tests/data/golden_schemas.json from the current inference, by hand, after review.

    python tests/data/make_golden_schemas.py

The golden file is the reviewed expectation: regenerate it only when a change to inference is
intended, and read the diff before committing it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ingest.readers import read_path  # noqa: E402
from ingest.typed import prepare_table  # noqa: E402

FILES = [
    "sales.csv", "customers.csv", "expenses.csv", "inventory.csv", "hr.csv", "marketing.csv",
    "alt/clinics.csv", "alt/staffing.csv", "alt/patient_visits.csv", "alt/budgets.csv",
    "conflicts/erp_revenue.csv", "conflicts/crm_revenue.csv", "messy/formats.csv",
    "messy/suppliers_cp1252.csv", "messy/financials_wide.xlsx", "messy/regional_report.xlsx",
]


def golden() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in FILES:
        for raw in read_path(ROOT / "sample_data" / f):
            t = prepare_table(raw)
            out[f"{f}::{raw.name}"] = {
                "melted": t.melted,
                "id_column": t.schema.id_column,
                "time_column": t.schema.time_column,
                "entity_columns": list(t.schema.entity_columns),
                "columns": {
                    c.name: {"role": c.role.value, "unit": c.unit, "scale": c.scale}
                    for c in t.schema.columns
                },
            }
    return out


if __name__ == "__main__":
    path = ROOT / "tests" / "data" / "golden_schemas.json"
    path.write_text(json.dumps(golden(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")
