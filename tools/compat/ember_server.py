"""Starts an `ember server` on a free loopback port for the compatibility tools."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = ROOT / "build" / "release" / "ember"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary: Path) -> tuple[subprocess.Popen, str]:
    """Runs `binary server` and waits until it accepts connections; returns the process and the
    Spark Connect URL to reach it."""
    port = free_port()
    # Python UDFs run in workers of the interpreter running this tool (it has PySpark) unless
    # PYSPARK_PYTHON names another.
    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    proc = subprocess.Popen([str(binary), "server", "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                return proc, f"sc://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"ember server did not start on port {port}")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
