// Functions that edit a variant at a path: variant_insert, variant_set, variant_delete,
// variant_array_append (and their try_ forms) and variant_strip_nulls. Each decodes a row into
// a small tree, edits it and encodes it again: existing object fields keep their order, new
// ones follow them.

#include <climits>
#include <map>
#include <optional>

#include "common/error.h"
#include "functions/cast.h"
#include "functions/collection_util.h"
#include "functions/string_util.h"
#include "functions/variant_util.h"

namespace ember::functions {
namespace {

using Infos = std::vector<ArgInfo>;

/// A decoded variant value: scalars keep their encoded bytes.
struct Node {
  enum Type { kLeaf, kObject, kArray } type = kLeaf;
  std::string leaf;
  std::vector<std::pair<std::string, Node>> fields;
  std::vector<Node> items;

  static Node null() {
    Node n;
    n.leaf = std::string(1, '\0');
    return n;
  }
  bool is_null() const { return type == kLeaf && leaf.size() == 1 && leaf[0] == '\0'; }
};

Node load(const variant::Ref& r) {
  Node n;
  switch (r.kind()) {
    case variant::Kind::kObject: {
      n.type = Node::kObject;
      uint32_t size = r.size();
      for (uint32_t i = 0; i < size; ++i) {
        std::string_view key;
        variant::Ref c = r.field_at(i, &key);
        n.fields.emplace_back(std::string(key), load(c));
      }
      break;
    }
    case variant::Kind::kArray: {
      n.type = Node::kArray;
      uint32_t size = r.size();
      for (uint32_t i = 0; i < size; ++i) n.items.push_back(load(r.element(i)));
      break;
    }
    default: n.leaf = std::string(r.bytes());
  }
  return n;
}

void store(const Node& n, variant::Builder& b) {
  if (n.type == Node::kLeaf) {
    b.append_variant(variant::Ref({}, n.leaf));
  } else if (n.type == Node::kObject) {
    size_t start = b.position();
    std::vector<variant::Builder::Field> fields;
    for (auto& [key, child] : n.fields) {
      fields.push_back({key, b.add_key(key), b.position() - start});
      store(child, b);
    }
    b.finish_object(start, fields);
  } else {
    size_t start = b.position();
    std::vector<size_t> starts;
    for (auto& child : n.items) {
      starts.push_back(b.position());
      store(child, b);
    }
    b.finish_array(start, starts);
  }
}

using Step = VariantPathStep;

/// A failed edit: the error class and message, raised or (try_ forms) turned into a null.
struct EditError {
  std::string error_class, message;
  std::map<std::string, std::string> params;
};

[[noreturn]] void type_mismatch(const std::string& fn, std::string_view path, size_t prefix_end) {
  const std::string p(path), at(path.substr(0, prefix_end));
  throw EditError{"VARIANT_PATH_TYPE_MISMATCH",
                  "The path '" + p + "' is incompatible with the variant value at '" + at + "' in " + quote_id(fn) + ".",
                  {{"path", p}, {"prefix", at}, {"functionName", quote_id(fn)}}};
}

[[noreturn]] void invalid_target(const std::string& fn, std::string_view path) {
  const std::string p(path);
  throw SparkError(ErrorKind::kRuntime, "INVALID_VARIANT_PATH",
                   "The path '" + p + "' is not a valid " + quote_id(fn) + " target.",
                   {{"path", p}, {"functionName", quote_id(fn)}}, "22023");
}

Node* find_key(Node& n, const std::string& key) {
  for (auto& [k, child] : n.fields)
    if (k == key) return &child;
  return nullptr;
}

bool fits(const Node& n, const Step& s) {
  return s.is_key ? n.type == Node::kObject : n.type == Node::kArray;
}

enum class Edit { kInsert, kSet, kDelete, kAppend };

/// Walks to the parent of the last step (to the target itself for kAppend), creating missing
/// containers when `create`. Returns null when a step is missing and not created.
Node* walk(Node& root, const std::vector<Step>& steps, size_t count, bool create, bool strict,
           const std::string& fn, std::string_view path) {
  Node* cur = &root;
  size_t prefix = 1;
  for (size_t k = 0; k < count; ++k) {
    const Step& s = steps[k];
    if (!fits(*cur, s)) {
      if (!strict) return nullptr;
      type_mismatch(fn, path, prefix);
    }
    Node* next = nullptr;
    if (s.is_key) {
      next = find_key(*cur, s.key);
      if (!next) {
        if (!create) return nullptr;
        cur->fields.emplace_back(s.key, Node());
        next = &cur->fields.back().second;
        next->type = k + 1 < steps.size() && !steps[k + 1].is_key ? Node::kArray : Node::kObject;
      }
    } else {
      if (s.index >= cur->items.size()) {
        if (!create) return nullptr;
        while (cur->items.size() < s.index) cur->items.push_back(Node::null());
        cur->items.emplace_back();
        cur->items.back().type = k + 1 < steps.size() && !steps[k + 1].is_key ? Node::kArray : Node::kObject;
      }
      next = &cur->items[s.index];
    }
    cur = next;
    prefix = s.end;
  }
  return cur;
}

/// Applies one edit; false when the variant is left unchanged.
void apply(Edit e, Node& root, const std::vector<Step>& steps, const Node* value, bool create,
           const std::string& fn, std::string_view path) {
  if (e == Edit::kAppend) {
    Node* target = walk(root, steps, steps.size(), false, true, fn, path);
    if (!target) return;
    if (target->type != Node::kArray) type_mismatch(fn, path, path.size());
    target->items.push_back(*value);
    return;
  }
  const bool strict = e != Edit::kDelete;
  const bool make = e == Edit::kInsert || (e == Edit::kSet && create);
  Node* parent = walk(root, steps, steps.size() - 1, make, strict, fn, path);
  if (!parent) return;
  const Step& last = steps.back();
  if (!fits(*parent, last)) {
    if (!strict) return;
    type_mismatch(fn, path, steps.size() > 1 ? steps[steps.size() - 2].end : 1);
  }
  if (last.is_key) {
    Node* existing = find_key(*parent, last.key);
    switch (e) {
      case Edit::kInsert:
        if (existing)
          throw EditError{"VARIANT_DUPLICATE_KEY",
                          "Failed to build variant because of a duplicate object key `" + last.key + "`.",
                          {{"key", last.key}}};
        parent->fields.emplace_back(last.key, *value);
        return;
      case Edit::kSet:
        if (existing) *existing = *value;
        else if (create) parent->fields.emplace_back(last.key, *value);
        return;
      default:
        for (size_t i = 0; i < parent->fields.size(); ++i) {
          if (parent->fields[i].first == last.key) {
            parent->fields.erase(parent->fields.begin() + static_cast<std::ptrdiff_t>(i));
            return;
          }
        }
        return;
    }
  }
  auto& items = parent->items;
  switch (e) {
    case Edit::kInsert:
      if (last.index <= items.size()) {
        items.insert(items.begin() + last.index, *value);
      } else {
        while (items.size() < last.index) items.push_back(Node::null());
        items.push_back(*value);
      }
      return;
    case Edit::kSet:
      if (last.index < items.size()) {
        items[last.index] = *value;
      } else if (create) {
        while (items.size() < last.index) items.push_back(Node::null());
        items.push_back(*value);
      }
      return;
    default:
      if (last.index < items.size()) items.erase(items.begin() + last.index);
      return;
  }
}

Node value_node(const ColumnPtr& value, int64_t row) {
  variant::Builder b;
  append_as_variant(b, *value, row);
  std::string meta = b.metadata();
  return load(variant::Ref(meta, b.value()));
}

ColumnPtr encode_or_null(std::vector<std::optional<Node>>& rows) {
  ColumnBuilder out(DataType::variant(), static_cast<int64_t>(rows.size()));
  variant::Builder b;
  for (auto& r : rows) {
    if (!r) {
      out.append_null();
      continue;
    }
    b.clear();
    store(*r, b);
    append_variant(out, b);
  }
  return out.finish();
}

void require_arg(const std::string& fn, const Infos& a, size_t i, TypeId id, const char* shown) {
  const TypeId t = a[i].type->id();
  if (t != id && t != TypeId::kNull) throw_unexpected_input(fn, types_of(a), i, shown);
}

void require_value(const std::string& fn, const Infos& a, size_t i) {
  const TypePtr& t = a[i].type;
  if (!can_cast_to_variant(*t)) {
    throw_type_mismatch("CAST_WITHOUT_SUGGESTION", "cannot cast \"" + t->sql() + "\" to \"VARIANT\".",
                        call_sql(fn, types_of(a)));
  }
}

/// variant_insert, variant_set, variant_array_append and their try_ forms.
FunctionDef edit_def(const std::string& name, Edit e, bool try_) {
  FunctionDef d;
  d.name = name;
  d.min_args = 3;
  d.max_args = e == Edit::kSet ? 4 : 3;
  if (e == Edit::kSet) d.constant_args = {3};
  d.arg_type_rule = [name, e](const Infos& a, const Config&) {
    require_arg(name, a, 0, TypeId::kVariant, "\"VARIANT\"");
    require_arg(name, a, 1, TypeId::kString, "\"STRING\"");
    require_value(name, a, 2);
    if (a.size() > 3) {
      require_arg(name, a, 3, TypeId::kBoolean, "\"BOOLEAN\"");
      if (!a[3].literal)
        throw_type_mismatch("NON_FOLDABLE_INPUT",
                            "the input `createIfMissing` should be a foldable \"BOOLEAN\" expression; however, got \"" +
                                a[3].type->sql() + "\".",
                            call_sql(name, types_of(a)));
    }
    (void)e;
    Signature s;
    for (auto& x : a) s.arg_types.push_back(x.type);
    s.result_type = DataType::variant();
    s.may_introduce_null = true;
    return s;
  };
  d.kernel = [name, e, try_](const std::vector<ColumnPtr>& a, int64_t n, const Signature&, const EvalContext&) {
    std::vector<std::optional<Node>> rows(static_cast<size_t>(n));
    std::vector<Step> steps;
    for (int64_t i = 0; i < n; ++i) {
      bool null = false;
      for (auto& c : a) null = null || c->type()->id() == TypeId::kNull || c->is_null(i);
      if (null) continue;
      bool create = a.size() > 3 ? a[3]->bool_at(i) : true;
      std::string_view path = a[1]->string_at(i);
      if (!parse_variant_path(path, &steps) || (steps.empty() && e != Edit::kAppend)) invalid_target(name, path);
      try {
        Node root = load(variant_at(*a[0], i));
        Node value = value_node(a[2], i);
        apply(e, root, steps, &value, create, name, path);
        rows[static_cast<size_t>(i)] = std::move(root);
      } catch (const variant::MalformedVariant&) {
        throw_malformed_variant();
      } catch (const EditError& err) {
        if (!try_) throw SparkError(ErrorKind::kRuntime, err.error_class, err.message, err.params, "22023");
      }
    }
    return encode_or_null(rows);
  };
  d.may_throw = true;
  if (e == Edit::kSet) {
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ", " + args[1] + ", " + args[2] + ", " + (args.size() > 3 ? args[3] : "true") + ")";
    };
  }
  d.usage = name + "(v, path, value) - Edits a variant at a JSON path.";
  return d;
}

FunctionDef delete_def() {
  FunctionDef d;
  d.name = "variant_delete";
  d.min_args = 2;
  d.max_args = -1;
  d.arg_type_rule = [](const Infos& a, const Config&) {
    require_arg("variant_delete", a, 0, TypeId::kVariant, "\"VARIANT\"");
    for (size_t i = 1; i < a.size(); ++i) require_arg("variant_delete", a, i, TypeId::kString, "\"STRING\"");
    Signature s;
    for (auto& x : a) s.arg_types.push_back(x.type);
    s.result_type = DataType::variant();
    s.null_if_any_arg_null = false;
    s.nullable_from = {0};
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature&, const EvalContext&) {
    ColumnBuilder out(DataType::variant(), n);
    variant::Builder b;
    std::vector<Step> steps;
    for (int64_t i = 0; i < n; ++i) {
      if (a[0]->type()->id() == TypeId::kNull || a[0]->is_null(i)) {
        out.append_null();
        continue;
      }
      try {
        std::optional<Node> root;
        for (size_t k = 1; k < a.size(); ++k) {
          if (a[k]->type()->id() == TypeId::kNull || a[k]->is_null(i)) continue;
          std::string_view path = a[k]->string_at(i);
          if (!parse_variant_path(path, &steps) || steps.empty()) invalid_target("variant_delete", path);
          if (!root) root = load(variant_at(*a[0], i));
          apply(Edit::kDelete, *root, steps, nullptr, false, "variant_delete", path);
        }
        if (!root) {
          // Only NULL paths: the variant comes back as it was, bytes and all.
          out.append_from(*a[0], i);
          continue;
        }
        b.clear();
        store(*root, b);
        append_variant(out, b);
      } catch (const variant::MalformedVariant&) {
        throw_malformed_variant();
      }
    }
    return out.finish();
  };
  d.may_throw = true;
  d.usage = "variant_delete(v, path, ...) - Removes object fields or array elements at JSON paths.";
  return d;
}

void strip(Node& n, bool arrays) {
  if (n.type == Node::kObject) {
    std::vector<std::pair<std::string, Node>> kept;
    for (auto& f : n.fields) {
      if (f.second.is_null()) continue;
      strip(f.second, arrays);
      kept.push_back(std::move(f));
    }
    n.fields = std::move(kept);
  } else if (n.type == Node::kArray) {
    std::vector<Node> kept;
    for (auto& c : n.items) {
      if (arrays && c.is_null()) continue;
      strip(c, arrays);
      kept.push_back(std::move(c));
    }
    n.items = std::move(kept);
  }
}

FunctionDef strip_nulls_def() {
  FunctionDef d;
  d.name = "variant_strip_nulls";
  d.min_args = 1;
  d.max_args = 2;
  d.parameters = {{"v"}, {"include_arrays", Value::boolean(true), DataType::boolean()}};
  d.constant_args = {1};
  d.arg_type_rule = [](const Infos& a, const Config&) {
    require_arg("variant_strip_nulls", a, 0, TypeId::kVariant, "\"VARIANT\"");
    if (a.size() > 1) require_arg("variant_strip_nulls", a, 1, TypeId::kBoolean, "\"BOOLEAN\"");
    Signature s;
    for (auto& x : a) s.arg_types.push_back(x.type);
    s.result_type = DataType::variant();
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature&, const EvalContext&) {
    std::vector<std::optional<Node>> rows(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      bool null = false;
      for (auto& c : a) null = null || c->type()->id() == TypeId::kNull || c->is_null(i);
      if (null) continue;
      try {
        Node root = load(variant_at(*a[0], i));
        strip(root, a.size() > 1 ? a[1]->bool_at(i) : true);
        rows[static_cast<size_t>(i)] = std::move(root);
      } catch (const variant::MalformedVariant&) {
        throw_malformed_variant();
      }
    }
    return encode_or_null(rows);
  };
  d.render = [](const std::string& called, const std::vector<std::string>& args) {
    return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : "true") + ")";
  };
  d.usage = "variant_strip_nulls(v[, includeArrays]) - Removes variant nulls from objects (and arrays).";
  return d;
}

}  // namespace

void register_variant_edit_functions(Registry& r) {
  r.add(edit_def("variant_insert", Edit::kInsert, false));
  r.add(edit_def("try_variant_insert", Edit::kInsert, true));
  r.add(edit_def("variant_set", Edit::kSet, false));
  r.add(edit_def("try_variant_set", Edit::kSet, true));
  r.add(edit_def("variant_array_append", Edit::kAppend, false));
  r.add(edit_def("try_variant_array_append", Edit::kAppend, true));
  r.add(delete_def());
  r.add(strip_nulls_def());
}

}  // namespace ember::functions
