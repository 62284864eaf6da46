"""Deterministic generator for everything under sample_data/.

Run by hand, never at test time:

    python sample_data/generate.py

It rewrites every file in this folder (CSV, XLSX, README.md) from a seeded numpy RNG, so two runs
give byte-identical files. Spreadsheet writers embed timestamps; here the workbook properties are
fixed and every XLSX is re-packed with fixed zip entry dates. A changed byte changes a source's
sha256 and with it every claim id, so regenerate only on purpose and commit the result together
with any gold set that names these files.
"""

from __future__ import annotations

import calendar
import datetime as dt
import io
import re
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.writer.excel import ExcelWriter

SEED = 20240315
ROOT = Path(__file__).resolve().parent
FIXED_TIME = dt.datetime(2024, 12, 31, 12, 0, 0)
ZIP_TIME = (2024, 12, 31, 12, 0, 0)

YEARS = (2022, 2023, 2024)
REGIONS = ("North", "South", "East", "West")
QUARTERS = tuple(f"{y}Q{q}" for y in YEARS for q in range(1, 5))
MONTHS = tuple(f"{y}-{m:02d}" for y in YEARS for m in range(1, 13))

# product, category, list price 2024, unit cost 2024, popularity weight
PRODUCTS = (
    ("Laptop Pro 14", "Electronics", 1299.00, 940.00, 5),
    ("Laptop Air 13", "Electronics", 999.00, 720.00, 6),
    ("27in Monitor", "Electronics", 329.00, 214.00, 7),
    ("Wireless Mouse", "Electronics", 29.00, 12.50, 9),
    ("Mechanical Keyboard", "Electronics", 89.00, 46.00, 7),
    ("Ergonomic Chair", "Furniture", 249.00, 150.00, 6),
    ("Standing Desk", "Furniture", 499.00, 310.00, 4),
    ("Bookshelf", "Furniture", 129.00, 71.00, 3),
    ("Filing Cabinet", "Furniture", 179.00, 104.00, 3),
    ("Printer Paper Box", "Office Supplies", 39.00, 24.00, 8),
    ("Ink Cartridge Set", "Office Supplies", 59.00, 31.00, 7),
    ("Desk Organizer", "Office Supplies", 24.00, 11.00, 5),
    ("Office Suite License", "Software", 149.00, 45.00, 6),
    ("Antivirus Annual", "Software", 49.00, 14.00, 5),
    ("Cloud Backup Plan", "Software", 99.00, 33.00, 4),
)
CATEGORIES = ("Electronics", "Furniture", "Office Supplies", "Software")
PRICE_GROWTH = 1.03  # list prices rise 3% a year; the table above is 2024

DEPARTMENTS = ("Sales", "Marketing", "Engineering", "Finance", "Operations", "Human Resources")
CITIES = {
    "North": ("Minneapolis", "Chicago", "Detroit"),
    "South": ("Atlanta", "Dallas", "Miami"),
    "East": ("Boston", "New York", "Philadelphia"),
    "West": ("Seattle", "San Francisco", "Denver"),
}

# Suppliers: the same names appear in inventory.csv and in messy/suppliers_cp1252.csv.
SUPPLIERS = (
    # supplier_id, name, country, city, contact, annual_spend, rating, since, notes
    ("SUP-01", "Société Générale d’Équipement", "France", "Lyon", "Élodie Carré",
     412000, 4, "2016-03-01", "Prix en € HT"),
    ("SUP-02", "Müller GmbH", "Germany", "München", "Jürgen Müller",
     298500, 5, "2014-07-15", "Lieferung ab Lager"),
    ("SUP-03", "Café Olé Distribution", "Spain", "Málaga", "Iñaki Peña",
     61200, 3, "2019-11-04", "Pedido mínimo 500 €"),
    ("SUP-04", "Ångström Components AB", "Sweden", "Göteborg", "Åsa Lindström",
     187300, 4, "2017-02-20", "Net 30"),
    ("SUP-05", "Škoda Office Supply s.r.o.", "Czechia", "Brno", "Tomáš Novák",
     95400, 3, "2020-05-11", "Faktura v €"),
    ("SUP-06", "O’Brien & Søn Trading", "Ireland", "Cork", "Siobhán O’Brien",
     143900, 4, "2018-09-30", "“Preferred” vendor"),
    ("SUP-07", "Crème de la Crème Mobilier", "France", "Nantes", "François Lefèvre",
     226100, 5, "2015-01-12", "Délai 3 semaines"),
    ("SUP-08", "Bräuer & Söhne KG", "Austria", "Graz", "Jörg Bräuer",
     78800, 2, "2021-06-01", "Qualität prüfen"),
    ("SUP-09", "Nuñez y Hermanos S.A.", "Spain", "Córdoba", "Begoña Nuñez",
     54300, 3, "2022-03-14", "Envío incluido"),
    ("SUP-10", "Œuvre Numérique SARL", "France", "Besançon", "Gaëlle Rœsch",
     167000, 4, "2019-08-26", "Licences logicielles"),
)
# Which supplier stocks which category (names must be in SUPPLIERS).
CATEGORY_SUPPLIERS = {
    "Electronics": ("Müller GmbH", "Ångström Components AB", "O’Brien & Søn Trading"),
    "Furniture": ("Crème de la Crème Mobilier", "Société Générale d’Équipement",
                  "Bräuer & Söhne KG"),
    "Office Supplies": ("Škoda Office Supply s.r.o.", "Café Olé Distribution",
                        "Nuñez y Hermanos S.A."),
    "Software": ("Œuvre Numérique SARL", "O’Brien & Søn Trading"),
}


def rng_for(name: str) -> np.random.Generator:
    """One independent stream per output, so editing one table leaves the others' bytes alone."""
    return np.random.default_rng([SEED, sum(ord(c) * (i + 1) for i, c in enumerate(name))])


# ---------------------------------------------------------------------------------------------
# writers


def write_csv(df: pd.DataFrame, path: Path, money: tuple[str, ...] = (),
              one_dp: tuple[str, ...] = ()) -> None:
    """Plain UTF-8 CSV, LF line ends; money columns with 2 decimals, one_dp with 1."""
    out = df.copy()
    for col in money:
        out[col] = out[col].map(lambda v: "" if pd.isna(v) else f"{v:.2f}")
    for col in one_dp:
        out[col] = out[col].map(lambda v: "" if pd.isna(v) else f"{v:.1f}")
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")


def save_workbook(wb: Workbook, path: Path, patches: dict[str, dict[str, str]] | None = None
                  ) -> None:
    """Save with fixed properties and fixed zip dates; optionally inject cached formula values.

    `patches` maps a part name ("xl/worksheets/sheet2.xml") to {cell ref: cached value text}.
    """
    wb.properties.creator = "HyRAG sample generator"
    wb.properties.lastModifiedBy = "HyRAG sample generator"
    wb.properties.created = FIXED_TIME
    wb.properties.modified = FIXED_TIME
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        # ExcelWriter directly: openpyxl's save_workbook() would overwrite `modified` with now.
        ExcelWriter(wb, archive).save()
    buf.seek(0)
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if patches and info.filename in patches:
                data = inject_cached_values(data, patches[info.filename])
            fixed = zipfile.ZipInfo(info.filename, date_time=ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def inject_cached_values(xml: bytes, values: dict[str, str]) -> bytes:
    """Give each formula cell `<c r=REF><f>..</f><v/></c>` the cached value `<v>..</v>`."""
    text = xml.decode("utf-8")
    done = set()

    def repl(m: re.Match) -> str:
        ref = m.group(2)
        if ref not in values:
            return m.group(0)
        done.add(ref)
        return f"{m.group(1)}{m.group(3)}<v>{values[ref]}</v></c>"

    text = re.sub(r'(<c r="([A-Z]+[0-9]+)"[^>]*>)(<f>[^<]*</f>)(?:<v\s*/>|<v>[^<]*</v>)?</c>',
                  repl, text)
    missing = set(values) - done
    if missing:
        raise RuntimeError(f"formula cells not found for cached values: {sorted(missing)}")
    return text.encode("utf-8")


def excel_number(v: float) -> str:
    """How a cached numeric value is written in sheet XML (float noise rounded away)."""
    v = round(float(v), 12) + 0.0
    return repr(v) if not v.is_integer() else str(int(v))


# ---------------------------------------------------------------------------------------------
# the six business tables


def make_hr() -> pd.DataFrame:
    rng = rng_for("hr")
    sizes = {"Sales": 80, "Marketing": 30, "Engineering": 90, "Finance": 25, "Operations": 50,
             "Human Resources": 25}
    titles = {
        "Sales": (("Sales Representative", 62000), ("Account Manager", 78000),
                  ("Sales Manager", 105000)),
        "Marketing": (("Marketing Specialist", 64000), ("Content Strategist", 70000),
                      ("Marketing Manager", 102000)),
        "Engineering": (("Software Engineer", 112000), ("Senior Software Engineer", 138000),
                        ("Engineering Manager", 162000)),
        "Finance": (("Accountant", 68000), ("Financial Analyst", 82000),
                    ("Finance Manager", 118000)),
        "Operations": (("Warehouse Associate", 42000), ("Logistics Coordinator", 56000),
                       ("Operations Manager", 96000)),
        "Human Resources": (("HR Generalist", 60000), ("Recruiter", 66000),
                            ("HR Manager", 98000)),
    }
    first = ("Alice", "Bruno", "Chloe", "Daniel", "Elena", "Farid", "Grace", "Hiro", "Ines",
             "Jamal", "Kara", "Liam", "Maya", "Noah", "Olga", "Priya", "Quinn", "Rosa", "Samir",
             "Tara", "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe")
    last = ("Anderson", "Baker", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito",
            "Jensen", "Kowalski", "Lopez", "Morales", "Nguyen", "Okafor", "Patel", "Quinn",
            "Rossi", "Singh", "Tanaka", "Usman", "Volkov", "Walsh", "Xu", "Young", "Zhang")
    pairs = [(f, s) for f in first for s in last]
    picks = rng.choice(len(pairs), size=sum(sizes.values()), replace=False)
    rows = []
    n = 0
    for dept in DEPARTMENTS:
        for _ in range(sizes[dept]):
            f, s = pairs[picks[n]]
            n += 1
            level = int(rng.choice(3, p=(0.55, 0.32, 0.13)))
            title, base = titles[dept][level]
            etype = str(rng.choice(("Full-time", "Part-time", "Contract"), p=(0.85, 0.07, 0.08)))
            region = str(rng.choice(REGIONS, p=(0.27, 0.22, 0.26, 0.25)))
            start = dt.date(2012, 1, 1).toordinal()
            hire = dt.date.fromordinal(int(rng.integers(start, dt.date(2024, 11, 30).toordinal())))
            tenure = (dt.date(2024, 12, 31) - hire).days / 365.25
            salary = base * (1 + 0.015 * tenure) * rng.normal(1.0, 0.06)
            if etype == "Part-time":
                salary *= 0.5
            salary = round(salary / 100) * 100
            rating = int(rng.choice((1, 2, 3, 4, 5), p=(0.04, 0.12, 0.44, 0.3, 0.1)))
            bonus = (None if etype == "Contract"
                     else round(salary * (0.02 * rating) * rng.uniform(0.8, 1.2) / 50) * 50)
            status = "Terminated" if rng.random() < 0.08 else "Active"
            rows.append(dict(full_name=f"{f} {s}", department=dept, job_title=title,
                             region=region, employment_type=etype, hire_date=hire.isoformat(),
                             salary=salary, bonus=bonus, performance_rating=rating,
                             status=status))
    df = pd.DataFrame(rows).sort_values(["hire_date", "full_name"]).reset_index(drop=True)
    df.insert(0, "employee_id", [f"E{1001 + i}" for i in range(len(df))])
    df["salary"] = df["salary"].astype(int)
    df["bonus"] = df["bonus"].astype("Int64")
    return df


def make_customers(hr: pd.DataFrame) -> pd.DataFrame:
    rng = rng_for("customers")
    stems = ("Apex", "Blue Harbor", "Cedar", "Delta Point", "Evergreen", "Falcon", "Granite",
             "Harborview", "Ironwood", "Juniper", "Keystone", "Lakeside", "Maple Ridge",
             "Northstar", "Oakline", "Pinnacle", "Quarry", "Redwood", "Summit", "Tidewater")
    kinds = (("Logistics", "Transportation"), ("Dental Group", "Healthcare"),
             ("Foods", "Food & Beverage"), ("Law Partners", "Professional Services"),
             ("Builders", "Construction"), ("Analytics", "Technology"),
             ("Academy", "Education"), ("Realty", "Real Estate"),
             ("Manufacturing", "Manufacturing"), ("Clinic", "Healthcare"),
             ("Outfitters", "Retail"), ("Software", "Technology"), ("Insurance", "Finance"),
             ("Energy", "Utilities"), ("Hotels", "Hospitality"))
    combos = [(s, k) for s in stems for k in kinds]
    picks = rng.choice(len(combos), size=250, replace=False)
    managers = hr[(hr.department == "Sales") & (hr.job_title == "Account Manager")]
    rows = []
    for i, p in enumerate(picks):
        stem, (kind, industry) = combos[p][0], combos[p][1]
        region = REGIONS[i % 4] if i < 48 else str(rng.choice(REGIONS, p=(0.26, 0.22, 0.24, 0.28)))
        if i < 150:
            lo, hi = dt.date(2018, 1, 1), dt.date(2021, 12, 31)
        else:
            lo, hi = dt.date(2022, 1, 1), dt.date(2024, 9, 30)
        signup = dt.date.fromordinal(int(rng.integers(lo.toordinal(), hi.toordinal() + 1)))
        segment = str(rng.choice(("Enterprise", "Mid-Market", "Small Business"),
                                 p=(0.2, 0.35, 0.45)))
        limit = {"Enterprise": 250000, "Mid-Market": 75000, "Small Business": 20000}[segment]
        limit = int(round(limit * rng.uniform(0.6, 1.4) / 1000) * 1000)
        local = managers[managers.region == region]
        pool = local if len(local) else managers
        manager = str(pool.employee_id.iloc[int(rng.integers(len(pool)))])
        rows.append(dict(customer_name=f"{stem} {kind}", segment=segment, industry=industry,
                         region=region, city=str(rng.choice(CITIES[region])),
                         signup_date=signup.isoformat(), credit_limit=limit,
                         account_manager_id=manager))
    df = pd.DataFrame(rows).sort_values(["signup_date", "customer_name"]).reset_index(drop=True)
    df.insert(0, "customer_id", [f"C{1001 + i}" for i in range(len(df))])
    return df


def year_price(price_2024: float, year: int) -> float:
    return round(price_2024 / PRICE_GROWTH ** (2024 - year), 2)


def make_sales(customers: pd.DataFrame) -> pd.DataFrame:
    rng = rng_for("sales")
    season = {1: 0.85, 2: 0.85, 3: 1.0, 4: 0.95, 5: 1.0, 6: 1.05, 7: 0.9, 8: 0.95, 9: 1.05,
              10: 1.15, 11: 1.25, 12: 1.3}
    region_w = {2022: (0.30, 0.25, 0.25, 0.20), 2023: (0.28, 0.24, 0.25, 0.23),
                2024: (0.25, 0.21, 0.23, 0.31)}
    names = [p[0] for p in PRODUCTS]
    pw = np.array([p[4] for p in PRODUCTS], dtype=float)
    pw /= pw.sum()
    units_range = {"Electronics": (1, 12), "Furniture": (1, 8), "Office Supplies": (5, 60),
                   "Software": (5, 50)}
    rows = []
    for year in YEARS:
        for month in range(1, 13):
            n = int(round(30 * 1.10 ** (year - 2022) * season[month]))
            last_day = calendar.monthrange(year, month)[1]
            for _ in range(n):
                day = dt.date(year, month, int(rng.integers(1, last_day + 1)))
                region = str(rng.choice(REGIONS, p=region_w[year]))
                pool = customers[(customers.region == region)
                                 & (customers.signup_date <= day.isoformat())]
                cust = str(pool.customer_id.iloc[int(rng.integers(len(pool)))])
                k = int(rng.choice(len(names), p=pw))
                name, cat, price, cost, _ = PRODUCTS[k]
                lo, hi = (1, 4) if price > 500 else units_range[cat]
                units = int(rng.integers(lo, hi + 1))
                unit_price = year_price(price, year)
                unit_cost = year_price(cost, year)
                channel = str(rng.choice(("Online", "Retail", "Partner"), p=(0.45, 0.35, 0.2)))
                rows.append(dict(order_date=day.isoformat(), customer_id=cust, region=region,
                                 product=name, category=cat, channel=channel, units=units,
                                 unit_price=unit_price, revenue=round(units * unit_price, 2),
                                 cost=round(units * unit_cost, 2)))
    df = pd.DataFrame(rows).sort_values(["order_date", "customer_id", "product"],
                                        kind="stable").reset_index(drop=True)
    df.insert(0, "order_id", [f"SO-{10001 + i}" for i in range(len(df))])
    return df


def make_inventory() -> pd.DataFrame:
    rng = rng_for("inventory")
    rows = []
    for i, (name, cat, price, cost, pop) in enumerate(PRODUCTS):
        suppliers = CATEGORY_SUPPLIERS[cat]
        for j, region in enumerate(REGIONS):
            reorder = int(round(pop * {"Electronics": 4, "Furniture": 3, "Office Supplies": 12,
                                       "Software": 10}[cat] * rng.uniform(0.8, 1.2)))
            stock = int(round(reorder * rng.uniform(0.4, 3.5)))
            restock = dt.date(2024, 12, 31) - dt.timedelta(days=int(rng.integers(3, 120)))
            rows.append(dict(sku=f"SKU-{100 + i:03d}-{region[0]}", product=name, category=cat,
                             region=region, supplier=suppliers[(i + j) % len(suppliers)],
                             unit_cost=cost, unit_price=price, stock_on_hand=stock,
                             reorder_level=reorder,
                             lead_time_days=int(rng.integers(3, 29)),
                             last_restock_date=restock.isoformat()))
    return pd.DataFrame(rows)


def make_expenses() -> pd.DataFrame:
    rng = rng_for("expenses")
    categories = ("Travel", "Software", "Equipment", "Contractors")
    vendors = {"Travel": ("SkyWay Travel", "Metro Hotels", "RailLink"),
               "Software": ("CloudStack Inc", "DataForge", "Ledgerly"),
               "Equipment": ("OfficePoint", "TechDepot"),
               "Contractors": ("BrightHire Staffing", "Keystone Consulting", "Nimbus Partners")}
    base = {  # monthly budget in 2022, USD
        "Sales": (18000, 4000, 3000, 6000), "Marketing": (6000, 7000, 2000, 12000),
        "Engineering": (5000, 22000, 9000, 15000), "Finance": (2000, 5000, 1000, 4000),
        "Operations": (4000, 3000, 11000, 7000), "Human Resources": (2500, 3500, 1000, 5000),
    }
    rows = []
    for month in MONTHS:
        year, m = int(month[:4]), int(month[5:])
        for dept in DEPARTMENTS:
            for c, cat in enumerate(categories):
                budget = round(base[dept][c] * 1.06 ** (year - 2022) / 100) * 100
                seasonal = 1.2 if (cat == "Travel" and m in (3, 9, 10)) else 1.0
                amount = round(budget * seasonal * rng.normal(1.0, 0.12), 2)
                rows.append(dict(month=month, department=dept, category=cat,
                                 vendor=str(rng.choice(vendors[cat])), amount=amount,
                                 budget=float(budget)))
    df = pd.DataFrame(rows)
    df.insert(0, "expense_id", [f"EX-{i + 1:05d}" for i in range(len(df))])
    return df


def make_marketing() -> pd.DataFrame:
    rng = rng_for("marketing")
    channels = {  # base quarterly spend per region, CPM, CTR, conversion rate, avg order value
        "Email": (6000, 4.0, 0.032, 0.045, 310), "Paid Search": (21000, 18.0, 0.041, 0.038, 420),
        "Social": (15000, 9.0, 0.012, 0.021, 260), "Events": (18000, 60.0, 0.02, 0.09, 900),
        "Display": (9000, 6.5, 0.006, 0.015, 280),
    }
    growth = {"North": 1.04, "South": 1.05, "East": 1.06, "West": 1.15}
    rows = []
    for qi, quarter in enumerate(QUARTERS):
        for region in REGIONS:
            for c, (channel, (spend0, cpm, ctr, cvr, aov)) in enumerate(channels.items()):
                spend = round(spend0 * growth[region] ** (qi / 4) * rng.normal(1.0, 0.1), 2)
                impressions = int(spend / cpm * 1000 * rng.normal(1.0, 0.05))
                clicks = int(impressions * ctr * rng.normal(1.0, 0.08))
                conversions = int(clicks * cvr * rng.normal(1.0, 0.1))
                rows.append(dict(quarter=quarter, region=region, channel=channel,
                                 category=CATEGORIES[(qi + c) % 4], spend=spend,
                                 impressions=impressions, clicks=clicks,
                                 conversions=conversions,
                                 attributed_revenue=round(conversions * aov
                                                          * rng.normal(1.0, 0.1), 2)))
    df = pd.DataFrame(rows)
    df.insert(0, "campaign_id", [f"MK-{i + 1:04d}" for i in range(len(df))])
    return df


# ---------------------------------------------------------------------------------------------
# messy files


def make_regional_report(sales: pd.DataFrame, hr: pd.DataFrame, path: Path) -> dict:
    s = sales.assign(year=sales.order_date.str[:4].astype(int))
    s = s[s.year.isin((2023, 2024))]
    rev = s.groupby(["region", "category", "year"]).revenue.sum()
    units = s.groupby(["region", "category", "year"]).units.sum()

    wb = Workbook()
    ws = wb.active
    ws.title = "Report"
    ws["A1"] = "Regional report, USD thousands"
    ws["A1"].font = Font(bold=True, size=13)
    ws.merge_cells("A1:F1")
    ws["A2"], ws["B2"], ws["C2"], ws["E2"] = "Region", "Category", "Revenue", "Units"
    for ref, text in zip(("C3", "D3", "E3", "F3"), ("2023", "2024", "2023", "2024"), strict=True):
        ws[ref] = text
    for rng_ in ("A2:A3", "B2:B3", "C2:D2", "E2:F2"):
        ws.merge_cells(rng_)
    for row in ws["A2:F3"]:
        for cell in row:
            cell.font = Font(bold=True)
            cell.alignment = Alignment(horizontal="center", vertical="center")
    r = 4
    region_rows: dict[str, tuple[int, int]] = {}
    values: dict[tuple[str, str, str], float] = {}
    repeated_header_row = None
    for k, region in enumerate(REGIONS):
        if k == 2:  # page break: the header repeats, flattened into one row
            repeated_header_row = r
            for col, text in enumerate(("Region", "Category", "2023", "2024", "2023", "2024"), 1):
                ws.cell(r, col, text).font = Font(bold=True)
            r += 1
        first = r
        for cat in CATEGORIES:
            if r == first:
                ws.cell(r, 1, region)
            ws.cell(r, 2, cat)
            for col, (measure, year) in enumerate((("Revenue", 2023), ("Revenue", 2024),
                                                   ("Units", 2023), ("Units", 2024)), 3):
                if measure == "Revenue":
                    v = round(float(rev[(region, cat, year)]) / 1000, 1)
                    ws.cell(r, col, v).number_format = "#,##0.0"
                else:
                    v = int(units[(region, cat, year)])
                    ws.cell(r, col, v).number_format = "#,##0"
                values[(region, cat, f"{measure} {year}")] = v
            r += 1
        ws.merge_cells(start_row=first, start_column=1, end_row=r - 1, end_column=1)
        ws.cell(first, 1).alignment = Alignment(vertical="top")
        region_rows[region] = (first, r - 1)
    last_data_row = r - 1
    r += 2  # two blank rows, then a second table
    second_header_row = r
    for col, text in enumerate(("Region", "Stores 2023", "Stores 2024", "Headcount 2024"), 1):
        ws.cell(r, col, text).font = Font(bold=True)
    stores = {"North": (14, 15), "South": (11, 12), "East": (13, 13), "West": (9, 12)}
    active = hr[hr.status == "Active"].groupby("region").size()
    for region in REGIONS:
        r += 1
        ws.cell(r, 1, region)
        ws.cell(r, 2, stores[region][0])
        ws.cell(r, 3, stores[region][1])
        ws.cell(r, 4, int(active[region]))
    second_last_row = r
    ws.column_dimensions["A"].width = 12
    ws.column_dimensions["B"].width = 18

    # Sheet 2: formulas over the Report sheet, with cached values injected after saving.
    sm = wb.create_sheet("Summary")
    for col, text in enumerate(("Region", "Revenue 2023", "Revenue 2024", "Growth %",
                                "Units 2023", "Units 2024"), 1):
        sm.cell(1, col, text).font = Font(bold=True)
    cached: dict[str, str] = {}
    summary_values: dict[tuple[str, str], float] = {}
    for i, region in enumerate(REGIONS):
        row = i + 2
        a, b = region_rows[region]
        sm.cell(row, 1, region)
        for col, (src_col, label) in zip((2, 3, 5, 6), (("C", "Revenue 2023"),
                                                         ("D", "Revenue 2024"),
                                                         ("E", "Units 2023"),
                                                         ("F", "Units 2024")), strict=True):
            cell = sm.cell(row, col, f"=SUM(Report!{src_col}{a}:{src_col}{b})")
            cell.number_format = "#,##0.0" if "Revenue" in label else "#,##0"
            total = 0.0 if "Revenue" in label else 0
            for cat in CATEGORIES:
                total += values[(region, cat, label)]
            summary_values[(region, label)] = total
            cached[cell.coordinate] = excel_number(total)
        g = sm.cell(row, 4, f"=(C{row}-B{row})/B{row}")
        g.number_format = "0.0%"
        growth = ((summary_values[(region, "Revenue 2024")]
                   - summary_values[(region, "Revenue 2023")])
                  / summary_values[(region, "Revenue 2023")])
        summary_values[(region, "Growth %")] = growth
        cached[g.coordinate] = excel_number(growth)
    tr = len(REGIONS) + 2
    sm.cell(tr, 1, "Total").font = Font(bold=True)
    for col, label in zip((2, 3, 5, 6), ("Revenue 2023", "Revenue 2024", "Units 2023",
                                         "Units 2024"), strict=True):
        letter = "BCDEF"[col - 2]
        cell = sm.cell(tr, col, f"=SUM({letter}2:{letter}{tr - 1})")
        cell.number_format = "#,##0.0" if "Revenue" in label else "#,##0"
        total = 0.0 if "Revenue" in label else 0
        for region in REGIONS:
            total += summary_values[(region, label)]
        summary_values[("Total", label)] = total
        cached[cell.coordinate] = excel_number(total)
    g = sm.cell(tr, 4, f"=(C{tr}-B{tr})/B{tr}")
    g.number_format = "0.0%"
    r23, r24 = summary_values[("Total", "Revenue 2023")], summary_values[("Total", "Revenue 2024")]
    growth = (r24 - r23) / r23
    summary_values[("Total", "Growth %")] = growth
    cached[g.coordinate] = excel_number(growth)

    save_workbook(wb, path, patches={"xl/worksheets/sheet2.xml": cached})
    return dict(values=values, region_rows=region_rows, repeated_header_row=repeated_header_row,
                last_data_row=last_data_row, second_header_row=second_header_row,
                second_last_row=second_last_row, summary=summary_values,
                headcount={k: int(v) for k, v in active.items()}, stores=stores)


FIN_QUARTERS = tuple(f"Q{q} {y}" for y in (2023, 2024) for q in range(1, 5))


def financials_table() -> dict[str, list[float]]:
    """Northwind Traders' quarterly income statement, USD thousands; FY columns are sums."""
    revenue = [1180.4, 1236.8, 1298.5, 1389.7, 1410.2, 1452.9, 1501.3, 1618.4]
    margin = [0.112, 0.120, 0.126, 0.134, 0.131, 0.135, 0.138, 0.142]
    opex = [148.9, 150.2, 153.6, 160.1, 158.4, 161.0, 163.7, 170.2]
    other = [-4.2, -4.1, -4.3, -3.9, -3.6, -3.8, -3.5, -3.4]
    cogs = [-round(r * (1 - m), 1) for r, m in zip(revenue, margin, strict=True)]
    gp = [round(r + c, 1) for r, c in zip(revenue, cogs, strict=True)]
    opex = [-x for x in opex]
    op = [round(g + o, 1) for g, o in zip(gp, opex, strict=True)]
    pretax = [round(o + x, 1) for o, x in zip(op, other, strict=True)]
    tax = [0.0 - round(max(p, 0.0) * 0.21, 1) for p in pretax]  # 0.0 - : no negative zero
    net = [round(p + t, 1) for p, t in zip(pretax, tax, strict=True)]
    lines = {"Revenue": revenue, "Cost of goods sold": cogs, "Gross profit": gp,
             "Operating expenses": opex, "Operating income": op,
             "Other income (expense)": other, "Income tax expense": tax, "Net income": net}
    for k, v in lines.items():
        lines[k] = v + [round(sum(v[:4]), 1), round(sum(v[4:]), 1)]
    gp_fy, rev_fy = lines["Gross profit"], lines["Revenue"]
    lines["Gross margin %"] = [g / r for g, r in zip(gp_fy, rev_fy, strict=True)]
    return lines


def fmt_paren(v: float) -> str:
    return f"({abs(v):,.1f})" if v < 0 else f"{v:,.1f}"


def make_financials(path: Path) -> dict:
    lines = financials_table()
    wb = Workbook()
    ws = wb.active
    ws.title = "Income statement"
    ws["A1"] = "Northwind Traders — Income statement (USD thousands)"
    ws["A1"].font = Font(bold=True, size=13)
    header = ["Line item", *FIN_QUARTERS, "FY2023", "FY2024"]
    for col, text in enumerate(header, 1):
        ws.cell(3, col, text).font = Font(bold=True)
    text_cols = {6, 7, 8, 9, 11}  # Q1..Q4 2024 and FY2024 hold text, as if pasted from a PDF
    for i, (item, vals) in enumerate(lines.items()):
        row = 4 + i
        ws.cell(row, 1, item)
        for col, v in enumerate(vals, 2):
            pct = item.endswith("%")
            if col in text_cols:
                ws.cell(row, col, f"{v * 100:.1f}%" if pct else fmt_paren(v))
                ws.cell(row, col).alignment = Alignment(horizontal="right")
            else:
                cell = ws.cell(row, col, round(v, 6) if pct else v)
                cell.number_format = "0.0%" if pct else "#,##0.0;(#,##0.0)"
    foot = 4 + len(lines) + 1
    ws.cell(foot, 1, "Source: management accounts, unaudited.")
    ws.column_dimensions["A"].width = 26
    save_workbook(wb, path)
    return dict(lines=lines, footnote_row=foot)


# raw text, expected value_num, scale, unit (None value = empty/not a number)
FORMATS_ROWS = (
    # deal_id, client, deal_value, margin, yoy_change, market_size, payment_terms, lead_time
    ("D01", "Acme Retail", "$1,234.50", "13.1%", "+4.2%", "1.2bn", "30 days", "12 days"),
    ("D02", "Alpine Société", "€980", "8%", "(3.5%)", "850m", "45 days", "3 weeks"),
    ("D03", "Brightline Foods", "USD 1.2m", "12.75 %", "-1.8%", "USD 2.3bn", "60 days",
     "8 hours"),
    ("D04", "Cobalt Freight", "(2,500.00)", "N/A", "0.0%", "12k", "14 days", "5 days"),
    ("D05", "Dunmore Hotels", "£3,400", "21.5%", "+12%", "€640m", "7 days", "2 days"),
    ("D06", "Eastgate Pharmacy", "", "", "", "", "", ""),
    ("D07", "Fernhill Textiles", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"),
    ("D08", "Glenrock Mining", "1,250,000", "9.9%", "(0.4%)", "3.4 bn", "90 days", "6 weeks"),
    ("D09", "Harlow Dental", "EUR 45k", "17.0%", "−3.0%", "75K", "30 days", "10 days"),
    ("D10", "Ivywood Schools", "$ 12.5k", "6.25%", "+0.5%", "USD 0.9 million", "30 days",
     "1 day"),
    ("D11", "Jasper Analytics", "$-75.00", "-2.0%", "(12.0%)", "2.5M", "15 days", "36 hours"),
    ("D12", "Kestrel Air", "¥1,200,000", "31%", "+7.7%", "n/a", "60 days", "4 days"),
    ("D13", "Larch & Co", "USD (1,200)", "11.4%", "+3.1%", "450m", "45 days", "9 days"),
    ("D14", "Mosswood Farms", "CHF 8,900.75", "—", "-", "1.05bn", "N/A", "2.5 hours"),
    ("D15", "Northbay Marine", "0.35m", "14.2%", "+25.0%", "$1.1bn", "30 days", "14 days"),
    ("D16", "Orchard Labs", "$4,050", "0.5%", "(1.25%)", "980k", "1 day", "3 days"),
)
# Expected parse per raw text (value_num, scale, unit, value_base); None = null.
EXPECTED = {
    "$1,234.50": (1234.5, "", "USD"), "€980": (980.0, "", "EUR"),
    "USD 1.2m": (1.2, "million", "USD"), "(2,500.00)": (-2500.0, "", ""),
    "£3,400": (3400.0, "", "GBP"), "1,250,000": (1250000.0, "", ""),
    "EUR 45k": (45.0, "thousand", "EUR"), "$ 12.5k": (12.5, "thousand", "USD"),
    "$-75.00": (-75.0, "", "USD"), "¥1,200,000": (1200000.0, "", "JPY"),
    "USD (1,200)": (-1200.0, "", "USD"), "CHF 8,900.75": (8900.75, "", "CHF"),
    "0.35m": (0.35, "million", ""), "$4,050": (4050.0, "", "USD"),
    "13.1%": (13.1, "percent", "%"), "8%": (8.0, "percent", "%"),
    "12.75 %": (12.75, "percent", "%"), "21.5%": (21.5, "percent", "%"),
    "9.9%": (9.9, "percent", "%"), "17.0%": (17.0, "percent", "%"),
    "6.25%": (6.25, "percent", "%"), "-2.0%": (-2.0, "percent", "%"),
    "31%": (31.0, "percent", "%"), "11.4%": (11.4, "percent", "%"),
    "14.2%": (14.2, "percent", "%"), "0.5%": (0.5, "percent", "%"),
    "+4.2%": (4.2, "percent", "%"), "(3.5%)": (-3.5, "percent", "%"),
    "-1.8%": (-1.8, "percent", "%"), "0.0%": (0.0, "percent", "%"),
    "+12%": (12.0, "percent", "%"), "(0.4%)": (-0.4, "percent", "%"),
    "−3.0%": (-3.0, "percent", "%"), "+0.5%": (0.5, "percent", "%"),
    "(12.0%)": (-12.0, "percent", "%"), "+7.7%": (7.7, "percent", "%"),
    "+3.1%": (3.1, "percent", "%"), "+25.0%": (25.0, "percent", "%"),
    "(1.25%)": (-1.25, "percent", "%"),
    "1.2bn": (1.2, "billion", ""), "850m": (850.0, "million", ""),
    "USD 2.3bn": (2.3, "billion", "USD"), "12k": (12.0, "thousand", ""),
    "€640m": (640.0, "million", "EUR"), "3.4 bn": (3.4, "billion", ""),
    "75K": (75.0, "thousand", ""), "USD 0.9 million": (0.9, "million", "USD"),
    "2.5M": (2.5, "million", ""), "450m": (450.0, "million", ""),
    "1.05bn": (1.05, "billion", ""), "$1.1bn": (1.1, "billion", "USD"),
    "980k": (980.0, "thousand", ""),
    "30 days": (30.0, "", "days"), "45 days": (45.0, "", "days"), "60 days": (60.0, "", "days"),
    "14 days": (14.0, "", "days"), "7 days": (7.0, "", "days"), "90 days": (90.0, "", "days"),
    "15 days": (15.0, "", "days"), "1 day": (1.0, "", "days"), "12 days": (12.0, "", "days"),
    "5 days": (5.0, "", "days"), "2 days": (2.0, "", "days"), "10 days": (10.0, "", "days"),
    "4 days": (4.0, "", "days"), "9 days": (9.0, "", "days"), "3 days": (3.0, "", "days"),
    "3 weeks": (3.0, "", "weeks"), "6 weeks": (6.0, "", "weeks"),
    "8 hours": (8.0, "", "hours"), "36 hours": (36.0, "", "hours"),
    "2.5 hours": (2.5, "", "hours"),
}
NULL_TOKENS = ("", "N/A", "n/a", "—", "-")
SCALE = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 1.0}


def make_formats(path: Path) -> pd.DataFrame:
    cols = ("deal_id", "client", "deal_value", "margin", "yoy_change", "market_size",
            "payment_terms", "lead_time")
    df = pd.DataFrame(FORMATS_ROWS, columns=cols)
    for row in FORMATS_ROWS:
        for raw in row[2:]:
            if raw not in NULL_TOKENS and raw not in EXPECTED:
                raise RuntimeError(f"no expected parse for {raw!r}")
    df.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")
    return df


def make_conflicts(sales: pd.DataFrame, folder: Path) -> list[tuple]:
    s = sales.assign(quarter=sales.order_date.str[:4] + "Q"
                     + ((sales.order_date.str[5:7].astype(int) - 1) // 3 + 1).astype(str))
    agg = s.groupby(["region", "quarter"]).revenue.sum().round(2)
    erp = pd.DataFrame([dict(region=r, quarter=q, revenue=float(agg[(r, q)]))
                        for r in REGIONS for q in QUARTERS])
    # The CRM export lists the same figures quarter-first, and books three differently.
    crm = pd.DataFrame([dict(region=r, quarter=q, revenue=float(agg[(r, q)]))
                        for q in QUARTERS for r in REGIONS])
    changes = (("North", "2023Q4", lambda v: round(v * 1.1, 2),
                "CRM double-counts North deals worth 10% of the quarter"),
               ("East", "2024Q2", lambda v: round(v - 1000.0, 2),
                "ERP posted a 1,000.00 credit note the CRM never received"),
               ("West", "2024Q4", lambda v: float(round(v, -3)),
                "CRM figure was keyed in rounded to the nearest thousand"))
    diffs = []
    for region, quarter, f, why in changes:
        mask = (crm.region == region) & (crm.quarter == quarter)
        old = float(crm.loc[mask, "revenue"].iloc[0])
        new = f(old)
        assert new != old
        crm.loc[mask, "revenue"] = new
        line = int(np.flatnonzero(mask.to_numpy())[0]) + 2
        erp_line = int(np.flatnonzero(((erp.region == region)
                                       & (erp.quarter == quarter)).to_numpy())[0]) + 2
        diffs.append((region, quarter, old, new, erp_line, line, why))
    write_csv(erp, folder / "erp_revenue.csv", money=("revenue",))
    write_csv(crm, folder / "crm_revenue.csv", money=("revenue",))
    return diffs


BROKEN_LINE = 9  # 1-based line in the file, header = line 1


def make_broken(sales: pd.DataFrame, folder: Path) -> dict:
    head = sales.iloc[:20][["order_id", "order_date", "customer_id", "product", "units",
                            "unit_price", "revenue"]]
    lines = [",".join(head.columns)]
    for i, r in enumerate(head.itertuples(index=False), start=2):
        fields = [r.order_id, r.order_date, r.customer_id, r.product, str(r.units),
                  f"{r.unit_price:.2f}", f"{r.revenue:.2f}"]
        if i == BROKEN_LINE:
            # an unquoted comma inside the product name: 8 fields where 7 are expected
            fields[3] = f"{r.product}, bulk pack"
            broken_id, broken_product = r.order_id, fields[3]
        lines.append(",".join(fields))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "orders_broken.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rng = rng_for("corrupt")
    payload = (b"This is not an XLSX workbook: the bytes are not a zip archive.\n"
               + rng.integers(0, 256, size=2048, dtype=np.uint8).tobytes())
    (folder / "corrupt.xlsx").write_bytes(payload)
    return dict(broken_line=BROKEN_LINE, broken_id=broken_id, broken_product=broken_product,
                data_rows=len(head),
                corrupt_size=len(payload))


def make_suppliers(path: Path) -> None:
    header = ("supplier_id", "supplier_name", "country", "city", "contact_name",
              "annual_spend", "rating", "supplier_since", "notes")
    lines = [";".join(header)]
    for row in SUPPLIERS:
        lines.append(";".join(str(x) for x in row))
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))


# ---------------------------------------------------------------------------------------------
# the second dataset (clinics), for benchmarks


CLINICS = (
    # id, name, city, region, type, beds, opened, nurses, physicians
    ("CL01", "Riverside Clinic", "Port Alder", "Coastal", "Hospital", 310, "1998-04-01", 400, 55),
    ("CL02", "Highmoor General Hospital", "Highmoor", "Highlands", "Hospital", 410, "1987-09-15",
     520, 71),
    ("CL03", "Elmstead Community Clinic", "Elmstead", "Valley", "Community Clinic", 24,
     "2009-02-02", 38, 9),
    ("CL04", "Harbor Point Clinic", "Port Alder", "Coastal", "Community Clinic", 18,
     "2012-06-18", 29, 7),
    ("CL05", "Metro Heart Institute", "Centerville", "Metro", "Specialty Center", 86,
     "2004-11-08", 140, 34),
    ("CL06", "Sunfield Family Health", "Sunfield", "Valley", "Community Clinic", 12,
     "2016-03-21", 21, 6),
    ("CL07", "Eastbrook Hospital", "Centerville", "Metro", "Hospital", 265, "1992-01-13", 350,
     48),
    ("CL08", "Pinecrest Rehabilitation", "Highmoor", "Highlands", "Specialty Center", 60,
     "2007-08-27", 88, 14),
    ("CL09", "Bayview Children's Clinic", "Seabrook", "Coastal", "Specialty Center", 40,
     "2011-10-03", 66, 19),
    ("CL10", "Valley Oak Clinic", "Oakdale", "Valley", "Community Clinic", 16, "2018-05-14",
     25, 6),
    ("CL11", "Summit Ridge Hospital", "Summit", "Highlands", "Hospital", 190, "2001-07-09",
     240, 33),
    ("CL12", "Lakeshore Urgent Care", "Centerville", "Metro", "Community Clinic", 10,
     "2020-09-01", 19, 8),
)
RIVERSIDE_2024 = ((404, 55), (407, 56), (409, 56), (412, 57))  # Q1..Q4 2024
RIVERSIDE_OUTPATIENT_2024 = 86300  # docs/riverside_clinic_2024.pdf: "86,300 outpatient visits"


def make_alt(folder: Path) -> dict:
    rng = rng_for("alt")
    clinics = pd.DataFrame([dict(clinic_id=c[0], clinic_name=c[1], city=c[2], region=c[3],
                                 clinic_type=c[4], beds=c[5], opened_date=c[6],
                                 accredited="No" if c[0] in ("CL10", "CL12") else "Yes")
                            for c in CLINICS])
    staffing = []
    for c in CLINICS:
        for y in YEARS:
            for q in range(1, 5):
                t = (y - 2022) * 4 + (q - 1)
                nurses = int(round(c[7] * (0.93 + 0.006 * t) * rng.normal(1.0, 0.015)))
                phys = int(round(c[8] * (0.95 + 0.004 * t) * rng.normal(1.0, 0.02)))
                if c[0] == "CL01" and y == 2024:
                    nurses, phys = RIVERSIDE_2024[q - 1]
                support = int(round((nurses + phys) * rng.uniform(0.45, 0.6)))
                vac = int(max(0, round(nurses * rng.uniform(0.02, 0.09))))
                overtime = int(round(nurses * rng.uniform(8, 20)))
                staffing.append(dict(clinic_id=c[0], quarter=f"Q{q} {y}",
                                     registered_nurses=nurses, physicians=phys,
                                     support_staff=support, vacancies=vac,
                                     overtime_hours=overtime))
    staffing = pd.DataFrame(staffing)
    staffing.insert(0, "record_id", [f"ST-{i + 1:04d}" for i in range(len(staffing))])

    visits = []
    for c in CLINICS:
        scale = c[5] if c[4] != "Community Clinic" else c[5] * 6
        for month in MONTHS:
            m = int(month[5:])
            winter = 1.18 if m in (1, 2, 12) else (0.92 if m in (6, 7, 8) else 1.0)
            for line, mult, wait in (("Outpatient", 9.0, 24), ("Emergency", 3.2, 41)):
                if line == "Emergency" and c[4] == "Specialty Center":
                    mult = 0.6
                v = int(round(scale * mult * winter * rng.normal(1.0, 0.06)))
                visits.append(dict(clinic_id=c[0], month=month, service_line=line, visits=v,
                                   new_patients=int(round(v * rng.uniform(0.12, 0.3))),
                                   avg_wait_minutes=round(wait * winter * rng.normal(1, 0.1), 1),
                                   no_show_pct=round(rng.uniform(3, 11), 1)
                                   if line == "Outpatient" else 0.0))
    visits = pd.DataFrame(visits)
    # Riverside's outpatient visits agree with its annual report: 86,300 in 2024 exactly.
    out = (visits.clinic_id == "CL01") & (visits.service_line == "Outpatient")
    in24 = out & visits.month.str.startswith("2024")
    factor = RIVERSIDE_OUTPATIENT_2024 / visits.loc[in24, "visits"].sum()
    for col in ("visits", "new_patients"):
        visits.loc[out, col] = (visits.loc[out, col] * factor).round().astype(int)
    dec = in24 & (visits.month == "2024-12")
    visits.loc[dec, "visits"] += RIVERSIDE_OUTPATIENT_2024 - visits.loc[in24, "visits"].sum()
    assert visits.loc[in24, "visits"].sum() == RIVERSIDE_OUTPATIENT_2024
    visits.insert(0, "record_id", [f"PV-{i + 1:05d}" for i in range(len(visits))])

    budgets = []
    for c in CLINICS:
        total = c[5] * 400000 + c[7] * 150000
        for y in YEARS:
            for cat, share in (("Staffing", 0.58), ("Supplies", 0.14), ("Equipment", 0.1),
                               ("Facilities", 0.11), ("IT", 0.07)):
                b = round(total * share * 1.04 ** (y - 2022) / 1000) * 1000
                a = round(b * rng.normal(1.02, 0.05), 2)
                budgets.append(dict(clinic_id=c[0], fiscal_year=f"FY{y}", category=cat,
                                    budgeted=float(b), actual=a, variance=round(a - b, 2)))
    budgets = pd.DataFrame(budgets)
    budgets.insert(0, "budget_id", [f"BU-{i + 1:04d}" for i in range(len(budgets))])

    write_csv(clinics, folder / "clinics.csv")
    write_csv(staffing, folder / "staffing.csv")
    write_csv(visits, folder / "patient_visits.csv", one_dp=("avg_wait_minutes", "no_show_pct"))
    write_csv(budgets, folder / "budgets.csv", money=("budgeted", "actual", "variance"))
    return dict(clinics=clinics, staffing=staffing, visits=visits, budgets=budgets)


# ---------------------------------------------------------------------------------------------
# README


def md_table(header: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def money(v: float) -> str:
    return f"{v:,.2f}"


def write_readme(t: dict) -> None:
    sales, customers, expenses = t["sales"], t["customers"], t["expenses"]
    inventory, hr, marketing, alt = t["inventory"], t["hr"], t["marketing"], t["alt"]
    rr, fin, diffs, broken = t["regional"], t["financials"], t["diffs"], t["broken"]

    s = sales.assign(year=sales.order_date.str[:4])
    by_year = s.groupby("year").revenue.sum()
    by_region_2024 = s[s.year == "2024"].groupby("region").revenue.sum()
    by_region_2022 = s[s.year == "2022"].groupby("region").revenue.sum()
    rank_note = (f"largest region in 2024: {by_region_2024.idxmax()}; in 2022: "
                 f"{by_region_2022.idxmax()}; smallest in 2022: {by_region_2022.idxmin()}")
    below = inventory[inventory.stock_on_hand < inventory.reorder_level]
    active = hr[hr.status == "Active"]
    exp_year = expenses.assign(year=expenses.month.str[:4]).groupby("year").amount.sum()
    mk24 = marketing[marketing.quarter.str.startswith("2024")]

    def shape(df: pd.DataFrame) -> str:
        return f"{len(df)} rows x {df.shape[1]} columns"

    tables = [
        ("sales.csv", sales, "order_id", "order_date (ISO date `2024-03-15`)",
         "customer_id (FK), region, product, category, channel",
         "units, unit_price, revenue, cost",
         "One row per order line, 2022-01-01 .. 2024-12-31. revenue = units x unit_price "
         "exactly; cost = units x unit cost. List prices rise 3% a year (2024 prices equal "
         "inventory.csv). An order's region is its customer's region."),
        ("customers.csv", customers, "customer_id", "signup_date (ISO date)",
         "customer_name, segment, industry, region, city, account_manager_id (FK hr)",
         "credit_limit",
         "250 customers; 150 signed up before 2022. Every sales order's customer had signed "
         "up on or before the order date. account_manager_id is an Account Manager in "
         "hr.csv's Sales department, of the same region where one exists."),
        ("expenses.csv", expenses, "expense_id", "month (`2024-03`)",
         "department, category, vendor", "amount, budget",
         "Complete grid: 36 months x 6 departments x 4 categories (Travel, Software, "
         "Equipment, Contractors). department uses the same six values as hr.department."),
        ("inventory.csv", inventory, "sku", "last_restock_date (ISO date)",
         "product, category, region (warehouse), supplier",
         "unit_cost, unit_price, stock_on_hand, reorder_level, lead_time_days",
         "Snapshot at 2024-12-31: 15 products x 4 regional warehouses. sku = "
         "`SKU-<product no>-<region initial>`. product matches sales.product; supplier "
         "names are the suppliers in messy/suppliers_cp1252.csv."),
        ("hr.csv", hr, "employee_id", "hire_date (ISO date)",
         "full_name, department, job_title, region, employment_type, status",
         "salary, bonus, performance_rating",
         "Snapshot at 2024-12-31. bonus is empty for every Contract employee "
         f"({int(hr.bonus.isna().sum())} blanks); Part-time salaries are half-rate. "
         f"status: {int((hr.status == 'Active').sum())} Active, "
         f"{int((hr.status == 'Terminated').sum())} Terminated."),
        ("marketing.csv", marketing, "campaign_id", "quarter (`2024Q1`)",
         "region, channel, category", "spend, impressions, clicks, conversions, "
         "attributed_revenue",
         "Complete grid: 12 quarters x 4 regions x 5 channels (Email, Paid Search, Social, "
         "Events, Display). West's spend grows fastest."),
    ]
    table_rows = [[f"`{n}`", shape(df), f"`{i}`", tm, cat, num] for n, df, i, tm, cat, num, _
                  in tables]
    notes = "\n".join(f"- `{n}`: {note}" for n, *_, note in tables)

    v = rr["values"]
    first_rr = rr["region_rows"]
    summ = rr["summary"]
    summary_rows = [[reg, f"{summ[(reg, 'Revenue 2023')]:,.1f}",
                     f"{summ[(reg, 'Revenue 2024')]:,.1f}", f"{summ[(reg, 'Growth %')]:.1%}",
                     f"{summ[(reg, 'Units 2023')]:,}", f"{summ[(reg, 'Units 2024')]:,}"]
                    for reg in (*REGIONS, "Total")]

    lines = fin["lines"]
    fin_rows = []
    for item, vals in lines.items():
        if item.endswith("%"):
            fin_rows.append([item] + [f"{x * 100:.1f}%" for x in vals])
        else:
            fin_rows.append([item] + [fmt_paren(x) for x in vals])

    fmt_rows = []
    fmt_cols = ("deal_value", "margin", "yoy_change", "market_size", "payment_terms", "lead_time")
    for j, col in enumerate(fmt_cols):
        for row in FORMATS_ROWS:
            raw = row[2 + j]
            if raw in NULL_TOKENS:
                fmt_rows.append([row[0], col, f"`{raw}`" if raw else "(empty)", "null", "-", "-",
                                 "null"])
                continue
            num, scale, unit = EXPECTED[raw]
            base = num * SCALE[scale]
            fmt_rows.append([row[0], col, f"`{raw}`", f"{num:.10g}", scale or "-", unit or "-",
                             f"{base:,.10g}"])

    diff_rows = [[r, q, money(a), money(b), money(b - a), el, cl, why]
                 for r, q, a, b, el, cl, why in diffs]

    c = alt["clinics"]
    st = alt["staffing"]
    riverside = st[(st.clinic_id == "CL01") & (st.quarter == "Q4 2024")].iloc[0]
    alt_tables = [
        ("alt/clinics.csv", c, "clinic_id", "opened_date (ISO date)",
         "clinic_name, city, region, clinic_type, accredited", "beds"),
        ("alt/staffing.csv", st, "record_id (clinic_id is the entity)",
         "quarter (`Q1 2024` style)", "clinic_id (FK)",
         "registered_nurses, physicians, support_staff, vacancies, overtime_hours"),
        ("alt/patient_visits.csv", alt["visits"], "record_id", "month (`2024-03`)",
         "clinic_id (FK), service_line", "visits, new_patients, avg_wait_minutes, no_show_pct"),
        ("alt/budgets.csv", alt["budgets"], "budget_id", "fiscal_year (`FY2024`)",
         "clinic_id (FK), category", "budgeted, actual, variance"),
    ]
    alt_rows = [[f"`{n}`", shape(df), f"`{i}`", tm, cat, num] for n, df, i, tm, cat, num
                in alt_tables]

    all_csv_cells = sum(df.size for df in (sales, customers, expenses, inventory, hr, marketing,
                                           c, st, alt["visits"], alt["budgets"]))

    text = f"""# sample_data

Generated by `generate.py` (beside this file), run by hand — never at test time:

    python sample_data/generate.py

Seeded numpy RNG (seed {SEED}); running it twice gives byte-identical files, XLSX included
(workbook properties fixed at {FIXED_TIME.isoformat()}, zip entries re-packed with fixed dates).
Regenerating changes nothing unless the generator changed; if it did, every source sha256 and
every claim id changes, so commit gold sets together with the data. This README is also written
by the generator: edit the template in `generate.py`, not this file.

All CSVs are UTF-8 with `,` and LF line ends, except `messy/suppliers_cp1252.csv`. Money is USD
unless a file says otherwise. Everything is fictional.

## 1. Business tables (the seed's six-table evaluation set)

{md_table(["file", "shape", "ID", "time", "categorical", "numeric"], table_rows)}

{notes}

Foreign keys: `sales.customer_id -> customers.customer_id`; `sales.product -> inventory.product`
(each product has 4 skus, one per regional warehouse); `customers.account_manager_id ->
hr.employee_id`; `hr.department = expenses.department` (Sales, Marketing, Engineering, Finance,
Operations, Human Resources); `region` is North / South / East / West in sales, customers,
inventory, hr and marketing; `category` (Electronics, Furniture, Office Supplies, Software) is
shared by sales, inventory and marketing.

Figures a test can rely on (computed by the generator from the files):

- sales revenue by year: 2022 {money(by_year['2022'])}; 2023 {money(by_year['2023'])};
  2024 {money(by_year['2024'])}; orders per year: {', '.join(f"{y} {n}" for y, n in
  s.groupby('year').size().items())}.
- sales revenue 2024 by region: {'; '.join(f"{r} {money(by_region_2024[r])}" for r in REGIONS)}
  ({rank_note}).
- expenses amount by year: {'; '.join(f"{y} {money(a)}" for y, a in exp_year.items())}.
- inventory rows below reorder level (stock_on_hand < reorder_level): {len(below)} —
  {', '.join(below.sku)}.
- active headcount by department: {'; '.join(f"{d} {int(n)}" for d, n in
  active.groupby('department').size().reindex(DEPARTMENTS).items())}.
- marketing 2024: spend {money(mk24.spend.sum())}, conversions {int(mk24.conversions.sum()):,}.

## 2. Messy files

### `messy/regional_report.xlsx`

Sheet `Report` (what a reader must handle, top to bottom):

- Row 1: title `Regional report, USD thousands`, merged A1:F1 (scale = thousand, unit USD for
  the first table only).
- Rows 2-3: two-row header. A2:A3 `Region` and B2:B3 `Category` merged down; `Revenue` merged
  across C2:D2 and `Units` across E2:F2; row 3 holds `2023`, `2024`, `2023`, `2024` as text.
  Combined column names: Region, Category, Revenue 2023, Revenue 2024, Units 2023, Units 2024.
- Data rows {first_rr['North'][0]}-{rr['last_data_row']}: region is a merged cell down its four
  category rows ({', '.join(f"{r} A{a}:A{b}" for r, (a, b) in first_rr.items())}), only the
  top cell holds the value: forward-fill it.
- Row {rr['repeated_header_row']}: a repeated header (page-break style), flattened into one row:
  `Region | Category | 2023 | 2024 | 2023 | 2024`. It is not data.
- Rows {rr['last_data_row'] + 1}-{rr['second_header_row'] - 1}: two blank rows; then a second
  table, header on row {rr['second_header_row']}: `Region | Stores 2023 | Stores 2024 |
  Headcount 2024`, data rows {rr['second_header_row'] + 1}-{rr['second_last_row']} (plain
  counts, not USD thousands). Headcount 2024 = active employees per region in hr.csv.
- First-table values are sales.csv aggregated by region x category x year: revenue / 1000
  rounded to one decimal, units summed. E.g. North / Electronics: Revenue 2023
  {v[('North', 'Electronics', 'Revenue 2023')]:,.1f}, Revenue 2024
  {v[('North', 'Electronics', 'Revenue 2024')]:,.1f}, Units 2024
  {v[('North', 'Electronics', 'Units 2024')]}; West / Software Revenue 2024
  {v[('West', 'Software', 'Revenue 2024')]:,.1f}.

Sheet `Summary`: header row 1, one row per region (rows 2-5) and `Total` (row 6). Columns B, C,
E, F are formulas `=SUM(Report!C4:C7)` etc. over the Report sheet; D is `=(C2-B2)/B2` (format
0.0%); the Total row sums rows 2-5. Every formula cell carries a cached value (injected into the
sheet XML after saving, since openpyxl cannot calculate), so `load_workbook(data_only=True)`
gives numbers:

{md_table(["Region", "Revenue 2023", "Revenue 2024", "Growth %", "Units 2023", "Units 2024"],
          summary_rows)}

### `messy/financials_wide.xlsx`

Sheet `Income statement`: row 1 title `Northwind Traders — Income statement (USD thousands)`;
row 2 blank; row 3 header `Line item | Q1 2023 .. Q4 2024 | FY2023 | FY2024` (11 columns);
rows 4-{3 + len(lines)} the line items; row {fin['footnote_row']} a footnote
(`Source: management accounts, unaudited.`) after one blank row — not a line item.
A wide table to melt: {len(lines)} line items x 10 periods = {len(lines) * 10} cells.

- Columns B-E (Q1-Q4 2023) and J (FY2023) hold **numbers**: costs stored negative with number
  format `#,##0.0;(#,##0.0)` (displayed `(1,048.2)`), gross margin stored as a fraction
  (0.112) with format `0.0%` (displayed `11.2%`, value_num 11.2).
- Columns F-I (Q1-Q4 2024) and K (FY2024) hold **text** as if pasted from a PDF:
  thousands separators `1,410.2`, negatives in parentheses `(1,225.5)`, percents `13.1%`.
- Costs (cost of goods sold, operating expenses, income tax) are negative; the statement adds
  up exactly: gross profit = revenue + COGS, operating income = gross profit + operating
  expenses, net income = operating income + other + tax; FY = sum of the quarters. Operating
  income and net income are negative in Q1 and Q2 2023 (a loss shown as `(16.7)` etc.).

Displayed values:

{md_table(["Line item", *FIN_QUARTERS, "FY2023", "FY2024"], fin_rows)}

### `messy/formats.csv`

{len(FORMATS_ROWS)} rows x 8 columns (`deal_id`, `client`, `deal_value`, `margin`, `yoy_change`,
`market_size`, `payment_terms`, `lead_time`), UTF-8. Every cell of the last six columns is a
number in a different dress. Empty or null: D06 is blank in all six; D07 is `N/A` in all six;
D04 margin `N/A`; D12 market_size `n/a`; D14 margin `—` (em dash) and yoy_change `-` (a lone
hyphen means no value); D14 payment_terms `N/A`. D09 yoy_change uses the Unicode minus sign
`−` (U+2212). Expected parse (value_num = the displayed number with its sign; value_base =
value_num x scale; percent stays as is):

{md_table(["deal_id", "column", "raw", "value_num", "scale", "unit", "value_base"],
          fmt_rows)}

### `messy/suppliers_cp1252.csv`

{len(SUPPLIERS)} rows x 9 columns, **cp1252** (Windows-1252) encoded, `;` delimiter, CRLF line
ends. Not valid UTF-8. Accented names (`Société Générale d’Équipement`, `Müller GmbH`,
`Café Olé Distribution`, `Ångström Components AB`, ...) and characters that exist in cp1252 but
not in latin-1 (`’` U+2019, `“ ”`, `€`, `Š`, `Œ`/`œ`), so decoding as latin-1 gives wrong
text where cp1252 is right. Columns: supplier_id (ID), supplier_name, country, city,
contact_name, annual_spend (integer USD), rating (1-5), supplier_since (ISO date), notes. Plain
numbers (no decimal commas). supplier_name values are the `supplier` values of inventory.csv.

### `conflicts/erp_revenue.csv` and `conflicts/crm_revenue.csv`

Two systems reporting the same figures: {len(REGIONS) * len(QUARTERS)} rows x 3 columns
(`region`, `quarter` as `2024Q1`, `revenue` in USD), 4 regions x 12 quarters (2022Q1-2024Q4).
ERP is sorted region-first, CRM quarter-first (compare by key, not by line). ERP equals
sales.csv revenue summed by region and quarter. They agree on 45 figures and differ on exactly
3:

{md_table(["region", "quarter", "ERP revenue", "CRM revenue", "CRM - ERP", "ERP line",
           "CRM line", "why (story)"], diff_rows)}

(Line numbers are 1-based file lines, header = line 1.)

### `broken/orders_broken.csv`

Header + {broken['data_rows']} data rows, 7 columns (`order_id, order_date, customer_id,
product, units, unit_price, revenue`; the first 20 orders of sales.csv). **Line
{broken['broken_line']}** (order `{broken['broken_id']}`, data row {broken['broken_line'] - 1})
has 8 fields: the product `{broken['broken_product']}` contains an unquoted comma. pandas says
`Expected 7 fields in line {broken['broken_line']}, saw 8`. Every other line has 7 fields.

### `broken/corrupt.xlsx`

{broken['corrupt_size']} bytes that are not a zip archive (a one-line text notice followed by
seeded random bytes). Any XLSX reader must fail on it with an error that names the file.

## 3. Second dataset (`alt/`), for benchmarks

A differently shaped domain — clinics, not sales — so algorithms are not tuned to one
dataset. Different region names (Coastal, Highlands, Metro, Valley), different time formats
(`Q1 2024`, `FY2024`).

{md_table(["file", "shape", "ID", "time", "categorical", "numeric"], alt_rows)}

- `staffing.csv` and `patient_visits.csv` have one row per clinic and period (patient visits:
  per clinic, month and service line Outpatient / Emergency); their `record_id` is a row id,
  the entity is `clinic_id`.
- `no_show_pct` is a percent number (7.1 means 7.1%); it is 0.0 for Emergency rows.
- `variance` = actual - budgeted.
- Riverside Clinic (CL01) agrees with `docs/riverside_clinic_2024.pdf`: Q4 2024
  {int(riverside.registered_nurses)} registered nurses and {int(riverside.physicians)} physicians
  (Q1-Q4 2024 nurses {', '.join(str(a) for a, _ in RIVERSIDE_2024)}; physicians
  {', '.join(str(b) for _, b in RIVERSIDE_2024)}), so "employed 412 registered nurses and 57
  physicians in 2024" is the year-end figure; 310 beds; Outpatient visits summed over 2024-01 ..
  2024-12 = {RIVERSIDE_OUTPATIENT_2024:,} exactly. The PDF's other facts (inpatient admissions,
  revenue, length of stay, parent company) are not in these tables. No clinic shares a name with
  the Crestwood / Northgate documents.

## `docs/` (PDFs)

Made by `docs/make_docs.py`, not by this generator; `generate.py` never touches `docs/`.

## Size

CSV cells across sections 1 and 3: {all_csv_cells:,}; all sample files stay under 60,000 cells
and well under 5 MB.
"""
    (ROOT / "README.md").write_text(text, encoding="utf-8")


def main() -> None:
    hr = make_hr()
    customers = make_customers(hr)
    sales = make_sales(customers)
    inventory = make_inventory()
    expenses = make_expenses()
    marketing = make_marketing()

    write_csv(sales, ROOT / "sales.csv", money=("unit_price", "revenue", "cost"))
    write_csv(customers, ROOT / "customers.csv")
    write_csv(expenses, ROOT / "expenses.csv", money=("amount", "budget"))
    write_csv(inventory, ROOT / "inventory.csv", money=("unit_cost", "unit_price"))
    write_csv(hr, ROOT / "hr.csv")
    write_csv(marketing, ROOT / "marketing.csv", money=("spend", "attributed_revenue"))

    messy = ROOT / "messy"
    messy.mkdir(exist_ok=True)
    regional = make_regional_report(sales, hr, messy / "regional_report.xlsx")
    financials = make_financials(messy / "financials_wide.xlsx")
    make_formats(messy / "formats.csv")
    make_suppliers(messy / "suppliers_cp1252.csv")
    diffs = make_conflicts(sales, ROOT / "conflicts")
    broken = make_broken(sales, ROOT / "broken")
    alt = make_alt(ROOT / "alt")

    write_readme(dict(sales=sales, customers=customers, expenses=expenses, inventory=inventory,
                      hr=hr, marketing=marketing, regional=regional, financials=financials,
                      diffs=diffs, broken=broken, alt=alt))
    counts = Counter(p.suffix for p in ROOT.rglob("*") if p.is_file())
    print("wrote", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
