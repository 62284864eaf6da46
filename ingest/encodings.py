"""Text files' bytes -> text: which encoding, and how sure.

Shared by the delimited-text reader (`ingest.readers.csv`) and the prose reader
(`ingest.text`): a BOM decides; bytes that decode as strict UTF-8 are UTF-8; anything else goes
to charset-normalizer (a maintained detector) over the whole byte range, so a Big5 name on line
9,000 counts as much as line 1. `Decoded.note` is what the ingest report says about it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from ingest.errors import UnreadableFileError

# Encoding detection (charset-normalizer) settings.
# Two readings whose mess ratios differ by less than this are a tie: the detector cannot tell
# them apart, so the file's bytes alone do not decide between them.
ENCODING_TIE_CHAOS = 0.01
# Below this confidence (1 - the detector's mess ratio of the chosen reading) the note says the
# guess is a low-confidence one, so a user sees it before a mis-decoded name becomes an answer.
ENCODING_MIN_CONFIDENCE = 0.90
# The code page a tie between Western single-byte readings goes to: what Excel on Windows
# writes for Western European text. Only ever chosen among readings the detector ranks equal.
_WESTERN_DEFAULT = "cp1252"
# Control characters that text never holds (tab, newline, carriage return and form feed
# aside): bytes decoding to these are binary, whatever the detector says.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")


@dataclass(frozen=True)
class Decoded:
    """Text decoded from a file's bytes, with how the encoding was decided.

    `confidence` is 1.0 where the bytes decide (a BOM; strict UTF-8 that decodes) and the
    detector's confidence otherwise; `note` is the sentence the ingest report carries.
    """

    text: str
    encoding: str
    confidence: float
    note: str


def _detected(data: bytes, source: str, *, utf16_only: bool) -> Decoded | None:
    """The best reading charset-normalizer finds over every byte of `data` (not a prefix:
    one Big5 name on line 9,000 decides as much as line 1), or None when no reading fits."""
    from charset_normalizer import from_bytes  # imported here: most files are UTF-8

    steps = 5
    results = from_bytes(
        data,
        steps=steps,
        chunk_size=max(1, -(-len(data) // steps)),  # chunks that together cover every byte
        cp_isolation=["utf_16_le", "utf_16_be", "utf_32_le", "utf_32_be"] if utf16_only else None,
    )
    if not results:
        return None
    ranked = sorted(results, key=lambda r: r.chaos)
    best = ranked[0]
    tied = [r for r in ranked if r.chaos - best.chaos < ENCODING_TIE_CHAOS]
    chosen = next((r for r in tied if _WESTERN_DEFAULT in r.could_be_from_charset), best)
    encoding = _WESTERN_DEFAULT if _WESTERN_DEFAULT in chosen.could_be_from_charset else (
        codecs.lookup(chosen.encoding).name)  # Python's spelling: "utf-16-le", not "utf_16_le"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        encoding, text = chosen.encoding, str(chosen)
    if text.startswith("\ufeff"):
        text = text[1:]
    if _CONTROL.search(text):
        return None
    confidence = round(1.0 - chosen.chaos, 2)
    rivals = [r.encoding for r in tied if r is not chosen and str(r) != text]
    note = f"encoding {encoding} guessed by charset-normalizer, confidence {confidence:.2f}"
    if rivals:
        shown = ", ".join(rivals[:3]) + (f" and {len(rivals) - 3} more" if len(rivals) > 3 else "")
        note += f"; {shown} read the bytes as well but differently"
    if rivals or confidence < ENCODING_MIN_CONFIDENCE:
        note += " (low confidence: check accented or non-Latin names)"
    return Decoded(text, encoding, confidence, note)


def detect_encoding(data: bytes, source: str) -> Decoded:
    """Decode a text file's bytes. Raises UnreadableFileError for binary content.

    A BOM decides (UTF-8-sig, UTF-16, UTF-32). Bytes that decode as strict UTF-8 are UTF-8:
    multi-byte UTF-8 sequences almost never occur by chance in another encoding, and this
    spares the detector's pass over the common case. Anything else goes to charset-normalizer
    over the whole byte range; NUL bytes without a BOM are tried as UTF-16/32 (a CSV exported
    as "Unicode text" by some tools) before being refused as binary.
    `source` names the file in errors.
    """
    for bom, enc in ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                     (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            try:
                return Decoded(data.decode(enc), enc, 1.0, f"encoding {enc} (byte order mark)")
            except UnicodeDecodeError as e:
                raise UnreadableFileError(f"invalid {enc.upper()} text: {e}", source=source) from e
    if b"\x00" in data:
        got = _detected(data, source, utf16_only=True)
        if got is None:
            raise UnreadableFileError(
                "binary content (NUL bytes), not text", source=source
            )
        return got
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return Decoded(data[3:].decode("utf-8"), "utf-8-sig", 1.0, "encoding utf-8-sig")
        except UnicodeDecodeError:
            pass
    try:
        return Decoded(data.decode("utf-8"), "utf-8", 1.0, "encoding utf-8")
    except UnicodeDecodeError:
        pass
    got = _detected(data, source, utf16_only=False)
    if got is None:
        raise UnreadableFileError(
            "binary content (control bytes), not text", source=source
        )
    return got
