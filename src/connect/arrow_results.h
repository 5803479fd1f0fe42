#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"

namespace arrow {
class Schema;
}

namespace ember::connect {

/// One `ExecutePlanResponse.arrow_batch`: a complete Arrow IPC stream (schema message, one
/// record batch, end-of-stream marker) and its row count.
struct ArrowChunk {
  int64_t row_count = 0;
  std::string data;
};

/// Encodes result batches as Arrow IPC streams the way Spark sends them to clients: the session
/// time zone is attached to TIMESTAMP columns, nullability follows the schema, fields that share
/// a name within a struct get distinct names (name_0, name_1, ...), and batches are re-chunked
/// to at most `max_rows` rows and about `max_bytes` bytes each.
class ArrowResultEncoder {
 public:
  ArrowResultEncoder(const Schema& schema, const std::string& time_zone, int64_t max_rows,
                     int64_t max_bytes);
  ~ArrowResultEncoder();

  /// Appends the chunks of `batch` (none when it has no rows). Thread-safe: batches may be
  /// encoded concurrently.
  void add(const Batch& batch, std::vector<ArrowChunk>* out) const;
  /// A chunk with no rows, so that a client always receives the Arrow schema.
  ArrowChunk empty() const;

 private:
  std::shared_ptr<arrow::Schema> schema_;
  int64_t max_rows_;
  int64_t max_bytes_;
};

/// An Arrow IPC stream decoded into Ember batches.
struct DecodedArrow {
  Schema schema;
  std::vector<Batch> batches;
};

/// Decodes the Arrow IPC stream of a LocalRelation. Arrow types Spark does not distinguish
/// (large strings and lists, views, dictionaries, other time units) are normalised first; types
/// Spark cannot represent raise UNSUPPORTED_ARROWTYPE. Malformed input raises a
/// CONNECT_INVALID_PLAN error, never a crash.
DecodedArrow decode_arrow_stream(const std::string& bytes);

}  // namespace ember::connect
