#include "column/arrow_c.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <memory>

#include "common/error.h"

namespace ember {
namespace {

// ---- Schema export --------------------------------------------------------------------------

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;  // Arrow's binary key/value encoding; empty for none
  std::vector<ArrowSchema*> children;
};

void release_schema(ArrowSchema* s) {
  if (s == nullptr || s->release == nullptr) return;
  auto* p = static_cast<SchemaPrivate*>(s->private_data);
  for (ArrowSchema* c : p->children) {
    if (c->release) c->release(c);
    delete c;
  }
  delete p;
  s->release = nullptr;
}

std::string format_of(const DataType& t, const std::string& tz) {
  switch (t.id()) {
    case TypeId::kNull: return "n";
    case TypeId::kBoolean: return "b";
    case TypeId::kByte: return "c";
    case TypeId::kShort: return "s";
    case TypeId::kInt: return "i";
    case TypeId::kLong: return "l";
    case TypeId::kFloat: return "f";
    case TypeId::kDouble: return "g";
    case TypeId::kDecimal:
      return "d:" + std::to_string(t.precision()) + "," + std::to_string(t.scale());
    case TypeId::kString: return "u";
    case TypeId::kBinary: return "z";
    case TypeId::kDate: return "tdD";
    case TypeId::kTimestamp: return "tsu:" + tz;
    case TypeId::kTimestampNtz: return "tsu:";
    case TypeId::kTime: return "ttn";
    case TypeId::kYearMonthInterval: return "tiM";
    case TypeId::kDayTimeInterval: return "tDu";
    case TypeId::kCalendarInterval: return "tin";
    case TypeId::kArray: return "+l";
    case TypeId::kMap: return "+m";
    case TypeId::kStruct:
    case TypeId::kVariant: return "+s";
  }
  return "n";
}

/// Arrow's field metadata encoding: an int32 count, then each key and value as an int32
/// length and its bytes.
std::string arrow_metadata(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out;
  auto put = [&](int32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  put(static_cast<int32_t>(kv.size()));
  for (auto& [k, v] : kv) {
    put(static_cast<int32_t>(k.size()));
    out += k;
    put(static_cast<int32_t>(v.size()));
    out += v;
  }
  return out;
}

/// True for the Arrow struct Spark uses for VARIANT: a `value` field and a `metadata` field
/// tagged with the field metadata variant=true.
bool is_variant_struct(const ArrowSchema& s) {
  bool value = false, tagged = false;
  for (int64_t i = 0; i < s.n_children; ++i) {
    const ArrowSchema& c = *s.children[i];
    std::string name = c.name ? c.name : "";
    if (name == "value") value = true;
    if (name == "metadata" && c.metadata) {
      int32_t n, len;
      const char* m = c.metadata;
      std::memcpy(&n, m, 4);
      m += 4;
      for (int32_t k = 0; k < n; ++k) {
        std::memcpy(&len, m, 4);
        std::string key(m + 4, static_cast<size_t>(len));
        m += 4 + len;
        std::memcpy(&len, m, 4);
        std::string val(m + 4, static_cast<size_t>(len));
        m += 4 + len;
        if (key == "variant" && val == "true") tagged = true;
      }
    }
  }
  return value && tagged;
}

void fill_schema(ArrowSchema* out, const std::string& name, const DataType& t, bool nullable,
                 const std::string& tz, std::string metadata = {}) {
  auto* p = new SchemaPrivate();
  p->metadata = std::move(metadata);
  p->format = format_of(t, tz);
  p->name = name;
  std::vector<std::tuple<std::string, const DataType*, bool>> kids;
  if (t.id() == TypeId::kArray) {
    kids.emplace_back("element", t.element_type().get(), t.contains_null());
  } else if (t.id() == TypeId::kStruct) {
    for (auto& f : t.fields()) kids.emplace_back(f.name, f.type.get(), f.nullable);
  }
  TypePtr entries;
  if (t.id() == TypeId::kMap) {
    entries = DataType::struct_({{"key", t.key_type(), false, "{}"},
                                 {"value", t.value_type(), t.value_contains_null(), "{}"}});
    kids.emplace_back("entries", entries.get(), false);
  }
  for (auto& [kname, ktype, knull] : kids) {
    auto* c = new ArrowSchema();
    fill_schema(c, kname, *ktype, knull, tz);
    p->children.push_back(c);
  }
  if (t.id() == TypeId::kVariant) {
    // PySpark recognizes a variant by the tag on its metadata field.
    for (auto& f : t.fields()) {
      auto* c = new ArrowSchema();
      fill_schema(c, f.name, *f.type, false, tz,
                  f.name == "metadata" ? arrow_metadata({{"variant", "true"}}) : std::string());
      p->children.push_back(c);
    }
  }
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.c_str();
  out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->children.empty() ? nullptr : p->children.data();
  out->dictionary = nullptr;
  out->release = release_schema;
  out->private_data = p;
}

// ---- Array export ---------------------------------------------------------------------------

struct ArrayPrivate {
  ColumnPtr column;  // keeps buffers alive
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
  std::vector<ColumnPtr> extra;  // struct columns built for export
};

void release_array(ArrowArray* a) {
  if (a == nullptr || a->release == nullptr) return;
  auto* p = static_cast<ArrayPrivate*>(a->private_data);
  for (ArrowArray* c : p->children) {
    if (c->release) c->release(c);
    delete c;
  }
  delete p;
  a->release = nullptr;
}

const void* buf(const BufferPtr& b) { return b ? static_cast<const void*>(b->data()) : nullptr; }

/// Arrow's MONTH_DAY_NANO record: the calendar interval with its microseconds in nanoseconds.
struct MonthDayNano {
  int32_t months;
  int32_t days;
  int64_t nanos;
};
static_assert(sizeof(MonthDayNano) == sizeof(CalendarInterval), "same record size");

constexpr int64_t kNanosPerMicro = 1000;

/// The calendar interval values of `col` as MONTH_DAY_NANO records. Microseconds whose
/// nanoseconds overflow a long fail as Spark's Arrow writer fails on them.
BufferPtr month_day_nano(const Column& col) {
  auto data = Buffer::allocate(static_cast<size_t>(col.length()) * sizeof(MonthDayNano));
  const CalendarInterval* in = col.values<CalendarInterval>();
  auto* out = data->mutable_as<MonthDayNano>();
  for (int64_t i = 0; i < col.length(); ++i) {
    out[i] = {in[i].months, in[i].days, 0};
    if (col.is_valid(i) && __builtin_mul_overflow(in[i].micros, kNanosPerMicro, &out[i].nanos))
      throw SparkError(ErrorKind::kArithmetic, "ARITHMETIC_OVERFLOW",
                       "long overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                       {{"message", "long overflow"}, {"alternative", ""}, {"config", "\"spark.sql.ansi.enabled\""}});
  }
  return data;
}

void fill_array(ArrowArray* out, const ColumnPtr& col) {
  auto* p = new ArrayPrivate();
  p->column = col;
  const DataType& t = *col->type();
  switch (t.id()) {
    case TypeId::kNull: break;
    case TypeId::kString:
    case TypeId::kBinary:
      p->buffers = {buf(col->validity_buffer()), buf(col->offsets_buffer()), buf(col->data_buffer())};
      break;
    case TypeId::kArray:
    case TypeId::kMap:
      p->buffers = {buf(col->validity_buffer()), buf(col->offsets_buffer())};
      break;
    case TypeId::kStruct:
    case TypeId::kVariant: p->buffers = {buf(col->validity_buffer())}; break;
    case TypeId::kCalendarInterval: {
      BufferPtr nanos = month_day_nano(*col);
      p->buffers = {buf(col->validity_buffer()), buf(nanos)};
      p->extra.push_back(Column::make(col->type(), col->length(), nullptr, nanos));
      break;
    }
    default: p->buffers = {buf(col->validity_buffer()), buf(col->data_buffer())};
  }
  for (auto& c : col->children()) {
    auto* a = new ArrowArray();
    fill_array(a, c);
    p->children.push_back(a);
  }
  out->length = col->length();
  out->null_count = col->type()->id() == TypeId::kNull ? col->length()
                                                     : (col->may_have_nulls() ? col->null_count() : 0);
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(p->buffers.size());
  out->buffers = p->buffers.empty() ? nullptr : p->buffers.data();
  out->n_children = static_cast<int64_t>(p->children.size());
  out->children = p->children.empty() ? nullptr : p->children.data();
  out->dictionary = nullptr;
  out->release = release_array;
  out->private_data = p;
}

// ---- Import ---------------------------------------------------------------------------------

/// Owns an imported ArrowArray tree; buffers wrapped from it keep this alive.
struct ImportedArray {
  ArrowArray array;
  ~ImportedArray() {
    if (array.release) array.release(&array);
  }
};

BufferPtr wrap_buffer(const ArrowArray& a, int i, size_t size, const std::shared_ptr<ImportedArray>& owner) {
  if (i >= a.n_buffers || a.buffers[i] == nullptr) {
    // No validity bitmap: no nulls. A missing data or offsets buffer (Arrow allows it when the
    // array is empty) becomes a zeroed one, so every column of these types has its buffers.
    if (i == 0) return nullptr;
    auto b = Buffer::allocate(std::max<size_t>(size, 8));
    std::memset(b->mutable_data(), 0, std::max<size_t>(size, 8));
    return b;
  }
  return Buffer::wrap(a.buffers[i], size, owner);
}

/// `b` itself when its data is aligned for values of `align` bytes, else an aligned copy:
/// buffers read from an IPC stream need only be 8-byte aligned, and decimals are read as 16-byte
/// integers (aligned loads).
BufferPtr aligned(BufferPtr b, size_t size, size_t align) {
  if (!b || align <= 1 || reinterpret_cast<uintptr_t>(b->data()) % align == 0) return b;
  auto copy = Buffer::allocate(std::max<size_t>(size, 8));
  if (size > 0) std::memcpy(copy->mutable_data(), b->data(), size);
  return copy;
}

ColumnPtr import_column(const ArrowArray& a, const ArrowSchema& s, const TypePtr& type,
                        const std::shared_ptr<ImportedArray>& owner) {
  const int64_t off = a.offset;
  const int64_t n = a.length;
  const int64_t total = off + n;
  BufferPtr validity = a.null_count != 0 ? wrap_buffer(a, 0, static_cast<size_t>(bitmap_bytes(total)), owner) : nullptr;
  std::string fmt = s.format;
  ColumnPtr whole;
  switch (type->id()) {
    case TypeId::kNull: return Column::make(type, n, nullptr, nullptr);
    case TypeId::kBoolean:
      whole = Column::make(type, total, validity, wrap_buffer(a, 1, static_cast<size_t>(bitmap_bytes(total)), owner));
      break;
    case TypeId::kString:
    case TypeId::kBinary: {
      if (fmt == "U" || fmt == "Z" || fmt == "vu" || fmt == "vz")
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_ARROWTYPE",
                         "Unsupported arrow type " + fmt + ".");
      const size_t offset_bytes = static_cast<size_t>((total + 1) * 4);
      auto offsets = aligned(wrap_buffer(a, 1, offset_bytes, owner), offset_bytes, 4);
      const int32_t* o = offsets ? offsets->as<int32_t>() : nullptr;
      size_t bytes = o ? static_cast<size_t>(o[total]) : 0;
      auto data = wrap_buffer(a, 2, bytes, owner);
      if (!data) data = Buffer::allocate(0);
      if (!offsets) {
        offsets = Buffer::zeroed(static_cast<size_t>((total + 1) * 4));
      }
      whole = Column::make(type, total, validity, data, offsets);
      break;
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      auto offsets = wrap_buffer(a, 1, static_cast<size_t>((total + 1) * 4), owner);
      TypePtr child_type = type->id() == TypeId::kArray
                               ? type->element_type()
                               : DataType::struct_({{"key", type->key_type(), false, "{}"},
                                                    {"value", type->value_type(), type->value_contains_null(), "{}"}});
      auto child = import_column(*a.children[0], *s.children[0], child_type, owner);
      whole = Column::make(type, total, validity, nullptr, offsets, {child});
      break;
    }
    case TypeId::kStruct:
    case TypeId::kVariant: {
      std::vector<ColumnPtr> children;
      for (size_t i = 0; i < type->fields().size(); ++i) {
        auto c = import_column(*a.children[i], *s.children[i], type->fields()[i].type, owner);
        if (c->length() != total) {
          // A child with its own offset: pad to the parent's coordinate space.
          std::vector<int32_t> idx(static_cast<size_t>(total), -1);
          for (int64_t k = 0; k < c->length() && k < total; ++k) idx[k] = static_cast<int32_t>(k);
          c = gather(*c, idx.data(), total);
        }
        children.push_back(c);
      }
      whole = Column::make(type, total, validity, nullptr, nullptr, std::move(children));
      break;
    }
    case TypeId::kCalendarInterval: {
      // MONTH_DAY_NANO: nanoseconds to microseconds, truncated as Spark reads them.
      BufferPtr nanos = wrap_buffer(a, 1, static_cast<size_t>(total) * sizeof(MonthDayNano), owner);
      auto data = Buffer::allocate(static_cast<size_t>(total) * sizeof(CalendarInterval));
      const auto* in = nanos->as<MonthDayNano>();
      auto* out = data->mutable_as<CalendarInterval>();
      for (int64_t i = 0; i < total; ++i) out[i] = {in[i].months, in[i].days, in[i].nanos / kNanosPerMicro};
      whole = Column::make(type, total, validity, data);
      break;
    }
    default: {
      int w = type->byte_width();
      if (fmt.rfind("d:", 0) == 0 && fmt.find(",64") != std::string::npos)
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_ARROWTYPE",
                         "Unsupported arrow type " + fmt + ".");
      const size_t bytes = static_cast<size_t>(total * w);
      whole = Column::make(type, total, validity, aligned(wrap_buffer(a, 1, bytes, owner), bytes, static_cast<size_t>(w)));
    }
  }
  if (off == 0) return whole;
  return slice(whole, off, n);
}

TypePtr type_of(const ArrowSchema& s) {
  std::string f = s.format;
  if (f == "n") return DataType::null();
  if (f == "b") return DataType::boolean();
  if (f == "c") return DataType::byte();
  if (f == "s") return DataType::short_();
  if (f == "i") return DataType::int_();
  if (f == "l") return DataType::long_();
  if (f == "f") return DataType::float_();
  if (f == "g") return DataType::double_();
  if (f == "u") return DataType::string();
  if (f == "z") return DataType::binary();
  if (f == "tdD") return DataType::date();
  if (f == "ttn") return DataType::time();
  if (f == "tiM") return DataType::year_month_interval();
  if (f == "tDu") return DataType::day_time_interval();
  if (f == "tin") return DataType::calendar_interval();
  if (f.rfind("tsu:", 0) == 0) return f.size() > 4 ? DataType::timestamp() : DataType::timestamp_ntz();
  if (f.rfind("d:", 0) == 0) {
    int p = 0, sc = 0;
    std::sscanf(f.c_str() + 2, "%d,%d", &p, &sc);
    return DataType::decimal(p, sc);
  }
  if (f == "+l") {
    return DataType::array(type_of(*s.children[0]), (s.children[0]->flags & ARROW_FLAG_NULLABLE) != 0);
  }
  if (f == "+m") {
    const ArrowSchema& e = *s.children[0];
    return DataType::map(type_of(*e.children[0]), type_of(*e.children[1]),
                         (e.children[1]->flags & ARROW_FLAG_NULLABLE) != 0);
  }
  if (f == "+s" && is_variant_struct(s) && s.n_children == 2 &&
      std::string(s.children[0]->name ? s.children[0]->name : "") == "value")
    return DataType::variant();
  if (f == "+s") {
    std::vector<StructField> fields;
    for (int64_t i = 0; i < s.n_children; ++i) {
      const ArrowSchema& c = *s.children[i];
      fields.push_back({c.name ? c.name : "", type_of(c), (c.flags & ARROW_FLAG_NULLABLE) != 0, "{}"});
    }
    return DataType::struct_(std::move(fields));
  }
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_ARROWTYPE",
                   "Unsupported arrow type " + f + ".");
}

}  // namespace

void export_schema(const Schema& schema, const std::string& time_zone, ArrowSchema* out) {
  fill_schema(out, "", *DataType::struct_(schema), false, time_zone);
}

void export_batch(const Batch& batch, ArrowArray* out) {
  std::vector<StructField> fields;
  for (auto& c : batch.columns) fields.push_back({"", c->type(), true, "{}"});
  auto st = Column::make(DataType::struct_(std::move(fields)), batch.num_rows, nullptr, nullptr,
                         nullptr, batch.columns, 0);
  fill_array(out, st);
}

Schema import_schema(const ArrowSchema& arrow_schema) {
  TypePtr t = type_of(arrow_schema);
  EMBER_CHECK(t->id() == TypeId::kStruct, "import_schema expects a struct schema");
  return t->fields();
}

Batch import_batch(ArrowArray* array, const ArrowSchema& arrow_schema, const Schema& schema) {
  auto owner = std::make_shared<ImportedArray>();
  owner->array = *array;
  array->release = nullptr;  // moved
  const ArrowArray& a = owner->array;
  Batch out;
  out.num_rows = a.length;
  for (size_t i = 0; i < schema.size(); ++i) {
    auto c = import_column(*a.children[i], *arrow_schema.children[i], schema[i].type, owner);
    if (a.offset != 0 || c->length() != a.length) {
      c = slice(c, a.offset, a.length);
    }
    out.columns.push_back(c);
  }
  return out;
}

}  // namespace ember
