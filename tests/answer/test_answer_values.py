"""`Answer.values`, `Answer.scale`, `Answer.program`: what a caller compares or scores, read
from the answer itself (`answer.synthesize.values`), through `kb.ask` and `hyrag ask --json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hyrag
from hyrag.answer.answer import FIELDS
from hyrag.cli import main
from hyrag.settings import Settings

SETTINGS = Settings(answer_use_search=False)

# a long table, as an export would give it: one row per region and year, amounts in thousands
SALES = """(in thousands)
region,year,revenue
North,2023,120
North,2024,150
South,2023,90
South,2024,80
"""

# a wide statement: line items by year, amounts in millions, a margin in percent
REPORT = """(in millions)
Line item,2024,2023
Revenue,1250.5,1100.0
Operating income,310.2,280.4
Gross margin,42.5%,40.1%
"""


@pytest.fixture(scope="module")
def sales_kb(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("values_sales")
    (folder / "sales.csv").write_text(SALES, encoding="utf-8")
    kb = hyrag.open(folder / "kb", settings=SETTINGS)
    kb.ingest(folder / "sales.csv")
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def report_kb(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("values_report")
    (folder / "report.csv").write_text(REPORT, encoding="utf-8")
    kb = hyrag.open(folder / "kb", settings=SETTINGS)
    kb.ingest(folder / "report.csv")
    yield kb
    kb.close()


def test_lookup_answers_with_the_cell_number_and_its_scale(sales_kb) -> None:
    a = sales_kb.ask("What was the revenue of North in 2024?")
    assert a.decision == "answer"
    assert a.values == (150.0,) and a.scale == "thousand"
    assert a.program is None  # a claim read as it stands: no program produced it


def test_difference_between_two_years_is_in_its_operands_scale(sales_kb) -> None:
    a = sales_kb.ask("What was the difference in revenue of North between 2024 and 2023?")
    assert a.decision == "answer"
    assert a.values == (30.0,) and a.scale == "thousand"
    p = a.program
    assert p["kind"] == "derivation" and p["operation"] == "difference"
    ids = {r[0] for r in sales_kb.store.con.execute(
        "SELECT claim_id FROM claims WHERE entity = 'North' AND time_key IN ('2023', '2024')"
        " AND value_num IS NOT NULL").fetchall()}
    assert len(p["operands"]) == 2 and set(p["operands"]) <= ids


def test_growth_rate_is_a_percent(sales_kb) -> None:
    a = sales_kb.ask("What was the growth rate of revenue of North from 2023 to 2024?")
    assert a.decision == "answer"
    assert a.values == (25.0,) and a.scale == "percent"
    assert a.program["operation"] == "growth"


def test_ranking_answers_with_the_row_ranked_first(sales_kb) -> None:
    a = sales_kb.ask("Which region had the highest revenue in 2024?")
    assert a.decision == "answer"
    assert a.values == ("North",)
    assert a.program["kind"] == "sql" and "ORDER BY" in a.program["sql"]


def test_table_reader_change_between_years(report_kb) -> None:
    a = report_kb.ask("What was the change in revenue from 2023 to 2024?")
    assert a.decision == "answer"
    assert a.values == (150.5,) and a.scale == "million"
    assert a.program["kind"] == "table_reader" and a.program["operation"] == "difference"
    assert len(a.program["operands"]) == 2


def test_table_reader_percentage_change_is_a_percent(report_kb) -> None:
    a = report_kb.ask("What was the percentage change in revenue from 2023 to 2024?")
    assert a.decision == "answer"
    assert a.values == (13.68,) and a.scale == "percent"


def test_a_percent_cell_is_quoted_as_displayed(report_kb) -> None:
    a = report_kb.ask("What was the gross margin in 2024?")
    assert a.decision == "answer"
    assert a.values == ("42.5%",) and a.scale == ""


def test_abstention_has_no_values(report_kb) -> None:
    a = report_kb.ask("What was the number of employees in 2024?")
    assert a.decision != "answer"
    assert a.values == () and a.scale == ""


def test_to_dict_and_ask_json_carry_values_scale_program(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "report.csv").write_text(REPORT, encoding="utf-8")
    q = "What was the revenue in 2024?"
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(tmp_path / "report.csv")
        d = kb.ask(q).to_dict()
    assert tuple(d) == FIELDS and {"values", "scale", "program"} <= set(d)
    assert d["values"] == [1250.5] and d["scale"] == "million"
    assert d["program"]["operation"] == "lookup"
    assert main(["ask", q, "--kb", str(tmp_path / "kb"), "--no-search", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["values"] == [1250.5] and out["scale"] == "million"
    assert out["program"] == d["program"]


def test_which_row_a_superlative_picks_is_answered_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "club.csv").write_text("Player,HR,Team\nHank Aaron,755,Braves\n"
                                       "Eddie Murray,504,Orioles\nWillie Mays,660,Giants\n",
                                       encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(tmp_path / "club.csv")
        a = kb.ask("which player has the least amount of home runs?")
    assert a.decision == "answer"
    assert a.values == ("Eddie Murray",)  # the row's name, not its 504


# a list whose rows are dated as the file writes them, and films with their years
EVENTS = 'Event,Date,Place\nOpening,"June 24, 1968",Paris\nFinal,"July 2, 1970",Rome\n'
FILMS = "Film,Year,Director\nAlpha,1979,Ann Lee\nBeta,1985,Bo Chan\n"


@pytest.mark.parametrize(("name", "data", "question", "value"), [
    ("events", EVENTS, "On what date was the Opening?", "June 24, 1968"),
    ("films", FILMS, "In which year was Beta released?", "1985"),
], ids=["date", "year"])
def test_a_period_is_quoted_as_the_file_writes_it(tmp_path, name, data, question, value):
    # the typed column holds an ISO date or a year key; the answer quotes the cell, and a year
    # is no amount to group by thousands ("1,985")
    (tmp_path / f"{name}.csv").write_text(data, encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(tmp_path / f"{name}.csv")
        a = kb.ask(question)
    assert a.decision == "answer"
    assert a.values == (value,)
    assert a.text.count(value) == 1  # stated once, in the question's words
    assert "1,985" not in a.text and "1968-06-24" not in a.text


def test_a_row_picked_by_its_figure_quotes_its_date_as_written(tmp_path):
    """A list of games whose headers repeat ("Score" for each side, which the typed table
    renames apart): the row with the most attendance is named by its date as the file writes
    it, not by the typed column's ISO date."""
    (tmp_path / "games.csv").write_text(
        "Date,Winner,Score,Loser,Score,Attendance\n"
        '"October 21, 1993",St. Louis,5,San Jose,2,"7,144"\n'
        '"January 4, 1994",Tampa Bay,3,Boston,1,"17,526"\n'
        '"January 5, 1994",Montreal,4,Ottawa,2,"9,034"\n', encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(tmp_path / "games.csv")
        a = kb.ask("The game on which date had the most attendance?")
    assert a.decision == "answer"
    assert a.values == ("January 4, 1994",)
    assert "1994-01-04" not in a.text  # nor the row's period key, in a reader's words
    assert "(as of January 4, 1994) was 17,526" in a.text


def test_a_row_label_cell_is_cited_without_restating_itself(tmp_path):
    """The cell that names a row ("Opening" in the Event column of the row "Opening") is cited
    as the column's value, not as "Opening Event was Opening"."""
    (tmp_path / "events.csv").write_text(EVENTS, encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(tmp_path / "events.csv")
        a = kb.ask("How many events were there?")
    assert a.decision == "answer" and a.values == (2.0,)
    assert "Event: Opening [1]" in a.text and "Opening Event was Opening" not in a.text
