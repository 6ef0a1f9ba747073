# TSP Lab — build, run and test.
#   make run      install what Fyne needs, build (the CUDA variant when an NVIDIA GPU is present), open the app on a bundled sample
#   make test     the same setup, gofmt, go vet, go test -race ./... (fuzz seeds included), the quality and
#                 wall-clock checks the race detector would slow without it (make plain), and the CUDA
#                 variant's vet where nvcc is installed or under CI (CI=true); elsewhere it says it skipped it
#   make test-cuda  compile and vet the CUDA variant (installs Debian's nvidia-cuda-toolkit when nvcc is missing)
#   make gpu      build bin/tsp and bin/tsplab with the CUDA kernels (installs the toolkit when nvcc is missing)
#   make package  a Linux desktop package (tar.xz) in dist/: tsplab, tsp, the desktop entry and the icon
#   make release  dist/: the CLI for Linux, macOS and Windows, the Linux CUDA build of tsp and tsplab,
#                 an archive each with README and LICENSE, SHA256SUMS (scripts/release.sh)
#   make wheel    the Python package's wheels, one a platform, in dist/wheels/ (the host's also in dist/)
#   make wheel-host  only this machine's wheel (the CPU build, no fatbin) in dist/: seconds once go build's cache is warm

GO        ?= go
BIN       := bin
VERSION   ?= $(shell sh scripts/version.sh)
COMMIT    ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
BUILDINFO := github.com/tsplab/tsplab/solver/buildinfo
LDFLAGS   := -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$(COMMIT)
# The scripts (build-gpu.sh, package.sh, release.sh) stamp their builds with it.
export TSPLAB_LDFLAGS := $(LDFLAGS)
# The CUDA variant links against internal/cudaload's empty libcuda.so on
# x86-64 (the driver is opened at run time); elsewhere against the toolkit's stub.
ifeq ($(shell uname -m),x86_64)
CUDA_STUBS ?= $(CURDIR)/internal/cudaload/link
else
CUDA_STUBS ?= /usr/lib/aarch64-linux-gnu/stubs
endif
SAMPLE    ?= assets/samples/clustered-1000.tsp

.PHONY: all deps build run test test-cuda skip-cuda vet vet-cuda race plain gpu package release wheel wheel-host test-python fuzz bench clean

all: build

deps:
	@scripts/deps.sh

build: deps
	@test -e $(BIN)/tsplab || echo "build: the first build compiles Fyne's C parts (GLFW, OpenGL): about 6 minutes on 2 cores; later builds take seconds"
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/tsp ./cmd/tsp
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/tsplab .

# With an NVIDIA driver and a GPU (scripts/nvidia-present.sh) `make run`
# builds the CUDA variant, as `make gpu` does, and opens it with the GPU
# backend; otherwise the CPU variant. The check runs only for that goal.
ifneq ($(filter run,$(MAKECMDGOALS)),)
HAVE_NVIDIA := $(shell sh scripts/nvidia-present.sh && echo yes)
endif
ifeq ($(HAVE_NVIDIA),yes)
run: gpu
	@echo "run: NVIDIA GPU found: the CUDA variant"
	$(BIN)/tsplab --open $(SAMPLE) --backend gpu
else
run: build
	@echo "run: no NVIDIA GPU: the CPU variant"
	$(BIN)/tsplab --open $(SAMPLE)
endif

vet: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...

# The cuda variant is compiled and vetted too, so GPU code never lands broken.
vet-cuda:
	@sh scripts/cuda-toolkit.sh
	@sh scripts/build-gpu.sh fatbin
	CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) vet -tags cuda ./...
	@# One build for every Linux machine: it must start and solve on the
	@# CPU where the driver is missing (and here, where it cannot start).
	@sh scripts/cuda-anywhere.sh
	@# The cuda variant's host-side tests (option parsing, launch plans, the
	@# PSPM draw's temperature) run wherever libcuda.so.1 loads; the device
	@# tests among them skip without a GPU.
	@if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then \
		echo "CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) test -short -tags cuda ./gpu/... ./lab/..."; \
		CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) test -short -tags cuda ./gpu/... ./lab/...; \
	else echo "libcuda.so.1 is not installed: the cuda variant's tests of ./gpu/... and ./lab/... are not run"; fi

# Under the race detector on two cores the app's real-window tests pass
# the default 10 minutes a package, so each package gets 30. A race-built
# program sleeps a second before it exits, to catch the races of
# goroutines still running then; a test binary has waited for its tests,
# so atexit_sleep_ms=0 takes that second off each of some 50 packages.
race: deps
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -race -timeout 30m ./...

# The checks that hold a search's quality or time a real engine on the
# wall clock skip under the race detector, which slows them five- to
# tenfold; this tier runs them without it.
PLAIN_TESTS := ^(TestParsePointsTenMillion|TestRepeatsPr2392|TestBoundBelowOptimumTSPLIB|TestBoundQualityTSPLIB|TestThoroughBoundConvergesOnTheSphere|TestAppFollowsEachImprovementOfAuto|TestCompareTimesComeFromTheRunsOwnSnapshots)$$
plain: deps
	$(GO) test -run '$(PLAIN_TESTS)' ./solver/instfile ./solver/bound ./solver/cpu/ils ./app

# The toolkit pulls a driver library (libcuda1) and switches the system's
# GLX to NVIDIA's: `make test` installs it only under CI (CI=true) or when
# asked (make test-cuda, make gpu); with nvcc already there it vets too.
ifneq ($(filter test,$(MAKECMDGOALS)),)
HAVE_NVCC := $(shell command -v nvcc >/dev/null 2>&1 && echo yes)
endif
ifneq ($(HAVE_NVCC)$(filter true 1,$(CI)),)
test: vet vet-cuda race plain test-python
else
test: vet skip-cuda race plain test-python
endif

skip-cuda:
	@echo "test: nvcc is missing: the CUDA variant was not vetted; make test-cuda installs the toolkit and vets it"

test-cuda: vet-cuda

gpu: deps
	@sh scripts/cuda-toolkit.sh
	@sh scripts/build-gpu.sh

package: deps
	@scripts/package.sh

# Every archive of a release, built on this machine (the CUDA build needs
# nvcc: scripts/cuda-toolkit.sh installs it).
release: deps
	@sh scripts/cuda-toolkit.sh
	@scripts/release.sh

wheel:
	@scripts/wheel.sh

wheel-host:
	@scripts/wheel.sh --host-cpu dist

# The Python package's tests, against a CPU build of tsp (seconds).
test-python:
	@scripts/python-test.sh

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./solver/tsplib
	$(GO) test -run '^$$' -fuzz '^FuzzParsePoints$$' -fuzztime 60s ./solver/instfile

bench: build
	$(BIN)/tsp bench --suite cpu --out docs/results

clean:
	rm -rf $(BIN) dist
