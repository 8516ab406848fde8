# Quire. `make run` serves on 127.0.0.1:8080 with SQLite in ./data; `make test` runs
# every test. Both install what they need on a fresh machine.

CARGO        ?= cargo
WASM_TARGET  := wasm32-wasip2
# Read without running cargo: at parse time the pinned toolchain may not be there yet.
TARGET_DIR   := $(or $(CARGO_TARGET_DIR),target)
# Python tools (pinned in scripts/python-tools.txt) live in a venv, first on PATH for tests.
PY_TOOLS     := $(CURDIR)/target/tools/python/bin
WASM_OUT     := $(TARGET_DIR)/$(WASM_TARGET)/plugin
PLUGINS_OUT  := $(TARGET_DIR)/plugins
# Converters shipped with Quire (copied to $(PLUGINS_OUT), installed on a fresh data dir).
PLUGINS      := markdown pdf drawio svg png vsdx html image mermaid detect
# Components that misbehave on purpose, for the sandbox tests only.
TEST_PLUGINS := hostile hostile-v2 markdown-next broken-describe not-a-converter

.PHONY: all build plugins host run test test-rust deps fonts toolchain lint fmt bench clean-data soak fuzz clients image test-image fidelity fidelity-deps

all: build

# The compiler rust-toolchain.toml pins, with the component target.
toolchain:
	@bash scripts/toolchain.sh

# The default font library converters draw text with (Debian's Liberation and Noto).
fonts:
	@bash scripts/install-fonts.sh

deps: toolchain fonts
	@bash scripts/install-test-tools.sh
	@bash scripts/test-s3.sh --build-only >/dev/null

# One cargo invocation for every component, so they share one build of the SDK.
plugins: toolchain
	$(CARGO) build --profile plugin --target $(WASM_TARGET) $(foreach p,$(PLUGINS) $(TEST_PLUGINS),-p quire-$(p))
	@mkdir -p $(PLUGINS_OUT)
	@rm -f $(PLUGINS_OUT)/*.wasm
	@for p in $(PLUGINS); do cp $(WASM_OUT)/quire_$$(echo $$p | tr - _).wasm $(PLUGINS_OUT)/; done
	@ls -l $(PLUGINS_OUT)

host: toolchain
	$(CARGO) build --release -p quire

build: plugins host

run: build fonts
	@bash scripts/link-cli.sh $(TARGET_DIR)/release/quire
	$(TARGET_DIR)/release/quire serve

# The API suite runs against SQLite and against a real Postgres started here. The tests
# run the `quire` binary `cargo test` builds itself (the workspace's feature set), so a
# separate host build would only compile the dependency graph twice. `--tests`: every
# unit and integration test, not the doc tests (there are none; collecting them would
# still expand every crate once more). The profile: see Cargo.toml.
test: deps plugins
	bash scripts/check-setup.sh
	node --test host/web/
	PATH="$(PY_TOOLS):$$PATH" QUIRE_TEST_POSTGRES_URL=$$(bash scripts/test-postgres.sh) $(CARGO) test --profile release-tests --workspace --tests
	@# The image of the binary the tests just ran, run as an operator would (podman).
	bash scripts/build-image.sh $(TARGET_DIR)/release-tests/quire $(PLUGINS_OUT) >/dev/null
	PATH="$(PY_TOOLS):$$PATH" bash scripts/test-image.sh quire:latest

# The Python and TypeScript clients in clients/, generated again from the OpenAPI document
# of this build (its server URL the default address). `make test` fails while they differ.
clients: deps build
	QUIRE_LOG=error QUIRE_DATA=$$(mktemp -d) QUIRE_PLUGINS_DIR=$(CURDIR)/$(PLUGINS_OUT) \
	  QUIRE_BASE_URL=http://127.0.0.1:8080 $(TARGET_DIR)/release/quire openapi > clients/openapi.json.new
	mv clients/openapi.json.new clients/openapi.json
	PATH="$(PY_TOOLS):$$PATH" bash scripts/generate-clients.sh clients/openapi.json clients

# The OCI image quire:VERSION and quire:latest (podman, no registry needed), and its test:
# a container on a volume stopped and started again, two on Postgres and Garage.
image: build
	bash scripts/build-image.sh $(TARGET_DIR)/release/quire $(PLUGINS_OUT)

test-image: deps image
	PATH="$(PY_TOOLS):$$PATH" bash scripts/test-image.sh quire:latest

lint: toolchain
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	bash scripts/deny.sh

fmt:
	$(CARGO) fmt --all

# The 30-minute soak (make test runs a 2-minute one): mixed load, memory, descriptors, p99.
soak: deps plugins
	PATH="$(PY_TOOLS):$$PATH" QUIRE_SOAK_SECS=$${QUIRE_SOAK_SECS:-1800} QUIRE_SKIP_POSTGRES=1 $(CARGO) test --release -p quire --test e2e -- soak:: --nocapture

# Every fuzz target for FUZZ_SECS seconds (default 60) each, seeded from the corpus.
fuzz: build
	bash scripts/fuzz.sh

bench: build
	bash scripts/bench.sh

clean-data:
	rm -rf data

# The reference renderers and scorers of `make fidelity` (not part of `make test`).
fidelity-deps:
	@bash scripts/fidelity/install.sh

# Every file of fidelity/corpus drawn by Quire and by the tool a user would otherwise pick,
# scored, side by side in target/fidelity/report.html (FORMATS="svg html" for some).
fidelity: build fidelity-deps
	target/tools/fidelity-py/bin/python scripts/fidelity/run.py --json target/fidelity/scores.json $(if $(FORMATS),--only $(FORMATS))
