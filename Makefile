# The README's two commands: `make serve` and `make test`. Both work on a machine that has only
# Python and apt: they create .venv here, install the project, and (for tests) start Docker.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 50051

.PHONY: serve test check gates venv venv-full proto docker compose images rootfs gvisor bubblewrap chromium promtool image load bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# The service: the base (client) install plus the `server` extra (math-verify, sympy, docker, ...).
$(VENV)/.base: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[server]'
	touch $@

# Everything: training extras (CPU torch first, so pip does not pull CUDA wheels) and dev tools.
$(VENV)/.full: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[server,train,dev]'
	touch $(VENV)/.base $@

venv: $(VENV)/.base
venv-full: $(VENV)/.full

# Docker daemon (installed from Debian when missing) and the sandbox images, built offline.
docker:
	bash scripts/ensure_docker.sh

images: $(VENV)/.base docker
	$(BIN)/verifier sandbox build

# The same images as root filesystems for the gVisor backend (~/.cache/grpo-verifier/rootfs).
# PRUNE=--prune (what `make test` passes) also removes older recipes' images and folders, so a
# machine that runs the suite again and again keeps one set (~10 GB), not one per recipe change.
PRUNE ?=
rootfs: $(VENV)/.base docker
	$(BIN)/verifier sandbox build --rootfs $(PRUNE)

# gVisor's runsc from Debian: the gVisor backend runs it rootless, and it is registered as an
# optional Docker runtime too (tests/test_sandbox_gvisor.py).
gvisor: docker
	bash scripts/ensure_gvisor.sh

# A compose tool for deploy/compose.yaml: the `docker compose` plugin, else Debian's docker-compose
# (tests/test_deploy_compose.py runs the file through it, as docs/deploy.md "Deploy" says).
compose: docker
	bash scripts/ensure_compose.sh

# Debian's bubblewrap for the userns backend (tests/test_sandbox_userns.py and every any_grader test).
bubblewrap:
	bash scripts/ensure_bubblewrap.sh

# Debian's chromium (headless) for the browser test of `verifier report`.
chromium:
	bash scripts/ensure_chromium.sh

# promtool, taken out of Debian's prometheus package, for the alert-rule tests.
promtool: | $(BIN)/python
	bash scripts/ensure_promtool.sh $(BIN)

serve: $(VENV)/.base
	-bash scripts/ensure_docker.sh && $(BIN)/verifier sandbox build
	$(BIN)/verifier serve --host $(HOST) --port $(PORT)

# The gates, in under a minute with no Docker: lint, the import layers, types, and the pure-logic tests
# (docs/architecture.md "Gates"). `make test` runs the first three and then every test, the unit ones
# among them, once.
gates: $(VENV)/.full
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

check: gates
	$(BIN)/python -m pytest -q -m unit -p no:cacheprovider

# The suite in two phases: the tests not marked `serial` WORKERS (2) at once, then the serial ones alone
# (scripts/test_once_more.sh); `make test PARALLEL=0` runs it serially in one pytest.
test: PRUNE = --prune
test: gates images rootfs gvisor compose bubblewrap chromium promtool image
	BIN=$(BIN) bash scripts/test_once_more.sh

proto: $(VENV)/.full
	$(BIN)/python -m grpc_tools.protoc -I proto --python_out=. --grpc_python_out=. --pyi_out=. proto/verifier/v1/verifier.proto

# The service's own image, offline from Debian packages: runsc and the sandboxes' root filesystems
# inside, so it grades code with no Docker daemon (docs/deploy.md "Deploy"). The tests run it
# (tests/test_sandbox_pod.py, tests/test_deploy_compose.py). Then the load-and-fault harness.
image: $(VENV)/.base docker
	bash deploy/build_offline.sh

load: $(VENV)/.base
	$(BIN)/python bench/load.py

bench: $(VENV)/.full images
	$(BIN)/python bench/math_throughput.py
	$(BIN)/python bench/code_throughput.py
	$(BIN)/python bench/learn_tiny.py

clean:
	rm -rf $(VENV) .pytest_cache
