# @novaos/client-sdk — every target works from a fresh clone.
# Targets that need node_modules install them from the lock file first.

SHELL := /bin/bash
export REDOCLY_TELEMETRY := off
export REDOCLY_SUPPRESS_UPDATE_NOTICE := true
BIN := node_modules/.bin

.PHONY: generate check-generated test typecheck lint lint-openapi vitest conformance build bench bench-long soak demo demo-platform demo-a2a clean

# Reinstalls only when the lock changes; the lock file serialises concurrent makes.
node_modules/.installed: package-lock.json
	@mkdir -p .cache
	flock .cache/npm.lock sh -c '[ node_modules/.installed -nt package-lock.json ] || { npm ci && touch node_modules/.installed; }'

## make generate: stage the pinned A2A spec and regenerate gen/ (protobuf-es, bindings, OpenAPI types).
generate: node_modules/.installed
	@mkdir -p .cache
	flock .cache/generate.lock $(BIN)/tsx tools/generate.ts

## make check-generated: regenerate into a temporary directory and fail on any difference from gen/.
check-generated: node_modules/.installed
	@mkdir -p .cache
	flock .cache/generate.lock $(BIN)/tsx tools/generate.ts --check

## make test: typecheck, lint and the vitest suites (the README's test command).
test: typecheck lint vitest

typecheck: node_modules/.installed
	$(BIN)/tsc --noEmit -p tsconfig.json

lint: node_modules/.installed lint-openapi
	$(BIN)/biome check .

lint-openapi: node_modules/.installed
	$(BIN)/redocly lint --config redocly.yaml openapi/*.yaml

vitest: node_modules/.installed
	$(BIN)/vitest run

## make conformance: the spec lock, fresh generated code, the conformance suite against the pinned tag, and
## `novaos-a2a check` against the example agent served on all three bindings (fails on any MUST).
conformance: node_modules/.installed check-generated
	$(BIN)/vitest run test/conformance
	$(BIN)/tsx tools/conformance-check.ts

## make build: ESM + .d.ts into dist/ (one entry per package subpath; require() loads it on the Node versions
## `engines` allows), checked by publint and are-the-types-wrong.
build: node_modules/.installed
	rm -rf dist
	$(BIN)/tsdown
	$(BIN)/publint --strict
	$(BIN)/attw --pack . --profile esm-only

## make demo: the NovaOS flow on the local platform (agents registered in DNS, discovered, run through the gateway
## with memory, knowledge, the LLM and a HITL pause), then the A2A walk-through; each prints what happened.
demo: node_modules/.installed
	$(BIN)/tsx examples/platform-demo.ts
	$(BIN)/tsx examples/demo.ts

## make demo-platform: only the NovaOS flow (examples/platform-demo.ts).
demo-platform: node_modules/.installed
	$(BIN)/tsx examples/platform-demo.ts

## make demo-a2a: only the A2A walk-through: the example agent driven through every A2A method (examples/demo.ts).
demo-a2a: node_modules/.installed
	$(BIN)/tsx examples/demo.ts

## make bench: ours, @a2a-js/sdk and a raw ceiling in interleaved rounds; one table of medians, ranges, ratios and
## server CPU per call (docs/performance.md). `make bench ROUNDS=3` for fewer rounds (default 5; also BENCH_ROUNDS).
bench: node_modules/.installed
	$(BIN)/tsx bench/run.ts $(if $(ROUNDS),--rounds $(ROUNDS))

## make bench-long: the rows too slow for every run (a 1M-event stream, ListTasks over 1M stored tasks).
bench-long: node_modules/.installed
	$(BIN)/tsx bench/run.ts --long $(if $(ROUNDS),--rounds $(ROUNDS))

## make soak: an agent under a 256 MB heap is sent 300 × 5 MB messages and 3,000 × 100 KB follow-ups to one
## paused task; fails unless it stays up with its RSS flat (tools/soak.ts; a reduced run is in make test).
soak: node_modules/.installed
	$(BIN)/tsx tools/soak.ts

clean:
	rm -rf dist .cache coverage
