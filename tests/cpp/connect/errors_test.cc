// Spark-style errors as gRPC statuses, the way PySpark reads them.

#include "connect/errors.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "common/json.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace ember::connect {
namespace {

google::rpc::ErrorInfo error_info(const grpc::Status& status) {
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.details_size(), 1);
  google::rpc::ErrorInfo info;
  EXPECT_TRUE(details.details(0).UnpackTo(&info));
  return info;
}

ErrorReport report_of(std::exception_ptr e) { return describe_exception(e); }

TEST(ConnectErrors, AnalysisErrorCarriesWhatPySparkReads) {
  SparkError e(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITH_SUGGESTION",
               "A column, variable, or function parameter with name `idx` cannot be resolved.",
               {{"objectName", "`idx`"}, {"proposal", "`id`"}});
  ErrorStore store;
  grpc::Status status = to_status(describe_error(e), &store);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(status.error_message(),
            "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with "
            "name `idx` cannot be resolved. SQLSTATE: 42703");

  google::rpc::ErrorInfo info = error_info(status);
  EXPECT_EQ(info.reason(), "org.apache.spark.sql.AnalysisException");
  EXPECT_EQ(info.domain(), "org.apache.spark");
  const auto& md = info.metadata();
  EXPECT_EQ(md.at("errorClass"), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
  EXPECT_EQ(md.at("sqlState"), "42703");
  JsonValue params = parse_json(md.at("messageParameters"));
  EXPECT_EQ(params.get_string("proposal"), "`id`");
  JsonValue classes = parse_json(md.at("classes"));
  ASSERT_EQ(classes.kind, JsonValue::Kind::kArray);
  EXPECT_EQ(classes.items[0].text, "org.apache.spark.sql.AnalysisException");
  EXPECT_EQ(classes.items.back().text, "java.lang.Object");

  // The full report is kept for FetchErrorDetails, once.
  ErrorReport stored;
  ASSERT_TRUE(store.take(md.at("errorId"), &stored));
  EXPECT_EQ(stored.error_class, "UNRESOLVED_COLUMN.WITH_SUGGESTION");
  EXPECT_FALSE(store.take(md.at("errorId"), &stored));

  spark::connect::FetchErrorDetailsResponse details;
  fill_error_details(stored, &details);
  ASSERT_EQ(details.errors_size(), 1);
  EXPECT_EQ(details.root_error_idx(), 0);
  EXPECT_EQ(details.errors(0).error_type_hierarchy(0), "org.apache.spark.sql.AnalysisException");
  EXPECT_EQ(details.errors(0).spark_throwable().message_parameters().at("objectName"), "`idx`");
}

TEST(ConnectErrors, KindsMapToTheJvmClassesPySparkKnows) {
  struct Case {
    ErrorKind kind;
    std::string error_class;
    std::string first;
  };
  std::vector<Case> cases = {
      {ErrorKind::kParse, "PARSE_SYNTAX_ERROR",
       "org.apache.spark.sql.catalyst.parser.ParseException"},
      {ErrorKind::kArithmetic, "DIVIDE_BY_ZERO", "org.apache.spark.SparkArithmeticException"},
      {ErrorKind::kNumberFormat, "CAST_INVALID_INPUT",
       "org.apache.spark.SparkNumberFormatException"},
      {ErrorKind::kDateTime, "X", "org.apache.spark.SparkDateTimeException"},
      {ErrorKind::kIllegalArgument, "X", "org.apache.spark.SparkIllegalArgumentException"},
      {ErrorKind::kUnsupportedOperation, "X",
       "org.apache.spark.SparkUnsupportedOperationException"},
      {ErrorKind::kRuntime, "X", "org.apache.spark.SparkRuntimeException"},
      {ErrorKind::kInternal, "INTERNAL_ERROR", "org.apache.spark.SparkException"},
      {ErrorKind::kRuntime, "SQL_CONF_NOT_FOUND", "org.apache.spark.SparkNoSuchElementException"},
      {ErrorKind::kRuntime, "INVALID_HANDLE.SESSION_NOT_FOUND",
       "org.apache.spark.SparkSQLException"},
      {ErrorKind::kInterrupted, "OPERATION_CANCELED", "org.apache.spark.SparkSQLException"},
  };
  for (const auto& c : cases) {
    ErrorReport r = describe_error(SparkError(c.kind, c.error_class, "m"));
    ASSERT_FALSE(r.classes.empty());
    EXPECT_EQ(r.classes[0], c.first) << c.error_class;
  }
  // Arithmetic errors are also java.lang.ArithmeticException, which PySpark maps.
  ErrorReport r = describe_error(SparkError(ErrorKind::kArithmetic, "DIVIDE_BY_ZERO", "m"));
  EXPECT_NE(std::find(r.classes.begin(), r.classes.end(), "java.lang.ArithmeticException"),
            r.classes.end());
}

TEST(ConnectErrors, OtherExceptionsAreInternalErrors) {
  ErrorReport r = report_of(std::make_exception_ptr(std::runtime_error("boom")));
  EXPECT_EQ(r.error_class, "INTERNAL_ERROR");
  EXPECT_EQ(r.classes[0], "org.apache.spark.SparkException");
  EXPECT_EQ(r.message, "[INTERNAL_ERROR] boom SQLSTATE: XX000");
  ErrorReport unknown = report_of(std::make_exception_ptr(42));
  EXPECT_EQ(unknown.error_class, "INTERNAL_ERROR");
}

TEST(ConnectErrors, LongMessagesAreTruncatedInTheStatusOnly) {
  std::string text(10000, 'x');
  text += "\xe6\x97\xa5";  // a multi-byte character at the end must not be split
  ErrorReport r = describe_error(SparkError(ErrorKind::kRuntime, "X", text));
  ErrorStore store;
  grpc::Status status = to_status(r, &store);
  EXPECT_LE(status.error_message().size(), 2048u);
  google::rpc::ErrorInfo info = error_info(status);
  ErrorReport full;
  ASSERT_TRUE(store.take(info.metadata().at("errorId"), &full));
  EXPECT_GT(full.message.size(), 10000u);
}

TEST(ConnectErrors, StoreIsBounded) {
  ErrorStore store;
  std::string first = store.put(ErrorReport{});
  for (int k = 0; k < 100; ++k) store.put(ErrorReport{});
  ErrorReport r;
  EXPECT_FALSE(store.take(first, &r));
}

TEST(ConnectErrors, HelpersRaiseSparkErrorClasses) {
  try {
    throw_invalid_handle("OPERATION_NOT_FOUND", "abc");
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "INVALID_HANDLE.OPERATION_NOT_FOUND");
    // The reattaching client looks for the class name in the message.
    EXPECT_NE(describe_error(e).message.find("INVALID_HANDLE.OPERATION_NOT_FOUND"),
              std::string::npos);
  }
  try {
    throw_not_supported("Relation type SQL");
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_FEATURE");
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupportedOperation);
  }
}

}  // namespace
}  // namespace ember::connect
