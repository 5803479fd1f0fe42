#pragma once

#include <grpcpp/support/status.h>

#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "spark/connect/base.pb.h"

namespace ember::connect {

/// Everything the client may learn about one failure: the JVM exception class hierarchy that
/// PySpark maps to its exception types, the error class, parameters, SQLSTATE and message.
struct ErrorReport {
  std::vector<std::string> classes;  // most specific first, as Spark sends them
  std::string error_class;
  std::map<std::string, std::string> params;
  std::string sql_state;
  std::string message;  // "[CLASS] text SQLSTATE: xxxxx", as Spark's getMessage renders it
  /// Where in the SQL statement the error arose (Spark's SQL query context): character
  /// offsets (stop inclusive), the text there and the "== SQL ==" summary.
  struct SqlContext {
    int start = -1, stop = -1;
    std::string fragment, summary;
  };
  std::vector<SqlContext> contexts;
};

/// Describes the exception `e` as Spark would: SparkErrors keep their class and kind; any other
/// exception is an internal error (a bug in Ember) reported as INTERNAL_ERROR.
ErrorReport describe_exception(const std::exception_ptr& e);
ErrorReport describe_error(const SparkError& e);

/// Remembers recent failures of a session by error id so that FetchErrorDetails can return the
/// full message when the gRPC status carried a truncated one. Bounded: the oldest are dropped.
class ErrorStore {
 public:
  std::string put(ErrorReport report);
  /// Removes and returns the report, or false when unknown (expired or already fetched).
  bool take(const std::string& error_id, ErrorReport* out);

 private:
  static constexpr size_t kCapacity = 64;
  std::mutex mu_;
  std::vector<std::pair<std::string, ErrorReport>> reports_;  // oldest first
};

/// Builds the gRPC status of a failed request: code INTERNAL, message `[CLASS] ...` (truncated
/// to what gRPC trailers carry comfortably) and a serialized google.rpc.Status detail holding an
/// ErrorInfo with the metadata PySpark reads (classes, errorClass, messageParameters, sqlState
/// and, when `store` is given, errorId).
grpc::Status to_status(const ErrorReport& report, ErrorStore* store);

/// Fills a FetchErrorDetails response from a stored report.
void fill_error_details(const ErrorReport& report, spark::connect::FetchErrorDetailsResponse* out);

/// Helpers that throw the errors the service itself raises.
[[noreturn]] void throw_invalid_handle(const std::string& sub_class, const std::string& handle);
[[noreturn]] void throw_invalid_plan(const std::string& sub_class, const std::string& message,
                                     std::map<std::string, std::string> params = {});
/// An UNSUPPORTED_FEATURE error naming a protocol feature Ember does not implement yet
/// ("Relation type SQL").
[[noreturn]] void throw_not_supported(const std::string& what);

}  // namespace ember::connect
