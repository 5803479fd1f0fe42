#include "connect/translate_types.h"

#include "types/collation.h"

#include "common/error.h"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

[[noreturn]] void unsupported_type(const std::string& name) {
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_DATATYPE",
                   "Unsupported data type \"" + name + "\".", {{"typeName", "\"" + name + "\""}},
                   "0A000");
}

bool empty_metadata(const std::string& json) {
  for (char c : json) {
    if (c != '{' && c != '}' && c != ' ' && c != '\t' && c != '\n') return false;
  }
  return true;
}

}  // namespace

TypePtr type_from_proto(const pb::DataType& p) {
  switch (p.kind_case()) {
    case pb::DataType::kNull:
      return DataType::null();
    case pb::DataType::kBinary:
      return DataType::binary();
    case pb::DataType::kBoolean:
      return DataType::boolean();
    case pb::DataType::kByte:
      return DataType::byte();
    case pb::DataType::kShort:
      return DataType::short_();
    case pb::DataType::kInteger:
      return DataType::int_();
    case pb::DataType::kLong:
      return DataType::long_();
    case pb::DataType::kFloat:
      return DataType::float_();
    case pb::DataType::kDouble:
      return DataType::double_();
    case pb::DataType::kDecimal: {
      // Spark's defaults for an unqualified DECIMAL are (10, 0).
      int precision = p.decimal().has_precision() ? p.decimal().precision() : 10;
      int scale = p.decimal().has_scale() ? p.decimal().scale() : 0;
      return DataType::decimal(precision, scale);
    }
    case pb::DataType::kString: {
      const std::string& name = p.string().collation();
      return name.empty() ? DataType::string() : DataType::string(collation_id(name));
    }
    case pb::DataType::kChar:
    case pb::DataType::kVarChar:
      return DataType::string();
    case pb::DataType::kDate:
      return DataType::date();
    case pb::DataType::kTimestamp:
      return DataType::timestamp();
    case pb::DataType::kTimestampNtz:
      return DataType::timestamp_ntz();
    case pb::DataType::kYearMonthInterval: {
      const auto& i = p.year_month_interval();
      int start = i.has_start_field() ? i.start_field() : 0;
      int end = i.has_end_field() ? i.end_field() : 1;
      return DataType::year_month_interval(start, end);
    }
    case pb::DataType::kDayTimeInterval: {
      const auto& i = p.day_time_interval();
      int start = i.has_start_field() ? i.start_field() : 0;
      int end = i.has_end_field() ? i.end_field() : 3;
      return DataType::day_time_interval(start, end);
    }
    case pb::DataType::kArray:
      return DataType::array(type_from_proto(p.array().element_type()), p.array().contains_null());
    case pb::DataType::kMap:
      return DataType::map(type_from_proto(p.map().key_type()),
                           type_from_proto(p.map().value_type()), p.map().value_contains_null());
    case pb::DataType::kStruct: {
      std::vector<StructField> fields;
      fields.reserve(static_cast<size_t>(p.struct_().fields_size()));
      for (const auto& f : p.struct_().fields()) {
        fields.push_back({f.name(), type_from_proto(f.data_type()), f.nullable(),
                          f.has_metadata() && !f.metadata().empty() ? f.metadata() : "{}"});
      }
      return DataType::struct_(std::move(fields));
    }
    case pb::DataType::kUnparsed: {
      // As Spark's parseTypeWithFallback: a type, else a DDL schema ("a INT, b STRING"), else
      // the fields of a struct ("a: int, b: string"); the type's error when none parses.
      const std::string& text = p.unparsed().data_type_string();
      try {
        return parse_data_type(text);
      } catch (const SparkError&) {
        try {
          return parse_ddl_schema(text);
        } catch (const SparkError&) {
        }
        try {
          return parse_data_type("struct<" + text + ">");
        } catch (const SparkError&) {
        }
        throw;
      }
    }
    case pb::DataType::kCalendarInterval:
      return DataType::calendar_interval();
    case pb::DataType::kTime: {
      int precision = p.time().has_precision() ? p.time().precision()
                                               : DataType::kDefaultTimePrecision;
      if (precision < 0 || precision > DataType::kMaxTimePrecision) {
        throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_TIME_PRECISION",
                         "The seconds precision " + std::to_string(precision) +
                             " of the TIME data type is out of the supported range [0, 9].",
                         {{"precision", std::to_string(precision)}}, "0A001");
      }
      return DataType::time(precision);
    }
    case pb::DataType::kTimestampNtzNanos:
      unsupported_type("timestamp_ntz(9)");
    case pb::DataType::kTimestampLtzNanos:
      unsupported_type("timestamp_ltz(9)");
    case pb::DataType::kVariant:
      return DataType::variant();
    case pb::DataType::kUdt:
      unsupported_type(p.udt().has_python_class() ? p.udt().python_class() : "udt");
    case pb::DataType::kGeometry:
      unsupported_type("geometry");
    case pb::DataType::kGeography:
      unsupported_type("geography");
    case pb::DataType::KIND_NOT_SET:
      break;
  }
  throw SparkError(ErrorKind::kAnalysis, "CONNECT_INVALID_PLAN.INVALID_ONE_OF_FIELD_NOT_SET",
                   "The Spark Connect plan is invalid. This oneOf field in spark.connect.DataType "
                   "is not set: kind",
                   {{"fullName", "spark.connect.DataType"}, {"name", "kind"}}, "56K00");
}

void type_to_proto(const DataType& t, pb::DataType* out) {
  switch (t.id()) {
    case TypeId::kNull:
      out->mutable_null();
      return;
    case TypeId::kBoolean:
      out->mutable_boolean();
      return;
    case TypeId::kByte:
      out->mutable_byte();
      return;
    case TypeId::kShort:
      out->mutable_short_();
      return;
    case TypeId::kInt:
      out->mutable_integer();
      return;
    case TypeId::kLong:
      out->mutable_long_();
      return;
    case TypeId::kFloat:
      out->mutable_float_();
      return;
    case TypeId::kDouble:
      out->mutable_double_();
      return;
    case TypeId::kDecimal: {
      auto* d = out->mutable_decimal();
      d->set_precision(t.precision());
      d->set_scale(t.scale());
      return;
    }
    case TypeId::kString: {
      auto* str = out->mutable_string();
      if (t.is_collated_string()) str->set_collation(collation(t.collation_id()).name);
      return;
    }
    case TypeId::kBinary:
      out->mutable_binary();
      return;
    case TypeId::kDate:
      out->mutable_date();
      return;
    case TypeId::kTimestamp:
      out->mutable_timestamp();
      return;
    case TypeId::kTimestampNtz:
      out->mutable_timestamp_ntz();
      return;
    case TypeId::kTime:
      out->mutable_time()->set_precision(t.time_precision());
      return;
    case TypeId::kYearMonthInterval: {
      auto* i = out->mutable_year_month_interval();
      i->set_start_field(t.start_field());
      i->set_end_field(t.end_field());
      return;
    }
    case TypeId::kDayTimeInterval: {
      auto* i = out->mutable_day_time_interval();
      i->set_start_field(t.start_field());
      i->set_end_field(t.end_field());
      return;
    }
    case TypeId::kCalendarInterval:
      out->mutable_calendar_interval();
      return;
    case TypeId::kArray: {
      auto* a = out->mutable_array();
      type_to_proto(*t.element_type(), a->mutable_element_type());
      a->set_contains_null(t.contains_null());
      return;
    }
    case TypeId::kMap: {
      auto* m = out->mutable_map();
      type_to_proto(*t.key_type(), m->mutable_key_type());
      type_to_proto(*t.value_type(), m->mutable_value_type());
      m->set_value_contains_null(t.value_contains_null());
      return;
    }
    case TypeId::kStruct: {
      auto* s = out->mutable_struct_();
      for (const auto& f : t.fields()) {
        auto* pf = s->add_fields();
        pf->set_name(f.name);
        type_to_proto(*f.type, pf->mutable_data_type());
        pf->set_nullable(f.nullable);
        if (!empty_metadata(f.metadata_json)) pf->set_metadata(f.metadata_json);
      }
      return;
    }
    case TypeId::kVariant:
      out->mutable_variant();
      return;
  }
  EMBER_UNREACHABLE("type_to_proto: unknown type id");
}

pb::DataType type_to_proto(const DataType& type) {
  pb::DataType out;
  type_to_proto(type, &out);
  return out;
}

pb::DataType schema_to_proto(const Schema& schema) {
  return type_to_proto(*DataType::struct_(schema));
}

Schema schema_from_proto(const pb::DataType& proto) {
  TypePtr t = type_from_proto(proto);
  if (t->id() != TypeId::kStruct) {
    return {StructField{"value", t, true, "{}"}};
  }
  return t->fields();
}

plan::StorageLevel storage_level_from_proto(const spark::connect::StorageLevel& proto) {
  plan::StorageLevel level;
  level.use_disk = proto.use_disk();
  level.use_memory = proto.use_memory();
  level.use_off_heap = proto.use_off_heap();
  level.deserialized = proto.deserialized();
  level.replication = proto.replication();
  return level;
}

void storage_level_to_proto(const plan::StorageLevel& level, spark::connect::StorageLevel* out) {
  out->set_use_disk(level.use_disk);
  out->set_use_memory(level.use_memory);
  out->set_use_off_heap(level.use_off_heap);
  out->set_deserialized(level.deserialized);
  out->set_replication(level.replication);
}

std::string scala_type_string(const DataType& t) {
  switch (t.id()) {
    case TypeId::kNull: return "NullType";
    case TypeId::kBoolean: return "BooleanType";
    case TypeId::kByte: return "ByteType";
    case TypeId::kShort: return "ShortType";
    case TypeId::kInt: return "IntegerType";
    case TypeId::kLong: return "LongType";
    case TypeId::kFloat: return "FloatType";
    case TypeId::kDouble: return "DoubleType";
    case TypeId::kDecimal:
      return "DecimalType(" + std::to_string(t.precision()) + "," + std::to_string(t.scale()) + ")";
    case TypeId::kString: return "StringType";
    case TypeId::kBinary: return "BinaryType";
    case TypeId::kDate: return "DateType";
    case TypeId::kTimestamp: return "TimestampType";
    case TypeId::kTimestampNtz: return "TimestampNTZType";
    case TypeId::kVariant: return "VariantType";
    case TypeId::kArray:
      return "ArrayType(" + scala_type_string(*t.element_type()) + "," +
             (t.contains_null() ? "true" : "false") + ")";
    case TypeId::kMap:
      return "MapType(" + scala_type_string(*t.key_type()) + "," +
             scala_type_string(*t.value_type()) + "," + (t.value_contains_null() ? "true" : "false") + ")";
    case TypeId::kStruct: {
      std::string s;
      for (const auto& f : t.fields())
        s += (s.empty() ? "" : ",") + std::string("StructField(") + f.name + "," +
             scala_type_string(*f.type) + "," + (f.nullable ? "true" : "false") + ")";
      return "StructType(" + s + ")";
    }
    default: return t.sql();
  }
}

}  // namespace ember::connect
