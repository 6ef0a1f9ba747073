# TSP Lab — build, run and test.
#   make run      install what Fyne needs, build (the CUDA variant when an NVIDIA GPU is present), open the app on a bundled sample
#   make test     the same setup, gofmt, go vet, go test -race ./... (fuzz seeds included), and the CUDA
#                 variant's vet where nvcc is installed or under CI (CI=true); elsewhere it says it skipped it
#   make test-cuda  compile and vet the CUDA variant (installs Debian's nvidia-cuda-toolkit when nvcc is missing)
#   make gpu      build bin/tsp and bin/tsplab with the CUDA kernels (installs the toolkit when nvcc is missing)
#   make package  a Linux desktop package (tar.xz) in dist/

GO        ?= go
BIN       := bin
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
CUDA_STUBS ?= /usr/lib/x86_64-linux-gnu/stubs
SAMPLE    ?= assets/samples/clustered-1000.tsp

.PHONY: all deps build run test test-cuda skip-cuda vet vet-cuda race gpu package fuzz bench clean

all: build

deps:
	@scripts/deps.sh

build: deps
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
	CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) build -tags cuda -o /dev/null ./cmd/tsp
	@# The cuda variant's host-side tests (option parsing, launch plans, the
	@# PSPM draw's temperature) run wherever libcuda.so.1 loads; the device
	@# tests among them skip without a GPU.
	@if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then \
		echo "CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) test -short -tags cuda ./gpu/..."; \
		CGO_LDFLAGS=-L$(CUDA_STUBS) $(GO) test -short -tags cuda ./gpu/...; \
	else echo "libcuda.so.1 is not installed: the cuda variant's tests of ./gpu/... are not run"; fi

race: deps
	$(GO) test -race ./...

# The toolkit pulls a driver library (libcuda1) and switches the system's
# GLX to NVIDIA's: `make test` installs it only under CI (CI=true) or when
# asked (make test-cuda, make gpu); with nvcc already there it vets too.
ifneq ($(filter test,$(MAKECMDGOALS)),)
HAVE_NVCC := $(shell command -v nvcc >/dev/null 2>&1 && echo yes)
endif
ifneq ($(HAVE_NVCC)$(filter true 1,$(CI)),)
test: vet vet-cuda race
else
test: vet skip-cuda race
endif

skip-cuda:
	@echo "test: nvcc is missing: the CUDA variant was not vetted; make test-cuda installs the toolkit and vets it"

test-cuda: vet-cuda

gpu: deps
	@sh scripts/cuda-toolkit.sh
	@sh scripts/build-gpu.sh

package: deps
	@scripts/package.sh

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s ./solver/tsplib
	$(GO) test -run '^$$' -fuzz '^FuzzParsePoints$$' -fuzztime 60s ./solver/instfile

bench: build
	$(BIN)/tsp bench --suite cpu --out docs/results

clean:
	rm -rf $(BIN) dist
