#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/config.h"
#include "exec/in_memory_scan.h"
#include "plan/logical_plan.h"

namespace ember::plan {

class Session;

/// Spark's StorageLevel. Every level keeps the rows in memory as column batches: the DISK and
/// OFF_HEAP levels are accepted and reported as given, but Ember does not write cached rows to
/// disk or off-heap memory.
struct StorageLevel {
  bool use_disk = false;
  bool use_memory = false;
  bool use_off_heap = false;
  bool deserialized = false;
  int replication = 1;

  /// MEMORY_AND_DISK: the level of cache(), persist() and CACHE TABLE.
  static StorageLevel memory_and_disk();
  /// A level by its Spark name (MEMORY_ONLY, DISK_ONLY_2 ..., case-insensitive); throws
  /// Spark's error for an unknown name.
  static StorageLevel from_name(const std::string& name);
  /// "StorageLevel(disk, memory, deserialized, 1 replicas)", as Spark prints it.
  std::string to_string() const;
  bool operator==(const StorageLevel& o) const;
};

/// One cached plan: Spark's CachedData with its InMemoryRelation. The plan is the analyzed
/// plan given to cache(); its rows live in `batches`, computed by the first query that reads
/// them. Refreshing the entry (the data under it changed) gives it a fresh, empty store.
struct CachedData {
  PlanPtr plan;
  StorageLevel level;
  std::shared_ptr<exec::CachedBatches> batches;
};

/// The cached plans of a session (Spark's CacheManager). A query's analyzed plan reads cached
/// rows wherever a subplan gives the same result as a cached plan (`plans_same_result`), the
/// outermost match first. Thread-safe.
class CacheManager {
 public:
  /// Caches `analyzed` at `level`, lazily; a plan equal to a cached one keeps the old entry
  /// (Spark logs "Asked to cache already cached data"). Returns the entry.
  std::shared_ptr<const CachedData> cache(const PlanPtr& analyzed, const StorageLevel& level);
  /// Drops the entries whose plan gives the same result as `analyzed` and, with `cascade`,
  /// those whose plan reads such a subplan. Returns whether any was dropped.
  bool uncache(const PlanPtr& analyzed, bool cascade);
  /// The entry whose plan gives the same result as `analyzed`, or null.
  std::shared_ptr<const CachedData> lookup(const PlanPtr& analyzed) const;
  /// `analyzed` with every subplan that matches an entry (other than `exclude`) replaced by
  /// an in-memory relation of that entry, keeping the subplan's output attributes.
  PlanPtr use_cached_data(const PlanPtr& analyzed, const CachedData* exclude = nullptr) const;
  /// The data under `path` changed (INSERT into a table, a write over files): entries whose
  /// plan reads files there get a fresh store, and their scans list the files again (opened
  /// with `config`). With `drop` (DROP TABLE) those entries are removed instead.
  void invalidate_path(const std::string& path, const Config& config, bool drop);
  void clear();

  size_t size() const;
  /// Bytes held by the materialized entries' batches.
  int64_t memory_bytes() const;

 private:
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<CachedData>> entries_;
};

/// The analyzed plan of the relation `name` (a temporary view, else a table), as
/// spark.table(name) reads it; TABLE_OR_VIEW_NOT_FOUND when there is none.
PlanPtr analyze_relation(Session& session, const std::vector<std::string>& name);

/// CACHE [LAZY] TABLE name / spark.catalog.cacheTable: caches what `name` reads; eager runs it
/// at once (as SQL's CACHE TABLE does), lazy on its first read.
void cache_table(Session& session, const std::vector<std::string>& name, const StorageLevel& level,
                 bool eager);
/// UNCACHE TABLE / spark.catalog.uncacheTable: drops the relation's entry and every entry that
/// reads it.
void uncache_table(Session& session, const std::vector<std::string>& name);
/// REFRESH TABLE / spark.catalog.refreshTable: the entries over a table's files read them
/// again (TABLE_OR_VIEW_NOT_FOUND when there is no such relation).
void refresh_table(Session& session, const std::vector<std::string>& name);
/// spark.catalog.isCached.
bool is_table_cached(Session& session, const std::vector<std::string>& name);

}  // namespace ember::plan
