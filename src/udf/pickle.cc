#include "udf/pickle.h"

#include <cstdint>
#include <cstring>

namespace ember::udf {

namespace {

// Opcodes of pickle protocols 2 and 3 (Python's Lib/pickletools.py documents them).
constexpr char kProto = '\x80';
constexpr char kStop = '.';
constexpr char kNone = 'N';
constexpr char kTrue = '\x88';
constexpr char kFalse = '\x89';
constexpr char kLong1 = '\x8a';
constexpr char kBinFloat = 'G';
constexpr char kBinUnicode = 'X';
constexpr char kBinBytes = 'B';
constexpr char kMark = '(';
constexpr char kEmptyList = ']';
constexpr char kAppends = 'e';
constexpr char kEmptyDict = '}';
constexpr char kSetItems = 'u';
constexpr char kTuple = 't';
constexpr char kTuple1 = '\x85';
constexpr char kGlobal = 'c';
constexpr char kReduce = 'R';

class Pickler {
 public:
  /// False when some value of `type` has no Python form here.
  bool value(const Value& v, const DataType& type) {
    if (v.is_null()) {
      out_ += kNone;
      return true;
    }
    switch (type.id()) {
      case TypeId::kNull: out_ += kNone; return true;
      case TypeId::kBoolean: out_ += v.as_bool() ? kTrue : kFalse; return true;
      case TypeId::kByte:
      case TypeId::kShort:
      case TypeId::kInt:
      case TypeId::kLong:
      case TypeId::kDate:
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: integer(v.as_int()); return true;
      case TypeId::kFloat:
      case TypeId::kDouble: floating(v.as_double()); return true;
      case TypeId::kString: text(v.as_bytes()); return true;
      case TypeId::kBinary: bytes(v.as_bytes()); return true;
      case TypeId::kDecimal:
        global("decimal", "Decimal");
        text(decimal_to_string(v.as_decimal(), type.scale()));
        out_ += kTuple1;
        out_ += kReduce;
        return true;
      case TypeId::kArray: {
        out_ += kEmptyList;
        const auto& items = v.as_list();
        if (items.empty()) return true;
        out_ += kMark;
        for (auto& item : items)
          if (!value(item, *type.element_type())) return false;
        out_ += kAppends;
        return true;
      }
      case TypeId::kMap: {
        out_ += kEmptyDict;
        const auto& entries = v.as_list();
        if (entries.empty()) return true;
        out_ += kMark;
        for (auto& entry : entries)
          if (!value(entry.as_list()[0], *type.key_type()) || !value(entry.as_list()[1], *type.value_type()))
            return false;
        out_ += kSetItems;
        return true;
      }
      case TypeId::kStruct: {
        const auto& fields = v.as_list();
        out_ += kMark;
        for (size_t i = 0; i < fields.size(); ++i)
          if (!value(fields[i], *type.fields()[i].type)) return false;
        out_ += kTuple;
        return true;
      }
      default: return false;
    }
  }

  std::string finish(std::string body) {
    std::string r;
    r += kProto;
    r += '\x03';
    r += body;
    r += kStop;
    return r;
  }
  std::string take() { return std::move(out_); }

 private:
  /// LONG1: the value's two's-complement bytes, little-endian, as few as keep its sign.
  void integer(int64_t v) {
    unsigned char b[8];
    uint64_t u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(u >> (8 * i));
    int n = 8;
    while (n > 1 && ((b[n - 1] == 0x00 && !(b[n - 2] & 0x80)) || (b[n - 1] == 0xff && (b[n - 2] & 0x80)))) --n;
    if (v == 0) n = 0;
    out_ += kLong1;
    out_ += static_cast<char>(n);
    out_.append(reinterpret_cast<const char*>(b), static_cast<size_t>(n));
  }
  void floating(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    out_ += kBinFloat;
    for (int i = 7; i >= 0; --i) out_ += static_cast<char>(bits >> (8 * i));
  }
  void length(size_t n) {
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>(n >> (8 * i));
  }
  void text(const std::string& s) {
    out_ += kBinUnicode;
    length(s.size());
    out_ += s;
  }
  void bytes(const std::string& s) {
    out_ += kBinBytes;
    length(s.size());
    out_ += s;
  }
  void global(const char* module, const char* name) {
    out_ += kGlobal;
    out_ += module;
    out_ += '\n';
    out_ += name;
    out_ += '\n';
  }

  std::string out_;
};

}  // namespace

std::optional<std::string> pickle_value(const Value& v, const DataType& type) {
  Pickler p;
  if (!p.value(v, type)) return std::nullopt;
  return p.finish(p.take());
}

}  // namespace ember::udf
