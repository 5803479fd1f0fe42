"""Fixtures of the differential test suite.

  ember       a Spark Connect session on an Ember server started for the run
              (binary: $EMBER_BIN, default build/release/ember)
  oracle      a classic local Apache Spark session of the pinned version
  diff        diff(program, ordered=None, approx=1e-9): run on both, compare
  diff_error  diff_error(program, error_class): both fail with that class
  diff_show   diff_show(program, **show_args): both print the same show()

Both engines run in UTC. The sessions live for the whole run (one per xdist
worker); tests that only need the comparison logic request none of them.

PySpark chooses between its classic and Spark Connect API process-wide; the
harness switches around each program (harness.api_mode), so a program builds
its columns (F.col, F.lit, Window ...) inside the function it passes.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import pytest

# Before anything imports pyspark: results hold naive datetimes converted with
# the Python process's time zone, and the oracle's JVM inherits it too.
os.environ["TZ"] = "UTC"
if hasattr(time, "tzset"):
    time.tzset()
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
# The oracle's JVM would otherwise look for a SPARK_HOME of a different
# install.
os.environ.pop("SPARK_HOME", None)
# Spark Connect mode is chosen per session here, never by the environment.
os.environ.pop("SPARK_REMOTE", None)
os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")

from harness import Differ, api_mode  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_START_TIMEOUT_S = 30.0
SESSION_CONF = {
    "spark.sql.session.timeZone": "UTC",
}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _tail(path: Path, limit: int = 8000) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no output)"
    return text[-limit:] if text.strip() else "(no output)"


class EmberServer:
    """An `ember server` process on a free loopback port."""

    def __init__(self, binary: Path, warehouse: Path | None = None):
        self.binary = binary
        self.port = _free_port()
        self._log_dir = tempfile.TemporaryDirectory(prefix="ember-server-")
        # Managed tables go to a warehouse of this server's own, never the checkout's.
        self.warehouse = warehouse or Path(self._log_dir.name) / "spark-warehouse"
        self.stdout_path = Path(self._log_dir.name) / "stdout.log"
        self.stderr_path = Path(self._log_dir.name) / "stderr.log"
        self.process: subprocess.Popen | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        return f"sc://127.0.0.1:{self.port}"

    def output(self) -> str:
        return (f"--- stderr ---\n{_tail(self.stderr_path)}\n"
                f"--- stdout ---\n{_tail(self.stdout_path)}")

    def start(self) -> None:
        if not self.binary.is_file():
            pytest.fail(f"Ember binary not found: {self.binary} (run 'make build', or set "
                        "EMBER_BIN)", pytrace=False)
        env = dict(os.environ, TZ="UTC")
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                [str(self.binary), "server", "--host", "127.0.0.1", "--port", str(self.port),
                 "--conf", f"spark.sql.warehouse.dir={self.warehouse}"],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=REPO_ROOT)
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.output()
                self.stop()
                pytest.fail(f"ember server exited with status {self.process.returncode} "
                            f"before accepting connections\n{output}", pytrace=False)
            if _port_open(self.port):
                threading.Thread(target=self._watch, daemon=True).start()
                return
            time.sleep(0.05)
        output = self.output()
        self.stop()
        pytest.fail(f"ember server did not accept connections on port {self.port} within "
                    f"{SERVER_START_TIMEOUT_S:.0f} s\n{output}", pytrace=False)

    def _watch(self) -> None:
        """A server that dies under a test would leave the client retrying for many minutes:
        end this test process at once instead, with the server's output (pytest-xdist reports
        the test that was running as failed and goes on with a new worker)."""
        status = self.process.wait()
        if self._stopping:
            return
        sys.stderr.write(f"\nember server exited with status {status} during a test\n"
                         f"{self.output()}\n")
        sys.stderr.flush()
        os._exit(70)

    def stop(self) -> None:
        self._stopping = True
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log_dir.cleanup()


def ember_binary() -> Path:
    return Path(os.environ.get("EMBER_BIN", REPO_ROOT / "build" / "release" / "ember"))


@pytest.fixture(scope="session")
def ember_server():
    server = EmberServer(ember_binary())
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def ember(ember_server):
    """A Spark Connect session on the Ember server of this run."""
    # The Spark Connect builder directly: the generic builder refuses a remote session while the
    # classic oracle session exists in the same process.
    from pyspark.sql.connect.session import SparkSession as RemoteSparkSession

    builder = RemoteSparkSession.builder.remote(ember_server.url)
    for key, value in SESSION_CONF.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # noqa: BLE001 - show the server's side too
        pytest.fail(f"cannot open a Spark Connect session on {ember_server.url}: {exc}\n"
                    f"{ember_server.output()}", pytrace=False)
    yield spark
    try:
        spark.stop()
    except Exception:  # noqa: BLE001 - the server is going away anyway
        pass


@pytest.fixture(scope="session")
def oracle(tmp_path_factory):
    """A classic local Apache Spark session: the expected results."""
    from pyspark.sql import SparkSession

    warehouse = tmp_path_factory.mktemp("oracle-warehouse")

    # Opening a remote session marks the process as Spark Connect mode; the oracle must
    # stay classic whichever fixture ran first.
    os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
    os.environ.pop("SPARK_REMOTE", None)
    builder = (SparkSession.builder
               .master("local[2]")
               .config("spark.api.mode", "classic")
               .appName("ember-oracle")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.warehouse.dir", str(warehouse))
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.extraJavaOptions", "-Duser.timezone=UTC")
               .config("spark.executor.extraJavaOptions", "-Duser.timezone=UTC"))
    if os.environ.get("EMBER_ORACLE_MEMORY"):
        # The larger TPC data sets need a larger JVM heap than Spark's default 1g.
        builder = builder.config("spark.driver.memory", os.environ["EMBER_ORACLE_MEMORY"])
    for key, value in SESSION_CONF.items():
        builder = builder.config(key, value)
    # A Spark Connect session created earlier in the run switches PySpark's
    # builder to Spark Connect; the oracle must be classic.
    with api_mode(connect=False):
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
    yield spark
    with api_mode(connect=False):
        spark.stop()


class SparkConnectOracle:
    """Apache Spark's own Spark Connect server (the pinned PySpark's jars) on a free port.

    Some semantics exist only over Spark Connect: DataFrame column references carry the plan id
    of their DataFrame (self-joins, df["*"]), which a classic session resolves differently.
    """

    def __init__(self):
        import pyspark

        self.port = _free_port()
        self._dir = tempfile.TemporaryDirectory(prefix="spark-connect-oracle-")
        self.log_path = Path(self._dir.name) / "server.log"
        spark_home = Path(pyspark.__file__).parent
        env = dict(os.environ, TZ="UTC", SPARK_HOME=str(spark_home))
        env.pop("SPARK_REMOTE", None)
        env.pop("SPARK_CONNECT_MODE_ENABLED", None)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [str(spark_home / "bin" / "spark-submit"), "--master", "local[2]",
                 "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
                 "--conf", f"spark.connect.grpc.binding.port={self.port}",
                 "--conf", "spark.ui.enabled=false",
                 "--conf", "spark.sql.shuffle.partitions=2",
                 "--conf", f"spark.sql.warehouse.dir={Path(self._dir.name) / 'warehouse'}",
                 "--conf", "spark.driver.extraJavaOptions=-Duser.timezone=UTC",
                 "spark-internal"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                cwd=self._dir.name)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"Spark Connect oracle exited early:\n{_tail(self.log_path)}",
                            pytrace=False)
            if _port_open(self.port):
                return
            time.sleep(0.2)
        self.stop()
        pytest.fail(f"Spark Connect oracle did not start:\n{_tail(self.log_path)}", pytrace=False)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._dir.cleanup()


@pytest.fixture(scope="session")
def connect_oracle(ember):
    """A Spark Connect session on Apache Spark's own Connect server: the expected results of
    programs whose meaning depends on Spark Connect (plan ids of DataFrame columns)."""
    from pyspark.sql.connect.session import SparkSession as RemoteSparkSession

    # `ember` first: the Connect builder's getOrCreate would otherwise hand this session out.
    del ember
    server = SparkConnectOracle()
    builder = RemoteSparkSession.builder.remote(f"sc://127.0.0.1:{server.port}")
    for key, value in SESSION_CONF.items():
        builder = builder.config(key, value)
    spark = builder.create()
    yield spark
    try:
        spark.stop()
    except Exception:  # noqa: BLE001 - the server is going away anyway
        pass
    server.stop()


@pytest.fixture(scope="session")
def connect_differ(connect_oracle, ember) -> Differ:
    """The diff checks with Spark's Connect server as the oracle."""
    return Differ(ember, connect_oracle)


@pytest.fixture(scope="session")
def differ(oracle, ember) -> Differ:
    return Differ(ember, oracle)


@pytest.fixture
def diff(differ):
    """diff(program, ordered=None, approx=1e-9): same columns, types and rows."""
    return differ.diff


@pytest.fixture
def diff_error(differ):
    """diff_error(program, error_class): both engines raise that error class."""
    return differ.diff_error


@pytest.fixture
def cdiff(connect_differ):
    """diff against Spark's Connect server (where Spark Connect and classic Spark differ)."""
    return connect_differ.diff


@pytest.fixture
def cdiff_error(connect_differ):
    """diff_error against Spark's Connect server."""
    return connect_differ.diff_error


@pytest.fixture
def diff_show(differ):
    """diff_show(program, **show_args): both print the same df.show() text."""
    return differ.diff_show
