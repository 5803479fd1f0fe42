// What a query can ask about who runs it and on what: current_user (user, session_user) and
// version.

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

#include "ember_build_info.h"
#include "ember_revision.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

/// The user running the server, as Spark names it: SPARK_USER when set, else the operating
/// system's name for the process's user.
const std::string& server_user() {
  static const std::string user = [] {
    if (const char* env = std::getenv("SPARK_USER"); env && *env) return std::string(env);
    if (const passwd* pw = getpwuid(geteuid()); pw && pw->pw_name) return std::string(pw->pw_name);
    return std::to_string(geteuid());
  }();
  return user;
}

/// A function of no arguments whose value is one non-null string for the server's lifetime.
FunctionDef constant_string(std::string name, std::string value, std::vector<std::string> aliases) {
  return scalar(
      std::move(name), 0, 0,
      [](const std::vector<TypePtr>&, const Config&) {
        Signature s;
        s.result_type = DataType::string();
        s.never_null = true;
        return s;
      },
      [value = std::move(value)](const std::vector<ColumnPtr>&, int64_t n, const Signature& sig, const EvalContext&) {
        return Column::constant(sig.result_type, Value::bytes(value), n);
      },
      std::move(aliases));
}

}  // namespace

void register_session_info(Registry& r) {
  {
    FunctionDef d = constant_string("current_user", server_user(), {"user", "session_user"});
    d.usage = "current_user() - user name of current execution context.";
    d.since = "3.2.0";
    r.add(std::move(d));
  }
  {
    // The Spark version Ember answers to, and the source revision it was built from.
    FunctionDef d = constant_string("version", EMBER_SPARK_VERSION_STRING " " EMBER_REVISION_STRING, {});
    d.usage = "version() - Returns the Spark version. The string contains 2 fields, the first being a release "
              "version and the second being a git revision.";
    d.since = "3.0.0";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
