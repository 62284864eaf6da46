"""The PDP as a pure function and the TOML loader's errors."""

from __future__ import annotations

import pytest

from hyrag.policy import (
    Context,
    Effect,
    PolicyError,
    Request,
    Resource,
    decide,
    load_policy,
    parse_policy,
)
from tests.policy.conftest import POLICY


@pytest.fixture(scope="module")
def pol():
    return parse_policy(POLICY, origin="p.toml")


def req(pol, who, action, res=Resource(), attest=None):  # noqa: B008
    return Request(pol, pol.subject(who), action, res, Context(attest))


SRC = {c: Resource("source", f"{c}.csv", "acme", c, (c,))
       for c in ("public", "internal", "confidential", "restricted")}


def test_no_policy_is_the_local_owner() -> None:
    from hyrag.policy import Subject

    v = decide(Request(None, Subject("owner"), "sql"))
    assert v.effect is Effect.ALLOW and v.rule_id == "no-policy" and "local owner" in v.reason


@pytest.mark.parametrize(("who", "action", "effect", "rule"), [
    ("ana", "search", Effect.ALLOW, "analysts-query"),
    ("ana", "audit.read", Effect.DENY, "default-deny"),
    ("ana", "ingest", Effect.DENY, "default-deny"),
    ("aud", "audit.read", Effect.ALLOW, "auditors-read-audit"),
    ("aud", "sql", Effect.DENY, "default-deny"),
    ("tom", "ask", Effect.STEP_UP, "contractors-attest"),
    ("nobody", "search", Effect.DENY, "unknown-subject"),
    ("ana", "drop", Effect.DENY, "unknown-action"),
])
def test_action_level(pol, who, action, effect, rule) -> None:
    v = decide(req(pol, who, action, Resource("kb", "kb")))
    assert (v.effect, v.rule_id, v.policy_version) == (effect, rule, "test-7")


def test_source_level_entitlements_step_up_and_deny_overrides(pol) -> None:
    assert decide(req(pol, "ana", "search", SRC["internal"])).effect is Effect.ALLOW
    v = decide(req(pol, "ana", "search", SRC["confidential"]))
    assert (v.effect, v.rule_id) == (Effect.DENY, "classified-needs-entitlement")
    v = decide(req(pol, "ana", "search", SRC["restricted"], attest="I am the CFO"))
    assert v.effect is Effect.DENY  # deny overrides an attested step-up
    v = decide(req(pol, "cleo", "search", SRC["restricted"]))
    assert (v.effect, v.rule_id) == (Effect.STEP_UP, "restricted-needs-attestation")
    v = decide(req(pol, "cleo", "search", SRC["restricted"], attest="board approval 12"))
    assert (v.effect, v.rule_id) == (Effect.ALLOW, "restricted-needs-attestation")
    assert decide(req(pol, "cleo", "search", SRC["restricted"], attest="  ")).effect \
        is Effect.STEP_UP


def test_tenant_isolation_is_built_in(pol) -> None:
    other = Resource("source", "orders.csv", "globex", "internal", ("orders",))
    v = decide(req(pol, "cleo", "search", other))
    assert (v.effect, v.rule_id) == (Effect.DENY, "tenant-isolation")
    assert decide(req(pol, "gus", "search", other)).effect is Effect.ALLOW


def test_decide_is_pure(pol) -> None:
    r = req(pol, "cleo", "sql", SRC["restricted"])
    assert decide(r) == decide(r) == decide(r)


def test_unscoped_action_for_scoped_grant() -> None:
    p = parse_policy('version = "1"\n[subjects.g]\nroles = ["guest"]\n[[rules]]\nid = "pub"\n'
                     'effect = "allow"\nactions = ["search"]\nroles = ["guest"]\n'
                     'classifications = ["public"]\n')
    v = decide(Request(p, p.subject("g"), "search", Resource("kb", "kb")))
    assert (v.effect, v.rule_id) == (Effect.ALLOW, "scoped:pub")
    assert decide(Request(p, p.subject("g"), "search", SRC["internal"])).effect is Effect.DENY
    assert decide(Request(p, p.subject("g"), "sql", Resource("kb", "kb"))).effect is Effect.DENY


@pytest.mark.parametrize(("text", "needle"), [
    ('version = "1"\n[[rules]]\nid = "a"\neffect = "allow"\naction = ["sql"]\n',
     "p.toml, line 2: rules[0]: unknown key 'action'"),
    ('version = "1"\n[[rules]]\nid = "a"\neffect = "permit"\n', "rules[0].effect"),
    ('version = "1"\n[[rules]]\nid = "a"\neffect = "allow"\nactions = ["delete"]\n',
     "unknown action 'delete'"),
    ('version = "1"\n[[rules]]\nid = "a"\neffect = "deny"\nclassifications = ["secret"]\n',
     "unknown label 'secret'"),
    ('[[rules]]\nid = "a"\neffect = "allow"\n', "`version` is required"),
    ('version = "1"\n[subjects.x]\nrole = ["a"]\n', "p.toml, line 2: subjects.x: unknown key"),
    ('version = "1"\n\n[[rules]\nid = 3\n', "p.toml, line 3: invalid TOML"),
    ('version = "1"\n[[rules]]\nid = "a"\neffect = "allow"\n[[rules]]\nid = "a"\n'
     'effect = "deny"\n', "line 5: rules[1].id 'a' is used twice"),
])
def test_load_errors_name_file_and_line_or_key(text: str, needle: str) -> None:
    with pytest.raises(PolicyError) as e:
        parse_policy(text, origin="p.toml")
    assert needle in str(e.value)


def test_load_from_file(tmp_path) -> None:
    f = tmp_path / "policy.toml"
    f.write_text(POLICY)
    p = load_policy(f)
    assert p.version == "test-7" and p.origin == str(f) and len(p.rules) == 6
    with pytest.raises(PolicyError, match="missing.toml"):
        load_policy(tmp_path / "missing.toml")
