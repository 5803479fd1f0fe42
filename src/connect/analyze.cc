// AnalyzePlan: questions about a plan that do not run it.

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cctype>
#include <functional>

#include "common/error.h"
#include "connect/errors.h"
#include "connect/handlers.h"
#include "connect/plan_input.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "ember_build_info.h"
#include "io/data_source.h"
#include "plan/cache_manager.h"

namespace ember::connect {

namespace pb = spark::connect;
namespace gp = google::protobuf;

namespace {

plan::PlanPtr translate(ConnectSession& session, const pb::Relation& rel) {
  return PlanTranslator(translate_context(session)).relation(rel);
}

plan::PlanPtr translate_plan(ConnectSession& session, const pb::Plan& plan) {
  return translate(session, plan_relation(plan));
}

plan::ExplainMode explain_mode(pb::AnalyzePlanRequest::Explain::ExplainMode m) {
  using E = pb::AnalyzePlanRequest::Explain;
  switch (m) {
    case E::EXPLAIN_MODE_EXTENDED:
      return plan::ExplainMode::kExtended;
    case E::EXPLAIN_MODE_CODEGEN:
      return plan::ExplainMode::kCodegen;
    case E::EXPLAIN_MODE_COST:
      return plan::ExplainMode::kCost;
    case E::EXPLAIN_MODE_FORMATTED:
      return plan::ExplainMode::kFormatted;
    default:
      return plan::ExplainMode::kSimple;
  }
}

/// Clears what identifies a DataFrame rather than what it computes: plan ids, origins.
void strip_identity(gp::Message* m) {
  const gp::Descriptor* d = m->GetDescriptor();
  const gp::Reflection* r = m->GetReflection();
  if (d->full_name() == "spark.connect.RelationCommon" ||
      d->full_name() == "spark.connect.ExpressionCommon") {
    m->Clear();
    return;
  }
  std::vector<const gp::FieldDescriptor*> fields;
  r->ListFields(*m, &fields);
  for (const gp::FieldDescriptor* f : fields) {
    if (f->name() == "plan_id" && f->type() != gp::FieldDescriptor::TYPE_MESSAGE) {
      r->ClearField(m, f);
      continue;
    }
    if (f->type() != gp::FieldDescriptor::TYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(*m, f); ++i)
        strip_identity(r->MutableRepeatedMessage(m, f, i));
    } else {
      strip_identity(r->MutableMessage(m, f));
    }
  }
}

/// A canonical form of a relation: equal for DataFrames that compute the same thing the same
/// way. Used for sameSemantics and semanticHash.
std::string semantic_key(const pb::Relation& rel) {
  pb::Relation copy = rel;
  strip_identity(&copy);
  std::string out;
  {
    gp::io::StringOutputStream stream(&out);
    gp::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    copy.SerializeToCodedStream(&coded);
  }
  return out;
}

void collect_reads(const plan::PlanPtr& node, std::vector<const plan::PlanNode*>* out) {
  if (!node) return;
  if (node->kind == plan::PlanKind::kRead) out->push_back(node.get());
  for (const auto& c : node->children) collect_reads(c, out);
}

bool needs_quotes(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return true;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return true;
  }
  return false;
}

/// Spark's StructType.toDDL.
std::string to_ddl(const DataType& type) {
  if (type.id() != TypeId::kStruct) return type.sql();
  std::string out;
  for (const auto& f : type.fields()) {
    if (!out.empty()) out += ",";
    out += needs_quotes(f.name) ? quote_id(f.name) : f.name;
    out += " " + f.type->sql();
    if (!f.nullable) out += " NOT NULL";
  }
  return out;
}

}  // namespace

void handle_analyze(ConnectSession& session, const pb::AnalyzePlanRequest& request,
                    pb::AnalyzePlanResponse* response) {
  plan::Session& engine = session.engine();
  using R = pb::AnalyzePlanRequest;
  switch (request.analyze_case()) {
    case R::kSchema: {
      plan::PlanPtr analyzed = engine.analyze(translate_plan(session, request.schema().plan()));
      *response->mutable_schema()->mutable_schema() = schema_to_proto(analyzed->output_schema());
      return;
    }
    case R::kExplain: {
      plan::PlanPtr p = translate_plan(session, request.explain().plan());
      response->mutable_explain()->set_explain_string(
          engine.explain(p, explain_mode(request.explain().explain_mode())));
      return;
    }
    case R::kTreeString: {
      plan::PlanPtr analyzed =
          engine.analyze(translate_plan(session, request.tree_string().plan()));
      int level = request.tree_string().has_level() ? request.tree_string().level() : 0x7fffffff;
      if (level <= 0) level = 0x7fffffff;
      response->mutable_tree_string()->set_tree_string(
          schema_tree_string(analyzed->output_schema(), level));
      return;
    }
    case R::kIsLocal: {
      plan::PlanPtr p = translate_plan(session, request.is_local().plan());
      response->mutable_is_local()->set_is_local(p->kind == plan::PlanKind::kLocalRelation);
      return;
    }
    case R::kIsStreaming: {
      translate_plan(session, request.is_streaming().plan());
      response->mutable_is_streaming()->set_is_streaming(false);
      return;
    }
    case R::kInputFiles: {
      plan::PlanPtr analyzed =
          engine.analyze(translate_plan(session, request.input_files().plan()));
      std::vector<const plan::PlanNode*> reads;
      collect_reads(analyzed, &reads);
      auto* files = response->mutable_input_files();
      for (const plan::PlanNode* r : reads) {
        std::vector<std::string> names;
        if (r->reader) {
          names = r->reader->input_files();
        } else {
          io::ReadRequest req = r->read;
          req.config = &engine.config();
          names = io::open_reader(req)->input_files();
        }
        for (const auto& f : names) files->add_files(f);
      }
      return;
    }
    case R::kSparkVersion:
      response->mutable_spark_version()->set_version(EMBER_SPARK_VERSION_STRING);
      return;
    case R::kDdlParse: {
      // Spark reads a data type first ("int", "array<string>") and a table schema otherwise.
      const std::string& ddl = request.ddl_parse().ddl_string();
      TypePtr t;
      try {
        t = parse_data_type(ddl);
      } catch (const SparkError&) {
        t = parse_ddl_schema(ddl);
      }
      type_to_proto(*t, response->mutable_ddl_parse()->mutable_parsed());
      return;
    }
    case R::kSameSemantics: {
      const auto& s = request.same_semantics();
      const pb::Relation& a = plan_relation(s.target_plan());
      const pb::Relation& b = plan_relation(s.other_plan());
      engine.analyze(translate(session, a));
      engine.analyze(translate(session, b));
      response->mutable_same_semantics()->set_result(semantic_key(a) == semantic_key(b));
      return;
    }
    case R::kSemanticHash: {
      const pb::Relation& rel = plan_relation(request.semantic_hash().plan());
      engine.analyze(translate(session, rel));
      auto h = std::hash<std::string>{}(semantic_key(rel));
      response->mutable_semantic_hash()->set_result(static_cast<int32_t>(h ^ (h >> 32)));
      return;
    }
    case R::kPersist: {
      const auto& p = request.persist();
      plan::PlanPtr analyzed = engine.analyze(translate(session, p.relation()));
      plan::StorageLevel level = p.has_storage_level() ? storage_level_from_proto(p.storage_level())
                                                       : plan::StorageLevel::memory_and_disk();
      engine.cache_manager().cache(analyzed, level);
      response->mutable_persist();
      return;
    }
    case R::kUnpersist:
      engine.cache_manager().uncache(
          engine.analyze(translate(session, request.unpersist().relation())), false);
      response->mutable_unpersist();
      return;
    case R::kGetStorageLevel: {
      auto entry = engine.cache_manager().lookup(
          engine.analyze(translate(session, request.get_storage_level().relation())));
      // StorageLevel.NONE for a plan that is not cached.
      storage_level_to_proto(entry ? entry->level : plan::StorageLevel(),
                             response->mutable_get_storage_level()->mutable_storage_level());
      return;
    }
    case R::kJsonToDdl:
      response->mutable_json_to_ddl()->set_ddl_string(
          to_ddl(*parse_json_type(request.json_to_ddl().json_string())));
      return;
    case R::ANALYZE_NOT_SET:
      break;
  }
  throw_invalid_plan("UNKNOWN_ANALYZE_METHOD", "Unknown Analyze Method ANALYZE_NOT_SET!",
                     {{"other", "ANALYZE_NOT_SET"}});
}

}  // namespace ember::connect
