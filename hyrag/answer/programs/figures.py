"""How a cell's text reads as a figure where the table model stored none.

Ingestion reads a cell as a number when it is one ("1,450", "12.5%"); a list table also shows
figures with words beside them ("1,450 tonnes", "33 years", "2nd") and durations ("3:45",
"1:02:03"), which a person compares and ranks as figures all the same ("the longest song",
"the fastest time"). Both the linker's per-table index (`link.index`: which columns are
numeric, how their figures run down the rows) and the executor (`execute.read_cell`) read
cells this way, so the reading lives here, below both (the executor imports the linker).
"""

from __future__ import annotations

import re

# a figure as a cell or a question writes it: "1,450", "-3", "12.5"
PLAIN_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")
# a figure, then at most words without another digit, then at most bracketed asides: "1,450
# tonnes", "33 years", "4th, West", "73,303 (12.9%)", "1,024[3]" (not "12 March 1944", not
# "3:34:14", not "W 45-7")
_LEADING_FIGURE = re.compile(r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
                             r"(?:\s*[^\W\d][^\d()\[\]]*)?(?:\s*\([^()]*\)|\s*\[[^\[\]]*\])*\s*")
# a duration: minutes:seconds or hours:minutes:seconds, seconds with an optional fraction
# ("3:45", "1:02:03", "2:05.37"); a clock time reads the same way, which keeps its order
_DURATION = re.compile(r"\s*(\d+):([0-5]\d)(?::([0-5]\d))?(\.\d+)?\s*")


def leading_figure(text: str) -> float | None:
    """The number a cell shows when it is a figure, alone or followed by words only (its unit,
    an ordinal suffix, a note) and bracketed asides (a share beside a count, a footnote mark);
    None for any other text (`_LEADING_FIGURE`)."""
    m = _LEADING_FIGURE.fullmatch(text)
    return float(m.group(1).replace(",", "")) if m else None


def duration(text: str) -> float | None:
    """The seconds a duration states ("3:45" is 225, "1:02:03" is 3723, "2:05.5" is 125.5);
    None for any other text. Two fields are minutes and seconds (a song's or a race's
    length), three hours, minutes and seconds."""
    m = _DURATION.fullmatch(text)
    if m is None:
        return None
    a, b, c, frac = m.groups()
    whole = (int(a) * 60 + int(b)) * 60 + int(c) if c is not None else int(a) * 60 + int(b)
    return whole + (float(frac) if frac else 0.0)


def figure_of(text: str) -> float | None:
    """The figure a cell's text shows when the table model stored none: a figure with words
    beside it (`leading_figure`) or a duration in seconds (`duration`)."""
    got = leading_figure(text)
    return got if got is not None else duration(text)


def is_duration(text: str) -> bool:
    """Whether a cell states a duration, which an answer quotes as written ("3:45"), not as
    its seconds."""
    return _DURATION.fullmatch(text) is not None
