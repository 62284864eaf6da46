"""Relation patterns: (head, relation, tail) with the sentence's locator."""

from __future__ import annotations

import pytest

from ingest.relations import extract_relations
from ingest.types import Locator

LOC = Locator(file="notes.md", paragraph=3, sentence=1)

CASES = [
    ("Nordic Foods AS acquired Baltic Bakeries Ltd in 2023.",
     ["Nordic Foods AS", "Baltic Bakeries Ltd"],
     [("Nordic Foods AS", "acquires", "Baltic Bakeries Ltd")]),
    ("Baltic Bakeries Ltd was acquired by Nordic Foods AS in March 2023.",
     ["Baltic Bakeries Ltd", "Nordic Foods AS"],
     [("Nordic Foods AS", "acquires", "Baltic Bakeries Ltd")]),
    ("The university acquired the Millbrook School of Design in 2019.",
     ["Millbrook School of Design", "Northgate University"],
     [("Northgate University", "acquires", "Millbrook School of Design")]),
    ("Riverside Clinic is a subsidiary of Harbor Health Partners.",
     ["Riverside Clinic", "Harbor Health Partners"],
     [("Riverside Clinic", "subsidiary_of", "Harbor Health Partners")]),
    ("Harbor Health Partners owns Riverside Clinic and Lakeview Clinic.",
     ["Harbor Health Partners", "Riverside Clinic", "Lakeview Clinic"],
     [("Harbor Health Partners", "owns", "Riverside Clinic"),
      ("Harbor Health Partners", "owns", "Lakeview Clinic")]),
    ("Riverside Clinic is wholly owned by Harbor Health Partners.",
     ["Riverside Clinic", "Harbor Health Partners"],
     [("Harbor Health Partners", "owns", "Riverside Clinic")]),
    ("Fjordline Logistics AS is headquartered in Bergen, Norway.",
     ["Fjordline Logistics AS", "Bergen"],
     [("Fjordline Logistics AS", "located_in", "Bergen, Norway")]),
    ("Lakeview Clinic is located in Duluth, Minnesota.", ["Lakeview Clinic"],
     [("Lakeview Clinic", "located_in", "Duluth, Minnesota")]),
    ("Crestwood College partners with Ashford Regional Hospital on clinical placements.",
     ["Crestwood College", "Ashford Regional Hospital"],
     [("Crestwood College", "partners_with", "Ashford Regional Hospital")]),
    ("Higher fuel costs impacted margins in 2024.", [],
     [("Higher fuel costs", "impacts", "margins")]),
    ("Margins were hurt by the weaker krone.", [],
     [("the weaker krone", "impacts", "Margins")]),
    ("Revenue on the Trondheim-Bodø route increased by 7.5% in 2024 due to new winter sailings.",
     [],
     [("Revenue on the Trondheim-Bodø route", "caused_by", "new winter sailings"),
      ("Revenue on the Trondheim-Bodø route", "increased_by", "7.5%")]),
    ("The storm caused a three-day outage.", [],
     [("a three-day outage", "caused_by", "The storm")]),
    ("Costs decreased by $1.2 million in 2024.", [], [("Costs", "decreased_by", "$1.2 million")]),
    ("Its operating revenue rose 6% to $212.4 million.", ["Riverside Clinic"],
     [("Riverside Clinic operating revenue", "increased_by", "6%")]),
]


@pytest.mark.parametrize(("sentence", "entities", "expected"), CASES,
                         ids=[c[0][:40] for c in CASES])
def test_relations(sentence: str, entities: list[str], expected: list[tuple]) -> None:
    rels = extract_relations(sentence, entities, LOC)
    assert [(r.head, r.relation, r.tail) for r in rels] == expected
    assert all(r.locator == LOC and r.text == sentence for r in rels)


def test_no_relation_in_plain_fact() -> None:
    assert extract_relations("Riverside Clinic had 310 licensed beds.", ["Riverside Clinic"],
                             LOC) == []


def test_relation_names_are_the_documented_set() -> None:
    from ingest import relations

    names = {n for n, _, _ in relations._PATTERNS}
    assert names == {"acquires", "owns", "impacts", "caused_by", "located_in", "subsidiary_of",
                     "partners_with", "increased_by", "decreased_by"}
