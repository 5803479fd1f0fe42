#include "plan/table_relation.h"

namespace ember::plan {

io::ReadRequest table_read_request(const TableInfo& table) {
  io::ReadRequest req;
  req.format = table.provider;
  req.paths = {table.location};
  for (const auto& [k, v] : table.options) req.options.set(k, v);
  req.user_schema = DataType::struct_(table.schema);
  return req;
}

PlanPtr table_read_plan(const TableInfo& table) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRead;
  n->read = table_read_request(table);
  return n;
}

}  // namespace ember::plan
