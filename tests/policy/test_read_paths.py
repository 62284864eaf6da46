"""Governance on every read path: audit replay and the notebook display go through the reader's
own rules, not the raw store."""

from __future__ import annotations

import json

from hyrag.policy.replay import METADATA_EVENTS
from tests.policy.conftest import sources_by


def subject(owner, policy, who, attest=None):
    return owner.as_subject(who, policy=policy, attestation=attest)


def test_audit_replay_withholds_what_the_reader_may_not_see(owner, policy) -> None:
    """aud may read the audit log but is not entitled to `confidential`: cleo's answer over
    payroll (confidential) must not reach aud through the replay (c683b67 showed it whole)."""
    cleo = subject(owner, policy, "cleo")
    a = cleo.ask("What is the salary of Zephyrine Quillfeather 3?")
    full = owner.audit(a.audit_id)
    pack = next(e["payload"] for e in full if e["kind"] == "context_pack")
    pay = {sources_by(owner)[("payroll.csv", "acme")]}
    assert any(c.get("source_id") in pay for c in pack["claims"])  # the owner sees it all
    shown = subject(owner, policy, "aud").audit(a.audit_id)
    # the question is cleo's own words (parse, policy.verdict); everything else is data
    data = [e["payload"] for e in shown if e["kind"] not in METADATA_EVENTS]
    blob = json.dumps(data, default=str)
    assert "Zephyrine" not in blob and "153000" not in blob and "153,000" not in blob
    full_blob = json.dumps([e["payload"] for e in full if e["kind"] not in METADATA_EVENTS],
                           default=str)
    assert "153000" in full_blob  # the check means something
    pack = next(e["payload"] for e in shown if e["kind"] == "context_pack")
    assert pack["claims"] and all("withheld" in c for c in pack["claims"]
                                  if c.get("source_id") is None)
    assert not any(c.get("source_id") in pay for c in pack["claims"])
    assert [e["kind"] for e in shown] == [e["kind"] for e in full]  # the record stays whole


def test_audit_replay_of_a_request_within_the_readers_rules_is_whole(owner, policy) -> None:
    """ana's request could read acme's internal sources only, all of which aud may read: the
    replay is not redacted at all."""
    a = subject(owner, policy, "ana").ask("What was the revenue of the North region in 2023Q1?")
    full = owner.audit(a.audit_id)
    assert subject(owner, policy, "aud").audit(a.audit_id) == full
    assert any(e["kind"] == "answer" for e in full)


def test_the_notebook_display_counts_only_the_subjects_views(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    html = ana._repr_html_()
    with ana._request("schema"):
        n_claims, n_sources = ana.reader.con.cursor().execute(
            "SELECT (SELECT count(*) FROM claims WHERE NOT superseded), "
            "(SELECT count(*) FROM sources WHERE status = 'current')").fetchone()
    all_claims, all_sources = owner.store.con.execute(
        "SELECT (SELECT count(*) FROM claims WHERE NOT superseded), "
        "(SELECT count(*) FROM sources WHERE status = 'current')").fetchone()
    assert n_sources < all_sources and n_claims < all_claims
    assert f"{n_sources} current sources" in html
    assert f"{all_sources} current sources" not in html
    assert "payroll" not in html and "Zephyrine" not in html


def test_the_display_for_a_subject_without_schema_says_so(owner, policy) -> None:
    html = subject(owner, policy, "aud")._repr_html_()  # auditors may not run `schema`
    assert "contents unavailable" in html and "payroll" not in html
