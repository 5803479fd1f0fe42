#pragma once

// The file block the rows being evaluated were read from, for input_file_name(),
// input_file_block_start() and input_file_block_length().

#include "column/column.h"

namespace ember::functions {

/// The calling thread's current file block: null when the rows being evaluated do not come
/// straight from a file scan (the functions then give "" and -1, as Spark does).
const InputFileBlock* current_input_file();

/// Sets the calling thread's file block for its lifetime, restoring the previous one. The
/// executor sets it from `Batch::file` around each operator that evaluates a batch.
class InputFileScope {
 public:
  explicit InputFileScope(const InputFileBlock* file);
  ~InputFileScope();
  InputFileScope(const InputFileScope&) = delete;
  InputFileScope& operator=(const InputFileScope&) = delete;

 private:
  const InputFileBlock* saved_;
};

}  // namespace ember::functions
