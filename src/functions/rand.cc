// rand([seed]): uniformly distributed doubles in [0, 1); randn([seed]): standard normal doubles;
// uniform(min, max[, seed]): min + rand * (max - min) in the arguments' type; randstr(length[,
// seed]): alphanumeric strings. All draw from Spark's XORShiftRandom stream (see rand.h for the
// algorithm and for how partitions are numbered).

#include "functions/rand.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

#include "functions/collection_util.h"
#include "functions/decimal_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "functions/mersenne_twister.h"
#include "functions/strict_math.h"

namespace ember::functions {
namespace {

thread_local PartitionContext t_partition;

Signature rand_rule(const std::vector<TypePtr>& args, const Config&) {
  if (!args.empty()) {
    TypeId id = args[0]->id();
    if (id != TypeId::kInt && id != TypeId::kLong && id != TypeId::kNull)
      throw_type_mismatch(
          "UNEXPECTED_INPUT_TYPE",
          "The first parameter requires the (\"INT\" or \"BIGINT\") type, however \"" +
              args[0]->sql() + "\" has the type \"" + args[0]->sql() + "\".",
          "rand(" + args[0]->sql() + ")");
  }
  Signature s;
  s.arg_types = args;
  s.result_type = DataType::double_();
  s.null_if_any_arg_null = false;
  s.never_null = true;
  return s;
}

/// The seed of a call: its (constant) argument; null counts as 0, as in Spark. A call without
/// a seed draws one per batch (Spark draws one per query; callers through Spark Connect
/// always pass one).
int64_t seed_of(const std::vector<ColumnPtr>& args) {
  if (args.empty())
    return static_cast<int64_t>(std::random_device{}()) << 32 | std::random_device{}();
  const Column& c = *args[0];
  if (c.length() == 0 || c.type()->id() == TypeId::kNull || c.is_null(0)) return 0;
  return c.type()->id() == TypeId::kInt ? c.values<int32_t>()[0] : c.values<int64_t>()[0];
}

/// The stream of seed + partition moved past the `rows` rows before this batch, each of which
/// drew `steps_per_row` steps.
uint64_t stream_at(int64_t seed, int64_t partition, int64_t rows, uint64_t steps_per_row) {
  uint64_t state = xorshift::initial_state(
      static_cast<int64_t>(static_cast<uint64_t>(seed) + static_cast<uint64_t>(partition)));
  return xorshift::jump(state, static_cast<uint64_t>(rows) * steps_per_row);
}

ColumnPtr rand_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                      const EvalContext&) {
  PartitionContext where = t_partition;
  // Rows before this batch in the partition drew two steps each.
  uint64_t state = stream_at(seed_of(args), where.partition, where.row_offset, 2);
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(double));
  double* out = data->mutable_as<double>();
  for (int64_t i = 0; i < n; ++i) out[i] = xorshift::next_double(state);
  return Column::make(sig.result_type, n, nullptr, data);
}

/// java.util.Random.nextGaussian over the xorshift stream: the polar method, which draws pairs
/// of uniforms until one falls inside the unit circle and keeps the second normal of the pair
/// for the next call.
struct Gaussian {
  uint64_t state;
  bool have_next = false;
  double next = 0;

  double operator()() {
    if (have_next) {
      have_next = false;
      return next;
    }
    double v1, v2, s;
    do {
      v1 = 2 * xorshift::next_double(state) - 1;
      v2 = 2 * xorshift::next_double(state) - 1;
      s = v1 * v1 + v2 * v2;
    } while (s >= 1 || s == 0);
    // java.util.Random computes the multiplier with StrictMath.
    double multiplier = std::sqrt(-2 * strict_math::log(s) / s);
    next = v2 * multiplier;
    have_next = true;
    return v1 * multiplier;
  }
};

/// Where a stream stood at the end of the batches drawn so far, for streams that cannot jump
/// (their draws per row vary, or their state is too large): a batch resumes from the nearest
/// earlier end of a batch of the same stream (normally the one just before it) and replays only
/// the rows in between. `key` names the stream (its seed and partition).
template <typename Stream>
class ResumePoints {
 public:
  /// The latest remembered point of stream `key` at or before `row`: its row and state; row 0
  /// and `fresh` when there is none.
  std::pair<int64_t, Stream> latest(uint64_t key, int64_t row, Stream fresh) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = points_.upper_bound({key, row});
    if (it != points_.begin() && (--it)->first.first == key) return {it->first.second, it->second};
    return {0, std::move(fresh)};
  }

  void remember(uint64_t key, int64_t row, const Stream& s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (points_.size() >= kMaxPoints) points_.clear();
    points_.insert_or_assign({key, row}, s);
  }

 private:
  static constexpr size_t kMaxPoints = 1024;
  std::mutex mu_;
  std::map<std::pair<uint64_t, int64_t>, Stream> points_;
};

ColumnPtr randn_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                       const EvalContext&) {
  PartitionContext where = t_partition;
  static ResumePoints<Gaussian> points;
  const uint64_t start = stream_at(seed_of(args), where.partition, 0, 0);
  auto [at, g] = points.latest(start, where.row_offset, Gaussian{start});
  for (; at < where.row_offset; ++at) g();
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(double));
  double* out = data->mutable_as<double>();
  for (int64_t i = 0; i < n; ++i) out[i] = g();
  points.remember(start, where.row_offset + n, g);
  return Column::make(sig.result_type, n, nullptr, data);
}

/// The seed argument `k` of a call (constant), or a fresh one when the call has none.
int64_t seed_at(const std::vector<ColumnPtr>& args, size_t k) {
  if (args.size() <= k) return seed_of({});
  return seed_of({args[k]});
}

[[noreturn]] void not_numeric(const std::string& fn, const std::vector<TypePtr>& a, size_t k) {
  static const char* ordinals[] = {"first", "second", "third"};
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinals[k] + " parameter requires the \"NUMERIC\" type, however \"" +
                          a[k]->sql() + "\" has the type \"" + a[k]->sql() + "\".",
                      fn + "(" + a[0]->sql() + ", " + a[1]->sql() + ")");
}

void check_seed(const std::string& fn, const std::vector<TypePtr>& a, size_t k) {
  if (a.size() <= k) return;
  TypeId id = a[k]->id();
  if (id != TypeId::kInt && id != TypeId::kLong && id != TypeId::kNull)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The " + std::string(k == 1 ? "second" : "third") +
                            " parameter requires the (\"INT\" or \"BIGINT\") type, however \"" + a[k]->sql() +
                            "\" has the type \"" + a[k]->sql() + "\".",
                        fn);
}

/// uuid's and shuffle's seed (argument `k`, when given) must be an INT or BIGINT literal (or
/// NULL); Spark names the function `shown` in the error.
void check_seed_literal(const std::string& shown, const std::vector<ArgInfo>& a, size_t k) {
  if (a.size() <= k) return;
  const TypeId id = a[k].type->id();
  if (a[k].literal && (id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kNull)) return;
  const CallText* text = CallTextScope::current();
  const std::string got = text && text->args.size() > k ? text->args[k] : a[k].type->sql();
  throw SparkError(ErrorKind::kAnalysis, "INVALID_PARAMETER_VALUE.LONG",
                   "The value of parameter(s) `seed` in `" + shown + "` is invalid: expects a long literal, but got \"" +
                       got + "\".",
                   {{"parameter", "`seed`"}, {"functionName", "`" + shown + "`"}, {"expected", "a long literal"},
                    {"invalidValue", "\"" + got + "\""}},
                   "22023");
}

/// uniform's result type: the integral type when both bounds are integral (the wider one),
/// else DOUBLE, FLOAT or the DECIMAL among them, in that order; DOUBLE beside a NULL bound.
TypePtr uniform_type(const TypePtr& lo, const TypePtr& hi) {
  if (lo->id() == TypeId::kNull || hi->id() == TypeId::kNull)
    return lo->id() == TypeId::kNull && hi->id() != TypeId::kNull && hi->is_integral() ? DataType::double_()
           : hi->id() == TypeId::kNull && lo->id() != TypeId::kNull ? lo
                                                                   : DataType::double_();
  if (lo->is_integral() && hi->is_integral()) {
    auto rank = [](TypeId id) { return id == TypeId::kLong ? 4 : id == TypeId::kInt ? 3 : id == TypeId::kShort ? 2 : 1; };
    return rank(lo->id()) >= rank(hi->id()) ? lo : hi;
  }
  if (lo->id() == TypeId::kDouble || hi->id() == TypeId::kDouble) return DataType::double_();
  if (lo->id() == TypeId::kFloat || hi->id() == TypeId::kFloat) return DataType::float_();
  return hi->id() == TypeId::kDecimal ? hi : lo;
}

ColumnPtr uniform_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                         const EvalContext&) {
  uint64_t state = stream_at(seed_at(args, 2), t_partition.partition, t_partition.row_offset, 2);
  const TypePtr& t = sig.result_type;
  auto as_double = [](const Column& c, int64_t i) -> double {
    if (c.type()->id() == TypeId::kNull) return 0;
    return dispatch_fixed(c.type()->id(), [&]<typename T>() -> double {
      if constexpr (std::is_same_v<T, int128_t>)
        return static_cast<double>(c.values<T>()[i]) / std::pow(10.0, c.type()->scale());
      else
        return static_cast<double>(c.values<T>()[i]);
    });
  };
  ColumnBuilder b(t, n);
  for (int64_t i = 0; i < n; ++i) {
    double r = xorshift::next_double(state);
    if (args[0]->is_null(i) || args[1]->is_null(i)) {
      b.append_null();
      continue;
    }
    double lo = as_double(*args[0], i), hi = as_double(*args[1], i);
    double v = lo + r * (hi - lo);
    switch (t->id()) {
      case TypeId::kByte: b.append<int8_t>(static_cast<int8_t>(static_cast<int32_t>(v))); break;
      case TypeId::kShort: b.append<int16_t>(static_cast<int16_t>(static_cast<int32_t>(v))); break;
      case TypeId::kInt: b.append<int32_t>(static_cast<int32_t>(v)); break;
      case TypeId::kLong: b.append<int64_t>(static_cast<int64_t>(v)); break;
      case TypeId::kFloat: b.append<float>(static_cast<float>(v)); break;
      case TypeId::kDecimal: {
        // Rounded half up to the result's scale.
        double scaled = v * std::pow(10.0, t->scale());
        b.append<int128_t>(static_cast<int128_t>(std::llround(scaled)));
        break;
      }
      default: b.append<double>(v);
    }
  }
  return b.finish();
}

/// Spark's randstr: each character from one nextInt(): |v % 62| picks among 0-9, a-z, A-Z.
ColumnPtr randstr_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                         const EvalContext&) {
  const Column& len_col = *args[0];
  auto length_at = [&](int64_t i) -> int64_t {
    if (len_col.type()->id() == TypeId::kNull || len_col.is_null(i)) return 0;
    return dispatch_fixed(len_col.type()->id(), [&]<typename T>() -> int64_t {
      if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(len_col.values<T>()[i]);
      else return 0;
    });
  };
  const int64_t len = n > 0 ? length_at(0) : 0;
  for (int64_t i = 1; i < n; ++i)
    if (length_at(i) != len)
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          "the input `length` should be a foldable integer expression; however, got a column.",
                          "randstr(" + len_col.type()->sql() + ")");
  if (len < 0)
    throw_type_mismatch("VALUE_OUT_OF_RANGE",
                        "The `length` must be between [0, 2147483647] (current value = " + std::to_string(len) + ").",
                        "randstr(" + len_col.type()->sql() + ")");
  uint64_t state = stream_at(seed_at(args, 1), t_partition.partition, t_partition.row_offset,
                             static_cast<uint64_t>(len));
  ColumnBuilder b(sig.result_type, n);
  std::string s(static_cast<size_t>(len), '0');
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < len; ++k) {
      state = xorshift::step(state);
      int32_t v = static_cast<int32_t>(static_cast<uint32_t>(state));
      int32_t d = v % 62;
      d = d < 0 ? -d : d;
      s[static_cast<size_t>(k)] = static_cast<char>(d < 10 ? '0' + d : d < 36 ? 'a' + (d - 10) : 'A' + (d - 36));
    }
    b.append_bytes(s);
  }
  return b.finish();
}

/// The MersenneTwister stream of uuid and shuffle for the batch being evaluated, at the
/// batch's first row: Spark seeds one generator per partition with seed + partition index. A
/// call without a seed (argument `k`) draws a stream of its own, as rand does. Otherwise the
/// batch resumes from the nearest remembered point of its partition's stream at or before its
/// first row, and `replay` moves it over the rows in between; it returns false where it cannot
/// (the draws per row depend on rows it does not have), and the batch then starts a stream of
/// its own, seeded from the partition's seed and its first row. `key` receives the stream's
/// seed, under which the caller remembers where the batch left it (0 for an unseeded call).
template <typename Replay>
MersenneTwister twister_at(const std::vector<ColumnPtr>& args, size_t k, ResumePoints<MersenneTwister>& points,
                           Replay replay, std::optional<uint64_t>& key) {
  if (args.size() <= k) return MersenneTwister(seed_of({}));
  const PartitionContext where = t_partition;
  const int64_t seed =
      static_cast<int64_t>(static_cast<uint64_t>(seed_of({args[k]})) + static_cast<uint64_t>(where.partition));
  key = static_cast<uint64_t>(seed);
  auto [at, g] = points.latest(*key, where.row_offset, MersenneTwister(seed));
  if (at == where.row_offset || replay(g, where.row_offset - at)) return g;
  return MersenneTwister(seed ^ static_cast<int64_t>(xorshift::initial_state(where.row_offset)));
}

/// The text of java.util.UUID(most, least): five groups of hex digits, 8-4-4-4-12.
void append_uuid(std::string& out, uint64_t most, uint64_t least) {
  static const char kHex[] = "0123456789abcdef";
  auto hex = [&](uint64_t v, int digits) {
    for (int k = digits - 1; k >= 0; --k) out += kHex[(v >> (4 * k)) & 0xf];
  };
  hex(most >> 32, 8);
  out += '-';
  hex(most >> 16, 4);
  out += '-';
  hex(most, 4);
  out += '-';
  hex(least >> 48, 4);
  out += '-';
  hex(least, 12);
}

/// Spark's RandomUUIDGenerator: a version 4, variant 2 UUID from two nextLong draws.
std::pair<uint64_t, uint64_t> next_uuid(MersenneTwister& g) {
  const auto most = (static_cast<uint64_t>(g.next_long()) & 0xFFFFFFFFFFFF0FFFull) | 0x4000ull;
  const auto least = (static_cast<uint64_t>(g.next_long()) | 0x8000000000000000ull) & 0xBFFFFFFFFFFFFFFFull;
  return {most, least};
}

/// uuid([seed]): every row draws the same number of values, so a batch can always replay the
/// rows before it.
ColumnPtr uuid_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, const EvalContext&) {
  static ResumePoints<MersenneTwister> points;
  std::optional<uint64_t> key;
  MersenneTwister g = twister_at(
      args, 0, points,
      [](MersenneTwister& t, int64_t rows) {
        for (int64_t i = 0; i < rows; ++i) next_uuid(t);
        return true;
      },
      key);
  ColumnBuilder b(sig.result_type, n);
  std::string text;
  for (int64_t i = 0; i < n; ++i) {
    auto [most, least] = next_uuid(g);
    text.clear();
    append_uuid(text, most, least);
    b.append_bytes(text);
  }
  if (key) points.remember(*key, t_partition.row_offset + n, g);
  return b.finish();
}

/// shuffle(array[, seed]): Spark's RandomIndicesGenerator, the inside-out Fisher-Yates shuffle:
/// for each position i from the first, j = nextInt(i + 1) (one draw even for i = 0); position i
/// takes what position j held and position j takes element i. Null arrays draw nothing.
ColumnPtr shuffle_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, const EvalContext&) {
  static ResumePoints<MersenneTwister> points;
  // The draws per row depend on the arrays: a batch continues its partition's stream only from
  // the end of the batch just before it (batches of a partition normally run in order).
  std::optional<uint64_t> key;
  MersenneTwister g = twister_at(args, 1, points, [](MersenneTwister&, int64_t) { return false; }, key);
  const Column& arr = *args[0];
  const int32_t* o = arr.offsets();
  std::vector<int32_t> offsets{0}, picks;
  std::vector<uint8_t> valid(static_cast<size_t>(n), 1);
  for (int64_t i = 0; i < n; ++i) {
    if (arr.is_null(i)) {
      valid[static_cast<size_t>(i)] = 0;
    } else {
      const size_t first = picks.size();
      picks.resize(first + static_cast<size_t>(o[i + 1] - o[i]));
      int32_t* out = picks.data() + first;
      for (int32_t k = 0; k < o[i + 1] - o[i]; ++k) {
        const int32_t j = g.next_int(k + 1);
        out[k] = out[j];
        out[j] = o[i] + k;
      }
    }
    offsets.push_back(static_cast<int32_t>(picks.size()));
  }
  if (key) points.remember(*key, t_partition.row_offset + n, g);
  return gather_list(sig.result_type, arr, offsets, picks, validity_from(valid));
}

}  // namespace

namespace xorshift {

const uint64_t* jump_powers() {
  static const std::vector<uint64_t> powers = [] {
    std::vector<uint64_t> t(static_cast<size_t>(kJumpPowers) * 64);
    for (int b = 0; b < 64; ++b) t[static_cast<size_t>(b)] = step(uint64_t{1} << b);
    // M^(2^j) = M^(2^(j-1)) · M^(2^(j-1)); column c of A·B is A applied to B's column c.
    for (int j = 1; j < kJumpPowers; ++j)
      for (int c = 0; c < 64; ++c)
        t[static_cast<size_t>(j) * 64 + c] = apply_matrix(
            &t[static_cast<size_t>(j - 1) * 64], t[static_cast<size_t>(j - 1) * 64 + c]);
    return t;
  }();
  return powers.data();
}

uint64_t jump(uint64_t state, uint64_t steps) {
  const uint64_t* powers = jump_powers();
  for (int j = 0; j < kJumpPowers && steps != 0; ++j, steps >>= 1)
    if (steps & 1) state = apply_matrix(powers + static_cast<size_t>(j) * 64, state);
  return state;
}

}  // namespace xorshift

PartitionContext current_partition() { return t_partition; }

PartitionScope::PartitionScope(PartitionContext context) : saved_(t_partition) {
  t_partition = context;
}

PartitionScope::~PartitionScope() { t_partition = saved_; }

/// monotonically_increasing_id(): the partition in the upper 31 bits, the row's position in it
/// in the lower 33, as Spark numbers rows (unique and increasing, not consecutive).
ColumnPtr monotonically_increasing_id_kernel(const std::vector<ColumnPtr>&, int64_t n, const Signature& sig,
                                             const EvalContext&) {
  PartitionContext where = t_partition;
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int64_t));
  int64_t* out = data->mutable_as<int64_t>();
  const int64_t base = (where.partition << 33) + where.row_offset;
  for (int64_t i = 0; i < n; ++i) out[i] = base + i;
  return Column::make(sig.result_type, n, nullptr, data);
}

/// spark_partition_id(): the Spark partition the row belongs to.
ColumnPtr spark_partition_id_kernel(const std::vector<ColumnPtr>&, int64_t n, const Signature& sig,
                                    const EvalContext&) {
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
  std::fill_n(data->mutable_as<int32_t>(), n, static_cast<int32_t>(t_partition.partition));
  return Column::make(sig.result_type, n, nullptr, data);
}

FunctionDef row_numbering(const char* name, TypePtr type, ScalarKernel kernel, const char* usage) {
  FunctionDef d;
  d.name = name;
  d.min_args = d.max_args = 0;
  d.type_rule = [type](const std::vector<TypePtr>&, const Config&) {
    Signature s;
    s.result_type = type;
    s.never_null = true;
    return s;
  };
  d.kernel = std::move(kernel);
  d.deterministic = false;
  d.numbers_rows = true;
  d.usage = usage;
  return d;
}

void register_rand(Registry& r) {
  r.add(row_numbering("monotonically_increasing_id", DataType::long_(), monotonically_increasing_id_kernel,
                      "monotonically_increasing_id() - Returns monotonically increasing 64-bit integers, unique "
                      "but not consecutive: the partition in the upper 31 bits, the row number in it in the lower 33."));
  FunctionDef pid = row_numbering("spark_partition_id", DataType::int_(), spark_partition_id_kernel,
                                  "spark_partition_id() - Returns the current partition id.");
  pid.render = [](const std::string&, const std::vector<std::string>&) { return std::string("SPARK_PARTITION_ID()"); };
  r.add(std::move(pid));
  FunctionDef d;
  d.name = "rand";
  d.aliases = {"random"};
  d.min_args = 0;
  d.max_args = 1;
  d.type_rule = rand_rule;
  d.kernel = rand_kernel;
  d.deterministic = false;
  d.numbers_rows = true;
  d.gpu_supported = true;
  // Spark shows a call of random by rand's name.
  d.render = [](const std::string&, const std::vector<std::string>& args) {
    return "rand(" + (args.empty() ? std::string() : args[0]) + ")";
  };
  d.usage =
      "rand([seed]) - Returns a random value with independent and identically distributed (i.i.d.) "
      "uniformly distributed values in [0, 1).";
  r.add(std::move(d));

  FunctionDef g;
  g.name = "randn";
  g.min_args = 0;
  g.max_args = 1;
  g.type_rule = rand_rule;
  g.kernel = randn_kernel;
  g.deterministic = false;
  g.numbers_rows = true;
  g.usage =
      "randn([seed]) - Returns a random value with independent and identically distributed (i.i.d.) values "
      "drawn from the standard normal distribution.";
  r.add(std::move(g));

  FunctionDef u;
  u.name = "uniform";
  u.min_args = 2;
  u.max_args = 3;
  u.type_rule = [](const std::vector<TypePtr>& a, const Config&) {
    for (size_t k = 0; k < 2; ++k)
      if (!a[k]->is_numeric() && a[k]->id() != TypeId::kNull) not_numeric("uniform", a, k);
    check_seed("uniform", a, 2);
    Signature s;
    s.arg_types = a;
    // The bounds keep their types (the result type depends on them); the kernel reads them as
    // doubles.
    s.result_type = uniform_type(a[0], a[1]);
    // Spark declares the result non-nullable even beside a NULL bound.
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  u.kernel = uniform_kernel;
  u.deterministic = false;
  u.numbers_rows = true;
  u.usage = "uniform(min, max[, seed]) - Returns a random value with independent and identically distributed "
            "(i.i.d.) values with the specified range of numbers.";
  r.add(std::move(u));

  FunctionDef rs;
  rs.name = "randstr";
  rs.min_args = 1;
  rs.max_args = 2;
  rs.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    TypeId id = a[0].type->id();
    std::string call = "randstr(" + a[0].type->sql() + ")";
    if (id != TypeId::kInt && id != TypeId::kShort && id != TypeId::kByte && id != TypeId::kNull)
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The first parameter requires the \"INT\" type, however \"" + a[0].type->sql() +
                              "\" has the type \"" + a[0].type->sql() + "\".",
                          call);
    // A constant expression that is not a literal (a cast) is read by the kernel.
    if (a[0].literal && !a[0].literal->is_null() && a[0].literal->as_int() < 0)
      throw_type_mismatch("VALUE_OUT_OF_RANGE",
                          "The `length` must be between [0, 2147483647] (current value = " +
                              std::to_string(a[0].literal->as_int()) + ").",
                          call);
    std::vector<TypePtr> types;
    for (auto& x : a) types.push_back(x.type);
    check_seed("randstr", types, 1);
    Signature s;
    s.arg_types = types;
    s.result_type = DataType::string();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  rs.kernel = randstr_kernel;
  rs.deterministic = false;
  rs.numbers_rows = true;
  rs.usage = "randstr(length[, seed]) - Returns a string of the specified length whose characters are chosen "
             "uniformly at random from the pool of characters 0-9, a-z, A-Z.";
  r.add(std::move(rs));

  FunctionDef id;
  id.name = "uuid";
  id.min_args = 0;
  id.max_args = 1;
  id.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    check_seed_literal("UUID", a, 0);
    Signature s;
    for (const ArgInfo& x : a) s.arg_types.push_back(x.type);
    s.result_type = DataType::string();
    s.null_if_any_arg_null = false;
    s.never_null = true;
    return s;
  };
  id.kernel = uuid_kernel;
  id.deterministic = false;
  id.numbers_rows = true;
  // Spark shows the call without its seed.
  id.render = [](const std::string&, const std::vector<std::string>&) { return std::string("uuid()"); };
  id.usage = "uuid() - Returns an universally unique identifier (UUID) string. The value is returned as a canonical "
             "UUID 36-character string.";
  id.since = "2.3.0";
  r.add(std::move(id));

  FunctionDef sh;
  sh.name = "shuffle";
  sh.min_args = 1;
  sh.max_args = 2;
  sh.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    std::vector<TypePtr> types;
    for (const ArgInfo& x : a) types.push_back(x.type);
    if (types[0]->id() != TypeId::kArray) throw_unexpected_input("shuffle", {types[0]}, 0, "\"ARRAY\"");
    check_seed_literal("shuffle", a, 1);
    Signature s;
    s.arg_types = types;
    s.result_type = types[0];
    s.null_if_any_arg_null = false;
    s.nullable_from = {0};
    return s;
  };
  sh.kernel = shuffle_kernel;
  sh.deterministic = false;
  sh.numbers_rows = true;
  sh.render = [](const std::string&, const std::vector<std::string>& a) { return "shuffle(" + a[0] + ")"; };
  sh.usage = "shuffle(array) - Returns a random permutation of the given array.";
  sh.since = "2.4.0";
  r.add(std::move(sh));
}

}  // namespace ember::functions
