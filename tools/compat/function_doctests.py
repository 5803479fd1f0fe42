"""Runs the docstring examples of PySpark's Spark Connect function module against an Ember
server and reports, per function, whether all of its examples pass.

    .venv/bin/python tools/compat/function_doctests.py [--remote sc://host:port] [--binary PATH]
        [--json out.json] [-k substring]

Without --remote it starts `build/release/ember server` (or --binary) on a free port. The
examples come from the installed PySpark, so they are the pinned version's own.
"""

from __future__ import annotations

import argparse
import collections
import doctest
import json
import os
import re
import sys
import time
from pathlib import Path

from ember_server import DEFAULT_BINARY, start_server, stop_server


def first_error(out: str) -> str:
    """The error class or exception name of a failed example, for grouping failures."""
    m = re.search(r"\[([A-Z][A-Z0-9_.]+)\]", out)
    if m:
        return m.group(1)
    m = re.search(r"^(\w+(?:\.\w+)*(?:Error|Exception))", out, re.M)
    if m:
        return m.group(1).split(".")[-1]
    return "wrong result"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--remote")
    ap.add_argument("--binary", default=str(DEFAULT_BINARY))
    ap.add_argument("--json")
    ap.add_argument("-k", default="")
    ap.add_argument("-v", "--verbose", action="store_true", help="name each function as it runs and show the failing examples")
    args = ap.parse_args()
    os.environ.setdefault("TZ", "UTC")
    time.tzset()
    proc = None
    remote = args.remote
    if not remote:
        proc, remote = start_server(Path(args.binary))
    try:
        from pyspark.sql import SparkSession
        import pyspark.sql.connect.functions.builtin as module

        spark = SparkSession.builder.remote(remote).getOrCreate()
        globs = module.__dict__.copy()
        globs["spark"] = spark
        finder = doctest.DocTestFinder()
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL
        results = {}
        causes = collections.Counter()
        for test in sorted(finder.find(module, globs=globs), key=lambda t: t.name):
            if not test.examples or args.k not in test.name:
                continue
            name = test.name.rsplit(".", 1)[-1]
            out: list[str] = []
            if args.verbose:
                print(f"{name} ...", file=sys.stderr, flush=True)
            test.globs["spark"] = spark
            runner = doctest.DocTestRunner(optionflags=flags)
            runner.run(test, out=out.append, clear_globs=True)
            ok = runner.failures == 0
            cause = None if ok else first_error("".join(out))
            if proc and proc.poll() is not None:
                # The server died under this function's examples: count it, start a new one.
                ok, cause = False, "SERVER_CRASHED"
                print(f"ember server exited with status {proc.returncode} during {name}",
                      file=sys.stderr, flush=True)
                proc, remote = start_server(Path(args.binary))
                spark = SparkSession.builder.remote(remote).create()
            results[name] = {"ok": ok, "examples": len(test.examples), "failed": runner.failures,
                             "cause": cause}
            if not ok:
                causes[cause] += 1
                if args.verbose:
                    print("".join(out)[:4000], file=sys.stderr, flush=True)
        spark.stop()
    finally:
        if proc:
            stop_server(proc)
    passed = sum(1 for r in results.values() if r["ok"])
    print(f"functions with examples: {len(results)}; all examples pass: {passed} "
          f"({100.0 * passed / max(1, len(results)):.1f}%)")
    print("failures by first cause:")
    for cause, n in causes.most_common(25):
        print(f"  {n:4d}  {cause}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
