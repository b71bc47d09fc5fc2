# fairsim: the two commands a new user needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/fairsim
SHARED  ?= ../shared
KTH     := $(SHARED)/traces/KTH-SP2-1996-2.1-cln.swf.gz

.PHONY: build run test test-slurm bench lint fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/fairsim

## run: simulate the embedded default scenario into results/default/
run: build
	./$(BIN) run --out results/default

## test: vet, unit and scenario tests, then the scenario library against results/golden
test: lint
	$(GO) test -count=1 ./...
	$(GO) run ./cmd/fairsim regress

## test-slurm: the tests against a real Slurm (build tag slurm), each
## bringing up scripts/slurm-harness in a private network namespace. Where
## the machine cannot run it (no packages, not root, no namespaces) it
## prints SKIP and succeeds.
test-slurm:
	@if scripts/slurm-harness check; then \
	  $(GO) vet -tags slurm ./... && $(GO) test -count=1 -tags slurm -run '^TestSlurmHarness' ./...; \
	else echo "SKIP: make test-slurm: no real Slurm on this machine (see above)"; fi

## bench: Go benchmarks (readers, priorities, fair-share tick, replays), then
## the KTH EASY replay and the whole CEA-Curie trace under the slurm policy
## through the CLI, with wall time, jobs/s and peak memory.
CURIE   := $(SHARED)/traces/CEA-Curie-2011-2.1-cln.swf.gz
bench: build
	$(GO) test -run='^$$' -bench=. -benchmem ./...
	@if [ -f "$(KTH)" ]; then \
	  echo "== KTH-SP2, easy (target: under 0.3 s, parse to CSV and plots)"; \
	  ./$(BIN) run --trace $(KTH) --scheduler easy --out results/bench-kth | tail -1; \
	else echo "bench: $(KTH) not found; skipping the CLI replays"; fi
	@if [ -f "$(CURIE)" ]; then \
	  echo "== CEA-Curie, slurm policy, Fair Tree, Slurm's default scheduler parameters (target: under 120 s and 2 GB)"; \
	  ./$(BIN) run --trace $(CURIE) --scheduler slurm --out results/bench-curie | tail -1; \
	fi

## lint: formatting and vet must be clean
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## fuzz: one minute per reader fuzz target (FUZZTIME to change)
FUZZTIME ?= 60s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for fn in $$($(GO) test -list 'Fuzz.*' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$fn"; $(GO) test -run='^$$' -fuzz="^$$fn$$" -fuzztime=$(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin results/default results/bench-kth results/bench-curie
