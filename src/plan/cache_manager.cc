#include "plan/cache_manager.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>

#include "common/error.h"
#include "plan/plan_equivalence.h"
#include "plan/session.h"

namespace ember::plan {

// ---- Storage levels ---------------------------------------------------------------------------

StorageLevel StorageLevel::memory_and_disk() {
  StorageLevel l;
  l.use_disk = l.use_memory = l.deserialized = true;
  return l;
}

StorageLevel StorageLevel::from_name(const std::string& name) {
  std::string n = name;
  for (auto& c : n) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  struct Named {
    const char* name;
    bool disk, memory, off_heap, deserialized;
    int replication;
  };
  static const Named kLevels[] = {
      {"NONE", false, false, false, false, 1},
      {"DISK_ONLY", true, false, false, false, 1},
      {"DISK_ONLY_2", true, false, false, false, 2},
      {"DISK_ONLY_3", true, false, false, false, 3},
      {"MEMORY_ONLY", false, true, false, true, 1},
      {"MEMORY_ONLY_2", false, true, false, true, 2},
      {"MEMORY_ONLY_SER", false, true, false, false, 1},
      {"MEMORY_ONLY_SER_2", false, true, false, false, 2},
      {"MEMORY_AND_DISK", true, true, false, true, 1},
      {"MEMORY_AND_DISK_2", true, true, false, true, 2},
      {"MEMORY_AND_DISK_SER", true, true, false, false, 1},
      {"MEMORY_AND_DISK_SER_2", true, true, false, false, 2},
      {"OFF_HEAP", true, true, true, false, 1},
  };
  for (const Named& l : kLevels) {
    if (n != l.name) continue;
    StorageLevel s;
    s.use_disk = l.disk;
    s.use_memory = l.memory;
    s.use_off_heap = l.off_heap;
    s.deserialized = l.deserialized;
    s.replication = l.replication;
    return s;
  }
  throw SparkError(ErrorKind::kIllegalArgument, "", "Invalid StorageLevel: " + n);
}

std::string StorageLevel::to_string() const {
  std::string s;
  auto add = [&](bool on, const char* word) {
    if (on) s += std::string(s.empty() ? "" : ", ") + word;
  };
  add(use_disk, "disk");
  add(use_memory, "memory");
  add(use_off_heap, "offheap");
  add(deserialized, "deserialized");
  s += std::string(s.empty() ? "" : ", ") + std::to_string(replication) + " replicas";
  return "StorageLevel(" + s + ")";
}

bool StorageLevel::operator==(const StorageLevel& o) const {
  return use_disk == o.use_disk && use_memory == o.use_memory && use_off_heap == o.use_off_heap &&
         deserialized == o.deserialized && replication == o.replication;
}

// ---- The cache --------------------------------------------------------------------------------

namespace {

/// Whether `p` or a subplan of it gives the same result as `target`.
bool contains_same_result(const PlanPtr& p, const PlanPtr& target) {
  if (!p) return false;
  if (plans_same_result(p, target)) return true;
  for (const auto& c : p->children)
    if (contains_same_result(c, target)) return true;
  return false;
}

/// Whether file `read` lies under directory `dir` or the other way round (a write into a
/// partition directory of a table read as a whole, or over a table read by one partition).
bool path_overlaps(const std::string& read, const std::string& dir) {
  auto normal = [](std::string p) {
    if (p.rfind("file:", 0) == 0) p = p.substr(5);
    std::error_code ec;
    std::string s = std::filesystem::absolute(p, ec).lexically_normal().string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  };
  auto under = [](const std::string& a, const std::string& b) {
    return a.size() > b.size() && a.compare(0, b.size(), b) == 0 && a[b.size()] == '/';
  };
  std::string r = normal(read), d = normal(dir);
  return r == d || under(r, d) || under(d, r);
}

bool reads_path(const PlanPtr& p, const std::string& path) {
  if (!p) return false;
  if (p->kind == PlanKind::kRead)
    for (const auto& f : p->read.paths)
      if (path_overlaps(f, path)) return true;
  for (const auto& c : p->children)
    if (reads_path(c, path)) return true;
  return false;
}

/// `p` with each read of files under `path` opened again, so that it lists the files as they
/// are now. Output attributes stay, so the plan still gives the same result as before.
PlanPtr reopen_reads(const PlanPtr& p, const std::string& path, const Config& config) {
  if (!reads_path(p, path)) return p;
  auto n = std::make_shared<PlanNode>(*p);
  if (n->kind == PlanKind::kRead) {
    io::ReadRequest req = n->read;
    req.config = &config;
    n->reader = io::open_reader(req);
  }
  for (auto& c : n->children) c = reopen_reads(c, path, config);
  return n;
}

}  // namespace

std::shared_ptr<const CachedData> CacheManager::cache(const PlanPtr& analyzed,
                                                      const StorageLevel& level) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : entries_)
    if (plans_same_result(e->plan, analyzed)) return e;
  auto entry = std::make_shared<CachedData>();
  entry->plan = analyzed;
  entry->level = level;
  entry->batches = std::make_shared<exec::CachedBatches>();
  entries_.push_back(entry);
  return entry;
}

bool CacheManager::uncache(const PlanPtr& analyzed, bool cascade) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t before = entries_.size();
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [&](const std::shared_ptr<CachedData>& e) {
                                  return cascade ? contains_same_result(e->plan, analyzed)
                                                 : plans_same_result(e->plan, analyzed);
                                }),
                 entries_.end());
  return entries_.size() != before;
}

std::shared_ptr<const CachedData> CacheManager::lookup(const PlanPtr& analyzed) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& e : entries_)
    if (plans_same_result(e->plan, analyzed)) return e;
  return nullptr;
}

PlanPtr CacheManager::use_cached_data(const PlanPtr& analyzed, const CachedData* exclude) const {
  std::vector<std::shared_ptr<CachedData>> entries;
  {
    std::lock_guard<std::mutex> lock(mu_);
    entries = entries_;
  }
  if (entries.empty()) return analyzed;
  std::function<PlanPtr(const PlanPtr&)> walk = [&](const PlanPtr& p) -> PlanPtr {
    if (!p) return p;
    for (const auto& e : entries) {
      if (e.get() == exclude || e->plan->output.size() != p->output.size() ||
          !plans_same_result(p, e->plan))
        continue;
      auto n = std::make_shared<PlanNode>();
      n->kind = PlanKind::kLocalRelation;
      n->cached = e;
      n->output = p->output;
      n->schema = p->output_schema();
      n->plan_id = p->plan_id;
      n->resolved = true;
      return n;
    }
    std::vector<PlanPtr> children;
    bool changed = false;
    for (const auto& c : p->children) {
      children.push_back(walk(c));
      changed |= children.back() != c;
    }
    if (!changed) return p;
    auto n = std::make_shared<PlanNode>(*p);
    n->children = std::move(children);
    return n;
  };
  return walk(analyzed);
}

void CacheManager::invalidate_path(const std::string& path, const Config& config, bool drop) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<CachedData>> kept;
  for (auto& e : entries_) {
    if (!reads_path(e->plan, path)) {
      kept.push_back(e);
      continue;
    }
    if (drop) continue;
    // A fresh entry: queries planned before keep reading the old store to their end.
    auto fresh = std::make_shared<CachedData>();
    fresh->level = e->level;
    fresh->batches = std::make_shared<exec::CachedBatches>();
    try {
      fresh->plan = reopen_reads(e->plan, path, config);
    } catch (const SparkError&) {
      continue;  // the files are gone: nothing left to cache
    }
    kept.push_back(std::move(fresh));
  }
  entries_ = std::move(kept);
}

void CacheManager::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.clear();
}

size_t CacheManager::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

int64_t CacheManager::memory_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t bytes = 0;
  for (const auto& e : entries_) bytes += e->batches->memory_bytes();
  return bytes;
}

// ---- Cached tables and views ------------------------------------------------------------------

PlanPtr analyze_relation(Session& session, const std::vector<std::string>& name) {
  auto rel = std::make_shared<PlanNode>();
  rel->kind = PlanKind::kUnresolvedRelation;
  rel->table_name = name;
  return session.analyze(rel);
}

void cache_table(Session& session, const std::vector<std::string>& name, const StorageLevel& level,
                 bool eager) {
  PlanPtr plan = analyze_relation(session, name);
  session.cache_manager().cache(plan, level);
  if (eager) session.execute_analyzed(plan);
}

void uncache_table(Session& session, const std::vector<std::string>& name) {
  session.cache_manager().uncache(analyze_relation(session, name), true);
}

void refresh_table(Session& session, const std::vector<std::string>& name) {
  analyze_relation(session, name);
  if (name.size() == 1 && session.catalog().lookup_temp_view(name[0])) return;
  if (auto table = session.find_table(name))
    session.cache_manager().invalidate_path(table->location, session.config(), false);
}

bool is_table_cached(Session& session, const std::vector<std::string>& name) {
  return session.cache_manager().lookup(analyze_relation(session, name)) != nullptr;
}

}  // namespace ember::plan
