#include "common/variant.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/datetime.h"
#include "common/json.h"
#include "common/number_format.h"
#include "common/timezone.h"

namespace ember::variant {
namespace {

constexpr int kBasicPrimitive = 0;
constexpr int kBasicShortString = 1;
constexpr int kBasicObject = 2;
constexpr int kBasicArray = 3;
constexpr size_t kMaxShortString = 63;

uint64_t read_le(std::string_view s, size_t pos, int bytes) {
  if (pos + static_cast<size_t>(bytes) > s.size()) throw MalformedVariant{};
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(s[pos + i])) << (8 * i);
  return v;
}

int int_size(uint64_t v) { return v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFFFF ? 3 : 4; }

uint8_t header_at(std::string_view s) {
  if (s.empty()) throw MalformedVariant{};
  return static_cast<uint8_t>(s[0]);
}

/// Java's String.compareTo: UTF-16 code unit order, which differs from UTF-8 byte order only
/// between supplementary characters and those from U+E000 up.
bool key_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  auto next_unit = [](std::string_view s, size_t& k, uint32_t& pending) -> uint32_t {
    if (pending) {
      uint32_t u = pending;
      pending = 0;
      return u;
    }
    auto c = static_cast<uint8_t>(s[k]);
    uint32_t cp;
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    if (k + static_cast<size_t>(len) > s.size()) len = 1;
    cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (int t = 1; t < len; ++t) cp = (cp << 6) | (static_cast<uint8_t>(s[k + t]) & 0x3F);
    k += static_cast<size_t>(len);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      pending = 0xDC00 + (cp & 0x3FF);
      return 0xD800 + (cp >> 10);
    }
    return cp;
  };
  uint32_t pa = 0, pb = 0;
  while ((i < a.size() || pa) && (j < b.size() || pb)) {
    uint32_t ua = next_unit(a, i, pa), ub = next_unit(b, j, pb);
    if (ua != ub) return ua < ub;
  }
  return !(i < a.size() || pa) && (j < b.size() || pb);
}

int digit_count(unsigned __int128 v) {
  int n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

std::string u128_digits(unsigned __int128 v) {
  std::string s;
  do {
    s += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  std::reverse(s.begin(), s.end());
  return s;
}

void base64(std::string& out, std::string_view in) {
  static const char* kChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (static_cast<uint8_t>(in[i]) << 16) | (static_cast<uint8_t>(in[i + 1]) << 8) |
                 static_cast<uint8_t>(in[i + 2]);
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += kChars[(v >> 6) & 63];
    out += kChars[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    out += kChars[v >> 18];
    out += kChars[(v >> 12) & 63];
    out += i + 1 < in.size() ? kChars[(v >> 6) & 63] : '=';
    out += '=';
  }
}

}  // namespace

// ---- Reading --------------------------------------------------------------------------------

Ref::Ref(std::string_view metadata, std::string_view value) : metadata_(metadata), value_(value) {}

Kind Ref::kind() const {
  uint8_t h = header_at(value_);
  switch (h & 3) {
    case kBasicShortString: return Kind::kString;
    case kBasicObject: return Kind::kObject;
    case kBasicArray: return Kind::kArray;
    default: break;
  }
  switch (h >> 2) {
    case kPrimNull: return Kind::kNull;
    case kPrimTrue:
    case kPrimFalse: return Kind::kBoolean;
    case kPrimInt8:
    case kPrimInt16:
    case kPrimInt32:
    case kPrimInt64: return Kind::kLong;
    case kPrimDouble: return Kind::kDouble;
    case kPrimDecimal4:
    case kPrimDecimal8:
    case kPrimDecimal16: return Kind::kDecimal;
    case kPrimDate: return Kind::kDate;
    case kPrimTimestamp: return Kind::kTimestamp;
    case kPrimTimestampNtz: return Kind::kTimestampNtz;
    case kPrimFloat: return Kind::kFloat;
    case kPrimBinary: return Kind::kBinary;
    case kPrimString: return Kind::kString;
    default: throw MalformedVariant{};
  }
}

bool Ref::get_bool() const { return (header_at(value_) >> 2) == kPrimTrue; }

int64_t Ref::get_long() const {
  switch (header_at(value_) >> 2) {
    case kPrimInt8: return static_cast<int8_t>(read_le(value_, 1, 1));
    case kPrimInt16: return static_cast<int16_t>(read_le(value_, 1, 2));
    case kPrimInt32:
    case kPrimDate: return static_cast<int32_t>(read_le(value_, 1, 4));
    default: return static_cast<int64_t>(read_le(value_, 1, 8));
  }
}

double Ref::get_double() const {
  uint64_t bits = read_le(value_, 1, 8);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

float Ref::get_float() const {
  auto bits = static_cast<uint32_t>(read_le(value_, 1, 4));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

__int128 Ref::get_decimal(int* scale) const {
  int id = header_at(value_) >> 2;
  *scale = static_cast<int>(read_le(value_, 1, 1));
  if (*scale > 38) throw MalformedVariant{};
  if (id == kPrimDecimal4) return static_cast<int32_t>(read_le(value_, 2, 4));
  if (id == kPrimDecimal8) return static_cast<int64_t>(read_le(value_, 2, 8));
  unsigned __int128 lo = read_le(value_, 2, 8), hi = read_le(value_, 10, 8);
  return static_cast<__int128>((hi << 64) | lo);
}

std::string_view Ref::get_string() const {
  uint8_t h = header_at(value_);
  if ((h & 3) == kBasicShortString) {
    size_t n = h >> 2;
    if (1 + n > value_.size()) throw MalformedVariant{};
    return value_.substr(1, n);
  }
  size_t n = read_le(value_, 1, 4);
  if (5 + n > value_.size()) throw MalformedVariant{};
  return value_.substr(5, n);
}

Ref::Container Ref::container() const {
  uint8_t h = header_at(value_);
  int param = h >> 2;
  Container c{};
  bool large;
  if ((h & 3) == kBasicObject) {
    large = (param >> 4) & 1;
    c.id_size = ((param >> 2) & 3) + 1;
  } else {
    large = (param >> 2) & 1;
    c.id_size = 0;
  }
  c.offset_size = (param & 3) + 1;
  int nsize = large ? 4 : 1;
  c.n = static_cast<uint32_t>(read_le(value_, 1, nsize));
  c.ids = 1 + static_cast<size_t>(nsize);
  c.offsets = c.ids + static_cast<size_t>(c.n) * c.id_size;
  c.data = c.offsets + (static_cast<size_t>(c.n) + 1) * c.offset_size;
  if (c.data > value_.size()) throw MalformedVariant{};
  return c;
}

uint32_t Ref::size() const { return container().n; }

Ref Ref::element(uint32_t i) const {
  Container c = container();
  size_t off = read_le(value_, c.offsets + static_cast<size_t>(i) * c.offset_size, c.offset_size);
  if (c.data + off >= value_.size()) throw MalformedVariant{};
  return Ref(metadata_, value_.substr(c.data + off));
}

std::string_view Ref::key(uint32_t id) const {
  uint8_t h = header_at(metadata_);
  if ((h & 0x0F) != 1) throw MalformedVariant{};
  int os = ((h >> 6) & 3) + 1;
  uint64_t n = read_le(metadata_, 1, os);
  if (id >= n) throw MalformedVariant{};
  size_t offsets = 1 + static_cast<size_t>(os);
  size_t strings = offsets + (n + 1) * os;
  size_t a = read_le(metadata_, offsets + static_cast<size_t>(id) * os, os);
  size_t b = read_le(metadata_, offsets + static_cast<size_t>(id + 1) * os, os);
  if (a > b || strings + b > metadata_.size()) throw MalformedVariant{};
  return metadata_.substr(strings + a, b - a);
}

Ref Ref::field_at(uint32_t i, std::string_view* k) const {
  Container c = container();
  auto id = static_cast<uint32_t>(read_le(value_, c.ids + static_cast<size_t>(i) * c.id_size, c.id_size));
  *k = key(id);
  size_t off = read_le(value_, c.offsets + static_cast<size_t>(i) * c.offset_size, c.offset_size);
  if (c.data + off >= value_.size()) throw MalformedVariant{};
  return Ref(metadata_, value_.substr(c.data + off));
}

bool Ref::find_field(std::string_view k, Ref* out) const {
  uint32_t n = size();
  std::string_view name;
  if (n < 32) {
    for (uint32_t i = 0; i < n; ++i) {
      Ref r = field_at(i, &name);
      if (name == k) {
        *out = r;
        return true;
      }
    }
    return false;
  }
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    Ref r = field_at(mid, &name);
    if (name == k) {
      *out = r;
      return true;
    }
    if (key_less(name, k)) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

size_t Ref::value_size() const {
  uint8_t h = header_at(value_);
  switch (h & 3) {
    case kBasicShortString: return 1 + (h >> 2);
    case kBasicObject:
    case kBasicArray: {
      Container c = container();
      return c.data + read_le(value_, c.offsets + static_cast<size_t>(c.n) * c.offset_size, c.offset_size);
    }
    default: break;
  }
  switch (h >> 2) {
    case kPrimNull:
    case kPrimTrue:
    case kPrimFalse: return 1;
    case kPrimInt8: return 2;
    case kPrimInt16: return 3;
    case kPrimInt32:
    case kPrimDate:
    case kPrimFloat: return 5;
    case kPrimInt64:
    case kPrimDouble:
    case kPrimTimestamp:
    case kPrimTimestampNtz: return 9;
    case kPrimDecimal4: return 6;
    case kPrimDecimal8: return 10;
    case kPrimDecimal16: return 18;
    case kPrimBinary:
    case kPrimString: return 5 + read_le(value_, 1, 4);
    default: throw MalformedVariant{};
  }
}

std::string_view Ref::bytes() const {
  size_t n = value_size();
  if (n > value_.size()) throw MalformedVariant{};
  return value_.substr(0, n);
}

namespace {

bool valid_value(const Ref& r, uint64_t dict_size, int depth) {
  if (depth > 10000) return false;
  std::string_view b = r.bytes();
  Kind k = r.kind();
  if (k == Kind::kDecimal) {
    int scale;
    __int128 u = r.get_decimal(&scale);
    unsigned __int128 m = u < 0 ? -static_cast<unsigned __int128>(u) : static_cast<unsigned __int128>(u);
    int id = static_cast<uint8_t>(b[0]) >> 2;
    int max_digits = id == kPrimDecimal4 ? 9 : id == kPrimDecimal8 ? 18 : 38;
    if (scale > max_digits || digit_count(m) > max_digits) return false;
  }
  if (k != Kind::kObject && k != Kind::kArray) return true;
  uint32_t n = r.size();
  std::string_view key;
  for (uint32_t i = 0; i < n; ++i) {
    Ref c = k == Kind::kObject ? r.field_at(i, &key) : r.element(i);
    (void)dict_size;
    if (c.bytes().data() + c.bytes().size() > b.data() + b.size()) return false;
    if (!valid_value(c, dict_size, depth + 1)) return false;
  }
  return true;
}

}  // namespace

bool is_valid(std::string_view metadata, std::string_view value) {
  try {
    uint8_t h = header_at(metadata);
    if ((h & 0x0F) != 1) return false;
    int os = ((h >> 6) & 3) + 1;
    uint64_t n = read_le(metadata, 1, os);
    size_t offsets = 1 + static_cast<size_t>(os);
    size_t strings = offsets + (n + 1) * os;
    if (strings > metadata.size()) return false;
    uint64_t prev = 0;
    for (uint64_t i = 0; i <= n; ++i) {
      uint64_t o = read_le(metadata, offsets + i * os, os);
      if ((i == 0 && o != 0) || o < prev || strings + o > metadata.size()) return false;
      prev = o;
    }
    Ref r(metadata, value);
    return valid_value(r, n, 0);
  } catch (const MalformedVariant&) {
    return false;
  }
}

// ---- Building -------------------------------------------------------------------------------

void Builder::put_int(uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) value_ += static_cast<char>((v >> (8 * i)) & 0xFF);
}

void Builder::append_null() { value_ += static_cast<char>(kPrimNull << 2); }
void Builder::append_bool(bool v) { value_ += static_cast<char>((v ? kPrimTrue : kPrimFalse) << 2); }

void Builder::append_long(int64_t v) {
  if (v == static_cast<int8_t>(v)) {
    value_ += static_cast<char>(kPrimInt8 << 2);
    put_int(static_cast<uint64_t>(v), 1);
  } else if (v == static_cast<int16_t>(v)) {
    value_ += static_cast<char>(kPrimInt16 << 2);
    put_int(static_cast<uint64_t>(v), 2);
  } else if (v == static_cast<int32_t>(v)) {
    value_ += static_cast<char>(kPrimInt32 << 2);
    put_int(static_cast<uint64_t>(v), 4);
  } else {
    value_ += static_cast<char>(kPrimInt64 << 2);
    put_int(static_cast<uint64_t>(v), 8);
  }
}

void Builder::append_double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  value_ += static_cast<char>(kPrimDouble << 2);
  put_int(bits, 8);
}

void Builder::append_float(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  value_ += static_cast<char>(kPrimFloat << 2);
  put_int(bits, 4);
}

void Builder::append_decimal(__int128 unscaled, int scale) {
  unsigned __int128 m = unscaled < 0 ? -static_cast<unsigned __int128>(unscaled) : static_cast<unsigned __int128>(unscaled);
  int precision = digit_count(m);
  if (precision <= 9 && scale <= 9) {
    value_ += static_cast<char>(kPrimDecimal4 << 2);
    value_ += static_cast<char>(scale);
    put_int(static_cast<uint64_t>(static_cast<int64_t>(unscaled)), 4);
  } else if (precision <= 18 && scale <= 18) {
    value_ += static_cast<char>(kPrimDecimal8 << 2);
    value_ += static_cast<char>(scale);
    put_int(static_cast<uint64_t>(static_cast<int64_t>(unscaled)), 8);
  } else {
    value_ += static_cast<char>(kPrimDecimal16 << 2);
    value_ += static_cast<char>(scale);
    auto u = static_cast<unsigned __int128>(unscaled);
    put_int(static_cast<uint64_t>(u), 8);
    put_int(static_cast<uint64_t>(u >> 64), 8);
  }
}

void Builder::append_date(int32_t days) {
  value_ += static_cast<char>(kPrimDate << 2);
  put_int(static_cast<uint32_t>(days), 4);
}

void Builder::append_timestamp(int64_t micros) {
  value_ += static_cast<char>(kPrimTimestamp << 2);
  put_int(static_cast<uint64_t>(micros), 8);
}

void Builder::append_timestamp_ntz(int64_t micros) {
  value_ += static_cast<char>(kPrimTimestampNtz << 2);
  put_int(static_cast<uint64_t>(micros), 8);
}

void Builder::append_binary(std::string_view v) {
  value_ += static_cast<char>(kPrimBinary << 2);
  put_int(v.size(), 4);
  value_.append(v);
}

void Builder::append_string(std::string_view v) {
  if (v.size() <= kMaxShortString) {
    value_ += static_cast<char>((v.size() << 2) | kBasicShortString);
  } else {
    value_ += static_cast<char>(kPrimString << 2);
    put_int(v.size(), 4);
  }
  value_.append(v);
}

int32_t Builder::add_key(std::string_view key) {
  auto it = key_ids_.find(std::string(key));
  if (it != key_ids_.end()) return it->second;
  auto id = static_cast<int32_t>(keys_.size());
  keys_.emplace_back(key);
  key_ids_.emplace(keys_.back(), id);
  return id;
}

bool Builder::finish_object(size_t start, std::vector<Field>& fields, std::string* duplicate) {
  std::stable_sort(fields.begin(), fields.end(), [](const Field& a, const Field& b) { return key_less(a.key, b.key); });
  for (size_t i = 1; i < fields.size(); ++i) {
    if (fields[i].key == fields[i - 1].key) {
      if (duplicate) *duplicate = std::string(fields[i].key);
      return false;
    }
  }
  size_t data_size = value_.size() - start;
  size_t n = fields.size();
  bool large = n > 0xFF;
  int32_t max_id = 0;
  for (auto& f : fields) max_id = std::max(max_id, f.id);
  int id_size = int_size(static_cast<uint64_t>(max_id));
  int offset_size = int_size(data_size);
  std::string header;
  header += static_cast<char>(((((large ? 1 : 0) << 4) | ((id_size - 1) << 2) | (offset_size - 1)) << 2) |
                              kBasicObject);
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) header += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put(n, large ? 4 : 1);
  for (auto& f : fields) put(static_cast<uint64_t>(f.id), id_size);
  for (auto& f : fields) put(f.offset, offset_size);
  put(data_size, offset_size);
  value_.insert(start, header);
  return true;
}

void Builder::finish_array(size_t start, const std::vector<size_t>& starts) {
  size_t data_size = value_.size() - start;
  size_t n = starts.size();
  bool large = n > 0xFF;
  int offset_size = int_size(data_size);
  std::string header;
  header += static_cast<char>(((((large ? 1 : 0) << 2) | (offset_size - 1)) << 2) | kBasicArray);
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) header += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put(n, large ? 4 : 1);
  for (size_t s : starts) put(s - start, offset_size);
  put(data_size, offset_size);
  value_.insert(start, header);
}

void Builder::append_variant(const Ref& v) {
  Kind k = v.kind();
  if (k == Kind::kObject) {
    uint32_t n = v.size();
    size_t start = position();
    std::vector<Field> fields;
    fields.reserve(n);
    std::vector<std::string> keys(n);
    for (uint32_t i = 0; i < n; ++i) {
      std::string_view key;
      Ref c = v.field_at(i, &key);
      keys[i] = std::string(key);
      fields.push_back({keys[i], add_key(key), position() - start});
      append_variant(c);
    }
    finish_object(start, fields);
  } else if (k == Kind::kArray) {
    uint32_t n = v.size();
    size_t start = position();
    std::vector<size_t> starts;
    starts.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      starts.push_back(position());
      append_variant(v.element(i));
    }
    finish_array(start, starts);
  } else {
    value_.append(v.bytes());
  }
}

std::string Builder::metadata() const {
  size_t total = 0;
  for (auto& k : keys_) total += k.size();
  int os = int_size(std::max<uint64_t>(total, keys_.size()));
  std::string m;
  m += static_cast<char>(1 | ((os - 1) << 6));
  auto put = [&](uint64_t v) {
    for (int i = 0; i < os; ++i) m += static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put(keys_.size());
  size_t off = 0;
  put(0);
  for (auto& k : keys_) {
    off += k.size();
    put(off);
  }
  for (auto& k : keys_) m += k;
  return m;
}

void Builder::clear() {
  value_.clear();
  keys_.clear();
  key_ids_.clear();
}

// ---- JSON -----------------------------------------------------------------------------------

namespace {

/// A JSON number literal without an exponent as an unscaled decimal and scale; false when it
/// has more than 38 significant digits or a scale beyond 38.
bool decimal_of(const std::string& text, __int128* unscaled, int* scale) {
  bool neg = !text.empty() && text[0] == '-';
  unsigned __int128 u = 0;
  int digits = 0, frac = 0;
  bool seen_point = false;
  for (size_t i = neg ? 1 : 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (seen_point) ++frac;
    if (u == 0 && c == '0') continue;
    if (++digits > 38) return false;
    u = u * 10 + static_cast<unsigned>(c - '0');
  }
  if (frac > 38) return false;
  *unscaled = neg ? -static_cast<__int128>(u) : static_cast<__int128>(u);
  *scale = frac;
  return true;
}

void append_number(const JsonValue& v, Builder& out) {
  const std::string& t = v.text;
  bool has_exp = t.find_first_of("eE") != std::string::npos;
  if (!has_exp && t.find('.') == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    long long x = std::strtoll(t.c_str(), &end, 10);
    if (errno == 0 && end && *end == '\0') {
      out.append_long(x);
      return;
    }
  }
  __int128 u;
  int scale;
  if (!has_exp && decimal_of(t, &u, &scale)) {
    out.append_decimal(u, scale);
    return;
  }
  out.append_double(std::strtod(t.c_str(), nullptr));
}

bool build(const JsonValue& v, Builder& out, std::string* duplicate) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: out.append_null(); return true;
    case JsonValue::Kind::kBool: out.append_bool(v.boolean); return true;
    case JsonValue::Kind::kNumber: append_number(v, out); return true;
    case JsonValue::Kind::kString: out.append_string(v.text); return true;
    case JsonValue::Kind::kArray: {
      size_t start = out.position();
      std::vector<size_t> starts;
      starts.reserve(v.items.size());
      for (auto& item : v.items) {
        starts.push_back(out.position());
        if (!build(item, out, duplicate)) return false;
      }
      out.finish_array(start, starts);
      return true;
    }
    case JsonValue::Kind::kObject: {
      size_t start = out.position();
      std::vector<Builder::Field> fields;
      fields.reserve(v.members.size());
      for (auto& [key, val] : v.members) {
        fields.push_back({key, out.add_key(key), out.position() - start});
        if (!build(val, out, duplicate)) return false;
      }
      return out.finish_object(start, fields, duplicate);
    }
  }
  return false;
}

void append_offset(std::string& out, int64_t offset_seconds) {
  out += offset_seconds < 0 ? '-' : '+';
  int64_t a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d:%02d", static_cast<int>(a / 3600), static_cast<int>(a / 60 % 60));
  out += buf;
  if (a % 60) {
    std::snprintf(buf, sizeof buf, ":%02d", static_cast<int>(a % 60));
    out += buf;
  }
}

void quote_non_finite(std::string& out, const std::string& s, bool finite) {
  if (finite) {
    out += s;
  } else {
    out += '"';
    out += s;
    out += '"';
  }
}

}  // namespace

bool parse_json(std::string_view text, Builder& out, std::string* error, std::string* duplicate_key) {
  JsonValue v;
  try {
    parse_json_prefix(text, JsonParseOptions{}, &v);
  } catch (const std::invalid_argument& e) {
    if (error) *error = e.what();
    return false;
  }
  std::string dup;
  if (!build(v, out, &dup)) {
    if (duplicate_key) *duplicate_key = dup;
    if (error) *error = "duplicate key";
    return false;
  }
  return true;
}

int normalize_decimal(__int128* unscaled, int* scale) {
  while (*scale > 0 && *unscaled % 10 == 0) {
    *unscaled /= 10;
    --*scale;
  }
  unsigned __int128 m = *unscaled < 0 ? -static_cast<unsigned __int128>(*unscaled) : static_cast<unsigned __int128>(*unscaled);
  return digit_count(m);
}

std::string decimal_plain_string(__int128 unscaled, int scale) {
  normalize_decimal(&unscaled, &scale);
  bool neg = unscaled < 0;
  unsigned __int128 m = neg ? -static_cast<unsigned __int128>(unscaled) : static_cast<unsigned __int128>(unscaled);
  std::string d = u128_digits(m);
  if (scale > 0) {
    if (d.size() <= static_cast<size_t>(scale)) d.insert(0, static_cast<size_t>(scale) + 1 - d.size(), '0');
    d.insert(d.size() - static_cast<size_t>(scale), ".");
  }
  return neg ? "-" + d : d;
}

void to_json(const Ref& v, const TimeZone& zone, std::string& out) {
  switch (v.kind()) {
    case Kind::kNull: out += "null"; return;
    case Kind::kBoolean: out += v.get_bool() ? "true" : "false"; return;
    case Kind::kLong: out += std::to_string(v.get_long()); return;
    case Kind::kDouble: {
      double d = v.get_double();
      quote_non_finite(out, java_double_string(d), std::isfinite(d));
      return;
    }
    case Kind::kFloat: {
      float f = v.get_float();
      quote_non_finite(out, java_float_string(f), std::isfinite(f));
      return;
    }
    case Kind::kDecimal: {
      int scale;
      __int128 u = v.get_decimal(&scale);
      out += decimal_plain_string(u, scale);
      return;
    }
    case Kind::kString: json_quote(out, v.get_string(), true); return;
    case Kind::kBinary:
      out += '"';
      base64(out, v.get_string());
      out += '"';
      return;
    case Kind::kDate:
      out += '"';
      out += format_date(static_cast<int32_t>(v.get_long()));
      out += '"';
      return;
    case Kind::kTimestamp: {
      int64_t us = v.get_long();
      int64_t secs = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
      out += '"';
      out += format_timestamp(us, zone);
      append_offset(out, zone.offset_seconds_at_utc(secs));
      out += '"';
      return;
    }
    case Kind::kTimestampNtz:
      out += '"';
      out += format_timestamp_ntz(v.get_long());
      out += '"';
      return;
    case Kind::kObject: {
      out += '{';
      uint32_t n = v.size();
      for (uint32_t i = 0; i < n; ++i) {
        std::string_view key;
        Ref c = v.field_at(i, &key);
        if (i) out += ',';
        json_quote(out, key, true);
        out += ':';
        to_json(c, zone, out);
      }
      out += '}';
      return;
    }
    case Kind::kArray: {
      out += '[';
      uint32_t n = v.size();
      for (uint32_t i = 0; i < n; ++i) {
        if (i) out += ',';
        to_json(v.element(i), zone, out);
      }
      out += ']';
      return;
    }
  }
}

}  // namespace ember::variant
