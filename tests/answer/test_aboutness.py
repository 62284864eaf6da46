"""Knowledge Gaps for questions about what the knowledge base does not hold
(`hyrag.answer.link.aboutness`): a name nothing holds, and tables about something else."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.answer.link.aboutness import TermStats, content_terms, fit, unheld, unnamed
from hyrag.cli import main
from hyrag.settings import Settings

SETTINGS = Settings(answer_use_search=False)

EVENTS = 'Event,Date,Place\nOpening,"June 24, 1968",Paris\nFinal,"July 2, 1970",Rome\n' \
         'Gala,"May 9, 1961",Oslo\n'
STAFF = "name,salary\nAnn Lee,5100\nBo Chan,4800\nCy Diaz,4500\n"

# how training questions word what their tables hold: "attendance" is found in the table
# asked about; "listed" and "many" are how questions speak of any table
STATS = TermStats(asked={"attendance": 40, "list": 300, "many": 900, "final": 60},
                  held={"attendance": 38, "list": 9, "many": 0, "final": 40}, questions=2000)


def _kw(cover: float = 0.1) -> dict:
    return {"min_cover": cover, "min_seen": 3, "min_held": 0.7}


def test_a_question_naming_only_what_the_table_lacks_is_unheld():
    vocab = {"film", "year", "director", "alpha", "beta"}
    assert unheld("What was the attendance at the Gala?", vocab, STATS, **_kw()) == (
        "attendance",)  # "gala": never seen in training, but an English word, not a name
    assert unheld("What was the attendance at Telmex?", vocab, STATS, **_kw()) == (
        "attendance", "Telmex")  # never seen, and no English word: a name


def test_a_question_about_any_table_or_sharing_its_words_is_held():
    vocab = {"film", "year", "director", "alpha", "beta"}
    # words questions use of every table: nothing named is missing
    assert unheld("How many are listed?", vocab, STATS, **_kw()) == ()
    # the table holds what the question is about: the cover is high
    assert unheld("What was the attendance of Alpha?", vocab, STATS, **_kw()) == ()
    # a misspelling of a table's word is held ("directer")
    assert unheld("Who was the directer of Beta?", vocab, STATS, **_kw(cover=1.0)) == ()
    # cover 0 turns the check off
    assert unheld("What was the attendance at the Gala?", vocab, STATS, **_kw(cover=0.0)) == ()


def test_unnamed_names_are_those_no_word_holds():
    vocab = {"ann", "lee", "bo", "chan", "salary"}
    assert unnamed("What is the salary of Dan Ng?", vocab) == ("Dan Ng",)
    assert unnamed("What is the salary of Bo Chan?", vocab) == ()
    assert unnamed("What is the salary of Bo Chen?", vocab) == ()  # "Bo" is held


def test_fit_counts_questions_and_the_ones_whose_table_holds_the_term(tmp_path):
    stats = fit([("What was the attendance in 1990?", {"attendance", "year"}),
                 ("How many games had an attendance over 500?", {"game", "date"})])
    assert stats.questions == 2
    assert stats.asked["attendance"] == 2 and stats.held["attendance"] == 1
    assert "1990" not in stats.asked and "500" not in content_terms("over 500")
    stats.save(tmp_path / "terms.json")
    assert TermStats.load(tmp_path / "terms.json") == stats


def test_bench_fit_terms_reads_the_training_file(tmp_path, capsys):
    root = tmp_path / "wtq"
    (root / "data").mkdir(parents=True)
    (root / "csv").mkdir()
    (root / "csv" / "1.csv").write_text('"Game","Attendance"\n"1","500"\n', encoding="utf-8")
    (root / "data" / "random-split-1-train.tsv").write_text(
        "id\tutterance\tcontext\ttargetValue\n"
        "nt-1\twhat was the attendance of game 1?\tcsv/1.csv\t500\n"
        "nt-2\thow many rows are listed?\tcsv/1.csv\t1\n", encoding="utf-8")
    out = tmp_path / "terms.json"
    assert main(["bench", "fit-terms", "--wtq", str(root), "--out", str(out)]) == 0
    stats = TermStats.load(out)
    assert stats.questions == 2 and stats.held["attendance"] == 1
    assert stats.asked["row"] == 1 and stats.held.get("row", 0) == 0
    assert "2 questions" in capsys.readouterr().out


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("aboutness")
    (folder / "events.csv").write_text(EVENTS, encoding="utf-8")
    (folder / "staff.csv").write_text(STAFF, encoding="utf-8")
    k = hyrag.open(folder / "kb", settings=SETTINGS)
    k.ingest(folder / "events.csv")
    k.ingest(folder / "staff.csv")
    yield k
    k.close()


@pytest.mark.parametrize(("question", "missing"), [
    ("Which events were in Europe?", "Europe"),
    ("What is the salary of Dan Ng?", "Dan Ng"),
], ids=["place", "person"])
def test_a_name_the_knowledge_base_lacks_is_a_gap(kb, question, missing):
    a = kb.ask(question)
    assert a.decision == "abstain"
    assert a.values == ()
    assert any(missing.lower() in g["attribute"].lower() for g in a.gaps)


@pytest.mark.parametrize(("question", "value"), [
    ("When was the Final?", "July 2, 1970"),
    ("What is the salary of Bo Chan?", 4800.0),
], ids=["date", "figure"])
def test_questions_about_what_is_held_are_answered(kb, question, value):
    a = kb.ask(question)
    assert a.decision == "answer"
    assert a.values == (value,)


def test_settings_turn_the_checks_off(tmp_path):
    (tmp_path / "staff.csv").write_text(STAFF, encoding="utf-8")
    off = Settings(answer_use_search=False, answer_check_names=False,
                   answer_min_table_cover=0.0)
    with hyrag.open(tmp_path / "kb", settings=off) as k:
        k.ingest(tmp_path / "staff.csv")
        a = k.ask("What is the salary of Dan Ng?")
    assert not any("dan ng" in g["attribute"].lower() for g in a.gaps)
