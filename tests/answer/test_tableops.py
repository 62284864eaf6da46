"""Row-and-column operators (`tableops`) on small list tables a user might keep: each answer
is computed over cells, cites the cells it read, and a question the table cannot resolve is
abstained on rather than guessed."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import tableops
from hyrag.settings import Settings

SEASONS = """Year,Team,League,Wins,Losses,Attendance,Coach
2001,Riverton Hawks,Premier,12,6,"7,169",Ann Lee
2002,Riverton Hawks,Premier,9,9,"6,260",Ann Lee
2003,Riverton Hawks,Premier,15,3,"5,871",Ben Ortiz
2004,Riverton Hawks,First Division,7,11,"5,628",Ben Ortiz
2005,Riverton Hawks,First Division,14,4,"6,028",Cara Singh
2006,Riverton Hawks,First Division,11,7,"5,575",Cara Singh
"""

MEDALS = """Rank,Nation,Gold,Silver,Bronze,Total
1,Norway,5,3,2,10
2,Kenya,4,4,1,9
3,Chile,2,1,3,6
4,Ghana,0,2,2,4
Total,,11,10,8,29
"""


def _kb(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.csv"
    path.write_text(text, encoding="utf-8")
    kb = hyrag.open(tmp_path / f"kb_{name}", settings=Settings(answer_use_search=False))
    kb.ingest(path)
    return kb


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory):
    kb = _kb(tmp_path_factory.mktemp("seasons"), "seasons", SEASONS)
    yield kb
    kb.close()


@pytest.fixture(scope="module")
def medals(tmp_path_factory: pytest.TempPathFactory):
    kb = _kb(tmp_path_factory.mktemp("medals"), "medals", MEDALS)
    yield kb
    kb.close()


def _resolve(kb, question: str):
    res = tableops.resolve(question, kb.store.con)
    return None if res is None else res.answer


@pytest.mark.parametrize(("question", "expected"), [
    ("what was the last year the team played in the premier league?", "2003"),
    ("who was the coach in 2004?", "Ben Ortiz"),
    ("which year had the most wins?", "2003"),
    ("how many seasons had at least 12 wins?", 3.0),
    ("how many seasons were in the first division?", 3.0),
    ("who coached the hawks after 2004?", "Cara Singh"),  # a filter, not the next row
    ("which team came after riverton hawks?", None),  # every row holds it: no single anchor
    ("what is the total number of losses?", 40.0),
    ("which coach appears the most?", None),  # a three-way tie: no single answer
])
def test_row_operators(seasons, question: str, expected: object) -> None:
    assert _resolve(seasons, question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("which nation won the most silver medals?", "Kenya"),
    ("how many gold medals did kenya win?", "4"),
    ("who won more gold medals, chile or ghana?", "Chile"),
    ("what is the difference in total medals between norway and ghana?", 6.0),
    ("what is the total number of gold medals?", 11.0),  # the totals line is not added twice
    ("how many nations won at least 2 bronze medals?", 3.0),
    ("which nation is listed first?", "Norway"),
    ("which nation is listed after kenya?", "Chile"),
    ("which nation came right before chile?", "Kenya"),
    ("has chile won more or less medals than kenya?", "less"),  # the "or" is the question's
])
def test_comparisons_and_totals(medals, question: str, expected: object) -> None:
    assert _resolve(medals, question) == expected


def test_unresolvable_question_is_not_guessed(medals) -> None:
    assert _resolve(medals, "what was the population of norway?") is None
    assert _resolve(medals, "who is the coach of peru?") is None


def test_engine_answers_with_citations(seasons) -> None:
    engine = AnswerEngine(seasons)
    ans = engine.ask("how many seasons had at least 12 wins?")
    assert ans.decision == "answer"
    assert engine.last_table_answer["value"] == 3.0
    assert ans.derivations and ans.derivations[0]["result"] == 3.0
    cited = {e["locator"] for e in ans.evidence}
    assert len(cited) == 3 and all('"column":"Wins"' in c for c in cited)
    assert "[1]" in ans.text


def test_engine_names_the_row_of_a_superlative(medals) -> None:
    engine = AnswerEngine(medals)
    ans = engine.ask("which nation had the fewest gold medals?")
    assert ans.decision == "answer"
    assert "Ghana" in ans.text and "[1]" in ans.text
    assert any("Ghana" in e["text"] for e in ans.evidence)


def test_a_question_wanting_a_computed_number_is_not_answered_with_cells(medals) -> None:
    assert _resolve(medals, "how many gold medals did Kenya win?") == "4"
    for q in ("what is the ratio of Kenya's gold medals to Chile's?",
              "what percentage of the gold medals did Kenya win?"):
        assert _resolve(medals, q) not in ("4", ["4", "2"], ["4"])


GAMES = """Date,Opponent,Venue,Result,Attendance,Scorer
3 May 2010,Varbergs GIF (D3),Home,Won,"1,650",Ann Lee
17 May 2010,Lund BK,Away,Lost,980,Ben Ortiz
2 June 2010,Kalmar FF,Home,Won,"2,110",Ann Lee
20 June 2011,Lund BK,Home,Drawn,"1,420",Cara Singh
4 May 2011,Kalmar FF,Away,Won,"1,505",Dan Moss
"""

SERIES = """Title,Release,Platform,Lead
Super Kid,1986,NES,Ann Lee
Super Kid 2,1990,SNES,Ann Lee
Super Kid Deluxe,1999,N64,Ben Ortiz
Moon Quest,1994,SNES,Cara Singh
"""

OFFICIALS = """Name,Party,Term,Born,Died,Age
Ian Webb,Liberal,1981–2007,1921,2015,94
Jo Park,Labour,1975–1981,1930,2019,89
Lee Hart,Liberal,1962–1975,1911,2003,92
Sam Dole,Green,2007–2011,1950,2012,62
"""

AWARDS = """Year,Category,Work,Result
2005,Best Actress,Doubt,Won
2005,Outstanding Actress,Doubt,Won
2006,Best Actress,Frost,Nominated
2007,Best Director,Frost,Won
"""


@pytest.fixture(scope="module")
def more(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("more")
    kbs = {n: _kb(base, n, t) for n, t in (("games", GAMES), ("series", SERIES),
                                            ("officials", OFFICIALS), ("awards", AWARDS))}
    yield kbs
    for kb in kbs.values():
        kb.close()


@pytest.mark.parametrize(("question", "expected"), [
    # a count that selects the one row a key names asks for a figure of that row, not "1"
    ("how many medals did norway win?", None),
    # "not" before a named value excludes its rows; a "not" excluding nothing named abstains
    ("how many seasons were not coached by ann lee?", 4.0),
    ("how many seasons were not coached by ben ortiz or cara singh?", 2.0),
    ("how many nations have not been ranked?", None),
    # a run of consecutive rows is not a count of every row
    ("how many consecutive seasons did the team have at least 11 wins?", None),
    # "at most 2" is a bound, not a superlative
    ("which nations won at most 2 gold medals?", ["Chile", "Ghana"]),
    # a ranking word the table cannot rank by is not dropped: no list of every match
    ("which coach in the premier league had the highest ticket price?", None),
])
def test_guards_on_list_tables(seasons, medals, question: str, expected: object) -> None:
    kb = medals if "nation" in question or "medal" in question else seasons
    assert _resolve(kb, question) == expected


@pytest.mark.parametrize(("table", "question", "expected"), [
    # a month and year against a column of typed dates
    ("games", "how many matches were in may 2010?", 2.0),
    ("games", "who scored on 2 june 2010?", "Ann Lee"),
    # a cell's bracketed note is not part of the name a reader types
    ("games", "what was the result against varbergs gif?", "Won"),
    # "last" over the one row the question names is not the last of a series
    ("series", "when was the last super kid game released?", None),
    # an age is not compared with a column of dates
    ("officials", "how many officials were at least 90 years old when they died?", 2.0),
    # "how long" is a duration, not the range of years a cell states
    ("officials", "how long did ian webb serve?", None),
    # "best" inside the named category names a row, it does not rank
    ("awards", "which work won best director?", "Frost"),
])
def test_reading_dates_notes_and_cues(more, table: str, question: str,
                                      expected: object) -> None:
    assert _resolve(more[table], question) == expected


def test_a_cue_word_inside_a_cell_is_not_an_operator(seasons) -> None:
    """"First Division" names rows; it does not ask for the first of them."""
    assert _resolve(seasons, "which coaches coached in the first division?") == [
        "Ben Ortiz", "Cara Singh"]


FIXTURES = """Date,Opponent,Venue,Result,Scorer
1 August 1987,Arsenal,Home,Won,Hill
8 August 1987,Everton,Away,Lost,Moss
15 August 1987,Leeds,Home,Won,Hill
22 August 1987,Derby,Home,Won,Hill
29 August 1987,Luton,Away,Drawn,Lee
"""

FILMS = """Title,Director,Release date
Arunthathi,M. Tandan,1943
Achayam,,
Dhaasippen,E. Dungan,1943
Devakanya,R. Padmanaban,1943
"""


@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("lists")
    kbs = {"fixtures": _kb(base, "fixtures", FIXTURES), "films": _kb(base, "films", FILMS)}
    yield kbs
    for kb in kbs.values():
        kb.close()


@pytest.mark.parametrize(("table", "question", "expected"), [
    # "A or B" about the neighbouring row: the one of the two that row holds
    ("fixtures", "was the game after 8 august 1987 home or away?", "Home"),
    ("fixtures", "was the game before 29 august 1987 at home or away?", "Home"),
    # "what film ... before X" names no column: X's own column in the row before
    ("films", "what film was released before devakanya?", "Dhaasippen"),
    # the longest run of adjacent rows the named value selects
    ("fixtures", "how many consecutive games did hill score in?", 2.0),
    ("fixtures", "how many consecutive games did moss score in?", None),  # one row is no run
    ("fixtures", "which consecutive games did hill score in?", None),
])
def test_neighbours_and_runs(lists, table: str, question: str, expected: object) -> None:
    assert _resolve(lists[table], question) == expected


def test_an_empty_row_takes_no_other_rows_claims(lists) -> None:
    """A row whose cells are empty but its name must not be tied to the next row's claims
    (every later row would then cite its neighbour's cells)."""
    g = tableops.load_grids(lists["films"].store.con)[0]
    names = [g.text[i][0] for i in range(g.n_rows)]
    for i, claims in enumerate(g.row_claims):
        assert all(names[i] in (c["entity"] or "") for c in claims), (i, claims)


COMPUTERS = """Name,First operational,Numeral system,Year built
Zuse Z3,1941-05,Binary,1941
Harvard Mark I,1944-05,Decimal,1944
Colossus,1944-02,Binary,1943
ENIAC,1946-07,Decimal,1945
"""

PENALTIES = """Player,Penalties
Ann Lee,10 (4+3+3)
Ben Ortiz,6 (3+3)
Cara Singh,8 (4+4)
"""

PAIRS = """Match,Team,Points
A vs B,"Amplistan
Bestrudia","1
3"
C vs D,"Corlia
Dovenia","2
2"
"""


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("kinds")
    kbs = {"computers": _kb(base, "computers", COMPUTERS), "pairs": _kb(base, "pairs", PAIRS),
           "penalties": _kb(base, "penalties", PENALTIES)}
    yield kbs
    for kb in kbs.values():
        kb.close()


@pytest.mark.parametrize(("table", "question", "expected"), [
    # "the first computer" asks for the row's name, not the header "First operational"
    ("computers", "what was the first computer to use a decimal numeral system?",
     "Harvard Mark I"),
    # a year column is a period, not an amount to rank: "the most ... in one year" declines
    ("computers", "what is the most computers built in one year?", None),
    ("computers", "which computer was built in the oldest year?", "Zuse Z3"),
    # a cell listing several values is not one answer
    ("pairs", "which team had the fewest points?", None),
    # the largest value is the number ranked, not its bracketed breakdown
    ("penalties", "what is the largest penalty?", "10"),
])
def test_columns_and_cells_a_question_cannot_mean(kinds, table: str, question: str,
                                                  expected: object) -> None:
    assert _resolve(kinds[table], question) == expected


LOCOS = """Locomotive,Entered service,Livery
BL26,1983-03,Blue
BL27,1983-08,Blue
BL28,1983-09,Red
BL29,1983-10,Red
"""


def test_oldest_ranks_by_the_whole_date_and_leads_means_rank_one(tmp_path, medals) -> None:
    """"The oldest locomotive" ranks by the one column of dates, by month as well as year
    (the year alone ties all four rows); "leads" puts rank 1 first."""
    kb = _kb(tmp_path, "locos", LOCOS)
    try:
        assert _resolve(kb, "which is the oldest locomotive?") == "BL26"
        assert _resolve(kb, "which is the newest locomotive?") == "BL29"
    finally:
        kb.close()
    assert _resolve(medals, "what nation leads the medal count?") == "Norway"


GAMES_BY_YEAR = """Year,Competition,Venue,Position
2001,World Championships,"Edmonton, Canada",12th
2002,Asian Games,"Busan, South Korea",4th
1998,Asian Games,"Bangkok, Thailand",2nd
"""

RIFLES = """Nation,Model,Barrel length
Denmark,Rifle 1889,832
Denmark,Carbine 1889,610
Denmark,Rifle 1904,740
Norway,Krag 1894,760
"""


def test_first_is_earliest_and_rows_are_named_by_a_distinct_column(tmp_path) -> None:
    """"The first venue for the Asian Games" is the earliest one, wherever the file lists
    it; "which rifle" is answered from the column that names each row once ("Model"), not
    from a naming header whose values repeat ("Nation")."""
    games, rifles = _kb(tmp_path, "games", GAMES_BY_YEAR), _kb(tmp_path, "rifles", RIFLES)
    try:
        assert _resolve(games, "what was the first venue for the asian games?") == (
            "Bangkok, Thailand")
        assert _resolve(games, "what was the last venue for the asian games?") == (
            "Busan, South Korea")
        assert _resolve(rifles, "which rifle has the longest barrel?") == "Rifle 1889"
    finally:
        games.close()
        rifles.close()


SECTIONED = """Item,Gross,Amortization,Net
"June 30, 2019",,,
Customer relationships,"1,597.6",(498.7),"1,098.9"
Underlying rights,3.4,(1.5),1.9
"June 30, 2018",,,
Customer relationships,"1,580.2",(401.0),"1,179.2"
Underlying rights,3.1,(1.2),1.9
"""

ROLLFORWARD = """Awards,Shares,Fair value
"Nonvested at December 31, 2018","1,187,586",$41.12
Granted,"473,550",$53.53
Vested,"(365,223)",$41.83
"Nonvested at December 31, 2019","1,283,281",$45.40
"""

STOCK = """Item,Exchange,Shares,Price
Class A common stock,NYSE,"1,200",$4.10
Class B common stock,NYSE,800,$3.90
Preferred stock,OTC,300,$9.00
"""


def test_statements_cut_into_periods_are_not_read_as_lists(tmp_path) -> None:
    """A table cut into sections by period, or a roll-forward between dated balances, repeats
    its line items per period: summing or listing its rows mixes the periods."""
    sec, roll = _kb(tmp_path, "sectioned", SECTIONED), _kb(tmp_path, "roll", ROLLFORWARD)
    try:
        assert _resolve(sec, "what was the total amortization for june 30, 2017?") is None
        assert _resolve(sec, "what is the net of underlying rights?") is None
        assert _resolve(roll, "what is the number of non-vested shares granted in 2019?") is None
    finally:
        sec.close()
        roll.close()


def test_a_count_of_a_column_figure_and_a_value_named_in_pieces(tmp_path, medals) -> None:
    """"How many common shares ..." asks for the figure in the column "Shares", not for a
    count of rows; two runs of one cell's words side by side name one value."""
    kb = _kb(tmp_path, "stock", STOCK)
    try:
        assert _resolve(kb, "what is the number of nyse shares?") is None
        assert _resolve(kb, "what are the number of times nyse is listed?") == 2.0
        assert _resolve(kb, "what is the price of class b common stock?") == "$3.90"
    finally:
        kb.close()
    assert _resolve(medals, "how many nations won at least 2 bronze medals?") == 3.0


def test_an_answer_carries_the_scale_of_the_amounts_it_reads(tmp_path) -> None:
    """A list table whose caption says "(in millions)": a figure read or summed from it is in
    millions; a count of rows or a name has no scale."""
    import pandas as pd

    df = pd.DataFrame({"Segment": ["Transport", "Industrial", "Communications"],
                       "Expected charges": ["160", "80", "49"],
                       "Manager": ["Ann Lee", "Ben Ortiz", "Cara Singh"]})
    df.attrs["title"] = "Restructuring charges by segment (in millions)"
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(df, name="charges")
        for q, scale in (("what was the average expected charges per segment?", "million"),
                         ("how many segments are there?", ""),
                         ("which segment had the largest expected charges?", "")):
            res = tableops.resolve(q, kb.store.con)
            assert res is not None, q
            assert res.scale == scale, (q, res.answer, res.scale)


def test_a_quantity_asked_of_the_top_row_is_not_its_name(medals) -> None:
    # the row ranked first names a nation; "what is the proportion of ..." asks a figure
    assert _resolve(medals, "which nation had the most gold medals?") == "Norway"
    assert _resolve(medals, "what is the proportion of the nation with the most gold medals "
                            "in total medals?") != "Norway"


def test_a_change_or_share_of_a_total_is_not_the_total(medals) -> None:
    assert _resolve(medals, "what is the total number of gold medals?") == 11.0
    for q in ("what was the change in the total number of gold medals between the first and "
              "second nation?",
              "what were the gold medals of norway as a percentage of the total number of gold "
              "medals?"):
        assert _resolve(medals, q) != 11.0, q


LEASES = """Fiscal Year,Ground Leases,Building Leases
2020 – 2024,381,697
2025 – 2029,198,270
2030 – 2034,40,135
"""


def test_a_total_ignoring_the_years_named_is_no_answer(tmp_path) -> None:
    """The period labels are spans ("2025 – 2029") the reader cannot select on: summing the
    whole column would answer "the total over every period", not the one asked."""
    kb = _kb(tmp_path, "leases", LEASES)
    try:
        assert _resolve(kb, "From fiscal year 2025 - 2029, what is the total number of "
                            "ground leases?") is None
        assert _resolve(kb, "What is the total number of ground leases?") == 619.0
    finally:
        kb.close()


CARRYFORWARDS = """Kind,Last Year of Expiration,Amount
Domestic state,2039,"57,299"
Foreign,2039,"565,609"
Domestic federal,2029,"39,784"
Domestic state,2027,"3,313"
"""


def test_a_quoted_column_header_is_no_first_or_last_row(tmp_path) -> None:
    """"The last year of expiration for ..." quotes the column "Last Year of Expiration": its
    "last" names the column, not the last of the rows (which the same word would otherwise
    pick, answering with the wrong row's year)."""
    kb = _kb(tmp_path, "carry", CARRYFORWARDS)
    try:
        res = tableops.resolve("What was the last year of expiration for domestic state?",
                               kb.store.con)
        assert res is None or res.operation != "last"
    finally:
        kb.close()


HEADED_CARRY = """Kind,Last Fiscal Year of Expiration,Amount
Net operating loss carryforwards:,,
Domestic-state,2038,"41,250"
Foreign,2036 or indefinite,"312,400"
Tax credit carryforwards:,,
Domestic-federal,2030,"22,105"
Domestic-state,2026,"2,870"
"""


def test_a_section_heading_narrows_the_rows(tmp_path_factory: pytest.TempPathFactory) -> None:
    kb = _kb(tmp_path_factory.mktemp("headed"), "headed", HEADED_CARRY)
    try:
        # "Domestic-state" twice: the row under the heading the question names; "last" is a
        # word of the column header the question quotes, not the last row
        assert _resolve(kb, "What was the last fiscal year of expiration for domestic-state "
                            "tax credit carryforwards?") == "2026"
        assert _resolve(kb, "What was the last fiscal year of expiration for domestic-state "
                            "net operating loss carryforwards?") == "2038"
        # no heading named: both rows, not one of them
        assert _resolve(kb, "What was the last fiscal year of expiration for "
                            "domestic-state?") != "2026"
        # a heading alone picks no row of its own
        assert _resolve(kb, "What was the last fiscal year of expiration for tax credit "
                            "carryforwards?") is None
    finally:
        kb.close()


def test_the_first_of_rows_no_condition_leaves_is_no_crash(tmp_path) -> None:
    """"The first 3/8 bolt size": the reader's first/last operator finds no row passing its
    condition and declines (an IndexError before, which the engine reported as an error);
    the question is answered by the row the value names."""
    from tests.answer.conftest import csv_kb

    text = ('"Bolt size (in)","Minor diameter (in)","Threads per inch","Pitch (in)","Drill"\n'
            '"1/4","0.1860","20","0.0500","Letter Drill F (6.5 mm)"\n'
            '"5/16","0.2414","18","0.0556","Letter Drill O (8.0 mm)"\n'
            '"3/8","0.2950","16","0.0625","Letter Drill U (9.5 mm)"\n'
            '"7/16","0.3460","14","0.0714","Drill 25/64 (10.0 mm)"\n')
    with csv_kb(tmp_path, "bolts.csv", text) as kb:
        a = kb.ask("what is the minor diameter of the first 3/8 bolt size (in)?")
    assert a.decision == "answer" and a.values == (0.295,), a.text
