// Datetime and interval arithmetic in the analyzer (see datetime_arithmetic.h).

#include "plan/datetime_arithmetic.h"

#include "common/error.h"
#include "functions/calendar_interval.h"
#include "functions/function.h"

namespace ember::plan {
namespace {

bool is_date(const DataType& t) { return t.id() == TypeId::kDate; }
bool is_timestamp(const DataType& t) { return t.id() == TypeId::kTimestamp || t.id() == TypeId::kTimestampNtz; }
bool is_day_time(const DataType& t) { return t.id() == TypeId::kDayTimeInterval; }
bool is_year_month(const DataType& t) { return t.id() == TypeId::kYearMonthInterval; }
bool is_interval(const DataType& t) { return is_day_time(t) || is_year_month(t); }
bool is_datetime(const DataType& t) { return is_date(t) || is_timestamp(t); }
bool is_time(const DataType& t) { return t.id() == TypeId::kTime; }

const functions::FunctionDef* internal(const std::string& name) {
  const functions::FunctionDef* d = functions::Registry::instance().find_internal(name);
  EMBER_CHECK(d != nullptr && d->internal, "missing internal function " + name);
  return d;
}

}  // namespace

ExprPtr rewrite_datetime_arithmetic(const std::string& op, const std::vector<ExprPtr>& in,
                                    const DatetimeArithmeticBinder& bind) {
  if (in.size() != 2) return nullptr;
  ExprPtr l = in[0], r = in[1];
  const bool left_calendar = l->type->id() == TypeId::kCalendarInterval;
  const bool right_calendar = r->type->id() == TypeId::kCalendarInterval;
  // A calendar interval times or divided by a number: the interval comes first either way.
  if (op == "*" && (left_calendar || right_calendar))
    return bind.call_internal(internal("multiply_interval"), left_calendar ? std::vector{l, r} : std::vector{r, l});
  if (op == "/" && left_calendar) return bind.call_internal(internal("divide_interval"), {l, r});
  if (op != "+" && op != "-") return nullptr;
  const bool sub = op == "-";
  bool swap = false;
  if (const functions::FunctionDef* d = functions::calendar_interval_operator(l->type, r->type, sub, false, &swap))
    return bind.call_internal(d, swap ? std::vector{r, l} : std::vector{l, r});
  const DataType* lt = l->type.get();
  const DataType* rt = r->type.get();
  if (!is_datetime(*lt) && !is_datetime(*rt) && !is_interval(*lt) && !is_interval(*rt)) {
    if (sub && is_time(*lt) && is_time(*rt)) return bind.call_internal(internal("time - time"), {l, r});
    return nullptr;
  }
  // TIME moves by day-time intervals within its day; interval + time is time + interval.
  if (is_time(*lt) && is_day_time(*rt))
    return bind.call_internal(internal(sub ? "time - day-time interval" : "time + day-time interval"), {l, r});
  if (!sub && is_day_time(*lt) && is_time(*rt))
    return bind.call_internal(internal("time + day-time interval"), {r, l});

  // A date beside anything but a datetime or an interval: date_add / date_sub, whose type rule
  // accepts the integral types and reports the rest.
  if (is_date(*lt) && !is_datetime(*rt) && !is_interval(*rt)) return bind.call(sub ? "date_sub" : "date_add", {l, r});
  if (!sub && is_date(*rt) && !is_datetime(*lt) && !is_interval(*lt)) return bind.call("date_add", {r, l});
  if (!sub && is_interval(*lt) && is_datetime(*rt)) {
    std::swap(l, r);
    std::swap(lt, rt);
  }
  if (is_date(*lt) && is_day_time(*rt)) {
    if (rt->start_field() == 0 && rt->end_field() == 0) {
      ExprPtr days = bind.call_internal(internal("extractansiintervaldays"), {r});
      if (sub) {
        auto neg = std::make_shared<Expr>(*bind.call("negative", {days}));
        neg->display = "(- " + days->to_string() + ")";  // Spark's UnaryMinus here
        days = neg;
      }
      return bind.call("date_add", {l, days});
    }
    l = bind.cast(l, DataType::timestamp());
    lt = l->type.get();
  }
  const std::string sign = sub ? " - " : " + ";
  if (is_timestamp(*lt) && is_day_time(*rt))
    return bind.call_internal(internal("timestamp" + sign + "day-time interval"), {l, r});
  if (is_date(*lt) && is_year_month(*rt))
    return bind.call_internal(internal("date" + sign + "year-month interval"), {l, r});
  if (is_timestamp(*lt) && is_year_month(*rt))
    return bind.call_internal(internal("timestamp" + sign + "year-month interval"), {l, r});
  if ((is_day_time(*lt) && is_day_time(*rt)) || (is_year_month(*lt) && is_year_month(*rt)))
    return bind.call_internal(internal("interval" + sign + "interval"), {l, r});
  if (sub && is_date(*lt) && is_date(*rt)) return bind.call_internal(internal("date - date"), {l, r});
  if (sub && is_datetime(*lt) && is_datetime(*rt)) {
    // Timestamps of one kind; a date or a timestamp without time zone beside a timestamp is
    // read as a timestamp.
    TypePtr ts = lt->id() == TypeId::kTimestamp || rt->id() == TypeId::kTimestamp ? DataType::timestamp()
                                                                                  : DataType::timestamp_ntz();
    return bind.call_internal(internal("timestamp - timestamp"), {bind.cast(l, ts), bind.cast(r, ts)});
  }
  return nullptr;  // the numeric rule reports the mismatch
}

}  // namespace ember::plan
