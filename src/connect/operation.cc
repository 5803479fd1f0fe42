#include "connect/operation.h"

#include "connect/errors.h"
#include "connect/uuid.h"

namespace ember::connect {

Operation::Operation(std::string id, std::vector<std::string> tags, bool reattachable)
    : id_(std::move(id)), tags_(std::move(tags)), reattachable_(reattachable) {}

bool Operation::interrupt() {
  std::lock_guard<std::mutex> lock(mu_);
  cancelled_->store(true);
  cv_.notify_all();
  return !done_;
}

void Operation::push(Response response) {
  response.set_response_id(new_uuid());
  std::lock_guard<std::mutex> lock(mu_);
  buffer_.push_back(std::make_shared<const Response>(std::move(response)));
  ++next_index_;
  cv_.notify_all();
}

void Operation::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  done_ = true;
  cv_.notify_all();
}

void Operation::fail(grpc::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  error_ = std::move(status);
  done_ = true;
  cv_.notify_all();
}

bool Operation::done() const {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

bool Operation::failed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_.has_value();
}

bool Operation::detached_for(Clock::duration idle) const {
  std::lock_guard<std::mutex> lock(mu_);
  return active_senders_ == 0 && Clock::now() - detached_since_ >= idle;
}

int64_t Operation::position_after(const std::string& response_id) const {
  for (size_t i = 0; i < buffer_.size(); ++i) {
    if (buffer_[i]->response_id() == response_id) return first_index_ + static_cast<int64_t>(i) + 1;
  }
  return -1;
}

void Operation::release_until(const std::string& response_id) {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t end = position_after(response_id);
  while (end > first_index_ && !buffer_.empty()) {
    buffer_.pop_front();
    ++first_index_;
  }
}

grpc::Status Operation::stream(grpc::ServerContext* context, grpc::ServerWriter<Response>* writer,
                               const std::string* after_response_id) {
  std::unique_lock<std::mutex> lock(mu_);
  int64_t pos = 0;
  if (after_response_id != nullptr) {
    pos = position_after(*after_response_id);
  } else if (first_index_ > 0) {
    pos = -1;
  }
  if (pos < 0) {
    lock.unlock();
    std::string detail = after_response_id ? *after_response_id : "(start)";
    SparkError e(ErrorKind::kRuntime, "INVALID_CURSOR.POSITION_NOT_AVAILABLE",
                 "The cursor is invalid. The cursor position id " + detail +
                     " is no longer available at index 0.",
                 {{"index", "0"}, {"responseId", detail}}, "HY109");
    return to_status(describe_error(e), nullptr);
  }
  const uint64_t generation = ++sender_generation_;
  ++active_senders_;
  cv_.notify_all();  // a previous sender sees the new generation and leaves
  struct Detach {
    Operation* op;
    ~Detach() {
      --op->active_senders_;
      if (op->active_senders_ == 0) op->detached_since_ = Clock::now();
    }
  } detach{this};

  while (true) {
    cv_.wait_for(lock, std::chrono::milliseconds(200),
                 [&] { return pos < next_index_ || done_ || generation != sender_generation_; });
    if (generation != sender_generation_) {
      return grpc::Status(
          grpc::StatusCode::CANCELLED,
          "INVALID_CURSOR.DISCONNECTED: another stream reattached to operation " + id_);
    }
    if (context->IsCancelled()) return grpc::Status::CANCELLED;
    if (pos < next_index_) {
      if (pos < first_index_) pos = first_index_;  // released meanwhile by the client
      std::shared_ptr<const Response> response;
      if (reattachable_) {
        response = buffer_[static_cast<size_t>(pos - first_index_)];
      } else {
        // Nobody can ask for it again: the buffer lets go of it.
        response = std::move(buffer_.front());
        buffer_.pop_front();
        ++first_index_;
      }
      ++pos;
      lock.unlock();
      const bool ok = writer->Write(*response);
      lock.lock();
      if (!ok) return grpc::Status::CANCELLED;
      continue;
    }
    if (done_) return error_ ? *error_ : grpc::Status::OK;
  }
}

}  // namespace ember::connect
