"""Property: under random policies and requests, no claim of a source the PDP did not ALLOW
ever appears in a search result, an answer's evidence, its context pack, or SQL over claims."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hyrag.errors import HyragError
from hyrag.kb import KnowledgeBase
from hyrag.policy import (
    CLASSIFICATIONS,
    Context,
    Effect,
    Policy,
    Request,
    Resource,
    Rule,
    Subject,
    decide,
)

ROLES = ("r1", "r2", "r3")
ACTS = ("search", "ask", "sql")
QUESTIONS = ("What was the revenue of the North region in 2023Q1?",
             "salary of Zephyrine Quillfeather 3", "Quokka Holdings employees in 2024",
             "revenue of order SO-00007", "Which company is headquartered in Trondheim?")

subsets = lambda xs: st.frozensets(st.sampled_from(xs))  # noqa: E731

rules = st.builds(
    lambda i, eff, acts, roles, classes, ent: Rule(
        f"r{i}", eff, acts, frozenset(), roles, classes, (), (), ent),
    st.integers(0, 10_000), st.sampled_from(list(Effect)), subsets(ACTS), subsets(ROLES),
    subsets(CLASSIFICATIONS), st.sampled_from([None, True, False]))

policies = st.builds(
    lambda rs, roles, ents, tenant: Policy(
        "prop", {"s": Subject("s", roles, tenant, ents)},
        tuple(Rule(f"{r.id}-{n}", *[getattr(r, f) for f in (
            "effect", "actions", "subjects", "roles", "classifications", "sources", "tables",
            "entitled")]) for n, r in enumerate(rs))),
    st.lists(rules, max_size=5), subsets(ROLES), subsets(CLASSIFICATIONS),
    st.sampled_from(["acme", "acme", "globex"]))


@pytest.fixture(scope="module")
def base(gov_dir):
    kb = KnowledgeBase(gov_dir)
    rows = kb.store.con.execute(
        "SELECT s.source_id, s.name, s.tenant, s.classification, c.claim_id FROM sources s "
        "JOIN claims c USING (source_id)").fetchall()
    yield kb, rows
    kb.close()


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pol=policies, action=st.sampled_from(ACTS), q=st.sampled_from(QUESTIONS),
       attest=st.sampled_from([None, "signed off"]))
def test_no_denied_claim_ever_surfaces(base, pol, action, q, attest) -> None:
    kb, rows = base
    subj = pol.subject("s")
    tables = dict(kb.store.con.execute("SELECT source_id, list(table_name) FROM kb_tables "
                                       "GROUP BY 1").fetchall())
    allowed_claims: set[str] = set()
    for sid, name, tenant, cls, cid in rows:
        v = decide(Request(pol, subj, action,
                           Resource("source", name, tenant, cls, tuple(sorted(tables.get(sid, [])))),
                           Context(attest)))
        if v.effect is Effect.ALLOW:
            allowed_claims.add(cid)
    denied = {r[4] for r in rows} - allowed_claims
    k = kb.as_subject("s", policy=pol, attestation=attest)
    try:
        if action == "search":
            seen = {c.claim_id for c in k.search(q, k=15).claims if c.kind != "summary"}
        elif action == "ask":
            a = k.ask(q)
            seen = {e["claim_id"] for e in a.evidence}
            pack = next(e["payload"] for e in kb.audit(a.audit_id) if e["kind"] == "context_pack")
            seen |= {c["claim_id"] for c in pack["claims"]}
            seen |= {o for c in pack["claims"] for o in c["operands"]}
        else:
            res = k.sql("SELECT claim_id FROM claims", row_cap=1_000_000)
            seen = {r[0] for r in res.rows}
            assert seen == allowed_claims  # exactly the allowed ones, before any LIMIT
    except HyragError:
        return  # DENY / STEP_UP / a rejected statement: nothing was returned
    seen = {c for c in seen if not c.startswith("sql:")}
    assert not seen & denied
