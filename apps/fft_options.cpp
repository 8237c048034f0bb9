#include "fft_options.hpp"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <a2afft/error.hpp>
#include <a2afft/tools/fft_tools.hpp>

namespace a2afft::commands {

void FftRunOptions::add_to(CLI::App& command) {
  command
      .add_option("--engine", engines,
                  "Engines: a2afft, fftw-mpi, fftw (FFTW's serial plan of the whole array: "
                  "fft3d and fft2d on one rank), comma list")
      ->delimiter(',')
      ->capture_default_str();
  command
      .add_option("--rigor", rigor,
                  "FFTW planning: estimate, measure or patient. measure times FFTW's candidates "
                  "at plan time, once per shape and machine when --wisdom keeps them (docs/"
                  "commands.md, Planning and wisdom, says what it costs); estimate plans at once "
                  "from FFTW's heuristics, in shapes a2afft chose for them (their compute ran "
                  "1.0-1.6x the measured plans' at 128^3 and 256^3)")
      ->capture_default_str();
  command
      .add_option("--arrays", arrays,
                  "Every engine's arrays: huge-pages (a2afft::allocate(), 2 MiB transparent huge "
                  "pages where the kernel gives them) or plain (the heap as std::vector and "
                  "fftw_malloc give it: 4 KiB pages under the kernel's default madvise mode)")
      ->capture_default_str();
  command
      .add_option("--order", order,
                  "interleaved: run i of every plan before run i+1, so slow spells hit all rows "
                  "alike; sequential: one plan at a time (least memory); auto: interleaved when "
                  "every plan fits in half the node's memory")
      ->capture_default_str();
  command.add_option("--iters", iterations, "Timed forward transforms")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  command.add_option("--warmup", warmup, "Untimed transforms first")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  command.add_flag("--backward", backward,
                   "Also time the backward transform (then the transpose/compute split is not "
                   "shown)");
  command.add_flag(
      "--roofline", roofline,
      "Measure memcpy's bandwidth (one core alone, all cores at once; GB/s of bytes read + "
      "written) and FFTW's in-cache GFlop/s first, then give each a2afft row its passes over "
      "memory, bytes moved per rank, and the lower bound max(bytes / bandwidth of all cores "
      "at once, flops / FFTW's rate): the max, because a perfect overlap of copies and "
      "arithmetic would reach it and nothing can beat it");
  command
      .add_option("--tolerance", tolerance,
                  "Largest relative error that passes (round trip and vs fftw-mpi); default 1e-12 "
                  "for double, 5e-4 for float")
      ->check(CLI::NonNegativeNumber);
  command
      .add_option("--wisdom", wisdom_path,
                  "FFTW wisdom, read before planning and written after, so later runs of the same "
                  "shapes skip the measuring and run the same plans: cache (this machine's cache, "
                  "one file per host and FFTW version, float's beside it with .fftwf: "
                  "$A2AFFT_WISDOM_DIR, else $XDG_CACHE_HOME/a2afft, else ~/.cache/a2afft), none "
                  "(plan from scratch every run), or a FILE. The header says whether it was "
                  "loaded")
      ->capture_default_str();
  command.add_option(
      "--threads", threads,
      "Threads per rank of the a2afft rows (OpenMP; PlanOptions::threads), at least 1: each "
      "sweep's planes are split across them, with the same bits as one thread. A list (1,2) "
      "runs a set of rows per count; auto times 1, 2, 4, ... up to the cores each rank has and "
      "keeps the fastest (timed_threads; with --grid auto, every grid with every count; the "
      "exchange column names the winner). Default: OMP_NUM_THREADS (its first number) when "
      "set, else 1. The header, CSV and JSON name each row's split as ranks x threads; fftw-mpi "
      "rows plan with as many FFTW threads (FFTW's Combining MPI and Threads; under auto, one "
      "row per count a2afft times), fftw rows run on one. Bind threaded runs so that a rank's "
      "threads have cores: mpirun --bind-to none, or --map-by slot:PE=N");
  command.add_option("--json", json_path, "Also write the results as JSON to FILE");
  command.add_option("--csv", csv_path, "Also write the results as CSV to FILE");
}

namespace {

// A count of threads >= 1 in `text`, else 0.
int positive_count(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  return std::stoi(text);
}

}  // namespace

namespace {

// "1,2": distinct counts >= 1 read from `text`; an empty list for anything else.
std::vector<int> count_list(const std::string& text) {
  std::vector<int> counts;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const int count = positive_count(text.substr(begin, comma - begin));
    if (count < 1 || std::find(counts.begin(), counts.end(), count) != counts.end()) return {};
    counts.push_back(count);
    begin = comma + 1;
  }
  return counts;
}

}  // namespace

std::vector<int> FftRunOptions::thread_counts() const {
  if (threads == "auto") return {timed_threads};
  if (!threads.empty()) {
    std::vector<int> counts = count_list(threads);
    if (counts.empty()) {
      throw UsageError("--threads=" + threads +
                       " is not valid; expected the threads of each rank, an integer >= 1, a "
                       "list of distinct ones (1,2), or auto");
    }
    return counts;
  }
  const char* variable = std::getenv("OMP_NUM_THREADS");
  if (variable == nullptr || *variable == '\0') return {1};
  // OpenMP's list form (4,2: nested levels): the first level is the rank's.
  const std::string text(variable);
  const int count = positive_count(text.substr(0, text.find(',')));
  if (count < 1) {
    throw UsageError("OMP_NUM_THREADS=" + text +
                     " (the default of --threads) is not valid; expected the threads of each "
                     "rank, an integer >= 1; set it so, or pass --threads");
  }
  return {count};
}

std::string split_text(int ranks, int threads) {
  const std::string rank_text = std::to_string(ranks) + (ranks == 1 ? " rank x " : " ranks x ");
  if (threads == timed_threads) return rank_text + "timed threads";
  return rank_text + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

std::string split_text(int ranks, const std::vector<int>& counts) {
  if (counts.size() == 1) return split_text(ranks, counts.front());
  std::string list;
  for (const int count : counts)
    list += (list.empty() ? "" : ", ") + std::to_string(count);
  return std::to_string(ranks) + (ranks == 1 ? " rank x " : " ranks x ") + list + " threads";
}

std::vector<int> reference_thread_counts(const std::vector<int>& counts, MPI_Comm comm) {
  return counts == std::vector<int>{timed_threads} ? timed_thread_counts(comm) : counts;
}

// mpirun binds a rank to one core by default (Open MPI at 2 ranks or fewer): then the threads
// take turns on it, and the reader must know that the split was not the one asked for.
std::string binding_note(const std::vector<int>& counts) {
  const int threads = *std::max_element(counts.begin(), counts.end());
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (threads <= 1 || sched_getaffinity(0, sizeof(cpus), &cpus) != 0) return "";
  const int cores = CPU_COUNT(&cpus);
  if (cores >= threads) return "";
  return " (rank 0 is bound to " + std::to_string(cores) + (cores == 1 ? " core" : " cores") +
         ": its threads share it; mpirun --bind-to none or --map-by slot:PE=" +
         std::to_string(threads) + ")";
}

void add_kind_option(CLI::App& command, std::string& kind) {
  command
      .add_option("--kind", kind,
                  "c2c, or r2c: real input, n2/2+1 complex outputs along the last dimension "
                  "(FFTW's convention), so each transpose moves about half the bytes")
      ->capture_default_str();
}

void add_axes_option(CLI::App& command, std::string& transforms) {
  command.add_option(
      "--transforms", transforms,
      "What each axis does, slowest first, comma-separated: dft, r2c (the last axis only), "
      "dct1..dct4, dst1..dst4 (FFTW's REDFT00..RODFT11: DCT-I..IV, DST-I..IV) or none; e.g. "
      "dct2,dft,r2c for a channel flow. Default: every axis dft (the last r2c with --kind r2c). "
      "Cosine and sine axes alone make a real-to-real (r2r) transform; GFlop/s count 2.5 N log2 N "
      "for real data (benchFFT's convention), N the points of the transformed axes");
}

void add_padding_option(CLI::App& command, std::string& padding) {
  command.add_option(
      "--padding", padding,
      "Padded (dealiased) transforms, as mpi4py-fft's padding: a factor for every axis (1.5 for "
      "the 3/2 rule) or one per axis, slowest first (1.5,1.5,1); dft and r2c axes only. --size "
      "is then the spectrum's modes and the physical grid has floor(size x factor) points: "
      "forward truncates the padded grid to the modes, backward pads them with zeros. The "
      "transposes move only the modes (the exchanged [MiB] column, next to the padded grid's "
      "unpadded transform in the header). GFlop/s count the padded grid; the check is "
      "forward(backward(X)) = points x X for the forward output X. Default: none");
}

std::vector<double> parse_padding(const std::string& text, std::size_t axes) {
  const std::string valid =
      "; expected a factor >= 1 for every axis (e.g. 1.5) or one per axis, "
      "comma-separated (e.g. 1.5,1.5,1)";
  std::vector<double> factors;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    std::size_t used = 0;
    double factor = 0;
    try {
      factor = std::stod(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (word.empty() || used != word.size() || !std::isfinite(factor) || factor < 1) {
      throw UsageError("--padding=" + text + " is not valid: '" + word + "' is not a number >= 1" +
                       valid);
    }
    factors.push_back(factor);
    start = comma + 1;
  }
  if (axes == 0) return factors;  // the numbers only, before the array is known
  if (factors.size() == 1) factors.assign(axes, factors.front());
  if (factors.size() != axes) {
    throw UsageError("--padding=" + text + " names " + std::to_string(factors.size()) +
                     " axes but the array has " + std::to_string(axes) + valid);
  }
  return factors;
}

void add_transform_options(CLI::App& command, std::string& precision, std::size_t& batch) {
  command.add_option("--precision", precision, "double or float (FFTW's fftw_ or fftwf_)")
      ->capture_default_str();
  command
      .add_option("--batch", batch,
                  "Fields transformed together, interleaved (e.g. 3 velocity components): one "
                  "exchange per transpose moves all of them")
      ->capture_default_str();
}

// `n` (a square) or `n0xn1`, as the 3D shape {1, n0, n1}; errors name the 2D text.
std::array<std::size_t, 3> parse_shape_2d(const std::string& text) {
  const bool square = text.find('x') == std::string::npos;
  if (!square && text.find('x') != text.rfind('x')) {
    throw UsageError("--size=" + text + " is not valid; expected n or n0xn1");
  }
  try {
    const std::array<std::size_t, 3> shape =
        parse_shape("1x" + (square ? text + "x" + text : text));
    return shape;
  } catch (const UsageError&) {
    throw UsageError("--size=" + text +
                     " is not valid; expected n or n0xn1 with sizes of at least 1");
  }
}

BenchmarkTransform parse_transform(const std::string& kind, const std::string& precision,
                                   std::size_t batch, const std::string& transforms,
                                   const std::vector<std::size_t>& sizes,
                                   const std::string& padding) {
  BenchmarkTransform transform;
  if (kind == "r2c") {
    transform.kind = Kind::r2c;
  } else if (kind != "c2c") {
    throw UsageError("--kind=" + kind + " is not valid; expected c2c or r2c");
  }
  if (!transforms.empty()) {
    try {
      transform.axes = parse_axis_kinds(transforms);
      const Kind made = kind_of_axes(transform.axes, sizes);
      if (transform.kind != Kind::c2c && transform.kind != made) {
        throw UsageError("--kind=" + kind + " does not fit them; leave --kind out");
      }
      transform.kind = made;
    } catch (const UsageError& error) {
      throw UsageError("--transforms=" + transforms + ": " + error.what());
    }
  }
  if (precision == "float") {
    transform.precision = Precision::single_precision;
  } else if (precision != "double") {
    throw UsageError("--precision=" + precision + " is not valid; expected double or float");
  }
  if (batch == 0) {
    throw UsageError("--batch=0 is not valid; expected the number of fields, at least 1");
  }
  transform.batch = batch;
  if (!padding.empty()) {
    transform.padding = parse_padding(padding, sizes.size());
    try {
      check_padding(transform, sizes);
    } catch (const UsageError& error) {
      throw UsageError("--padding=" + padding + ": " + error.what());
    }
  }
  return transform;
}

Engines parse_engines(const std::vector<std::string>& engines) {
  Engines which;
  for (const std::string& engine : engines) {
    if (engine == "a2afft") {
      which.ours = true;
    } else if (engine == "fftw-mpi") {
      if (!A2AFFT_HAVE_FFTW_MPI)
        throw UsageError("--engine=fftw-mpi is not in this build: " A2AFFT_FFTW_MPI_WHY);
      which.fftw_mpi = true;
    } else if (engine == "fftw") {
      which.fftw_serial = true;
    } else {
      throw UsageError("--engine=" + engine + " is not valid; expected a2afft, fftw-mpi or fftw");
    }
  }
  return which;
}

}  // namespace a2afft::commands
