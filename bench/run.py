#!/usr/bin/env python3
"""Ember against its peers, in one command: `make bench` (or .venv/bin/python bench/run.py).

Runs each workload on every engine in the same run on the same machine:
  ember   build/release/ember server, driven by PySpark over Spark Connect
  spark   Apache Spark in local mode (classic PySpark of the project's .venv, Java 17)
  sail    Sail's Spark Connect server (pysail), driven by the same PySpark program
  duckdb  the same question in DuckDB SQL
  polars  the same question as a Polars lazy query (TPC-H: Polars' SQL interface)

For each engine: start-up time to a first answered query, the latency of a trivial query,
then per workload a warm-up, N timed runs (median, min-max), the peak resident memory of the
engine's process and a check of the answer against Apache Spark's. Writes a markdown table to
stdout and bench/results/<date>-<machine>-<commit>.{json,md}.

Peers are installed on demand into bench/.venv-peers (pinned in bench/requirements-peers.txt);
data is generated into data/bench/ and reused. See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

import datagen  # noqa: E402
import workloads as wl  # noqa: E402

ENGINES = ["ember", "spark", "sail", "duckdb", "polars"]
# Spark runs first: its answers are the reference the others are checked against.
RUN_ORDER = ["spark", "ember", "sail", "duckdb", "polars"]
DISPLAY = {"ember": "Ember", "spark": "Spark", "sail": "Sail", "duckdb": "DuckDB",
           "polars": "Polars"}
SERVER_ENGINES = {"ember", "sail"}
PEER_ENGINES = {"sail", "duckdb", "polars"}
PEERS_DIR = BENCH / ".venv-peers"
PEERS_REQUIREMENTS = BENCH / "requirements-peers.txt"
DOCS = ROOT / "docs" / "BENCHMARKS.md"
DOCS_BEGIN = "<!-- bench:latest:begin -->"
DOCS_END = "<!-- bench:latest:end -->"


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Environment: machine, commit, peers
# ---------------------------------------------------------------------------------------------


def machine_info() -> dict:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_bytes": mem,
            "kernel": platform.release(), "python": platform.python_version()}


def machine_slug(info: dict) -> str:
    cpu = re.sub(r"\((r|tm)\)|cpu|processor|@.*", "", info["cpu"], flags=re.I)
    cpu = re.sub(r"[^a-z0-9]+", "-", cpu.lower()).strip("-")[:24].strip("-")
    return f"{info['cores']}c-{cpu or 'cpu'}"


def git_commit() -> str:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, OSError):
        return "nocommit"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def project_python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def ensure_peers() -> Path:
    """bench/.venv-peers with the pinned peers; (re)installed when the pins change. A venv of
    its own: Sail's server wants the PySpark client it was built against, and DuckDB and
    Polars are no business of the project's environment."""
    python = PEERS_DIR / "bin" / "python"
    wanted = PEERS_REQUIREMENTS.read_text()
    stamp = PEERS_DIR / ".installed-requirements"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    base = getattr(sys, "_base_executable", None) or sys.executable
    if not python.exists():
        log(f"creating {PEERS_DIR.relative_to(ROOT)}")
        subprocess.run([base, "-m", "venv", str(PEERS_DIR)], check=True)
    log(f"installing peers from {PEERS_REQUIREMENTS.relative_to(ROOT)}")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "-r", str(PEERS_REQUIREMENTS)], check=True)
    stamp.write_text(wanted)
    return python


def tool_version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unavailable ({type(e).__name__})"
    text = (out.stdout.strip() or out.stderr.strip()).splitlines()
    return text[0] if text else f"unknown (exit {out.returncode})"


def peer_package_versions(python: Path) -> dict:
    code = ("import importlib.metadata as m, json; print(json.dumps({p: m.version(p) for p in "
            "['pysail', 'duckdb', 'polars', 'tpchgen-cli', 'pyarrow', 'pyspark-client']}))")
    try:
        out = subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout)
    except (subprocess.CalledProcessError, OSError, ValueError):
        return {}


# ---------------------------------------------------------------------------------------------
# Processes: memory, CPU accounting
# ---------------------------------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def status_kib(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak_rss(pids: list[int]) -> int:
    """Sum of the processes' high-water marks of resident memory, in bytes."""
    return sum(status_kib(p, "VmHWM") for p in pids) * 1024


def current_rss(pids: list[int]) -> int:
    return sum(status_kib(p, "VmRSS") for p in pids) * 1024


def reset_peak(pids: list[int]) -> bool:
    """Resets VmHWM to the current RSS (Linux: write 5 to clear_refs)."""
    ok = True
    for p in pids:
        try:
            Path(f"/proc/{p}/clear_refs").write_text("5")
        except OSError:
            ok = False
    return ok


class CpuWatch:
    """Samples every process's CPU time once a second, to tell the CPU this run used (this
    process and all its descendants: servers, workers, Spark's JVM) from what other processes
    on the machine used meanwhile. Processes living less than a sampling interval are missed."""

    def __init__(self, interval: float = 1.0):
        import threading

        self.interval = interval
        self.tick = os.sysconf("SC_CLK_TCK")
        self.boot_ticks = self._now_ticks()
        self.seen: dict[tuple[int, int], int] = {}  # (pid, start time) -> CPU ticks counted
        self.ours = 0
        self.others = 0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _now_ticks(self) -> int:
        return int(float(Path("/proc/uptime").read_text().split()[0]) * self.tick)

    def sample(self) -> None:
        procs: dict[int, tuple[int, int, int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # After the command: state, ppid, ... utime (12th), stime (13th), starttime (20th).
            procs[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[19]))
        mine = {os.getpid()}
        changed = True
        while changed:
            changed = False
            for pid, (ppid, _, _) in procs.items():
                if ppid in mine and pid not in mine:
                    mine.add(pid)
                    changed = True
        for pid, (_, ticks, start) in procs.items():
            key = (pid, start)
            before = self.seen.get(key)
            if before is None:
                # A process started during the watch counts from its start, an older one from now.
                before = 0 if start >= self.boot_ticks else ticks
            if pid in mine:
                self.ours += ticks - before
            else:
                self.others += ticks - before
            self.seen[key] = ticks

    def _loop(self) -> None:
        while not self.stop_event.wait(self.interval):
            self.sample()

    def start(self) -> "CpuWatch":
        self.sample()
        self.ours = self.others = 0
        self.thread.start()
        return self

    def stop(self) -> tuple[float, float]:
        """(CPU seconds of this run, CPU seconds of other processes)."""
        self.stop_event.set()
        self.thread.join()
        self.sample()
        return self.ours / self.tick, self.others / self.tick


def snapshot_binary(path: Path, data_dir: Path) -> dict:
    """Copies the Ember binary aside and returns where: the build folder may be rebuilt by
    someone else during a long run, and every server start of one run must use the same
    binary. (Its libraries are found through an absolute run path, so a copy runs.)"""
    import hashlib

    digest = hashlib.sha1(path.read_bytes()).hexdigest()[:12]
    folder = data_dir / "tmp" / "ember-bin"
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f"ember-{digest}"
    for old in folder.glob("ember-*"):
        if old != copy and time.time() - old.stat().st_mtime > 86400:
            old.unlink(missing_ok=True)
    if not copy.exists():
        tmp = copy.with_suffix(".tmp")
        shutil.copy2(path, tmp)
        tmp.chmod(0o755)
        tmp.rename(copy)
    mtime = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc)
    return {"copy": str(copy), "sha1": digest, "built": mtime.strftime("%Y-%m-%d %H:%M:%S UTC")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_tail(path: Path, lines: int = 3) -> str:
    try:
        text = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return " | ".join(t.strip() for t in text[-lines:])[:400]


def stop_process(proc: subprocess.Popen | None, grace: float = 10.0) -> None:
    """Stops a process that this script started, and the process group it leads."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


# ---------------------------------------------------------------------------------------------
# One engine: its worker process and, for Spark Connect engines, its server
# ---------------------------------------------------------------------------------------------


class EngineDied(Exception):
    pass


class Timeout(Exception):
    pass


class EngineSession:
    def __init__(self, name: str, ctx: "Context"):
        self.name = name
        self.ctx = ctx
        self.worker: subprocess.Popen | None = None
        self.server: subprocess.Popen | None = None
        self.buffer = b""
        self.log_path = ctx.log_dir / f"{name}.log"
        self.server_log_path = ctx.log_dir / f"{name}-server.log"

    # -- processes --------------------------------------------------------------------------

    def server_command(self, port: int) -> list[str]:
        if self.name == "ember":
            return [str(self.ctx.ember_bin), "server", "--port", str(port)]
        return [str(PEERS_DIR / "bin" / "sail"), "spark", "server", "--port", str(port)]

    def open(self) -> dict:
        python = str(self.ctx.peers_python) if self.name in ("duckdb", "polars") \
            else project_python()
        log_file = open(self.log_path, "ab")
        self.worker = subprocess.Popen(
            [python, str(BENCH / "worker.py"), "--engine", self.name],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file,
            env=self.ctx.env, cwd=ROOT, start_new_session=True)
        log_file.close()
        self.buffer = b""
        self.receive(120)  # imports done
        if self.name in SERVER_ENGINES:
            port = free_port()
            server_log = open(self.server_log_path, "ab")
            t0 = time.monotonic()
            self.server = subprocess.Popen(
                self.server_command(port), stdout=server_log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, env=self.ctx.env, cwd=ROOT, start_new_session=True)
            server_log.close()
            return self.request({"op": "start", "port": port, "t0": t0, "timeout_s": 120}, 150)
        conf = {}
        if self.name == "spark":
            conf = {"spark.driver.memory": self.ctx.args.spark_driver_memory,
                    "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false"}
        return self.request({"op": "start", "conf": conf, "master": "local[*]"}, 300)

    def rss_pids(self) -> list[int]:
        """The processes whose memory is the engine's: the server, the JVM of local Spark, or
        the worker itself for in-process engines."""
        if self.server is not None:
            return [self.server.pid] + descendants(self.server.pid)
        if self.worker is None:
            return []
        if self.name == "spark":
            return descendants(self.worker.pid)
        return [self.worker.pid]

    def alive(self) -> bool:
        return (self.worker is not None and self.worker.poll() is None
                and (self.server is None or self.server.poll() is None))

    def death_note(self) -> str:
        if self.server is not None and self.server.poll() is not None:
            return (f"server exited with status {self.server.returncode}: "
                    f"{log_tail(self.server_log_path)}")
        if self.worker is not None and self.worker.poll() is not None:
            return f"worker exited with status {self.worker.returncode}: {log_tail(self.log_path)}"
        return ""

    def close(self, polite: bool = True) -> None:
        if polite and self.alive():
            try:
                self.request({"op": "quit"}, 60)
            except (Timeout, EngineDied):
                pass
        stop_process(self.worker, 10 if polite else 0.1)
        stop_process(self.server, 10 if polite else 0.1)
        self.worker = self.server = None

    # -- protocol ---------------------------------------------------------------------------

    def receive(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        fd = self.worker.stdout.fileno()
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        try:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Timeout()
                if sel.select(min(left, 0.5)):
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        raise EngineDied(self.death_note() or "worker closed its output")
                    self.buffer += chunk
                elif not self.alive():
                    raise EngineDied(self.death_note())
        finally:
            sel.close()
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, msg: dict, timeout: float) -> dict:
        try:
            self.worker.stdin.write((json.dumps(msg) + "\n").encode())
            self.worker.stdin.flush()
        except BrokenPipeError as e:
            raise EngineDied(self.death_note() or "worker gone") from e
        reply = self.receive(timeout)
        if reply.get("failed"):
            raise EngineDied(f"{reply.get('error_class')}: {reply.get('message')}")
        return reply


class Context:
    def __init__(self, args, paths: dict, peers_python: Path | None, log_dir: Path):
        self.args = args
        self.paths = paths
        self.peers_python = peers_python
        self.log_dir = log_dir
        self.ember_bin = Path(args.ember_bin)
        env = dict(os.environ)
        env["TZ"] = "UTC"
        env["PYTHONUNBUFFERED"] = "1"
        env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        env["PYSPARK_PYTHON"] = project_python()
        self.env = env


def reference_path(args, w: wl.Workload) -> Path:
    return Path(args.data_dir) / "reference" / f"scale={args.scale:g}" / f"{w.name}-{w.rev}.arrow"


def summarize(times: list[float]) -> dict:
    return {"median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
            "n": len(times)}


def run_engine(name: str, chosen: list[wl.Workload], ctx: Context, unavailable: str | None) -> dict:
    args = ctx.args
    out: dict = {"engine": name, "workloads": {}, "restarts": 0}
    if unavailable:
        out["unavailable"] = unavailable
        for w in chosen:
            out["workloads"][w.name] = {"status": "unavailable", "message": unavailable}
        return out
    session = EngineSession(name, ctx)
    log(f"{name}: starting")
    try:
        out["startup"] = session.open()
        out["rss_idle_bytes"] = current_rss(session.rss_pids())
        out["startup_peak_rss_bytes"] = peak_rss(session.rss_pids())
        trivial = session.request({"op": "trivial", "n": args.trivial_n}, 600)["times"]
        out["trivial"] = summarize(trivial)
        out["versions"] = session.request({"op": "versions"}, 60)
        log(f"{name}: started in {out['startup']['startup_s']:.2f} s, trivial query "
            f"{out['trivial']['median_s'] * 1000:.2f} ms")
    except (Timeout, EngineDied, OSError, ValueError) as e:
        note = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        log(f"{name}: failed to start: {note}")
        session.close(polite=False)
        out["unavailable"] = f"failed to start ({note})"
        for w in chosen:
            out["workloads"][w.name] = {"status": "unavailable", "message": out["unavailable"]}
        return out

    tmp_dir = Path(args.data_dir) / "tmp"
    tmp_dir.mkdir(parents=True, exist_ok=True)
    for w in chosen:
        if not session.alive():
            session.close(polite=False)
            session = EngineSession(name, ctx)
            try:
                session.open()
                out["restarts"] += 1
            except (Timeout, EngineDied, OSError, ValueError) as e:
                out["workloads"][w.name] = {"status": "unavailable",
                                            "message": f"restart failed: {e}"}
                session.close(polite=False)
                continue
        missing = [k for k in needs(w) if k not in ctx.paths]
        if missing:
            out["workloads"][w.name] = {"status": "no data",
                                        "message": f"data not generated: {', '.join(missing)}"}
            continue
        pids = session.rss_pids()
        reset_peak(pids)
        result_path = tmp_dir / f"{name}-{w.name}.arrow"
        msg = {"op": "run", "workload": w.name, "paths": ctx.paths, "warmup": args.warmup,
               "repeat": args.repeat, "budget_s": args.timeout * 0.8,
               "result_path": str(result_path)}
        t = time.monotonic()
        try:
            r = session.request(msg, args.timeout)
        except Timeout:
            r = {"status": "timeout",
                 "message": f"no answer within {args.timeout:g} s (warm-up and timed runs)"}
            session.close(polite=False)
        except EngineDied as e:
            r = {"status": "crash", "message": str(e)[:400]}
            session.close(polite=False)
        if session.alive() is False and r.get("status") not in ("timeout", "crash") \
                and session.worker is not None:
            r = {"status": "crash", "message": session.death_note(), "reported": r}
        if session.worker is not None:
            r["peak_rss_bytes"] = peak_rss(pids + [p for p in session.rss_pids() if p not in pids])
        r["wall_s"] = time.monotonic() - t
        if r.get("status") == "ok":
            if r["times"]:
                r.update(summarize(r["times"]))
            else:  # the warm-up alone used the time allowed: report it, marked as such
                r.update(summarize(r["warmup_s"]), warmup_only=True)
            if not args.no_check and session.alive():
                ref = reference_path(args, w)
                try:
                    c = session.request({"op": "check", "workload": w.name,
                                         "result_path": str(result_path),
                                         "reference": str(ref),
                                         "save_reference": name == "spark"}, 600)
                    r.update(c)
                except (Timeout, EngineDied) as e:
                    r.update({"check": "unchecked", "detail": f"check failed: {e}"})
            else:
                r["check"] = "unchecked"
        result_path.unlink(missing_ok=True)
        out["workloads"][w.name] = r
        log(f"{name}: {w.name}: {describe_result(r)}")
    session.close()
    return out


def needs(w: wl.Workload) -> list[str]:
    return {"sales": ["sales_csv", "sales_parquet"], "range": ["range_rows"], "h2o": ["h2o"],
            "join": ["fact", "dim", "small"], "sort": ["fact"],
            "tpch": ["tpch_lineitem", "tpch_sf"]}[w.family]


def describe_result(r: dict) -> str:
    if r.get("status") == "ok":
        extra = f" [{r.get('check')}{': ' + r['detail'] if r.get('detail') else ''}]"
        return f"{r['median_s']:.3f} s median of {r['n']}{extra}"
    bits = [r.get("status", "?")]
    if r.get("error_class"):
        bits.append(r["error_class"])
    if r.get("message"):
        bits.append(r["message"][:160])
    return " ".join(bits)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def fmt_s(t: float) -> str:
    if t >= 100:
        return f"{t:.0f}"
    if t >= 10:
        return f"{t:.1f}"
    if t >= 1:
        return f"{t:.2f}"
    return f"{t:.3f}"


def fmt_ms(t: float) -> str:
    ms = t * 1000
    return f"{ms:.0f} ms" if ms >= 100 else f"{ms:.1f} ms" if ms >= 1 else f"{ms:.3f} ms"


def fmt_ratio(r: float) -> str:
    return f"×{r:.0f}" if r >= 100 else f"×{r:.1f}" if r >= 10 else f"×{r:.2f}"


def fmt_mib(b: int | None) -> str:
    return "–" if not b else f"{b / 2**20:,.0f} MiB"


def usable(r: dict | None) -> bool:
    return bool(r) and r.get("status") == "ok" and r.get("check") != "wrong"


def render(report: dict) -> str:
    meta = report["meta"]
    engines = [e for e in ["ember", "spark", "sail", "duckdb", "polars"] if e in report["engines"]]
    res = report["engines"]
    names = report["workloads"]
    lines = [f"# Benchmark run {meta['date']} · {meta['machine']} · {meta['commit']}", ""]
    m = meta["machine_info"]
    lines.append(f"- machine: {m['cpu']}, {m['cores']} cores, {m['memory_bytes'] / 2**30:.1f} GiB "
                 f"RAM, Linux {m['kernel']}")
    lines.append(f"- scale {meta['scale']:g}: {meta['data_note']}")
    lines.append(f"- method: {meta['warmup']} warm-up + {meta['repeat']} timed runs per workload; "
                 "seconds for the whole program, reading the input and bringing the full result "
                 "to the client included; median (min–max); ×r = engine median ÷ Ember median "
                 "(above 1: Ember is faster)")
    ember_bin = meta.get("ember_bin") or {}
    if "ember" in engines and ember_bin.get("sha1"):
        lines.append(f"- Ember binary: `{os.path.relpath(ember_bin['path'], ROOT)}` built "
                     f"{ember_bin['built']} (sha1 {ember_bin['sha1']})")
    load = meta["load"]
    lines.append(f"- load: load average {load['loadavg_start'][0]:.2f} at start, "
                 f"{load['loadavg_end'][0]:.2f} at end; while it ran, this run used about "
                 f"{load.get('own_cpu_fraction', 0) * 100:.0f}% of the machine's CPU time and "
                 f"other processes about {load['other_cpu_fraction'] * 100:.0f}%"
                 + (" — **other work competed with this run: read the numbers as indicative**"
                    if load["competing"] else ""))
    lines.append("")
    lines.append("| engine | version | start-up to first answer | trivial query (median of "
                 f"{meta['trivial_n']}) | idle RSS | peak RSS | ok | wrong | unsupported | failed |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for e in engines:
        r = res[e]
        counts = {"ok": 0, "wrong": 0, "unsupported": 0, "failed": 0}
        for w in names:
            x = r["workloads"].get(w, {})
            s = x.get("status")
            if s == "ok":
                counts["wrong" if x.get("check") == "wrong" else "ok"] += 1
            elif s == "unsupported":
                counts["unsupported"] += 1
            else:
                counts["failed"] += 1
        peaks = [x.get("peak_rss_bytes") or 0 for x in r["workloads"].values()]
        peak = max(peaks + [r.get("startup_peak_rss_bytes") or 0])
        if r.get("unavailable"):
            why = r["unavailable"] if len(r["unavailable"]) <= 90 else r["unavailable"][:87] + "…"
            lines.append(f"| {DISPLAY[e]} | {report['versions'].get(e, '?')} | "
                         f"{why} | – | – | – | 0 | 0 | 0 | {len(names)} |")
            continue
        lines.append(
            f"| {DISPLAY[e]} | {report['versions'].get(e, '?')} | "
            f"{fmt_s(r['startup']['startup_s'])} s | {fmt_ms(r['trivial']['median_s'])} | "
            f"{fmt_mib(r.get('rss_idle_bytes'))} | {fmt_mib(peak)} | {counts['ok']} | "
            f"{counts['wrong']} | {counts['unsupported']} | {counts['failed']} |")
    lines.append("")

    notes: dict[tuple, list[str]] = {}

    def note_ref(e: str, w: str, r: dict) -> str:
        status = "wrong answer" if r.get("check") == "wrong" else \
            "column names differ" if r.get("check") == "names" else r.get("status")
        key = (e, status, r.get("error_class"), r.get("condition"),
               (r.get("message") or r.get("detail") or "")[:200])
        notes.setdefault(key, []).append(w)
        return f"[{list(notes).index(key) + 1}]"

    lines.append("| workload | " + " | ".join(DISPLAY[e] for e in engines) + " |")
    lines.append("| --- |" + " --- |" * len(engines))
    ratios: dict[str, list[float]] = {e: [] for e in engines}
    for w in names:
        base = res.get("ember", {}).get("workloads", {}).get(w)
        row = [w]
        for e in engines:
            r = res[e]["workloads"].get(w)
            if r is None:
                row.append("–")
                continue
            if r.get("status") == "ok":
                cell = f"{fmt_s(r['median_s'])} ({fmt_s(r['min_s'])}–{fmt_s(r['max_s'])})"
                if r.get("warmup_only"):
                    cell = f"{fmt_s(r['median_s'])} (warm-up only)"
                if e != "ember" and usable(base) and usable(r) and base["median_s"] > 0:
                    ratio = r["median_s"] / base["median_s"]
                    ratios[e].append(ratio)
                    cell += f" {fmt_ratio(ratio)}"
                check = r.get("check")
                if check == "wrong":
                    cell += f" **✗ wrong** {note_ref(e, w, r)}"
                elif check == "names":
                    cell += f" ≠names {note_ref(e, w, r)}"
                elif check == "unchecked":
                    cell += " (unchecked)"
                row.append(cell)
            else:
                row.append(f"{r.get('status')} {note_ref(e, w, r)}")
        lines.append("| " + " | ".join(row) + " |")
    geo = ["**geomean vs Ember**"]
    for e in engines:
        if e == "ember" or not ratios[e]:
            geo.append("–")
        else:
            g = math.exp(sum(math.log(x) for x in ratios[e]) / len(ratios[e]))
            geo.append(f"{fmt_ratio(g)} over {len(ratios[e])}")
    if "ember" in engines and len(engines) > 1:
        lines.append("| " + " | ".join(geo) + " |")
    lines.append("")
    lines.append("✗ wrong: the answer differs from Apache Spark's; ≠names: right values, "
                 "different column names; (unchecked): no Spark answer to compare with.")
    lines.append("")
    if notes:
        lines.append("Not answered, or answered wrongly:")
        lines.append("")
        for i, (key, ws) in enumerate(notes.items(), 1):
            e, status, cls, cond, msg = key
            what = ", ".join(ws) if len(ws) <= 4 else f"{ws[0]} … {ws[-1]} ({len(ws)} workloads)"
            err = " ".join(x for x in [cls, f"[{cond}]" if cond and f"[{cond}]" not in msg else None]
                           if x)
            lines.append(f"{i}. {DISPLAY[e]} · {what}: {status}"
                         + (f" — {err}" if err else "") + (f": {msg}" if msg else ""))
        lines.append("")
    lines.append("Peak RSS per workload (the engine's processes: server, Spark's JVM, or the "
                 "process running DuckDB / Polars with its Python interpreter):")
    lines.append("")
    lines.append("| workload | " + " | ".join(DISPLAY[e] for e in engines) + " |")
    lines.append("| --- |" + " --- |" * len(engines))
    for w in names:
        row = [w]
        for e in engines:
            r = res[e]["workloads"].get(w, {})
            row.append(fmt_mib(r.get("peak_rss_bytes")) if r.get("status") == "ok" else "–")
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    return "\n".join(lines)


def update_docs(markdown: str, json_name: str) -> None:
    text = DOCS.read_text()
    block = (f"{DOCS_BEGIN}\n<!-- written by bench/run.py --update-docs from "
             f"bench/results/{json_name} -->\n\n{markdown.strip()}\n\n{DOCS_END}")
    if DOCS_BEGIN in text and DOCS_END in text:
        start = text.index(DOCS_BEGIN)
        end = text.index(DOCS_END) + len(DOCS_END)
        text = text[:start] + block + text[end:]
    else:
        text = text.rstrip() + "\n\n## Latest results\n\n" + block + "\n"
    DOCS.write_text(text)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Run the benchmark workloads on Ember and its peers.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--workloads", default="all",
                   help="comma list of workload names, families (" + ", ".join(wl.FAMILIES)
                   + ") or glob patterns; 'all' for every one; --list shows them")
    p.add_argument("--scale", type=float, default=0.1,
                   help="data scale: TPC-H scale factor; sales and H2O rows = 1e7 x scale, "
                   "range rows = 1e8 x scale, join fact rows = 1e7 x scale")
    p.add_argument("--engines", default=",".join(ENGINES),
                   help="comma list among " + ", ".join(ENGINES))
    p.add_argument("--repeat", type=int, default=3, help="timed runs per workload")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs before the timed ones")
    p.add_argument("--out", default=str(BENCH / "results"), help="folder for the JSON and markdown")
    p.add_argument("--timeout", type=float, default=600,
                   help="seconds allowed for one workload on one engine, all its runs together")
    p.add_argument("--trivial-n", type=int, default=50,
                   help="repetitions of the trivial query (spark.range(1).collect())")
    p.add_argument("--data-dir", default=str(ROOT / "data" / "bench"))
    p.add_argument("--ember-bin", default=str(ROOT / "build" / "release" / "ember"))
    p.add_argument("--spark-driver-memory", default="4g")
    p.add_argument("--machine", default=None, help="machine label in the file name")
    p.add_argument("--no-check", action="store_true", help="skip the result check")
    p.add_argument("--no-save", action="store_true", help="print only; write no result files")
    p.add_argument("--update-docs", action="store_true",
                   help="also replace the latest-results block of docs/BENCHMARKS.md")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    return p.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.list:
        for w in wl.REGISTRY.values():
            print(f"{w.name:22} {w.family:6} {w.title}")
        return 0
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    bad = [e for e in engines if e not in ENGINES]
    if bad:
        print(f"unknown engines: {', '.join(bad)} (choose among {', '.join(ENGINES)})",
              file=sys.stderr)
        return 2
    chosen = wl.select(args.workloads)
    if not chosen:
        print(f"no workload matches {args.workloads!r} (see --list)", file=sys.stderr)
        return 2
    started = time.monotonic()
    date = dt.datetime.now(dt.timezone.utc)
    info = machine_info()
    commit = git_commit()
    machine = args.machine or machine_slug(info)
    loadavg_start = os.getloadavg()
    watch = CpuWatch().start()
    data_dir = Path(args.data_dir)
    log_dir = data_dir / "logs" / date.strftime("%Y%m%d-%H%M%S")
    log_dir.mkdir(parents=True, exist_ok=True)
    log(f"{len(chosen)} workloads x {len(engines)} engines at scale {args.scale:g}; "
        f"logs in {log_dir}")

    families = {w.family for w in chosen}
    unavailable: dict[str, str] = {}
    peers_python = None
    if PEER_ENGINES & set(engines) or "tpch" in families:
        try:
            peers_python = ensure_peers()
        except (subprocess.CalledProcessError, OSError) as e:
            note = f"peer install failed ({e})"
            log(note)
            for e_ in PEER_ENGINES & set(engines):
                unavailable[e_] = note
    ember_info = {"path": args.ember_bin}
    if "ember" in engines:
        if not Path(args.ember_bin).exists():
            unavailable["ember"] = f"{args.ember_bin} not built (make build)"
        else:
            try:
                ember_info.update(snapshot_binary(Path(args.ember_bin), data_dir))
            except OSError as e:
                unavailable["ember"] = f"cannot copy {args.ember_bin}: {e}"

    tpchgen = str(PEERS_DIR / "bin" / "tpchgen-cli") if peers_python else shutil.which("tpchgen-cli")
    paths: dict[str, str] = {}
    data_problems: list[str] = []
    for fam in sorted(families):
        try:
            paths.update(datagen.prepare({fam}, args.scale, data_dir, tpchgen,
                                         python=project_python()))
        except (subprocess.CalledProcessError, OSError, RuntimeError) as e:
            data_problems.append(f"{fam}: {e}")
            log(f"data for {fam} failed: {e}")
    paths["range_rows"] = str(datagen.sizes(args.scale)["range_rows"])
    if "tpch_lineitem" in paths:
        paths["tpch_sf"] = f"{args.scale:g}"
    ctx = Context(args, paths, peers_python, log_dir)
    if "copy" in ember_info:
        ctx.ember_bin = Path(ember_info["copy"])

    versions = {}
    if "ember" in engines:
        versions["ember"] = tool_version([str(ctx.ember_bin), "--version"])
    peer_versions = peer_package_versions(peers_python) if peers_python else {}
    if "spark" in engines:
        import importlib.metadata as md

        java = tool_version(["java", "-version"])
        m = re.search(r'version "([^"]+)"', java)
        java = f"Java {m.group(1)}" if m else java
        versions["spark"] = f"Apache Spark {md.version('pyspark')} local[*], {java}"
    if "sail" in engines:
        versions["sail"] = f"Sail {peer_versions.get('pysail', '?')} (pysail)"
    if "duckdb" in engines:
        versions["duckdb"] = f"DuckDB {peer_versions.get('duckdb', '?')}"
    if "polars" in engines:
        versions["polars"] = f"Polars {peer_versions.get('polars', '?')}"

    results = {}
    for e in [x for x in RUN_ORDER if x in engines]:
        results[e] = run_engine(e, chosen, ctx, unavailable.get(e))

    own_cpu, other_cpu = watch.stop()
    elapsed = time.monotonic() - started
    capacity = max(1e-9, elapsed * (os.cpu_count() or 1))
    other = other_cpu / capacity
    loadavg_end = os.getloadavg()
    sizes = datagen.sizes(args.scale)
    data_note = (f"TPC-H SF {args.scale:g}, sales {sizes['sales_rows']:,} rows, H2O "
                 f"{sizes['h2o_rows']:,} rows (K=100), range {sizes['range_rows']:,} rows, join "
                 f"{sizes['join_rows']:,} fact rows")
    report = {
        "meta": {
            "date": date.strftime("%Y-%m-%d %H:%M UTC"), "machine": machine, "commit": commit,
            "machine_info": info, "scale": args.scale, "data_note": data_note,
            "warmup": args.warmup, "repeat": args.repeat, "trivial_n": args.trivial_n,
            "timeout_s": args.timeout, "elapsed_s": elapsed, "engines": engines,
            "ember_bin": ember_info,
            "spark_conf": {"master": "local[*]", "spark.driver.memory": args.spark_driver_memory},
            "load": {"loadavg_start": loadavg_start, "loadavg_end": loadavg_end,
                     "other_cpu_fraction": other, "own_cpu_fraction": own_cpu / capacity,
                     "own_cpu_s": own_cpu, "other_cpu_s": other_cpu,
                     "competing": other > 0.15 or loadavg_start[0] > 0.5 * (os.cpu_count() or 1)},
            "data_problems": data_problems, "peer_packages": peer_versions,
            "tpchgen": datagen.tpchgen_version(tpchgen) if tpchgen and "tpch" in families else None,
            "paths": paths, "logs": str(log_dir),
        },
        "versions": versions,
        "workloads": [w.name for w in chosen],
        "workload_info": {w.name: {"family": w.family, "title": w.title, "note": w.note,
                                   "rev": w.rev} for w in chosen},
        "engines": results,
    }
    markdown = render(report)
    print(markdown)
    if not args.no_save:
        out_dir = Path(args.out)
        out_dir.mkdir(parents=True, exist_ok=True)
        stem = f"{date.strftime('%Y-%m-%d')}-{machine}-{commit}"
        (out_dir / f"{stem}.json").write_text(json.dumps(report, indent=1, default=str) + "\n")
        (out_dir / f"{stem}.md").write_text(markdown + "\n")
        log(f"wrote {out_dir / stem}.json and .md ({elapsed:.0f} s)")
        if args.update_docs:
            update_docs(markdown, f"{stem}.json")
            log(f"updated {DOCS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
