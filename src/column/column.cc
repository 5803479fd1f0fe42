#include "column/column.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/error.h"

namespace ember {

int64_t count_set_bits(const uint8_t* bits, int64_t n) {
  int64_t count = 0;
  int64_t full = n / 64;
  for (int64_t w = 0; w < full; ++w) {
    uint64_t word;
    std::memcpy(&word, bits + w * 8, 8);
    count += __builtin_popcountll(word);
  }
  for (int64_t i = full * 64; i < n; ++i) count += get_bit(bits, i);
  return count;
}

Column::Column(TypePtr type, int64_t length, BufferPtr validity, BufferPtr data, BufferPtr offsets,
               std::vector<ColumnPtr> children, int64_t null_count)
    : type_(std::move(type)),
      length_(length),
      null_count_(validity ? null_count : 0),
      validity_(std::move(validity)),
      data_(std::move(data)),
      offsets_(std::move(offsets)),
      children_(std::move(children)) {
  if (type_->id() == TypeId::kNull) null_count_ = length_;
}

int64_t Column::null_count() const {
  if (null_count_ < 0) null_count_ = length_ - count_set_bits(validity_->data(), length_);
  return null_count_;
}

ColumnPtr Column::make(TypePtr type, int64_t length, BufferPtr validity, BufferPtr data,
                       BufferPtr offsets, std::vector<ColumnPtr> children, int64_t null_count) {
  return std::make_shared<Column>(std::move(type), length, std::move(validity), std::move(data),
                                  std::move(offsets), std::move(children), null_count);
}

ColumnPtr Column::with_validity(BufferPtr validity) const {
  // The bytes are made first: a row that turns valid must show the bytes a made column holds
  // for it, whatever its code.
  return make(type_, length_, std::move(validity), data_buffer(), offsets_buffer(), children_, -1);
}

ColumnPtr Column::with_dictionary_codes(std::shared_ptr<const DictionaryCodes> codes) const {
  auto c = std::make_shared<Column>(type_, length_, validity_, data_buffer(), offsets_buffer(), children_,
                                    null_count_);
  c->dictionary_codes_ = std::move(codes);
  return c;
}

ColumnPtr Column::from_dictionary(TypePtr type, int64_t length, BufferPtr validity, ColumnPtr dictionary,
                                  std::shared_ptr<const DictionaryCodes> codes, int64_t null_count) {
  EMBER_CHECK(type->id() == TypeId::kString || type->id() == TypeId::kBinary,
              "from_dictionary: not a string or binary type");
  EMBER_CHECK(dictionary && codes && codes->codes && codes->cardinality == dictionary->length() &&
                  static_cast<int64_t>(codes->codes->size()) >= length * static_cast<int64_t>(sizeof(int32_t)),
              "from_dictionary: codes do not match the dictionary");
  auto c = std::make_shared<Column>(std::move(type), length, std::move(validity), nullptr, nullptr,
                                    std::vector<ColumnPtr>{}, null_count);
  c->dictionary_codes_ = std::move(codes);
  c->dictionary_strings_ = std::make_shared<DictionaryStrings>();
  c->dictionary_strings_->dictionary = std::move(dictionary);
  return c;
}

const ColumnPtr& Column::dictionary() const {
  static const ColumnPtr kNone;
  return dictionary_strings_ ? dictionary_strings_->dictionary : kNone;
}

bool Column::strings_made() const {
  return !dictionary_strings_ || dictionary_strings_->made.load(std::memory_order_acquire);
}

std::string_view Column::dictionary_string_at(int64_t i) const {
  const int32_t code = dictionary_codes_->codes->as<int32_t>()[i];
  // A null row's code may be anything; it reads as the empty value.
  if (code < 0 || code >= dictionary_codes_->cardinality) return {};
  return dictionary_strings_->dictionary->string_at(code);
}

const Column::DictionaryStrings& Column::made_strings() const {
  DictionaryStrings& s = *dictionary_strings_;
  std::call_once(s.once, [&] {
    const Column& dict = *s.dictionary;
    const int32_t* idx = dictionary_codes_->codes->as<int32_t>();
    const int32_t dict_n = dictionary_codes_->cardinality;
    const int32_t* doff = dict.offsets();
    const uint8_t* dbytes = dict.data_buffer() ? dict.data_buffer()->data() : nullptr;
    const int64_t dict_size = dict.data_buffer() ? static_cast<int64_t>(dict.data_buffer()->size()) : 0;
    const int64_t n = length_;
    auto offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int32_t));
    int32_t* off = offsets->mutable_as<int32_t>();
    int64_t total = 0;
    off[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (is_valid(i)) {
        const int32_t k = idx[i];
        EMBER_CHECK(k >= 0 && k < dict_n, "dictionary code out of range in a dictionary-coded column");
        total += doff[k + 1] - doff[k];
        if (total > INT32_MAX)
          throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR", "string column exceeds 2 GiB in one batch");
      }
      off[i + 1] = static_cast<int32_t>(total);
    }
    // Values of up to 16 bytes move as one 16-byte copy where the dictionary has 16 bytes from
    // their start; the output has 16 bytes of slack.
    constexpr int64_t kShort = 16;
    auto data = Buffer::allocate(static_cast<size_t>(total + kShort));
    data->resize(static_cast<size_t>(total));
    uint8_t* out = data->mutable_data();
    for (int64_t i = 0; i < n; ++i) {
      const int32_t len = off[i + 1] - off[i];
      if (len == 0) continue;
      const int64_t from = doff[idx[i]];
      if (len <= kShort && from + kShort <= dict_size) std::memcpy(out + off[i], dbytes + from, kShort);
      else std::memcpy(out + off[i], dbytes + from, static_cast<size_t>(len));
    }
    std::memset(out + total, 0, kShort);  // padding stays zeroed
    s.data = std::move(data);
    s.offsets = std::move(offsets);
    s.made.store(true, std::memory_order_release);
  });
  return s;
}

namespace {
template <typename T>
void value_range(const Column& c, int64_t n, int64_t& lo, int64_t& hi) {
  const T* v = c.values<T>();
  lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  if (!c.may_have_nulls()) {
    // A loop of its own, in the values' type, without a test per row: it vectorizes.
    if (n <= 0) return;
    T a = v[0], b = v[0];
    for (int64_t i = 1; i < n; ++i) {
      a = std::min(a, v[i]);
      b = std::max(b, v[i]);
    }
    lo = a;
    hi = b;
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (c.is_null(i)) continue;
    lo = std::min<int64_t>(lo, v[i]);
    hi = std::max<int64_t>(hi, v[i]);
  }
}
}  // namespace

bool integer_range(const Column& c, int64_t n, int64_t& lo, int64_t& hi) {
  EMBER_CHECK(c.type()->is_integer_valued(), "integer_range of a column that is not integer-valued");
  switch (c.type()->byte_width()) {
    case 1: value_range<int8_t>(c, n, lo, hi); break;
    case 2: value_range<int16_t>(c, n, lo, hi); break;
    case 4: value_range<int32_t>(c, n, lo, hi); break;
    default: value_range<int64_t>(c, n, lo, hi); break;
  }
  return lo <= hi;
}

int64_t Column::memory_size() const {
  int64_t s = 0;
  if (dictionary_codes_ && dictionary_codes_->codes) s += static_cast<int64_t>(dictionary_codes_->codes->size());
  if (validity_) s += static_cast<int64_t>(validity_->size());
  if (data_) s += static_cast<int64_t>(data_->size());
  if (offsets_) s += static_cast<int64_t>(offsets_->size());
  // A dictionary-coded column counts its bytes once made; the dictionary is shared by the
  // columns of one file part and counted by none of them.
  if (dictionary_strings_ && dictionary_strings_->made.load(std::memory_order_acquire))
    s += static_cast<int64_t>(dictionary_strings_->data->size() + dictionary_strings_->offsets->size());
  for (auto& c : children_) s += c->memory_size();
  return s;
}

Value Column::value_at(int64_t i) const {
  if (is_null(i) || type_->id() == TypeId::kNull) return Value();
  switch (type_->id()) {
    case TypeId::kBoolean: return Value::boolean(bool_at(i));
    case TypeId::kByte: return Value::integer(values<int8_t>()[i]);
    case TypeId::kShort: return Value::integer(values<int16_t>()[i]);
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kYearMonthInterval: return Value::integer(values<int32_t>()[i]);
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kDayTimeInterval: return Value::integer(values<int64_t>()[i]);
    case TypeId::kFloat: return Value::floating(values<float>()[i]);
    case TypeId::kDouble: return Value::floating(values<double>()[i]);
    case TypeId::kDecimal: return Value::decimal(values<int128_t>()[i]);
    case TypeId::kCalendarInterval: return Value::calendar_interval(values<CalendarInterval>()[i]);
    case TypeId::kString:
    case TypeId::kBinary: return Value::bytes(std::string(string_at(i)));
    case TypeId::kArray:
    case TypeId::kMap: {
      Value::List items;
      const int32_t* o = offsets();
      const Column& c = *children_[0];
      for (int32_t k = o[i]; k < o[i + 1]; ++k) items.push_back(c.value_at(k));
      return Value::list(std::move(items));
    }
    case TypeId::kStruct:
    case TypeId::kVariant: {
      Value::List items;
      for (auto& c : children_) items.push_back(c->value_at(i));
      return Value::list(std::move(items));
    }
    default: EMBER_UNREACHABLE("value_at: unexpected type");
  }
}

ColumnPtr Column::all_null(const TypePtr& type, int64_t length) {
  ColumnBuilder b(type, length);
  for (int64_t i = 0; i < length; ++i) b.append_null();
  return b.finish();
}

ColumnPtr Column::constant(const TypePtr& type, const Value& v, int64_t length) {
  ColumnBuilder b(type, length);
  if (v.is_null()) {
    for (int64_t i = 0; i < length; ++i) b.append_null();
    return b.finish();
  }
  // Append once, then replicate the bytes for fixed-width types.
  int w = type->byte_width();
  if (w > 0 && length > 1) {
    b.append_value(v);
    auto one = b.finish();
    auto data = Buffer::allocate(static_cast<size_t>(w * length));
    const uint8_t* src = one->data_buffer()->data();
    uint8_t* dst = data->mutable_data();
    auto fill = [&](auto tag) {
      using T = decltype(tag);
      T v;
      std::memcpy(&v, src, sizeof(T));
      std::fill_n(reinterpret_cast<T*>(dst), length, v);
    };
    switch (w) {
      case 1: fill(uint8_t{}); break;
      case 2: fill(uint16_t{}); break;
      case 4: fill(uint32_t{}); break;
      case 8: fill(uint64_t{}); break;
      default:
        for (int64_t i = 0; i < length; ++i) std::memcpy(dst + i * w, src, static_cast<size_t>(w));
    }
    return make(type, length, nullptr, data, nullptr, {}, 0);
  }
  for (int64_t i = 0; i < length; ++i) b.append_value(v);
  return b.finish();
}

// ---------------------------------------------------------------------------------------------
// Gather, slice, concat.

namespace {

/// Whether some index is -1 (a null row). Blocks of indices are or-ed without a branch per
/// index, and stop at the first block holding one. The blocks have a fixed length so that the
/// loop vectorizes at -O2 (whose cost model vectorizes only loops without a remainder).
bool any_negative(const int32_t* idx, int64_t n) {
  constexpr int64_t kBlock = 1024;
  int64_t start = 0;
  for (; start + kBlock <= n; start += kBlock) {
    int32_t bits = 0;
    for (int64_t k = 0; k < kBlock; ++k) bits |= idx[start + k];
    if (bits < 0) return true;
  }
  int32_t bits = 0;
  for (int64_t k = start; k < n; ++k) bits |= idx[k];
  return bits < 0;
}

/// The gathered rows' validity; `*negative` says whether some index is -1.
BufferPtr gather_validity(const Column& in, const int32_t* idx, int64_t n, int64_t* nulls, bool* negative) {
  const bool any_neg = any_negative(idx, n);
  *negative = any_neg;
  if (!in.may_have_nulls() && !any_neg && in.type()->id() != TypeId::kNull) {
    *nulls = 0;
    return nullptr;
  }
  auto bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  uint8_t* out = bits->mutable_data();
  int64_t count = 0;
  for (int64_t k = 0; k < n; ++k) {
    bool valid = idx[k] >= 0 && in.is_valid(idx[k]) && in.type()->id() != TypeId::kNull;
    if (valid) set_bit(out, k);
    else ++count;
  }
  *nulls = count;
  if (count == 0) return nullptr;
  return bits;
}

/// The codes of the gathered rows; a null row (index -1) takes code 0.
std::shared_ptr<const DictionaryCodes> gather_codes(const DictionaryCodes& d, const int32_t* idx, int64_t n) {
  auto codes = std::make_shared<DictionaryCodes>();
  codes->codes = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
  codes->cardinality = d.cardinality;
  const int32_t* from = d.codes->as<int32_t>();
  int32_t* to = codes->codes->mutable_as<int32_t>();
  for (int64_t k = 0; k < n; ++k) to[k] = idx[k] >= 0 ? from[idx[k]] : 0;
  return codes;
}

}  // namespace

ColumnPtr gather(const Column& in, const int32_t* idx, int64_t n) {
  int64_t nulls = 0;
  bool negative = false;
  BufferPtr validity = gather_validity(in, idx, n, &nulls, &negative);
  const TypePtr& t = in.type();
  switch (t->id()) {
    case TypeId::kNull: return Column::make(t, n, nullptr, nullptr);
    case TypeId::kBoolean: {
      auto data = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
      for (int64_t k = 0; k < n; ++k)
        if (idx[k] >= 0 && in.bool_at(idx[k])) set_bit(data->mutable_data(), k);
      return Column::make(t, n, validity, data, nullptr, {}, nulls);
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      // Rows of a dictionary-coded column whose bytes nobody asked for move as their codes.
      if (in.dictionary() && !in.strings_made())
        return Column::from_dictionary(t, n, validity, in.dictionary(), gather_codes(*in.dictionary_codes(), idx, n),
                                       nulls);
      auto offsets = Buffer::allocate(static_cast<size_t>((n + 1) * 4));
      int32_t* o = offsets->mutable_as<int32_t>();
      const int32_t* io = in.offsets();
      int64_t total = 0;
      o[0] = 0;
      for (int64_t k = 0; k < n; ++k) {
        if (idx[k] >= 0) total += io[idx[k] + 1] - io[idx[k]];
        if (total > INT32_MAX)
          throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR",
                           "string column exceeds 2 GiB in one batch");
        o[k + 1] = static_cast<int32_t>(total);
      }
      // Strings of up to 16 bytes move as one fixed 16-byte copy where the source has 16 bytes
      // from their start (the output has 16 bytes of slack; the extra bytes are overwritten by
      // the next value or lie past the end).
      constexpr int64_t kShort = 16;
      auto data = Buffer::allocate(static_cast<size_t>(total + kShort));
      data->resize(static_cast<size_t>(total));
      const uint8_t* src = in.data_buffer() ? in.data_buffer()->data() : nullptr;
      const int64_t src_size = in.data_buffer() ? static_cast<int64_t>(in.data_buffer()->size()) : 0;
      uint8_t* dst = data->mutable_data();
      for (int64_t k = 0; k < n; ++k) {
        if (idx[k] < 0) continue;
        const int64_t len = o[k + 1] - o[k];
        const int64_t from = io[idx[k]];
        if (len <= kShort && from + kShort <= src_size) std::memcpy(dst + o[k], src + from, kShort);
        else if (len > 0) std::memcpy(dst + o[k], src + from, static_cast<size_t>(len));
      }
      std::memset(dst + total, 0, kShort);  // padding stays zeroed
      ColumnPtr out = Column::make(t, n, validity, data, offsets, {}, nulls);
      // The rows keep their dictionary codes, so a filter or a join in between does not cost an
      // aggregation above its codes.
      if (const DictionaryCodes* d = in.dictionary_codes()) out = out->with_dictionary_codes(gather_codes(*d, idx, n));
      return out;
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      auto offsets = Buffer::allocate(static_cast<size_t>((n + 1) * 4));
      int32_t* o = offsets->mutable_as<int32_t>();
      const int32_t* io = in.offsets();
      std::vector<int32_t> child_idx;
      o[0] = 0;
      for (int64_t k = 0; k < n; ++k) {
        if (idx[k] >= 0)
          for (int32_t j = io[idx[k]]; j < io[idx[k] + 1]; ++j) child_idx.push_back(j);
        o[k + 1] = static_cast<int32_t>(child_idx.size());
      }
      auto child = gather(*in.child(0), child_idx.data(), static_cast<int64_t>(child_idx.size()));
      return Column::make(t, n, validity, nullptr, offsets, {child}, nulls);
    }
    case TypeId::kStruct:
    case TypeId::kVariant: {
      std::vector<ColumnPtr> children;
      for (auto& c : in.children()) children.push_back(gather(*c, idx, n));
      return Column::make(t, n, validity, nullptr, nullptr, std::move(children), nulls);
    }
    default: {
      int w = t->byte_width();
      EMBER_CHECK(w > 0, "gather: unexpected type " + t->simple_string());
      auto data = Buffer::allocate(static_cast<size_t>(w * n));
      const uint8_t* src = in.data_buffer()->data();
      uint8_t* dst = data->mutable_data();
      // Without a -1 index (a join's matched pairs, a filter's kept rows) every load is in
      // bounds: the loop needs no test per row.
      auto gather_all = [&]<typename T>() {
        const T* from = reinterpret_cast<const T*>(src);
        T* to = reinterpret_cast<T*>(dst);
        for (int64_t k = 0; k < n; ++k) to[k] = from[idx[k]];
      };
      if (!negative && (w == 1 || w == 2 || w == 4 || w == 8)) {
        if (w == 1) gather_all.template operator()<int8_t>();
        else if (w == 2) gather_all.template operator()<int16_t>();
        else if (w == 4) gather_all.template operator()<int32_t>();
        else gather_all.template operator()<int64_t>();
        return Column::make(t, n, validity, data, nullptr, {}, nulls);
      }
      switch (w) {
        case 1:
          for (int64_t k = 0; k < n; ++k) dst[k] = idx[k] >= 0 ? src[idx[k]] : 0;
          break;
        case 2:
          for (int64_t k = 0; k < n; ++k)
            reinterpret_cast<int16_t*>(dst)[k] = idx[k] >= 0 ? reinterpret_cast<const int16_t*>(src)[idx[k]] : 0;
          break;
        case 4:
          for (int64_t k = 0; k < n; ++k)
            reinterpret_cast<int32_t*>(dst)[k] = idx[k] >= 0 ? reinterpret_cast<const int32_t*>(src)[idx[k]] : 0;
          break;
        case 8:
          for (int64_t k = 0; k < n; ++k)
            reinterpret_cast<int64_t*>(dst)[k] = idx[k] >= 0 ? reinterpret_cast<const int64_t*>(src)[idx[k]] : 0;
          break;
        case 16:  // decimals, intervals: a fixed-size copy, not a call per value
          for (int64_t k = 0; k < n; ++k) {
            if (idx[k] >= 0) std::memcpy(dst + k * 16, src + static_cast<int64_t>(idx[k]) * 16, 16);
            else std::memset(dst + k * 16, 0, 16);
          }
          break;
        default:
          for (int64_t k = 0; k < n; ++k) {
            if (idx[k] >= 0) std::memcpy(dst + k * w, src + static_cast<int64_t>(idx[k]) * w, static_cast<size_t>(w));
            else std::memset(dst + k * w, 0, static_cast<size_t>(w));
          }
      }
      return Column::make(t, n, validity, data, nullptr, {}, nulls);
    }
  }
}

ColumnPtr slice(const ColumnPtr& in, int64_t offset, int64_t length) {
  if (offset == 0 && length == in->length()) return in;
  // A prefix of a column without children shares its buffers: bitmaps, values and offsets
  // of the first `length` rows are where they were.
  if (offset == 0 && length < in->length() && in->children().empty()) {
    if (in->dictionary() && !in->strings_made()) {
      auto codes = std::make_shared<DictionaryCodes>(*in->dictionary_codes());
      return Column::from_dictionary(in->type(), length, in->validity_buffer(), in->dictionary(), std::move(codes));
    }
    return Column::make(in->type(), length, in->validity_buffer(), in->data_buffer(), in->offsets_buffer(), {});
  }
  std::vector<int32_t> idx(static_cast<size_t>(length));
  for (int64_t k = 0; k < length; ++k) idx[k] = static_cast<int32_t>(offset + k);
  return gather(*in, idx.data(), length);
}

bool same_dictionary(const Column& a, const Column& b) {
  const ColumnPtr& x = a.dictionary();
  const ColumnPtr& y = b.dictionary();
  if (!x || !y || a.strings_made() || b.strings_made()) return false;
  // Batches of one file part carry columns of their own over the same dictionary bytes.
  auto bytes = [](const Column& c) { return c.data_buffer() ? c.data_buffer()->data() : nullptr; };
  return x == y || (x->length() == y->length() && x->offsets() == y->offsets() && bytes(*x) == bytes(*y));
}

ColumnPtr concat(const std::vector<ColumnPtr>& parts) {
  EMBER_CHECK(!parts.empty(), "concat of no columns");
  if (parts.size() == 1) return parts[0];
  const TypePtr& t = parts[0]->type();
  int64_t n = 0;
  bool any_nulls = false;
  for (auto& p : parts) {
    n += p->length();
    any_nulls |= p->may_have_nulls();
  }
  BufferPtr validity;
  if (any_nulls) {
    validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
    int64_t pos = 0;
    for (auto& p : parts) {
      for (int64_t i = 0; i < p->length(); ++i)
        if (p->is_valid(i)) set_bit(validity->mutable_data(), pos + i);
      pos += p->length();
    }
  }
  // Parts of one dictionary whose bytes nobody asked for stay codes.
  const ColumnPtr& dictionary = parts[0]->dictionary();
  bool one_dictionary = true;
  for (auto& p : parts) one_dictionary = one_dictionary && same_dictionary(*parts[0], *p);
  if (one_dictionary) {
    auto codes = std::make_shared<DictionaryCodes>();
    codes->cardinality = parts[0]->dictionary_codes()->cardinality;
    codes->codes = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
    int64_t pos = 0;
    for (auto& p : parts) {
      std::memcpy(codes->codes->mutable_as<int32_t>() + pos, p->dictionary_codes()->codes->data(),
                  static_cast<size_t>(p->length()) * sizeof(int32_t));
      pos += p->length();
    }
    return Column::from_dictionary(t, n, validity, dictionary, std::move(codes));
  }
  switch (t->id()) {
    case TypeId::kNull: return Column::make(t, n, nullptr, nullptr);
    case TypeId::kBoolean: {
      auto data = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
      int64_t pos = 0;
      for (auto& p : parts) {
        for (int64_t i = 0; i < p->length(); ++i)
          if (p->bool_at(i)) set_bit(data->mutable_data(), pos + i);
        pos += p->length();
      }
      return Column::make(t, n, validity, data);
    }
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kArray:
    case TypeId::kMap: {
      bool is_list = t->id() == TypeId::kArray || t->id() == TypeId::kMap;
      auto offsets = Buffer::allocate(static_cast<size_t>((n + 1) * 4));
      int32_t* o = offsets->mutable_as<int32_t>();
      int64_t total = 0, pos = 0;
      o[0] = 0;
      std::vector<ColumnPtr> children;
      for (auto& p : parts) {
        const int32_t* po = p->offsets();
        for (int64_t i = 0; i < p->length(); ++i) o[pos + i + 1] = static_cast<int32_t>(total + po[i + 1]);
        total += po[p->length()];
        pos += p->length();
        if (is_list) children.push_back(slice(p->child(0), 0, po[p->length()]));
      }
      if (is_list) return Column::make(t, n, validity, nullptr, offsets, {concat(children)});
      auto data = Buffer::allocate(static_cast<size_t>(total));
      int64_t at = 0;
      for (auto& p : parts) {
        int64_t bytes = p->offsets()[p->length()];
        if (bytes) std::memcpy(data->mutable_data() + at, p->data_buffer()->data(), static_cast<size_t>(bytes));
        at += bytes;
      }
      return Column::make(t, n, validity, data, offsets);
    }
    case TypeId::kStruct:
    case TypeId::kVariant: {
      std::vector<ColumnPtr> children;
      for (size_t f = 0; f < t->fields().size(); ++f) {
        std::vector<ColumnPtr> cs;
        for (auto& p : parts) cs.push_back(p->child(f));
        children.push_back(concat(cs));
      }
      return Column::make(t, n, validity, nullptr, nullptr, std::move(children));
    }
    default: {
      int w = t->byte_width();
      auto data = Buffer::allocate(static_cast<size_t>(w * n));
      int64_t at = 0;
      for (auto& p : parts) {
        size_t bytes = static_cast<size_t>(p->length() * w);
        if (bytes) std::memcpy(data->mutable_data() + at, p->data_buffer()->data(), bytes);
        at += static_cast<int64_t>(bytes);
      }
      return Column::make(t, n, validity, data);
    }
  }
}

int64_t Batch::memory_size() const {
  int64_t s = 0;
  for (auto& c : columns) s += c->memory_size();
  return s;
}

Batch gather_batch(const Batch& in, const int32_t* indices, int64_t n) {
  Batch out;
  out.num_rows = n;
  out.index = in.index;
  out.file = in.file;
  out.partition = in.partition;
  out.partition_row = in.partition_row;
  for (auto& c : in.columns) out.columns.push_back(gather(*c, indices, n));
  return out;
}

Batch slice_batch(const Batch& in, int64_t offset, int64_t length) {
  Batch out;
  out.num_rows = length;
  out.index = in.index;
  out.file = in.file;
  out.partition = in.partition;
  out.partition_row = in.partition_row + offset;
  for (auto& c : in.columns) out.columns.push_back(slice(c, offset, length));
  return out;
}

Batch concat_batches(const std::vector<Batch>& parts, size_t num_columns) {
  Batch out;
  if (parts.empty()) return out;
  if (parts.size() == 1) return parts[0];
  out.index = parts[0].index;
  out.file = parts[0].file;
  out.partition = parts[0].partition;
  out.partition_row = parts[0].partition_row;
  for (auto& p : parts) {
    out.num_rows += p.num_rows;
    if (p.file != out.file) out.file = nullptr;
  }
  for (size_t c = 0; c < num_columns; ++c) {
    std::vector<ColumnPtr> cs;
    for (auto& p : parts) cs.push_back(p.columns[c]);
    out.columns.push_back(concat(cs));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ColumnBuilder.

ColumnBuilder::ColumnBuilder(TypePtr type, int64_t capacity) : type_(std::move(type)) {
  init(capacity);
}

void ColumnBuilder::init(int64_t capacity) {
  length_ = 0;
  null_count_ = 0;
  data_bytes_ = 0;
  validity_.reset();
  data_.reset();
  offsets_.reset();
  children_.clear();
  switch (type_->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      offsets_ = Buffer::allocate(static_cast<size_t>((std::max<int64_t>(capacity, 16) + 1) * 4));
      offsets_->mutable_as<int32_t>()[0] = 0;
      data_ = Buffer::allocate(static_cast<size_t>(std::max<int64_t>(capacity * 8, 64)));
      break;
    case TypeId::kArray:
      offsets_ = Buffer::allocate(static_cast<size_t>((std::max<int64_t>(capacity, 16) + 1) * 4));
      offsets_->mutable_as<int32_t>()[0] = 0;
      children_.push_back(std::make_unique<ColumnBuilder>(type_->element_type()));
      break;
    case TypeId::kMap:
      offsets_ = Buffer::allocate(static_cast<size_t>((std::max<int64_t>(capacity, 16) + 1) * 4));
      offsets_->mutable_as<int32_t>()[0] = 0;
      children_.push_back(std::make_unique<ColumnBuilder>(DataType::struct_(
          {{"key", type_->key_type(), false, "{}"},
           {"value", type_->value_type(), type_->value_contains_null(), "{}"}})));
      break;
    case TypeId::kStruct:
    case TypeId::kVariant:
      for (auto& f : type_->fields()) children_.push_back(std::make_unique<ColumnBuilder>(f.type, capacity));
      break;
    case TypeId::kNull: break;
    case TypeId::kBoolean:
      data_ = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(std::max<int64_t>(capacity, 64))));
      break;
    default:
      data_ = Buffer::allocate(static_cast<size_t>(std::max<int64_t>(capacity, 16) * type_->byte_width()));
  }
}

ColumnBuilder::~ColumnBuilder() = default;

void ColumnBuilder::ensure_data(int64_t bytes) {
  if (static_cast<int64_t>(data_->size()) < bytes)
    data_->resize(static_cast<size_t>(std::max<int64_t>(bytes, static_cast<int64_t>(data_->size()) * 2)));
}

void ColumnBuilder::push_validity(bool valid) {
  if (!valid && !validity_) {
    int64_t cap = std::max<int64_t>(length_ + 1, 64);
    validity_ = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(cap * 2)));
    for (int64_t i = 0; i < length_; ++i) set_bit(validity_->mutable_data(), i);
  }
  if (validity_) {
    if (bitmap_bytes(length_ + 1) > static_cast<int64_t>(validity_->size()))
      validity_->resize(validity_->size() * 2);
    put_bit(validity_->mutable_data(), length_, valid);
  }
  if (!valid) ++null_count_;
}

void ColumnBuilder::mark_valid() {
  push_validity(true);
  ++length_;
}

namespace {
void push_offset(BufferPtr& offsets, int64_t row, int64_t value) {
  if (static_cast<int64_t>(offsets->size()) < (row + 2) * 4)
    offsets->resize(std::max<size_t>(static_cast<size_t>((row + 2) * 4), offsets->size() * 2));
  if (value > INT32_MAX)
    throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR", "column exceeds 2 GiB in one batch");
  offsets->mutable_as<int32_t>()[row + 1] = static_cast<int32_t>(value);
}
}  // namespace

void ColumnBuilder::append_null() {
  switch (type_->id()) {
    case TypeId::kNull: break;
    case TypeId::kBoolean:
      ensure_data(bitmap_bytes(length_ + 1));
      clear_bit(data_->mutable_data(), length_);
      break;
    case TypeId::kString:
    case TypeId::kBinary: push_offset(offsets_, length_, data_bytes_); break;
    case TypeId::kArray:
    case TypeId::kMap: push_offset(offsets_, length_, children_[0]->length()); break;
    case TypeId::kStruct:
      for (auto& c : children_) c->append_null();
      break;
    case TypeId::kVariant:
      // The layout's children are non-null: a null variant row holds empty buffers.
      for (auto& c : children_) c->append_bytes({});
      break;
    default: {
      int w = type_->byte_width();
      ensure_data((length_ + 1) * w);
      std::memset(data_->mutable_data() + length_ * w, 0, static_cast<size_t>(w));
    }
  }
  push_validity(false);
  ++length_;
}

void ColumnBuilder::append_bool(bool v) {
  ensure_data(bitmap_bytes(length_ + 1));
  put_bit(data_->mutable_data(), length_, v);
  mark_valid();
}

void ColumnBuilder::append_bytes(std::string_view v) {
  ensure_data(data_bytes_ + static_cast<int64_t>(v.size()));
  if (!v.empty()) std::memcpy(data_->mutable_data() + data_bytes_, v.data(), v.size());
  data_bytes_ += static_cast<int64_t>(v.size());
  push_offset(offsets_, length_, data_bytes_);
  mark_valid();
}

void ColumnBuilder::close_list() {
  push_offset(offsets_, length_, children_[0]->length());
  mark_valid();
}

void ColumnBuilder::close_struct(bool valid) {
  push_validity(valid);
  ++length_;
}

void ColumnBuilder::append_value(const Value& v) {
  if (v.is_null()) {
    append_null();
    return;
  }
  switch (type_->id()) {
    case TypeId::kNull: append_null(); break;
    case TypeId::kBoolean: append_bool(v.as_bool()); break;
    case TypeId::kByte: append<int8_t>(static_cast<int8_t>(v.as_int())); break;
    case TypeId::kShort: append<int16_t>(static_cast<int16_t>(v.as_int())); break;
    case TypeId::kInt:
    case TypeId::kDate:
    case TypeId::kYearMonthInterval: append<int32_t>(static_cast<int32_t>(v.as_int())); break;
    case TypeId::kLong:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kTime:
    case TypeId::kDayTimeInterval: append<int64_t>(v.as_int()); break;
    case TypeId::kFloat: append<float>(static_cast<float>(v.as_double())); break;
    case TypeId::kDouble: append<double>(v.as_double()); break;
    case TypeId::kDecimal: append<int128_t>(v.as_decimal()); break;
    case TypeId::kCalendarInterval: append<CalendarInterval>(v.as_calendar_interval()); break;
    case TypeId::kString:
    case TypeId::kBinary: append_bytes(v.as_bytes()); break;
    case TypeId::kArray:
    case TypeId::kMap:
      for (auto& item : v.as_list()) children_[0]->append_value(item);
      close_list();
      break;
    case TypeId::kStruct:
    case TypeId::kVariant: {
      auto& items = v.as_list();
      EMBER_CHECK(items.size() == children_.size(), "struct value arity mismatch");
      for (size_t i = 0; i < items.size(); ++i) children_[i]->append_value(items[i]);
      close_struct(true);
      break;
    }
  }
}

void ColumnBuilder::append_from(const Column& c, int64_t row) {
  if (c.is_null(row)) {
    append_null();
    return;
  }
  switch (type_->id()) {
    case TypeId::kBoolean: append_bool(c.bool_at(row)); break;
    case TypeId::kString:
    case TypeId::kBinary: append_bytes(c.string_at(row)); break;
    case TypeId::kArray:
    case TypeId::kMap: {
      const int32_t* o = c.offsets();
      for (int32_t k = o[row]; k < o[row + 1]; ++k) children_[0]->append_from(*c.child(0), k);
      close_list();
      break;
    }
    case TypeId::kStruct:
    case TypeId::kVariant:
      for (size_t i = 0; i < children_.size(); ++i) children_[i]->append_from(*c.child(i), row);
      close_struct(true);
      break;
    case TypeId::kNull: append_null(); break;
    default: {
      int w = type_->byte_width();
      ensure_data((length_ + 1) * w);
      std::memcpy(data_->mutable_data() + length_ * w, c.data_buffer()->data() + row * w, static_cast<size_t>(w));
      mark_valid();
    }
  }
}

ColumnPtr ColumnBuilder::finish() {
  BufferPtr validity = null_count_ > 0 ? validity_ : nullptr;
  if (validity) validity->resize(static_cast<size_t>(bitmap_bytes(length_)));
  std::vector<ColumnPtr> children;
  for (auto& c : children_) children.push_back(c->finish());
  switch (type_->id()) {
    case TypeId::kString:
    case TypeId::kBinary:
      data_->resize(static_cast<size_t>(data_bytes_));
      offsets_->resize(static_cast<size_t>((length_ + 1) * 4));
      break;
    case TypeId::kArray:
    case TypeId::kMap: offsets_->resize(static_cast<size_t>((length_ + 1) * 4)); break;
    case TypeId::kBoolean: data_->resize(static_cast<size_t>(bitmap_bytes(length_))); break;
    case TypeId::kStruct:
    case TypeId::kVariant:
    case TypeId::kNull: break;
    default: data_->resize(static_cast<size_t>(length_ * type_->byte_width())); break;
  }
  auto col = Column::make(type_, length_, validity, data_, offsets_, std::move(children), null_count_);
  init(0);  // the builder can be reused for the next column
  return col;
}

}  // namespace ember
