"""Writes tests/data/retrieval_gold.jsonl: the labelled retrieval set `hyrag bench retrieval`
scores against. Run by hand (python tests/data/make_retrieval_gold.py), never at test time.

Questions are drawn with a fixed seed from the sample CSVs (read with pandas, not with the
engine) and from the documents' sentences; each names its gold claims by source file and
locator, never by claim id (CONTRACT.md). Categories: lookup (by id), name (lookup by a person's
or customer's name), period (an aggregate in a period), comparison (two gold claims), paraphrase
(words that are not the column's), typo (a misspelt name), text (a sentence of a document).
Table locators follow the engine's documented form: cells {"file","row","column","cell"} with
row = the file line (header = 1); aggregates {"file","column","aggregate":
"<fn>(<column>) | <group>=<value> | <period>"}.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "sample_data"
OUT = Path(__file__).with_name("retrieval_gold.jsonl")
rng = np.random.default_rng(4)


def cell(file: str, df: pd.DataFrame, i: int, col: str) -> dict:
    letter = string.ascii_uppercase[list(df.columns).index(col)]
    return {
        "file": file,
        "locator": {"file": file, "row": i + 2, "column": col, "cell": f"{letter}{i + 2}"},
    }


def agg(file: str, fn: str, col: str, group: str | None, value: str | None, period: str) -> dict:
    g = "all" if group is None else f"{group}={value}"
    return {
        "file": file,
        "locator": {"file": file, "column": col, "aggregate": f"{fn}({col}) | {g} | {period}"},
    }


def text(file: str, **loc: object) -> dict:
    return {"file": file, "locator": {"file": file, **loc}}


def typo(word: str) -> str:
    """Swap two adjacent letters inside the longest word (a transposition typo)."""
    parts = word.split(" ")
    j = max(range(len(parts)), key=lambda k: len(parts[k]))
    w = parts[j]
    i = 1 + int(rng.integers(max(1, len(w) - 3)))
    parts[j] = w[:i] + w[i + 1] + w[i] + w[i + 2 :]
    return " ".join(parts)


def pick(n: int, k: int) -> list[int]:
    return sorted(rng.choice(n, size=k, replace=False).tolist())


qs: list[dict] = []


def add(cat: str, q: str, *gold: dict) -> None:
    qs.append({"id": f"q{len(qs) + 1:03d}", "category": cat, "question": q, "gold": list(gold)})


sales = pd.read_csv(DATA / "sales.csv", dtype=str)
hr = pd.read_csv(DATA / "hr.csv", dtype=str)
cust = pd.read_csv(DATA / "customers.csv", dtype=str)
inv = pd.read_csv(DATA / "inventory.csv", dtype=str)
mkt = pd.read_csv(DATA / "marketing.csv", dtype=str)

# -- lookups by id (30) -------------------------------------------------------------------------
for i, col in zip(
    pick(len(sales), 10), ["revenue", "units", "cost", "unit_price"] * 3, strict=False
):
    word = {"unit_price": "unit price"}.get(col, col)
    add(
        "lookup",
        f"What was the {word} of order {sales.order_id[i]}?",
        cell("sales.csv", sales, i, col),
    )
for i, col in zip(pick(len(hr), 6), ["salary", "performance_rating", "salary"] * 2, strict=False):
    word = col.replace("_", " ")
    add(
        "lookup", f"What is the {word} of employee {hr.employee_id[i]}?", cell("hr.csv", hr, i, col)
    )
for i in pick(len(cust), 5):
    add(
        "lookup",
        f"What is the credit limit of customer {cust.customer_id[i]}?",
        cell("customers.csv", cust, i, "credit_limit"),
    )
for i, col in zip(
    pick(len(inv), 5),
    ["stock_on_hand", "unit_cost", "reorder_level", "stock_on_hand", "lead_time_days"],
    strict=True,
):
    add(
        "lookup",
        f"{col.replace('_', ' ').capitalize()} for {inv.sku[i]}?",
        cell("inventory.csv", inv, i, col),
    )
for i, col in zip(
    pick(len(mkt), 4), ["spend", "clicks", "conversions", "impressions"], strict=True
):
    add(
        "lookup",
        f"How many {col} did campaign {mkt.campaign_id[i]} have?"
        if col != "spend"
        else f"What was the spend of campaign {mkt.campaign_id[i]}?",
        cell("marketing.csv", mkt, i, col),
    )

# -- lookups by name (10) -----------------------------------------------------------------------
active = hr.index[hr.full_name.map(hr.full_name.value_counts()) == 1].tolist()
for i in [active[j] for j in pick(len(active), 5)]:
    add("name", f"What is {hr.full_name[i]}'s salary?", cell("hr.csv", hr, i, "salary"))
uniq = cust.index[cust.customer_name.map(cust.customer_name.value_counts()) == 1].tolist()
for i in [uniq[j] for j in pick(len(uniq), 5)]:
    add(
        "name",
        f"What credit limit does {cust.customer_name[i]} have?",
        cell("customers.csv", cust, i, "credit_limit"),
    )

# -- periods (30) -------------------------------------------------------------------------------
regions = ["North", "South", "East", "West"]
channels = sorted(sales.channel.unique())
mchannels = sorted(mkt.channel.unique())
quarters = [f"{y}Q{q}" for y in (2022, 2023, 2024) for q in (1, 2, 3, 4)]


def qphrase(k: str, style: int) -> str:
    y, q = k.split("Q")
    return [
        f"in {k}",
        f"in Q{q} {y}",
        f"in the {['first', 'second', 'third', 'fourth'][int(q) - 1]} quarter of {y}",
    ][style % 3]


for j in range(10):
    r, k = regions[j % 4], quarters[int(rng.integers(12))]
    add(
        "period",
        f"Total sales revenue of the {r} region {qphrase(k, j)}?",
        agg("sales.csv", "sum", "revenue", "region", r, k),
    )
for j in range(6):
    c, y = channels[j % len(channels)], str(2022 + j % 3)
    add(
        "period",
        f"What was the total sales revenue of the {c} channel in {y}?",
        agg("sales.csv", "sum", "revenue", "channel", c, y),
    )
for j in range(8):
    c, k = mchannels[j % len(mchannels)], quarters[int(rng.integers(12))]
    add(
        "period",
        f"Marketing spend on {c} {qphrase(k, j)}?",
        agg("marketing.csv", "sum", "spend", "channel", c, k),
    )
depts = ["Sales", "Marketing", "Engineering", "Finance", "Operations", "Human Resources"]
for j in range(6):
    d, y = depts[j], str(2022 + j % 3)
    add(
        "period",
        f"Total expenses amount of the {d} department in {y}?",
        agg("expenses.csv", "sum", "amount", "department", d, y),
    )

# -- comparisons (20) ---------------------------------------------------------------------------
for j in range(8):
    a, b = regions[j % 4], regions[(j + 1 + j // 4) % 4]
    y = str(2022 + j % 3)
    add(
        "comparison",
        f"Compare total sales revenue of {a} and {b} in {y}",
        agg("sales.csv", "sum", "revenue", "region", a, y),
        agg("sales.csv", "sum", "revenue", "region", b, y),
    )
for j in range(6):
    a, b = mchannels[j % 5], mchannels[(j + 2) % 5]
    k = quarters[int(rng.integers(12))]
    add(
        "comparison",
        f"{a} versus {b} marketing spend in {k}",
        agg("marketing.csv", "sum", "spend", "channel", a, k),
        agg("marketing.csv", "sum", "spend", "channel", b, k),
    )
for j in range(4):
    a, b = depts[j], depts[j + 2]
    y = str(2022 + j % 3)
    add(
        "comparison",
        f"Did {a} or {b} have higher expenses amount in {y}?",
        agg("expenses.csv", "sum", "amount", "department", a, y),
        agg("expenses.csv", "sum", "amount", "department", b, y),
    )
add(
    "comparison",
    "Compare the student-to-faculty ratio of Crestwood College and Northgate University",
    text("crestwood_academics_2024.pdf", page=1, paragraph=2, sentence=0, span=[33, 40]),
    text("northgate_academics_2024.pdf", page=1, paragraph=1, sentence=1, span=[33, 40]),
)
add(
    "comparison",
    "Compare first-year retention at Crestwood and Northgate",
    text("crestwood_academics_2024.pdf", page=1, paragraph=2, sentence=1, span=[34, 44]),
    text("northgate_academics_2024.pdf", page=1, paragraph=2, sentence=0, span=[58, 68]),
)

# -- paraphrases (15) ---------------------------------------------------------------------------
for j in range(4):
    c, y = channels[j % len(channels)], str(2022 + (j + 1) % 3)
    add(
        "paraphrase",
        f"How much money did the {c} channel bring in during {y}?",
        agg("sales.csv", "sum", "revenue", "channel", c, y),
    )
for j in range(3):
    d, y = depts[(j + 3) % 6], str(2022 + j)
    add(
        "paraphrase",
        f"How much did the {d} department spend in {y}?",
        agg("expenses.csv", "sum", "amount", "department", d, y),
    )
for i in [active[j] for j in pick(len(active), 3)]:
    add(
        "paraphrase",
        f"How much is {hr.full_name[i]} paid per year?",
        cell("hr.csv", hr, i, "salary"),
    )
add(
    "paraphrase",
    "How many people work for Northgate?",
    text("northgate_overview_2024.pdf", page=1, paragraph=3, sentence=0, span=[29, 34]),
)
add(
    "paraphrase",
    "When was Crestwood College established?",
    text("crestwood_overview_2024.pdf", page=1, paragraph=1, sentence=1),
)
add(
    "paraphrase",
    "Where is Fjordline based?",
    text("fjordline_segments_2024.pdf", page=1, paragraph=1, sentence=0),
)
add(
    "paraphrase",
    "How many books are in the Hale Library?",
    text("crestwood_facilities_2024.pdf", page=1, paragraph=1, sentence=1, span=[23, 30]),
)
add(
    "paraphrase",
    "How much land does the main Crestwood campus occupy?",
    text("crestwood_facilities_2024.pdf", page=1, paragraph=1, sentence=0, span=[33, 36]),
)

# -- typos (15) ---------------------------------------------------------------------------------
for i in [active[j] for j in pick(len(active), 5)]:
    add("typo", f"What is the salary of {typo(hr.full_name[i])}?", cell("hr.csv", hr, i, "salary"))
for j in range(4):
    r, y = regions[j], str(2022 + j % 3)
    add(
        "typo",
        f"Total sales revenue of the {typo(r)} region in {y}?",
        agg("sales.csv", "sum", "revenue", "region", r, y),
    )
for i in [uniq[j] for j in pick(len(uniq), 3)]:
    add(
        "typo",
        f"Credit limit of {typo(cust.customer_name[i])}?",
        cell("customers.csv", cust, i, "credit_limit"),
    )
add(
    "typo",
    "Crestwod College operating budget in fiscal 2024",
    text("crestwood_overview_2024.pdf", page=1, paragraph=4, sentence=0, span=[35, 49]),
)
add(
    "typo",
    "How many students did Nortghate University enrol in fall 2024?",
    text("northgate_overview_2024.pdf", page=1, paragraph=2, sentence=0, span=[44, 50]),
)
add(
    "typo",
    "How many beds does Riversdie Clinic have?",
    text("riverside_clinic_2024.pdf", page=1, paragraph=3, sentence=0, span=[46, 49]),
)

# -- text lookups (12) --------------------------------------------------------------------------
T = [
    (
        "What is the graduate employment rate of Crestwood College for the class of 2024?",
        text(
            "crestwood_employment_outcomes_2024.pdf", page=1, paragraph=2, sentence=0, span=[54, 64]
        ),
    ),
    (
        "What was the median starting salary of Crestwood graduates in 2024?",
        text(
            "crestwood_employment_outcomes_2024.pdf", page=1, paragraph=3, sentence=0, span=[62, 69]
        ),
    ),
    (
        "How many undergraduate students did Crestwood College enrol in fall 2024?",
        text("crestwood_overview_2024.pdf", page=1, paragraph=2, sentence=0, span=[41, 46]),
    ),
    (
        "What was Fjordline's group revenue in 2024?",
        text("fjordline_segments_2024.pdf", page=1, paragraph=1, sentence=1, span=[18, 37]),
    ),
    (
        "What was Northgate University's research expenditure in fiscal 2024?",
        text("northgate_overview_2024.pdf", page=1, paragraph=2, sentence=1, span=[29, 40]),
    ),
    (
        "How many registered nurses did Riverside Clinic employ in 2024?",
        text("riverside_clinic_2024.pdf", page=1, paragraph=1, sentence=0, span=[26, 29]),
    ),
    (
        "What was Riverside Clinic's operating revenue in fiscal 2024?",
        text("riverside_clinic_2024.pdf", page=1, paragraph=2, sentence=0, span=[33, 47]),
    ),
    (
        "What EBITDA did Harbor Health Partners report in H1 2024?",
        text("market_notes.md", paragraph=6, sentence=1, span=[29, 42]),
    ),
    (
        "How many people did Baltic Bakeries employ in 2024?",
        text("market_notes.md", paragraph=4, sentence=1, span=[54, 64]),
    ),
    ("Who acquired Baltic Bakeries Ltd?", text("market_notes.md", paragraph=3, sentence=1)),
    (
        "How many master's programs does Northgate University offer?",
        text("northgate_academics_2024.pdf", page=1, paragraph=1, sentence=0, span=[56, 58]),
    ),
    (
        "How much did Fjordline's fuel costs rise in the third quarter of 2024?",
        text("market_notes.md", paragraph=11, sentence=1, span=[50, 53]),
    ),
]
for q, g in T:
    add("text", q, g)

with OUT.open("w", encoding="utf-8") as f:
    for q in qs:
        f.write(json.dumps(q, ensure_ascii=False) + "\n")
print(f"wrote {len(qs)} questions to {OUT}")
