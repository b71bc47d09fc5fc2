# fairsim: the two commands a new user needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/fairsim
SHARED  ?= ../shared
KTH     := $(SHARED)/traces/KTH-SP2-1996-2.1-cln.swf.gz

.PHONY: build run test bench lint fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/fairsim

## run: simulate the embedded default scenario into results/default/
run: build
	./$(BIN) run --out results/default

## test: vet, unit and scenario tests, then the scenario library against results/golden
test: lint
	$(GO) test -count=1 ./...
	$(GO) run ./cmd/fairsim regress

## bench: Go benchmarks, and the KTH EASY replay timed end to end through the CLI
bench: build
	$(GO) test -run='^$$' -bench=. -benchmem ./...
	@if [ -f "$(KTH)" ]; then \
	  ./$(BIN) run --trace $(KTH) --scheduler easy --out results/bench-kth --quiet >/dev/null; \
	  t0=$$(date +%s.%N); ./$(BIN) run --trace $(KTH) --scheduler easy --out results/bench-kth --quiet; t1=$$(date +%s.%N); \
	  jobs=$$(($$(wc -l < results/bench-kth/jobs.csv) - 1)); \
	  echo "KTH easy replay (CLI, parse to CSV and plots): $$jobs jobs in $$(echo "$$t1 - $$t0" | bc -l | cut -c1-5) s, $$(echo "$$jobs / ($$t1 - $$t0)" | bc) jobs/s"; \
	else echo "bench: $(KTH) not found; skipping the CLI replay"; fi

## lint: formatting and vet must be clean
lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

## fuzz: one minute per reader fuzz target
fuzz:
	@for t in $$($(GO) test -list 'Fuzz.*' ./... | grep -E '^Fuzz|^ok' | awk '/^ok/{pkg=$$2} /^Fuzz/{print pkg":"$$1}'); do \
	  pkg=$${t%%:*}; fn=$${t##*:}; echo "== $$pkg $$fn"; $(GO) test -run='^$$' -fuzz="^$$fn$$" -fuzztime=60s $$pkg || exit 1; done

clean:
	rm -rf bin results/default results/bench-kth
