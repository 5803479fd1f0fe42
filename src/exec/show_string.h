#pragma once

#include <string>
#include <vector>

#include "column/column.h"

namespace ember::exec {

/// Renders rows the way Spark's `Dataset.showString` does, for `DataFrame.show()`.
///
/// `batches` hold up to `num_rows + 1` rows; a row beyond `num_rows` only signals that more rows
/// exist (the "only showing top N rows" footer). Cells are rendered like Spark's cast to
/// string (with Spark's show-specific forms for binary, arrays, maps and structs), timestamps in
/// `time_zone`, NULL as "NULL". With `truncate` > 0, cells longer than `truncate` characters
/// are cut (to `truncate - 3` characters plus "..." when `truncate` >= 4) and right-aligned;
/// with 0 they are left-aligned and complete. Widths count characters, with East Asian wide
/// and fullwidth characters counting two, as Spark's `stringHalfWidth` does. `vertical` prints
/// one `-RECORD n-` block per row.
std::string show_string(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                        int truncate, bool vertical, const std::string& time_zone);

/// Renders rows the way Spark's `Dataset.htmlString` does, for the eager-evaluation
/// `_repr_html_` of notebooks: an HTML table of the cells `show_string` would print (same
/// truncation, no padding), HTML-escaped, and the "only showing top N rows" footer when
/// `batches` hold more than `num_rows` rows. Every line ends with a newline.
std::string html_string(const Schema& schema, const std::vector<Batch>& batches, int num_rows,
                        int truncate, const std::string& time_zone);

/// The text of one cell as `show` prints it (before truncation and padding).
std::string show_cell(const Column& column, int64_t row, const std::string& time_zone);

}  // namespace ember::exec
