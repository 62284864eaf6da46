"""Text claims: (entity, attribute, value_num, scale, unit, time_key) per fact of a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.pdf import read_pdf
from ingest.text import passages_from_strings, read_text_file
from ingest.textclaims import extract_claims, find_entities, is_negated
from ingest.types import Passage

DOCS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"


def _facts(texts: list[str]) -> list[tuple]:
    claims, _ = extract_claims(passages_from_strings(texts, "notes.txt"))
    return [(c.entity, c.attribute, c.value_num, c.scale, c.unit, c.time_key)
            for c in claims if c.value_num is not None]


CASES = [
    # CONTRACT.md: one sentence, two facts, two claims
    (["Riverside Clinic employed 412 registered nurses and 57 physicians in 2024."],
     [("Riverside Clinic", "registered nurses", 412.0, "", "", "2024"),
      ("Riverside Clinic", "physicians", 57.0, "", "", "2024")]),
    (["Acme Corp. reported results. Revenue rose 12% to $4.4 billion in fiscal 2023."],
     [("Acme Corp", "revenue growth", 12.0, "percent", "%", "2023"),
      ("Acme Corp", "revenue", 4.4, "billion", "USD", "2023")]),
    (["The graduate employment rate of Crestwood College was 88 percent for the class of 2024."],
     [("Crestwood College", "graduate employment rate", 88.0, "percent", "%", "2024")]),
    (["Fjordline Logistics AS is based in Bergen. Group revenue was NOK 1,412.6 million in 2024."],
     [("Fjordline Logistics AS", "group revenue", 1412.6, "million", "NOK", "2024")]),
    (["Riverside Clinic is busy. Average length of stay fell to 4.2 days in the third quarter "
      "of 2024."],
     [("Riverside Clinic", "average length of stay", 4.2, "", "days", "2024Q3")]),
    (["As of December 31, 2019, Riverside Clinic had 310 licensed beds."],
     [("Riverside Clinic", "licensed beds", 310.0, "", "", "2019-12-31")]),
    (["The first-year retention rate at Northgate University was 86 percent in 2024, and the "
      "six-year graduation rate was 71 percent."],
     [("Northgate University", "first-year retention rate", 86.0, "percent", "%", "2024"),
      ("Northgate University", "six-year graduation rate", 71.0, "percent", "%", "2024")]),
    (["Crestwood College budgeted well. The college's operating budget was $182.5 million in "
      "fiscal 2024, up 4.1% from fiscal 2023."],
     [("Crestwood College", "operating budget", 182.5, "million", "USD", "2024"),
      ("Crestwood College", "operating budget growth", 4.1, "percent", "%", "2024")]),
    (["In fall 2024, Northgate University enrolled 18,240 students, including 14,900 "
      "undergraduates."],
     [("Northgate University", "students", 18240.0, "", "", "2024"),
      ("Northgate University", "undergraduates", 14900.0, "", "", "2024")]),
    (["Nordic Foods AS is growing. Its revenue rose 9% to NOK 2.4 billion in fiscal 2024."],
     [("Nordic Foods AS", "revenue growth", 9.0, "percent", "%", "2024"),
      ("Nordic Foods AS", "revenue", 2.4, "billion", "NOK", "2024")]),
    (["The student-to-faculty ratio at Northgate University was 17 to 1 in 2024."],
     [("Northgate University", "student-to-faculty ratio", 17.0, "", "ratio", "2024")]),
    (["Acme Inc. revenue was $5.0m in 2023 and $6.5m in 2024."],
     [("Acme Inc", "revenue", 5.0, "million", "USD", "2023"),
      ("Acme Inc", "revenue", 6.5, "million", "USD", "2024")]),
    (["Harbor Health Partners reported EBITDA of $31.5 million in H1 2024."],
     [("Harbor Health Partners", "ebitda", 31.5, "million", "USD", "2024H1")]),
    (["Lakeview Clinic employed 96 registered nurses as of June 30, 2024."],
     [("Lakeview Clinic", "registered nurses", 96.0, "", "", "2024-06-30")]),
    (["Fuel costs at Fjordline Logistics AS increased by 11% in the third quarter of 2024."],
     [("Fjordline Logistics AS", "fuel costs growth", 11.0, "percent", "%", "2024Q3")]),
    (["Baltic Bakeries Ltd operated 14 bakeries and employed 380 people in 2024."],
     [("Baltic Bakeries Ltd", "bakeries", 14.0, "", "", "2024"),
      ("Baltic Bakeries Ltd", "people", 380.0, "", "people", "2024")]),
    (["The median starting salary of Crestwood College graduates was $54,300 in 2024."],
     [("Crestwood College", "median starting salary", 54300.0, "", "USD", "2024")]),
    (["Crestwood College admitted 38% of its 9,450 applicants for fall 2024."],
     [("Crestwood College", "share of applicants admitted", 38.0, "percent", "%", "2024"),
      ("Crestwood College", "applicants", 9450.0, "", "", "2024")]),
    # a year is a period, never a value; "founded in 1894" is not a measurement
    (["Crestwood College was founded in 1894 and had 120 students in 1901."],
     [("Crestwood College", "students", 120.0, "", "", "1901")]),
]


@pytest.mark.parametrize(("texts", "expected"), CASES, ids=[c[0][-1][:40] for c in CASES])
def test_claim_facts(texts: list[str], expected: list[tuple]) -> None:
    assert _facts(texts) == expected


# Issue 3: tricky sentences for number and period extraction, one table. Each row: the text and
# every fact with a value, as (entity, attribute, value_num, scale, unit, time_key).
TRICKY = [
    (['Acme Corp. reported revenue of $4.4 billion in fiscal 2023.'],
     [('Acme Corp', 'revenue', 4.4, 'billion', 'USD', '2023')]),
    (['Acme Inc. posted a net loss of (1,234) in fiscal 2021.'],
     [('Acme Inc', 'net loss', -1234.0, '', '', '2021')]),
    (['Acme Inc. is a maker of tools. Gross margin was 12.5% in the third quarter of 2024.'],
     [('Acme Inc', 'gross margin', 12.5, 'percent', '%', '2024Q3')]),
    (['As of December 31, 2019, Beta Ltd had 1,250 employees.'],
     [('Beta Ltd', 'employees', 1250.0, '', 'employees', '2019-12-31')]),
    (['Beta Ltd had cash of €350.5 million as of March 31, 2024.'],
     [('Beta Ltd', 'cash', 350.5, 'million', 'EUR', '2024-03-31')]),
    (['Revenue at Gamma AG grew 3.5% to EUR 812 million in Q2 2024.'],
     [('Gamma AG', 'revenue growth', 3.5, 'percent', '%', '2024Q2'),
      ('Gamma AG', 'revenue', 812.0, 'million', 'EUR', '2024Q2')]),
    (["Delta Bank's net interest margin was 2.85% in 2023, compared with 2.61% in 2022."],
     [('Delta Bank', 'net interest margin', 2.85, 'percent', '%', '2023'),
      ('Delta Bank', 'net interest margin', 2.61, 'percent', '%', '2022')]),
    (['Omega Shipping ASA carried 1.2 million passengers in 2023 and 1.35 million in 2024.'],
     [('Omega Shipping ASA', 'passengers carried', 1.2, 'million', '', '2023'),
      ('Omega Shipping ASA', 'passengers carried', 1.35, 'million', '', '2024')]),
    (['Zeta Mining Corp. produced 410,000 ounces of gold in fiscal 2022.'],
     [('Zeta Mining Corp', 'ounces produced', 410000.0, '', '', '2022')]),
    (['Sigma Retail operated 312 stores at the end of 2023.'],
     [('Sigma Retail', 'stores', 312.0, '', '', '2023')]),
    (["Sigma Retail's same-store sales rose 4% in H2 2023."],
     [('Sigma Retail', 'same-store sales growth', 4.0, 'percent', '%', '2023H2')]),
    (['Kappa Energy expects capital expenditure of $1.1-1.3 billion in 2025.'],
     [('Kappa Energy', 'capital expenditure', 1.1, 'billion', 'USD', '2025'),
      ('Kappa Energy', 'capital expenditure', 1.3, 'billion', 'USD', '2025')]),
    (['Iota Systems had 85 customers in 2022, 97 in 2023 and 112 in 2024.'],
     [('Iota Systems', 'customers', 85.0, '', '', '2022'),
      ('Iota Systems', 'customers', 97.0, '', '', '2023'),
      ('Iota Systems', 'customers', 112.0, '', '', '2024')]),
    (["Lambda Health's EBITDA margin improved to 18.2% in 2024 from 16.9% in 2023."],
     [('Lambda Health', 'ebitda margin', 18.2, 'percent', '%', '2024'),
      ('Lambda Health', 'ebitda margin', 16.9, 'percent', '%', '2023')]),
    (['Nu Telecom added 45,000 subscribers in the first quarter of 2024.'],
     [('Nu Telecom', 'subscribers added', 45000.0, '', '', '2024Q1')]),
    (['Xi Logistics paid a dividend of NOK 4.50 per share for 2023.'],
     [('Xi Logistics', 'dividend', 4.5, '', 'NOK', '2023')]),
    (['Pi Insurance reported a combined ratio of 94.1% in 2023.'],
     [('Pi Insurance', 'combined ratio', 94.1, 'percent', '%', '2023')]),
    (['Rho Pharma spent $612 million on research and development in 2024.'],
     [('Rho Pharma', 'research and development', 612.0, 'million', 'USD', '2024')]),
    (["Upsilon Bank's common equity tier 1 ratio was 13.4% as of June 30, 2024."],
     [('Upsilon Bank', 'common equity tier 1 ratio', 13.4, 'percent', '%', '2024-06-30')]),
    (['Phi Motors delivered 48,200 vehicles in the fourth quarter of 2023.'],
     [('Phi Motors', 'vehicles', 48200.0, '', '', '2023Q4')]),
    (['Chi Water serves 1.8 million people in 2024.'],
     [('Chi Water', 'people', 1.8, 'million', 'people', '2024')]),
    (['Orion Labs had 42 employees in 2021 and 57 employees in 2022.'],
     [('Orion Labs', 'employees', 42.0, '', 'employees', '2021'),
      ('Orion Labs', 'employees', 57.0, '', 'employees', '2022')]),
    (['Vega Foods AS reported revenue of NOK 912.4 million in 2023, up 11.2%.'],
     [('Vega Foods AS', 'revenue', 912.4, 'million', 'NOK', '2023'),
      ('Vega Foods AS', 'revenue growth', 11.2, 'percent', '%', '2023')]),
    (["Sirius Mining's production cost was $1,085 per ounce in 2024."],
     [('Sirius Mining', 'production cost', 1085.0, '', 'USD', '2024')]),
    (['Altair Retail closed 14 stores and opened 22 stores in 2024.'],
     [('Altair Retail', 'stores closed', 14.0, '', '', '2024'),
      ('Altair Retail', 'stores opened', 22.0, '', '', '2024')]),
    (['At Polaris Bank, loan losses were 0.4% of loans in 2023.'],
     [('Polaris Bank', 'share of loans', 0.4, 'percent', '%', '2023')]),
    (['Rigel Health employed approximately 2,100 people as of December 31, 2023.'],
     [('Rigel Health', 'people', 2100.0, '', 'people', '2023-12-31')]),
    (["Deneb Foods' revenue fell 2.4% to $3.1 billion in fiscal 2022."],
     [('Deneb Foods', 'revenue decline', 2.4, 'percent', '%', '2022'),
      ('Deneb Foods', 'revenue', 3.1, 'billion', 'USD', '2022')]),
    (['Mira Software had annual recurring revenue of $48.6 million at the end of 2024.'],
     [('Mira Software', 'annual recurring revenue', 48.6, 'million', 'USD', '2024')]),
    (['Kestrel Dynamics expects revenue growth of 6% to 8% in fiscal 2025.'],
     [('Kestrel Dynamics', 'revenue growth', 6.0, 'percent', '%', '2025'),
      ('Kestrel Dynamics', 'revenue growth', 8.0, 'percent', '%', '2025')]),
    (['Dr. Lee joined Nova Corp. in 2020. Nova Corp. had 310 staff in 2021.'],
     [('Nova Corp', 'staff', 310.0, '', '', '2021')]),
    (['Atlas Ltd. sold 1.5m units in Q1 2024. It hired 40 engineers in Q2 2024.'],
     [('Atlas Ltd', 'units', 1.5, 'million', 'units', '2024Q1'),
      ('Atlas Ltd', 'engineers hired', 40.0, '', '', '2024Q2')]),
]


@pytest.mark.parametrize(("texts", "expected"), TRICKY, ids=[c[0][-1][:40] for c in TRICKY])
def test_tricky_sentences(texts: list[str], expected: list[tuple]) -> None:
    assert _facts(texts) == expected


def test_two_facts_of_one_sentence_have_distinct_spans_and_full_text() -> None:
    s = "Riverside Clinic employed 412 registered nurses and 57 physicians in 2024."
    claims, _ = extract_claims(passages_from_strings([s], "clinic.txt"))
    a, b = claims
    assert a.text == b.text == s
    assert a.kind == b.kind == "text"
    assert s[slice(*a.locator.span)] == "412" and s[slice(*b.locator.span)] == "57"
    assert a.locator.paragraph == 0 and a.locator.sentence == 0 and a.locator.file == "clinic.txt"
    assert a.value_text == "412" and a.value_base == 412.0
    assert a.period_start.isoformat() == "2024-01-01" and a.period_end.isoformat() == "2024-12-31"
    assert a.order_key is not None
    assert a.conf_base == 0.75 < 0.95  # below a table cell


def test_pronoun_is_resolved_in_brackets_and_penalised() -> None:
    claims, _ = extract_claims(passages_from_strings(
        ["Northgate University is a public university. Its research expenditure was $96 million "
         "in fiscal 2024."], "ng.txt"))
    c = next(c for c in claims if c.value_num == 96.0)
    assert c.entity == "Northgate University"
    assert c.text == ("[Northgate University] Its research expenditure was $96 million in "
                      "fiscal 2024.")
    assert c.value_base == 96_000_000.0
    assert c.conf_base == pytest.approx(0.70)
    assert c.locator.sentence == 1


def test_period_inherited_from_heading() -> None:
    passages = [Passage("r.md", "Riverside Clinic Annual Report 2024", None, 0),
                Passage("r.md", "The clinic recorded 86,300 outpatient visits.", None, 1)]
    claims, _ = extract_claims(passages)
    (c,) = claims
    assert (c.entity, c.attribute, c.value_num, c.time_key) == (
        "Riverside Clinic", "outpatient visits", 86300.0, "2024")
    assert c.text == "[Riverside Clinic, 2024] The clinic recorded 86,300 outpatient visits."


def test_no_period_anywhere_gives_none() -> None:
    claims, _ = extract_claims(passages_from_strings(
        ["Northgate University employs 1,950 staff on its Millbrook campus."], "x.txt"))
    (c,) = claims
    assert (c.entity, c.attribute, c.value_num, c.time_key) == (
        "Northgate University", "staff", 1950.0, None)


def test_fiscal_year_start_is_passed_to_periods() -> None:
    claims, _ = extract_claims(
        passages_from_strings(["Acme Inc. revenue was $5.0m in fiscal 2024."], "x.txt"),
        fiscal_year_start_month=7,
    )
    (c,) = claims
    assert c.time_key == "2024" and c.period_start.isoformat() == "2023-07-01"


def test_negated_fact_without_number() -> None:
    claims, _ = extract_claims(passages_from_strings(
        ["Northgate University is a public university. Northgate does not disclose its "
         "headcount."], "ng.txt"))
    neg = [c for c in claims if is_negated(c)]
    assert len(neg) == 1
    c = neg[0]
    assert (c.entity, c.attribute, c.value_num, c.value_text) == (
        "Northgate University", "headcount", None, None)
    assert c.text == ("[negated] [Northgate University] Northgate does not disclose its "
                      "headcount.")
    assert c.locator.span is None and c.locator.sentence == 1


def test_fact_without_number_becomes_one_claim() -> None:
    claims, _ = extract_claims(passages_from_strings(
        ["Riverside Clinic is a subsidiary of Harbor Health Partners."], "x.txt"))
    (c,) = claims
    assert c.entity == "Riverside Clinic" and c.value_num is None and not is_negated(c)
    assert "subsidiary" in c.attribute


def test_heading_is_context_not_a_claim() -> None:
    claims, _ = extract_claims([Passage("a.md", "Crestwood College Overview 2024", None, 0)])
    assert claims == []


def test_entities() -> None:
    s = "The Hale Library of Crestwood College and Fjordline Logistics AS met Acme Inc. in Bergen."
    names = [e for _, _, e in find_entities(s)]
    assert names == ["Hale Library of Crestwood College", "Fjordline Logistics AS", "Acme Inc",
                     "Bergen"]
    assert [e for _, _, e in find_entities("Arts and Humanities grew.")] == [
        "Arts and Humanities"]
    assert [e for _, _, e in find_entities("Northgate does not disclose it.",
                                           ["Northgate University"])] == ["Northgate University"]
    assert find_entities("Revenue was NOK 5 million.") == []


# --- seed 000, section VI: partial coverage -------------------------------------------------

def _claims_of(*names: str):
    out = []
    for n in names:
        _, passages = read_pdf(DOCS / n)
        out.extend(extract_claims(passages)[0])
    return out


def test_seed_scenario_crestwood_rate_is_a_claim() -> None:
    claims = _claims_of("crestwood_employment_outcomes_2024.pdf")
    hits = [c for c in claims if c.attribute == "graduate employment rate"]
    assert len(hits) == 1
    c = hits[0]
    assert (c.entity, c.value_num, c.scale, c.unit, c.time_key) == (
        "Crestwood College", 88.0, "percent", "%", "2024")
    assert c.locator.file.endswith("crestwood_employment_outcomes_2024.pdf")
    assert c.locator.page == 1 and c.locator.paragraph == 2 and c.locator.sentence == 0


def test_seed_scenario_northgate_states_no_employment_rate() -> None:
    claims = _claims_of("northgate_overview_2024.pdf", "northgate_academics_2024.pdf")
    assert claims and all(c.entity == "Northgate University" or c.entity == "Career Services"
                          for c in claims)
    assert not any("employment rate" in (c.attribute or "") for c in claims)
    # the near-misses a relevance rule must reject are there: same entity, other attributes
    attrs = {c.attribute for c in claims}
    assert {"first-year retention rate", "staff", "students placed"} <= attrs


def test_markdown_notes_claims() -> None:
    claims, relations = extract_claims(read_text_file(DOCS / "market_notes.md"))
    got = {(c.entity, c.attribute, c.value_num, c.time_key) for c in claims}
    assert ("Lakeview Clinic", "physicians", 14.0, "2024-06-30") in got
    assert ("Nordic Foods AS", "revenue", 2.4, "2024") in got
    rels = {(r.head, r.relation, r.tail) for r in relations}
    assert ("Nordic Foods AS", "acquires", "Baltic Bakeries Ltd") in rels
    assert ("Baltic Bakeries Ltd", "subsidiary_of", "Nordic Foods AS") in rels
    assert ("Lakeview Clinic", "located_in", "Duluth, Minnesota") in rels
    assert any(is_negated(c) and c.entity == "Harbor Health Partners" for c in claims)


def _periods_of(text: str) -> list[tuple[float, str | None]]:
    claims, _ = extract_claims(passages_from_strings([text], "notes.txt"))
    return [(c.value_num, c.time_key) for c in claims if c.value_num is not None]


def test_respectively_pairs_the_nth_amount_with_the_nth_period() -> None:
    # the nearest period after each amount is 2019 for all three: an analyst pairs in order
    text = ("Acme Corp recorded depreciation expense of $2.5 million, $2.6 million and $2.4 "
            "million during fiscal 2019, 2018 and 2017, respectively.")
    assert _periods_of(text) == [(2.5, "2019"), (2.6, "2018"), (2.4, "2017")]


def test_respectively_two_lists_and_a_segment_that_inherits_its_periods() -> None:
    text = ("Acme Corp had long-term debt of $2.9 billion and $2.5 billion and current debt of "
            "$118 million and $131 million at 2019 and 2018, respectively, of which $90 "
            "million and $80 million, respectively, was secured.")
    assert _periods_of(text) == [(2.9, "2019"), (2.5, "2018"), (118.0, "2019"), (131.0, "2018"),
                                 (90.0, "2019"), (80.0, "2018")]


def test_respectively_with_counts_that_do_not_pair_claims_no_period() -> None:
    # three amounts, two periods: which amount is which year is not written
    text = ("Acme Corp paid fees of $1.0 million, $2.0 million and $3.0 million in 2019 and "
            "2018, respectively.")
    assert [p for _, p in _periods_of(text)] == [None, None, None]


def test_a_listed_amount_keeps_the_lists_attribute() -> None:
    # "... $2.6 million and $2.4 million": the words before the last amount are the previous
    # amount's scale, not what it measures
    claims, _ = extract_claims(passages_from_strings(
        ["Acme Corp recorded depreciation expense of $2.5 million, $2.6 million and $2.4 "
         "million during fiscal 2019, 2018 and 2017, respectively."], "notes.txt"))
    assert {c.attribute for c in claims if c.value_num is not None} == {"depreciation expense"}
