"""The program language: what an answer computes, as data.

A program is an operator over operands, as in FinQA's and TagOp's programs ("subtract, then
divide by"): operands are cells of the table model (`Cell`), spans of prose sentences (`Span`,
the `span` operator's one operand: "why" and "what does X include" are answered by quoting a
clause), or other programs, so up to three
steps compose ("(a - b) / b" is `change_ratio(a, b)`; "(a + b) / 2" is `average(a, b)`).
Programs are frozen and hashable, print as a readable expression, and serialise to the JSON
form that `Answer.program` carries and the LLM route proposes.

Conventions are named here, once (`CONVENTIONS`), not in each reader: the sign of a difference
is first operand minus second; a change ratio is (new - old) / old in percent; an average is
the arithmetic mean of its operands; a share (`percent_of`) is part / whole x 100.
"""

from __future__ import annotations

from dataclasses import dataclass

# operator -> (arity: fixed count, or 0 for "two or more"; the kind of result)
OPERATORS: dict[str, tuple[int, str]] = {
    "lookup": (1, "cell"),  # one cell, as displayed: a figure or a text
    "each": (0, "cells"),  # several cells, each an answer (a multi-span answer)
    "sum": (0, "number"),
    "average": (0, "number"),
    "difference": (2, "number"),  # a - b
    "change_ratio": (2, "percent"),  # (a - b) / b x 100
    "divide": (2, "number"),  # a / b
    "percent_of": (2, "percent"),  # a / b x 100
    "multiply": (2, "number"),
    "count": (0, "count"),  # how many operands
    "argmax": (0, "label"),  # the label (row or period) of the largest operand
    "argmin": (0, "label"),
    "labels": (0, "labels"),  # the operands' labels: a row's periods, a column's items
    "span": (1, "text"),  # a clause of a sentence, quoted as the report writes it
    "mode": (0, "label"),  # the text most of the operands show ("the year with most titles")
    "exceeds": (2, "yesno"),  # "yes" when a > b, else "no" ("did A score more than B?")
    "streak": (0, "count"),  # the longest run of consecutive operands passing a condition
    "first": (0, "cell"),  # the first operand (in table order) passing a condition
    "last": (0, "cell"),  # the last one
    "rarest": (0, "label"),  # the text fewest operands show (the counterpart of `mode`)
    "distinct": (0, "count"),  # how many different texts the operands show
}

CONVENTIONS = {
    "difference": "first operand minus second; the question's wording picks the order",
    "change_ratio": "(first - second) / second x 100, in percent; second is the base",
    "average": "arithmetic mean of the operands",
    "percent_of": "first / second x 100, in percent",
    "argmax": "the operand's label: its period when the operands share a row, else its row",
    "labels": "each operand's label, by the argmax rule (a table's periods, its items)",
    "as year": "argmax/argmin/labels with `year` over one row's columns state each period's year "
            "alone (\"2018\" for a column headed \"April 28, 2018\"), as a question asking "
            "in which year does",
    "report": "argmax/argmin with `report` >= 0 state the cell of that column in the picked "
              "operand's row (\"the nation with the most gold medals\"), not its label",
    "where =": "`count` / `labels` with where \"=text\" keep the operands whose text equals it "
               "(case, accents, punctuation and articles aside): rows whose cell is that value",
    "where ~": "where \"~text\" keeps the operands whose text holds it as whole words (\"1944\" "
               "in \"12 March 1944\", \"nc\" in \"Raleigh, NC\"), by the same equality",
    "test": "with `test` >= 0 the condition is tested on that column's cell in each operand's "
            "row, not on the operand itself (\"the players whose position is X\": the name "
            "cells of the rows whose position cell is X)",
    "ties": "argmax/argmin with `report` state every tied row's cell (\"the schools with the "
            "most titles\" may be two); `mode` states the first most frequent text",
    "span": "the characters [start, end) of the sentence a `sentence` or `text` claim states "
            "(its text without the carried-subject and negation marks ingestion prefixes), "
            "quoted as written and cited by that claim",
    "exceeds": "\"yes\" when the first operand's figure is larger than the second's, else "
               "\"no\": \"did A score more goals than B?\" is exceeds(A, B), \"fewer\" "
               "exceeds(B, A); the question's wording picks the order, as for a difference",
    "streak": "the number of operands in the longest run of consecutive ones (in operand "
              "order: the table's rows, top to bottom) passing the condition, the first "
              "longest on a tie; its cells are that run's (\"the most consecutive wins\")",
    "year": "a bound (\"<1992\") tested on a cell that shows no figure but names one year "
            "(\"12 March 1944\") tests that year: \"before 1992\" over a date column",
    "first": "`first` / `last` keep the operands passing the condition and take the first "
             "(last) of them in operand order, the table's rows top to bottom (\"the first "
             "year with more than 10 wins\"); with `report` >= 0 they state that column's "
             "cell in its row, else the operand itself",
    "rarest": "the texts the fewest operands show, each as its first operand displays it, "
              "in operand order (\"the venues used least\" may be two); when every text is "
              "that rare nothing is rarer than another, and there is no answer (an error)",
    "distinct": "the number of different texts the operands show, compared by the equality "
                "of an \"=\" condition (\"how many nations are listed?\")",
    "and": "`and_where` is a second condition, tested on column `and_test` of each operand's "
           "row, that an operand must pass as well as `where` (\"how many games in 1990 were "
           "won?\": the year column is 1990 and the result column is a win)",
    "says": "`exceeds` with `says` \"a|b\" states a when the first operand's figure is larger, "
            "else b: the alternatives the question offers (\"was X more or less than Y?\"), "
            "not yes or no",
    "duration": "a cell stating a duration (\"3:45\", \"1:02:03\") reads as its seconds "
                "for comparisons and arithmetic, and is quoted as written (`figures`)",
    "magnitude": "arithmetic with `magnitude` reads each operand as its size: a deduction shown "
                 "in brackets, \"(141,770)\", is an amount of 141,770 (\"the average voyage "
                 "expenses\" averages the expenses, not their signed presentation)",
}

# the operators that keep the operands passing a condition (`Program.where`)
FILTERED = ("labels", "count", "each", "sum", "average", "argmax", "argmin", "mode", "streak",
            "first", "last", "rarest", "distinct")
# the operators that state another column's cell of the operand they pick (`Program.report`)
REPORTING = ("argmax", "argmin", "first", "last")
# the operators whose operands may be read as magnitudes (`Program.magnitude`)
ARITHMETIC = ("sum", "average", "difference", "change_ratio", "divide", "percent_of",
              "multiply")


@dataclass(frozen=True, order=True)
class Cell:
    """A cell of a table model: the table's name in the store and the indices of its row and
    column in `TableModel.rows` / `TableModel.columns`."""

    table: str
    row: int
    col: int

    def to_dict(self) -> dict[str, object]:
        return {"table": self.table, "row": self.row, "col": self.col}


@dataclass(frozen=True, order=True)
class Span:
    """Characters [start, end) of a prose sentence: the claim stating the sentence (its
    `claim_id`, so the answer cites it) and offsets into the sentence as quoted
    (`CONVENTIONS["span"]`)."""

    claim: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not self.claim or not 0 <= self.start < self.end:
            raise ValueError(f"a span needs a claim and 0 <= start < end, got {self!r}")

    def to_dict(self) -> dict[str, object]:
        return {"claim": self.claim, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class Program:
    """An operator applied to operands (cells or programs)."""

    op: str
    args: tuple[Cell | Span | Program, ...]
    # a condition on the operands, for `labels` and `count` only: "<150", ">5000" keeps the
    # operands whose figure passes ("the years in which X was less than 150"); "=Canada" the
    # operands whose text is that value ("how many players are from Canada"); "~1944" the
    # operands whose text holds it (`CONVENTIONS["where ~"]`); list tables filter `FILTERED`
    # operators too ("the total medals of the rows whose nation is X")
    where: str = ""
    # for argmax / argmin / first / last only: the column (index in `TableModel.columns`) whose
    # cell in the picked operand's row is the answer; -1 states the operand's label (`CONVENTIONS`)
    report: int = -1
    # arithmetic only: operands read as their sizes, a bracketed deduction as the amount it
    # deducts (`CONVENTIONS["magnitude"]`)
    magnitude: bool = False
    # with `where`: the column (index in `TableModel.columns`) whose cell in each operand's row
    # the condition tests; -1 tests the operand itself (`CONVENTIONS["test"]`)
    test: int = -1
    # for argmax / argmin / labels only: a period's year, not its label (`CONVENTIONS["as year"]`)
    year: bool = False
    # a second condition, on the cell of column `and_test` of each operand's row, that an
    # operand passes as well as `where` (`CONVENTIONS["and"]`): two columns' conditions at once
    and_where: str = ""
    and_test: int = -1
    # for exceeds only: the two words it states, "larger|not larger" (`CONVENTIONS["says"]`)
    says: str = ""

    def __post_init__(self) -> None:
        if self.magnitude and self.op not in ARITHMETIC:
            raise ValueError(f"{self.op}: only arithmetic reads operands as magnitudes")
        if self.where and (self.op not in FILTERED or not _condition(self.where)):
            raise ValueError(f"{self.op}: bad condition {self.where!r}")
        if self.year and self.op not in ("argmax", "argmin", "labels"):
            raise ValueError(f"{self.op}: only argmax / argmin / labels state a year")
        if self.op in ("streak", "first", "last") and not self.where:
            raise ValueError(f"{self.op}: keeping the operands passing a condition needs "
                             "the condition")
        if self.and_where and (not self.where or self.and_test < 0
                               or not _condition(self.and_where)):
            raise ValueError(f"{self.op}: a second condition {self.and_where!r} needs a first "
                             "and a column to test")
        if self.says and (self.op != "exceeds" or self.says.count("|") != 1
                          or not all(self.says.split("|"))):
            raise ValueError(f"{self.op}: bad alternatives {self.says!r}")
        if self.and_test >= 0 and not self.and_where:
            raise ValueError(f"{self.op}: a second tested column needs a second condition")
        if self.test >= 0 and not self.where:
            raise ValueError(f"{self.op}: a tested column needs a condition")
        if self.report >= 0 and self.op not in REPORTING:
            raise ValueError(f"{self.op}: only {' / '.join(REPORTING)} report another column")
        if self.op not in OPERATORS:
            raise ValueError(f"unknown operator {self.op!r}; known: {', '.join(OPERATORS)}")
        arity = OPERATORS[self.op][0]
        if arity and len(self.args) != arity:
            raise ValueError(f"{self.op} takes {arity} operand(s), got {len(self.args)}")
        if not arity and not self.args:
            raise ValueError(f"{self.op} needs at least one operand")
        quoted = [isinstance(a, Span) for a in self.args]
        if any(quoted) if self.op != "span" else not all(quoted):
            raise ValueError(f"{self.op}: a span is the operand of `span` and only of it")

    def cells(self) -> tuple[Cell, ...]:
        """Every cell the program reads, in operand order (each once)."""
        out: list[Cell] = []
        for a in self.args:
            for c in (a.cells() if isinstance(a, Program) else (a,)):
                if isinstance(c, Cell) and c not in out:
                    out.append(c)
        return tuple(out)

    def spans(self) -> tuple[Span, ...]:
        """Every sentence span the program quotes, in operand order."""
        return tuple(a for a in self.args if isinstance(a, Span))

    def depth(self) -> int:
        return 1 + max((a.depth() for a in self.args if isinstance(a, Program)), default=0)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"op": self.op, "args": [a.to_dict() for a in self.args]}
        if self.where:
            d["where"] = self.where
        if self.report >= 0:
            d["report"] = self.report
        if self.magnitude:
            d["magnitude"] = True
        if self.test >= 0:
            d["test"] = self.test
        if self.year:
            d["year"] = True
        if self.and_where:
            d["and_where"] = self.and_where
            d["and_test"] = self.and_test
        if self.says:
            d["says"] = self.says
        return d

    @staticmethod
    def from_dict(d: dict) -> Program:
        """The program a JSON form describes (the LLM route's proposals, stored programs)."""
        args = tuple(Program.from_dict(a) if "op" in a else
                     Span(str(a["claim"]), int(a["start"]), int(a["end"])) if "claim" in a else
                     Cell(str(a["table"]), int(a["row"]), int(a["col"]))
                     for a in d["args"])
        return Program(str(d["op"]), args, str(d.get("where", "")), int(d.get("report", -1)),
                       bool(d.get("magnitude", False)), int(d.get("test", -1)),
                       bool(d.get("year", False)), str(d.get("and_where", "")),
                       int(d.get("and_test", -1)), str(d.get("says", "")))

    def __str__(self) -> str:
        inner = ", ".join(str(a) if isinstance(a, Program) else
                          f"{a.claim}[{a.start}:{a.end}]" if isinstance(a, Span) else
                          f"{a.table}[{a.row},{a.col}]" for a in self.args)
        cond = f" where {self.where}" if self.where else ""
        cond += f" in column {self.test}" if self.test >= 0 else ""
        cond += (f" and {self.and_where} in column {self.and_test}" if self.and_where else "")
        shown = f" report column {self.report}" if self.report >= 0 else ""
        size = " of magnitudes" if self.magnitude else ""
        size += " as years" if self.year else ""
        size += f" saying {self.says}" if self.says else ""
        return f"{self.op}({inner}{cond}{shown}){size}"


def _condition(where: str) -> bool:
    """A well-formed condition: "<", ">", "<=" or ">=" and a number, or "=" / "~" and a
    non-empty value."""
    if where[0] in "=~":
        return bool(where[1:].strip())
    figure = where[2:] if where[1:2] == "=" else where[1:]
    return where[0] in "<>" and _is_number(figure)


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True
