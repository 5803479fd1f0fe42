#pragma once

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/sync_stream.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "spark/connect/base.pb.h"

namespace ember::connect {

/// One ExecutePlan operation: the responses its execution produces, buffered until the client
/// has acknowledged them, so that a client whose stream broke can reattach and resume
/// (ReattachExecute) after the last response it saw.
///
/// A producer (the execution thread) pushes responses and finally finishes or fails the
/// operation. One sender at a time (the RPC of ExecutePlan or of the latest ReattachExecute)
/// streams them; a new sender takes over from the previous one, which then ends its stream.
/// Thread-safe.
class Operation {
 public:
  using Response = spark::connect::ExecutePlanResponse;
  using Clock = std::chrono::steady_clock;

  Operation(std::string id, std::vector<std::string> tags, bool reattachable);

  const std::string& id() const { return id_; }
  const std::vector<std::string>& tags() const { return tags_; }
  bool reattachable() const { return reattachable_; }
  /// Shared with the engine, which checks it between batches.
  const std::shared_ptr<std::atomic<bool>>& cancelled() const { return cancelled_; }

  /// Asks the execution to stop. Returns false when it had already finished.
  bool interrupt();

  // Producer side.
  /// Appends a response; its response_id is set here (a fresh UUID).
  void push(Response response);
  /// All responses are pushed.
  void finish();
  /// The execution failed; senders end their stream with `status` after the buffered
  /// responses.
  void fail(grpc::Status status);

  // Sender side.
  /// Streams the responses that follow `after_response_id` (all when null) until the
  /// operation is complete, the client goes away, or another sender takes over. Returns the
  /// RPC's final status. Fails with INVALID_CURSOR.POSITION_NOT_AVAILABLE when the position
  /// was already released.
  grpc::Status stream(grpc::ServerContext* context, grpc::ServerWriter<Response>* writer,
                      const std::string* after_response_id);

  /// Drops buffered responses up to and including `response_id`.
  void release_until(const std::string& response_id);

  bool done() const;
  /// Whether the execution ended with an error.
  bool failed() const;
  /// Whether no sender is attached and none has been for at least `idle`.
  bool detached_for(Clock::duration idle) const;

 private:
  /// Index (in the whole response sequence) of the response after `response_id`, or -1.
  int64_t position_after(const std::string& response_id) const;

  const std::string id_;
  const std::vector<std::string> tags_;
  const bool reattachable_;
  const std::shared_ptr<std::atomic<bool>> cancelled_ = std::make_shared<std::atomic<bool>>(false);

  mutable std::mutex mu_;
  std::condition_variable cv_;
  // Shared, so that a sender writes a response a reattaching client may ask for again without
  // copying it (a result's Arrow batches add up to the whole result).
  std::deque<std::shared_ptr<const Response>> buffer_;
  int64_t first_index_ = 0;  // sequence number of buffer_.front()
  int64_t next_index_ = 0;   // sequence number of the next pushed response
  bool done_ = false;
  std::optional<grpc::Status> error_;
  uint64_t sender_generation_ = 0;
  int active_senders_ = 0;
  Clock::time_point detached_since_ = Clock::now();
};

}  // namespace ember::connect
