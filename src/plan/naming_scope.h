#pragma once

#include "common/timezone.h"

namespace ember::plan {

/// The session settings that Spark's texts of expressions show: timestamp literals print in the
/// session time zone (`spark.sql.session.timeZone`), and the Scala toString forms that name a
/// Python function's arguments show the zone (`hour(ts, Some(UTC))`) and the ANSI flag of the
/// expressions that keep one. The analyzer opens a scope on the thread that resolves a plan;
/// outside one, UTC and ANSI mode hold.
class NamingScope {
 public:
  NamingScope(const TimeZone& zone, bool ansi);
  ~NamingScope();
  NamingScope(const NamingScope&) = delete;
  NamingScope& operator=(const NamingScope&) = delete;

  /// The innermost scope's settings on this thread, or the defaults.
  static const TimeZone& time_zone();
  static bool ansi();

 private:
  const NamingScope* previous_;
  const TimeZone& zone_;
  bool ansi_;
};

}  // namespace ember::plan
