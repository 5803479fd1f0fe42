#include "io/data_source.h"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <unordered_map>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"
#include "io/csv_reader.h"
#include "io/json_reader.h"
#include "io/orc_reader.h"
#include "io/parquet_reader.h"
#include "io/partitioning.h"
#include "io/spark_splits.h"
#include "io/text_reader.h"

namespace ember::io {

double estimated_text_rows(const std::vector<InputFile>& files, size_t columns) {
  double bytes = 0;
  for (const auto& f : files) bytes += static_cast<double>(f.size);
  return bytes / (8.0 * static_cast<double>(std::max<size_t>(columns, 1)));
}

int64_t spark_split_bytes(const ReadRequest& request, const std::vector<InputFile>& files) {
  return request.spark_split_bytes > 0 ? request.spark_split_bytes : spark_split_bytes(files, request.config);
}

namespace {

struct Registry {
  std::mutex mu;
  std::unordered_map<std::string, ReaderFactory> factories;
};

// Built-in formats are registered here, by reference, so that linking the io library always
// brings them in (a static registrar in their own file could be dropped by the linker).
Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry();
    reg->factories["csv"] = open_csv_reader;
    reg->factories["parquet"] = open_parquet_reader;
    reg->factories["text"] = open_text_reader;
    reg->factories["json"] = open_json_reader;
    reg->factories["orc"] = open_orc_reader;
    return reg;
  }();
  return *r;
}

}  // namespace

void register_format(const std::string& name, ReaderFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.factories[ascii_lower(name)] = std::move(factory);
}

ListingOptions listing_options(const ReadRequest& request) {
  const Options& options = request.options;
  ListingOptions o;
  o.glob_filter = options.get("pathGlobFilter");
  o.recursive = options.get_bool("recursiveFileLookup", false);
  const std::string zone_name =
      options.get("timeZone", request.config ? request.config->session_time_zone() : "UTC");
  auto instant = [&](const char* key, int64_t* out) {
    if (!options.has(key)) return;
    const std::string v = options.get(key);
    int64_t micros;
    if (!parse_timestamp(v, TimeZone::get(zone_name), &micros)) {
      throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1207",
                       "The timestamp provided for the '" + std::string(key) + "' option is invalid. "
                       "The expected format is 'YYYY-MM-DDTHH:mm:ss', but the provided timestamp: " + v,
                       {{"strategy", key}, {"timeString", v}});
    }
    *out = micros;
  };
  instant("modifiedBefore", &o.modified_before_us);
  instant("modifiedAfter", &o.modified_after_us);
  return o;
}

bool has_format(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.factories.count(ascii_lower(name)) != 0;
}

std::unique_ptr<DataSourceReader> open_reader(const ReadRequest& request) {
  ReaderFactory factory;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    std::string name = ascii_lower(request.format);
    // Spark accepts the fully qualified provider names of its built-in sources too.
    const std::string prefix = "org.apache.spark.sql.execution.datasources.";
    if (name.rfind(prefix, 0) == 0) {
      name = name.substr(prefix.size());
      name = name.substr(0, name.find('.'));
    }
    auto it = r.factories.find(name);
    if (it != r.factories.end()) factory = it->second;
  }
  if (!factory) {
    throw SparkError(ErrorKind::kAnalysis, "DATA_SOURCE_NOT_FOUND",
                     "Failed to find the data source: " + request.format +
                         ". Make sure the provider name is correct and the package is properly "
                         "registered and compatible with your Spark version.",
                     {{"provider", request.format}}, "42K02");
  }
  // Hive-style partition directories, unless recursiveFileLookup asks for plain files.
  if (!request.options.get_bool("recursiveFileLookup", false)) {
    ListingOptions all = listing_options(request);
    all.recursive = true;
    const std::vector<InputFile> files = list_input_files(request.paths, all);
    PartitionSpec spec = discover_partitions(files, request);
    if (!spec.columns.empty()) {
      // Spark sizes its splits over all the relation's files, not each partition's.
      ReadRequest whole = request;
      whole.spark_split_bytes = spark_split_bytes(request, files);
      return open_partitioned_reader(whole, factory, std::move(spec));
    }
  }
  return factory(request);
}

}  // namespace ember::io
