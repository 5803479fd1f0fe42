# Ember developer entry points. `make help` lists them.
#
# Variables (make VAR=value ...):
#   EMBER_CUDA=auto|off  compile the CUDA code when a compiler is available
#                        (auto; setup installs the CUDA compiler wheels when no
#                        toolkit is installed), or never (off)
#   JOBS=N               parallel compile jobs (default: number of cores)
#   ROWS=N               rows of the demo data set (default 1000000)
#   PYTEST_JOBS=N        processes of the differential tests, each with its own
#                        Ember server and Spark session (default 2; 0: one, in
#                        the pytest process)
#   PYTEST_ARGS=...      extra arguments for pytest (e.g. "-k agg")
#   CTEST_ARGS=...       extra arguments for ctest
#   CMAKE_ARGS=...       extra arguments for every CMake configure
#   SETUP=0              do not run tools/setup.sh first (machines without
#                        network or root, e.g. the GPU host: CMake then uses
#                        the python3 on PATH for pyarrow)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
EMBER_CUDA ?= auto
JOBS ?= $(shell nproc)
ROWS ?= 1000000
PYTEST_JOBS ?= 2
PYTEST_ARGS ?=
CTEST_ARGS ?=
CMAKE_ARGS ?=
SETUP ?= 1

PYTHON := $(ROOT)/.venv/bin/python
RELEASE_DIR := build/release
DEBUG_DIR := build/debug
STANDALONE_DIR := build/standalone
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= csv json parquet orc

ifeq ($(filter off OFF,$(EMBER_CUDA)),)
CUDA_CMAKE := -DEMBER_WITH_CUDA=AUTO
else
CUDA_CMAKE := -DEMBER_WITH_CUDA=OFF
endif

# ccache: hit across checkouts in different folders, and across -g builds.
export CCACHE_BASEDIR := $(ROOT)
export CCACHE_NOHASHDIR := 1
# Ember and the Spark oracle both run in UTC in tests.
export TZ := UTC

SETUP_STAMP := build/.setup-$(EMBER_CUDA).stamp
ifeq ($(SETUP),0)
SETUP_DEP :=
else
SETUP_DEP := $(SETUP_STAMP)
endif

# configure(<dir>, <cmake arguments>): runs CMake when the folder has no build
# files yet or when the arguments changed since the last configure; otherwise
# the build itself re-runs CMake when a CMakeLists.txt changed.
define configure
	@args='-G Ninja $(CUDA_CMAKE) $(2) $(CMAKE_ARGS)'; \
	if [[ ! -f $(1)/build.ninja || "$$(cat $(1)/.ember-configure-args 2>/dev/null)" != "$$args" ]]; then \
	  echo "cmake -S . -B $(1) $$args"; \
	  cmake -S . -B $(1) $$args; \
	  echo "$$args" > $(1)/.ember-configure-args; \
	fi
endef

.PHONY: help setup build debug standalone test-standalone test test-cpp test-python test-sf1 demo format \
        check-format tidy bench clean distclean gpu-test fuzz

help:
	@echo "make setup       install system packages, .venv and (if needed) the CUDA compiler wheels"
	@echo "make build       release build in $(RELEASE_DIR) (default target)"
	@echo "make debug       sanitizer build in $(DEBUG_DIR), then its C++ tests"
	@echo "make standalone  build without gRPC (no Spark Connect server) in $(STANDALONE_DIR)"
	@echo "make test-standalone  standalone build, then its C++ tests (SETUP=0 on the GPU host)"
	@echo "make gpu-test    on a GPU machine: standalone build, then the GPU tests (a missing GPU fails)"
	@echo "make test        release build, C++ tests, then the Python differential tests"
	@echo "make test-sf1    the TPC-H and TPC-DS differential tests at scale factor 1 (slow)"
	@echo "make fuzz        sanitizer build of the CSV, JSON, Parquet and ORC reader fuzz targets; runs each (FUZZ_TARGETS) FUZZ_SECONDS=$(FUZZ_SECONDS)"
	@echo "make demo        generate data/sales.csv (ROWS=$(ROWS)) and run 'ember demo' on it"
	@echo "make format      clang-format src/ and tests/cpp/ in place (check-format: verify only)"
	@echo "make tidy        clang-tidy over src/ with $(RELEASE_DIR)/compile_commands.json"
	@echo "make bench       run bench/run.py"
	@echo "make clean       remove build/ (distclean: also .venv and data/)"

$(SETUP_STAMP): tools/setup.sh requirements.txt requirements-cuda.txt
	EMBER_CUDA=$(EMBER_CUDA) tools/setup.sh
	@mkdir -p $(@D) && touch $@

setup:
	EMBER_CUDA=$(EMBER_CUDA) tools/setup.sh
	@mkdir -p $(dir $(SETUP_STAMP)) && touch $(SETUP_STAMP)

build: $(SETUP_DEP)
	$(call configure,$(RELEASE_DIR),-DCMAKE_BUILD_TYPE=Release)
	cmake --build $(RELEASE_DIR) -j $(JOBS)

debug: $(SETUP_DEP)
	$(call configure,$(DEBUG_DIR),-DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON)
	cmake --build $(DEBUG_DIR) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(DEBUG_DIR) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

standalone: $(SETUP_DEP)
	$(call configure,$(STANDALONE_DIR),-DCMAKE_BUILD_TYPE=Release -DEMBER_WITH_GRPC=OFF)
	cmake --build $(STANDALONE_DIR) -j $(JOBS)

# The C++ tests of the standalone build (on the GPU host: EMBER_EXPECT_GPU=1).
test-standalone: standalone
	ctest --test-dir $(STANDALONE_DIR) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The GPU tests on a machine with a GPU (SETUP=0 on the GPU host): the gpu layer's tests and the
# GPU placement tests of the standalone build; without a usable device they fail instead of
# skipping. tests/gpu/run_device.sh also runs the benchmark and compute-sanitizer.
gpu-test: standalone
	EMBER_EXPECT_GPU=1 ctest --test-dir $(STANDALONE_DIR) --output-on-failure -j $(JOBS) \
	  -R '^(gpu\.|plan\.GpuPlacement)' $(CTEST_ARGS)

test: build
	$(MAKE) --no-print-directory test-cpp test-python

test-cpp:
	ctest --test-dir $(RELEASE_DIR) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

test-python:
	EMBER_BIN=$${EMBER_BIN:-$(ROOT)/$(RELEASE_DIR)/ember} $(PYTHON) -m pytest -n $(PYTEST_JOBS) $(PYTEST_ARGS)

# TPC-H and TPC-DS at scale factor 1 against Apache Spark: the slow form of the scale-0.1 tests
# that `make test` runs.
test-sf1: build
	EMBER_BIN=$${EMBER_BIN:-$(ROOT)/$(RELEASE_DIR)/ember} EMBER_TPCH_SCALE=1 EMBER_TPCDS_SCALE=1 \
	  EMBER_ORACLE_MEMORY=$${EMBER_ORACLE_MEMORY:-8g} \
	  $(PYTHON) -m pytest tests/python/test_tpch.py tests/python/test_tpcds.py $(PYTEST_ARGS)

# The readers' fuzz targets (CSV, JSON, Parquet, ORC) in a sanitizer build, FUZZ_SECONDS each, from
# seed corpora made by tests/fuzz/make_seeds.py. Built with Clang (CXX=clang++) they are
# coverage-guided libFuzzer binaries; otherwise a mutation driver runs them. A finding stops the
# target with a sanitizer report or an abort; its input is kept in build/fuzz/findings.
fuzz: $(SETUP_DEP)
	$(call configure,$(FUZZ_DIR),-DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON -DEMBER_FUZZ=ON -DEMBER_WITH_GRPC=OFF -DEMBER_BUILD_TESTS=OFF)
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target ember_fuzz_csv ember_fuzz_json ember_fuzz_parquet ember_fuzz_orc
	$(PYTHON) tests/fuzz/make_seeds.py $(FUZZ_DIR)/seeds
	@mkdir -p $(FUZZ_DIR)/findings
	for t in $(FUZZ_TARGETS); do \
	  echo "== fuzzing the $$t reader for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
	    $(FUZZ_DIR)/tests/fuzz/ember_fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	    -artifact_prefix=$(FUZZ_DIR)/findings/$$t- $(FUZZ_DIR)/seeds/$$t; \
	done

data/sales.csv: | $(SETUP_DEP)
	@mkdir -p data
	$(PYTHON) tools/make_sales_csv.py --rows $(ROWS) $@

demo: build data/sales.csv
	$(RELEASE_DIR)/ember demo data/sales.csv

FORMAT_FILES = $(shell find src tests/cpp -type f \( -name '*.h' -o -name '*.cc' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null)

format:
	@if [[ -n "$(strip $(FORMAT_FILES))" ]]; then clang-format -i $(FORMAT_FILES); fi

check-format:
	@if [[ -n "$(strip $(FORMAT_FILES))" ]]; then clang-format --dry-run --Werror $(FORMAT_FILES); fi

# Needs the generated protocol headers, hence the build first.
tidy: build
	run-clang-tidy -quiet -p $(RELEASE_DIR) -j $(JOBS) '$(ROOT)/src/.*\.cc$$'

bench: build
	@if [[ -f bench/run.py ]]; then \
	  $(PYTHON) bench/run.py $(BENCH_ARGS); \
	else \
	  echo "bench: no bench/run.py yet"; \
	fi

clean:
	rm -rf build

distclean: clean
	rm -rf .venv data
