"""How related a question's words are to a table's headers, beyond the words they share.

The linker's matches are lexical (`link`): a column is named by the words of its header the
question says. A question often asks for a column in other words — "who *earns* the most?"
over "Name | Salary", "where was he *born*?" over "Birthplace" — and a ranker whose link
features are word overlaps and word crosses learns such a pair only if the training questions
held it. The static embedding shipped in the package (`hyrag.embed.static`: MiniLM's word-piece
vectors, averaged) places related words near each other whatever the training questions said
("earns" / "salary" 0.62, "earns" / "name" 0.05), so the cosine of a question's words and a
header is a link feature that carries to words no training question used: the lexical
similarity features of neural table parsers' linkers (Krishnamurthy et al. 2017, "Neural
semantic parsing with type constraints for semi-structured tables"), without the network.

Offline and fast: a tokenizer call and a table lookup per text. Where the static model is
absent (`hyrag.embed.static_model_available`), every relatedness is 0.0 and the ranker reads
the lexical features alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from hyrag.answer.programs.lexicon import STOP, written

if TYPE_CHECKING:
    import numpy as np

# a question's words compared with headers: alphabetic, at least this long, no function word
MIN_WORD_LENGTH = 3


def asked_words(text: str, held: Callable[[str], bool] = lambda w: False
                ) -> tuple[str, ...]:
    """The question's own words (unstemmed: the embedding knows inflections) that may name a
    column: no function word, none that `held` says a cell holds (such a word names a row,
    not a column), each once, in order."""
    out: list[str] = []
    for w in written(text):
        if (w.isalpha() and len(w) >= MIN_WORD_LENGTH and w not in STOP and w not in out
                and not held(w)):
            out.append(w)
    return tuple(out)


def header_relatedness(asked: Sequence[str], headers: Sequence[str]
                       ) -> dict[str, list[float]]:
    """Per header, how related it is to the question's words (`asked_words`): to the nearest
    of them (`col_rel`), to the first (`col_rel_head`: the noun a question asks for comes
    first, "what *attendance* did the final draw?"), and to each weighed by its
    `question_rarity` (`col_rel_rare`). The list ranker's features (`lists`)."""
    sims = relatedness(asked, headers)
    if not sims.size:
        zeros = [0.0] * len(headers)
        return {"col_rel": zeros, "col_rel_head": zeros, "col_rel_rare": zeros}
    return {"col_rel": [float(x) for x in sims.max(axis=1)],
            "col_rel_head": [float(x) for x in sims[:, 0]],
            "col_rel_rare": [float(x) for x in (sims * question_rarity(asked)).max(axis=1)]}


def relatedness(words: Sequence[str], phrases: Sequence[str]) -> np.ndarray:
    """The cosine of each phrase with each of `words`, clipped at 0 (0.0 where either side
    has no vector, or the static model is absent): shape (len(phrases), len(words)). NumPy
    is imported here, not with the module: reading and ranking a report table's programs
    needs none."""
    import numpy as np

    if not words or not phrases:
        return np.zeros((len(phrases), len(words)), dtype=np.float32)
    vecs = _vectors(tuple(words) + tuple(phrases))
    if vecs is None:
        return np.zeros((len(phrases), len(words)), dtype=np.float32)
    w, p = vecs[: len(words)], vecs[len(words):]
    return np.clip(p @ w.T, 0.0, 1.0)


def question_rarity(words: Sequence[str]) -> list[float]:
    """Per word, how rarely questions use it, in [0, 1]: its idf over the training questions
    of the Knowledge-Gap check's fitted term statistics (`link.aboutness.stats_of`), over the
    largest idf there. A word in every other question ("most", "first", "number") says how
    to read the table, not which column to read."""
    from hyrag.answer.link.aboutness import stats_of
    from hyrag.answer.programs.lexicon import stem

    stats = stats_of()
    top = stats.weight("") or 1.0  # a term no question used has the largest idf
    return [stats.weight(stem(w)) / top for w in words]


def _vectors(texts: tuple[str, ...]) -> np.ndarray | None:
    import numpy as np

    emb = _embedder()
    if emb is None:
        return None
    m = emb.embed(list(texts))
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)


@lru_cache(maxsize=1)
def _embedder():  # -> StaticEmbedder | None, loaded once a process
    from hyrag.embed import static_model_available

    if not static_model_available():
        return None
    from hyrag.embed.static import StaticEmbedder

    return StaticEmbedder()
