#include "exec/group_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/error.h"

namespace ember::exec {

uint64_t hash_bytes(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (len * 0xff51afd7ed558ccdull);
  while (len >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    w *= 0x87c37b91114253d5ull;
    w = (w << 31) | (w >> 33);
    h ^= w * 0x4cf5ad432745937full;
    h = ((h << 27) | (h >> 37)) * 5 + 0x52dce729;
    p += 8;
    len -= 8;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p, len);
  h ^= tail * 0x87c37b91114253d5ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

bool small_domain_codes(const std::vector<ColumnPtr>& keys, int64_t n, uint32_t max_domain,
                        std::vector<uint32_t>& codes, uint32_t* domain) {
  // One key's codes: the dictionary code, the boolean, or the value's distance from the
  // smallest one; a null row takes the code after the values'.
  struct Part {
    const Column* column;
    const int32_t* dictionary = nullptr;
    int64_t lo = 0;
    uint64_t values = 0;  // codes of valid rows are [0, values); null rows have `values`
    uint32_t stride = 1;
  };
  std::vector<Part> parts;
  uint64_t size = 1;
  for (const ColumnPtr& key : keys) {
    const Column& c = *key;
    Part part{&c};
    if (c.type()->id() == TypeId::kNull) {
      part.values = 0;
    } else if (const DictionaryCodes* d = c.dictionary_codes()) {
      part.dictionary = d->codes->as<int32_t>();
      part.values = static_cast<uint64_t>(d->cardinality);
    } else if (c.type()->id() == TypeId::kBoolean) {
      part.values = 2;
    } else if (c.type()->is_integer_valued()) {
      int64_t hi = 0;
      if (integer_range(c, n, part.lo, hi)) {
        const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(part.lo);
        if (span >= max_domain) return false;
        part.values = span + 1;
      }
    } else {
      return false;
    }
    const uint64_t card = part.values + (c.may_have_nulls() || c.type()->id() == TypeId::kNull ? 1 : 0);
    part.stride = static_cast<uint32_t>(size);
    size *= std::max<uint64_t>(card, 1);
    if (size > max_domain) return false;
    parts.push_back(part);
  }
  *domain = static_cast<uint32_t>(size);
  codes.assign(static_cast<size_t>(n), 0);
  uint32_t* out = codes.data();
  for (const Part& p : parts) {
    const Column& c = *p.column;
    const uint32_t stride = p.stride;
    const uint32_t null_code = static_cast<uint32_t>(p.values);
    // Adds each row's code of this key; a null row's value bytes are arbitrary, so its code is
    // the null code whatever they hold.
    auto add = [&](auto code_of) {
      if (!c.may_have_nulls()) {
        for (int64_t i = 0; i < n; ++i) out[i] += code_of(i) * stride;
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] += (c.is_valid(i) ? code_of(i) : null_code) * stride;
      }
    };
    const int64_t lo = p.lo;
    if (c.type()->id() == TypeId::kNull) {
      for (int64_t i = 0; i < n; ++i) out[i] += null_code * stride;
    } else if (p.dictionary) {
      const int32_t* d = p.dictionary;
      add([d](int64_t i) { return static_cast<uint32_t>(d[i]); });
    } else if (c.type()->id() == TypeId::kBoolean) {
      add([&c](int64_t i) { return c.bool_at(i) ? 1u : 0u; });
    } else {
      auto by_offset = [&](const auto* v) {
        add([v, lo](int64_t i) { return static_cast<uint32_t>(static_cast<int64_t>(v[i]) - lo); });
      };
      switch (c.type()->byte_width()) {
        case 1: by_offset(c.values<int8_t>()); break;
        case 2: by_offset(c.values<int16_t>()); break;
        case 4: by_offset(c.values<int32_t>()); break;
        default: by_offset(c.values<int64_t>()); break;
      }
    }
  }
  return true;
}

namespace {

void put_value(std::string& out, const Column& c, int64_t i);

void put_fixed(std::string& out, const Column& c, int64_t i) {
  int w = c.type()->byte_width();
  const uint8_t* src = c.data_buffer()->data() + i * w;
  if (c.type()->id() == TypeId::kDouble) {
    double v;
    std::memcpy(&v, src, 8);
    if (v == 0) v = 0.0;
    if (std::isnan(v)) v = NAN;
    out.append(reinterpret_cast<const char*>(&v), 8);
  } else if (c.type()->id() == TypeId::kFloat) {
    float v;
    std::memcpy(&v, src, 4);
    if (v == 0) v = 0.0f;
    if (std::isnan(v)) v = NAN;
    out.append(reinterpret_cast<const char*>(&v), 4);
  } else {
    out.append(reinterpret_cast<const char*>(src), static_cast<size_t>(w));
  }
}

void put_value(std::string& out, const Column& c, int64_t i) {
  if (c.is_null(i) || c.type()->id() == TypeId::kNull) {
    out.push_back(0);
    return;
  }
  out.push_back(1);
  switch (c.type()->id()) {
    case TypeId::kBoolean: out.push_back(c.bool_at(i) ? 1 : 0); break;
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view s = c.string_at(i);
      uint32_t len = static_cast<uint32_t>(s.size());
      out.append(reinterpret_cast<const char*>(&len), 4);
      out.append(s.data(), s.size());
      break;
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      const int32_t* o = c.offsets();
      uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
      out.append(reinterpret_cast<const char*>(&len), 4);
      for (int32_t k = o[i]; k < o[i + 1]; ++k) put_value(out, *c.child(0), k);
      break;
    }
    case TypeId::kStruct:
      for (auto& f : c.children()) put_value(out, *f, i);
      break;
    default: put_fixed(out, c, i);
  }
}

const char* get_value(const char* p, ColumnBuilder& b) {
  if (*p++ == 0) {
    b.append_null();
    return p;
  }
  const TypePtr& t = b.type();
  switch (t->id()) {
    case TypeId::kBoolean: b.append_bool(*p++ != 0); break;
    case TypeId::kString:
    case TypeId::kBinary: {
      uint32_t len;
      std::memcpy(&len, p, 4);
      p += 4;
      b.append_bytes(std::string_view(p, len));
      p += len;
      break;
    }
    case TypeId::kArray:
    case TypeId::kMap: {
      uint32_t len;
      std::memcpy(&len, p, 4);
      p += 4;
      for (uint32_t k = 0; k < len; ++k) p = get_value(p, b.child(0));
      b.close_list();
      break;
    }
    case TypeId::kStruct:
      for (size_t f = 0; f < t->fields().size(); ++f) p = get_value(p, b.child(f));
      b.close_struct(true);
      break;
    default: {
      int w = t->byte_width();
      switch (w) {
        case 1: { int8_t v; std::memcpy(&v, p, 1); b.append<int8_t>(v); break; }
        case 2: { int16_t v; std::memcpy(&v, p, 2); b.append<int16_t>(v); break; }
        case 4: { int32_t v; std::memcpy(&v, p, 4); b.append<int32_t>(v); break; }
        case 8: { int64_t v; std::memcpy(&v, p, 8); b.append<int64_t>(v); break; }
        default: { int128_t v; std::memcpy(&v, p, 16); b.append<int128_t>(v); break; }
      }
      p += w;
    }
  }
  return p;
}

}  // namespace

namespace {

/// Bytes of a value in a packed key; booleans take one byte, the null type none.
int packed_value_width(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull: return 0;
    case TypeId::kBoolean: return 1;
    case TypeId::kDecimal: return -1;  // 16 value bytes never fit beside a flag
    default: return t.byte_width() > 0 ? t.byte_width() : -1;
  }
}

template <typename T>
void pack_values(const Column& c, int64_t n, int at, PackedKey* out) {
  const T* v = c.values<T>();
  for (int64_t i = 0; i < n; ++i) {
    T x = v[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (x == 0) x = 0;
      if (std::isnan(x)) x = std::numeric_limits<T>::quiet_NaN();
    }
    PackedKey bits = 0;
    std::memcpy(&bits, &x, sizeof(T));
    out[i] |= (bits << (8 * (at + 1))) | (PackedKey{1} << (8 * at));
  }
}

template <typename T>
void unpack_values(const PackedKey* keys, int64_t n, int at, ColumnBuilder& b) {
  for (int64_t i = 0; i < n; ++i) {
    if (((keys[i] >> (8 * at)) & 0xff) == 0) {
      b.append_null();
      continue;
    }
    PackedKey bits = keys[i] >> (8 * (at + 1));
    T x;
    std::memcpy(&x, &bits, sizeof(T));
    b.append<T>(x);
  }
}

}  // namespace

namespace {
bool is_string_key(const DataType& t) { return t.id() == TypeId::kString || t.id() == TypeId::kBinary; }
}  // namespace

KeyEncoder::KeyEncoder(std::vector<TypePtr> types) : types_(std::move(types)) {
  int fixed = 0, strings = 0;
  for (auto& t : types_) {
    if (is_string_key(*t)) {
      ++strings;
      continue;
    }
    int w = packed_value_width(*t);
    if (w < 0) return;
    fixed += 1 + w;
  }
  if (strings > 0) {
    // What the fixed-width keys leave, shared evenly between the strings (a length byte each).
    int each = (16 - fixed - strings) / strings;
    if (each < 1) return;
    short_string_width_ = std::min(each, 15);
  }
  int width = 0;
  for (auto& t : types_) {
    packed_offsets_.push_back(width);
    width += 1 + (is_string_key(*t) ? short_string_width_ : packed_value_width(*t));
  }
  if (width <= 16) packed_width_ = width;
}

void KeyEncoder::encode_packed(const std::vector<ColumnPtr>& keys, int64_t n, PackedKey* out) const {
  EMBER_CHECK(can_pack(), "packed keys for types that do not fit");
  try_encode_packed(keys, n, out);
}

namespace {
/// A string key: its length + 1 in the flag byte (0: null), then its bytes zero-padded, so
/// that equal strings and only they give equal bits.
bool pack_strings(const Column& c, int64_t n, int at, int width, PackedKey* out) {
  const int32_t* o = c.offsets();
  const char* data = c.data_buffer() ? reinterpret_cast<const char*>(c.data_buffer()->data()) : nullptr;
  const int64_t size = c.data_buffer() ? static_cast<int64_t>(c.data_buffer()->size()) : 0;
  const uint8_t* valid = c.validity_bits();
  for (int64_t i = 0; i < n; ++i) {
    if (valid && !get_bit(valid, i)) continue;
    const int32_t len = o[i + 1] - o[i];
    if (len > width) return false;
    PackedKey bits = 0;
    if (o[i] + 16 <= size) {
      // One fixed 16-byte load, masked to the string's bytes (len < 16: width is at most 15).
      std::memcpy(&bits, data + o[i], 16);
      bits &= (PackedKey{1} << (8 * len)) - 1;
    } else if (len > 0) {
      std::memcpy(&bits, data + o[i], static_cast<size_t>(len));
    }
    out[i] |= (at + 1 < 16 ? bits << (8 * (at + 1)) : PackedKey{0}) |
              (PackedKey{static_cast<uint8_t>(len + 1)} << (8 * at));
  }
  return true;
}

void unpack_strings(const PackedKey* keys, int64_t n, int at, ColumnBuilder& b) {
  for (int64_t i = 0; i < n; ++i) {
    const int flag = static_cast<int>((keys[i] >> (8 * at)) & 0xff);
    if (flag == 0) {
      b.append_null();
      continue;
    }
    PackedKey bits = keys[i] >> (8 * (at + 1));
    char buf[16];
    std::memcpy(buf, &bits, 16);
    b.append_bytes(std::string_view(buf, static_cast<size_t>(flag - 1)));
  }
}
}  // namespace

bool KeyEncoder::try_encode_packed(const std::vector<ColumnPtr>& keys, int64_t n, PackedKey* out) const {
  EMBER_CHECK(packed_width_ >= 0, "packed keys for types that do not fit");
  std::fill_n(out, n, PackedKey{0});
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = *keys[k];
    int at = packed_offsets_[k];
    if (is_string_key(*c.type())) {
      if (!pack_strings(c, n, at, short_string_width_, out)) return false;
      continue;
    }
    switch (c.type()->id()) {
      case TypeId::kNull: continue;  // always null: flag 0
      case TypeId::kBoolean:
        for (int64_t i = 0; i < n; ++i)
          out[i] |= (PackedKey{c.bool_at(i) ? 1u : 0u} << (8 * (at + 1))) | (PackedKey{1} << (8 * at));
        break;
      case TypeId::kFloat: pack_values<float>(c, n, at, out); break;
      case TypeId::kDouble: pack_values<double>(c, n, at, out); break;
      default:
        switch (c.type()->byte_width()) {
          case 1: pack_values<uint8_t>(c, n, at, out); break;
          case 2: pack_values<uint16_t>(c, n, at, out); break;
          case 4: pack_values<uint32_t>(c, n, at, out); break;
          default: pack_values<uint64_t>(c, n, at, out); break;
        }
    }
    if (c.may_have_nulls()) {
      // A null key is its flag byte 0 and value bytes 0.
      int w = packed_value_width(*c.type());
      PackedKey field = ((PackedKey{1} << (8 * (w + 1))) - 1) << (8 * at);
      if (w + 1 >= 16) field = ~PackedKey{0};
      for (int64_t i = 0; i < n; ++i)
        if (c.is_null(i)) out[i] &= ~field;
    }
  }
  return true;
}

std::vector<ColumnPtr> KeyEncoder::decode_packed(const PackedKey* keys, int64_t n) const {
  std::vector<ColumnPtr> out;
  for (size_t k = 0; k < types_.size(); ++k) {
    const TypePtr& t = types_[k];
    int at = packed_offsets_[k];
    ColumnBuilder b(t, n);
    switch (t->id()) {
      case TypeId::kNull:
        for (int64_t i = 0; i < n; ++i) b.append_null();
        break;
      case TypeId::kString:
      case TypeId::kBinary: unpack_strings(keys, n, at, b); break;
      case TypeId::kBoolean:
        for (int64_t i = 0; i < n; ++i) {
          if (((keys[i] >> (8 * at)) & 0xff) == 0) b.append_null();
          else b.append_bool(((keys[i] >> (8 * (at + 1))) & 0xff) != 0);
        }
        break;
      default:
        switch (t->byte_width()) {
          case 1: unpack_values<int8_t>(keys, n, at, b); break;
          case 2: unpack_values<int16_t>(keys, n, at, b); break;
          case 4: unpack_values<int32_t>(keys, n, at, b); break;
          default: unpack_values<int64_t>(keys, n, at, b); break;
        }
    }
    out.push_back(b.finish());
  }
  return out;
}

namespace {

bool is_flat_key(const DataType& t) {
  return t.id() == TypeId::kNull || t.id() == TypeId::kBoolean || is_string_key(t) || packed_value_width(t) > 0;
}

/// Writes the fixed-width values of `c` (of `w` bytes) behind their flag bytes at each row's
/// cursor, as put_value would, and moves the cursors past them.
template <typename T>
void put_fixed_column(const Column& c, int64_t n, char* base, uint32_t* cursor) {
  const T* v = c.values<T>();
  const bool nulls = c.may_have_nulls();
  for (int64_t i = 0; i < n; ++i) {
    char* p = base + cursor[i];
    if (nulls && c.is_null(i)) {
      *p = 0;
      cursor[i] += 1;
      continue;
    }
    T x = v[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (x == 0) x = 0;
      if (std::isnan(x)) x = std::numeric_limits<T>::quiet_NaN();
    }
    *p = 1;
    std::memcpy(p + 1, &x, sizeof(T));
    cursor[i] += 1 + sizeof(T);
  }
}

/// put_value's encoding of every row of a flat key (`is_flat_key`), written a column at a time.
void put_column(const Column& c, int64_t n, char* base, uint32_t* cursor) {
  const DataType& t = *c.type();
  if (t.id() == TypeId::kNull) {
    for (int64_t i = 0; i < n; ++i) base[cursor[i]++] = 0;
    return;
  }
  if (t.id() == TypeId::kBoolean) {
    for (int64_t i = 0; i < n; ++i) {
      char* p = base + cursor[i];
      if (c.is_null(i)) {
        *p = 0;
        cursor[i] += 1;
      } else {
        p[0] = 1;
        p[1] = c.bool_at(i) ? 1 : 0;
        cursor[i] += 2;
      }
    }
    return;
  }
  if (is_string_key(t)) {
    const int32_t* o = c.offsets();
    const char* data = c.data_buffer() ? reinterpret_cast<const char*>(c.data_buffer()->data()) : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      char* p = base + cursor[i];
      if (c.is_null(i)) {
        *p = 0;
        cursor[i] += 1;
        continue;
      }
      const uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
      p[0] = 1;
      std::memcpy(p + 1, &len, 4);
      if (len > 0) std::memcpy(p + 5, data + o[i], len);
      cursor[i] += 5 + len;
    }
    return;
  }
  switch (t.id()) {
    case TypeId::kFloat: put_fixed_column<float>(c, n, base, cursor); return;
    case TypeId::kDouble: put_fixed_column<double>(c, n, base, cursor); return;
    default: break;
  }
  switch (t.byte_width()) {
    case 1: put_fixed_column<uint8_t>(c, n, base, cursor); break;
    case 2: put_fixed_column<uint16_t>(c, n, base, cursor); break;
    case 4: put_fixed_column<uint32_t>(c, n, base, cursor); break;
    case 8: put_fixed_column<uint64_t>(c, n, base, cursor); break;
    default: put_fixed_column<unsigned __int128>(c, n, base, cursor); break;
  }
}

/// The bytes put_value writes for each row of a flat key, added to `lengths`.
void add_lengths(const Column& c, int64_t n, uint32_t* lengths) {
  const DataType& t = *c.type();
  if (t.id() == TypeId::kNull) {
    for (int64_t i = 0; i < n; ++i) lengths[i] += 1;
    return;
  }
  const bool nulls = c.may_have_nulls();
  if (is_string_key(t)) {
    const int32_t* o = c.offsets();
    for (int64_t i = 0; i < n; ++i)
      lengths[i] += nulls && c.is_null(i) ? 1 : 5 + static_cast<uint32_t>(o[i + 1] - o[i]);
    return;
  }
  const uint32_t w = 1 + static_cast<uint32_t>(t.id() == TypeId::kBoolean ? 1 : packed_value_width(t));
  if (!nulls) {
    for (int64_t i = 0; i < n; ++i) lengths[i] += w;
  } else {
    for (int64_t i = 0; i < n; ++i) lengths[i] += c.is_null(i) ? 1 : w;
  }
}

}  // namespace

void KeyEncoder::encode(const std::vector<ColumnPtr>& keys, int64_t n, std::string& arena,
                        std::vector<uint32_t>& offsets, std::vector<uint32_t>& lengths) const {
  offsets.resize(static_cast<size_t>(n));
  lengths.resize(static_cast<size_t>(n));
  // Keys of flat types are written a column at a time into rows whose sizes are counted first;
  // nested keys are written a row at a time. Both give put_value's bytes.
  if (std::all_of(keys.begin(), keys.end(), [](const ColumnPtr& k) { return is_flat_key(*k->type()); })) {
    std::fill(lengths.begin(), lengths.end(), 0u);
    for (auto& k : keys) add_lengths(*k, n, lengths.data());
    size_t at = arena.size();
    for (int64_t i = 0; i < n; ++i) {
      offsets[i] = static_cast<uint32_t>(at);
      at += lengths[i];
    }
    arena.resize(at);
    std::vector<uint32_t> cursor(offsets);
    for (auto& k : keys) put_column(*k, n, arena.data(), cursor.data());
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    size_t start = arena.size();
    for (auto& k : keys) put_value(arena, *k, i);
    offsets[i] = static_cast<uint32_t>(start);
    lengths[i] = static_cast<uint32_t>(arena.size() - start);
  }
}

namespace {

/// Copies `len` bytes with at most two fixed-size moves for short strings (the bytes past
/// `len` at either end are neither read nor written).
inline void copy_bytes(char* dst, const char* src, size_t len) {
  if (len >= 8) {
    if (len > 16) {
      std::memcpy(dst, src, len);
      return;
    }
    std::memcpy(dst, src, 8);
    std::memcpy(dst + len - 8, src + len - 8, 8);
  } else if (len >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + len - 4, src + len - 4, 4);
  } else {
    for (size_t j = 0; j < len; ++j) dst[j] = src[j];
  }
}

/// Decodes keys of flat types (`is_flat_key`, booleans aside) into one column per type: the
/// inverse of put_column, in two passes over the rows (sizes and nulls, then values), each
/// reading a row's key bytes once for all its columns.
std::vector<ColumnPtr> decode_flat(const std::vector<TypePtr>& types, const std::vector<std::string_view>& keys) {
  const int64_t n = static_cast<int64_t>(keys.size());
  const size_t k = types.size();
  enum Kind : uint8_t { kNullKey, kStringKey, kFixedKey };
  std::vector<Kind> kind(k);
  std::vector<size_t> width(k, 0);
  for (size_t c = 0; c < k; ++c) {
    if (types[c]->id() == TypeId::kNull) kind[c] = kNullKey;
    else if (is_string_key(*types[c])) kind[c] = kStringKey;
    else {
      kind[c] = kFixedKey;
      width[c] = static_cast<size_t>(types[c]->byte_width());
    }
  }
  std::vector<int64_t> bytes(k, 0), nulls(k, 0);
  for (int64_t i = 0; i < n; ++i) {
    const char* p = keys[static_cast<size_t>(i)].data();
    for (size_t c = 0; c < k; ++c) {
      if (kind[c] == kNullKey || *p == 0) {
        nulls[c] += kind[c] != kNullKey;
        p += 1;
      } else if (kind[c] == kStringKey) {
        uint32_t len;
        std::memcpy(&len, p + 1, 4);
        bytes[c] += len;
        p += 5 + len;
      } else {
        p += 1 + width[c];
      }
    }
  }
  std::vector<BufferPtr> data(k), offsets(k), validity(k);
  std::vector<uint8_t*> out(k, nullptr), valid(k, nullptr);
  std::vector<int32_t*> offs(k, nullptr);
  std::vector<int64_t> at(k, 0);  // bytes written of each string column
  for (size_t c = 0; c < k; ++c) {
    if (kind[c] == kNullKey) continue;
    if (kind[c] == kStringKey) {
      if (bytes[c] > INT32_MAX)
        throw SparkError(ErrorKind::kRuntime, "INTERNAL_ERROR", "column exceeds 2 GiB in one batch");
      data[c] = Buffer::allocate(static_cast<size_t>(bytes[c]));
      offsets[c] = Buffer::allocate(static_cast<size_t>(n + 1) * 4);
      offs[c] = offsets[c]->mutable_as<int32_t>();
      offs[c][0] = 0;
    } else {
      data[c] = Buffer::allocate(static_cast<size_t>(n) * width[c]);
    }
    out[c] = data[c]->mutable_data();
    if (nulls[c] > 0) {
      validity[c] = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
      valid[c] = validity[c]->mutable_data();
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    const char* p = keys[static_cast<size_t>(i)].data();
    for (size_t c = 0; c < k; ++c) {
      if (kind[c] == kNullKey) {
        p += 1;
        continue;
      }
      const bool is_valid = *p != 0;
      if (valid[c] && is_valid) set_bit(valid[c], i);
      if (kind[c] == kStringKey) {
        if (is_valid) {
          uint32_t len;
          std::memcpy(&len, p + 1, 4);
          copy_bytes(reinterpret_cast<char*>(out[c]) + at[c], p + 5, len);
          at[c] += len;
          p += 5 + len;
        } else {
          p += 1;
        }
        offs[c][i + 1] = static_cast<int32_t>(at[c]);
      } else {
        const size_t w = width[c];
        uint8_t* d = out[c] + static_cast<size_t>(i) * w;
        if (is_valid) {
          std::memcpy(d, p + 1, w);
          p += 1 + w;
        } else {
          std::memset(d, 0, w);
          p += 1;
        }
      }
    }
  }
  std::vector<ColumnPtr> cols;
  for (size_t c = 0; c < k; ++c) {
    if (kind[c] == kNullKey) cols.push_back(Column::all_null(types[c], n));
    else cols.push_back(Column::make(types[c], n, validity[c], data[c], offsets[c], {}, nulls[c]));
  }
  return cols;
}

}  // namespace

std::vector<ColumnPtr> KeyEncoder::decode(const std::vector<std::string_view>& keys) const {
  // Flat keys are read into their columns' buffers; nested keys (and booleans) through
  // builders.
  if (std::all_of(types_.begin(), types_.end(),
                  [](const TypePtr& t) { return is_flat_key(*t) && t->id() != TypeId::kBoolean; })) {
    return decode_flat(types_, keys);
  }
  std::vector<std::unique_ptr<ColumnBuilder>> builders;
  for (auto& t : types_) builders.push_back(std::make_unique<ColumnBuilder>(t, static_cast<int64_t>(keys.size())));
  for (auto& k : keys) {
    const char* p = k.data();
    for (auto& b : builders) p = get_value(p, *b);
  }
  std::vector<ColumnPtr> out;
  for (auto& b : builders) out.push_back(b->finish());
  return out;
}

}  // namespace ember::exec
