#!/usr/bin/env bash
# Builds Ember (standalone, CUDA for the local GPU) on a GPU machine that has CUDA, CMake, ninja,
# gcc and pyarrow but possibly no GoogleTest, then runs the GPU tests, the GPU benchmark and
# compute-sanitizer's memcheck over the GPU tests. Logs and results go to $OUT (default
# build/gpu-out). Phases: build, test, bench, memcheck (arguments select some; default all).
#
#   tests/gpu/run_device.sh [build] [test] [bench] [memcheck]
#
# GoogleTest: found installed, or built from the sources in .gtest/ (a copy of
# /usr/src/googletest) when present.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/gpu-out}
mkdir -p "$OUT"
PHASES=${*:-build test bench memcheck}
BUILD=build/standalone
JOBS=$(nproc)
ARCH=${EMBER_GPU_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')}
ARCH=${ARCH:-90}
status=0

phase() { [[ " $PHASES " == *" $1 "* ]]; }

if phase build; then
  {
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv || true
    command -v nvcc || ls /usr/local/cuda/bin/nvcc
    python3 -c 'import pyarrow; print("pyarrow", pyarrow.__version__)'
  } 2>&1 | tee "$OUT/machine.txt"
  prefix=()
  if [[ -d .gtest ]] && ! ls /usr/lib/*/cmake/GTest /usr/local/lib/cmake/GTest >/dev/null 2>&1; then
    cmake -S .gtest -B /tmp/gtest-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/gtest \
      -DBUILD_GMOCK=OFF >/dev/null && cmake --build /tmp/gtest-build -j "$JOBS" >/dev/null &&
      cmake --install /tmp/gtest-build >/dev/null || { echo "GoogleTest build failed"; exit 1; }
    prefix=(-DCMAKE_PREFIX_PATH=/tmp/gtest)
  fi
  export PATH=$PATH:/usr/local/cuda/bin
  time cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMBER_WITH_GRPC=OFF -DEMBER_WITH_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DEMBER_PYTHON="$(command -v python3)" "${prefix[@]}" >"$OUT/configure.log" 2>&1 ||
    { tail -30 "$OUT/configure.log"; exit 1; }
  time ninja -C "$BUILD" -j "$JOBS" ember ember_gpu_tests ember_plan_tests >"$OUT/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
  echo "build ok"
fi

T=$BUILD/tests/cpp
if phase test; then
  EMBER_EXPECT_GPU=1 timeout 300 "$T/ember_gpu_tests" >"$OUT/gpu_tests.log" 2>&1 || status=1
  EMBER_EXPECT_GPU=1 timeout 300 "$T/ember_plan_tests" >"$OUT/plan_tests.log" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|error" "$OUT/gpu_tests.log" "$OUT/plan_tests.log" | head -60
fi

if phase test; then
  # What a client's explain() shows (the same Session::explain as Spark Connect's AnalyzePlan),
  # through the SQL driver: GPU operators with the GPU on, none with it off, equal answers.
  Q="SELECT CAST(id % 7 AS INT) AS k, sum(id) AS s, count(*) AS n, max(id) AS m FROM range(0, 3000000, 1, 8) WHERE id % 3 <> 1 GROUP BY 1 ORDER BY 1"
  E="$BUILD/ember sql --output tsv -S"
  $E -e "EXPLAIN $Q" >"$OUT/explain_on.txt" 2>&1
  $E --conf spark.rapids.sql.enabled=false -e "EXPLAIN $Q" >"$OUT/explain_off.txt" 2>&1
  $E --conf spark.rapids.sql.exec.FilterExec=false -e "EXPLAIN $Q" >"$OUT/explain_filter_off.txt" 2>&1
  on=$($E -e "$Q" 2>/dev/null); off=$($E --conf spark.rapids.sql.enabled=false -e "$Q" 2>/dev/null)
  if grep -q GpuHashAggregate "$OUT/explain_on.txt" && ! grep -q Gpu "$OUT/explain_off.txt" &&
     grep -q "FilterExec has been disabled" "$OUT/explain_filter_off.txt" && [[ -n $on && $on == "$off" ]]; then
    echo "explain: GPU placement shown, moved off and back with equal results"
  else
    echo "explain check FAILED"; cat "$OUT"/explain_*.txt; echo "on: $on"; echo "off: $off"; status=1
  fi
fi

if phase bench; then
  # The sales data, generated here by the demo's generator (10M rows by default).
  ROWS=${EMBER_GPU_BENCH_SALES_ROWS:-10000000}
  SALES=${EMBER_GPU_BENCH_SALES:-/tmp/ember_gpu_sales_$ROWS.csv}
  if [[ ! -f $SALES ]]; then
    time python3 tools/make_sales_csv.py "$SALES.tmp" --rows "$ROWS" && mv "$SALES.tmp" "$SALES" ||
      { echo "sales data generation failed"; status=1; }
  fi
  ls -l "$SALES"; wc -l <"$SALES"
  # The same rows in Parquet (snappy, as Spark writes by default), for the Parquet variant.
  SALES_PARQUET=${SALES%.csv}.parquet
  if [[ ! -f $SALES_PARQUET ]]; then
    python3 - "$SALES" "$SALES_PARQUET" <<'PY' || { echo "sales Parquet conversion failed"; status=1; }
import sys
import pyarrow as pa
import pyarrow.csv as csv
import pyarrow.parquet as pq
types = {"transaction_id": pa.int32(), "customer_id": pa.int32(), "product_id": pa.string(),
         "amount": pa.float64(), "region": pa.string(), "transaction_date": pa.timestamp("us")}
t = csv.read_csv(sys.argv[1], convert_options=csv.ConvertOptions(column_types=types))
pq.write_table(t, sys.argv[2] + ".tmp", compression="snappy", row_group_size=1 << 20)
PY
    [[ -f $SALES_PARQUET.tmp ]] && mv "$SALES_PARQUET.tmp" "$SALES_PARQUET"
  fi
  ls -l "$SALES_PARQUET"
  EMBER_GPU_BENCH_SALES_PARQUET="$SALES_PARQUET" EMBER_GPU_BENCH=1 EMBER_GPU_BENCH_OUT="$OUT/bench.json" EMBER_GPU_BENCH_SALES="$SALES" \
    EMBER_GPU_BENCH_SALES_OUT="$OUT/bench_sales.json" timeout 400 "$T/ember_plan_tests" \
    --gtest_filter='GpuBench.*' >"$OUT/bench.log" 2>&1 || status=1
  grep -E "GPU_BENCH|FAILED|Failure" "$OUT/bench.log"
  if command -v cuobjdump >/dev/null; then
    # Which atomics the fused kernel's machine code uses (shared-memory f64 adds: native or CAS).
    cuobjdump --dump-sass "$T/ember_gpu_tests" 2>/dev/null |
      grep -oE "\b(ATOMS|ATOMG|ATOM|RED)\.[A-Z0-9.]+" | sort | uniq -c >"$OUT/sass_atomics.txt" || true
    cat "$OUT/sass_atomics.txt"
  fi
fi

if phase memcheck; then
  if command -v compute-sanitizer >/dev/null; then
    EMBER_EXPECT_GPU=1 timeout ${MEMCHECK_TIMEOUT:-300} compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$T/ember_gpu_tests" --gtest_filter='-*DeviceExhaustionIsAnError*' >"$OUT/memcheck.log" 2>&1
    rc=$?
    echo "memcheck exit $rc"
    grep -E "ERROR SUMMARY|Invalid|^\[  (PASSED|FAILED) " "$OUT/memcheck.log" | head -20
    [[ $rc == 0 ]] || status=1
  else
    echo "compute-sanitizer not found"
  fi
fi
exit $status
