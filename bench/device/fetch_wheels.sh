#!/usr/bin/env bash
# Downloads the wheels that bench/device/run_device.py needs on the GPU machine, which has
# Python 3.12, numpy and pyarrow but no network: DuckDB and tpchgen-cli. Run here, then carry
# bench/device/.whl with the call.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64 \
  -d .whl duckdb==2.0.1 tpchgen-cli==4.0.0
ls -la .whl
