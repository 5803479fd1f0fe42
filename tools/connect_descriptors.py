#!/usr/bin/env python3
"""Writes the Spark Connect protocol as one protobuf FileDescriptorSet.

The pinned PySpark release carries the protocol in its generated ``*_pb2``
modules, each of which embeds its serialized ``FileDescriptorProto``. This
script imports every ``pyspark.sql.connect.proto.*_pb2`` module and the
``google.rpc`` status and error-details modules, collects their descriptors
together with all transitive dependencies (the protobuf well-known types
included), and writes them, dependencies first, as a single
``FileDescriptorSet``. The build feeds that set to ``protoc
--descriptor_set_in`` so that no ``.proto`` file is ever kept in the
repository.

Usage:
  connect_descriptors.py --out FILE   write the descriptor set
  connect_descriptors.py --list       print the files to generate C++ for,
                                      one per line (no well-known types)
  connect_descriptors.py --spark-version
                                      print the PySpark version
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import warnings

# The files C++ code is generated for, besides spark/connect/*.proto. The
# well-known types (google/protobuf/*.proto) are only carried as dependencies:
# their C++ code comes with the protobuf runtime library.
GOOGLE_RPC_MODULES = ("google.rpc.status_pb2", "google.rpc.error_details_pb2")
GENERATED_PREFIXES = ("spark/connect/", "google/rpc/")

# Syntax values that protoc 3.21 understands. Editions appeared later.
SUPPORTED_SYNTAX = ("", "proto2", "proto3")


def _quiet_imports() -> None:
    # Importing pyspark.sql.connect checks optional dependencies and may warn
    # (for example about the pandas version); none of that matters here.
    warnings.simplefilter("ignore")


def connect_modules() -> list:
    """Imports and returns every pb2 module that defines the protocol."""
    import pyspark.sql.connect.proto as proto_pkg

    modules = []
    for info in sorted(pkgutil.iter_modules(proto_pkg.__path__), key=lambda m: m.name):
        if info.name.endswith("_pb2"):
            modules.append(importlib.import_module(f"{proto_pkg.__name__}.{info.name}"))
    if not modules:
        raise SystemExit("no pyspark.sql.connect.proto.*_pb2 modules found")
    for name in GOOGLE_RPC_MODULES:
        modules.append(importlib.import_module(name))
    return modules


def collect(modules) -> list:
    """Returns FileDescriptorProtos of the modules and their dependencies.

    The order is topological (every file after all files it imports), which
    is what protoc expects from a descriptor set it reads without a source
    tree.
    """
    from google.protobuf import descriptor_pb2

    ordered = []
    seen = set()

    def visit(file_descriptor) -> None:
        if file_descriptor.name in seen:
            return
        seen.add(file_descriptor.name)
        for dep in file_descriptor.dependencies:
            visit(dep)
        proto = descriptor_pb2.FileDescriptorProto.FromString(file_descriptor.serialized_pb)
        if proto.syntax not in SUPPORTED_SYNTAX:
            raise SystemExit(
                f"{proto.name}: syntax {proto.syntax!r} is newer than the protobuf compiler "
                "of the build supports")
        ordered.append(proto)

    for module in modules:
        visit(module.DESCRIPTOR)
    return ordered


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--out", help="path of the FileDescriptorSet to write")
    action.add_argument("--list", action="store_true",
                        help="print the .proto files to generate code for")
    action.add_argument("--spark-version", action="store_true",
                        help="print the version of the PySpark that provides the protocol")
    args = parser.parse_args(argv)

    _quiet_imports()
    if args.spark_version:
        import pyspark

        print(pyspark.__version__)
        return 0

    files = collect(connect_modules())
    if args.list:
        for proto in files:
            if proto.name.startswith(GENERATED_PREFIXES):
                print(proto.name)
        return 0

    from google.protobuf import descriptor_pb2

    descriptor_set = descriptor_pb2.FileDescriptorSet()
    descriptor_set.file.extend(files)
    data = descriptor_set.SerializeToString()
    out = os.path.abspath(args.out)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # Rewrite only on change so that the generated sources keep their
    # timestamps and nothing recompiles needlessly.
    try:
        with open(out, "rb") as existing:
            if existing.read() == data:
                return 0
    except FileNotFoundError:
        pass
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
