"""Runs PySpark's Spark Connect parity test modules (upstream `pyspark/sql/tests/connect/
test_parity_*.py`) against an Ember server and summarizes the outcome.

    .venv/bin/python tools/compat/spark_parity.py --tests-root DIR [--binary PATH]
        [--modules MOD ...] [--timeout SECONDS] [--json out.json] [--log-dir DIR] [-k EXPR]
        [--python PY] [--module-python MOD=PY ...]

Test files check client-side errors and formatting of the PySpark release they were written
for, so a file older than the installed client fails on the client's own changes (error classes
the client raises, say). --module-python runs one module with another interpreter, e.g. a venv
holding the matching `pyspark-client` release:

    python3 -m venv /tmp/client41 && /tmp/client41/bin/pip install pyspark-client==4.1.3 \
        pandas==2.3.3 pyarrow numpy grpcio grpcio-status googleapis-common-protos zstandard pytest
    ... --module-python pyspark.sql.tests.connect.test_parity_dataframe=/tmp/client41/bin/python

A client-only install has no Spark distribution; SPARK_HOME (which PySpark's test utilities
look up) then defaults to the PySpark package of the interpreter running this script.

--tests-root is a directory that holds an upstream `pyspark/sql/tests` tree (the PySpark wheel
ships without it). The tests are imported as `pyspark.sql.tests.*` by appending
`<tests-root>/pyspark/sql` to the installed `pyspark.sql.__path__`; everything else comes from
the installed PySpark.

Each module runs in a pytest child process that loads this file as a plugin. The plugin writes
one JSON line per test phase to an events file, arms a per-test watchdog (faulthandler exits the
child when a test runs past --timeout), and stops the child when the server process has died.
SPARK_SKIP_CONNECT_COMPAT_TESTS=1 is set in the child: it is PySpark's own switch that makes
`is_remote_only()` true, which ReusedConnectTestCase needs to run against an external server
with the full PySpark wheel installed. The driver then records the test that was running (timeout or server crash), restarts the server
if needed, and resumes the module with the finished tests deselected.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MODULES = [
    "pyspark.sql.tests.connect.test_parity_dataframe",
    "pyspark.sql.tests.connect.test_parity_column",
]

# Names that older test files import from pyspark.testing.sqlutils but that newer PySpark
# releases only define in pyspark.testing.utils.
_SQLUTILS_COMPAT = (
    "have_pandas",
    "have_pyarrow",
    "pandas_requirement_message",
    "pyarrow_requirement_message",
)

# SQLTestUtils context managers that older test files call by their former camel-case name.
_SQLTESTUTILS_RENAMED = {
    "tempView": "temp_view",
}


# ---------------------------------------------------------------------------------------------
# pytest plugin side (loaded in the child with `-p spark_parity`)
# ---------------------------------------------------------------------------------------------

def _plugin_setup() -> None:
    tests_root = os.environ.get("EMBER_PARITY_TESTS_ROOT")
    if not tests_root:
        return
    import pyspark.sql
    import pyspark.testing.sqlutils as sqlutils
    import pyspark.testing.utils as tutils

    extra = os.path.join(tests_root, "pyspark", "sql")
    if extra not in pyspark.sql.__path__:
        pyspark.sql.__path__.append(extra)
    for name in _SQLUTILS_COMPAT:
        if not hasattr(sqlutils, name) and hasattr(tutils, name):
            setattr(sqlutils, name, getattr(tutils, name))
    utils_cls = sqlutils.SQLTestUtils
    for old, new in _SQLTESTUTILS_RENAMED.items():
        if not hasattr(utils_cls, old) and hasattr(utils_cls, new):
            setattr(utils_cls, old, getattr(utils_cls, new))


_events = None


def _emit(**record) -> None:
    global _events
    path = os.environ.get("EMBER_PARITY_EVENTS")
    if not path:
        return
    if _events is None:
        _events = open(path, "a", encoding="utf-8")
    _events.write(json.dumps(record) + "\n")
    _events.flush()


def _server_alive() -> bool:
    pid = os.environ.get("EMBER_PARITY_SERVER_PID")
    if not pid:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except OSError:
        return False


if os.environ.get("EMBER_PARITY_EVENTS"):
    _plugin_setup()

    def pytest_collection_modifyitems(session, config, items):
        done_file = os.environ.get("EMBER_PARITY_DONE")
        done = set()
        if done_file and os.path.exists(done_file):
            done = set(Path(done_file).read_text().split("\n")) - {""}
        keep = [it for it in items if it.nodeid not in done]
        drop = [it for it in items if it.nodeid in done]
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
        _emit(event="collected", nodeids=[it.nodeid for it in items])

    def pytest_runtest_logstart(nodeid, location):
        import faulthandler

        _emit(event="start", nodeid=nodeid, t=time.time())
        timeout = float(os.environ.get("EMBER_PARITY_TIMEOUT", "0") or 0)
        if timeout > 0:
            faulthandler.dump_traceback_later(timeout, exit=True)

    def pytest_runtest_logreport(report):
        rec = {"event": "report", "nodeid": report.nodeid, "when": report.when,
               "outcome": report.outcome, "duration": report.duration}
        if report.outcome == "skipped":
            lr = report.longrepr
            rec["reason"] = lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)
        elif report.outcome == "failed":
            crash = getattr(report.longrepr, "reprcrash", None)
            rec["crash"] = crash.message if crash is not None else ""
            rec["text"] = report.longreprtext[-6000:]
        _emit(**rec)

    def pytest_runtest_logfinish(nodeid, location):
        import faulthandler

        faulthandler.cancel_dump_traceback_later()
        _emit(event="finish", nodeid=nodeid, t=time.time())
        if not _server_alive():
            _emit(event="server_dead", nodeid=nodeid)
            os._exit(3)


# ---------------------------------------------------------------------------------------------
# driver side
# ---------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary: Path, log_dir: Path):
        self.binary = binary
        self.log_dir = log_dir
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        self.port = free_port()
        log = open(self.log_dir / f"server.{self.starts}.log", "wb")
        # Python UDFs run in workers of an interpreter that has PySpark: this one, unless given.
        env = dict(os.environ)
        env.setdefault("PYSPARK_PYTHON", sys.executable)
        self.proc = subprocess.Popen([str(self.binary), "server", "--port", str(self.port)],
                                     stdout=log, stderr=subprocess.STDOUT, env=env)
        for _ in range(200):
            if self.proc.poll() is not None:
                break
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.1):
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"ember server did not start on port {self.port}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def exit_status(self) -> str:
        rc = self.proc.poll() if self.proc else None
        if rc is None:
            return "running"
        return f"signal {-rc}" if rc < 0 else f"exit {rc}"

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def remote(self) -> str:
        return f"sc://localhost:{self.port}"


def test_name(nodeid: str) -> str:
    return nodeid.split("::", 1)[-1] if "::" in nodeid else nodeid


def error_condition(text: str) -> str | None:
    m = re.search(r"\[([A-Z][A-Z0-9_]+(?:\.[A-Z0-9_]+)*)\]", text)
    return m.group(1) if m else None


def cause_key(crash: str, text: str = "") -> tuple[str, str]:
    """(grouping key, message head) for a failure's crash line `pkg.ExcClass: message`."""
    first = crash.strip().split("\n", 1)[0]
    # PySparkErrorTestUtils.check_error: the client raised another error class or other
    # message parameters than the test expects (often a client/test version difference).
    m = re.search(r"Expected error class was '([^']*)', got '([^']*)'", text)
    if m:
        return f"check_error: error class {m.group(2)} (test expects another class)", first[:200]
    if "Expected message parameters was" in text:
        return "check_error: message parameters differ", first[:200]
    m = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failure|Warning)?)"
                 r"(?::\s*(.*))?$", first)
    if m and ("." in m.group(1) or m.group(1).endswith(("Error", "Exception"))):
        exc, msg = m.group(1).rsplit(".", 1)[-1], (m.group(2) or "")
    else:
        exc, msg = "?", first
    cond = error_condition(msg)
    if cond:
        return f"{exc} [{cond}]", msg[:200]
    # Without an error condition, group on the message with literals blanked out.
    norm = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", msg)
    norm = re.sub(r"\b\d+(\.\d+)?\b", "N", norm)
    return f"{exc}: {norm[:90]}", msg[:200]


def run_module(module: str, server: Server, args, log_dir: Path) -> dict:
    tag = module.rsplit(".", 1)[-1]
    events_path = log_dir / f"{tag}.events.jsonl"
    done_path = log_dir / f"{tag}.done"
    events_path.write_text("")
    done_path.write_text("")
    ini = log_dir / "pytest.ini"
    ini.write_text("[pytest]\n")
    results: dict[str, dict] = {}
    attempt = 0
    while True:
        attempt += 1
        if not server.alive():
            server.start()
        env = dict(os.environ)
        env.update({
            "EMBER_PARITY_EVENTS": str(events_path),
            "EMBER_PARITY_DONE": str(done_path),
            "EMBER_PARITY_TIMEOUT": str(args.timeout),
            "EMBER_PARITY_TESTS_ROOT": str(Path(args.tests_root).resolve()),
            "EMBER_PARITY_SERVER_PID": str(server.proc.pid),
            "SPARK_CONNECT_TESTING_REMOTE": server.remote,
            # Makes pyspark.util.is_remote_only() true with the full PySpark wheel, so that
            # ReusedConnectTestCase does not look for an in-process JVM session.
            "SPARK_SKIP_CONNECT_COMPAT_TESTS": "1",
            "PYTHONPATH": os.pathsep.join(
                [str(Path(__file__).resolve().parent)]
                + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])),
            "TZ": env.get("TZ", "UTC"),
            "PYTHONDONTWRITEBYTECODE": "1",
        })
        if "SPARK_HOME" not in env:
            import pyspark
            env["SPARK_HOME"] = str(Path(pyspark.__file__).resolve().parent)
        python = dict(mp.split("=", 1) for mp in args.module_python).get(module, args.python)
        cmd = [python, "-m", "pytest", "-c", str(ini), "--rootdir", str(log_dir),
               "-p", "no:cacheprovider", "-p", "spark_parity", "-q", "-rA", "--pyargs", module]
        if args.k:
            cmd += ["-k", args.k]
        start_offset = events_path.stat().st_size
        with open(log_dir / f"{tag}.pytest.{attempt}.log", "wb") as out:
            child = subprocess.Popen(cmd, cwd=str(log_dir), env=env, stdout=out,
                                     stderr=subprocess.STDOUT)
            last_size, last_change = -1, time.time()
            while child.poll() is None:
                time.sleep(0.5)
                size = events_path.stat().st_size
                if size != last_size:
                    last_size, last_change = size, time.time()
                elif time.time() - last_change > args.timeout + 120:
                    child.kill()  # the in-child watchdog did not fire; stop it from here
            rc = child.wait()
        new = [json.loads(line) for line in
               events_path.read_text().encode()[start_offset:].decode().splitlines() if line]
        started, started_at, finished, dead_after = None, 0.0, set(), None
        for ev in new:
            if ev["event"] == "start":
                started, started_at = ev["nodeid"], ev["t"]
            elif ev["event"] == "finish":
                finished.add(ev["nodeid"])
            elif ev["event"] == "server_dead":
                dead_after = ev["nodeid"]
            elif ev["event"] == "report":
                r = results.setdefault(ev["nodeid"], {"phases": {}})
                r["phases"][ev["when"]] = ev
        for nid in finished:
            results[nid]["outcome"] = classify(results[nid]["phases"])
        hung = started if started and started not in finished else None
        if hung:
            r = results.setdefault(hung, {"phases": {}})
            if not server.alive():
                r["outcome"] = "crash"
                r["detail"] = f"ember server died ({server.exit_status()}) during this test"
            else:
                elapsed = time.time() - started_at
                if elapsed >= args.timeout * 0.9:
                    r["outcome"] = "timeout"
                    r["detail"] = f"no result after {args.timeout:.0f}s"
                else:
                    r["outcome"] = "error"
                    r["detail"] = f"pytest child exited ({rc}) during this test"
            finished.add(hung)
        if dead_after:
            r = results[dead_after]
            r["outcome"] = "crash"
            r["detail"] = f"ember server died ({server.exit_status()}) during this test"
        for nid in {hung, dead_after} - {None}:
            r = results[nid]
            print(f"{r['outcome'].upper()}: {module} {nid}: {r['detail']}", file=sys.stderr,
                  flush=True)
        with open(done_path, "a") as f:
            for nid in finished:
                f.write(nid + "\n")
        if not hung and not dead_after:
            if rc not in (0, 1, 5) and not finished:
                print(f"{module}: pytest exited {rc} without running tests; see "
                      f"{log_dir}/{tag}.pytest.{attempt}.log", file=sys.stderr)
                results.setdefault(module, {"outcome": "error", "phases": {},
                                            "detail": f"pytest exit {rc} before any test"})
            break
        if not server.alive():
            server.stop()
            server.start()
    return results


def test_location(text: str) -> str | None:
    """The last `.../pyspark/sql/tests/...py:LINE` frame of a failure's traceback."""
    hits = re.findall(r"(pyspark/sql/tests/[\w/]+\.py:\d+)", text)
    return hits[-1] if hits else None


def classify(phases: dict) -> str:
    outs = {w: p["outcome"] for w, p in phases.items()}
    if "skipped" in outs.values():
        return "skipped"
    if outs.get("call") == "failed":
        return "failed"
    if "failed" in outs.values():
        return "error"
    if outs.get("call") == "passed":
        return "passed"
    return "error"


def failure_text(r: dict) -> tuple[str, str]:
    """The crash line and full text of a failed or errored test."""
    for when in ("call", "setup", "teardown"):
        p = r["phases"].get(when)
        if p and p["outcome"] == "failed":
            return p.get("crash", ""), p.get("text", "")
    return "", ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests-root", required=True,
                    help="directory holding an upstream pyspark/sql/tests tree")
    ap.add_argument("--binary", default=str(ROOT / "build" / "release" / "ember"))
    ap.add_argument("--modules", nargs="+", default=DEFAULT_MODULES)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per test")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--module-python", action="append", default=[], metavar="MODULE=PYTHON",
                    help="run MODULE's tests with this interpreter (repeatable)")
    ap.add_argument("--json")
    ap.add_argument("--log-dir", help="keep pytest and server logs here (default: a temp dir)")
    ap.add_argument("-k", default="", help="pytest -k expression")
    args = ap.parse_args()

    tests_root = Path(args.tests_root)
    if not (tests_root / "pyspark" / "sql" / "tests").is_dir():
        raise SystemExit(f"{tests_root}/pyspark/sql/tests does not exist")
    log_dir = Path(args.log_dir or tempfile.mkdtemp(prefix="ember-parity-")).resolve()
    log_dir.mkdir(parents=True, exist_ok=True)

    server = Server(Path(args.binary), log_dir)
    all_results: dict[str, dict] = {}
    try:
        server.start()
        for module in args.modules:
            t0 = time.time()
            print(f"== {module}", file=sys.stderr, flush=True)
            res = run_module(module, server, args, log_dir)
            all_results[module] = res
            print(f"   {len(res)} tests in {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    finally:
        server.stop()

    outcomes = ("passed", "failed", "error", "skipped", "timeout", "crash")
    causes: dict[str, list] = collections.defaultdict(list)
    summary = {}
    print(f"\nlogs: {log_dir}  (server started {server.starts} time(s))\n")
    print(f"{'module':<28} " + " ".join(f"{o:>7}" for o in outcomes) + "   pass share")
    tot = collections.Counter()
    tot_eligible = tot_pass = 0
    for module, res in all_results.items():
        cnt = collections.Counter(r.get("outcome", "error") for r in res.values())
        eligible = [n for n, r in res.items()
                    if r.get("outcome") != "skipped" and "stream" not in n.lower()]
        npass = sum(1 for n in eligible if res[n].get("outcome") == "passed")
        tot.update(cnt)
        tot_eligible += len(eligible)
        tot_pass += npass
        share = 100.0 * npass / max(1, len(eligible))
        print(f"{module.rsplit('.', 1)[-1]:<28} " + " ".join(f"{cnt[o]:>7}" for o in outcomes)
              + f"   {npass}/{len(eligible)} = {share:.1f}%")
        summary[module] = {**{o: cnt[o] for o in outcomes}, "eligible": len(eligible),
                           "pass_share": share}
        for nid, r in res.items():
            out = r.get("outcome")
            if out in ("failed", "error"):
                crash, text = failure_text(r)
                key, head = cause_key(crash or r.get("detail", ""), text)
                causes[key].append((test_name(nid), out, head))
            elif out in ("timeout", "crash"):
                key = "SERVER CRASH" if out == "crash" else "TIMEOUT"
                causes[key].append((test_name(nid), out, r.get("detail", "")))
    share = 100.0 * tot_pass / max(1, tot_eligible)
    print(f"{'total':<28} " + " ".join(f"{tot[o]:>7}" for o in outcomes)
          + f"   {tot_pass}/{tot_eligible} = {share:.1f}%")
    print("\n(pass share: passed / tests that are neither skipped nor streaming)")

    print("\nfailure causes (tests broken, cause, example test: message head):")
    ranked = sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    for key, items in ranked:
        name, _, head = items[0]
        print(f"  {len(items):4d}  {key}")
        print(f"        e.g. {name}: {head[:160]}")
    if args.json:
        doc = {
            "modules": summary,
            "causes": [{"cause": k, "count": len(v),
                        "tests": [{"test": n, "outcome": o, "message": h} for n, o, h in v]}
                       for k, v in ranked],
            "tests": {m: {test_name(n): {"outcome": r.get("outcome"),
                                         "detail": r.get("detail"),
                                         "message": failure_text(r)[0][:2000],
                                         "where": test_location(failure_text(r)[1])}
                          for n, r in res.items()}
                      for m, res in all_results.items()},
        }
        Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
