"""Scale declarations in captions: "(in thousands)", "(dollars in millions, except per share
data)", "amounts are presented in thousands of euros", "(€m)", "($'000)".

A report states the scale of a table once, in the sentence that introduces it ("Other assets
consist of the following (in thousands):") or in a title above it; the cells themselves show
"5,687". Without that scale every amount is off by a factor of a thousand or a million, and a
sum across tables with different scales is meaningless. `scale_hint` (numbers.py) reads a
column header, where every token is about the column; a caption is prose and may also quote an
amount ("net sales of $1.2 billion ... (in thousands)") or a percentage, so this reader accepts
only a *declaration*: a scale word after "in" inside parentheses, after "amounts / figures /
dollars ... in", or a bare currency-scale marker in parentheses. Anything else gives "".
"""

from __future__ import annotations

import re

_WORD = {"thousand": "thousand", "thousands": "thousand", "million": "million",
         "millions": "million", "billion": "billion", "billions": "billion"}
_CUR = (r"(?:[$€£¥]|us\s?\$|a\$|c\$|hk\$|s\$|nt\$|r\$|usd|eur|gbp|jpy|cad|aud|chf|cny|rmb|"
        r"inr|sek|nok|dkk|(?:u\.?s\.?\s+)?dollars?|euros?|pounds?|sterling|yen|yuan|francs?|"
        r"kronor|krona|rupees?)")
# "(in thousands)", "(dollars in millions, except per share data)", "(In thousands of USD)"
_PAREN = re.compile(rf"\(\s*(?:[^()]{{0,40}}?\s)?in\s+(?:{_CUR}\s*)?"
                    r"(thousands?|millions?|billions?)\b[^()]{0,80}\)", re.I)
# "amounts are presented in thousands", "all figures in millions of euros", "dollars in
# thousands" — a noun of amounts before "in" keeps "growth in millions of users" out
_PHRASE = re.compile(rf"\b(?:amounts?|figures|values|numbers|dollars|euros|data|{_CUR})\s+"
                     r"(?:(?:are|is|were|have been|has been)\s+)?(?:(?:expressed|presented|"
                     r"stated|shown|reported|given|denominated)\s+)?in\s+(?:[$€£]\s*)?"
                     r"(thousands|millions|billions)\b", re.I)
_OF = re.compile(rf"\bin\s+(thousands|millions|billions)\s+of\s+{_CUR}", re.I)
# "($'000)", "(RMB'000)", "(in $000s)", "(in 000's)", "(€m)", "($ in m)", "(US$ million)"
_MARK = re.compile(rf"\(\s*(?:in\s+)?{_CUR}?\s*(?:in\s+)?(?:(?P<k>[’']?000[’']?s?)|"
                   rf"(?P<m>m|mn|mm|million)|(?P<b>bn|billion))\s*\)", re.I)
# "Expressed in US $000's", "amounts in $'000"
_IN_K = re.compile(rf"\b(?:expressed|presented|stated|shown|reported|amounts?|figures)\s+in\s+"
                   rf"(?:{_CUR}\s*)+[’']?000[’']?s?(?![\d,])", re.I)


def scale_declaration(text: str | None) -> tuple[str, str]:
    """(scale, the declaring phrase) of a caption: ("thousand", "(in thousands)"), or ("", "")
    when the text declares none. The phrase alone can title a table whose caption is a whole
    sentence, so the sentence's other words do not become the table's subject."""
    if not text:
        return ("", "")
    s = str(text).replace("\u00a0", " ")
    for rx in (_PAREN, _PHRASE, _OF):
        m = rx.search(s)
        if m:
            return (_WORD[m.group(1).lower()], m.group(0).strip())
    if _IN_K.search(s):
        return ("thousand", _IN_K.search(s).group(0).strip())  # type: ignore[union-attr]
    m = _MARK.search(s)
    if m:
        return ("thousand" if m.group("k") else "million" if m.group("m") else "billion",
                m.group(0).strip())
    return ("", "")


def caption_scale(text: str | None) -> str:
    """The scale a caption or title declares for its table's amounts: "" | thousand | million
    | billion. Amounts quoted in the prose ("revenue of $1.2 billion") are not declarations."""
    return scale_declaration(text)[0]
