#include "column/value.h"

namespace ember {

bool Value::operator==(const Value& o) const {
  if (v_.index() != o.v_.index()) return false;
  if (auto* l = std::get_if<std::shared_ptr<List>>(&v_)) {
    auto& r = std::get<std::shared_ptr<List>>(o.v_);
    if (l->get() == r.get()) return true;
    return **l == *r;
  }
  return v_ == o.v_;
}

std::string int128_to_string(int128_t v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  // Work with the unsigned magnitude so that the minimum value does not overflow.
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : v;
  char buf[48];
  int pos = 47;
  buf[pos] = '\0';
  while (u > 0) {
    buf[--pos] = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  }
  if (neg) buf[--pos] = '-';
  return std::string(buf + pos);
}

std::string decimal_to_string(int128_t unscaled, int scale) {
  std::string digits = int128_to_string(unscaled);
  if (scale <= 0) return digits;
  bool neg = !digits.empty() && digits[0] == '-';
  if (neg) digits.erase(0, 1);
  if (static_cast<int>(digits.size()) <= scale)
    digits.insert(0, static_cast<size_t>(scale - static_cast<int>(digits.size()) + 1), '0');
  digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  return neg ? "-" + digits : digits;
}

int128_t pow10_int128(int n) {
  int128_t r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

}  // namespace ember
