"""Write `answers_gold.jsonl`: the answer engine's gold questions over `sample_data/`.

Run by hand (never at test time): `python tests/data/make_answers_gold.py`. Expected values come
from the sample files themselves (pandas over the CSVs) or from the figures the data READMEs
state for the documents — never from the engine. Written before the parser it judges was tuned.

Each line: id, type (lookup, aggregate, comparison, trend, ranking, gap, conflict,
underspecified, typo), question, decision, numbers (each must appear in the answer text, within
`tol` absolute), entities (strings that must appear in the answer text), gaps (entity, attribute
pairs the answer must declare), conflict (whether the answer must expose a conflict).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
S = ROOT / "sample_data"
OUT = Path(__file__).resolve().parent / "answers_gold.jsonl"

rows: list[dict] = []


def q(type_: str, question: str, decision: str = "answer", numbers=(), entities=(), gaps=(),
      conflict: bool = False, tol: float = 0.01) -> None:
    rows.append({
        "id": f"{type_}-{sum(r['type'] == type_ for r in rows) + 1:03d}",
        "type": type_, "question": question, "decision": decision,
        "numbers": [round(float(n), 6) for n in numbers], "tol": tol,
        "entities": list(entities),
        "gaps": [{"entity": e, "attribute": a} for e, a in gaps],
        "conflict": conflict,
    })


sales = pd.read_csv(S / "sales.csv", parse_dates=["order_date"])
sales["year"] = sales.order_date.dt.year
hr = pd.read_csv(S / "hr.csv")
inv = pd.read_csv(S / "inventory.csv")
mkt = pd.read_csv(S / "marketing.csv")
mkt["year"] = mkt.quarter.str[:4].astype(int)
exp = pd.read_csv(S / "expenses.csv")
exp["year"] = exp.month.str[:4].astype(int)
cust = pd.read_csv(S / "customers.csv")
erp = pd.read_csv(S / "conflicts" / "erp_revenue.csv")


def rev(year: int, **flt: str) -> float:
    d = sales[sales.year == year]
    for k, v in flt.items():
        d = d[d[k] == v]
    return round(float(d.revenue.sum()), 2)


# --- lookups: sentences in the PDFs (docs/README.md) ---------------------------------------
for question, n in [
    ("What was the graduate employment rate of Crestwood College?", 88),
    ("How many registered nurses did Riverside Clinic employ in 2024?", 412),
    ("How many physicians did Riverside Clinic employ in 2024?", 57),
    ("How many outpatient visits did Riverside Clinic record in 2024?", 86300),
    ("How many inpatient admissions did Riverside Clinic have in 2024?", 4150),
    ("What was Riverside Clinic's operating revenue in 2024?", 212.4),
    ("How many licensed beds did Riverside Clinic have?", 310),
    ("What was the median starting salary of Crestwood College graduates in 2024?", 54300),
    ("What was Northgate University's research expenditure in 2024?", 96),
    ("How many students did Northgate University enroll in 2024?", 18240),
    ("How many undergraduates did Northgate University have in 2024?", 14900),
    ("What was the student-to-faculty ratio at Northgate University in 2024?", 17),
    ("What was the student-to-faculty ratio at Crestwood College in 2024?", 13),
    ("What was the six-year graduation rate of Northgate University?", 71),
    ("What was the first-year retention rate at Northgate University in 2024?", 86),
    ("What was the operating budget of Crestwood College in 2024?", 182.5),
    ("What was the response rate of Crestwood College in 2024?", 81),
    ("What was Kestrel Dynamics operating income in 2024?", 376.6),
    ("What was Kestrel Dynamics net income in 2024?", 278.6),
    ("What was the group revenue of Fjordline Logistics AS in 2024?", 1412.6),
    ("How many staff does Northgate University employ?", 1950),
    ("How many full-time faculty members did Crestwood College employ in 2024?", 412),
]:
    q("lookup", question, numbers=[n])

# --- lookups: cells of the wide income statement (sample_data/README.md) ----------------------
fin = {
    "Revenue": [1180.4, 1236.8, 1298.5, 1389.7, 1410.2, 1452.9, 1501.3, 1618.4, 5105.4, 5982.8],
    "Gross profit": [132.2, 148.4, 163.6, 186.2, 184.7, 196.1, 207.2, 229.8, 630.4, 817.8],
    "Operating income": [-16.7, -1.8, 10.0, 26.1, 26.3, 35.1, 43.5, 59.6, 17.6, 164.5],
    "Net income": [-20.9, -5.9, 4.5, 17.5, 17.9, 24.7, 31.6, 44.4, -4.8, 118.6],
    "Operating expenses": [-148.9, -150.2, -153.6, -160.1, -158.4, -161.0, -163.7, -170.2,
                           -612.8, -653.3],
}
periods = ["Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "Q1 2024", "Q2 2024", "Q3 2024",
           "Q4 2024", "FY2023", "FY2024"]
for item, picks in [("Revenue", [0, 4, 7, 9]), ("Gross profit", [2, 8]),
                    ("Operating income", [0, 5, 9]), ("Net income", [1, 6, 8]),
                    ("Operating expenses", [3])]:
    for i in picks:
        q("lookup", f"What was Northwind Traders {item.lower()} in {periods[i]}?",
          numbers=[fin[item][i]])

# --- lookups: single cells of the business tables --------------------------------------------
for eid in ["E1003", "E1005", "E1009", "E1012"]:
    q("lookup", f"What is the salary of employee {eid}?",
      numbers=[hr.set_index("employee_id").salary[eid]])
for eid in ["E1002", "E1011"]:
    q("lookup", f"What is the bonus of employee {eid}?",
      numbers=[hr.set_index("employee_id").bonus[eid]])
for sku in ["SKU-100-N", "SKU-103-E", "SKU-107-N"]:
    q("lookup", f"What is the stock on hand of {sku}?",
      numbers=[inv.set_index("sku").stock_on_hand[sku]])
q("lookup", "Which department does employee E1007 work in?",
  entities=[hr.set_index("employee_id").department["E1007"]])
q("lookup", "What is the lead time in days of SKU-100-S?",
  numbers=[inv.set_index("sku").lead_time_days["SKU-100-S"]])

# --- aggregates (SQL over the typed tables) ---------------------------------------------------
for y in (2022, 2023, 2024):
    q("aggregate", f"What was the total sales revenue in {y}?", numbers=[rev(y)])
    q("aggregate", f"How many orders were placed in {y}?", numbers=[int((sales.year == y).sum())])
    q("aggregate", f"What was the total expense amount in {y}?",
      numbers=[round(float(exp[exp.year == y].amount.sum()), 2)])
for region in ["North", "South", "East", "West"]:
    q("aggregate", f"What was the total sales revenue in the {region} region in 2024?",
      numbers=[rev(2024, region=region)])
act = hr[hr.status == "Active"]
for dep in ["Sales", "Engineering", "Finance", "Human Resources"]:
    q("aggregate", f"How many active employees are in the {dep} department?",
      numbers=[int((act.department == dep).sum())])
q("aggregate", "What was the total marketing spend in 2024?",
  numbers=[round(float(mkt[mkt.year == 2024].spend.sum()), 2)])
q("aggregate", "How many conversions did marketing record in 2024?",
  numbers=[int(mkt[mkt.year == 2024].conversions.sum())])
q("aggregate", "What is the average salary in the Finance department?",
  numbers=[round(float(hr[hr.department == "Finance"].salary.mean()), 2)])
q("aggregate", "What is the median salary in the Engineering department?",
  numbers=[round(float(hr[hr.department == "Engineering"].salary.median()), 2)])
q("aggregate", "How many customers are in the Enterprise segment?",
  numbers=[int((cust.segment == "Enterprise").sum())])
q("aggregate", "How many employees work in the West region?",
  numbers=[int((hr.region == "West").sum())])
q("aggregate", "What was the largest sales revenue of a single order in 2024?",
  numbers=[round(float(sales[sales.year == 2024].revenue.max()), 2)])
q("aggregate", "What was the total sales revenue for Software in 2023?",
  numbers=[rev(2023, category="Software")])

# --- comparisons ------------------------------------------------------------------------------
q("comparison", "Compare total sales revenue in 2023 and 2024.", numbers=[rev(2023), rev(2024)])
q("comparison", "Compare total sales revenue in 2022 and 2023.", numbers=[rev(2022), rev(2023)])
q("comparison", "Compare sales revenue of the North and South regions in 2024.",
  numbers=[rev(2024, region="North"), rev(2024, region="South")])
q("comparison", "Compare Northwind Traders revenue in Q1 2024 and Q4 2024.",
  numbers=[1410.2, 1618.4])
q("comparison", "Compare the student-to-faculty ratio of Crestwood College and Northgate "
  "University in 2024.", numbers=[13, 17])
q("comparison", "Compare the total expense amount in 2023 and 2024.",
  numbers=[round(float(exp[exp.year == y].amount.sum()), 2) for y in (2023, 2024)])
q("comparison", "What is the difference between West and East sales revenue in 2024?",
  numbers=[rev(2024, region="West"), rev(2024, region="East"),
           round(rev(2024, region="West") - rev(2024, region="East"), 2)])
q("comparison", "Compare Northwind Traders net income in FY2023 and FY2024.",
  numbers=[-4.8, 118.6])
q("comparison", "Compare the first-year retention rates of Crestwood College and Northgate "
  "University.", numbers=[91, 86])
q("comparison", "Compare total marketing spend in 2023 and 2024.",
  numbers=[round(float(mkt[mkt.year == y].spend.sum()), 2) for y in (2023, 2024)])


def growth(a: float, b: float) -> float:
    return round((b - a) / a * 100, 2)


def cagr(a: float, b: float, years: int) -> float:
    return round(((b / a) ** (1 / years) - 1) * 100, 2)


# --- trends and growth -----------------------------------------------------------------------
q("trend", "What was the growth of total sales revenue from 2022 to 2024?",
  numbers=[growth(rev(2022), rev(2024))])
q("trend", "What was the growth of total sales revenue from 2023 to 2024?",
  numbers=[growth(rev(2023), rev(2024))])
q("trend", "What was the CAGR of total sales revenue from 2022 to 2024?",
  numbers=[cagr(rev(2022), rev(2024), 2)])
q("trend", "What was the growth of Northwind Traders revenue from FY2023 to FY2024?",
  numbers=[growth(5105.4, 5982.8)])
q("trend", "What was the growth of the total expense amount from 2022 to 2024?",
  numbers=[growth(*[float(exp[exp.year == y].amount.sum()) for y in (2022, 2024)])])
q("trend", "What was the growth of total sales revenue in the West region from 2023 to 2024?",
  numbers=[growth(rev(2023, region="West"), rev(2024, region="West"))])
q("trend", "What was the CAGR of total marketing spend from 2022 to 2024?",
  numbers=[cagr(*[float(mkt[mkt.year == y].spend.sum()) for y in (2022, 2024)], 2)])
q("trend", "How did total sales revenue trend from 2022 to 2024?",
  numbers=[rev(2022), rev(2023), rev(2024)])
q("trend", "What was the growth of Northwind Traders gross profit from FY2023 to FY2024?",
  numbers=[growth(630.4, 817.8)])
q("trend", "What was the growth of total sales revenue in the South region from 2022 to 2024?",
  numbers=[growth(rev(2022, region="South"), rev(2024, region="South"))])

# --- rankings ---------------------------------------------------------------------------------


def top(frame: pd.DataFrame, by: str, measure: str, n: int = 1, asc: bool = False) -> list[str]:
    s = frame.groupby(by)[measure].sum().sort_values(ascending=asc)
    return list(s.index[:n])


q("ranking", "Which region had the highest sales revenue in 2024?",
  entities=top(sales[sales.year == 2024], "region", "revenue"))
q("ranking", "Which region had the highest sales revenue in 2022?",
  entities=top(sales[sales.year == 2022], "region", "revenue"))
q("ranking", "Which region had the lowest sales revenue in 2022?",
  entities=top(sales[sales.year == 2022], "region", "revenue", asc=True))
q("ranking", "What were the top 3 products by sales revenue in 2024?",
  entities=top(sales[sales.year == 2024], "product", "revenue", 3))
q("ranking", "Which department had the highest total expense amount in 2024?",
  entities=top(exp[exp.year == 2024], "department", "amount"))
q("ranking", "Which channel had the highest marketing spend in 2024?",
  entities=top(mkt[mkt.year == 2024], "channel", "spend"))
q("ranking", "Which category had the highest sales revenue in 2023?",
  entities=top(sales[sales.year == 2023], "category", "revenue"))
q("ranking", "Which region had the highest marketing spend in 2024?",
  entities=top(mkt[mkt.year == 2024], "region", "spend"))
q("ranking", "What are the top 2 departments by average salary?",
  entities=list(hr.groupby("department").salary.mean().sort_values(ascending=False).index[:2]))
q("ranking", "Which product had the lowest sales revenue in 2024?",
  entities=top(sales[sales.year == 2024], "product", "revenue", asc=True))

# --- knowledge gaps (docs/README.md: what the documents deliberately do not state) -----------
NU, CC, RC = "Northgate University", "Crestwood College", "Riverside Clinic"
q("gap", "What is the graduate employment rate of Northgate University?", "abstain",
  gaps=[(NU, "graduate employment rate")])
q("gap", "Compare the graduate employment rates of Crestwood College and Northgate University.",
  "needs_verification", numbers=[88], gaps=[(NU, "graduate employment rate")])
q("gap", "What is Riverside Clinic's nurse turnover rate?", "abstain",
  gaps=[(RC, "nurse turnover rate")])
q("gap", "What was Kestrel Dynamics revenue by customer in 2024?", "abstain",
  gaps=[("Kestrel Dynamics", "revenue by customer")])
q("gap", "What is the median starting salary of Northgate University graduates?", "abstain",
  gaps=[(NU, "median starting salary")])
q("gap", "What was the research expenditure of Crestwood College in 2024?", "abstain",
  gaps=[(CC, "research expenditure")])
q("gap", "What was the six-year graduation rate of Crestwood College?", "abstain",
  gaps=[(CC, "six-year graduation rate")])
q("gap", "What was the charter income of Fjordline Logistics AS in 2024?", "abstain",
  gaps=[("Fjordline Logistics AS", "charter income")])
q("gap", "What is the graduate employment rate of Riverside Clinic?", "abstain",
  gaps=[(RC, "graduate employment rate")])
q("gap", "How many inpatient admissions did Northgate University have in 2024?", "abstain",
  gaps=[(NU, "inpatient admissions")])
q("gap", "Compare the research expenditure of Northgate University and Crestwood College in "
  "2024.", "needs_verification", numbers=[96], gaps=[(CC, "research expenditure")])
q("gap", "How many licensed beds does Crestwood College have?", "abstain",
  gaps=[(CC, "licensed beds")])
q("gap", "What was the operating budget of Northgate University in 2024?", "abstain",
  gaps=[(NU, "operating budget")])
q("gap", "Compare the median starting salary of Crestwood College and Northgate University "
  "graduates in 2024.", "needs_verification", numbers=[54300],
  gaps=[(NU, "median starting salary")])
q("gap", "How many physicians did Crestwood College employ in 2024?", "abstain",
  gaps=[(CC, "physicians")])
q("gap", "What was Riverside Clinic's response rate in 2024?", "abstain",
  gaps=[(RC, "response rate")])

# --- conflicts (sample_data/README.md: the three ERP / CRM disagreements) ---------------------
q("conflict", "What was the revenue of the North region in 2023Q4?", "needs_verification",
  numbers=[59595.03, 65554.53], conflict=True)
q("conflict", "What was East region revenue in Q2 2024?", "needs_verification",
  numbers=[30708.00, 29708.00], conflict=True)
q("conflict", "What was the West region revenue in 2024Q4?", "needs_verification",
  numbers=[80537.00, 81000.00], conflict=True)
q("conflict", "What was Kestrel Dynamics free cash flow in 2024?", "needs_verification",
  numbers=[158.0, 148.0], conflict=True)
e = erp.set_index(["region", "quarter"]).revenue
q("conflict", "What was the revenue of the South region in 2023Q1?",
  numbers=[e["South", "2023Q1"]])
q("conflict", "What was the revenue of the North region in 2024Q3?",
  numbers=[e["North", "2024Q3"]])
q("conflict", "What was the ERP revenue of the North region in 2023Q4?",
  numbers=[e["North", "2023Q4"]])
q("conflict", "What was the CRM revenue of the East region in 2024Q2?", numbers=[29708.00])

# --- underspecified (clarify) -----------------------------------------------------------------
for question in [
    "What was the revenue?",
    "What is the total?",
    "Show me the growth.",
    "What is the average?",
    "Which region is the largest?",
    "What was the revenue in the West region?",
    "What was Northwind Traders net income?",
    "What was Kestrel Dynamics revenue?",
    "Compare the regions.",
    "How much was spent?",
]:
    q("underspecified", question, "clarify")

# --- typos, plurals, case ----------------------------------------------------------------------
q("typo", "What was the graduate employmnet rate of Crestwod College?", numbers=[88])
q("typo", "How many registred nurses did Riverside Clinc employ in 2024?", numbers=[412])
q("typo", "What was the total sales revenu in the Wset region in 2024?",
  numbers=[rev(2024, region="West")])
q("typo", "How many active employes are in the Enginering department?",
  numbers=[int((act.department == "Engineering").sum())])
q("typo", "What was Northwind Traders revnue in Q1 2024?", numbers=[1410.2])
q("typo", "Which regoin had the highest sales revenue in 2024?",
  entities=top(sales[sales.year == 2024], "region", "revenue"))
q("typo", "What was the totl marketing spend in 2024?",
  numbers=[round(float(mkt[mkt.year == 2024].spend.sum()), 2)])
q("typo", "what is the salary of employee e1005", numbers=[69800])
q("typo", "What is the stock on hand of sku-100-w?",
  numbers=[inv.set_index("sku").stock_on_hand["SKU-100-W"]])
q("typo", "Compare graduate employment rates of Crestwood Colege and Northgate Univercity.",
  "needs_verification", numbers=[88], gaps=[(NU, "graduate employment rate")])
q("typo", "What were the total sales revenues in 2023?", numbers=[rev(2023)])
q("typo", "How many physician did Riverside Clinic employ in 2024?", numbers=[57])
q("typo", "What was the totl sales revenue in the Noth region in 2024?",
  numbers=[rev(2024, region="North")])
q("typo", "How many orders were placd in 2023?", numbers=[int((sales.year == 2023).sum())])
q("typo", "WHAT WAS THE OPERATING BUDGET OF CRESTWOOD COLLEGE IN 2024?", numbers=[182.5])

if __name__ == "__main__":
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                   encoding="utf-8")
    from collections import Counter

    print(f"wrote {len(rows)} questions to {OUT}: {dict(Counter(r['type'] for r in rows))}")
