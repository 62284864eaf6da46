"""A share-capital note prints each year twice: the number of shares ("M") and their amount
("$M"), with "NUMBER" spread over both. A question "in terms of $M" reads the "$M" column; one
naming no currency does not pick between them; "nominal difference" asks the plain
difference and names nothing of the line."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa
from tests.answer.conftest import statement_kb

ROWS = [["Balance at start of period", "1,313.3", "6,201", "1,294.4", "5,719"],
        ["Contributed equity at end of period", "1,251.8", "5,828", "1,308.4", "6,055"]]
COLS = ("item", "2019 NUMBER M", "2019 NUMBER $M", "2018 NUMBER M", "2018 NUMBER $M")


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ROWS, None, "capital", COLS)
    yield k
    k.close()


def test_a_question_in_dollars_reads_the_dollar_column(kb) -> None:
    r = tableqa.resolve("What is the average contributed equity at end of period for 2018 and "
                        "2019 in terms of $M?", kb.store.con)
    assert (r.operation, r.answer) == ("average", 5941.5)
    r = tableqa.resolve("What is the nominal difference in contributed equity between 2018 and "
                        "2019 in terms of $M ?", kb.store.con)
    assert (r.operation, r.answer) == ("difference", 227.0)


def test_no_currency_named_picks_no_column(kb) -> None:
    assert tableqa.resolve("What is the average contributed equity at end of period for 2018 "
                           "and 2019?", kb.store.con) is None
