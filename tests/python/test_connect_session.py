"""Session-level behaviour of Ember's Spark Connect server through the PySpark
client: configuration, interrupts, and the `ember` command line (`--version`,
`server` shutdown, `submit` with a classic-style script)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from pyspark.errors import SparkNoSuchElementException
from pyspark.sql import functions as F

from harness import session_mode

REPO_ROOT = Path(__file__).resolve().parents[2]


def ember_binary() -> Path:
    return Path(os.environ.get("EMBER_BIN", REPO_ROOT / "build" / "release" / "ember"))


def test_conf_round_trip(ember):
    conf = ember.conf
    conf.set("spark.ember.test.key", "v1")
    assert conf.get("spark.ember.test.key") == "v1"
    assert conf.get("spark.ember.test.key", "other") == "v1"
    assert conf.get("spark.ember.test.absent", "fallback") == "fallback"
    assert conf.getAll["spark.ember.test.key"] == "v1"
    conf.unset("spark.ember.test.key")
    with pytest.raises(SparkNoSuchElementException) as exc:
        conf.get("spark.ember.test.key")
    assert exc.value.getCondition() == "SQL_CONF_NOT_FOUND"
    assert exc.value.getSqlState() == "42K0I"
    assert conf.isModifiable("spark.sql.shuffle.partitions")
    assert conf.get("spark.sql.ansi.enabled") == "true"
    assert conf.get("spark.sql.session.localRelationCacheThreshold") == "1048576"


def test_version(ember):
    assert ember.version == "4.3.0"


def test_interrupt_all(ember):
    outcome = {}

    def run():
        try:
            with session_mode(ember):
                query = ember.range(50_000_000_000).filter(F.col("id") < 0)
            outcome["rows"] = query.collect()
        except Exception as exc:  # noqa: BLE001 - the interruption is the result
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(1.0)
    interrupted = ember.interruptAll()
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert len(interrupted) == 1
    assert outcome["error"].getCondition() == "OPERATION_CANCELED"
    assert ember.range(3).count() == 3


def test_version_flag():
    out = subprocess.run([str(ember_binary()), "--version"], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "ember 0.1.0 (Spark 4.3.0 compatible)"


def test_server_stops_on_sigterm_and_sigint():
    for sig in (signal.SIGTERM, signal.SIGINT):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen([str(ember_binary()), "server", "--port", str(port)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        assert f"sc://127.0.0.1:{port}" in line
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == 0


def test_server_rejects_bad_arguments():
    out = subprocess.run([str(ember_binary()), "server", "--port", "notaport"],
                         capture_output=True, text=True)
    assert out.returncode == 2


def test_submit_runs_a_classic_script(tmp_path):
    script = tmp_path / "app.py"
    script.write_text(textwrap.dedent("""
        import sys
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.appName("x").master("local[*]")
                 .config("spark.sql.shuffle.partitions", "4").getOrCreate())
        print(type(spark).__module__)
        print(spark.range(3).collect())
        print(spark.conf.get("spark.sql.shuffle.partitions"))
        print(sys.argv[1:])
        spark.stop()
        sys.exit(7)
    """))
    env = dict(os.environ, EMBER_PYTHON=sys.executable)
    for key in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_API_MODE"):
        env.pop(key, None)
    out = subprocess.run([str(ember_binary()), "submit", str(script), "a", "b c"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 7, out.stderr
    lines = out.stdout.splitlines()
    assert lines == ["pyspark.sql.connect.session", "[Row(id=0), Row(id=1), Row(id=2)]", "4",
                     "['a', 'b c']"], out.stderr


def test_submit_without_a_script_is_a_usage_error():
    out = subprocess.run([str(ember_binary()), "submit"], capture_output=True, text=True)
    assert out.returncode == 2


def test_submit_output_equals_apache_spark(tmp_path):
    """The same classic-style script, run by plain Python on a local Apache Spark and through
    `ember submit`, prints the same text."""
    csv = tmp_path / "sales.csv"
    csv.write_text("transaction_id,customer_id,product_id,amount,region,transaction_date\n" + "".join(
        f"{i},{100 + i % 7},P00{1 + i % 5},{10 + (i * 37) % 490}.{i % 100:02d},"
        f"{['North', 'South', 'East', 'West'][i % 4]},2023-01-01 00:{i // 60 % 60:02d}:{i % 60:02d}\n"
        for i in range(500)))
    script = tmp_path / "app.py"
    script.write_text(textwrap.dedent(f"""
        from pyspark.sql import SparkSession, functions as F
        spark = (SparkSession.builder.appName("sales").master("local[2]")
                 .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                 .getOrCreate())
        df = spark.read.csv({str(csv)!r}, header=True, inferSchema=True)
        df.printSchema()
        out = (df.filter(F.col("amount") > 50)
                 .groupBy("region", "product_id")
                 .agg(F.sum("amount").alias("total"), F.count("*").alias("n"),
                      F.round(F.avg("amount"), 2).alias("avg"))
                 .orderBy(F.col("total").desc(), "region", "product_id"))
        out.show(8)
        print(out.count(), df.count())
        print(sorted(r.region for r in df.select("region").distinct().collect()))
        spark.stop()
    """))
    env = dict(os.environ, EMBER_PYTHON=sys.executable, TZ="UTC")
    for key in ("SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED", "SPARK_API_MODE"):
        env.pop(key, None)
    spark_out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                               timeout=300)
    assert spark_out.returncode == 0, spark_out.stderr
    ember_out = subprocess.run([str(ember_binary()), "submit", str(script)], capture_output=True, text=True,
                               env=env, timeout=120)
    assert ember_out.returncode == 0, ember_out.stderr
    assert ember_out.stdout == spark_out.stdout
    assert "|region|product_id|" in ember_out.stdout


def test_doctor_explains_the_gpu_state():
    out = subprocess.run([str(ember_binary()), "doctor"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ember ")
    assert "GPU" in out.stdout and "status:" in out.stdout
