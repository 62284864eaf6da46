"""Per-kind parts of the ranker (`score.Model.kinds`): report tables and list tables are
ranked, calibrated and thresholded by the part fitted for their kind, the rest of the model
kept as it was; and the engine's `program_first_kinds` routing, through `kb.ingest(path)` and
`kb.ask`."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyrag.answer.programs.score import Model
from hyrag.settings import Settings, SettingsError
from tests.answer.conftest import ROSTER, csv_kb

COUNT = {"op=count/equal/count": 5.0, "arg:val_exact": 2.0}
QUESTION = "How many skaters skate for Lakeside?"


def test_a_kind_part_scores_its_candidates_and_round_trips(tmp_path: Path) -> None:
    part = Model({"arg:x": 2.0}, 0.3, {"fitted_on": "lists"}, {"bias": 1.0})
    m = Model({"arg:x": -1.0, "arg:tiny": 1e-5}, 0.9, {}, {"bias": -1.0}, {"list": part})
    assert m.for_kind("list") is part and m.for_kind("report") is m
    keys, phis = ["a", "a"], [({}, {"arg:x": 1.0}), ({}, {})]
    # the same two candidates, ranked by the report part and by the list part
    assert [i for i, _ in m.best_first(keys, phis, ["report", "report"])] == [1, 0]
    assert [i for i, _ in m.best_first(keys, phis, ["list", "list"])] == [0, 1]
    m.save(tmp_path / "w.json")
    back = Model.load(tmp_path / "w.json")
    assert back.kinds["list"] == part and back.min_confidence == 0.9
    assert "arg:tiny" not in back.weights  # pruned below the floor, as before


def test_a_part_fitted_to_decode_jointly_picks_the_likeliest_candidate(tmp_path: Path
                                                                       ) -> None:
    """Factored decoding takes the likeliest operator, then its operands; a part fitted with
    `--decode joint` takes the likeliest candidate: one sure operand set of a less likely
    operator beats an operator whose mass is spread over many."""
    weights = {"op=many": 0.5, "arg:sure": 6.0}
    keys = ["many", "many", "many", "one"]
    phis = [({"op=many": 1.0}, {}), ({"op=many": 1.0}, {}), ({"op=many": 1.0}, {}),
            ({}, {"arg:sure": 1.0})]
    factored = Model(weights, 0.0, {})
    joint = Model({}, 0.0, {}, {}, {"list": Model(weights, 0.0, {}, decode="joint")})
    assert factored.best_first(keys, phis)[0][0] == 0
    assert joint.best_first(keys, phis, ["list"] * 4)[0][0] == 3
    joint.save(tmp_path / "w.json")
    assert Model.load(tmp_path / "w.json").kinds["list"].decode == "joint"


def test_a_model_without_parts_is_written_as_before(tmp_path: Path) -> None:
    Model({"arg:x": 1.0}, 0.5, {}).save(tmp_path / "w.json")
    assert "kinds" not in (tmp_path / "w.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(("top", "lists", "answered"), [(1.0, 0.0, True), (0.0, 1.0, False)])
def test_the_threshold_of_the_tables_kind_decides(tmp_path: Path, top: float, lists: float,
                                                  answered: bool) -> None:
    """A roster is a list table: its questions are answered at the list part's threshold,
    whatever the report tables' one is."""
    weights = tmp_path / "w.json"
    Model(COUNT, top, {}, {}, {"list": Model(COUNT, lists, {})}).save(weights)
    s = Settings(answer_use_search=False, answer_core="programs", program_weights=str(weights))
    with csv_kb(tmp_path, "roster.csv", ROSTER, s) as kb:
        a = kb.ask(QUESTION)
    if answered:
        assert a.decision == "answer" and a.values == (2.0,), a.text
        assert a.program["table_kind"] == "list"
        assert a.verification["verdict"] == "pass"
    else:
        assert a.decision != "answer" or a.program.get("kind") != "program"


def test_a_list_beside_a_reports_prose_is_ranked_by_the_report_part(tmp_path: Path) -> None:
    """The same roster in a knowledge base that also holds prose is a table of a report: its
    question is answered at the report part's threshold, not the list part's (the list part
    was fitted on lists that stand alone, `score.part_kind`)."""
    weights = tmp_path / "w.json"
    Model(COUNT, 0.0, {}, {}, {"list": Model(COUNT, 1.0, {})}).save(weights)
    s = Settings(answer_use_search=False, answer_core="programs", program_weights=str(weights))
    with csv_kb(tmp_path, "roster.csv", ROSTER, s) as kb:
        alone = kb.ask(QUESTION)
        notes = tmp_path / "notes.txt"
        notes.write_text("The club report lists each skater with the races they won.\n",
                         encoding="utf-8")
        kb.ingest(notes)
        beside = kb.ask(QUESTION)
    assert alone.decision != "answer" or alone.program.get("kind") != "program"
    assert beside.decision == "answer" and beside.values == (2.0,), beside.text
    assert beside.program["table_kind"] == "report"  # the part that ranked it


def test_program_first_kinds_answer_with_a_confident_program_before_the_readers(
        tmp_path: Path) -> None:
    weights = tmp_path / "w.json"
    Model(COUNT, 1.0, {}, {}, {"list": Model(COUNT, 0.0, {})}).save(weights)
    got = {}
    for kinds in ((), ("list",)):
        s = Settings(answer_use_search=False, program_weights=str(weights),
                     program_first_kinds=kinds)
        folder = tmp_path / ("first" if kinds else "after")
        folder.mkdir()
        with csv_kb(folder, "roster.csv", ROSTER, s) as kb:
            got[kinds] = kb.ask(QUESTION)
    first = got[("list",)]
    assert first.decision == "answer" and first.values == (2.0,)
    assert first.program["kind"] == "program"
    assert first.verification["program_first"] == {"table_kind": "list"}
    assert "program_first" not in got[()].verification


def test_a_misspelt_value_is_read_as_the_cell_it_misspells(tmp_path: Path) -> None:
    """"Lakesdie" is no word of the table; it misspells the club "Lakeside", and the count
    of that club's skaters answers. A word close to no cell links nothing."""
    weights = tmp_path / "w.json"
    Model(COUNT, 0.0, {}, {}, {"list": Model(COUNT, 0.0, {})}).save(weights)
    s = Settings(answer_use_search=False, answer_core="programs", program_weights=str(weights))
    with csv_kb(tmp_path, "roster.csv", ROSTER, s) as kb:
        a = kb.ask("How many skaters skate for Lakesdie?")
        assert a.decision == "answer" and a.values == (2.0,), a.text
        assert a.program["program"]["where"] == "=lakeside"
        b = kb.ask("How many skaters skate for Brightwater?")
        assert b.program is None or b.program["program"].get("where") != "=lakeside"


def test_program_first_kinds_is_a_checked_setting() -> None:
    with pytest.raises(SettingsError, match="program_first_kinds"):
        Settings(program_first_kinds=("lists",))


def test_a_table_stating_a_reports_scale_is_ranked_by_the_report_part() -> None:
    """"Current $'000 | Non-current $'000" names no period, yet it is a statement of line
    items, not a list of entities: its cells' scale sends it to the report part (the list
    part was fitted on lists, which state no such scale); a percent is no report's scale."""
    from hyrag.answer.programs.score import part_kind

    assert part_kind("list", ["", "thousand", "thousand"]) == "report"
    assert part_kind("list", ["", "percent"]) == "list"
    assert part_kind("report", [""]) == "report"
    # periods heading sections of rows ("2019:" over its quarters): a report's periods
    assert part_kind("list", ["", ""], period_headings=True) == "report"
    # a list in a knowledge base that holds prose (a report's text beside it): a report's
    # table, ranked and thresholded as one; a list that stands alone keeps the list part
    assert part_kind("list", ["", ""], prose=True) == "report"
    assert part_kind("list", ["", ""], prose=False) == "list"


def test_refitting_the_shared_ranker_keeps_the_parts_per_kind(tmp_path: Path) -> None:
    """`hyrag bench fit` without --kind refits the report tables' ranker (the model's own
    weights) and keeps the list tables' part of --base as it was: shipping a TAT-QA refit must
    not drop the part fitted on WTQ."""
    import gzip
    import json

    from hyrag.cli import main

    def group(doc: int, right: int) -> dict:
        phi = [({"op=lookup/plain": 1.0}, {"arg:a": 1.0}), ({"op=lookup/plain": 1.0},
                                                            {"arg:b": 1.0})]
        return {"doc": doc, "uid": str(doc), "from": "table", "phi": phi,
                "answers": ["1@", "2@"], "keys": ["lookup/plain"] * 2,
                "y": [int(right == 0), int(right == 1)]}

    collected = tmp_path / "c.json.gz"
    with gzip.open(collected, "wt", encoding="utf-8") as f:
        json.dump([[group(d, d % 3 == 0) for d in range(12)], []], f)
    part = Model({"arg:x": 2.0}, 0.3, {"fitted_on": "lists"}, {"bias": 1.0})
    base = tmp_path / "base.json"
    Model({"arg:old": 1.0}, 0.9, {}, {}, {"list": part}).save(base)
    out = tmp_path / "w.json"
    assert main(["bench", "fit", "--tatqa", "unused.json", "--train", "all", "--collected",
                 str(collected), "--base", str(base), "--out", str(out), "--steps", "20"]) == 0
    fitted = Model.load(out)
    assert fitted.kinds["list"] == Model.load(base).kinds["list"]
    assert "arg:old" not in fitted.weights and fitted.weights  # the shared ranker is refitted
