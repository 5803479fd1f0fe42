#pragma once

namespace ember::cli {

/// `ember demo [path.csv]`: the main job on the embedded engine — reads the sales CSV with
/// header and schema inference, aggregates amount by region and product, orders the result,
/// and prints it with its timing and physical plan.
int run_demo(int argc, char** argv);

}  // namespace ember::cli
