# barhub: everyday commands. `make help` lists them.

GO       ?= go
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
# Release builds leave out FerretDB's PostgreSQL backend: barhub embeds only SQLite.
TAGS     ?= ferretdb_no_postgresql
DATA     ?= ./data

# Tests: the race detector on (RACE= turns it off; testenv.sh drops it when there is no
# C compiler), every run from scratch, and a ceiling well inside the CI budget.
RACE      ?= -race
TESTFLAGS ?= -count=1 -timeout 25m
PKGS      ?= ./...
# The browser tests (Chromium against the whole server), the crowd (a party of 300
# against it) and the AI evaluation's model path (1,215 answers) run without -race, beside
# the rest: see .ci/gotest.sh for why. They run when PKGS takes in their package.
BROWSER_TESTS ?= ^(TestBrowser|TestCrowd|TestModelPath)
BROWSER_PKGS  ?= $(strip $(if $(filter ./... ./cmd/... ./cmd/barhub ./cmd/barhub/...,$(PKGS)),./cmd/barhub) \
	$(if $(filter ./... ./ai/... ./ai/eval ./ai/eval/...,$(PKGS)),./ai/eval))
# gotestsum prints each package as it finishes (and every failure in full), so a run of
# several minutes shows its progress; `go run` with a pinned version builds it once into
# Go's cache. GOTESTSUM_FORMAT=standard-verbose shows every test.
GOTESTSUM ?= $(GO) run gotest.tools/gotestsum@v1.13.0
GOTESTSUM_FORMAT ?= pkgname-and-test-fails
# The packages whose tests run on a database (store/storetest): the store conformance
# suite and what is built on it.
MONGO_PKGS ?= ./store/... ./auth/... ./activity/... ./app ./jobs ./api ./ai ./alert
BENCH     ?= .
BENCHTIME ?= 1s
FUZZTIME  ?= 10s

.DEFAULT_GOAL := help
.PHONY: help run build test test-mongo bench load lint fmt fuzz clean

help: ## list the commands
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

run: ## serve with the data in ./data (ADDR=0.0.0.0:8080 for phones on the LAN); prints the URLs and the first admin login
	$(GO) run ./cmd/barhub serve --data $(DATA) $(if $(ADDR),--addr $(ADDR))

build: ## build bin/barhub, a static binary
	CGO_ENABLED=0 $(GO) build -trimpath -tags $(TAGS) -ldflags "$(LDFLAGS)" -o bin/barhub ./cmd/barhub

test: ## run every test, with a throwaway Redis and headless Chromium (installed if missing)
	BARHUB_RACE='$(RACE)' GOTESTSUM='$(GOTESTSUM)' GOTESTSUM_FORMAT='$(GOTESTSUM_FORMAT)' \
	TESTFLAGS='$(TESTFLAGS)' BROWSER_TESTS='$(BROWSER_TESTS)' BROWSER_PKGS='$(BROWSER_PKGS)' \
		.ci/testenv.sh .ci/gotest.sh $(PKGS)

test-mongo: ## the store conformance suite against a real MongoDB: make test-mongo MONGODB_URI=mongodb://…
	@if [ -z "$(MONGODB_URI)" ]; then \
		echo "make test-mongo needs MONGODB_URI=mongodb://host:27017/?replicaSet=rs0 (a MongoDB 7 replica set or Atlas);"; \
		echo "each test makes and drops its own test_* database there. make test runs the same suite on the embedded database."; \
		exit 2; \
	fi
	MONGODB_URI='$(MONGODB_URI)' BARHUB_RACE='$(RACE)' .ci/testenv.sh sh -c '$(GOTESTSUM) --format $(GOTESTSUM_FORMAT) --format-hide-empty-pkg -- $$BARHUB_RACE -tags mongodb $(TESTFLAGS) $(MONGO_PKGS)'

bench: ## run the benchmarks (BENCH=regexp, BENCHTIME=1s, PKGS=./...)
	.ci/testenv.sh $(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem $(PKGS)

load: ## the load scenarios of docs/BENCHMARKS.md, each on a fresh server (about 3 minutes)
	.ci/testenv.sh .ci/loadtable.sh

lint: ## gofmt must have nothing to say, and go vet must pass
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt: ## gofmt every Go file
	gofmt -w .

fuzz: ## run each fuzz target for FUZZTIME (default 10s)
	.ci/testenv.sh .ci/fuzz.sh $(FUZZTIME) $(PKGS)

clean: ## remove build and test output (not ./data)
	rm -rf bin test-output
