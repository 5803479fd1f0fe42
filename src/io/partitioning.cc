#include "io/partitioning.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"

namespace ember::io {

namespace {

constexpr const char* kDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

std::string unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool parse_long(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size()) return false;
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
    if (v > (static_cast<__int128>(INT64_MAX) + 1)) return false;
  }
  if (s[0] == '-') v = -v;
  if (v > INT64_MAX || v < INT64_MIN) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

bool parse_double(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return *end == '\0' && !std::isspace(static_cast<unsigned char>(s[0]));
}

// Inference ranks; the widest over a column's values wins (string when they disagree).
enum Kind { kInt, kLong, kDecimal, kDouble, kDate, kTimestamp, kString, kNullOnly };

Kind infer(const std::string& v, const TimeZone& zone) {
  int64_t l;
  double d;
  int32_t days;
  int64_t micros;
  if (parse_long(v, &l)) return l >= INT32_MIN && l <= INT32_MAX ? kInt : kLong;
  bool all_digits = !v.empty() && std::all_of(v.begin() + (v[0] == '-' ? 1 : 0), v.end(),
                                              [](unsigned char c) { return std::isdigit(c); });
  if (all_digits && v.size() <= 39) return kDecimal;
  if (parse_double(v, &d)) return kDouble;
  if (v.size() == 10 && parse_date(v, &days)) return kDate;
  if (v.find(' ') != std::string::npos && parse_timestamp(v, zone, &micros)) return kTimestamp;
  return kString;
}

Kind widen(Kind a, Kind b) {
  if (a == kNullOnly) return b;
  if (b == kNullOnly || a == b) return a;
  const bool na = a <= kDouble, nb = b <= kDouble;
  if (na && nb) return std::max(a, b);
  if ((a == kDate && b == kTimestamp) || (a == kTimestamp && b == kDate)) return kTimestamp;
  return kString;
}

TypePtr type_of(Kind k) {
  switch (k) {
    case kInt: return DataType::int_();
    case kLong: return DataType::long_();
    case kDecimal: return DataType::decimal(38, 0);
    case kDouble: return DataType::double_();
    case kDate: return DataType::date();
    case kTimestamp: return DataType::timestamp();
    case kNullOnly: return DataType::string();
    default: return DataType::string();
  }
}

/// The value of partition text `v` as `type`; null when it does not convert.
Value convert(const std::string& v, const DataType& type, const TimeZone& zone) {
  int64_t l;
  double d;
  int32_t days;
  int64_t micros;
  switch (type.id()) {
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong: return parse_long(v, &l) ? Value::integer(l) : Value();
    case TypeId::kFloat:
    case TypeId::kDouble: return parse_double(v, &d) ? Value::floating(d) : Value();
    case TypeId::kDecimal: {
      if (type.scale() != 0) break;
      __int128 x = 0;
      const bool neg = !v.empty() && v[0] == '-';
      for (size_t i = neg ? 1 : 0; i < v.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(v[i]))) return Value();
        x = x * 10 + (v[i] - '0');
      }
      return Value::decimal(neg ? -x : x);
    }
    case TypeId::kDate: return parse_date(v, &days) ? Value::integer(days) : Value();
    case TypeId::kTimestamp: return parse_timestamp(v, zone, &micros) ? Value::integer(micros) : Value();
    case TypeId::kTimestampNtz: return parse_timestamp_ntz(v, &micros) ? Value::integer(micros) : Value();
    case TypeId::kBoolean: {
      const std::string b = ascii_lower(v);
      if (b == "true") return Value::boolean(true);
      if (b == "false") return Value::boolean(false);
      return Value();
    }
    case TypeId::kString:
    case TypeId::kBinary: return Value::bytes(v);
    default: break;
  }
  throw SparkError(ErrorKind::kAnalysis, "INVALID_PARTITION_COLUMN_DATA_TYPE",
                   "Cannot use " + type.sql() + " for partition column.", {{"type", type.sql()}});
}

int compare_values(const Value& a, const Value& b, const DataType& type) {
  switch (type.id()) {
    case TypeId::kFloat:
    case TypeId::kDouble: return (a.as_double() > b.as_double()) - (a.as_double() < b.as_double());
    case TypeId::kDecimal: return (a.as_decimal() > b.as_decimal()) - (a.as_decimal() < b.as_decimal());
    case TypeId::kString:
    case TypeId::kBinary: {
      const int c = a.as_bytes().compare(b.as_bytes());
      return (c > 0) - (c < 0);
    }
    case TypeId::kBoolean: return static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool());
    default: return (a.as_int() > b.as_int()) - (a.as_int() < b.as_int());
  }
}

class PartitionedReader final : public DataSourceReader {
 public:
  PartitionedReader(const ReadRequest& request, const ReaderFactory& factory, PartitionSpec spec)
      : spec_(std::move(spec)) {
    // The data columns: the user's schema without partition columns, or the format's inference
    // over all files.
    auto is_partition = [&](const std::string& name) {
      for (const auto& c : spec_.columns)
        if (ascii_lower(c.name) == ascii_lower(name)) return true;
      return false;
    };
    std::vector<std::string> all_files;
    for (const auto& g : spec_.groups) all_files.insert(all_files.end(), g.files.begin(), g.files.end());
    Schema data;
    if (request.user_schema) {
      for (const auto& f : request.user_schema->fields())
        if (!is_partition(f.name)) data.push_back(f);
    } else {
      ReadRequest all = request;
      all.paths = all_files;
      const std::unique_ptr<DataSourceReader> inferred = factory(all);
      for (const auto& f : inferred->schema())
        if (!is_partition(f.name)) data.push_back(f);
    }
    num_data_ = data.size();
    schema_ = data;
    for (const auto& c : spec_.columns) schema_.push_back(c);
    for (size_t g = 0; g < spec_.groups.size(); ++g) {
      ReadRequest part = request;
      part.paths = spec_.groups[g].files;
      part.user_schema = DataType::struct_(data);
      readers_.push_back(factory(part));
      for (size_t s = 0; s < readers_.back()->num_splits(); ++s) splits_.push_back({g, s});
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  std::shared_ptr<const InputFileBlock> split_block(size_t i) const override {
    const auto [g, s] = splits_[i];
    return readers_[g]->split_block(s);
  }
  double estimated_rows() const override {
    double rows = 0;
    for (const auto& r : readers_) rows += r->estimated_rows();
    return rows;
  }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    const auto [g, s] = splits_[i];
    // The index past the schema (the row index of io/file_metadata.h) is the inner reader's
    // index past its own schema, the data columns.
    auto inner_column = [&](int c) {
      if (static_cast<size_t>(c) < num_data_) return c;
      return static_cast<size_t>(c) == schema_.size() ? static_cast<int>(num_data_) : -1;
    };
    std::vector<int> inner;
    for (int c : projection)
      if (inner_column(c) >= 0) inner.push_back(inner_column(c));
    const auto& values = spec_.groups[g].values;
    readers_[g]->read_split(s, inner, [&](Batch b) {
      Batch out;
      out.num_rows = b.num_rows;
      out.index = b.index;
      size_t next = 0;
      for (int c : projection) {
        if (inner_column(c) >= 0) {
          out.columns.push_back(b.columns[next++]);
        } else {
          const size_t p = static_cast<size_t>(c) - num_data_;
          out.columns.push_back(Column::constant(spec_.columns[p].type, values[p], b.num_rows));
        }
      }
      emit(std::move(out));
    });
  }

  bool split_may_match(size_t i, const std::vector<ScanPredicate>& predicates) const override {
    const auto [g, s] = splits_[i];
    std::vector<ScanPredicate> inner;
    for (const auto& p : predicates) {
      if (static_cast<size_t>(p.column) < num_data_) {
        inner.push_back(p);
        continue;
      }
      const size_t c = static_cast<size_t>(p.column) - num_data_;
      const Value& v = spec_.groups[g].values[c];
      using Op = ScanPredicate::Op;
      if (p.op == Op::kIsNull) {
        if (!v.is_null()) return false;
        continue;
      }
      if (v.is_null()) return false;  // comparisons and IS NOT NULL fail on null
      if (p.op == Op::kIsNotNull || p.value.is_null()) continue;
      const int cmp = compare_values(v, p.value, *spec_.columns[c].type);
      const bool ok = p.op == Op::kEq ? cmp == 0 : p.op == Op::kLt ? cmp < 0 : p.op == Op::kLe ? cmp <= 0
                    : p.op == Op::kGt ? cmp > 0 : cmp >= 0;
      if (!ok) return false;
    }
    return inner.empty() || readers_[g]->split_may_match(s, inner);
  }

  std::vector<std::string> input_files() const override {
    std::vector<std::string> out;
    for (const auto& r : readers_) {
      auto f = r->input_files();
      out.insert(out.end(), f.begin(), f.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  PartitionSpec spec_;
  size_t num_data_ = 0;
  Schema schema_;
  std::vector<std::unique_ptr<DataSourceReader>> readers_;
  std::vector<std::pair<size_t, size_t>> splits_;
};

}  // namespace

PartitionSpec discover_partitions(const std::vector<InputFile>& files, const ReadRequest& request) {
  PartitionSpec spec;
  const std::string base = request.options.has("basePath") ? local_path(request.options.get("basePath")) : "";
  const Config* config = request.config;
  const bool infer_types =
      !config || config->get_bool("spark.sql.sources.partitionColumnTypeInference.enabled", true);
  const TimeZone& zone = TimeZone::get(config ? config->session_time_zone() : "UTC");

  // Per file: the (name, raw value) pairs of its partition directories, outermost first.
  std::vector<std::vector<std::pair<std::string, std::string>>> parsed(files.size());
  std::map<std::string, size_t> group_of;
  std::vector<std::string> group_keys;
  bool any = false;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string root = base.empty() ? files[i].root : base;
    if (root.empty()) continue;
    std::string dir = files[i].path.substr(0, files[i].path.rfind('/'));
    if (dir.size() < root.size() || dir.compare(0, root.size(), root) != 0) continue;
    std::vector<std::pair<std::string, std::string>> cols;
    while (dir.size() > root.size()) {
      const std::string name = dir.substr(dir.rfind('/') + 1);
      const size_t eq = name.find('=');
      if (eq == std::string::npos || eq == 0) break;
      cols.insert(cols.begin(), {unescape(name.substr(0, eq)), unescape(name.substr(eq + 1))});
      dir = dir.substr(0, dir.rfind('/'));
    }
    any = any || !cols.empty();
    parsed[i] = std::move(cols);
  }
  if (!any) return spec;

  // Column names and order from the first file; all files must agree.
  const auto& first = parsed[0];
  for (size_t i = 0; i < files.size(); ++i) {
    bool same = parsed[i].size() == first.size();
    for (size_t k = 0; same && k < first.size(); ++k)
      same = ascii_lower(parsed[i][k].first) == ascii_lower(first[k].first);
    if (!same) {
      throw SparkError(ErrorKind::kRuntime, "CONFLICTING_DIRECTORY_STRUCTURES",
                       "Conflicting directory structures detected. Suspicious paths:\n\t" +
                           files[0].path.substr(0, files[0].path.rfind('/')) + "\n\t" +
                           files[i].path.substr(0, files[i].path.rfind('/')) +
                           "\nIf provided paths are partition directories, please set \"basePath\" "
                           "in the options of the data source to specify the root directory of the "
                           "table. If there are multiple root directories, please load them "
                           "separately and then union them.",
                       {}, "KD009");
    }
  }
  for (size_t k = 0; k < first.size(); ++k) {
    Kind kind = kNullOnly;
    for (const auto& p : parsed) {
      const std::string& v = p[k].second;
      if (v == kDefaultPartition) continue;
      kind = widen(kind, infer_types ? infer(v, zone) : kString);
    }
    TypePtr type = type_of(kind);
    if (request.user_schema) {
      for (const auto& f : request.user_schema->fields())
        if (ascii_lower(f.name) == ascii_lower(first[k].first)) type = f.type;
    }
    spec.columns.push_back({first[k].first, type, true, "{}"});
  }
  for (size_t i = 0; i < files.size(); ++i) {
    std::string key;
    for (const auto& [n, v] : parsed[i]) key += n + "=" + v + "/";
    auto [it, inserted] = group_of.emplace(key, spec.groups.size());
    if (inserted) {
      PartitionSpec::Group g;
      for (size_t k = 0; k < parsed[i].size(); ++k) {
        const std::string& v = parsed[i][k].second;
        g.values.push_back(v == kDefaultPartition ? Value() : convert(v, *spec.columns[k].type, zone));
      }
      spec.groups.push_back(std::move(g));
    }
    spec.groups[it->second].files.push_back(files[i].path);
  }
  return spec;
}

std::unique_ptr<DataSourceReader> open_partitioned_reader(const ReadRequest& request,
                                                          const ReaderFactory& factory,
                                                          PartitionSpec spec) {
  return std::make_unique<PartitionedReader>(request, factory, std::move(spec));
}

}  // namespace ember::io
