#include "io/orc_types.h"

#include <arrow/util/key_value_metadata.h>

#include "common/error.h"
#include "io/arrow_bridge.h"

namespace ember::io {

namespace {

/// The Spark type named by a field's catalyst type attribute, when it names one that fits the
/// field's ORC type; null otherwise (the attribute is then ignored, as for "string").
TypePtr attributed_type(const arrow::Field& field) {
  const auto& md = field.metadata();
  if (!md) return nullptr;
  const auto found = md->Get(kCatalystTypeAttribute);
  if (!found.ok()) return nullptr;
  TypePtr t;
  try {
    t = parse_data_type(*found);
  } catch (const SparkError&) {
    return nullptr;
  }
  const arrow::Type::type physical = field.type()->id();
  switch (t->id()) {
    case TypeId::kTimestampNtz:
    case TypeId::kDayTimeInterval: return physical == arrow::Type::INT64 ? t : nullptr;
    case TypeId::kYearMonthInterval: return physical == arrow::Type::INT32 ? t : nullptr;
    default: return nullptr;
  }
}

/// The attribute Spark writes for a type, or "" for none.
std::string catalyst_attribute(const DataType& t) {
  switch (t.id()) {
    case TypeId::kString:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kYearMonthInterval:
    case TypeId::kDayTimeInterval: return t.simple_string();
    default: return "";
  }
}

std::shared_ptr<arrow::DataType> orc_type(const DataType& t);

std::shared_ptr<arrow::Field> orc_child(const std::string& name, const DataType& t, bool nullable) {
  auto type = orc_type(t);
  if (!type) return nullptr;
  auto f = arrow::field(name, type, nullable);
  const std::string attribute = catalyst_attribute(t);
  if (!attribute.empty()) f = f->WithMetadata(arrow::key_value_metadata({kCatalystTypeAttribute}, {attribute}));
  return f;
}

std::shared_ptr<arrow::DataType> orc_type(const DataType& t) {
  switch (t.id()) {
    case TypeId::kTimestamp: return arrow::timestamp(arrow::TimeUnit::MICRO);  // ORC timestamp
    case TypeId::kTimestampNtz:
    case TypeId::kDayTimeInterval: return arrow::int64();
    case TypeId::kYearMonthInterval: return arrow::int32();
    case TypeId::kNull:
    case TypeId::kTime:
    case TypeId::kCalendarInterval:
    case TypeId::kVariant: return nullptr;
    case TypeId::kArray: {
      auto element = orc_child("item", *t.element_type(), true);
      return element ? arrow::list(element) : nullptr;
    }
    case TypeId::kMap: {
      auto key = orc_child("key", *t.key_type(), false);
      auto value = orc_child("value", *t.value_type(), true);
      return key && value ? std::make_shared<arrow::MapType>(key, value) : nullptr;
    }
    case TypeId::kStruct: {
      arrow::FieldVector fields;
      for (const auto& c : t.fields()) {
        auto f = orc_child(c.name, *c.type, true);
        if (!f) return nullptr;
        fields.push_back(f);
      }
      return arrow::struct_(std::move(fields));
    }
    default: return to_arrow_type(t);
  }
}

}  // namespace

TypePtr spark_type_of_orc(const arrow::Field& field) {
  if (TypePtr t = attributed_type(field)) return t;
  const arrow::DataType& t = *field.type();
  switch (t.id()) {
    case arrow::Type::BOOL: return DataType::boolean();
    case arrow::Type::INT8: return DataType::byte();
    case arrow::Type::INT16: return DataType::short_();
    case arrow::Type::INT32: return DataType::int_();
    case arrow::Type::INT64: return DataType::long_();
    case arrow::Type::FLOAT: return DataType::float_();
    case arrow::Type::DOUBLE: return DataType::double_();
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: return DataType::string();
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY: return DataType::binary();
    case arrow::Type::DATE32:
    case arrow::Type::DATE64: return DataType::date();
    case arrow::Type::TIMESTAMP: return DataType::timestamp();
    case arrow::Type::DECIMAL128: {
      const auto& d = static_cast<const arrow::DecimalType&>(t);
      return DataType::decimal(d.precision(), d.scale());
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& l = static_cast<const arrow::BaseListType&>(t);
      return DataType::array(spark_type_of_orc(*l.value_field()), true);
    }
    case arrow::Type::MAP: {
      const auto& m = static_cast<const arrow::MapType&>(t);
      return DataType::map(spark_type_of_orc(*m.key_field()), spark_type_of_orc(*m.item_field()), true);
    }
    case arrow::Type::STRUCT: {
      std::vector<StructField> fields;
      for (const auto& c : t.fields()) fields.push_back({c->name(), spark_type_of_orc(*c), true, "{}"});
      return DataType::struct_(std::move(fields));
    }
    default:
      throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                       "The ORC datasource doesn't support the column " + quote_id(field.name()) +
                           " of the type \"" + t.ToString() + "\".",
                       {{"format", "ORC"}, {"columnName", quote_id(field.name())},
                        {"columnType", "\"" + t.ToString() + "\""}},
                       "0A000");
  }
}

std::shared_ptr<arrow::Field> orc_field(const StructField& field) {
  return orc_child(field.name, *field.type, field.nullable);
}

std::shared_ptr<arrow::DataType> orc_read_type(const std::shared_ptr<arrow::DataType>& file_type,
                                               const DataType& spark_type) {
  switch (file_type->id()) {
    case arrow::Type::INT32:
      return spark_type.id() == TypeId::kYearMonthInterval ? to_arrow_type(spark_type) : file_type;
    case arrow::Type::INT64:
      return spark_type.id() == TypeId::kTimestampNtz || spark_type.id() == TypeId::kDayTimeInterval
                 ? to_arrow_type(spark_type)
                 : file_type;
    case arrow::Type::LIST: {
      if (spark_type.id() != TypeId::kArray) return file_type;
      const auto& l = static_cast<const arrow::ListType&>(*file_type);
      return arrow::list(l.value_field()->WithType(orc_read_type(l.value_type(), *spark_type.element_type())));
    }
    case arrow::Type::MAP: {
      if (spark_type.id() != TypeId::kMap) return file_type;
      const auto& m = static_cast<const arrow::MapType&>(*file_type);
      return std::make_shared<arrow::MapType>(
          m.key_field()->WithType(orc_read_type(m.key_type(), *spark_type.key_type())),
          m.item_field()->WithType(orc_read_type(m.item_type(), *spark_type.value_type())));
    }
    case arrow::Type::STRUCT: {
      if (spark_type.id() != TypeId::kStruct || spark_type.fields().size() != file_type->fields().size())
        return file_type;
      arrow::FieldVector fields;
      for (int i = 0; i < file_type->num_fields(); ++i) {
        const auto& f = file_type->field(i);
        fields.push_back(f->WithType(orc_read_type(f->type(), *spark_type.fields()[static_cast<size_t>(i)].type)));
      }
      return arrow::struct_(std::move(fields));
    }
    default: return file_type;
  }
}

std::shared_ptr<arrow::ArrayData> relabel(const std::shared_ptr<arrow::ArrayData>& data,
                                          const std::shared_ptr<arrow::DataType>& type) {
  if (data->type->Equals(*type, /*check_metadata=*/false)) return data;
  auto out = data->Copy();
  out->type = type;
  // A map's single child is its entries struct; lists and structs have one child per field.
  if (type->id() == arrow::Type::MAP) {
    const auto& m = static_cast<const arrow::MapType&>(*type);
    out->child_data[0] = relabel(data->child_data[0], m.value_type());
  } else {
    EMBER_CHECK(static_cast<int>(data->child_data.size()) == type->num_fields(),
                "relabelling an Arrow array as a type of another shape");
    for (int i = 0; i < type->num_fields(); ++i)
      out->child_data[static_cast<size_t>(i)] = relabel(data->child_data[static_cast<size_t>(i)], type->field(i)->type());
  }
  return out;
}

}  // namespace ember::io
