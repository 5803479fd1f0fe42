#pragma once

namespace ember {

/// Sets the process's malloc to keep freed blocks of up to 32 MiB in its arenas for reuse and to
/// return arena memory to the system only past 256 MiB free at the top. glibc's defaults map
/// every large block afresh (a threshold that only grows as mapped blocks are freed) and trim
/// arenas eagerly, so each batch's column buffers and each join's tables would touch new pages,
/// which the kernel zeroes first. Called once at start-up by the executables.
void tune_host_allocator();

}  // namespace ember
