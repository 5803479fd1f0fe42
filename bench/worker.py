"""One engine's side of a benchmark run, in its own process.

run.py starts one worker per engine, in the Python environment that has the engine's client
(the project's .venv for PySpark, bench/.venv-peers for DuckDB and Polars), and drives it with
JSON lines on stdin; answers are JSON lines on the original stdout. Everything else the worker
or its children print (the Spark JVM, engine logs) goes to stderr, which run.py keeps in a log.

Keeping each engine in its own process isolates their memory (peak RSS of an in-process
engine is this process's) and lets run.py stop an engine that hangs or crashes without losing
the rest of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import workloads as wl  # noqa: E402

UNSUPPORTED_CONDITIONS = {"UNRESOLVED_ROUTINE", "DATA_SOURCE_NOT_FOUND", "NOT_IMPLEMENTED"}
UNSUPPORTED_WORDS = ("not supported", "unsupported", "not implemented", "not yet implemented")


def describe_error(e: BaseException) -> dict:
    """Error class, Spark error condition when there is one, first line of the message, and
    whether it reads as a missing feature ('unsupported') rather than a failure ('error')."""
    condition = None
    for attr in ("getCondition", "getErrorClass"):
        fn = getattr(e, attr, None)
        if callable(fn):
            try:
                condition = fn()
            except Exception:  # noqa: BLE001 - best effort only
                condition = None
            if condition:
                break
    text = str(e).strip()
    first = text.splitlines()[0] if text else ""
    low = text.lower()
    unsupported = bool(
        (condition and (condition.startswith("UNSUPPORTED") or condition in UNSUPPORTED_CONDITIONS))
        or isinstance(e, NotImplementedError)
        or type(e).__name__ in ("PySparkNotImplementedError",)
        or any(w in low for w in UNSUPPORTED_WORDS))
    return {
        "status": "unsupported" if unsupported else "error",
        "error_class": type(e).__name__,
        "condition": condition,
        "message": first[:400],
    }


# ---------------------------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------------------------


class SparkBase:
    """PySpark sessions: Ember and Sail over Spark Connect, Apache Spark in local mode."""

    spark_semantics = True

    def __init__(self):
        self.spark = None
        from pyspark.sql import Window
        from pyspark.sql import functions as F

        self.F, self.W = F, Window

    def trivial(self) -> None:
        self.spark.range(1).collect()

    def setup(self, family: str, P: dict) -> None:
        wl.spark_setup(self.spark, family, P)

    def run(self, w: wl.Workload, P: dict):
        return w.spark(self.spark, self.F, self.W, P).toArrow()

    def versions(self) -> dict:
        import pyspark

        out = {"pyspark_client": pyspark.__version__}
        try:
            out["server_spark_version"] = self.spark.version
        except Exception as e:  # noqa: BLE001
            out["server_spark_version"] = f"unknown ({type(e).__name__})"
        return out

    def close(self) -> None:
        try:
            self.spark.stop()
        except Exception:  # noqa: BLE001
            pass


class SparkConnect(SparkBase):
    def __init__(self):
        super().__init__()
        # The Connect client's modules take a second or more to import (pandas among them):
        # client cost, not the server's start-up, so it is paid before the server starts.
        import pyspark.sql.connect.dataframe  # noqa: F401
        import pyspark.sql.connect.session  # noqa: F401

    def start(self, msg: dict) -> dict:
        """Waits for the server's port to accept, then times a first query; start-up is
        measured from the moment run.py launched the server (same monotonic clock)."""
        from pyspark.sql import SparkSession

        port, t0 = msg["port"], msg["t0"]
        deadline = time.monotonic() + msg.get("timeout_s", 120)
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"port {port} did not open")
                time.sleep(0.002)
        listening = time.monotonic()
        last = None
        while time.monotonic() < deadline:
            try:
                self.spark = SparkSession.builder.remote(f"sc://127.0.0.1:{port}").getOrCreate()
                self.spark.range(1).collect()
                done = time.monotonic()
                return {"startup_s": done - t0, "listening_s": listening - t0}
            except Exception as e:  # noqa: BLE001 - the server may still be starting
                last = e
                time.sleep(0.01)
        raise TimeoutError(f"no answer from the server: {last}")


class SparkLocal(SparkBase):
    def start(self, msg: dict) -> dict:
        """Start-up is the session's creation (JVM launch included) and a first query."""
        from pyspark.sql import SparkSession

        t0 = time.monotonic()
        builder = SparkSession.builder.master(msg.get("master", "local[*]")).appName("ember-bench")
        for k, v in msg.get("conf", {}).items():
            builder = builder.config(k, v)
        self.spark = builder.getOrCreate()
        self.spark.sparkContext.setLogLevel("ERROR")
        self.spark.range(1).collect()
        return {"startup_s": time.monotonic() - t0}


class DuckDB:
    spark_semantics = False

    def start(self, msg: dict) -> dict:
        t0 = time.monotonic()
        import duckdb

        self.duckdb = duckdb
        self.con = duckdb.connect()
        self.con.sql("SELECT * FROM range(1)").fetchall()
        return {"startup_s": time.monotonic() - t0}

    def trivial(self) -> None:
        self.con.sql("SELECT * FROM range(1)").fetchall()

    def setup(self, family: str, P: dict) -> None:
        wl.duckdb_setup(self.con, family, P)

    def run(self, w: wl.Workload, P: dict):
        return self.con.sql(w.duckdb(P)).to_arrow_table()

    def versions(self) -> dict:
        return {"duckdb": self.duckdb.__version__,
                "threads": self.con.sql("SELECT current_setting('threads')").fetchall()[0][0]}

    def close(self) -> None:
        self.con.close()


class Polars:
    spark_semantics = False

    def start(self, msg: dict) -> dict:
        t0 = time.monotonic()
        import polars as pl

        self.pl = pl
        self.ctx: dict[str, object] = {}
        self.trivial()
        return {"startup_s": time.monotonic() - t0}

    def trivial(self) -> None:
        pl = self.pl
        pl.LazyFrame().select(pl.int_range(0, 1).alias("id")).collect().rows()

    def setup(self, family: str, P: dict) -> None:
        self.ctx[family] = wl.polars_setup(self.pl, family, P)

    def run(self, w: wl.Workload, P: dict):
        return w.polars(self.pl, P, self.ctx.get(w.family)).collect().to_arrow()

    def versions(self) -> dict:
        return {"polars": self.pl.__version__, "threads": self.pl.thread_pool_size()}

    def close(self) -> None:
        pass


ENGINES = {"ember": SparkConnect, "sail": SparkConnect, "spark": SparkLocal, "duckdb": DuckDB,
           "polars": Polars}


# ---------------------------------------------------------------------------------------------
# Protocol
# ---------------------------------------------------------------------------------------------


class Worker:
    def __init__(self, engine_name: str, out):
        self.name = engine_name
        self.out = out
        self.engine = ENGINES[engine_name]()
        self.ready_families: dict[str, dict | None] = {}

    def send(self, obj: dict) -> None:
        self.out.write(json.dumps(obj) + "\n")
        self.out.flush()

    def op_start(self, msg: dict) -> dict:
        return self.engine.start(msg)

    def op_trivial(self, msg: dict) -> dict:
        for _ in range(msg.get("warmup", 5)):
            self.engine.trivial()
        times = []
        for _ in range(msg["n"]):
            t = time.perf_counter()
            self.engine.trivial()
            times.append(time.perf_counter() - t)
        return {"times": times}

    def op_run(self, msg: dict) -> dict:
        import pyarrow as pa

        w = wl.REGISTRY[msg["workload"]]
        P = msg["paths"]
        if w.family not in self.ready_families:
            try:
                self.engine.setup(w.family, P)
                self.ready_families[w.family] = None
            except Exception as e:  # noqa: BLE001
                self.ready_families[w.family] = {**describe_error(e), "phase": "setup"}
        failure = self.ready_families[w.family]
        if failure:
            return failure
        budget = msg.get("budget_s", 1e9)
        started = time.monotonic()
        warm, timed = [], []
        result = None
        phase = "warm-up"
        try:
            for i in range(msg.get("warmup", 1) + msg["repeat"]):
                if i > 0 and time.monotonic() - started + (warm + timed)[-1] > budget:
                    break  # the next run would not finish inside the time allowed
                t = time.perf_counter()
                table = self.engine.run(w, P)
                elapsed = time.perf_counter() - t
                if result is None:
                    result = table
                    # The result goes to disk and out of memory before the timed runs.
                    with pa.OSFile(msg["result_path"], "wb") as sink:
                        with pa.ipc.new_file(sink, result.schema) as writer:
                            writer.write_table(result)
                    shape = (result.num_rows, result.num_columns)
                    result = True
                del table
                if i < msg.get("warmup", 1):
                    warm.append(elapsed)
                else:
                    phase = "timed run"
                    timed.append(elapsed)
        except Exception as e:  # noqa: BLE001
            info = describe_error(e)
            info["phase"] = phase
            traceback.print_exc()
            return info
        return {"status": "ok", "warmup_s": warm, "times": timed, "rows": shape[0],
                "columns": shape[1]}

    def op_check(self, msg: dict) -> dict:
        import pyarrow as pa

        from compare import compare

        w = wl.REGISTRY[msg["workload"]]
        path = msg["result_path"]
        try:
            result = pa.ipc.open_file(path).read_all()
            if msg.get("save_reference"):
                os.makedirs(os.path.dirname(msg["reference"]), exist_ok=True)
                os.replace(path, msg["reference"])
                return {"check": "reference", "detail": ""}
            ref = msg.get("reference")
            if not ref or not os.path.exists(ref):
                return {"check": "unchecked", "detail": "no reference answer from Apache Spark"}
            reference = pa.ipc.open_file(ref).read_all()
            status, detail = compare(result, reference, w.order, w.check,
                                     self.engine.spark_semantics)
            return {"check": status, "detail": detail}
        finally:
            if os.path.exists(path):
                os.remove(path)

    def op_versions(self, msg: dict) -> dict:
        return self.engine.versions()

    def serve(self) -> None:
        self.send({"op": "ready", "pid": os.getpid()})
        for line in sys.stdin:
            msg = json.loads(line)
            op = msg["op"]
            if op == "quit":
                self.engine.close() if hasattr(self.engine, "close") else None
                self.send({"ok": True})
                return
            try:
                reply = getattr(self, f"op_{op}")(msg)
            except Exception as e:  # noqa: BLE001
                traceback.print_exc()
                reply = {**describe_error(e), "failed": True}
            self.send(reply)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, choices=sorted(ENGINES))
    args = parser.parse_args()
    # Answers go to the original stdout; anything else printed to stdout from now on, by
    # this process or by children such as the JVM, lands on stderr.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    Worker(args.engine, out).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
