// The Spark Connect protocol is generated at build time from the pinned
// PySpark's descriptors. These tests check that the generated messages and
// the gRPC service are usable from C++ (they compile, link and round-trip),
// and that the fields the server relies on are present in this version.

#include <google/protobuf/any.pb.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <string>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "spark/connect/base.grpc.pb.h"
#include "spark/connect/base.pb.h"

namespace {

TEST(ConnectProto, ExecutePlanRequestRoundTrips) {
  spark::connect::ExecutePlanRequest request;
  request.set_session_id("00000000-0000-0000-0000-000000000001");
  request.set_operation_id("op-1");  // proto3 `optional` field
  auto* range = request.mutable_plan()->mutable_root()->mutable_range();
  range->set_start(0);
  range->set_end(10);
  range->set_step(1);
  request.mutable_user_context()->set_user_id("tester");

  std::string bytes;
  ASSERT_TRUE(request.SerializeToString(&bytes));
  spark::connect::ExecutePlanRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_TRUE(parsed.has_operation_id());
  EXPECT_EQ(parsed.plan().root().rel_type_case(), spark::connect::Relation::kRange);
  EXPECT_EQ(parsed.plan().root().range().end(), 10);
}

TEST(ConnectProto, ExpressionTreesNest) {
  spark::connect::Expression expr;
  auto* fn = expr.mutable_unresolved_function();
  fn->set_function_name("sum");
  fn->add_arguments()->mutable_unresolved_attribute()->set_unparsed_identifier("amount");
  EXPECT_EQ(expr.expr_type_case(), spark::connect::Expression::kUnresolvedFunction);
  EXPECT_EQ(expr.unresolved_function().arguments(0).unresolved_attribute().unparsed_identifier(),
            "amount");
}

TEST(ConnectProto, ErrorDetailsPackIntoStatus) {
  google::rpc::ErrorInfo info;
  info.set_reason("org.apache.spark.sql.AnalysisException");
  info.set_domain("org.apache.spark");
  (*info.mutable_metadata())["errorClass"] = "UNRESOLVED_COLUMN.WITH_SUGGESTION";

  google::rpc::Status status;
  status.set_code(grpc::StatusCode::INTERNAL);
  status.set_message("[UNRESOLVED_COLUMN.WITH_SUGGESTION] ...");
  status.add_details()->PackFrom(info);

  google::rpc::ErrorInfo unpacked;
  ASSERT_TRUE(status.details(0).UnpackTo(&unpacked));
  EXPECT_EQ(unpacked.metadata().at("errorClass"), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
}

TEST(ConnectProto, ServiceHasTheSparkConnectMethods) {
  // Instantiating the generated service pulls in the gRPC runtime at link time.
  spark::connect::SparkConnectService::Service service;
  EXPECT_STREQ(spark::connect::SparkConnectService::service_full_name(),
               "spark.connect.SparkConnectService");
  const auto* descriptor =
      spark::connect::ExecutePlanRequest::descriptor()->file()->FindServiceByName(
          "SparkConnectService");
  ASSERT_NE(descriptor, nullptr);
  EXPECT_EQ(descriptor->full_name(), "spark.connect.SparkConnectService");
  for (const char* method :
       {"ExecutePlan", "AnalyzePlan", "Config", "AddArtifacts", "ArtifactStatus", "Interrupt",
        "ReattachExecute", "ReleaseExecute", "FetchErrorDetails"}) {
    EXPECT_NE(descriptor->FindMethodByName(method), nullptr) << method;
  }
}

}  // namespace
