// rand([seed]): uniformly distributed doubles in [0, 1), and randn([seed]): standard normal
// doubles, from Spark's XORShiftRandom stream (see rand.h for the algorithm and for how
// partitions are numbered). randn draws as java.util.Random.nextGaussian does: the polar
// method on pairs of nextDouble() draws, rejecting pairs outside the unit circle, each accepted
// pair giving two values (the second kept for the next row).

#include "functions/rand.h"

#include <cmath>
#include <random>

#include "functions/function.h"
#include "functions/kernel_util.h"

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

ColumnPtr rand_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                      const EvalContext&) {
  PartitionContext where = t_partition;
  uint64_t state = xorshift::initial_state(static_cast<int64_t>(
      static_cast<uint64_t>(seed_of(args)) + static_cast<uint64_t>(where.partition)));
  // Rows before this batch in the partition consumed two steps each.
  for (int64_t i = 0; i < where.row_offset; ++i) state = xorshift::step(xorshift::step(state));
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(double));
  double* out = data->mutable_as<double>();
  for (int64_t i = 0; i < n; ++i) out[i] = xorshift::next_double(state);
  return Column::make(sig.result_type, n, nullptr, data);
}

/// java.util.Random.nextGaussian over the XORShiftRandom stream.
struct Gaussian {
  uint64_t state;
  bool have_next = false;
  double next_value = 0;
  double next() {
    if (have_next) {
      have_next = false;
      return next_value;
    }
    double v1, v2, s;
    do {
      v1 = 2 * xorshift::next_double(state) - 1;
      v2 = 2 * xorshift::next_double(state) - 1;
      s = v1 * v1 + v2 * v2;
    } while (s >= 1 || s == 0);
    double multiplier = std::sqrt(-2 * std::log(s) / s);
    next_value = v2 * multiplier;
    have_next = true;
    return v1 * multiplier;
  }
};

ColumnPtr randn_kernel(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig,
                       const EvalContext&) {
  PartitionContext where = t_partition;
  Gaussian g{xorshift::initial_state(static_cast<int64_t>(
      static_cast<uint64_t>(seed_of(args)) + static_cast<uint64_t>(where.partition)))};
  // Rows before this batch in the partition drew a varying number of steps: replay them.
  for (int64_t i = 0; i < where.row_offset; ++i) g.next();
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(double));
  double* out = data->mutable_as<double>();
  for (int64_t i = 0; i < n; ++i) out[i] = g.next();
  return Column::make(sig.result_type, n, nullptr, data);
}

}  // namespace

PartitionContext current_partition() { return t_partition; }

PartitionScope::PartitionScope(PartitionContext context) : saved_(t_partition) {
  t_partition = context;
}

PartitionScope::~PartitionScope() { t_partition = saved_; }

void register_rand(Registry& r) {
  FunctionDef d;
  d.name = "rand";
  d.aliases = {"random"};
  d.min_args = 0;
  d.max_args = 1;
  d.type_rule = rand_rule;
  d.kernel = rand_kernel;
  d.deterministic = false;
  d.gpu_supported = true;
  d.usage =
      "rand([seed]) - Returns a random value with independent and identically distributed (i.i.d.) "
      "uniformly distributed values in [0, 1).";
  r.add(std::move(d));
  FunctionDef n;
  n.name = "randn";
  n.min_args = 0;
  n.max_args = 1;
  n.type_rule = [](const std::vector<TypePtr>& args, const Config& conf) {
    try {
      return rand_rule(args, conf);
    } catch (const SparkError&) {
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The first parameter requires the (\"INT\" or \"BIGINT\") type, however \"" +
                              args[0]->sql() + "\" has the type \"" + args[0]->sql() + "\".",
                          "randn(" + args[0]->sql() + ")");
    }
  };
  n.kernel = randn_kernel;
  n.deterministic = false;
  n.usage =
      "randn([seed]) - Returns a random value with independent and identically distributed (i.i.d.) "
      "values drawn from the standard normal distribution.";
  r.add(std::move(n));
}

}  // namespace ember::functions
