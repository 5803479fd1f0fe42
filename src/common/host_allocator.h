#pragma once

namespace ember {

/// Sets the process's malloc to keep freed blocks of up to 32 MiB in its arenas for reuse, to
/// return arena memory to the system only past 256 MiB free at the top, and to keep the heaps of
/// its per-thread arenas once made (a top pad of a whole heap). glibc's defaults map every large
/// block afresh (a threshold that only grows as mapped blocks are freed), trim arenas eagerly
/// and unmap a thread arena's heap as soon as it is free, so each query's column buffers and
/// encoded results would touch new pages, which the kernel zeroes first. What is kept goes back
/// with `release_free_host_memory`. Called once at start-up by the executables.
void tune_host_allocator();

/// Returns the free memory of every malloc arena to the system (the pages stay reserved, not
/// backed); a server calls it once it has been idle for a while.
void release_free_host_memory();

}  // namespace ember
