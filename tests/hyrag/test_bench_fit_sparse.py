"""`hyrag bench fit` keeps WTQ's collected questions packed as sparse arrays (`fit_sparse`) so
that the whole training file fits in memory: the packed form must rank, calibrate and fit as
the dictionary form it replaces."""

from __future__ import annotations

from hyrag.bench import fit
from hyrag.bench.fit_sparse import Vocabulary, fit_packed, pack, tops, unpack


def _group(doc: int, right: int) -> dict:
    """A list-table question of three candidates over two operators (features with their
    kind copies, as `score.features` gives them); candidate `right` is right."""
    def kinded(phi: dict[str, float]) -> dict[str, float]:
        return {**phi, **{f"list|{k}": v for k, v in phi.items()}}

    def op(k: str) -> dict[str, float]:
        return kinded({f"op={k}": 1.0, f"op={k}:w=many": 1.0})

    def arg(name: str, v: float) -> dict[str, float]:
        return kinded({f"arg:{name}": v, "arg:col_cov": 0.5})

    phi = [(op("lookup/plain/value"), arg("a", 1.0)), (op("lookup/plain/value"), arg("b", 0.5)),
           (op("count/plain/count"), arg("c", 1.0))]
    return {"doc": doc, "uid": str(doc), "phi": phi,
            "keys": ["lookup/plain/value", "lookup/plain/value", "count/plain/count"],
            "answers": ["x@", "y@", "x@"], "y": [int(i == right) for i in range(3)]}


def test_packing_keeps_every_feature_and_drops_only_the_kind_copies() -> None:
    vocab = Vocabulary()
    g = _group(0, 1)
    packed = pack(g, vocab, fit.kind_of(g))
    assert packed.kind == "list" and len(packed.keys) == 2
    assert not any(n.startswith("list|") for n in vocab.names)
    back = unpack(packed, vocab)
    assert back["phi"] == g["phi"] and back["keys"] == g["keys"] and back["y"] == g["y"]


def test_packed_questions_rank_and_calibrate_as_their_dictionaries() -> None:
    groups = [_group(d, d % 3) for d in range(9)]
    vocab = Vocabulary()
    packed = [pack(g, vocab) for g in groups]
    weights = {"op=lookup/plain/value": 0.3, "arg:a": 0.7, "arg:b": -0.2, "arg:col_cov": 1.0,
               "op=count/plain/count:w=many": 0.1}
    assert tops(packed, vocab, weights) == fit._tops(groups, weights)


def test_the_packed_fit_learns_what_the_dictionary_fit_learns() -> None:
    # candidate b is always right: both fits must rank it first on every question
    groups = [_group(d, 1) for d in range(6)]
    vocab = Vocabulary()
    packed = [pack(g, vocab) for g in groups]
    w_dict = fit.fit(groups, 1e-3, 60)
    w_packed = fit_packed(packed, vocab, 1e-3, 60)
    assert [y for _, y in tops(packed, vocab, w_packed)] == [1] * 6
    assert [y for _, y in fit._tops(groups, w_dict)] == [1] * 6
    assert w_packed["arg:b"] > w_packed["arg:a"] and w_dict["arg:b"] > w_dict["arg:a"]
