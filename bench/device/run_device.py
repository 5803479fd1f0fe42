#!/usr/bin/env python3
"""Ember's standalone build against DuckDB on the GPU machine, in one call.

That machine has no network, gRPC or Java: only Python 3.12 with numpy and pyarrow, CUDA,
CMake and gcc. So this script builds `make standalone` (engine, SQL, io, GPU; no server),
generates the data there with bench/datagen.py, and times the SQL form of the benchmark
workloads three ways, workload by workload:

  ember-gpu   the Ember SQL driver (one process per run), GPU placement on (the default)
  ember-cpu   the same with `--conf spark.rapids.sql.enabled=false`: the CPU engine
  duckdb      DuckDB in this process, from a carried wheel, over the same files

and, when asked for (--engines), in one warm process per workload:

  ember-gpu-session / ember-cpu-session   one driver process runs the views, then the query
              warm-up + repeat times; each run's time is the engine's own `Time taken` for that
              statement, so process start and device initialisation are paid once, as in a
              server (`ember server` creates the CUDA context at start-up)

Bandwidth: for each workload the script counts the input bytes the query has to touch: the
decoded (Arrow) size of every column of the Parquet views that the query names, or the file
size of a CSV view. Next to each engine's median it gives that size over the time, and the run
measures its ceilings on the same host: the host's memory copy rate on all cores (numpy, bytes
read + written), and where PyTorch or CuPy can reach the GPU, the device's copy rate and the
pinned host-to-device upload rate.

The Ember driver command is one template, `--ember-sql` (or $EMBER_SQL), with the tokens
{ember} (the binary), {sql} (the statements, ';'-separated: view definitions, then the query)
and {file} (the same statements in a file). Default: "{ember} sql --output tsv -e {sql}". Each Ember run is
a fresh process, so its time includes process start and device initialisation; the time of
`SELECT 1` is measured too, so that cost can be read apart, and a `Time taken: X seconds` line
(spark-sql's format), when the driver prints one, is recorded as the engine's own figure.

Ember's answer is checked against DuckDB's when the driver prints rows as tab-separated lines
(spark-sql's format); otherwise it is recorded as unchecked, with the start of the output.

Results go to <out>/bench-device.json (rewritten after every workload, so a run cut short still
leaves what it measured) and <out>/bench-device.md; <out> is --out, else $OUT, else
bench/results/device. The whole run keeps inside --budget-s.

Typical use (see bench/README.md): bench/device/fetch_wheels.sh where there is network, copy
bench/device/.whl along with the tree, then on the GPU machine
  python3 bench/device/run_device.py --scale 1
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
ROOT = BENCH.parent
SITE = Path("/tmp/bench-site")
DEFAULT_EMBER_SQL = "{ember} sql --output tsv -e {sql}"
STARTED = time.monotonic()


def log(msg: str) -> None:
    print(f"[device {time.monotonic() - STARTED:6.1f}s] {msg}", file=sys.stderr, flush=True)


def install_wheels() -> None:
    """Installs the carried wheels (DuckDB, tpchgen-cli) into a private folder."""
    wheels = sorted(glob.glob(str(HERE / ".whl" / "*.whl")))
    if wheels:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                            "--no-deps", "--no-compile", "--no-cache-dir", "--upgrade",
                            "--target", str(SITE), *wheels])
        if r.returncode != 0:
            log("installing the carried wheels failed; using what this Python already has")
    sys.path.insert(0, str(SITE))
    os.environ["PATH"] = f"{SITE / 'bin'}:{os.environ['PATH']}"
    os.environ["PYTHONPATH"] = f"{SITE}:{os.environ.get('PYTHONPATH', '')}"


sys.path.insert(0, str(BENCH))


def machine() -> dict:
    info = {"cores": os.cpu_count()}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                info["memory_bytes"] = int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        info["gpus"] = [g.strip() for g in out.stdout.strip().splitlines()]
    except (OSError, subprocess.TimeoutExpired):
        info["gpus"] = []
    return info


# ---------------------------------------------------------------------------------------------
# The SQL workloads: the DuckDB text of bench/workloads.py, with views defined per dialect
# ---------------------------------------------------------------------------------------------


def views(family: str, P: dict) -> dict[str, tuple[str, str, dict]]:
    """name -> (format, path, options)."""
    if family == "sales":
        import workloads as wl

        return {"sales_csv": ("csv", P["sales_csv"], {"header": "true", "inferSchema": "true"}),
                "sales_csv_typed": ("csv", P["sales_csv"], {"header": "true", "": wl.SALES_DDL}),
                "sales_parquet": ("parquet", P["sales_parquet"], {})}
    if family == "h2o":
        return {"x": ("parquet", P["h2o"], {})}
    if family in ("join", "sort"):
        return {t: ("parquet", P[t], {}) for t in ("fact", "dim", "small")}
    if family == "tpch":
        import workloads as wl

        return {t: ("parquet", P[f"tpch_{t}"], {}) for t in wl.TPCH_TABLES}
    return {}


def sq(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def spark_views(family: str, P: dict) -> list[str]:
    """Spark SQL views; an option under the key "" is the view's column list (its schema)."""
    out = []
    for name, (fmt, path, opts) in views(family, P).items():
        schema = f" ({opts['']})" if "" in opts else ""
        options = ", ".join(f"{k} {sq(v)}" for k, v in {"path": path, **opts}.items() if k)
        out.append(f"CREATE TEMPORARY VIEW {name}{schema} USING {fmt} OPTIONS ({options})")
    return out


def duckdb_views(family: str, P: dict) -> list[str]:
    """DuckDB's views: bench/workloads.py's, the one definition the other benchmark uses too."""
    import workloads as wl

    class Recorder:
        def __init__(self):
            self.statements: list[str] = []

        def execute(self, sql, *args, **kwargs):
            self.statements.append(sql)

    rec = Recorder()
    wl.duckdb_setup(rec, family, P)
    return rec.statements


def sql_pair(w, P: dict) -> tuple[str, str]:
    """(Spark SQL for Ember, DuckDB SQL) of one workload."""
    n = int(P["range_rows"])
    if w.name == "range_agg":
        body = ("SELECT CAST(id % 100 AS INT) AS c, count(*) AS n, sum(id) AS sum_id, "
                "avg(v) AS avg_v, min(v) AS min_v, max(v) AS max_v FROM "
                "(SELECT id, CAST(id % 1000 AS DOUBLE) * 0.5 + 1 AS v FROM {src}) t "
                "WHERE id % 7 <> 3 GROUP BY 1 ORDER BY 1")
        return (body.format(src=f"range({n})"),
                body.format(src=f"(SELECT range AS id FROM range({n})) r"))
    if w.name == "range_rand":
        body = ("SELECT CAST(id % 100 AS INT) AS c, avg(v) AS avg_v, stddev(v) AS std_v, "
                "count(*) AS n FROM (SELECT id, {rand} AS v FROM {src}) t GROUP BY 1 ORDER BY 1")
        return (body.format(rand="rand(42)", src=f"range({n})"),
                body.format(rand="random()", src=f"(SELECT range AS id FROM range({n})) r"))
    text = w.duckdb(P)
    return text, text


# ---------------------------------------------------------------------------------------------
# Input bytes and the host's and device's ceilings
# ---------------------------------------------------------------------------------------------

_COLUMN_BYTES: dict[tuple[str, str], int] = {}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parquet_files(path: str) -> list[str]:
    p = Path(path)
    if p.is_dir():
        return sorted(str(f) for f in p.rglob("*.parquet"))
    return sorted(glob.glob(path)) or [path]


def input_bytes(family: str, P: dict, sql: str) -> tuple[int, str] | None:
    """(bytes, how) the query must touch: decoded size of the Parquet columns it names, or the
    file size of a CSV view it names; None for generated data."""
    import pyarrow.parquet as pq

    words = {w.lower() for w in IDENT.findall(sql)}
    total, parts = 0, []
    for name, (fmt, path, _) in views(family, P).items():
        if name.lower() not in words:
            continue
        if fmt == "csv":
            size = sum(os.path.getsize(f) for f in (glob.glob(path) or [path]))
            total += size
            parts.append(f"{name}: file")
            continue
        files = parquet_files(path)
        schema = pq.read_schema(files[0])
        cols = [c for c in schema.names if c.lower() in words]
        for c in cols:
            key = (path, c)
            if key not in _COLUMN_BYTES:
                _COLUMN_BYTES[key] = sum(pq.read_table(f, columns=[c]).nbytes for f in files)
            total += _COLUMN_BYTES[key]
        parts.append(f"{name}: {len(cols)} columns")
    if not parts:
        return None
    return total, "; ".join(parts)


def host_copy_ceiling(size: int = 1 << 31, threads: int | None = None, rounds: int = 5) -> float:
    """Bytes a second (read + written) of a copy over all cores, best of `rounds`."""
    import concurrent.futures

    import numpy as np

    threads = threads or os.cpu_count() or 1
    src = np.ones(size // 8, dtype=np.float64)
    dst = np.empty_like(src)
    step = -(-src.size // threads)
    bounds = [(i, min(i + step, src.size)) for i in range(0, src.size, step)]
    best = 0.0
    with concurrent.futures.ThreadPoolExecutor(threads) as ex:
        for _ in range(rounds):
            t = time.perf_counter()
            list(ex.map(lambda b: np.copyto(dst[b[0]:b[1]], src[b[0]:b[1]]), bounds))
            best = max(best, 2 * size / (time.perf_counter() - t))
    return best


def device_ceilings(size: int = 1 << 31, rounds: int = 10) -> dict:
    """The GPU's device-to-device copy rate (read + written) and the pinned upload rate."""
    try:
        import torch

        if not torch.cuda.is_available():
            return {}
        a = torch.empty(size, dtype=torch.uint8, device="cuda")
        b = torch.empty_like(a)
        host = torch.empty(size // 2, dtype=torch.uint8, pin_memory=True)
        dev = torch.empty(size // 2, dtype=torch.uint8, device="cuda")
        b.copy_(a)
        dev.copy_(host)
        torch.cuda.synchronize()

        def rate(dst, src, nbytes):
            best = 0.0
            for _ in range(rounds):
                start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                dst.copy_(src, non_blocking=True)
                stop.record()
                stop.synchronize()
                best = max(best, nbytes / (start.elapsed_time(stop) * 1e-3))
            return best

        out = {"device_copy_Bps": rate(b, a, 2 * size), "pinned_upload_Bps": rate(dev, host, size // 2),
               "via": f"torch {torch.__version__}"}
        del a, b, host, dev
        torch.cuda.empty_cache()
        return out
    except Exception as e:  # noqa: BLE001 - a missing library only leaves the figure out
        return {"error": f"{type(e).__name__}: {e}"}


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def run_child(argv: list[str], timeout: float) -> dict:
    """Runs a command; wall time, exit status, peak RSS of that process (wait4), output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        status, usage = None, None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                elapsed = time.perf_counter() - t
                out.seek(0), err.seek(0)
                return {"timeout": True, "wall_s": elapsed, "rc": -9,
                        "stdout": out.read().decode(errors="replace"),
                        "stderr": err.read().decode(errors="replace")}
            time.sleep(0.001)
        elapsed = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        return {"timeout": False, "wall_s": elapsed, "rc": proc.returncode,
                "peak_rss_bytes": usage.ru_maxrss * 1024,
                "stdout": out.read().decode(errors="replace"),
                "stderr": err.read().decode(errors="replace")}


# Workloads whose answers differ between engines by design (rand() is each engine's own).
RANDOM_WORKLOADS = {"range_rand"}
UNSUPPORTED_WORDS = ("unsupported", "not supported", "unresolved_routine", "not implemented")
TIME_TAKEN = re.compile(r"Time taken:\s*([0-9.]+)\s*s")


class EmberDriver:
    def __init__(self, template: str, ember: str, prefix: str = ""):
        self.template = shlex.split(template)
        self.ember = ember
        self.prefix = prefix

    def argv(self, statements: list[str], tmp: Path) -> list[str]:
        text = ";\n".join(([self.prefix] if self.prefix else []) + statements) + ";"
        sql_file = tmp / "query.sql"
        sql_file.write_text(text + "\n")
        return [tok.replace("{ember}", self.ember).replace("{sql}", text)
                .replace("{file}", str(sql_file)) for tok in self.template]

    def run(self, statements: list[str], timeout: float, tmp: Path) -> dict:
        r = run_child(self.argv(statements, tmp), timeout)
        m = TIME_TAKEN.findall(r["stderr"] + r["stdout"])
        if m:
            r["engine_reported_s"] = float(m[-1])
        return r

    def run_session(self, views_sql: list[str], query: str, runs: int, timeout: float,
                    tmp: Path) -> dict:
        """One process: the views, then the query `runs` times; the engine's time of each."""
        r = run_child(self.argv(views_sql + [query] * runs, tmp), timeout)
        m = TIME_TAKEN.findall(r["stderr"] + r["stdout"])
        r["session_times"] = [float(x) for x in m[-runs:]] if len(m) >= runs else []
        rows = parse_rows(r["stdout"])
        r["first_rows"] = rows[: len(rows) // runs] if runs and len(rows) % runs == 0 else rows
        return r


def parse_rows(stdout: str) -> list[list[str]]:
    return [line.split("\t") for line in stdout.splitlines() if line.strip()
            and not TIME_TAKEN.search(line)]


def check_rows(rows: list[list[str]], table) -> tuple[str, str]:
    """Lenient check of tab-separated output against DuckDB's Arrow table."""
    if table.num_rows != len(rows):
        return "unchecked", f"{len(rows)} output lines, DuckDB has {table.num_rows} rows"
    if table.num_rows > 200_000:
        # Sorting millions of rows in Python would take longer than the queries; the count is
        # what is checked.
        return "count only", f"{len(rows)} rows, as DuckDB"
    if rows and len(rows[0]) != table.num_columns:
        return "unchecked", f"{len(rows[0])} fields a line, DuckDB has {table.num_columns} columns"

    def key(values):
        out = []
        for v in values:
            try:
                out.append((0, round(float(v), 4), ""))
            except (TypeError, ValueError):
                out.append((1, 0.0, "" if v in (None, "NULL") else str(v)))
        return out

    ours = sorted(key(r) for r in rows)
    theirs = sorted(key([None if v is None else v for v in r.values()])
                    for r in table.to_pylist())
    for a, b in zip(ours, theirs):
        for x, y in zip(a, b):
            if x[0] != y[0] or x[2] != y[2]:
                return "wrong", f"{a} vs {b}"
            if x[0] == 0 and abs(x[1] - y[1]) > 1e-3 + 1e-6 * abs(y[1]):
                return "wrong", f"{a} vs {b}"
    return "ok", ""


def stats(times: list[float]) -> dict:
    if not times:
        return {}
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "n": len(times)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--workloads", default="sales,range,h2o,join,tpch")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--budget-s", type=float, default=540,
                   help="wall-clock budget of the whole script, build included")
    p.add_argument("--run-timeout", type=float, default=120, help="seconds for one Ember run")
    p.add_argument("--ember-sql", default=os.environ.get("EMBER_SQL", DEFAULT_EMBER_SQL))
    p.add_argument("--ember-bin", default=str(ROOT / "build" / "standalone" / "ember"))
    p.add_argument("--engines", default="duckdb,ember-gpu,ember-cpu")
    p.add_argument("--no-build", action="store_true")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--data-dir", default=str(ROOT / "data" / "bench"))
    p.add_argument("--out", default=os.environ.get("OUT", str(BENCH / "results" / "device")))
    args = p.parse_args()
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    deadline = STARTED + args.budget_s
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]

    install_wheels()
    import datagen
    import workloads as wl

    report: dict = {"machine": machine(), "scale": args.scale, "ember_sql": args.ember_sql,
                    "repeat": args.repeat, "warmup": args.warmup, "engines": engines,
                    "results": {}, "notes": []}
    try:
        # The tree copied to a GPU machine may carry an older .git: EMBER_COMMIT names the tree.
        report["commit"] = os.environ.get("EMBER_COMMIT") or subprocess.run(
            ["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT,
                                          capture_output=True, text=True).stdout.strip() \
            or "nocommit"
    except OSError:
        report["commit"] = "unknown"
    json_path = out_dir / "bench-device.json"

    def save() -> None:
        report["elapsed_s"] = time.monotonic() - STARTED
        json_path.write_text(json.dumps(report, indent=1, default=str) + "\n")

    # 1. Build.
    if not args.no_build and any(e.startswith("ember") for e in engines):
        log("make standalone")
        t = time.monotonic()
        build = subprocess.run(["make", "standalone", "SETUP=0", f"JOBS={args.jobs}"], cwd=ROOT,
                               capture_output=True, text=True)
        (out_dir / "build.log").write_text(build.stdout[-200_000:] + build.stderr[-200_000:])
        report["build"] = {"rc": build.returncode, "seconds": time.monotonic() - t}
        log(f"build rc={build.returncode} in {report['build']['seconds']:.0f} s")
        save()
    ember_ok = Path(args.ember_bin).exists()
    if not ember_ok:
        report["notes"].append(f"{args.ember_bin} missing: Ember not run")

    # 2. Data.
    chosen = wl.select(args.workloads)
    families = {w.family for w in chosen}
    t = time.monotonic()
    tpchgen = str(SITE / "bin" / "tpchgen-cli") if (SITE / "bin" / "tpchgen-cli").exists() \
        else shutil.which("tpchgen-cli")
    paths: dict = {}
    for fam in sorted(families):
        try:
            paths.update(datagen.prepare({fam}, args.scale, Path(args.data_dir), tpchgen,
                                         python=sys.executable))
        except Exception as e:  # noqa: BLE001 - reported, the rest goes on
            report["notes"].append(f"data for {fam} failed: {type(e).__name__}: {e}")
    paths["range_rows"] = str(datagen.sizes(args.scale)["range_rows"])
    paths["tpch_sf"] = f"{args.scale:g}"
    report["data_s"] = time.monotonic() - t
    report["paths"] = paths
    log(f"data ready in {report['data_s']:.0f} s")
    save()

    # 3. Engines.
    con = None
    if "duckdb" in engines:
        try:
            import duckdb

            con = duckdb.connect()
            report["duckdb"] = {"version": duckdb.__version__,
                                "threads": con.sql("SELECT current_setting('threads')").fetchall()[0][0]}
        except Exception as e:  # noqa: BLE001
            report["notes"].append(f"duckdb unavailable: {type(e).__name__}: {e}")
    drivers = {}
    tmp = Path(tempfile.mkdtemp(prefix="ember-bench-"))
    if ember_ok:
        if "ember-gpu" in engines:
            drivers["ember-gpu"] = EmberDriver(args.ember_sql, args.ember_bin)
        if "ember-cpu" in engines:
            # A --conf rather than a SET statement, whose output row would join the answer's.
            drivers["ember-cpu"] = EmberDriver(
                args.ember_sql + " --conf spark.rapids.sql.enabled=false", args.ember_bin)
        for name in ("ember-gpu-session", "ember-cpu-session"):
            if name in engines:
                conf = " --conf spark.rapids.sql.enabled=false" if "cpu" in name else ""
                drivers[name] = EmberDriver(args.ember_sql + conf, args.ember_bin)
        version = run_child([args.ember_bin, "--version"], 30)
        report["ember_version"] = version["stdout"].strip() or version["stderr"].strip()
        for name, d in drivers.items():
            if name.endswith("-session"):
                continue
            trivial = [d.run(["SELECT 1"], 60, tmp) for _ in range(5)]
            report.setdefault("trivial", {})[name] = {
                **stats([r["wall_s"] for r in trivial if r["rc"] == 0]),
                "rc": [r["rc"] for r in trivial],
                "stderr_tail": trivial[-1]["stderr"][-500:]}
    save()

    # Ceilings, measured on this host in this run.
    ceilings: dict = {}
    try:
        ceilings["host_copy_Bps"] = host_copy_ceiling()
    except Exception as e:  # noqa: BLE001
        report["notes"].append(f"host copy ceiling not measured: {type(e).__name__}: {e}")
    if any(n.startswith("ember-gpu") for n in drivers):
        ceilings.update(device_ceilings())
    report["ceilings"] = ceilings
    log("ceilings: " + ", ".join(f"{k} {v / 1e9:.1f} GB/s" if isinstance(v, float) else f"{k} {v}"
                                 for k, v in ceilings.items()))
    save()

    # 4. Workloads, all engines per workload, so that a run cut short still compares.
    duck_setup_done: set[str] = set()
    for w in chosen:
        if time.monotonic() > deadline:
            report["notes"].append(f"budget reached before {w.name}: the rest was not run")
            break
        entry: dict = {}
        report["results"][w.name] = entry
        ember_sql, duck_sql = sql_pair(w, paths)
        reference = None
        if con is not None:
            r: dict = {}
            try:
                if w.family not in duck_setup_done:
                    for stmt in duckdb_views(w.family, paths):
                        con.execute(stmt)
                    duck_setup_done.add(w.family)
                times = []
                for i in range(args.warmup + args.repeat):
                    t = time.perf_counter()
                    table = con.sql(duck_sql).to_arrow_table()
                    elapsed = time.perf_counter() - t
                    if i >= args.warmup:
                        times.append(elapsed)
                    reference = table if reference is None else reference
                    if time.monotonic() > deadline:
                        break
                r = {"status": "ok" if times else "skipped", **stats(times), "times": times,
                     "rows": reference.num_rows}
            except Exception as e:  # noqa: BLE001
                r = {"status": "error", "error": f"{type(e).__name__}: {str(e)[:300]}"}
            entry["duckdb"] = r
        try:
            counted = input_bytes(w.family, paths, duck_sql)
        except Exception as e:  # noqa: BLE001 - the figure is left out, the timing goes on
            counted = None
            report["notes"].append(f"{w.name}: input bytes not counted: {type(e).__name__}: {e}")
        if counted:
            entry["input_bytes"], entry["input_bytes_how"] = counted
        statements = spark_views(w.family, paths) + [ember_sql]
        for name, d in drivers.items():
            if name.endswith("-session"):
                if time.monotonic() > deadline:
                    break
                run = d.run_session(spark_views(w.family, paths), ember_sql,
                                    args.warmup + args.repeat,
                                    args.run_timeout * (args.warmup + args.repeat), tmp)
                times = run["session_times"][args.warmup:]
                if run["timeout"] or run["rc"] != 0 or not times:
                    r = {"status": "timeout" if run["timeout"] else "error", "rc": run["rc"],
                         "stderr_tail": run["stderr"][-800:], "stdout_head": run["stdout"][:400]}
                else:
                    if w.name in RANDOM_WORKLOADS:
                        check, detail = "unchecked", "random values: each engine has its own generator"
                    elif reference is not None:
                        check, detail = check_rows(run["first_rows"], reference)
                    else:
                        check, detail = "unchecked", "no DuckDB answer"
                    r = {"status": "ok", **stats(times), "times": times, "check": check,
                         "check_detail": detail, "peak_rss_bytes": run.get("peak_rss_bytes", 0),
                         "process_s": run["wall_s"]}
                entry[name] = r
                continue
            times, reported, peak = [], [], 0
            r = {}
            for i in range(args.warmup + args.repeat):
                if time.monotonic() > deadline:
                    break
                run = d.run(statements, args.run_timeout, tmp)
                if run["timeout"] or run["rc"] != 0:
                    said = (run["stderr"] + run["stdout"]).lower()
                    status = "timeout" if run["timeout"] else "unsupported" if any(
                        k in said for k in UNSUPPORTED_WORDS) else "error"
                    r = {"status": status, "rc": run["rc"],
                         "stderr_tail": run["stderr"][-800:], "stdout_head": run["stdout"][:400]}
                    break
                peak = max(peak, run.get("peak_rss_bytes", 0))
                if i == 0:
                    if w.name in RANDOM_WORKLOADS:
                        status, detail = "unchecked", "random values: each engine has its own generator"
                    elif reference is not None:
                        status, detail = check_rows(parse_rows(run["stdout"]), reference)
                    else:
                        status, detail = "unchecked", "no DuckDB answer"
                    r["check"], r["check_detail"] = status, detail
                    r["stdout_head"] = run["stdout"][:400]
                if i >= args.warmup:
                    times.append(run["wall_s"])
                    if "engine_reported_s" in run:
                        reported.append(run["engine_reported_s"])
            if "status" not in r:
                r.update({"status": "ok" if times else "skipped", **stats(times), "times": times,
                          "peak_rss_bytes": peak})
                if reported:
                    r["engine_reported"] = stats(reported)
            entry[name] = r
        log(f"{w.name}: " + ", ".join(
            f"{k} {v.get('median_s', 0):.3f}s" if v.get("status") == "ok" else f"{k} {v.get('status')}"
            for k, v in entry.items() if isinstance(v, dict)))
        save()

    # 5. Markdown summary.
    names = ["duckdb"] + list(drivers)
    ceil = report.get("ceilings", {})

    def gbs(v):
        return f"{v / 1e9:,.1f} GB/s"

    ceiling_text = ", ".join(
        f"{label} {gbs(ceil[k])}" for k, label in (
            ("host_copy_Bps", "host memory copy (all cores, read + written)"),
            ("device_copy_Bps", "device copy (read + written)"),
            ("pinned_upload_Bps", "pinned host → device upload")) if isinstance(ceil.get(k), float))
    lines = [f"# Device benchmark · scale {args.scale:g} · commit {report.get('commit')}", "",
             f"machine: {report['machine']}", "",
             f"Ember driver: `{args.ember_sql}` (one process per run; trivial `SELECT 1`: "
             + ", ".join(f"{k} {v.get('median_s', float('nan')):.3f} s"
                         for k, v in report.get("trivial", {}).items()) + "); "
             "`-session` engines: one process per workload, the engine's own time per run", "",
             f"Ceilings measured in this run: {ceiling_text or 'none'}. Input: the decoded size of "
             "the Parquet columns a query names (CSV: the file); GB/s = input ÷ median.", "",
             "| workload | input | " + " | ".join(names) + " |",
             "| --- | --- |" + " --- |" * len(names)]
    for wname, entry in report["results"].items():
        size = entry.get("input_bytes")
        row = [wname, f"{size / 1e6:,.0f} MB" if size else "generated"]
        for n in names:
            r = entry.get(n)
            if not r:
                row.append("–")
            elif r.get("status") == "ok":
                cell = f"{r['median_s']:.3f} ({r['min_s']:.3f}–{r['max_s']:.3f})"
                if n != "duckdb" and entry.get("duckdb", {}).get("status") == "ok":
                    cell += f" ×{r['median_s'] / entry['duckdb']['median_s']:.2f} of DuckDB"
                if size:
                    cell += f", {gbs(size / r['median_s'])}"
                if r.get("check") == "wrong":
                    cell += " ✗ wrong"
                row.append(cell)
            else:
                row.append(r.get("status", "?"))
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", *[f"- {n}" for n in report["notes"]]]
    (out_dir / "bench-device.md").write_text("\n".join(lines) + "\n")
    save()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
