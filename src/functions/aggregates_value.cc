// Aggregates that pick one of their input values: first / first_value / last / last_value /
// any_value (optionally ignoring nulls), max_by / min_by (the value at the row whose ordering
// key is greatest / least), mode (the most frequent value).
//
// Values of any type are held as owned `Value`s. first and last depend on the order of the rows,
// as in Spark, and so do max_by and min_by among rows of equal keys (the later row wins). The
// engine's threads take a pipeline's batches in turn and their partial states merge in no
// particular order, so a state keeps the position of the row it chose (the batch's index, which
// orders batches as their source produced them, and the row within it) and merging keeps the
// earlier or the later row by position: the result is the one of the rows in input order, as
// Spark's is for the data of one partition.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>

#include "column/compare.h"
#include "functions/aggregate_state.h"
#include "functions/digest.h"
#include "functions/function.h"
#include "functions/java_form.h"
#include "functions/kernel_util.h"
#include "functions/row_position.h"

namespace ember::functions {
namespace {

/// The constant flag argument `ignoreNulls` of first/last/any_value (false when absent).
bool ignore_nulls_arg(const std::vector<ColumnPtr>& args) {
  if (args.size() < 2 || args[1]->length() == 0) return false;
  const Column& f = *args[1];
  return f.type()->id() == TypeId::kBoolean && f.is_valid(0) && f.bool_at(0);
}

/// Sets a state's chosen value: empty for null, which finalizes to null.
void hold(HeapState<Value>& slot, Value v) {
  if (v.is_null())
    slot.destroy();
  else
    slot.assign(std::move(v));
}

// ---- first / last / any_value ---------------------------------------------------------------

/// `taken`: a row was chosen (its value may be null unless nulls are ignored), at `at`.
struct PickState {
  HeapState<Value> value;
  RowPosition at;
  bool taken;
};

class FirstLast final : public AggregateFunction {
 public:
  explicit FirstLast(bool last) : last_(last) {}
  size_t state_size() const override { return sizeof(PickState); }
  void init(uint8_t* s) const override { *reinterpret_cast<PickState*>(s) = {{}, {0, 0}, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    bool ignore = ignore_nulls_arg(args);
    const int64_t batch = current_batch();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      auto* s = reinterpret_cast<PickState*>(states[i]);
      if (ignore && c.is_null(i)) continue;
      if (!replaces(*s, {batch, i})) continue;
      set(s, c.value_at(i), {batch, i});
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<PickState*>(dst);
    auto* s = reinterpret_cast<const PickState*>(src);
    if (!s->taken || !replaces(*d, s->at)) return;
    set(d, s->value ? *s->value : Value(), s->at);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const PickState*>(states[i]);
      if (s->value) out.append_value(*s->value);
      else out.append_null();
    }
  }
  void destroy(uint8_t* state) const override {
    reinterpret_cast<PickState*>(state)->value.destroy();
  }
  bool needs_destroy() const override { return true; }

 private:
  /// Whether a row at `at` replaces the state's: an earlier row for first, a later one for last
  /// (of one position, the one offered last, as rows arriving in order would).
  bool replaces(const PickState& s, const RowPosition& at) const {
    if (!s.taken) return true;
    return last_ ? !(at < s.at) : at < s.at;
  }
  static void set(PickState* s, Value v, const RowPosition& at) {
    s->taken = true;
    s->at = at;
    hold(s->value, std::move(v));
  }
  bool last_;
};

// ---- max_by / min_by ------------------------------------------------------------------------

/// The chosen row's value (empty for null), ordering key and position; `key` is empty until a
/// row with a non-null key.
struct ByState {
  HeapState<Value> value;
  HeapState<Value> key;
  RowPosition at;
};

class MaxMinBy final : public AggregateFunction {
 public:
  MaxMinBy(TypePtr key_type, bool max) : key_type_(std::move(key_type)), max_(max) {}
  size_t state_size() const override { return sizeof(ByState); }
  void init(uint8_t* s) const override { *reinterpret_cast<ByState*>(s) = {{}, {}, {0, 0}}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& v = *args[0];
    const Column& k = *args[1];
    if (k.type()->id() == TypeId::kNull) return;
    const int64_t batch = current_batch();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || k.is_null(i)) continue;
      auto* s = reinterpret_cast<ByState*>(states[i]);
      Value key = k.value_at(i);
      if (s->key && !better(key, {batch, i}, *s)) continue;
      offer(s, v.value_at(i), std::move(key), {batch, i});
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<ByState*>(dst);
    auto* s = reinterpret_cast<const ByState*>(src);
    if (!s->key || (d->key && !better(*s->key, s->at, *d))) return;
    offer(d, s->value ? *s->value : Value(), *s->key, s->at);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const ByState*>(states[i]);
      if (s->value) out.append_value(*s->value);
      else out.append_null();
    }
  }
  void destroy(uint8_t* state) const override {
    auto* s = reinterpret_cast<ByState*>(state);
    s->value.destroy();
    s->key.destroy();
  }
  bool needs_destroy() const override { return true; }

 private:
  /// A row replaces the chosen one when its key is better, or equal and the row comes later
  /// (of one position, the one offered last): ties take the row seen last in input order, as
  /// Spark's max_by / min_by do.
  bool better(const Value& candidate, const RowPosition& at, const ByState& current) const {
    int c = compare_values(candidate, *current.key, *key_type_);
    if (c == 0) return !(at < current.at);
    return max_ ? c > 0 : c < 0;
  }
  static void offer(ByState* s, Value value, Value key, const RowPosition& at) {
    s->at = at;
    hold(s->value, std::move(value));
    s->key.assign(std::move(key));
  }
  TypePtr key_type_;
  bool max_;
};

/// max_by / min_by(x, y, k): the values of the k rows with the greatest (least) keys, ordered by
/// key; among equal keys the earlier rows (by position) come first and win. Rows are cut back
/// to the best k whenever twice that many have gathered.
struct ByKState {
  struct Entry {
    Value key, value;
    RowPosition at;
  };
  std::vector<Entry> entries;
  int64_t k = 0;
};

/// State: the group's `ByKState`, made on its first row with a key or merge.
class MaxMinByK final : public HeapStateAggregate<ByKState> {
 public:
  MaxMinByK(TypePtr key_type, bool max) : key_type_(std::move(key_type)), max_(max) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& v = *args[0];
    const Column& key = *args[1];
    if (key.type()->id() == TypeId::kNull || args[2]->length() == 0) return;
    int64_t k = args[2]->values<int32_t>()[0];
    const int64_t batch = current_batch();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || key.is_null(i)) continue;
      ByKState& s = rows(states[i], k);
      s.entries.push_back({key.value_at(i), v.value_at(i), {batch, i}});
      if (static_cast<int64_t>(s.entries.size()) >= 2 * s.k) prune(s);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const ByKState* from = state(src).get();
    if (!from) return;
    ByKState& d = rows(dst, from->k);
    d.entries.insert(d.entries.end(), from->entries.begin(), from->entries.end());
    if (static_cast<int64_t>(d.entries.size()) >= 2 * d.k) prune(d);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      ByKState* s = state(states[i]).get();
      if (!s || s->entries.empty()) {
        out.append_null();
        continue;
      }
      prune(*s);
      for (auto& e : s->entries) out.child(0).append_value(e.value);
      out.close_list();
    }
  }

 private:
  /// The rows kept in slot `s`, a state made to keep the best `k` when it has none yet.
  static ByKState& rows(uint8_t* s, int64_t k) {
    HeapState<ByKState>& st = state(s);
    if (!st) st.create().k = k;
    return *st;
  }
  void prune(ByKState& s) const {
    std::stable_sort(s.entries.begin(), s.entries.end(), [&](const ByKState::Entry& a, const ByKState::Entry& b) {
      int c = compare_values(a.key, b.key, *key_type_);
      if (c == 0) return a.at < b.at;
      return max_ ? c > 0 : c < 0;
    });
    if (static_cast<int64_t>(s.entries.size()) > s.k) s.entries.resize(static_cast<size_t>(s.k));
  }
  TypePtr key_type_;
  bool max_;
};

// ---- mode -----------------------------------------------------------------------------------

/// Counts per distinct value, keyed by the value's bytes (fixed-width values by their storage
/// bytes; floating point values normalized first, so that -0.0 counts as 0.0 and every NaN as
/// one, as in Spark).
struct ModeEntry {
  int64_t count = 0;
  RowPosition first{INT64_MAX, INT64_MAX};  // where the value first appeared
};
using ModeCounts = std::unordered_map<std::string, ModeEntry>;

/// The mode; among equally frequent values, the least one when `deterministic`, else the one
/// Spark's hash map of counts (an OpenHashMap) iterates first. That map places each value at the
/// slot of its Java hash code mixed by Murmur3, probing quadratically past taken slots, in a
/// capacity of 64 doubled whenever more than 70% full; values enter in input order, as in one
/// Spark partition (Spark's merge of several partitions' maps may order them otherwise). Types
/// whose Java hash Ember does not reproduce (decimals, binary, collated strings) take the least
/// value.
class Mode final : public HeapStateAggregate<ModeCounts> {
 public:
  Mode(TypePtr type, bool deterministic) : type_(std::move(type)), deterministic_(deterministic) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const int64_t batch = current_batch();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      ModeEntry& e = state(states[i]).get_or_create()[key_of(c, i)];
      ++e.count;
      e.first = std::min(e.first, RowPosition{batch, i});
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const ModeCounts* s = state(src).get();
    if (!s) return;
    ModeCounts& d = state(dst).get_or_create();
    for (auto& [k, v] : *s) {
      ModeEntry& e = d[k];
      e.count += v.count;
      e.first = std::min(e.first, v.first);
    }
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const ModeCounts* m = state(states[i]).get();
      if (!m || m->empty()) {
        out.append_null();
        continue;
      }
      int64_t best_count = 0, ties = 0;
      for (auto& [k, e] : *m) best_count = std::max(best_count, e.count);
      for (auto& [k, e] : *m) ties += e.count == best_count;
      if (ties > 1 && !deterministic_ && hashable()) {
        out.append_value(value_of(*first_in_spark_order(*m, best_count)));
        continue;
      }
      Value best_value;
      bool found = false;
      for (auto& [k, e] : *m) {
        if (e.count < best_count) continue;
        Value v = value_of(k);
        if (!found || compare_values(v, best_value, *type_) < 0) best_value = std::move(v);
        found = true;
      }
      out.append_value(best_value);
    }
  }

 private:
  std::string key_of(const Column& c, int64_t i) const {
    if (type_->is_string_like()) return std::string(c.string_at(i));
    if (type_->id() == TypeId::kBoolean) return std::string(1, static_cast<char>(c.bool_at(i)));
    return dispatch_fixed(type_->id(), [&]<typename T>() {
      T x = c.values<T>()[i];
      if constexpr (std::is_floating_point_v<T>) {
        if (x == 0) x = 0;
        if (std::isnan(x)) x = std::numeric_limits<T>::quiet_NaN();
      }
      return std::string(reinterpret_cast<const char*>(&x), sizeof(T));
    });
  }
  /// The first value of count `best` that Spark's OpenHashMap of these counts iterates, the
  /// values inserted in order of first appearance.
  const std::string* first_in_spark_order(const ModeCounts& m, int64_t best) const {
    std::vector<std::pair<const std::string*, const ModeEntry*>> keys;
    for (auto& [k, e] : m) keys.push_back({&k, &e});
    std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.second->first < b.second->first; });
    std::vector<uint32_t> hashes;
    for (auto& k : keys) hashes.push_back(static_cast<uint32_t>(digest::murmur3_int(java_hash(*k.first), 0)));
    size_t capacity = 64;
    std::vector<int64_t> slots(capacity, -1);
    auto place = [&](int64_t key) {
      size_t mask = slots.size() - 1, pos = hashes[static_cast<size_t>(key)] & mask;
      for (size_t delta = 1; slots[pos] >= 0; ++delta) pos = (pos + delta) & mask;
      slots[pos] = key;
    };
    size_t size = 0;
    for (size_t k = 0; k < keys.size(); ++k) {
      place(static_cast<int64_t>(k));
      if (++size > static_cast<size_t>(0.7 * static_cast<double>(capacity))) {
        // Grows: the keys move in the order of their old slots.
        std::vector<int64_t> old;
        old.swap(slots);
        capacity *= 2;
        slots.assign(capacity, -1);
        for (int64_t key : old)
          if (key >= 0) place(key);
      }
    }
    for (int64_t key : slots)
      if (key >= 0 && keys[static_cast<size_t>(key)].second->count == best) return keys[static_cast<size_t>(key)].first;
    return keys.front().first;
  }
  bool hashable() const {
    switch (type_->id()) {
      case TypeId::kByte: case TypeId::kShort: case TypeId::kInt: case TypeId::kDate:
      case TypeId::kYearMonthInterval: case TypeId::kLong: case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: case TypeId::kDayTimeInterval: case TypeId::kFloat: case TypeId::kDouble:
      case TypeId::kBoolean:
        return true;
      case TypeId::kString: return type_->collation_id() == 0;
      default: return false;
    }
  }
  /// The Java hash code of the boxed value Spark keeps for key `k` (Integer, Long, Float, Double,
  /// Boolean, or UTF8String's Murmur3 of its bytes with seed 42).
  int32_t java_hash(const std::string& k) const {
    auto bits64 = [](uint64_t b) { return static_cast<int32_t>(b ^ (b >> 32)); };
    switch (type_->id()) {
      case TypeId::kString: return digest::murmur3_bytes(k, 42);
      case TypeId::kBoolean: return k[0] ? 1231 : 1237;
      case TypeId::kFloat: {
        uint32_t b;
        std::memcpy(&b, k.data(), sizeof(b));
        return static_cast<int32_t>(b);
      }
      case TypeId::kDouble:
      case TypeId::kLong:
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz:
      case TypeId::kDayTimeInterval: {
        uint64_t b;
        std::memcpy(&b, k.data(), sizeof(b));
        return bits64(b);
      }
      default:
        return dispatch_fixed(type_->id(), [&]<typename T>() -> int32_t {
          if constexpr (std::is_integral_v<T> && sizeof(T) <= 4) {
            T x;
            std::memcpy(&x, k.data(), sizeof(T));
            return static_cast<int32_t>(x);
          } else {
            return 0;
          }
        });
    }
  }
  Value value_of(const std::string& k) const {
    if (type_->is_string_like()) return Value::bytes(k);
    if (type_->id() == TypeId::kBoolean) return Value::boolean(k[0] != 0);
    return dispatch_fixed(type_->id(), [&]<typename T>() {
      T x;
      std::memcpy(&x, k.data(), sizeof(T));
      if constexpr (std::is_floating_point_v<T>) return Value::floating(x);
      else if constexpr (std::is_same_v<T, int128_t>) return Value::decimal(x);
      else return Value::integer(x);
    });
  }
  TypePtr type_;
  bool deterministic_;
};

// ---- registration ---------------------------------------------------------------------------

void require_boolean_flag(const std::string& fn, const std::vector<TypePtr>& args) {
  if (args.size() > 1 && args[1]->id() != TypeId::kBoolean)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The second parameter requires the \"BOOLEAN\" type, however \"" + args[1]->sql() +
                            "\" has the type \"" + args[1]->sql() + "\".",
                        fn + "(" + args[0]->sql() + ", " + args[1]->sql() + ")");
}

/// The types mode's value counts hold.
bool mode_supported(const DataType& t) {
  return t.is_fixed_width() || t.is_string_like() || t.id() == TypeId::kBoolean || t.id() == TypeId::kNull;
}

}  // namespace

void register_value_aggregates(Registry& r) {
  struct Pick {
    const char* name;
    std::vector<std::string> aliases;
    bool last;
    const char* usage;
  };
  for (const Pick& p :
       {Pick{"first", {"first_value"}, false,
             "first(expr[, isIgnoreNull]) - Returns the first value of `expr` for a group of rows."},
        Pick{"last", {"last_value"}, true,
             "last(expr[, isIgnoreNull]) - Returns the last value of `expr` for a group of rows."},
        Pick{"any_value", {}, false,
             "any_value(expr[, isIgnoreNull]) - Returns some value of `expr` for a group of rows."}}) {
    FunctionDef d;
    d.name = p.name;
    d.aliases = p.aliases;
    d.kind = FunctionKind::kAggregate;
    d.min_args = 1;
    d.max_args = 2;
    std::string name = p.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      require_boolean_flag(name, args);
      Signature s;
      s.arg_types = args;
      s.result_type = args[0];
      s.null_if_any_arg_null = false;
      return s;
    };
    bool last = p.last;
    d.aggregate = [last](const Signature&, const EvalContext&) { return std::make_unique<FirstLast>(last); };
    // Spark names the call by its input only: first(v), whether nulls are ignored or not.
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ")";
    };
    d.usage = p.usage;
    // Spark's first, last and any_value keep their ignoreNulls flag: `first(a, false)`.
    set_java_form(p.name, [](const JavaFormCall& c) {
      return c.called + "(" + c.args[0] + ", " + (c.args.size() > 1 ? c.args[1] : "false") + ")";
    });
    r.add(std::move(d));
  }
  for (bool max : {true, false}) {
    FunctionDef d;
    d.name = max ? "max_by" : "min_by";
    d.kind = FunctionKind::kAggregate;
    d.min_args = 2;
    d.max_args = 3;
    std::string name = d.name;
    d.arg_type_rule = [name](const std::vector<ArgInfo>& a, const Config&) {
      std::string shown = name + "(" + a[0].type->sql() + ", " + a[1].type->sql() + (a.size() > 2 ? ", " + a[2].type->sql() : "") + ")";
      if (!orderable(*a[1].type))
        throw_type_mismatch("INVALID_ORDERING_TYPE",
                            "The `" + name + "` does not support ordering on type \"" + a[1].type->sql() + "\".", shown);
      Signature s;
      s.arg_types = {a[0].type, a[1].type};
      s.result_type = a[0].type;
      s.null_if_any_arg_null = false;
      if (a.size() > 2) {
        // k: a constant INT (or narrower) in [1, 100000].
        if (!a[2].type->is_integral() || a[2].type->id() == TypeId::kLong)
          throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                              "The third parameter requires the \"INT\" type, however \"" + a[2].type->sql() +
                                  "\" has the type \"" + a[2].type->sql() + "\".",
                              shown);
        if (!a[2].literal)
          throw_type_mismatch("NON_FOLDABLE_INPUT",
                              "the input k should be a foldable int expression; however, got " + a[2].type->sql() + ".",
                              shown);
        int64_t k = a[2].literal->is_null() ? 0 : a[2].literal->as_int();
        if (k < 1 || k > 100000)
          throw_type_mismatch("VALUE_OUT_OF_RANGE",
                              "The `k` must be between [1, 100000] (current value = " + std::to_string(k) + ").", shown);
        s.arg_types.push_back(DataType::int_());
        s.result_type = DataType::array(a[0].type, true);
      }
      return s;
    };
    d.aggregate = [max](const Signature& sig, const EvalContext&) -> std::unique_ptr<AggregateFunction> {
      if (sig.arg_types.size() > 2) return std::make_unique<MaxMinByK>(sig.arg_types[1], max);
      return std::make_unique<MaxMinBy>(sig.arg_types[1], max);
    };
    d.usage = max ? "max_by(x, y[, k]) - Returns the value of `x` associated with the maximum value of `y` (the "
                    "values of the k rows with the greatest `y`, as an array)."
                  : "min_by(x, y[, k]) - Returns the value of `x` associated with the minimum value of `y` (the "
                    "values of the k rows with the least `y`, as an array).";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "mode";
    d.kind = FunctionKind::kAggregate;
    d.min_args = 1;
    d.max_args = 2;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      if (!mode_supported(*args[0]))
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "mode of " + args[0]->sql() + " is not supported yet.");
      require_boolean_flag("mode", args);
      Signature s;
      s.arg_types = args;
      s.result_type = args[0];
      s.null_if_any_arg_null = false;
      return s;
    };
    d.arg_type_rule = [rule = d.type_rule](const std::vector<ArgInfo>& a, const Config& conf) {
      std::vector<TypePtr> types;
      for (auto& x : a) types.push_back(x.type);
      Signature s = rule(types, conf);
      // Whether ties take the least value: the constant `deterministic` argument.
      bool deterministic = a.size() > 1 && a[1].literal && !a[1].literal->is_null() && a[1].literal->as_bool();
      s.parameters.push_back(deterministic ? 1 : 0);
      return s;
    };
    d.aggregate = [](const Signature& sig, const EvalContext&) {
      return std::make_unique<Mode>(sig.arg_types[0], !sig.parameters.empty() && sig.parameters[0] != 0);
    };
    // Spark shows the deterministic form as the ordered-set aggregate it is equivalent to.
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      if (args.size() > 1 && args[1] == "true") return called + "() WITHIN GROUP (ORDER BY " + args[0] + " DESC)";
      return called + "(" + args[0] + ")";
    };
    d.usage = "mode(col[, deterministic]) - Returns the most frequent value for the values within `col`.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
