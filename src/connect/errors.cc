#include "connect/errors.h"

#include <algorithm>

#include "common/json.h"
#include "connect/uuid.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace ember::connect {

namespace {

// The tail every JVM exception hierarchy ends with.
const char* const kThrowable[] = {"java.lang.Exception", "java.lang.Throwable", "java.lang.Object"};

std::vector<std::string> hierarchy(std::initializer_list<const char*> specific) {
  std::vector<std::string> out(specific.begin(), specific.end());
  for (const char* c : kThrowable) out.emplace_back(c);
  return out;
}

std::vector<std::string> classes_for(ErrorKind kind, const std::string& error_class) {
  // A few error classes are raised by Spark with an exception type that differs from what
  // their family suggests; PySpark maps the type to its own exception class.
  const std::string family = error_class.substr(0, error_class.find('.'));
  if (family == "SQL_CONF_NOT_FOUND") {
    return hierarchy({"org.apache.spark.SparkNoSuchElementException",
                      "java.util.NoSuchElementException", "java.lang.RuntimeException"});
  }
  if (family == "INVALID_HANDLE" || family == "INVALID_CURSOR" || family == "OPERATION_CANCELED") {
    return hierarchy({"org.apache.spark.SparkSQLException", "java.sql.SQLException"});
  }
  if (family == "CONNECT_INVALID_PLAN") {
    return hierarchy(
        {"org.apache.spark.sql.connect.common.InvalidPlanInput", "java.lang.RuntimeException"});
  }
  switch (kind) {
    case ErrorKind::kAnalysis:
      return hierarchy({"org.apache.spark.sql.AnalysisException"});
    case ErrorKind::kParse:
      return hierarchy({"org.apache.spark.sql.catalyst.parser.ParseException",
                        "org.apache.spark.sql.AnalysisException"});
    case ErrorKind::kArithmetic:
      return hierarchy({"org.apache.spark.SparkArithmeticException",
                        "java.lang.ArithmeticException", "java.lang.RuntimeException"});
    case ErrorKind::kNumberFormat:
      return hierarchy({"org.apache.spark.SparkNumberFormatException",
                        "java.lang.NumberFormatException", "java.lang.IllegalArgumentException",
                        "java.lang.RuntimeException"});
    case ErrorKind::kDateTime:
      return hierarchy({"org.apache.spark.SparkDateTimeException", "java.time.DateTimeException",
                        "java.lang.RuntimeException"});
    case ErrorKind::kIllegalArgument:
      return hierarchy({"org.apache.spark.SparkIllegalArgumentException",
                        "java.lang.IllegalArgumentException", "java.lang.RuntimeException"});
    case ErrorKind::kUnsupportedOperation:
      return hierarchy({"org.apache.spark.SparkUnsupportedOperationException",
                        "java.lang.UnsupportedOperationException", "java.lang.RuntimeException"});
    case ErrorKind::kRuntime:
      return hierarchy({"org.apache.spark.SparkRuntimeException", "java.lang.RuntimeException"});
    case ErrorKind::kFileNotFound:
      return hierarchy({"org.apache.spark.SparkFileNotFoundException",
                        "java.io.FileNotFoundException", "java.io.IOException"});
    case ErrorKind::kPython:
      return hierarchy({"org.apache.spark.api.python.PythonException", "org.apache.spark.SparkException"});
    case ErrorKind::kInterrupted:
    case ErrorKind::kInternal:
      return hierarchy({"org.apache.spark.SparkException"});
  }
  return hierarchy({"org.apache.spark.SparkException"});
}

std::string render_message(const std::string& error_class, const std::string& text,
                           const std::string& sql_state) {
  std::string out = format_error(error_class, text);
  if (!sql_state.empty()) out += " SQLSTATE: " + sql_state;
  return out;
}

/// Cuts `s` to at most `limit` bytes without splitting a UTF-8 sequence.
std::string truncate_utf8(const std::string& s, size_t limit) {
  if (s.size() <= limit) return s;
  size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

std::string params_json(const std::map<std::string, std::string>& params) {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : params) {
    if (!first) out += ',';
    first = false;
    json_quote(out, k);
    out += ':';
    json_quote(out, v);
  }
  return out + "}";
}

std::string classes_json(const std::vector<std::string>& classes) {
  std::string out = "[";
  for (size_t i = 0; i < classes.size(); ++i) {
    if (i) out += ',';
    json_quote(out, classes[i]);
  }
  return out + "]";
}

// gRPC carries the status message and details in trailers; clients refuse trailers beyond a
// few KiB, so both are kept short. The full message stays available through errorId.
constexpr size_t kMaxStatusMessage = 2048;
constexpr size_t kMaxParamsJson = 2048;

/// The SQL query context of characters [start, stop] of `text`, which begin at `line`
/// (1-based), character `line_pos` (0-based): the fragment and Spark's summary block.
ErrorReport::SqlContext sql_context(const std::string& text, int start, int stop, int line,
                                    int line_pos) {
  ErrorReport::SqlContext c;
  c.start = start;
  c.stop = stop;
  auto is_lead = [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; };
  // Byte offsets of the characters, and the line the fragment starts on.
  int chars = -1, line_no = 1;
  size_t line_begin = 0, line_end = text.size(), frag_begin = text.size(), frag_end = text.size();
  for (size_t i = 0; i < text.size(); ++i) {
    if (is_lead(text[i])) {
      ++chars;
      if (chars == start) frag_begin = i;
      if (chars == stop + 1) frag_end = i;
    }
    if (text[i] == '\n') {
      if (line_no == line) {
        line_end = i;
      } else if (line_no < line) {
        line_begin = i + 1;
      }
      ++line_no;
    }
  }
  if (frag_begin < frag_end) c.fragment = text.substr(frag_begin, frag_end - frag_begin);
  std::string l = text.substr(line_begin, std::max(line_begin, line_end) - line_begin);
  int line_chars = 0;
  for (char ch : l) line_chars += is_lead(ch) ? 1 : 0;
  int width = std::max(1, std::min(stop - start + 1, line_chars - line_pos));
  c.summary = "\n== SQL (line " + std::to_string(line) + ", position " +
              std::to_string(line_pos + 1) + ") ==\n" + l + "\n" +
              std::string(static_cast<size_t>(std::max(0, line_pos)), ' ') +
              std::string(static_cast<size_t>(width), '^') + "\n";
  return c;
}

}  // namespace

ErrorReport describe_error(const SparkError& e) {
  ErrorReport r;
  r.error_class = e.error_class();
  r.params = e.params();
  r.sql_state = e.sql_state();
  r.classes = classes_for(e.kind(), e.error_class());
  r.message = render_message(e.error_class(), e.message(), r.sql_state);
  if (e.sql_text && e.start >= 0) {
    ErrorReport::SqlContext c = sql_context(*e.sql_text, e.start, e.stop, e.line, e.line_pos);
    // An analysis error names its place after the message, any other error shows it.
    if (e.kind() == ErrorKind::kAnalysis)
      r.message += "; line " + std::to_string(e.line) + " pos " + std::to_string(e.line_pos);
    else
      r.message += c.summary;
    r.contexts.push_back(std::move(c));
  }
  return r;
}

ErrorReport describe_exception(const std::exception_ptr& ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const SparkError& e) {
    return describe_error(e);
  } catch (const std::bad_alloc&) {
    SparkError e(ErrorKind::kInternal, "INTERNAL_ERROR", "Out of memory.",
                 {{"message", "Out of memory."}}, "XX000");
    return describe_error(e);
  } catch (const std::exception& e) {
    std::string what = e.what();
    SparkError se(ErrorKind::kInternal, "INTERNAL_ERROR", what, {{"message", what}}, "XX000");
    return describe_error(se);
  } catch (...) {
    SparkError se(ErrorKind::kInternal, "INTERNAL_ERROR", "Unknown error.",
                  {{"message", "Unknown error."}}, "XX000");
    return describe_error(se);
  }
}

std::string ErrorStore::put(ErrorReport report) {
  std::string id = new_uuid();
  std::lock_guard<std::mutex> lock(mu_);
  if (reports_.size() >= kCapacity) reports_.erase(reports_.begin());
  reports_.emplace_back(id, std::move(report));
  return id;
}

bool ErrorStore::take(const std::string& error_id, ErrorReport* out) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = std::find_if(reports_.begin(), reports_.end(),
                         [&](const auto& p) { return p.first == error_id; });
  if (it == reports_.end()) return false;
  *out = std::move(it->second);
  reports_.erase(it);
  return true;
}

grpc::Status to_status(const ErrorReport& report, ErrorStore* store) {
  google::rpc::ErrorInfo info;
  info.set_reason(report.classes.empty() ? "org.apache.spark.SparkException" : report.classes[0]);
  info.set_domain("org.apache.spark");
  auto& md = *info.mutable_metadata();
  md["classes"] = classes_json(report.classes);
  if (!report.error_class.empty()) md["errorClass"] = report.error_class;
  if (!report.sql_state.empty()) md["sqlState"] = report.sql_state;
  std::string params = params_json(report.params);
  if (params.size() <= kMaxParamsJson) md["messageParameters"] = params;
  const bool truncated =
      report.message.size() > kMaxStatusMessage || params.size() > kMaxParamsJson;
  if (store != nullptr) md["errorId"] = store->put(report);

  std::string message =
      truncated ? truncate_utf8(report.message, kMaxStatusMessage) : report.message;
  google::rpc::Status status;
  status.set_code(grpc::StatusCode::INTERNAL);
  status.set_message(message);
  status.add_details()->PackFrom(info);
  return grpc::Status(grpc::StatusCode::INTERNAL, message, status.SerializeAsString());
}

void fill_error_details(const ErrorReport& report, spark::connect::FetchErrorDetailsResponse* out) {
  out->set_root_error_idx(0);
  auto* err = out->add_errors();
  for (const auto& c : report.classes) err->add_error_type_hierarchy(c);
  err->set_message(report.message);
  auto* t = err->mutable_spark_throwable();
  if (!report.error_class.empty()) t->set_error_class(report.error_class);
  for (const auto& [k, v] : report.params) (*t->mutable_message_parameters())[k] = v;
  if (!report.sql_state.empty()) t->set_sql_state(report.sql_state);
  for (const auto& c : report.contexts) {
    auto* q = t->add_query_contexts();
    q->set_context_type(spark::connect::FetchErrorDetailsResponse_QueryContext_ContextType_SQL);
    q->set_start_index(c.start);
    q->set_stop_index(c.stop);
    q->set_fragment(c.fragment);
    q->set_summary(c.summary);
  }
}

void throw_invalid_handle(const std::string& sub_class, const std::string& handle) {
  static const std::map<std::string, std::string> kText = {
      {"FORMAT",
       "Handle must be an UUID string of the format '00112233-4455-6677-8899-aabbccddeeff'"},
      {"OPERATION_ABANDONED",
       "Operation was considered abandoned because of inactivity and removed."},
      {"OPERATION_ALREADY_EXISTS", "Operation already exists."},
      {"OPERATION_NOT_FOUND", "Operation not found."},
      {"SESSION_CHANGED",
       "The existing Spark server driver instance has restarted. Please reconnect."},
      {"SESSION_CLOSED", "Session was closed."},
      {"SESSION_NOT_FOUND", "Session not found."},
      {"SESSION_ALREADY_EXISTS", "Session already exists."},
  };
  auto it = kText.find(sub_class);
  std::string detail = it == kText.end() ? "" : " " + it->second;
  std::string state = sub_class.rfind("SESSION_", 0) == 0 ? "08003" : "HY000";
  throw SparkError(ErrorKind::kRuntime, "INVALID_HANDLE." + sub_class,
                   "The handle " + handle + " is invalid." + detail, {{"handle", handle}}, state);
}

void throw_invalid_plan(const std::string& sub_class, const std::string& message,
                        std::map<std::string, std::string> params) {
  throw SparkError(ErrorKind::kAnalysis, "CONNECT_INVALID_PLAN." + sub_class,
                   "The Spark Connect plan is invalid. " + message, std::move(params), "56K00");
}

void throw_not_supported(const std::string& what) {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: " + what + " (not implemented in Ember yet).",
                   {{"feature", what}}, "0A000");
}

}  // namespace ember::connect
