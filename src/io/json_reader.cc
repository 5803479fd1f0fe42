#include "io/json_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "common/datetime.h"
#include "common/datetime_pattern.h"
#include "common/error.h"
#include "common/json.h"
#include "common/timezone.h"
#include "io/csv_options.h"
#include "io/file_bytes.h"
#include "io/file_listing.h"
#include "io/line_splits.h"
#include "io/read_errors.h"
#include "io/text_parse.h"

namespace ember::io {

namespace {

constexpr int64_t kBatchRows = 16384;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool is_integer_text(const std::string& t) {
  return t.find_first_of(".eE") == std::string::npos;
}

// ---- Schema inference (Spark's JsonInferSchema) ---------------------------------------------

TypePtr merge(const TypePtr& a, const TypePtr& b);

TypePtr merge_structs(const DataType& a, const DataType& b) {
  std::vector<StructField> fields = a.fields();
  for (const auto& f : b.fields()) {
    auto it = std::find_if(fields.begin(), fields.end(), [&](const StructField& g) { return g.name == f.name; });
    if (it == fields.end()) fields.push_back(f);
    else it->type = merge(it->type, f.type);
  }
  std::sort(fields.begin(), fields.end(),
            [](const StructField& x, const StructField& y) { return x.name < y.name; });
  return DataType::struct_(std::move(fields));
}

TypePtr merge(const TypePtr& a, const TypePtr& b) {
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (a->equals(*b)) return a;
  const TypeId x = a->id(), y = b->id();
  auto numeric = [](TypeId t) { return t == TypeId::kLong || t == TypeId::kDouble || t == TypeId::kDecimal; };
  if (numeric(x) && numeric(y)) {
    if (x == TypeId::kDouble || y == TypeId::kDouble) return DataType::double_();
    // long behaves as decimal(20, 0) when widened with a decimal.
    auto as_dec = [](const TypePtr& t) {
      return t->id() == TypeId::kLong ? std::pair{20, 0} : std::pair{t->precision(), t->scale()};
    };
    auto [p1, s1] = as_dec(a);
    auto [p2, s2] = as_dec(b);
    const int scale = std::max(s1, s2);
    const int range = std::max(p1 - s1, p2 - s2);
    if (range + scale > DataType::kMaxDecimalPrecision) return DataType::double_();
    return DataType::decimal(range + scale, scale);
  }
  if (x == TypeId::kStruct && y == TypeId::kStruct) return merge_structs(*a, *b);
  if (x == TypeId::kArray && y == TypeId::kArray)
    return DataType::array(merge(a->element_type(), b->element_type()), true);
  return DataType::string();
}

TypePtr infer(const JsonValue& v, bool primitives_as_string) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: return DataType::null();
    case JsonValue::Kind::kBool: return primitives_as_string ? DataType::string() : DataType::boolean();
    case JsonValue::Kind::kNumber: {
      if (primitives_as_string) return DataType::string();
      if (!is_integer_text(v.text)) return DataType::double_();
      int64_t l;
      if (parse_java_integer(v.text, INT64_MIN, INT64_MAX, &l)) return DataType::long_();
      const size_t digits = v.text.size() - (v.text[0] == '-' ? 1 : 0);
      return digits <= 38 ? DataType::decimal(static_cast<int>(digits), 0) : DataType::double_();
    }
    case JsonValue::Kind::kString: return DataType::string();
    case JsonValue::Kind::kArray: {
      TypePtr e = DataType::null();
      for (const auto& item : v.items) e = merge(e, infer(item, primitives_as_string));
      return DataType::array(e, true);
    }
    case JsonValue::Kind::kObject: {
      std::vector<StructField> fields;
      for (const auto& [name, value] : v.members) {
        auto it = std::find_if(fields.begin(), fields.end(), [&](const StructField& f) { return f.name == name; });
        TypePtr t = infer(value, primitives_as_string);
        if (it == fields.end()) fields.push_back({name, t, true, "{}"});
        else it->type = merge(it->type, t);
      }
      std::sort(fields.begin(), fields.end(),
                [](const StructField& x, const StructField& y) { return x.name < y.name; });
      return DataType::struct_(std::move(fields));
    }
  }
  return DataType::string();
}

/// Spark's canonicalizeType: unknown (all-null) types become string; empty structs vanish.
std::optional<TypePtr> canonical(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kNull: return DataType::string();
    case TypeId::kArray: {
      auto e = canonical(t->element_type());
      if (!e) return std::nullopt;
      return DataType::array(*e, true);
    }
    case TypeId::kStruct: {
      std::vector<StructField> fields;
      for (const auto& f : t->fields()) {
        auto c = canonical(f.type);
        if (c) fields.push_back({f.name, *c, true, "{}"});
      }
      if (fields.empty()) return std::nullopt;
      return DataType::struct_(std::move(fields));
    }
    default: return t;
  }
}

// ---- Values ---------------------------------------------------------------------------------


struct ConvertContext {
  const TimeZone* zone;
  std::optional<DateTimePattern> date_format;
  std::optional<DateTimePattern> timestamp_format;
  bool case_sensitive = false;
};

/// Converts a JSON value to `type`; false when it does not fit (a malformed record).
bool convert(const JsonValue& v, const DataType& type, const ConvertContext& ctx, Value* out) {
  using K = JsonValue::Kind;
  if (v.kind == K::kNull) {
    *out = Value();
    return true;
  }
  switch (type.id()) {
    case TypeId::kBoolean:
      if (v.kind != K::kBool) return false;
      *out = Value::boolean(v.boolean);
      return true;
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong: {
      if (v.kind != K::kNumber || !is_integer_text(v.text)) return false;
      const int bits = type.byte_width() * 8;
      const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
      const int64_t min = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
      int64_t l;
      if (!parse_java_integer(v.text, min, max, &l)) return false;
      *out = Value::integer(l);
      return true;
    }
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d;
      if (v.kind == K::kNumber) {
        if (!parse_java_double(v.text, &d)) return false;
      } else if (v.kind == K::kString) {
        const std::string& s = v.text;
        if (s == "NaN") d = std::numeric_limits<double>::quiet_NaN();
        else if (s == "Infinity" || s == "+Infinity" || s == "+INF" || s == "INF") d = HUGE_VAL;
        else if (s == "-Infinity" || s == "-INF") d = -HUGE_VAL;
        else return false;
      } else {
        return false;
      }
      *out = Value::floating(type.id() == TypeId::kFloat ? static_cast<double>(static_cast<float>(d)) : d);
      return true;
    }
    case TypeId::kDecimal: {
      if (v.kind != K::kNumber && v.kind != K::kString) return false;
      int128_t u;
      if (!parse_decimal(v.text, type.precision(), type.scale(), false, &u)) return false;
      *out = Value::decimal(u);
      return true;
    }
    case TypeId::kString:
      *out = Value::bytes(v.kind == K::kString ? v.text : json_text(v));
      return true;
    case TypeId::kBinary: {
      if (v.kind != K::kString) return false;
      static const std::string kChars =
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      std::string bytes;
      uint32_t acc = 0;
      int bits = 0;
      for (char c : v.text) {
        if (c == '=') break;
        const size_t k = kChars.find(c);
        if (k == std::string::npos) return false;
        acc = (acc << 6) | static_cast<uint32_t>(k);
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          bytes += static_cast<char>((acc >> bits) & 0xFF);
        }
      }
      *out = Value::bytes(std::move(bytes));
      return true;
    }
    case TypeId::kDate: {
      if (v.kind != K::kString) return false;
      int32_t days;
      const bool ok = ctx.date_format ? ctx.date_format->parse_date(v.text, &days) : parse_date(v.text, &days);
      if (!ok) return false;
      *out = Value::integer(days);
      return true;
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      int64_t micros;
      if (v.kind == K::kNumber && type.id() == TypeId::kTimestamp) {
        int64_t seconds;
        if (!is_integer_text(v.text) || !parse_java_integer(v.text, INT64_MIN / 1000000, INT64_MAX / 1000000, &seconds))
          return false;
        *out = Value::integer(seconds * 1000000);
        return true;
      }
      if (v.kind != K::kString) return false;
      bool ok;
      if (type.id() == TypeId::kTimestamp) {
        ok = ctx.timestamp_format ? ctx.timestamp_format->parse_timestamp(v.text, *ctx.zone, &micros)
                                  : parse_timestamp(v.text, *ctx.zone, &micros);
      } else {
        ok = ctx.timestamp_format ? ctx.timestamp_format->parse_timestamp_ntz(v.text, &micros)
                                  : parse_timestamp_ntz(v.text, &micros);
      }
      if (!ok) return false;
      *out = Value::integer(micros);
      return true;
    }
    case TypeId::kArray: {
      if (v.kind != K::kArray) return false;
      Value::List items;
      for (const auto& item : v.items) {
        Value e;
        if (!convert(item, *type.element_type(), ctx, &e)) return false;
        items.push_back(std::move(e));
      }
      *out = Value::list(std::move(items));
      return true;
    }
    case TypeId::kMap: {
      if (v.kind != K::kObject) return false;
      Value::List entries;
      for (const auto& [k, item] : v.members) {
        Value key, value;
        JsonValue key_json;
        key_json.kind = K::kString;
        key_json.text = k;
        if (!convert(key_json, *type.key_type(), ctx, &key)) return false;
        if (!convert(item, *type.value_type(), ctx, &value)) return false;
        entries.push_back(Value::list({key, value}));
      }
      *out = Value::list(std::move(entries));
      return true;
    }
    case TypeId::kStruct: {
      if (v.kind != K::kObject) return false;
      Value::List fields(type.fields().size());
      for (const auto& [name, item] : v.members) {
        for (size_t i = 0; i < type.fields().size(); ++i) {
          const std::string& fname = type.fields()[i].name;
          if (fname == name || (!ctx.case_sensitive && lower(fname) == lower(name))) {
            if (!convert(item, *type.fields()[i].type, ctx, &fields[i])) return false;
            break;
          }
        }
      }
      *out = Value::list(std::move(fields));
      return true;
    }
    default: return false;
  }
}

// ---- The reader -----------------------------------------------------------------------------

class JsonReader final : public DataSourceReader {
 public:
  explicit JsonReader(const ReadRequest& request) {
    const Options& o = request.options;
    const Config* config = request.config;
    files_ = list_input_files(request.paths, listing_options(request));
    sort_like_spark(files_);
    multi_line_ = o.get_bool("multiLine", false);
    splits_ = plan_line_splits(files_, !multi_line_, config);
    primitives_as_string_ = o.get_bool("primitivesAsString", false);
    const std::string mode = lower(o.get("mode", "PERMISSIVE"));
    if (mode == "dropmalformed") mode_ = ParseMode::kDropMalformed;
    else if (mode == "failfast") mode_ = ParseMode::kFailFast;
    corrupt_ = o.get("columnNameOfCorruptRecord",
                     config ? config->get_or("spark.sql.columnNameOfCorruptRecord", "_corrupt_record")
                            : "_corrupt_record");
    ctx_.zone = &TimeZone::get(o.get("timeZone", config ? config->session_time_zone() : "UTC"));
    ctx_.case_sensitive = config && config->case_sensitive();
    if (o.has("dateFormat")) ctx_.date_format.emplace(o.get("dateFormat"));
    if (o.has("timestampFormat")) ctx_.timestamp_format.emplace(o.get("timestampFormat"));
    if (request.user_schema) {
      schema_ = request.user_schema->fields();
    } else {
      infer_schema();
    }
    for (size_t i = 0; i < schema_.size(); ++i) {
      if (schema_[i].name == corrupt_ && schema_[i].type->id() == TypeId::kString)
        corrupt_index_ = static_cast<int>(i);
    }
  }

  const Schema& schema() const override { return schema_; }
  size_t num_splits() const override { return splits_.size(); }
  double estimated_rows() const override { return estimated_text_rows(files_, schema_.size()); }
  std::vector<std::string> input_files() const override {
    std::vector<std::string> out;
    for (const auto& f : files_) out.push_back(file_uri(f.path));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  void read_split(size_t i, const std::vector<int>& projection,
                  const std::function<void(Batch)>& emit) const override {
    const std::string& path = files_[splits_[i].file].path;
    std::vector<std::unique_ptr<ColumnBuilder>> builders;
    for (int c : projection)
      builders.push_back(std::make_unique<ColumnBuilder>(schema_[static_cast<size_t>(c)].type));
    int64_t rows = 0;
    auto flush = [&]() {
      if (rows == 0) return;
      std::vector<ColumnPtr> cols;
      for (auto& b : builders) cols.push_back(b->finish());
      emit(Batch(std::move(cols), rows));
      rows = 0;
      builders.clear();
      for (int c : projection)
        builders.push_back(std::make_unique<ColumnBuilder>(schema_[static_cast<size_t>(c)].type));
    };
    std::vector<Value> values(schema_.size());
    auto add_record = [&](const JsonValue* record, std::string_view text) {
      bool bad = record == nullptr || record->kind != JsonValue::Kind::kObject;
      std::fill(values.begin(), values.end(), Value());
      if (!bad) {
        for (const auto& [name, item] : record->members) {
          for (size_t f = 0; f < schema_.size(); ++f) {
            if (static_cast<int>(f) == corrupt_index_) continue;
            const std::string& fname = schema_[f].name;
            if (fname == name || (!ctx_.case_sensitive && lower(fname) == lower(name))) {
              if (!convert(item, *schema_[f].type, ctx_, &values[f])) {
                values[f] = Value();
                bad = true;
              }
              break;
            }
          }
        }
      }
      if (bad) {
        if (mode_ == ParseMode::kDropMalformed) return;
        if (mode_ == ParseMode::kFailFast) throw_read_failed(path, "NO_HINT", "");
        if (corrupt_index_ >= 0) values[static_cast<size_t>(corrupt_index_)] = Value::bytes(std::string(text));
      }
      for (size_t k = 0; k < projection.size(); ++k)
        builders[k]->append_value(values[static_cast<size_t>(projection[k])]);
      if (++rows == kBatchRows) flush();
    };
    for_each_record(splits_[i], [&](const JsonValue* v, std::string_view text) {
      if (v && v->kind == JsonValue::Kind::kArray) {
        // A top-level array holds one record per element.
        for (const auto& item : v->items) add_record(&item, text);
      } else {
        add_record(v, text);
      }
    });
    flush();
  }

 private:
  /// Calls `fn` with each record of a split (nullptr when it does not parse) and its text.
  template <typename Fn>
  void for_each_record(const LineSplit& split, const Fn& fn) const {
    FileBytes bytes(files_[split.file].path, "utf-8");
    const char* p;
    const char* end;
    split_range(bytes, split, &p, &end);
    auto one = [&](std::string_view text) {
      JsonValue v;
      try {
        v = parse_json(std::string(text));
      } catch (const std::invalid_argument&) {
        fn(nullptr, text);
        return;
      }
      fn(&v, text);
    };
    if (multi_line_) {
      std::string_view all(p, static_cast<size_t>(end - p));
      if (all.find_first_not_of(" \t\r\n") != std::string_view::npos) one(all);
      return;
    }
    while (p < end) {
      const char* e = p;
      while (e < end && *e != '\n' && *e != '\r') ++e;
      std::string_view line(p, static_cast<size_t>(e - p));
      if (line.find_first_not_of(" \t") != std::string_view::npos) one(line);
      p = e;
      while (p < end && (*p == '\n' || *p == '\r')) ++p;
    }
  }

  void infer_schema() {
    TypePtr root = DataType::struct_({});
    bool corrupt_seen = false;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
      for_each_record(LineSplit{fi, 0, -1}, [&](const JsonValue* v, std::string_view) {
        auto take = [&](const JsonValue& r) {
          if (r.kind == JsonValue::Kind::kObject) {
            root = merge(root, infer(r, primitives_as_string_));
          } else {
            corrupt_seen = true;
          }
        };
        if (!v) {
          corrupt_seen = true;
        } else if (v->kind == JsonValue::Kind::kArray) {
          for (const auto& item : v->items) take(item);
        } else {
          take(*v);
        }
        if (corrupt_seen && mode_ == ParseMode::kFailFast) {
          throw SparkError(ErrorKind::kRuntime, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                           "Malformed records are detected in record parsing: [null]. Parse Mode: "
                           "FAILFAST. To process malformed records as null result, try setting "
                           "the option 'mode' as 'PERMISSIVE'.",
                           {{"badRecord", "[null]"}, {"failFastMode", "FAILFAST"}}, "22023");
        }
      });
    }
    std::vector<StructField> fields;
    if (auto c = canonical(root)) fields = (*c)->fields();
    if (corrupt_seen && mode_ == ParseMode::kPermissive &&
        std::none_of(fields.begin(), fields.end(), [&](const StructField& f) { return f.name == corrupt_; })) {
      fields.push_back({corrupt_, DataType::string(), true, "{}"});
      std::sort(fields.begin(), fields.end(),
                [](const StructField& x, const StructField& y) { return x.name < y.name; });
    }
    schema_ = std::move(fields);
  }

  std::vector<InputFile> files_;
  std::vector<LineSplit> splits_;
  Schema schema_;
  bool multi_line_ = false;
  bool primitives_as_string_ = false;
  ParseMode mode_ = ParseMode::kPermissive;
  std::string corrupt_;
  int corrupt_index_ = -1;
  ConvertContext ctx_;
};

}  // namespace

std::unique_ptr<DataSourceReader> open_json_reader(const ReadRequest& request) {
  return std::make_unique<JsonReader>(request);
}

}  // namespace ember::io
