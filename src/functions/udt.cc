// unwrap_udt: a user-defined type's column as its underlying SQL type.
//
// Ember keeps no user-defined types: a schema that names one (pyspark.ml.linalg's VectorUDT and
// MatrixUDT, a Python UDT) arrives as its sqlType, and its values are that type's values
// already. Unwrapping is therefore the identity on the column, whose type is the sqlType Spark
// unwraps to. Spark reaches unwrap_udt from the DataFrame API only and does not list it.

#include "functions/string_util.h"

namespace ember::functions {

void register_udt(Registry& r) {
  FunctionDef d = scalar(
      "unwrap_udt", 1, 1,
      [](const std::vector<TypePtr>& a, const Config&) {
        Signature s;
        s.arg_types = a;
        s.result_type = a[0];
        return s;
      },
      [](const std::vector<ColumnPtr>& a, int64_t, const Signature&, const EvalContext&) { return a[0]; });
  d.usage = "unwrap_udt(col) - Returns the values of a user-defined type's column as its underlying SQL type.";
  d.unlisted = true;
  r.add(std::move(d));
}

}  // namespace ember::functions
