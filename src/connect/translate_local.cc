// Relations whose rows come with the request (LocalRelation, also cached as artifacts) or are
// computed while planning (ShowString).

#include <algorithm>

#include "common/error.h"
#include "connect/arrow_results.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "exec/show_string.h"
#include "functions/cast.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

namespace {

/// The schema string of a LocalRelation: JSON (what PySpark sends) or DDL. A non-struct type
/// describes a single column named "value".
Schema parse_local_schema(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  TypePtr t;
  if (i != std::string::npos && (text[i] == '{' || text[i] == '"')) {
    t = parse_json_type(text);
  } else {
    try {
      t = parse_ddl_schema(text);
    } catch (const SparkError&) {
      t = parse_data_type(text);
    }
  }
  if (t->id() == TypeId::kStruct) return t->fields();
  return {StructField{"value", t, true, "{}"}};
}

/// Whether a column of type `from` holds exactly the bytes a column of type `to` would, so that
/// it can be relabelled (struct field names and nullability may differ).
bool same_layout(const DataType& from, const DataType& to) {
  if (from.id() != to.id()) return false;
  switch (from.id()) {
    case TypeId::kDecimal:
      return from.precision() == to.precision() && from.scale() == to.scale();
    case TypeId::kArray:
      return same_layout(*from.element_type(), *to.element_type());
    case TypeId::kMap:
      return same_layout(*from.key_type(), *to.key_type()) &&
             same_layout(*from.value_type(), *to.value_type());
    case TypeId::kStruct: {
      if (from.fields().size() != to.fields().size()) return false;
      for (size_t i = 0; i < from.fields().size(); ++i) {
        if (!same_layout(*from.fields()[i].type, *to.fields()[i].type)) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

/// The same buffers under the type `to` (which has the same layout).
ColumnPtr relabel(const ColumnPtr& c, const TypePtr& to) {
  std::vector<ColumnPtr> children;
  switch (to->id()) {
    case TypeId::kArray:
      children = {relabel(c->child(0), to->element_type())};
      break;
    case TypeId::kMap: {
      auto entries =
          DataType::struct_({{"key", to->key_type(), false, "{}"},
                             {"value", to->value_type(), to->value_contains_null(), "{}"}});
      children = {relabel(c->child(0), entries)};
      break;
    }
    case TypeId::kStruct:
      for (size_t i = 0; i < to->fields().size(); ++i) {
        children.push_back(relabel(c->child(i), to->fields()[i].type));
      }
      break;
    default:
      children = c->children();
  }
  return Column::make(to, c->length(), c->validity_buffer(), c->data_buffer(), c->offsets_buffer(),
                      std::move(children), c->may_have_nulls() ? -1 : 0);
}

/// Converts decoded Arrow data to the relation's declared schema: column i becomes field i of
/// `target`, relabelled when the layouts agree and cast otherwise.
std::vector<Batch> conform(const DecodedArrow& data, const Schema& target, plan::Session* session) {
  if (data.schema.size() != target.size()) {
    std::string msg = "The LocalRelation data has " + std::to_string(data.schema.size()) +
                      " columns but its schema has " + std::to_string(target.size()) + ".";
    throw_invalid_plan("ASSERTION_FAILURE", msg, {{"message", msg}});
  }
  functions::EvalContext ctx;
  if (session != nullptr) {
    ctx.ansi = session->config().ansi_enabled();
    ctx.time_zone = session->config().session_time_zone();
    ctx.config = &session->config();
  }
  std::vector<Batch> out;
  out.reserve(data.batches.size());
  for (const Batch& b : data.batches) {
    Batch converted;
    converted.num_rows = b.num_rows;
    converted.index = static_cast<int64_t>(out.size());
    for (size_t i = 0; i < target.size(); ++i) {
      const ColumnPtr& c = b.column(i);
      const TypePtr& to = target[i].type;
      if (c->type()->id() == TypeId::kNull && to->id() != TypeId::kNull) {
        converted.columns.push_back(Column::all_null(to, c->length()));
      } else if (same_layout(*c->type(), *to)) {
        converted.columns.push_back(relabel(c, to));
      } else {
        converted.columns.push_back(functions::cast_column(c, to, ctx));
      }
    }
    out.push_back(std::move(converted));
  }
  return out;
}

PlanTranslator::NodePtr local_node(Schema schema, std::vector<Batch> batches) {
  auto node = new_node(PlanKind::kLocalRelation);
  node->schema = std::move(schema);
  node->batches = std::move(batches);
  return node;
}

/// Builds the relation from its pieces: Arrow IPC streams (possibly several chunks) and an
/// optional schema string.
PlanTranslator::NodePtr build_local(const std::vector<const std::string*>& chunks,
                                    const std::string* schema_text, plan::Session* session) {
  if (chunks.empty()) {
    if (schema_text == nullptr) {
      throw_invalid_plan("SCHEMA_REQUIRED_FOR_LOCAL_RELATION",
                         "Schema for LocalRelation is required when the input data is not "
                         "provided.");
    }
    return local_node(parse_local_schema(*schema_text), {});
  }
  DecodedArrow all;
  for (size_t i = 0; i < chunks.size(); ++i) {
    DecodedArrow part = decode_arrow_stream(*chunks[i]);
    if (i == 0) all.schema = std::move(part.schema);
    for (auto& b : part.batches) all.batches.push_back(std::move(b));
  }
  if (schema_text == nullptr) return local_node(std::move(all.schema), std::move(all.batches));
  Schema target = parse_local_schema(*schema_text);
  auto batches = conform(all, target, session);
  return local_node(std::move(target), std::move(batches));
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::local_relation(const pb::LocalRelation& r) {
  std::vector<const std::string*> chunks;
  if (r.has_data()) chunks.push_back(&r.data());
  return build_local(chunks, r.has_schema() ? &r.schema() : nullptr, ctx_.session);
}

PlanTranslator::NodePtr PlanTranslator::cached_local_relation(const pb::CachedLocalRelation& r) {
  std::string blob;
  if (!ctx_.cached_artifact || !ctx_.cached_artifact("cache/" + r.hash(), &blob)) {
    throw_invalid_plan("CANNOT_FIND_CACHED_LOCAL_RELATION",
                       "Cannot find a cached local relation for hash: " + r.hash(),
                       {{"hash", r.hash()}});
  }
  pb::LocalRelation local;
  if (!local.ParseFromString(blob)) {
    throw_invalid_plan("ASSERTION_FAILURE", "The cached local relation " + r.hash() +
                                                " is not a serialized LocalRelation.");
  }
  return local_relation(local);
}

PlanTranslator::NodePtr PlanTranslator::chunked_cached_local_relation(
    const pb::ChunkedCachedLocalRelation& r) {
  if (r.datahashes_size() == 0) {
    throw_invalid_plan("CHUNKED_CACHED_LOCAL_RELATION_WITHOUT_DATA",
                       "ChunkedCachedLocalRelation should contain data.");
  }
  auto fetch = [&](const std::string& hash) {
    std::string blob;
    if (!ctx_.cached_artifact || !ctx_.cached_artifact("cache/" + hash, &blob)) {
      throw_invalid_plan(
          "NOT_FOUND_CHUNKED_CACHED_LOCAL_RELATION",
          "Not found chunked cached local relation block with the hash: " + hash + ".",
          {{"hash", hash}});
    }
    return blob;
  };
  std::vector<std::string> blobs;
  blobs.reserve(static_cast<size_t>(r.datahashes_size()));
  for (const auto& h : r.datahashes()) blobs.push_back(fetch(h));
  std::vector<const std::string*> chunks;
  for (const auto& b : blobs) chunks.push_back(&b);
  std::string schema;
  if (r.has_schemahash()) schema = fetch(r.schemahash());
  return build_local(chunks, r.has_schemahash() ? &schema : nullptr, ctx_.session);
}

PlanTranslator::NodePtr PlanTranslator::cached_remote_relation(
    const pb::CachedRemoteRelation& r) {
  EMBER_CHECK(ctx_.checkpoint != nullptr, "CachedRemoteRelation needs a session");
  // A copy: the translator sets this reference's plan id on the node it returns.
  return std::make_shared<plan::PlanNode>(*ctx_.checkpoint(r.relation_id()));
}

PlanTranslator::NodePtr PlanTranslator::show_string(const pb::ShowString& r) {
  EMBER_CHECK(ctx_.session != nullptr, "ShowString needs a session");
  const int num_rows = std::max(0, r.num_rows());
  auto limited = new_node(PlanKind::kLimit, {input(r.input(), "ShowString")});
  limited->limit = static_cast<int64_t>(num_rows) + 1;
  plan::ExecuteOptions options;
  options.cancelled = ctx_.cancelled;
  plan::QueryResult result = ctx_.session->execute(limited, options);
  std::string text = exec::show_string(result.schema, result.batches, num_rows, r.truncate(),
                                       r.vertical(), ctx_.session->config().session_time_zone());
  ColumnBuilder builder(DataType::string(), 1);
  builder.append_bytes(text);
  Schema schema = {StructField{"show_string", DataType::string(), false, "{}"}};
  return local_node(std::move(schema), {Batch({builder.finish()}, 1)});
}

PlanTranslator::NodePtr PlanTranslator::html_string(const pb::HtmlString& r) {
  EMBER_CHECK(ctx_.session != nullptr, "HtmlString needs a session");
  const int num_rows = std::max(0, r.num_rows());
  auto limited = new_node(PlanKind::kLimit, {input(r.input(), "HtmlString")});
  limited->limit = static_cast<int64_t>(num_rows) + 1;
  plan::ExecuteOptions options;
  options.cancelled = ctx_.cancelled;
  plan::QueryResult result = ctx_.session->execute(limited, options);
  std::string text = exec::html_string(result.schema, result.batches, num_rows, r.truncate(),
                                       ctx_.session->config().session_time_zone());
  ColumnBuilder builder(DataType::string(), 1);
  builder.append_bytes(text);
  Schema schema = {StructField{"html_string", DataType::string(), false, "{}"}};
  return local_node(std::move(schema), {Batch({builder.finish()}, 1)});
}

}  // namespace ember::connect
