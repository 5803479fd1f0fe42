// Functions over embedding vectors (ARRAY<FLOAT>, no implicit casts): vector_cosine_similarity,
// vector_inner_product, vector_l2_distance, vector_norm and vector_normalize, whose sums and
// products run in double precision with the result rounded to FLOAT once (a vector holding a
// null element gives null); and the aggregates vector_sum and vector_avg, which accumulate in
// FLOAT as Spark does and skip null vectors and vectors holding a null. Vectors of different
// lengths raise VECTOR_DIMENSION_MISMATCH.

#include <cmath>

#include "functions/aggregate_state.h"
#include "functions/cast.h"
#include "functions/collection_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

bool is_float_vector(const TypePtr& t) {
  return t->id() == TypeId::kArray && t->element_type()->id() == TypeId::kFloat;
}

/// Checks that arguments [0, vectors) are ARRAY<FLOAT> and the rest FLOAT.
Signature vector_rule(const std::string& fn, const Types& a, size_t vectors, TypePtr result) {
  for (size_t k = 0; k < a.size(); ++k) {
    bool ok = k < vectors ? is_float_vector(a[k]) : a[k]->id() == TypeId::kFloat;
    if (!ok) throw_unexpected_input(fn, a, k, k < vectors ? "\"ARRAY<FLOAT>\"" : "\"FLOAT\"");
  }
  Signature s;
  s.arg_types = a;
  s.result_type = std::move(result);
  s.may_introduce_null = true;
  return s;
}

/// The elements of row i of an ARRAY<FLOAT> column as doubles; false when one is null.
bool read_vector(const Column& c, int64_t i, std::vector<double>* out) {
  const int32_t* off = c.offsets();
  const Column& items = *c.child(0);
  const float* v = items.values<float>();
  out->clear();
  for (int32_t k = off[i]; k < off[i + 1]; ++k) {
    if (items.is_null(k)) return false;
    out->push_back(static_cast<double>(v[k]));
  }
  return true;
}

[[noreturn]] void dimension_mismatch(const std::string& fn, size_t a, size_t b) {
  throw SparkError(ErrorKind::kRuntime, "VECTOR_DIMENSION_MISMATCH",
                   "Vectors passed to `" + fn + "` must have the same dimension, but got " + std::to_string(a) +
                       " and " + std::to_string(b) + ".",
                   {{"functionName", "`" + fn + "`"}, {"leftDim", std::to_string(a)}, {"rightDim", std::to_string(b)}},
                   "22000");
}

/// A kernel over two vectors: `op(x, y, &out)` returns false for a null result.
template <typename Op>
ScalarKernel pair_kernel(std::string fn, Op op) {
  return [fn, op](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    std::vector<double> x, y;
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      if (!read_vector(*a[0], i, &x) || !read_vector(*a[1], i, &y)) {
        b.append_null();
        return;
      }
      if (x.size() != y.size()) dimension_mismatch(fn, x.size(), y.size());
      double out = 0;
      if (op(x, y, &out))
        b.append<float>(static_cast<float>(out));
      else
        b.append_null();
    });
  };
}

/// The p-norm of `x` for the degrees Spark allows (1, 2 and infinity).
double norm(const std::vector<double>& x, float degree) {
  double acc = 0;
  for (double v : x) {
    if (degree == 1.0f) acc += std::fabs(v);
    else if (degree == 2.0f) acc += v * v;
    else acc = std::isnan(acc) || std::isnan(v) ? NAN : std::max(acc, std::fabs(v));  // Java's Math.max
  }
  return degree == 2.0f ? std::sqrt(acc) : acc;
}

float degree_at(const Args& a, int64_t i, const std::string& fn) {
  float d = a.size() > 1 ? a[1]->values<float>()[i] : 2.0f;
  if (d != 1.0f && d != 2.0f && !(std::isinf(d) && d > 0))
    throw SparkError(ErrorKind::kRuntime, "INVALID_VECTOR_NORM_DEGREE",
                     "For the `" + fn + "` function, degree must be 1.0, 2.0, or float('inf'), but got " +
                         format_float(d) + ".",
                     {{"functionName", "`" + fn + "`"}, {"degree", format_float(d)}}, "22023");
  return d;
}

/// Spark shows the default degree in the column name.
std::string with_default_degree(const std::string& called, const std::vector<std::string>& a) {
  return called + "(" + a[0] + ", " + (a.size() > 1 ? a[1] : "2.0") + ")";
}

/// vector_sum / vector_avg state: the running sum (or mean), made by `init`, and the number of
/// vectors in it.
struct VectorState {
  HeapState<std::vector<float>> acc;
  int64_t count;
};

class VectorAggregate final : public AggregateFunction {
 public:
  VectorAggregate(std::string name, bool avg) : name_(std::move(name)), avg_(avg) {}
  size_t state_size() const override { return sizeof(VectorState); }
  void init(uint8_t* s) const override {
    auto* st = reinterpret_cast<VectorState*>(s);
    st->acc.create();
    st->count = 0;
  }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    const Column& items = *c.child(0);
    const float* v = items.values<float>();
    const int32_t* off = c.offsets();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      bool has_null = false;
      for (int32_t k = off[i]; k < off[i + 1]; ++k) has_null |= items.is_null(k);
      if (has_null) continue;
      auto* st = reinterpret_cast<VectorState*>(states[i]);
      size_t dim = static_cast<size_t>(off[i + 1] - off[i]);
      if (st->count == 0) st->acc->assign(dim, 0.0f);
      else if (st->acc->size() != dim) dimension_mismatch(name_, st->acc->size(), dim);
      ++st->count;
      // The mean moves toward each new vector by 1/count of the difference.
      const float inv = 1.0f / static_cast<float>(st->count);
      for (size_t k = 0; k < dim; ++k) {
        float x = v[off[i] + static_cast<int32_t>(k)];
        float& a = (*st->acc)[k];
        a = avg_ ? a + (x - a) * inv : a + x;
      }
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<VectorState*>(dst);
    const auto* s = reinterpret_cast<const VectorState*>(src);
    if (s->count == 0) return;
    if (d->count == 0) {
      *d->acc = *s->acc;
      d->count = s->count;
      return;
    }
    if (d->acc->size() != s->acc->size()) dimension_mismatch(name_, d->acc->size(), s->acc->size());
    const int64_t total = d->count + s->count;
    const float weight = static_cast<float>(s->count) / static_cast<float>(total);
    for (size_t k = 0; k < d->acc->size(); ++k) {
      float& a = (*d->acc)[k];
      a = avg_ ? a + ((*s->acc)[k] - a) * weight : a + (*s->acc)[k];
    }
    d->count = total;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const auto* st = reinterpret_cast<const VectorState*>(states[i]);
      if (st->count == 0) {
        out.append_null();
        continue;
      }
      for (float x : *st->acc) out.child(0).append<float>(x);
      out.close_list();
    }
  }
  void destroy(uint8_t* state) const override {
    reinterpret_cast<VectorState*>(state)->acc.destroy();
  }
  bool needs_destroy() const override { return true; }

 private:
  std::string name_;
  bool avg_;
};

}  // namespace

void register_vector_functions(Registry& r) {
  for (bool avg : {false, true}) {
    std::string fn = avg ? "vector_avg" : "vector_sum";
    FunctionDef d;
    d.name = fn;
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    d.type_rule = [fn](const Types& a, const Config&) {
      return vector_rule(fn, a, 1, DataType::array(DataType::float_(), false));
    };
    d.aggregate = [fn, avg](const Signature&, const EvalContext&) {
      return std::make_unique<VectorAggregate>(fn, avg);
    };
    d.usage = avg ? "vector_avg(v) - Returns the element-wise mean of the float vectors in a group."
                  : "vector_sum(v) - Returns the element-wise sum of the float vectors in a group.";
    r.add(std::move(d));
  }
  struct Pair {
    const char* name;
    bool (*op)(const std::vector<double>&, const std::vector<double>&, double*);
    const char* usage;
  };
  const Pair pairs[] = {
      {"vector_cosine_similarity",
       [](const std::vector<double>& x, const std::vector<double>& y, double* out) {
         double dot = 0, nx = 0, ny = 0;
         for (size_t k = 0; k < x.size(); ++k) dot += x[k] * y[k], nx += x[k] * x[k], ny += y[k] * y[k];
         if (nx == 0 || ny == 0) return false;
         *out = dot / (std::sqrt(nx) * std::sqrt(ny));
         return true;
       },
       "vector_cosine_similarity(v1, v2) - Returns the cosine similarity of two float vectors."},
      {"vector_inner_product",
       [](const std::vector<double>& x, const std::vector<double>& y, double* out) {
         for (size_t k = 0; k < x.size(); ++k) *out += x[k] * y[k];
         return true;
       },
       "vector_inner_product(v1, v2) - Returns the inner (dot) product of two float vectors."},
      {"vector_l2_distance",
       [](const std::vector<double>& x, const std::vector<double>& y, double* out) {
         for (size_t k = 0; k < x.size(); ++k) *out += (x[k] - y[k]) * (x[k] - y[k]);
         *out = std::sqrt(*out);
         return true;
       },
       "vector_l2_distance(v1, v2) - Returns the Euclidean distance between two float vectors."},
  };
  for (const Pair& p : pairs) {
    std::string fn = p.name;
    FunctionDef d = scalar(
        fn, 2, 2, [fn](const Types& a, const Config&) { return vector_rule(fn, a, 2, DataType::float_()); },
        pair_kernel(fn, p.op));
    d.may_throw = true;
    d.usage = p.usage;
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "vector_norm", 1, 2,
        [](const Types& a, const Config&) { return vector_rule("vector_norm", a, 1, DataType::float_()); },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          std::vector<double> x;
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            float degree = degree_at(a, i, "vector_norm");
            if (!read_vector(*a[0], i, &x)) b.append_null();
            else b.append<float>(static_cast<float>(norm(x, degree)));
          });
        });
    d.may_throw = true;
    d.render = with_default_degree;
    d.usage = "vector_norm(v[, degree]) - Returns the 1-, 2- (default) or infinity-norm of a float vector.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "vector_normalize", 1, 2,
        [](const Types& a, const Config&) {
          return vector_rule("vector_normalize", a, 1, DataType::array(DataType::float_(), true));
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          std::vector<double> x;
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            float degree = degree_at(a, i, "vector_normalize");
            if (!read_vector(*a[0], i, &x)) {
              b.append_null();
              return;
            }
            double nx = norm(x, degree);
            if (nx == 0 && !x.empty()) {
              b.append_null();
              return;
            }
            for (double v : x) b.child(0).append<float>(static_cast<float>(v / nx));
            b.close_list();
          });
        });
    d.may_throw = true;
    d.render = with_default_degree;
    d.usage = "vector_normalize(v[, degree]) - Returns v divided by its norm of the given degree (2 by default).";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
