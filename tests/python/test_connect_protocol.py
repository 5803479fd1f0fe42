"""The Spark Connect protocol as Ember serves it, checked with raw gRPC calls:
response identifiers, reattachable execution, releases, interrupts, sessions,
artifacts, error details, and robustness against malformed requests. These
tests need only the Ember server (no oracle): they check the protocol
contract PySpark relies on, which Apache Spark defines.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
import zlib

import grpc
import pyarrow as pa
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import pyspark.sql.connect.proto as pb
from pyspark.sql.connect.proto import base_pb2_grpc


@pytest.fixture(scope="module")
def stub(ember_server):
    channel = grpc.insecure_channel(f"127.0.0.1:{ember_server.port}")
    yield base_pb2_grpc.SparkConnectServiceStub(channel)
    channel.close()


@pytest.fixture
def session_id():
    return str(uuid.uuid4())


def range_plan(end: int) -> pb.Plan:
    return pb.Plan(root=pb.Relation(range=pb.Range(end=end, step=1)))


def execute_request(session_id: str, plan: pb.Plan, operation_id: str | None = None,
                    reattachable: bool = False, tags=()) -> pb.ExecutePlanRequest:
    req = pb.ExecutePlanRequest(session_id=session_id, plan=plan,
                                user_context=pb.UserContext(user_id="tester"), tags=list(tags))
    if operation_id:
        req.operation_id = operation_id
    if reattachable:
        req.request_options.append(pb.ExecutePlanRequest.RequestOption(
            reattach_options=pb.ReattachOptions(reattachable=True)))
    return req


def set_conf(stub, session_id: str, key: str, value: str) -> None:
    stub.Config(pb.ConfigRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        operation=pb.ConfigRequest.Operation(
            set=pb.ConfigRequest.Set(pairs=[pb.KeyValue(key=key, value=value)]))))


def rows_of(responses) -> list[int]:
    ids = []
    for r in responses:
        if r.HasField("arrow_batch"):
            table = pa.ipc.open_stream(r.arrow_batch.data).read_all()
            assert table.num_rows == r.arrow_batch.row_count
            ids.extend(table.column(0).to_pylist())
    return ids


def error_class(exc: grpc.RpcError) -> str | None:
    status = rpc_status.from_call(exc)
    if status is None:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.metadata.get("errorClass")
    return None


def test_execute_streams_schema_batches_and_completion(stub, session_id):
    op_id = str(uuid.uuid4())
    responses = list(stub.ExecutePlan(execute_request(session_id, range_plan(5), op_id)))
    assert responses[0].HasField("schema")
    assert responses[0].schema.struct.fields[0].name == "id"
    assert responses[-1].HasField("result_complete")
    assert rows_of(responses) == [0, 1, 2, 3, 4]
    server_ids = {r.server_side_session_id for r in responses}
    assert len(server_ids) == 1 and server_ids.pop()
    assert {r.session_id for r in responses} == {session_id}
    assert {r.operation_id for r in responses} == {op_id}
    response_ids = [r.response_id for r in responses]
    assert len(set(response_ids)) == len(response_ids)
    offsets = [r.arrow_batch.start_offset for r in responses if r.HasField("arrow_batch")]
    assert offsets[0] == 0


def test_empty_result_still_sends_an_arrow_batch(stub, session_id):
    responses = list(stub.ExecutePlan(execute_request(session_id, range_plan(0))))
    batches = [r for r in responses if r.HasField("arrow_batch")]
    assert len(batches) == 1 and batches[0].arrow_batch.row_count == 0
    schema = pa.ipc.open_stream(batches[0].arrow_batch.data).schema
    assert schema.names == ["id"]


def test_results_are_rechunked_by_max_records_per_batch(stub, session_id):
    set_conf(stub, session_id, "spark.sql.execution.arrow.maxRecordsPerBatch", "7")
    responses = list(stub.ExecutePlan(execute_request(session_id, range_plan(50))))
    batches = [r.arrow_batch for r in responses if r.HasField("arrow_batch")]
    assert all(b.row_count <= 7 for b in batches)
    assert rows_of(responses) == list(range(50))
    offset = 0
    for b in batches:
        assert b.start_offset == offset
        offset += b.row_count


def test_reattach_resumes_after_the_last_response_seen(stub, session_id):
    set_conf(stub, session_id, "spark.sql.execution.arrow.maxRecordsPerBatch", "10")
    op_id = str(uuid.uuid4())
    call = stub.ExecutePlan(execute_request(session_id, range_plan(100), op_id, reattachable=True))
    first = [next(call), next(call), next(call)]
    call.cancel()  # the stream breaks, the operation stays
    time.sleep(0.3)
    rest = list(stub.ReattachExecute(pb.ReattachExecuteRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        operation_id=op_id, last_response_id=first[-1].response_id)))
    assert rest[-1].HasField("result_complete")
    assert rows_of(first + rest) == list(range(100))

    # Reattaching from the start replays everything that was not released.
    again = list(stub.ReattachExecute(pb.ReattachExecuteRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"), operation_id=op_id)))
    assert rows_of(again) == list(range(100))

    # Released up to a response, earlier positions are gone.
    stub.ReleaseExecute(pb.ReleaseExecuteRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"), operation_id=op_id,
        release_until=pb.ReleaseExecuteRequest.ReleaseUntil(response_id=first[1].response_id)))
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReattachExecute(pb.ReattachExecuteRequest(
            session_id=session_id, user_context=pb.UserContext(user_id="tester"),
            operation_id=op_id)))
    assert error_class(exc.value) == "INVALID_CURSOR.POSITION_NOT_AVAILABLE"

    # After release_all the operation is gone.
    response = stub.ReleaseExecute(pb.ReleaseExecuteRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"), operation_id=op_id,
        release_all=pb.ReleaseExecuteRequest.ReleaseAll()))
    assert response.operation_id == op_id
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ReattachExecute(pb.ReattachExecuteRequest(
            session_id=session_id, user_context=pb.UserContext(user_id="tester"),
            operation_id=op_id)))
    assert error_class(exc.value) == "INVALID_HANDLE.OPERATION_NOT_FOUND"
    assert "INVALID_HANDLE.OPERATION_NOT_FOUND" in exc.value.details()


def test_operation_ids_are_unique_and_well_formed(stub, session_id):
    op_id = str(uuid.uuid4())
    call = stub.ExecutePlan(execute_request(session_id, range_plan(10), op_id, reattachable=True))
    next(call)
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, range_plan(10), op_id)))
    assert error_class(exc.value) == "INVALID_HANDLE.OPERATION_ALREADY_EXISTS"
    list(call)
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, range_plan(10), "not-a-uuid")))
    assert error_class(exc.value) == "INVALID_HANDLE.FORMAT"
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request("not-a-uuid", range_plan(10))))
    assert error_class(exc.value) == "INVALID_HANDLE.FORMAT"


def _run_long_query(stub, session_id, op_id, tags, outcome):
    # A scan of many rows that returns none: long enough to be interrupted.
    condition = pb.Expression(unresolved_function=pb.Expression.UnresolvedFunction(
        function_name="<", arguments=[
            pb.Expression(unresolved_attribute=pb.Expression.UnresolvedAttribute(
                unparsed_identifier="id")),
            pb.Expression(literal=pb.Expression.Literal(long=-1))]))
    plan = pb.Plan(root=pb.Relation(filter=pb.Filter(
        input=pb.Relation(range=pb.Range(end=50_000_000_000, step=1)), condition=condition)))
    try:
        outcome["responses"] = list(stub.ExecutePlan(
            execute_request(session_id, plan, op_id, tags=tags)))
    except grpc.RpcError as exc:
        outcome["error"] = exc


@pytest.mark.parametrize("how", ["all", "tag", "operation_id"])
def test_interrupt_stops_a_running_operation(stub, session_id, how):
    op_id = str(uuid.uuid4())
    outcome = {}
    thread = threading.Thread(target=_run_long_query,
                              args=(stub, session_id, op_id, ["my-tag"], outcome))
    thread.start()
    time.sleep(1.0)
    request = pb.InterruptRequest(session_id=session_id,
                                  user_context=pb.UserContext(user_id="tester"))
    if how == "all":
        request.interrupt_type = pb.InterruptRequest.INTERRUPT_TYPE_ALL
    elif how == "tag":
        request.interrupt_type = pb.InterruptRequest.INTERRUPT_TYPE_TAG
        request.operation_tag = "my-tag"
    else:
        request.interrupt_type = pb.InterruptRequest.INTERRUPT_TYPE_OPERATION_ID
        request.operation_id = op_id
    response = stub.Interrupt(request)
    assert list(response.interrupted_ids) == [op_id]
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert "error" in outcome
    assert error_class(outcome["error"]) == "OPERATION_CANCELED"


def test_released_session_cannot_be_used_again(stub, session_id):
    list(stub.ExecutePlan(execute_request(session_id, range_plan(1))))
    response = stub.ReleaseSession(pb.ReleaseSessionRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester")))
    assert response.session_id == session_id and response.server_side_session_id
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, range_plan(1))))
    assert error_class(exc.value) == "INVALID_HANDLE.SESSION_CLOSED"


def test_changed_server_side_session_is_reported(stub, session_id):
    request = execute_request(session_id, range_plan(1))
    request.client_observed_server_side_session_id = str(uuid.uuid4())
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(request))
    assert error_class(exc.value) == "INVALID_HANDLE.SESSION_CHANGED"


def test_error_details_can_be_fetched_once(stub, session_id):
    plan = pb.Plan(root=pb.Relation(project=pb.Project(
        input=pb.Relation(range=pb.Range(end=3, step=1)),
        expressions=[pb.Expression(unresolved_attribute=pb.Expression.UnresolvedAttribute(
            unparsed_identifier="nope"))])))
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, plan)))
    assert exc.value.code() == grpc.StatusCode.INTERNAL
    status = rpc_status.from_call(exc.value)
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    assert info.domain == "org.apache.spark"
    assert info.reason == "org.apache.spark.sql.AnalysisException"
    assert info.metadata["errorClass"].startswith("UNRESOLVED_COLUMN")
    details = stub.FetchErrorDetails(pb.FetchErrorDetailsRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        error_id=info.metadata["errorId"]))
    assert details.root_error_idx == 0
    error = details.errors[0]
    assert error.error_type_hierarchy[0] == "org.apache.spark.sql.AnalysisException"
    assert error.spark_throwable.error_class == info.metadata["errorClass"]
    assert error.message.startswith("[UNRESOLVED_COLUMN")
    again = stub.FetchErrorDetails(pb.FetchErrorDetailsRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        error_id=info.metadata["errorId"]))
    assert len(again.errors) == 0


def test_artifacts_are_stored_and_reported(stub, session_id):
    blob = b"some cached bytes"
    name = "cache/" + "ab" * 32

    def requests():
        yield pb.AddArtifactsRequest(
            session_id=session_id, user_context=pb.UserContext(user_id="tester"),
            batch=pb.AddArtifactsRequest.Batch(artifacts=[
                pb.AddArtifactsRequest.SingleChunkArtifact(
                    name=name, data=pb.AddArtifactsRequest.ArtifactChunk(
                        data=blob, crc=zlib.crc32(blob)))]))
        chunks = [b"a" * 10, b"b" * 10, b"c" * 3]
        yield pb.AddArtifactsRequest(
            session_id=session_id, user_context=pb.UserContext(user_id="tester"),
            begin_chunk=pb.AddArtifactsRequest.BeginChunkedArtifact(
                name="cache/chunked", total_bytes=23, num_chunks=3,
                initial_chunk=pb.AddArtifactsRequest.ArtifactChunk(
                    data=chunks[0], crc=zlib.crc32(chunks[0]))))
        for c in chunks[1:]:
            yield pb.AddArtifactsRequest(
                session_id=session_id, user_context=pb.UserContext(user_id="tester"),
                chunk=pb.AddArtifactsRequest.ArtifactChunk(data=c, crc=zlib.crc32(c)))

    response = stub.AddArtifacts(requests())
    summaries = {a.name: a.is_crc_successful for a in response.artifacts}
    assert summaries == {name: True, "cache/chunked": True}
    statuses = stub.ArtifactStatus(pb.ArtifactStatusesRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        names=[name, "cache/chunked", "cache/unknown"])).statuses
    assert statuses[name].exists and statuses["cache/chunked"].exists
    assert not statuses["cache/unknown"].exists


def test_get_status_reports_operations(stub, session_id):
    op_id = str(uuid.uuid4())
    call = stub.ExecutePlan(execute_request(session_id, range_plan(10), op_id, reattachable=True))
    list(call)
    response = stub.GetStatus(pb.GetStatusRequest(
        session_id=session_id, user_context=pb.UserContext(user_id="tester"),
        operation_status=pb.GetStatusRequest.OperationStatusRequest(
            operation_ids=[op_id, str(uuid.uuid4())])))
    states = [s.state for s in response.operation_statuses]
    State = pb.GetStatusResponse.OperationStatus
    assert states == [State.OPERATION_STATE_SUCCEEDED, State.OPERATION_STATE_UNKNOWN]


def test_unsupported_rpcs_and_plans_fail_cleanly(stub, session_id):
    plan = pb.Plan(root=pb.Relation(as_of_join=pb.AsOfJoin(
        left=pb.Relation(range=pb.Range(end=3, step=1)), right=pb.Relation(range=pb.Range(end=3, step=1)))))
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, plan)))
    assert error_class(exc.value) == "UNSUPPORTED_FEATURE"
    assert "AS_OF_JOIN" in exc.value.details()
    compressed = pb.Plan(compressed_operation=pb.Plan.CompressedOperation(
        data=b"\x28\xb5\x2f\xfd", op_type=pb.Plan.CompressedOperation.OP_TYPE_RELATION))
    with pytest.raises(grpc.RpcError) as exc:
        list(stub.ExecutePlan(execute_request(session_id, compressed)))
    assert error_class(exc.value) == "CONNECT_INVALID_PLAN.CANNOT_PARSE"


def test_server_survives_garbage_and_truncated_requests(ember_server, stub, session_id):
    for payload in [os.urandom(2000), b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + os.urandom(512)]:
        with socket.create_connection(("127.0.0.1", ember_server.port), timeout=5) as sock:
            sock.sendall(payload)
            sock.settimeout(2)
            try:
                sock.recv(100)
            except OSError:
                pass

    channel = grpc.insecure_channel(f"127.0.0.1:{ember_server.port}")
    raw = execute_request(session_id, range_plan(10)).SerializeToString()
    execute = channel.unary_stream("/spark.connect.SparkConnectService/ExecutePlan",
                                   request_serializer=lambda b: b,
                                   response_deserializer=lambda b: b)
    analyze = channel.unary_unary("/spark.connect.SparkConnectService/AnalyzePlan",
                                  request_serializer=lambda b: b,
                                  response_deserializer=lambda b: b)
    for blob in [raw[: len(raw) // 2], raw[:-1], os.urandom(300), b"\xff" * 64]:
        for call in (lambda b: list(execute(b)), analyze):
            try:
                call(blob)
            except grpc.RpcError as exc:
                assert exc.code() != grpc.StatusCode.UNAVAILABLE
    channel.close()

    # Well-formed messages that make no sense are errors too.
    for plan in [pb.Plan(), pb.Plan(root=pb.Relation()),
                 pb.Plan(root=pb.Relation(project=pb.Project(expressions=[pb.Expression()]))),
                 pb.Plan(root=pb.Relation(local_relation=pb.LocalRelation(data=b"not arrow")))]:
        with pytest.raises(grpc.RpcError) as exc:
            list(stub.ExecutePlan(execute_request(session_id, plan)))
        assert exc.value.code() == grpc.StatusCode.INTERNAL

    assert ember_server.process.poll() is None
    assert rows_of(stub.ExecutePlan(execute_request(session_id, range_plan(3)))) == [0, 1, 2]
