"""Prose files and strings -> passages; passages -> sentences.

Claims are extracted per sentence and located by (paragraph, sentence, span), so the sentence
splitter decides what a citation points at. It is rule-based on purpose: deterministic, no model
download, and tuned for business prose, where the hard cases are abbreviations in company names
("Acme Inc."), decimals and currency ("$1.2m."), list items ("1. Revenue grew") and quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ingest.encodings import detect_encoding
from ingest.errors import EmptyFileError, UnreadableFileError
from ingest.types import Passage

# Abbreviations whose period never ends a sentence: titles and Latin forms are always followed
# by more of the same sentence ("Dr. Lee", "e.g. revenue", "No. 5").
_NEVER_END = {
    "dr", "mr", "mrs", "ms", "prof", "st", "e.g", "i.e", "approx", "vs", "cf",
    "fig", "figs", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
    "dec", "est", "incl", "excl", "dept", "mt", "ft", "ca", "viz", "al", "ref",
}
# Abbreviations that may close a sentence ("... sold to Acme Inc. The deal closed"): they end
# one only when the next word is a typical sentence opener.
_MAY_END = {
    "inc", "ltd", "corp", "co", "plc", "llc", "bros", "u.s", "u.k", "u.n", "e.u", "etc", "jr",
    "sr", "a.s", "n.v", "s.a", "ag", "ab",
}
_OPENERS = {
    "the", "a", "an", "it", "its", "this", "that", "these", "those", "they", "their", "he",
    "she", "his", "her", "we", "our", "in", "on", "at", "for", "by", "during", "after", "before",
    "as", "since", "revenue", "sales", "however", "meanwhile", "also", "both", "each", "all",
    "there", "net", "total", "while", "although", "but", "and", "overall", "then", "later",
}

_BULLET_RE = re.compile(r"[ \t]*(?:[-*+\u2022\u2013]|\(?\d{1,2}[.)]|\(?[a-z][.)]|\(?[A-Z]\))[ \t]+")
_CLOSERS = "\"')]\u201d\u2019"
_OPENERS_CHARS = "\"'([\u201c\u2018"


def _list_marker_len(text: str, pos: int) -> int:
    """Length of a list marker ('- ', '1. ', '(a) ') at `pos`, or 0. Single letters only count
    with a bracket or period-and-capital, so 'A bank' is not a list item."""
    m = _BULLET_RE.match(text, pos)
    if not m:
        return 0
    marker = m.group(0).strip()
    if marker[-1] in ".)" and marker.strip("().").isalpha():
        # "a." / "(a)" list items: require the next word to start with a capital letter.
        nxt = text[m.end(): m.end() + 1]
        if not nxt.isupper():
            return 0
    return m.end() - pos


def _word_before(text: str, dot: int) -> str:
    """The token that ends at the period `dot` (without the period), e.g. 'Inc', 'U.S', '4.4'."""
    i = dot
    while i > 0 and not text[i - 1].isspace() and text[i - 1] not in _OPENERS_CHARS:
        i -= 1
    return text[i:dot]


def _next_word(text: str, pos: int) -> str:
    m = re.match(r"\s*[\"'(\[\u201c\u2018]*([A-Za-z0-9$\u20ac\u00a3][\w$.,%-]*)", text[pos:])
    return m.group(1) if m else ""


def _is_boundary(text: str, first: int, last: int, after: int, sent_start: int) -> bool:
    """Does the terminator run text[first:last] (closing quotes/brackets up to `after`) end the
    sentence that started at `sent_start`?"""
    rest = text[after:]
    if not rest.strip():
        return True
    if not rest[:1].isspace():
        return False  # "4.4", "U.S.", "$1.2m.)" -> glued to what follows
    gap = rest[: len(rest) - len(rest.lstrip())]
    if gap.count("\n") >= 2:
        return True
    nxt_char = rest.lstrip()[:1]
    run = text[first:last]
    if _list_marker_len(text, after + len(gap)) and text[sent_start:first].strip():
        return True  # an inline list: "(a) Revenue grew 4%. (b) Costs fell 2%."
    if "?" in run or "!" in run:
        return nxt_char.isupper() or nxt_char.isdigit() or nxt_char in _OPENERS_CHARS + "$"
    if "\u2026" in run or len(run) >= 3:
        return nxt_char.isupper() or nxt_char in _OPENERS_CHARS
    word = _word_before(text, first)
    low = word.lower().lstrip("(\"'")
    # A list marker at the start of the sentence: "1. Revenue grew" / "a. Costs".
    if text[sent_start:first].strip() == word and (word.isdigit() or len(word) == 1):
        return False
    if low in _NEVER_END:
        return False
    nxt = _next_word(text, after)
    if low in {"no", "nos"} and nxt[:1].isdigit():
        return False  # "No. 5"
    if len(word) == 1 and word.isalpha() and word.isupper():
        return False  # an initial: "J. Smith"
    if low in _MAY_END or re.fullmatch(r"(?:[a-z]\.)+[a-z]", low):
        return nxt[:1].isupper() and nxt.lower().strip(".,") in _OPENERS
    if not nxt:
        return nxt_char in _OPENERS_CHARS
    return nxt[0].isupper() or nxt[0].isdigit() or nxt[0] in "$\u20ac\u00a3"


def split_sentences(text: str) -> list[tuple[int, int, str]]:
    """Split prose into sentences: (start, end, text[start:end]) with offsets into `text`.

    Offsets let a claim point at the exact sentence; list markers ('- ', '1. ') and surrounding
    whitespace are outside the span, so '1.' is never read as a number of the sentence.
    """
    out: list[tuple[int, int, str]] = []

    def emit(a: int, b: int) -> None:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b, text[a:b]))

    # Hard boundaries first: blank lines and lines that start a list item.
    blocks: list[tuple[int, int]] = []
    start = 0
    for m in re.finditer(r"\n", text):
        nl = m.end()
        if _list_marker_len(text, nl) or re.match(r"[ \t]*\n", text[nl:]):
            blocks.append((start, nl))
            start = nl
    blocks.append((start, len(text)))

    for b_start, b_end in blocks:
        block = text[:b_end]
        i = b_start
        while i < b_end and text[i].isspace():
            i += 1
        i += _list_marker_len(text, i)
        sent_start = i
        j = i
        while j < b_end:
            if text[j] not in ".!?\u2026":
                j += 1
                continue
            last = j + 1
            while last < b_end and text[last] in ".!?\u2026":
                last += 1
            k = last
            while k < b_end and text[k] in _CLOSERS:
                k += 1
            if _is_boundary(block, j, last, k, sent_start):
                emit(sent_start, k)
                nxt = k
                while nxt < b_end and text[nxt].isspace():
                    nxt += 1
                nxt += _list_marker_len(text, nxt)
                sent_start = j = nxt
            else:
                j = k
        emit(sent_start, b_end)
    return out


# --- passages -------------------------------------------------------------------------------

_HEADING_RE = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT_RE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")


def _blocks_markdown(text: str) -> list[str]:
    """Markdown -> blocks: headings alone, each list item alone, paragraphs joined on one line.

    Headings stay as their own passages (the claims extractor uses them as context for the
    subject and the period of the paragraphs below them); lines are joined because a hard wrap
    inside a paragraph is layout, not a sentence boundary.
    """
    lines = text.splitlines()
    blocks: list[str] = []
    cur: list[str] = []
    in_fence = False

    def flush() -> None:
        if cur:
            joined = " ".join(s.strip() for s in cur if s.strip())
            if joined:
                blocks.append(joined)
            cur.clear()

    for idx, line in enumerate(lines):
        if _FENCE_RE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            cur.append(line)
            continue
        if not line.strip():
            flush()
            continue
        h = _HEADING_RE.match(line)
        if h:
            flush()
            if h.group(2).strip():
                blocks.append(h.group(2).strip())
            continue
        nxt = lines[idx + 1] if idx + 1 < len(lines) else ""
        if _SETEXT_RE.match(nxt) and not cur and line.strip() and not _BULLET_RE.match(line):
            blocks.append(line.strip())
            continue
        if _SETEXT_RE.match(line) and blocks and not cur:
            continue  # underline of a setext heading already emitted
        if re.match(r"^\s*(---+|\*\*\*+|___+)\s*$", line):
            flush()
            continue
        if _list_marker_len(line, 0) or line.lstrip().startswith(">"):
            flush()
            cur.append(_strip_md(line.lstrip().lstrip(">").strip()))
            continue
        cur.append(_strip_md(line))
    flush()
    return blocks


def _strip_md(line: str) -> str:
    """Remove inline emphasis/link syntax, keep list markers (split_sentences skips them)."""
    line = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line)
    line = re.sub(r"(\*\*|__)(.+?)\1", r"\2", line)
    line = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"\1", line)
    return line.replace("`", "")


def _blocks_plain(text: str) -> list[str]:
    """Plain text: paragraphs are separated by blank lines; list items stand alone."""
    blocks: list[str] = []
    cur: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            if cur:
                blocks.append(" ".join(cur))
                cur = []
            continue
        if _list_marker_len(line, 0) and cur:
            blocks.append(" ".join(cur))
            cur = []
        cur.append(line.strip())
    if cur:
        blocks.append(" ".join(cur))
    return blocks


def passages_from_strings(texts: Iterable[str], source: str) -> list[Passage]:
    """Each string is a paragraph of `source` (a DataFrame text column, an API payload).

    Empty strings are skipped but keep their index out of the numbering, so paragraph numbers
    stay equal to the caller's list positions and a citation can be followed back.
    """
    out: list[Passage] = []
    for i, t in enumerate(texts):
        if t is None:
            continue
        s = re.sub(r"[ \t]*\n[ \t]*(?!\n)", " ", str(t)).strip()
        if s:
            out.append(Passage(source=source, text=s, page=None, paragraph=i))
    return out


def read_text_file(path: str | Path) -> list[Passage]:
    """A .txt or .md file -> passages, one per paragraph / list item / heading (0-based index).

    Raises UnreadableFileError when the file cannot be read and EmptyFileError when it holds no
    text, naming the file either way.
    """
    p = Path(path)
    source = str(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise UnreadableFileError(f"cannot read the file: {e.strerror or e}", source=source) from e
    text = detect_encoding(raw, source).text  # BOM, UTF-8, else charset-normalizer
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    is_md = p.suffix.lower() in {".md", ".markdown"}
    blocks = _blocks_markdown(text) if is_md else _blocks_plain(text)
    passages = [Passage(source=source, text=b, page=None, paragraph=i) for i, b in enumerate(blocks)]
    if not passages:
        raise EmptyFileError("the file holds no text", source=source)
    return passages


def is_heading(text: str) -> bool:
    """A short line without sentence punctuation: a title or section heading, not a statement.

    The claims extractor treats headings as context (subject, period) rather than facts.
    """
    t = text.strip()
    if not t or len(t) > 120 or len(t.split()) > 14:
        return False
    if t[-1] in ".!?;:,":
        return False
    return not _list_marker_len(t, 0)
