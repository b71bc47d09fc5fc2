# fairsim: the two commands a new user needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/fairsim
SHARED  ?= ../shared
# x86-64-v2 (every x86-64 CPU since 2009-2011): popcounts become one
# instruction instead of a call that checks for it, which the node bitmaps
# of the backfill plan use everywhere (CEA-Curie under slurm: 2.2 % less
# time, outputs identical). v3 would let the compiler fuse multiply-adds,
# which changes the last digit of priorities: not that. Other
# architectures ignore it; GOAMD64=v1 make build for an older CPU.
GOAMD64 ?= v2
export GOAMD64

.PHONY: build run test test-slurm bench pgo lint fuzz clean

# urfave_cli_no_docs leaves out urfave/cli's man-page and Markdown writers,
# which fairsim never calls: their Markdown parser's start-up costs every
# run about 3 ms (a tenth of a small run's start). go build also picks up
# cmd/fairsim/default.pgo, the CPU profile it optimises with (make pgo).
# netgo: gocsv imports mime/multipart, which pulls in net, whose cgo
# resolver made the binary dynamically linked; fairsim resolves no names,
# and a static binary starts 2.3 ms sooner (60 runs of --version each,
# alternating: 26.1-26.9 ms -> 24.0-24.4 ms).
build:
	$(GO) build -tags urfave_cli_no_docs,netgo -o $(BIN) ./cmd/fairsim

## run: simulate the embedded default scenario into results/default/
run: build
	./$(BIN) run --out results/default

## test: vet, unit and scenario tests, then the scenario library against results/golden
test: lint
	$(GO) test -count=1 ./...
	# Reused job records are only as safe as every reader of a retired
	# job: the race detector watches the reader refill them. It needs cgo
	# and a C compiler (.ci/run installs gcc).
	@if command -v gcc >/dev/null 2>&1; then \
	  $(GO) test -race -count=1 -run 'TestReuseRecords|TestRetiredJobsUnread' ./workflow; \
	else echo "make test: no gcc, so the reused records' tests ran without the race detector"; fi
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
## scripts/bench/run's table: KTH EASY through the CLI and a lean Python
## EASY, CEA-Curie under easy and slurm, ten million generated jobs under
## fifo, each as a ratio to zcat of its trace measured in the same run, with
## peak memory; and an 8-point sweep with 1 and 2 workers.
bench: build
	$(GO) test -run='^$$' -bench=. -benchmem ./...
	SHARED=$(SHARED) scripts/bench/run $(BIN)

## pgo: remake cmd/fairsim/default.pgo, the profile of make bench's replays
## that go build optimises the CLI with (scripts/pgo/profile)
pgo:
	SHARED=$(SHARED) scripts/pgo/profile

## lint: formatting and vet must be clean
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## fuzz: one minute per reader fuzz target (FUZZTIME to change)
FUZZTIME ?= 60s
# Go minimises each new interesting input for up to a minute by default:
# within a one-minute budget the first one took all of it (slurm.conf's
# target ran 53 inputs, 52 of them its seeds). 5 s leaves the minute to
# fuzzing; a failing input is still minimised.
FUZZMINIMIZE ?= 5s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for fn in $$($(GO) test -list 'Fuzz.*' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$fn"; $(GO) test -run='^$$' -fuzz="^$$fn$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZE) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin results/default results/bench-kth results/bench-curie
