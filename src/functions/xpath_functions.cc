// XPath functions: xpath, xpath_boolean, xpath_double/xpath_number, xpath_float, xpath_int,
// xpath_long, xpath_short, xpath_string. Each parses its XML argument with common/xml and
// evaluates its constant path with functions/xpath, converting the result as Spark's
// javax.xml.xpath calls do (NODESET, BOOLEAN, NUMBER, STRING) and then to the result type as
// java.lang.Double's intValue/longValue/shortValue/floatValue do.

#include <cmath>
#include <limits>
#include <optional>

#include "common/error.h"
#include "common/xml.h"
#include "functions/string_util.h"
#include "functions/xpath.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;

enum class Result { kNodeList, kBoolean, kDouble, kFloat, kInt, kLong, kShort, kString };

/// Java's (int) and (long) casts of a double: NaN is 0, out-of-range values saturate.
template <typename T>
T java_double_to_integral(double d) {
  if (std::isnan(d)) return 0;
  if (d >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (d <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return static_cast<T>(d);
}

/// Compiles the path once per batch (it is constant) and evaluates it per row, raising the
/// errors Spark's XPath utility raises: an invalid path, an XML document that does not parse,
/// and a failure during evaluation.
class XPathRunner {
 public:
  /// The value of `path` over `xml`, or nullopt where Spark gives NULL (an empty document or
  /// path).
  std::optional<xpath::Value> run(std::string_view xml, std::string_view path) {
    if (xml.empty() || path.empty()) return std::nullopt;
    if (!compiled_ || path != compiled_text_) {
      std::string error;
      bool unsupported = false;
      compiled_ = xpath::Path::compile(path, &error, &unsupported);
      compiled_text_ = std::string(path);
      if (!compiled_) {
        if (unsupported) throw_unsupported(error);
        throw SparkError(ErrorKind::kRuntime, "", "Invalid XPath '" + std::string(path) + "': " + error);
      }
    }
    std::string error;
    const xml::ParseStatus st = doc_.parse(xml, &error);
    if (st == xml::ParseStatus::kUnsupported) throw_unsupported(error);
    if (st != xml::ParseStatus::kOk)
      throw SparkError(ErrorKind::kRuntime, "", "Error loading expression '" + std::string(path) + "': " + error);
    try {
      return compiled_->evaluate(doc_);
    } catch (const xpath::EvalError& e) {
      if (e.unsupported) throw_unsupported(e.message);
      throw SparkError(ErrorKind::kRuntime, "", "Invalid XML document: " + e.message + "\n" + std::string(xml));
    }
  }

 private:
  [[noreturn]] static void throw_unsupported(const std::string& what) {
    throw SparkError(ErrorKind::kUnsupportedOperation, "", "Unsupported XPath or XML construct: " + what);
  }

  std::unique_ptr<xpath::Path> compiled_;
  std::string compiled_text_;
  xml::Document doc_;
};

/// The value a DOM node gives for getNodeValue(): null for elements and the document, the
/// first text piece of a text node, the value of anything else.
void append_node_value(const xml::Node* n, ColumnBuilder& items) {
  switch (n->kind) {
    case xml::NodeKind::kElement:
    case xml::NodeKind::kDocument:
      items.append_null();
      return;
    case xml::NodeKind::kText:
      items.append_bytes(std::string_view(n->value).substr(0, n->first_piece));
      return;
    default:
      items.append_bytes(n->value);
  }
}

ScalarKernel xpath_kernel(Result kind) {
  return [kind](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    XPathRunner runner;
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      std::optional<xpath::Value> v = runner.run(a[0]->string_at(i), a[1]->string_at(i));
      if (!v) {
        b.append_null();
        return;
      }
      switch (kind) {
        case Result::kNodeList: {
          if (v->kind != xpath::Value::Kind::kNodeSet) {
            const char* word = v->kind == xpath::Value::Kind::kNumber   ? "#NUMBER"
                               : v->kind == xpath::Value::Kind::kString ? "#STRING"
                                                                        : "#BOOLEAN";
            throw SparkError(ErrorKind::kRuntime, "",
                             std::string("Invalid XML document: Can not convert ") + word + " to a NodeList!\n" +
                                 std::string(a[0]->string_at(i)));
          }
          ColumnBuilder& items = b.child(0);
          for (const xml::Node* node : v->nodes) append_node_value(node, items);
          b.close_list();
          return;
        }
        case Result::kBoolean: b.append_bool(xpath::to_boolean(*v)); return;
        case Result::kDouble: b.append<double>(xpath::to_number(*v)); return;
        case Result::kFloat: b.append<float>(static_cast<float>(xpath::to_number(*v))); return;
        case Result::kInt: b.append<int32_t>(java_double_to_integral<int32_t>(xpath::to_number(*v))); return;
        case Result::kLong: b.append<int64_t>(java_double_to_integral<int64_t>(xpath::to_number(*v))); return;
        case Result::kShort:
          b.append<int16_t>(static_cast<int16_t>(java_double_to_integral<int32_t>(xpath::to_number(*v))));
          return;
        case Result::kString: b.append_bytes(xpath::to_string(*v)); return;
      }
    });
  };
}

std::string shown_arg(const ArgInfo& a) {
  if (a.literal && !a.literal->is_null() && a.type->id() == TypeId::kString) return a.literal->as_bytes();
  if (a.literal && a.literal->is_null()) return "NULL";
  return a.name.empty() ? a.type->sql() : a.name;
}

ArgTypeRule xpath_rule(const std::string& fn, TypePtr result) {
  return [fn, result](const std::vector<ArgInfo>& a, const Config&) {
    const std::string sql = fn + "(" + shown_arg(a[0]) + ", " + shown_arg(a[1]) + ")";
    static const char* kOrdinal[] = {"first", "second"};
    for (size_t k = 0; k < 2; ++k) {
      const TypeId id = a[k].type->id();
      if (id != TypeId::kString && id != TypeId::kNull)
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            std::string("The ") + kOrdinal[k] + " parameter requires the \"STRING\" type, however \"" +
                                shown_arg(a[k]) + "\" has the type \"" + a[k].type->sql() + "\".",
                            sql);
    }
    if (!a[1].literal)
      throw_type_mismatch("NON_FOLDABLE_INPUT",
                          "the input `path` should be a foldable \"STRING\" expression; however, got \"" +
                              shown_arg(a[1]) + "\".",
                          sql);
    Signature s;
    s.arg_types = {DataType::string(), DataType::string()};
    s.result_type = result;
    s.may_introduce_null = true;
    return s;
  };
}

void add(Registry& r, const std::string& name, TypePtr result, Result kind) {
  FunctionDef d;
  d.name = name;
  d.min_args = d.max_args = 2;
  d.constant_args = {1};
  d.arg_type_rule = xpath_rule(name, result);
  d.kernel = xpath_kernel(kind);
  d.may_throw = true;
  r.add(std::move(d));
}

}  // namespace

void register_xpath_functions(Registry& r) {
  add(r, "xpath", DataType::array(DataType::string(), true), Result::kNodeList);
  add(r, "xpath_boolean", DataType::boolean(), Result::kBoolean);
  add(r, "xpath_double", DataType::double_(), Result::kDouble);
  add(r, "xpath_number", DataType::double_(), Result::kDouble);
  add(r, "xpath_float", DataType::float_(), Result::kFloat);
  add(r, "xpath_int", DataType::int_(), Result::kInt);
  add(r, "xpath_long", DataType::long_(), Result::kLong);
  add(r, "xpath_short", DataType::short_(), Result::kShort);
  add(r, "xpath_string", DataType::string(), Result::kString);
}

}  // namespace ember::functions
