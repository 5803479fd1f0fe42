// A mutation fuzz driver for compilers without libFuzzer (GCC): it takes libFuzzer's command
// line shape — corpus directories or files, -max_total_time=S, -seed=N, -runs=N,
// -artifact_prefix=P — and calls LLVMFuzzerTestOneInput on inputs mutated from the corpus
// (bit flips, byte changes, insertions and deletions of bytes and of format tokens, splices of
// two inputs, truncation). It is blind to coverage, so it explores less than libFuzzer; the
// sanitizers of the build catch what goes wrong. The input being run is written to
// <artifact_prefix>crash-<n> when the process dies (sanitizer report, signal, abort; GCC's
// UBSan runtime reaches the signal handler only with UBSAN_OPTIONS=abort_on_error=1, which
// `make fuzz` sets).

#include <sanitizer/common_interface_defs.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> g_current;
std::string g_prefix = "./";
uint64_t g_run = 0;

void save_current() {
  std::string path = g_prefix + "crash-" + std::to_string(g_run);
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    if (!g_current.empty()) std::fwrite(g_current.data(), 1, g_current.size(), f);
    std::fclose(f);
    std::fprintf(stderr, "fuzz: input of run %llu written to %s\n",
                 static_cast<unsigned long long>(g_run), path.c_str());
  }
}

void on_signal(int sig) {
  save_current();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Bytes that matter to the readers' grammars.
const char* const kTokens[] = {",", "\"", "'", "\n", "\r\n", "\\", "{", "}", "[", "]", ":",
                               "null", "true", "1e308", "-0", "NaN", "\xef\xbb\xbf", "\xff\xfe",
                               "PAR1", "\x00\x00\x00\x00", "\xff\xff\xff\x7f", "2024-02-29",
                               "9999999999999999999999", "\xc3\xa9", "#", "\t"};

void mutate(std::vector<uint8_t>& x, const std::vector<std::vector<uint8_t>>& corpus,
            std::mt19937_64& rng) {
  int steps = 1 + static_cast<int>(rng() % 4);
  for (int s = 0; s < steps; ++s) {
    size_t n = x.size();
    switch (rng() % 8) {
      case 0:  // flip a bit
        if (n) x[rng() % n] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // set a byte
        if (n) x[rng() % n] = static_cast<uint8_t>(rng());
        break;
      case 2:  // delete a range
        if (n) {
          size_t at = rng() % n, len = 1 + rng() % std::min<size_t>(n - at, 16);
          x.erase(x.begin() + static_cast<long>(at), x.begin() + static_cast<long>(at + len));
        }
        break;
      case 3: {  // insert a token
        const char* t = kTokens[rng() % (sizeof kTokens / sizeof kTokens[0])];
        size_t len = std::strlen(t) == 0 ? 1 : std::strlen(t);
        size_t at = n ? rng() % (n + 1) : 0;
        x.insert(x.begin() + static_cast<long>(at), t, t + len);
        break;
      }
      case 4: {  // duplicate a range
        if (n) {
          size_t at = rng() % n, len = 1 + rng() % std::min<size_t>(n - at, 64);
          std::vector<uint8_t> piece(x.begin() + static_cast<long>(at),
                                     x.begin() + static_cast<long>(at + len));
          size_t to = rng() % (n + 1);
          x.insert(x.begin() + static_cast<long>(to), piece.begin(), piece.end());
        }
        break;
      }
      case 5: {  // splice with another input
        const auto& other = corpus[rng() % corpus.size()];
        if (!other.empty() && n) {
          size_t cut = rng() % n, from = rng() % other.size();
          x.resize(cut);
          x.insert(x.end(), other.begin() + static_cast<long>(from), other.end());
        }
        break;
      }
      case 6:  // truncate
        if (n) x.resize(rng() % n);
        break;
      default:  // overwrite an aligned 4-byte word with an interesting value
        if (n >= 4) {
          static const uint32_t kValues[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 255, 256};
          uint32_t v = kValues[rng() % 7];
          std::memcpy(&x[(rng() % (n / 4)) * 4], &v, 4);
        }
        break;
    }
  }
  if (x.size() > (1u << 20)) x.resize(1u << 20);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  uint64_t seed = 1, max_runs = UINT64_MAX;
  std::vector<std::vector<uint8_t>> corpus;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("-max_total_time=", 0) == 0) {
      seconds = std::atof(a.c_str() + 16);
    } else if (a.rfind("-seed=", 0) == 0) {
      seed = std::strtoull(a.c_str() + 6, nullptr, 10);
    } else if (a.rfind("-runs=", 0) == 0) {
      max_runs = std::strtoull(a.c_str() + 6, nullptr, 10);
    } else if (a.rfind("-artifact_prefix=", 0) == 0) {
      g_prefix = a.substr(17);
    } else if (a.rfind("-", 0) == 0) {
      // Other libFuzzer flags mean nothing here.
    } else if (std::filesystem::is_directory(a)) {
      for (auto& e : std::filesystem::directory_iterator(a))
        if (e.is_regular_file()) corpus.push_back(read_file(e.path()));
    } else if (std::filesystem::exists(a)) {
      corpus.push_back(read_file(a));
    }
  }
  if (corpus.empty()) corpus.push_back({});
  __sanitizer_set_death_callback(save_current);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_signal);
  std::mt19937_64 rng(seed);
  auto start = std::chrono::steady_clock::now();
  // The corpus as it is first, then mutations of it.
  for (auto& c : corpus) {
    g_current = c;
    LLVMFuzzerTestOneInput(g_current.data(), g_current.size());
    ++g_run;
  }
  while (g_run < max_runs) {
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed >= seconds) break;
    g_current = corpus[rng() % corpus.size()];
    mutate(g_current, corpus, rng);
    LLVMFuzzerTestOneInput(g_current.data(), g_current.size());
    ++g_run;
    if ((g_run & 1023) == 0)
      std::fprintf(stderr, "fuzz: %llu runs, %.0f s\n", static_cast<unsigned long long>(g_run),
                   elapsed);
  }
  std::fprintf(stderr, "fuzz: done, %llu runs without a finding\n",
               static_cast<unsigned long long>(g_run));
  return 0;
}
