// input_file_name(), input_file_block_start(), input_file_block_length(): where the row was read.

#include "functions/input_file.h"

#include <algorithm>

#include "functions/function.h"

namespace ember::functions {

namespace {

thread_local const InputFileBlock* t_file = nullptr;

ColumnPtr input_file_name_kernel(const std::vector<ColumnPtr>&, int64_t n, const Signature& sig,
                                 const EvalContext&) {
  const InputFileBlock* f = t_file;
  return Column::constant(sig.result_type, Value::bytes(f ? f->uri : std::string()), n);
}

template <int64_t InputFileBlock::*field>
ColumnPtr block_kernel(const std::vector<ColumnPtr>&, int64_t n, const Signature& sig, const EvalContext&) {
  const InputFileBlock* f = t_file;
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int64_t));
  std::fill_n(data->mutable_as<int64_t>(), n, f ? f->*field : -1);
  return Column::make(sig.result_type, n, nullptr, data);
}

}  // namespace

const InputFileBlock* current_input_file() { return t_file; }

InputFileScope::InputFileScope(const InputFileBlock* file) : saved_(t_file) { t_file = file; }

InputFileScope::~InputFileScope() { t_file = saved_; }

void register_input_file_functions(Registry& r) {
  r.add(row_numbering("input_file_name", DataType::string(), input_file_name_kernel,
                      "input_file_name() - Returns the name of the file being read, or empty string if not "
                      "available."));
  r.add(row_numbering("input_file_block_start", DataType::long_(), block_kernel<&InputFileBlock::start>,
                      "input_file_block_start() - Returns the start offset of the block being read, or -1 if "
                      "not available."));
  r.add(row_numbering("input_file_block_length", DataType::long_(), block_kernel<&InputFileBlock::length>,
                      "input_file_block_length() - Returns the length of the block being read, or -1 if not "
                      "available."));
}

}  // namespace ember::functions
