"""The CLI is a thin shell over the library: documented, JSON-shaped, one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hyrag.cli import build_parser, main
from tests.conftest import SAMPLE

README = Path(__file__).resolve().parents[2] / "README.md"


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    out = []
    for name, p in sub.choices.items():
        nested = [a for a in p._actions if a.__class__.__name__ == "_SubParsersAction"]
        if nested:
            out += [f"{name} {n}" for n in nested[0].choices]
        else:
            out.append(name)
    return out


def test_every_cli_command_is_documented_in_the_readme():
    text = README.read_text()
    missing = [c for c in _commands() if f"`hyrag {c}" not in text]
    assert not missing, f"undocumented commands: {missing}"


def test_readme_opens_with_the_two_commands():
    head = README.read_text().split("\n## ")[0]
    assert "make demo" in head and "make test" in head


def test_ingest_schema_sql_round_trip(tmp_path, capsys):
    kb = str(tmp_path / "kb")
    assert main(["ingest", str(SAMPLE / "marketing.csv"), "--kb", kb, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reports"][0]["tables"] == ["marketing"] and out["errors"] == []
    assert main(["schema", "--kb", kb, "--json"]) == 0
    schema = json.loads(capsys.readouterr().out)
    roles = {c["column_name"]: c["role"] for c in schema["columns"]}
    assert roles["campaign_id"] == "id" and roles["quarter"] == "time"
    assert main(["sql", "SELECT count(*) AS n FROM marketing", "--kb", kb, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res) == {"columns", "rows", "truncated"}
    assert res["columns"] == ["n"] and res["rows"][0]["n"] > 0 and res["truncated"] is False


def test_sql_row_cap_is_reported(tmp_path, capsys):
    kb = str(tmp_path / "kb")
    main(["ingest", str(SAMPLE / "marketing.csv"), "--kb", kb])
    capsys.readouterr()
    assert main(["sql", "SELECT * FROM marketing", "--kb", kb, "--json", "--max-rows", "5"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert len(res["rows"]) == 5 and res["truncated"] is True


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["sql", "DROP TABLE marketing"], "DROP"),
        (["sql", "SELECT * FROM read_csv('/etc/passwd')"], "read_csv"),
        (["ingest", "no/such/file.csv"], "no/such/file.csv"),
    ],
)
def test_errors_are_one_line_with_exit_code_1(tmp_path, capsys, argv, needle):
    kb = str(tmp_path / "kb")
    main(["ingest", str(SAMPLE / "marketing.csv"), "--kb", kb])
    capsys.readouterr()
    assert main([*argv, "--kb", kb]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("hyrag: error:")
    assert needle in err and "Traceback" not in err


def test_broken_file_names_file_and_line_and_keep_going_continues(tmp_path, capsys):
    kb = str(tmp_path / "kb")
    code = main(["ingest", str(SAMPLE / "broken" / "orders_broken.csv"),
                 str(SAMPLE / "marketing.csv"), "--kb", kb, "--keep-going"])
    captured = capsys.readouterr()
    assert code == 1
    assert re.search(r"orders_broken\.csv.*row 9", captured.err)
    assert "marketing" in captured.out
