// The warehouse catalog: metadata that survives a new catalog object on the same directory (a
// restarted server), Spark's directory layout, and its errors.

#include "plan/table_catalog.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "common/error.h"
#include "plan/session.h"
#include "plan/table_write.h"

namespace ember::plan {
namespace {

namespace fs = std::filesystem;

class TableCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ember-warehouse-" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static TableInfo sample(const std::string& db, const std::string& name, const std::string& location) {
    TableInfo t;
    t.database = db;
    t.name = name;
    t.schema = {{"id", DataType::long_(), true, "{}"},
                {"tags", DataType::array(DataType::string()), true, "{}"},
                {"amount", DataType::decimal(12, 3), true, "{}"},
                {"p", DataType::date(), true, "{}"}};
    t.provider = "csv";
    t.partition_columns = {"p"};
    t.options = {{"header", "true"}, {"sep", "\"|\""}};
    t.comment = "a \"quoted\" comment\nwith a line break";
    t.created_ms = 1733212800123;
    t.location = location;
    return t;
  }

  std::string error_class(const std::function<void()>& f) {
    try {
      f();
    } catch (const SparkError& e) {
      return e.error_class();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(TableCatalogTest, MetadataSurvivesReopening) {
  {
    TableCatalog catalog(dir_.string());
    catalog.create_database("Sales", "the sales", false);
    catalog.create_table(sample("sales", "Orders", catalog.default_location("sales", "orders")));
    catalog.create_table(sample("default", "t", catalog.default_location("default", "t")));
  }
  EXPECT_TRUE(fs::exists(dir_ / ".ember-catalog.json"));
  EXPECT_TRUE(fs::is_directory(dir_ / "sales.db"));

  TableCatalog reopened(dir_.string());
  ASSERT_TRUE(reopened.database_exists("SALES"));
  EXPECT_EQ(reopened.database("sales")->comment, "the sales");
  EXPECT_EQ(reopened.databases().size(), 2u);
  auto t = reopened.find_table("sales", "ORDERS");
  ASSERT_TRUE(t.has_value());
  const TableInfo expected = sample("sales", "orders", (dir_ / "sales.db" / "orders").string());
  EXPECT_EQ(t->name, "orders");
  EXPECT_EQ(t->provider, expected.provider);
  EXPECT_EQ(t->partition_columns, expected.partition_columns);
  EXPECT_EQ(t->options, expected.options);
  EXPECT_EQ(t->comment, expected.comment);
  EXPECT_EQ(t->created_ms, expected.created_ms);
  EXPECT_EQ(t->location, expected.location);
  ASSERT_EQ(t->schema.size(), expected.schema.size());
  for (size_t i = 0; i < t->schema.size(); ++i) {
    EXPECT_EQ(t->schema[i].name, expected.schema[i].name);
    EXPECT_TRUE(t->schema[i].type->equals(*expected.schema[i].type)) << t->schema[i].type->simple_string();
  }
  EXPECT_TRUE(t->is_partition_column("P"));
  EXPECT_EQ(reopened.tables("default").size(), 1u);
}

TEST_F(TableCatalogTest, SparkLayoutAndDrops) {
  TableCatalog catalog(dir_.string());
  EXPECT_EQ(catalog.default_location("default", "T"), (dir_ / "t").string());
  EXPECT_EQ(catalog.default_location("db", "t"), (dir_ / "db.db" / "t").string());

  catalog.create_database("db", "", false);
  const std::string location = catalog.default_location("db", "t");
  fs::create_directories(location);
  std::ofstream(fs::path(location) / "part-0.csv") << "1\n";
  catalog.create_table(sample("db", "t", location));
  EXPECT_EQ(error_class([&] { catalog.create_table(sample("db", "t", location)); }),
            "TABLE_OR_VIEW_ALREADY_EXISTS");
  EXPECT_EQ(error_class([&] { catalog.drop_database("db", false, false); }), "SCHEMA_NOT_EMPTY");
  EXPECT_EQ(error_class([&] { catalog.create_database("DB", "", false); }), "SCHEMA_ALREADY_EXISTS");
  EXPECT_EQ(error_class([&] { catalog.tables("nope"); }), "SCHEMA_NOT_FOUND");
  EXPECT_EQ(error_class([&] { catalog.create_table(sample("nope", "t", location)); }), "SCHEMA_NOT_FOUND");

  catalog.rename_table("db", "t", "u");
  EXPECT_FALSE(fs::exists(location));
  EXPECT_TRUE(fs::exists(dir_ / "db.db" / "u" / "part-0.csv"));
  EXPECT_EQ(TableCatalog(dir_.string()).find_table("db", "u")->location, (dir_ / "db.db" / "u").string());

  catalog.drop_database("db", false, true);
  EXPECT_FALSE(fs::exists(dir_ / "db.db"));
  EXPECT_FALSE(TableCatalog(dir_.string()).database_exists("db"));
  EXPECT_EQ(error_class([&] { catalog.drop_database("db", false, false); }), "SCHEMA_NOT_FOUND");
  catalog.drop_database("db", true, false);
  EXPECT_EQ(error_class([&] { catalog.drop_table("default", "nope"); }), "TABLE_OR_VIEW_NOT_FOUND");
}

TEST_F(TableCatalogTest, CorruptMetadataIsAnErrorNotACrash) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / ".ember-catalog.json") << "{\"tables\": [ {";
  EXPECT_EQ(error_class([&] { TableCatalog catalog(dir_.string()); }), "INTERNAL_ERROR");
}

TEST_F(TableCatalogTest, SessionWritesAndReadsATable) {
  Session session("s");
  session.config().set("spark.sql.warehouse.dir", "file:" + dir_.string());
  CreateTableRequest create;
  create.table = {"t"};
  create.schema = {{"a", DataType::int_(), true, "{}"}, {"p", DataType::string(), true, "{}"}};
  create.partition_by = {"p"};
  ASSERT_TRUE(create_table(session, create, nullptr));
  EXPECT_FALSE(create_table(session, [&] {
    CreateTableRequest again = create;
    again.if_not_exists = true;
    return again;
  }(), nullptr));

  // INSERT INTO t VALUES (1, 'x'), (NULL, NULL) as a local relation.
  auto rows = std::make_shared<PlanNode>();
  rows->kind = PlanKind::kLocalRelation;
  rows->schema = {{"x", DataType::long_(), true, "{}"}, {"y", DataType::string(), true, "{}"}};
  ColumnBuilder a(DataType::long_()), p(DataType::string());
  a.append_value(Value::integer(1));
  p.append_value(Value::bytes("x"));
  a.append_null();
  p.append_null();
  rows->batches.push_back(Batch({a.finish(), p.finish()}, 2));
  InsertRequest insert;
  insert.table = {"default", "t"};
  insert_into_table(session, insert, rows);

  EXPECT_TRUE(fs::is_directory(dir_ / "t" / "p=x"));
  EXPECT_TRUE(fs::is_directory(dir_ / "t" / "p=__HIVE_DEFAULT_PARTITION__"));
  EXPECT_EQ(table_partitions(session, {"t"}),
            (std::vector<std::string>{"p=__HIVE_DEFAULT_PARTITION__", "p=x"}));

  auto scan = std::make_shared<PlanNode>();
  scan->kind = PlanKind::kUnresolvedRelation;
  scan->table_name = {"spark_catalog", "default", "t"};
  QueryResult r = session.execute(scan);
  EXPECT_EQ(r.num_rows(), 2);
  ASSERT_EQ(r.schema.size(), 2u);
  EXPECT_EQ(r.schema[0].type->simple_string(), "int");

  truncate_table(session, {"t"});
  EXPECT_EQ(session.execute(scan).num_rows(), 0);
}

}  // namespace
}  // namespace ember::plan
