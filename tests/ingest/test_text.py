"""Sentence splitting and prose passages: what a text claim's (paragraph, sentence) points at."""

from __future__ import annotations

import pytest

from ingest.errors import EmptyFileError
from ingest.text import is_heading, passages_from_strings, read_text_file, split_sentences

SPLIT_CASES = [
    ("Acme Inc. reported revenue of $4.4 billion. The company grew 12%.",
     ["Acme Inc. reported revenue of $4.4 billion.", "The company grew 12%."]),
    ("Revenue was $1.2m. Costs were $0.8m.", ["Revenue was $1.2m.", "Costs were $0.8m."]),
    ("Dr. Smith joined Foo Ltd. in 2020. She left in 2022.",
     ["Dr. Smith joined Foo Ltd. in 2020.", "She left in 2022."]),
    ("We sold the unit to Acme Inc. The deal closed in May.",
     ["We sold the unit to Acme Inc.", "The deal closed in May."]),
    ("Growth was approx. 4.5% vs. 3.1% in the U.S. market. Margins fell.",
     ["Growth was approx. 4.5% vs. 3.1% in the U.S. market.", "Margins fell."]),
    ("Sales grew in the U.S. The market grew too.",
     ["Sales grew in the U.S.", "The market grew too."]),
    ("1. Revenue grew 5%.\n2. Costs fell 3%.", ["Revenue grew 5%.", "Costs fell 3%."]),
    ("- first item\n- second item", ["first item", "second item"]),
    ('He said "Sales rose." Then costs fell.', ['He said "Sales rose."', "Then costs fell."]),
    ("Revenue rose... Then it fell.", ["Revenue rose...", "Then it fell."]),
    ("Revenue rose... and then fell.", ["Revenue rose... and then fell."]),
    ("See item No. 5 for details. Next sentence.", ["See item No. 5 for details.", "Next sentence."]),
    ("E.g. revenue, i.e. sales, are up. Fine.", ["E.g. revenue, i.e. sales, are up.", "Fine."]),
    ("Is it up? Yes! It is.", ["Is it up?", "Yes!", "It is."]),
    ("The ratio was 4.4 in 2023. In 2024 it was 5.", ["The ratio was 4.4 in 2023.", "In 2024 it was 5."]),
    ("(The figure is unaudited.) Next year we expect more.",
     ["(The figure is unaudited.)", "Next year we expect more."]),
    ("Headcount was 412 in 2024.\n\nA new paragraph starts",
     ["Headcount was 412 in 2024.", "A new paragraph starts"]),
    ("J. Smith is CEO of Acme Corp. He joined in 2019.",
     ["J. Smith is CEO of Acme Corp.", "He joined in 2019."]),
    ("Revenue: NOK 1,234.5 million. EBITDA: NOK 200 million.",
     ["Revenue: NOK 1,234.5 million.", "EBITDA: NOK 200 million."]),
    ("a. Revenue grew.\nb. Costs fell.", ["Revenue grew.", "Costs fell."]),
    ("No trailing period here", ["No trailing period here"]),
    ("Acme Co. acquired Beta Ltd. for $3.5bn. Its shares rose.",
     ["Acme Co. acquired Beta Ltd. for $3.5bn.", "Its shares rose."]),
    # issue 3: decimals, currency, brackets, periods, ranges, inline lists, abbreviations
    ('Revenue was $4.4 billion in fiscal 2023. Costs rose 12.5% to $1.1bn.',
     ['Revenue was $4.4 billion in fiscal 2023.', 'Costs rose 12.5% to $1.1bn.']),
    ('The loss was (1,234) in 2022. It narrowed in 2023.',
     ['The loss was (1,234) in 2022.', 'It narrowed in 2023.']),
    ('Mr. Brown of Smith & Co. retired. He was 64.',
     ['Mr. Brown of Smith & Co. retired.', 'He was 64.']),
    ('Results for the third quarter of 2024 are unaudited. See Note 4.',
     ['Results for the third quarter of 2024 are unaudited.', 'See Note 4.']),
    ('As of Dec. 31, 2019, the bank had 12 branches. It has 15 now.',
     ['As of Dec. 31, 2019, the bank had 12 branches.', 'It has 15 now.']),
    ('Capex is expected at $1.1-1.3 billion in 2025. Guidance is unchanged.',
     ['Capex is expected at $1.1-1.3 billion in 2025.', 'Guidance is unchanged.']),
    ('Sales rose 3.5% vs. 2023, i.e. in line. Margins were flat.',
     ['Sales rose 3.5% vs. 2023, i.e. in line.', 'Margins were flat.']),
    ('(a) Revenue grew 4%. (b) Costs fell 2%.',
     ['Revenue grew 4%.', 'Costs fell 2%.']),
    ('The U.K. unit grew 8%. Its margin was 11.2%.',
     ['The U.K. unit grew 8%.', 'Its margin was 11.2%.']),
    ('Approx. 60% of staff work in Oslo. The rest are remote.',
     ['Approx. 60% of staff work in Oslo.', 'The rest are remote.']),
    ('EPS was $2.45 vs. $2.10. Dividends were $0.80 per share.',
     ['EPS was $2.45 vs. $2.10.', 'Dividends were $0.80 per share.']),
    ('Shares of Beta Ltd. rose 5% on Monday. Volume doubled.',
     ['Shares of Beta Ltd. rose 5% on Monday.', 'Volume doubled.']),
]


@pytest.mark.parametrize(("text", "expected"), SPLIT_CASES, ids=[c[0][:30] for c in SPLIT_CASES])
def test_split_sentences(text: str, expected: list[str]) -> None:
    got = split_sentences(text)
    assert [s for _, _, s in got] == expected
    for a, b, s in got:  # offsets point into the original text
        assert text[a:b] == s


def test_split_sentences_empty() -> None:
    assert split_sentences("") == []
    assert split_sentences("   \n ") == []


def test_markdown_headings_lists_paragraphs(tmp_path) -> None:
    md = tmp_path / "notes.md"
    md.write_text(
        "# Acme Notes 2024\n\nAcme Inc. grew.\nIt hired 40 people.\n\n## Risks\n\n"
        "- Fuel costs rose.\n- The **krone** fell.\n\nSetext heading\n--------------\n\nLast one.\n",
        encoding="utf-8",
    )
    ps = read_text_file(md)
    assert [p.text for p in ps] == [
        "Acme Notes 2024", "Acme Inc. grew. It hired 40 people.", "Risks",
        "- Fuel costs rose.", "- The krone fell.", "Setext heading", "Last one.",
    ]
    assert [p.paragraph for p in ps] == list(range(7))
    assert all(p.page is None and p.source == str(md) for p in ps)
    assert is_heading(ps[0].text) and not is_heading(ps[1].text)
    # list markers are outside the sentence span
    assert [s for _, _, s in split_sentences(ps[3].text)] == ["Fuel costs rose."]


def test_text_file_cp1252_fallback(tmp_path) -> None:
    f = tmp_path / "legacy.txt"
    f.write_bytes("Caf\xe9 sales rose 5% \x96 a record.\n\nSecond paragraph.".encode("latin-1"))
    ps = read_text_file(f)
    assert ps[0].text == "Café sales rose 5% – a record."
    assert ps[1].paragraph == 1


def test_empty_text_file_names_the_file(tmp_path) -> None:
    f = tmp_path / "blank.md"
    f.write_text("\n\n  \n", encoding="utf-8")
    with pytest.raises(EmptyFileError) as ei:
        read_text_file(f)
    assert "blank.md" in str(ei.value)


def test_passages_from_strings_keep_positions() -> None:
    ps = passages_from_strings(["First note.", "", None, "Line one\nline two."], "frame:notes")
    assert [(p.paragraph, p.text) for p in ps] == [(0, "First note."), (3, "Line one line two.")]
    assert all(p.source == "frame:notes" for p in ps)
