"""Reading a policy file (TOML, standard library `tomllib`).

    version = "2025-06-01.1"

    [subjects.alice]
    roles = ["analyst"]
    tenant = "acme"
    entitlements = ["confidential"]

    [[rules]]
    id = "analysts-read"
    effect = "allow"                 # allow | deny | step_up
    actions = ["schema", "search", "ask", "sql"]
    roles = ["analyst"]

    [[rules]]
    id = "confidential-needs-entitlement"
    effect = "deny"
    classifications = ["confidential", "restricted"]
    entitled = false

Every error names the file and the line (TOML syntax) or the key (`rules[2].effect`, with the
line of that `[[rules]]` table). Unknown keys are errors: a misspelt condition ("action" for
"actions") would otherwise silently widen a rule.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hyrag.errors import HyragError
from hyrag.policy.model import ACTIONS, CLASSIFICATIONS, Effect, Policy, Rule, Subject

POLICY_FILE = "policy.toml"
_TOP = {"version", "subjects", "rules", "description"}
_SUBJECT_KEYS = {"roles", "tenant", "entitlements", "description"}
_RULE_KEYS = {"id", "effect", "actions", "subjects", "roles", "classifications", "sources",
              "tables", "entitled", "description"}


class PolicyError(HyragError):
    """The policy file cannot be used; the message names the file and the line or key."""


def _line_of_rule(text: str, index: int) -> int | None:
    n = -1
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*\[\[\s*rules\s*\]\]", line):
            n += 1
            if n == index:
                return i
    return None


def _line_of_key(text: str, pattern: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.search(pattern, line):
            return i
    return None


def load_policy(path: str | os.PathLike[str]) -> Policy:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise PolicyError(f"cannot read policy file: {e.strerror or e}", source=str(p)) from e
    return parse_policy(text, origin=str(p))


def parse_policy(text: str, origin: str = "<policy>") -> Policy:
    def fail(msg: str, line: int | None = None) -> PolicyError:
        where = f"{origin}" + (f", line {line}" if line else "")
        return PolicyError(f"{where}: {msg}")

    import tomllib  # here: most knowledge bases have no policy file to parse (issue 20)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise fail(f"invalid TOML: {e}", int(m.group(1)) if m else None) from e
    for k in data:
        if k not in _TOP:
            raise fail(f"unknown key {k!r}; valid: {', '.join(sorted(_TOP))}",
                       _line_of_key(text, rf"^\s*\[?{re.escape(k)}\b"))
    version = data.get("version")
    if not isinstance(version, str | int | float) or not str(version).strip():
        raise fail("`version` is required (a string naming this policy's version)")

    def strings(v: object, key: str, line: int | None) -> tuple[str, ...]:
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise fail(f"{key} must be a list of strings", line)
        return tuple(v)

    subjects: dict[str, Subject] = {}
    raw_subjects = data.get("subjects", {})
    if not isinstance(raw_subjects, dict):
        raise fail("`subjects` must be a table of [subjects.NAME] tables")
    for sid, body in raw_subjects.items():
        line = _line_of_key(text, rf"^\s*\[\s*subjects\.\"?{re.escape(sid)}\"?\s*\]")
        if not isinstance(body, dict):
            raise fail(f"subjects.{sid} must be a table", line)
        for k in body:
            if k not in _SUBJECT_KEYS:
                raise fail(f"subjects.{sid}: unknown key {k!r}; valid: "
                           f"{', '.join(sorted(_SUBJECT_KEYS))}", line)
        tenant = body.get("tenant", "default")
        if not isinstance(tenant, str) or not tenant:
            raise fail(f"subjects.{sid}.tenant must be a non-empty string", line)
        subjects[sid] = Subject(
            sid, frozenset(strings(body.get("roles", []), f"subjects.{sid}.roles", line)),
            tenant,
            frozenset(strings(body.get("entitlements", []), f"subjects.{sid}.entitlements",
                              line)),
        )

    rules: list[Rule] = []
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        raise fail("`rules` must be an array of [[rules]] tables")
    seen: set[str] = set()
    for i, body in enumerate(raw_rules):
        line = _line_of_rule(text, i)
        key = f"rules[{i}]"
        if not isinstance(body, dict):
            raise fail(f"{key} must be a table", line)
        for k in body:
            if k not in _RULE_KEYS:
                raise fail(f"{key}: unknown key {k!r}; valid: {', '.join(sorted(_RULE_KEYS))}",
                           line)
        rid = body.get("id")
        if not isinstance(rid, str) or not rid.strip():
            raise fail(f"{key}.id is required (a name the audit record and errors cite)", line)
        if rid in seen:
            raise fail(f"{key}.id {rid!r} is used twice", line)
        seen.add(rid)
        eff = str(body.get("effect", "")).strip().upper().replace("-", "_")
        if eff not in Effect.__members__:
            raise fail(f"{key}.effect must be allow, deny or step_up, got "
                       f"{body.get('effect')!r}", line)
        actions = strings(body.get("actions", []), f"{key}.actions", line)
        bad = [a for a in actions if a not in ACTIONS and a != "*"]
        if bad:
            raise fail(f"{key}.actions: unknown action {bad[0]!r}; valid: {', '.join(ACTIONS)}",
                       line)
        classes = strings(body.get("classifications", []), f"{key}.classifications", line)
        bad = [c for c in classes if c not in CLASSIFICATIONS]
        if bad:
            raise fail(f"{key}.classifications: unknown label {bad[0]!r}; valid: "
                       f"{', '.join(CLASSIFICATIONS)}", line)
        entitled = body.get("entitled")
        if entitled is not None and not isinstance(entitled, bool):
            raise fail(f"{key}.entitled must be true or false", line)
        rules.append(Rule(
            id=rid, effect=Effect[eff],
            actions=frozenset() if "*" in actions else frozenset(actions),
            subjects=frozenset(strings(body.get("subjects", []), f"{key}.subjects", line)),
            roles=frozenset(strings(body.get("roles", []), f"{key}.roles", line)),
            classifications=frozenset(classes),
            sources=strings(body.get("sources", []), f"{key}.sources", line),
            tables=strings(body.get("tables", []), f"{key}.tables", line),
            entitled=entitled,
            description=str(body.get("description", "")),
        ))
    return Policy(str(version), subjects, tuple(rules), origin)


def find_policy(kb_folder: str | os.PathLike[str], explicit: object = None) -> Policy | None:
    """`explicit` (a Policy, or a path from `--policy FILE` / `policy=`), else `policy.toml` in
    the knowledge-base folder, else None (no policy: the single local owner)."""
    if isinstance(explicit, Policy):
        return explicit
    if explicit is not None:
        return load_policy(explicit)  # type: ignore[arg-type]
    f = Path(kb_folder) / POLICY_FILE
    return load_policy(f) if f.exists() else None
