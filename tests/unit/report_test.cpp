// The reporters: the console table, the JSON document and the CSV rows a command's results
// become, and the files' properties studies rely on (atomic JSON replace, CSV append).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error.hpp"
#include "report/console_reporter.hpp"
#include "report/context.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/osu_reporter.hpp"
#include "report/text_table.hpp"

namespace a2afft::report {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

// A fresh, empty directory per test.
fs::path scratch_directory() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path directory =
      fs::path(::testing::TempDir()) / (std::string("report_test.") + test->name());
  fs::remove_all(directory);
  fs::create_directories(directory);
  return directory;
}

Header header() {
  RunContext context;
  context.command = "a2afft alltoall";
  context.ranks = 4;
  context.hosts = {"vm"};
  return {context, "3 timed runs", {{"iterations", 3}}};
}

std::vector<AlltoallRow> alltoall_rows() {
  AlltoallRow vendor{16, "mpi", "mpi", 2e-6, 1e-6, 3e-6, "PASS", "", {{"alltoall", 1.5e-6}}};
  AlltoallRow nested{16,
                     "node-aware:inner=(tra2:r1=2,r2=2)",
                     "node-aware(inner=tra2(r1=2,r2=2))",
                     1e-3,
                     5e-4,
                     2e-3,
                     "FAIL",
                     "rank 1, wrong data",
                     {{"inter", 4e-4}, {"gather", 1e-4}}};
  return {vendor, nested};
}

FftRow fft_row(std::string engine, std::string exchange, bool has_split) {
  FftRow row;
  row.engine = std::move(engine);
  row.exchange = std::move(exchange);
  row.total = {2e-3, 1e-3, 3e-3};
  row.transpose = {1e-3, 1e-3, 1e-3};
  row.compute = {5e-4, 5e-4, 5e-4};
  row.has_split = has_split;
  row.gflops = 12.5;
  row.round_trip_error = 4e-16;
  row.round_trip_absolute_error = 5e-16;
  return row;
}

TEST(ConsoleReporter, prints_the_context_once_then_an_aligned_table) {
  std::ostringstream out;
  ConsoleReporter console(out);
  console.report_context(header());
  console.report_runs(alltoall_rows());
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 8u) << out.str();  // 3 context lines, settings, header, 2 rows, FAIL
  EXPECT_EQ(lines[3], "# 3 timed runs");
  const std::string& head = lines[4];
  // The node-aware family's phases in [node-aware-2025]'s order, then the rest; a check column.
  EXPECT_LT(head.find("gather [us]"), head.find("inter [us]"));
  EXPECT_LT(head.find("inter [us]"), head.find("alltoall [us]"));
  EXPECT_NE(head.find("vs mpi"), std::string::npos);
  EXPECT_EQ(head.substr(head.size() - 5), "check");
  // Numbers are right-aligned: each ends where its header ends.
  const std::size_t median_end = head.find("median [us]") + std::string("median [us]").size();
  EXPECT_EQ(lines[5].substr(0, median_end).substr(median_end - 4), "2.00");
  EXPECT_EQ(lines[6].substr(0, median_end).substr(median_end - 7), "1000.00");
  EXPECT_NE(lines[6].find("500.00x"), std::string::npos) << lines[6];
  EXPECT_EQ(lines[7], "FAIL node-aware(inner=tra2(r1=2,r2=2)) at 16 B: rank 1, wrong data");
}

// A describe() with a multi-byte character (auto's arrow) takes as many columns as it has
// characters, so the cells after it still line up.
TEST(TextTable, pads_by_characters_not_bytes) {
  TextTable table({{"exchange"}, {"median [us]", true}});
  table.add_row({"auto\u2192tra(radix=2)", "1.00"});
  table.add_row({"pairwise", "2.00"});
  std::ostringstream out;
  table.print(out);
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "auto\u2192tra(radix=2)" + std::string(9, ' ') + "1.00");
  EXPECT_EQ(lines[2], "pairwise" + std::string(18, ' ') + "2.00");
}

TEST(ConsoleReporter, fft_rows_show_a_split_only_where_one_was_recorded) {
  std::ostringstream out;
  ConsoleReporter console(out, "exchange (row, column)");
  FftRow reference = fft_row("fftw-mpi", "fftw_mpi_plan_dft_3d", false);
  FftRow ours = fft_row("a2afft", "row=mpi,column=mpi", true);
  ours.fftw_mpi_error = 1e-15;
  ours.passed = false;
  console.report_runs(std::vector<FftRow>{reference, ours});
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_EQ(lines[0].find("exchange (row, column)"), lines[1].find("fftw_mpi_plan_dft_3d"));
  EXPECT_EQ(lines[0].find("backward"), std::string::npos);
  EXPECT_NE(
      lines[1].find("2.000     1.000     3.000   1.50x               -             -    12.50"),
      std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find("1.000         0.500"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[2].substr(lines[2].size() - 13), "1.0e-15  FAIL");
}

// Numbers from scripts/cluster's namespaces must not pass for a cluster's: the hosts line says
// so, and only then.
TEST(Context, the_hosts_line_marks_emulated_hosts_and_only_them) {
  RunContext context = header().context;
  context.hosts = {"nodea", "nodeb"};
  for (const bool emulated : {false, true}) {
    context.emulated_hosts = emulated;
    std::ostringstream out;
    print_context(out, context);
    const std::string hosts_line = lines_of(out.str()).at(2);
    EXPECT_EQ(hosts_line.substr(hosts_line.find("hosts: ")),
              emulated ? "hosts: nodea, nodeb (emulated hosts: UTS namespaces on one machine)"
                       : "hosts: nodea, nodeb");
    EXPECT_EQ(to_json(context)["emulated_hosts"], emulated);
  }
}

// Times from SimGrid must not pass for a machine's either: a simulated context has its own line
// under the hosts and its JSON says so; a real one has neither line nor text.
TEST(Context, a_simulated_run_says_so_under_the_hosts_and_in_json) {
  RunContext context = header().context;
  const std::string simulated = "SimGrid 3.32.0 SMPI, platform test-cluster, 64 ranks, 16 per node";
  for (const std::string& text : {std::string(), simulated}) {
    context.simulated = text;
    std::ostringstream out;
    print_context(out, context);
    const std::vector<std::string> lines = lines_of(out.str());
    const bool marked = lines.size() > 3 && lines[3] == "# simulated: " + simulated;
    EXPECT_EQ(marked, !text.empty()) << out.str();
    EXPECT_EQ(to_json(context)["simulated"], text);
  }
  // This build is real or simulated by its compiler, not by anything a run sets.
  EXPECT_EQ(simulated_description().empty(), !A2AFFT_SMPI);
}

// Issue 46: an `mpi` row forced to one algorithm through the environment must say so beside its
// numbers. The collector picks out exactly the collective and SimGrid settings of a made-up
// environment; the rest (the tests' own MPIR_CVAR_POLLS_BEFORE_YIELD, an OMPI_MCA_ that is not
// coll, a PATH, an entry without '=') is left out.
TEST(Context, reports_the_collective_settings_of_the_environment_and_no_others) {
  const std::vector<std::string> entries = {"PATH=/usr/bin",
                                            "OMPI_MCA_coll_tuned_use_dynamic_rules=1",
                                            "OMPI_MCA_coll_tuned_alltoall_algorithm=2",
                                            "OMPI_MCA_rmaps_base_oversubscribe=1",
                                            "OMPI_MCA_coll=^hcoll",
                                            "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM=pairwise",
                                            "MPIR_CVAR_IALLTOALL_INTRA_ALGORITHM=auto",
                                            "MPIR_CVAR_POLLS_BEFORE_YIELD=1",
                                            "I_MPI_ADJUST_ALLTOALL=2",
                                            "I_MPI_ADJUST_ALLTOALLV=1",
                                            "I_MPI_ADJUST_ALLREDUCE=3",
                                            "SMPI_PRETEND_CC=1",
                                            "A2AFFT_SIMULATED=platform x, 4 ranks",
                                            "A2AFFT_SIMULATED_EXTRA=no",
                                            "NOEQUALSIGN",
                                            "OMPI_MCA_coll_tuned_alltoall_segmentsize=a=b"};
  const std::map<std::string, std::string> expected = {
      {"I_MPI_ADJUST_ALLTOALL", "2"},
      {"I_MPI_ADJUST_ALLTOALLV", "1"},
      {"MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM", "pairwise"},
      {"MPIR_CVAR_IALLTOALL_INTRA_ALGORITHM", "auto"},
      {"OMPI_MCA_coll", "^hcoll"},
      {"OMPI_MCA_coll_tuned_alltoall_algorithm", "2"},
      {"OMPI_MCA_coll_tuned_alltoall_segmentsize", "a=b"},
      {"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}};
  EXPECT_EQ(reported_environment(entries), expected);
  EXPECT_TRUE(reported_environment({"PATH=/usr/bin", "MPIR_CVAR_POLLS_BEFORE_YIELD=1"}).empty());
  EXPECT_EQ(environment_text({{"B", "2"}, {"A", "1"}}, ";"), "A=1;B=2");
  EXPECT_EQ(environment_text({}, ";"), "");
}

// The settings go in the console's header (one line, only when any is set) and in the JSON
// context (an object, empty when none is set, so the schema does not depend on the machine).
TEST(Context, prints_the_environment_line_only_when_a_setting_is_set) {
  RunContext context = header().context;
  for (const bool set : {false, true}) {
    context.environment.clear();
    if (set) {
      context.environment = {{"OMPI_MCA_coll_tuned_alltoall_algorithm", "2"},
                             {"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}};
    }
    std::ostringstream out;
    print_context(out, context);
    const std::vector<std::string> lines = lines_of(out.str());
    const std::string line =
        "# environment: OMPI_MCA_coll_tuned_alltoall_algorithm=2, "
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1";
    EXPECT_EQ(std::count(lines.begin(), lines.end(), line), set ? 1 : 0) << out.str();
    EXPECT_EQ(out.str().find("# environment"), set ? out.str().find(line) : std::string::npos);
    const nlohmann::json json = to_json(context);
    ASSERT_TRUE(json["environment"].is_object());
    EXPECT_EQ(json["environment"].size(), set ? 2u : 0u);
    if (set) {
      EXPECT_EQ(json["environment"]["OMPI_MCA_coll_tuned_alltoall_algorithm"], "2");
    }
  }
}

TEST(JsonReporter, writes_context_settings_and_every_field_of_the_rows) {
  const fs::path path = scratch_directory() / "alltoall.json";
  JsonReporter json(path.string());
  json.report_context(header());
  json.report_runs(alltoall_rows());
  const nlohmann::json document = nlohmann::json::parse(read(path));
  EXPECT_EQ(document["context"]["command"], "a2afft alltoall");
  EXPECT_EQ(document["context"]["ranks"], 4);
  EXPECT_EQ(document["settings"]["iterations"], 3);
  ASSERT_EQ(document["results"].size(), 2u);
  const nlohmann::json& nested = document["results"][1];
  EXPECT_EQ(nested["block_bytes"], 16);
  EXPECT_EQ(nested["spec"], "node-aware:inner=(tra2:r1=2,r2=2)");
  EXPECT_EQ(nested["exchange"], "node-aware(inner=tra2(r1=2,r2=2))");
  EXPECT_EQ(nested["median_seconds"], 1e-3);
  EXPECT_EQ(nested["check"], "FAIL");
  EXPECT_EQ(nested["phase_median_seconds"]["inter"], 4e-4);

  FftRow row = fft_row("a2afft", "tra(radix=2)", true);
  EXPECT_FALSE(to_json(row).contains("fftw_mpi_error"));
  EXPECT_FALSE(to_json(row).contains("backward"));
  row.fftw_mpi_error = 2e-16;
  row.backward_total = Summary{4e-3, 3e-3, 5e-3};
  const nlohmann::json item = to_json(row);
  for (const char* key :
       {"engine", "exchange", "total", "transpose", "compute", "gflops", "round_trip_error",
        "round_trip_absolute_error", "fftw_mpi_error", "backward", "check"}) {
    EXPECT_TRUE(item.contains(key)) << key;
  }
  EXPECT_EQ(
      item["total"],
      (nlohmann::json{{"median_seconds", 2e-3}, {"min_seconds", 1e-3}, {"max_seconds", 3e-3}}));
  EXPECT_EQ(item["check"], "PASS");
}

TEST(JsonFile, replaces_atomically_and_keeps_the_old_file_when_writing_fails) {
  const fs::path directory = scratch_directory();
  const std::string path = (directory / "results.json").string();
  write_json_file(path, nlohmann::json{{"run", 1}});
  write_json_file(path, nlohmann::ordered_json{{"run", 2}, {"after", true}});
  EXPECT_EQ(read(path), "{\n  \"run\": 2,\n  \"after\": true\n}\n");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  // The temporary cannot be made: the old file stays whole and the error names the path.
  fs::create_directory(path + ".tmp");
  try {
    write_json_file(path, nlohmann::json{{"run", 3}});
    FAIL() << "a write that could not happen passed";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(path + " could not be written"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(nlohmann::json::parse(read(path))["run"], 2);
}

TEST(Csv, quotes_only_fields_that_need_it) {
  EXPECT_EQ(csv_field("tra(radix=4)"), "tra(radix=4)");
  EXPECT_EQ(csv_field("tra2:r1=2,r2=4"), "\"tra2:r1=2,r2=4\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field(""), "");
}

// The lines a CsvReporter writes for `rows`.
template <typename Row>
std::vector<std::string> csv_lines(const std::vector<Row>& rows) {
  const fs::path path = scratch_directory() / "rows.csv";
  CsvReporter(path.string()).report_runs(rows);
  return lines_of(read(path));
}

TEST(CsvReporter, alltoall_rows_have_a_column_per_phase_and_quoted_specs) {
  const std::vector<std::string> expected = {
      "block_bytes,spec,exchange,median_s,min_s,max_s,spread,unstable,gather_median_s,"
      "inter_median_s,alltoall_median_s,check",
      "16,mpi,mpi,2e-06,1e-06,3e-06,1.5,,,,1.5e-06,PASS",
      "16,\"node-aware:inner=(tra2:r1=2,r2=2)\",\"node-aware(inner=tra2(r1=2,r2=2))\","
      "0.001,0.0005,0.002,2,,0.0001,0.0004,,FAIL"};
  EXPECT_EQ(csv_lines(alltoall_rows()), expected);
}

// alltoall --roofline: every reporter adds the copy bound where a row has one (P > 1) and a
// blank where it has none; without the flag no reporter shows it (the tests above).
TEST(Reporters, alltoall_copy_bound_columns_only_with_a_roofline) {
  std::vector<AlltoallRow> rows = alltoall_rows();
  rows[0].copy_bound = CopyBoundCells{1048576, 5e-5};  // 1 MiB off-rank, bound 50 us
  const std::vector<std::string> csv = csv_lines(rows);
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(csv[0],
            "block_bytes,spec,exchange,median_s,min_s,max_s,spread,unstable,gather_median_s,"
            "inter_median_s,alltoall_median_s,check,off_rank_bytes_per_rank,copy_bound_s");
  EXPECT_EQ(csv[1], "16,mpi,mpi,2e-06,1e-06,3e-06,1.5,,,,1.5e-06,PASS,1048576,5e-05");
  EXPECT_EQ(csv[2].substr(csv[2].size() - 7), ",FAIL,,");
  EXPECT_EQ(to_json(rows[0])["copy_bound"],
            (nlohmann::json{{"off_rank_bytes_per_rank", 1048576}, {"bound_seconds", 5e-5}}));
  EXPECT_FALSE(to_json(rows[1]).contains("copy_bound"));
  std::ostringstream out;
  ConsoleReporter(out).report_runs(rows);
  const std::vector<std::string> lines = lines_of(out.str());
  EXPECT_NE(lines[0].find("vs mpi  GB/s off-rank  copy bound [us]  vs bound"), std::string::npos)
      << lines[0];
  // 1 MiB in the 2 us median: 524.29 GB/s; 2 us against a 50 us bound: 0.04x.
  EXPECT_NE(lines[1].find("1.00x         524.29            50.00     0.04x"), std::string::npos)
      << lines[1];
}

TEST(CsvReporter, fft_rows_have_the_documented_header) {
  FftRow ours = fft_row("a2afft", "row=tra(radix=2),column=mpi", true);
  ours.fftw_mpi_error = 3e-16;
  const std::vector<FftRow> rows = {fft_row("fftw-mpi", "fftw_mpi_plan_dft_1d", false), ours};
  const std::vector<std::string> lines = csv_lines(rows);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "engine,exchange,total_median_s,total_min_s,total_max_s,spread,unstable,"
            "transpose_median_s,compute_median_s,gflops,round_trip_error,fftw_mpi_error,check");
  EXPECT_EQ(lines[1],
            "fftw-mpi,fftw_mpi_plan_dft_1d,0.002,0.001,0.003,1.5,,0.001,0.0005,12.5,4e-16,,PASS");
  EXPECT_EQ(lines[2],
            "a2afft,\"row=tra(radix=2),column=mpi\",0.002,0.001,0.003,1.5,,0.001,0.0005,12.5,"
            "4e-16,3e-16,PASS");
}

TEST(Spread, is_the_max_over_the_median_and_marks_rows_past_three) {
  EXPECT_DOUBLE_EQ(spread(2e-3, 3e-3), 1.5);
  EXPECT_DOUBLE_EQ(spread(0, 3e-3), 0);
  EXPECT_EQ(unstable_reason(1e-3, 3e-3, "ms"), "");  // exactly 3x is still stable
  EXPECT_EQ(unstable_reason(9758e-6, 322886e-6, "us"),
            "max 322886.00 us is 33.1x the median (over 3x)");
  EXPECT_EQ(unstable_reason(2e-3, 7e-3, "ms"), "max 7.00 ms is 3.5x the median (over 3x)");
}

// --stats osu (issue 46): osu_alltoall -f's figures, by hand on four ranks' times of three runs
// (us): rank 0 {1, 2, 3}, rank 1 {4, 4, 4}, rank 2 {0.5, 1.5, 1}, rank 3 {10, 2, 6}. Each rank's
// mean is 2, 4, 1 and 6, so OSU's average is 13 / 4 = 3.25, its min 1 and its max 6; a2afft's
// own figure, the median over runs of the max over ranks (10, 4, 6), is 6.
TEST(Osu, the_figures_are_the_mean_min_and_max_over_ranks_of_each_ranks_mean) {
  const std::vector<std::vector<double>> rank_seconds = {
      {1e-6, 2e-6, 3e-6}, {4e-6, 4e-6, 4e-6}, {0.5e-6, 1.5e-6, 1e-6}, {10e-6, 2e-6, 6e-6}};
  std::vector<double> rank_means;
  for (const std::vector<double>& seconds : rank_seconds)
    rank_means.push_back(mean(seconds));
  const OsuSummary osu = osu_summary(rank_means, 3);
  EXPECT_DOUBLE_EQ(osu.avg_seconds, 3.25e-6);
  EXPECT_DOUBLE_EQ(osu.min_seconds, 1e-6);
  EXPECT_DOUBLE_EQ(osu.max_seconds, 6e-6);
  EXPECT_EQ(osu.runs, 3);
  std::vector<double> max_over_ranks(3, 0.0);
  for (const std::vector<double>& seconds : rank_seconds) {
    for (std::size_t run = 0; run < seconds.size(); ++run)
      max_over_ranks[run] = std::max(max_over_ranks[run], seconds[run]);
  }
  EXPECT_DOUBLE_EQ(summarize(max_over_ranks).median, 6e-6);
  EXPECT_DOUBLE_EQ(mean({}), 0.0);
  EXPECT_EQ(osu_summary({}, 3).runs, 0);
}

// The figures' columns come only with --stats osu, in every format, so other runs' files keep
// their header; a row without them (none in one run, but the reporters allow it) gets "-" or "".
TEST(Reporters, osu_columns_only_with_stats_osu) {
  std::vector<AlltoallRow> rows = alltoall_rows();
  const std::vector<std::string> plain = csv_lines(rows);
  EXPECT_EQ(plain[0].find("osu_"), std::string::npos);
  EXPECT_FALSE(to_json(rows[0]).contains("osu"));
  rows[0].osu = OsuSummary{3.25e-6, 1e-6, 6e-6, 3};
  std::ostringstream out;
  ConsoleReporter(out).report_runs(rows);
  const std::vector<std::string> lines = lines_of(out.str());
  const std::string& head = lines.at(0);
  EXPECT_LT(head.find("vs mpi"), head.find("osu avg [us]")) << head;
  EXPECT_LT(head.find("osu avg [us]"), head.find("osu min [us]")) << head;
  EXPECT_LT(head.find("osu min [us]"), head.find("osu max [us]")) << head;
  // Right-aligned under their headers, as every number column is.
  const auto ends_under = [&](const std::string& header, const std::string& cell) {
    const std::size_t end = head.find(header) + header.size();
    return lines.at(1).substr(end - cell.size(), cell.size()) == cell;
  };
  EXPECT_TRUE(ends_under("osu avg [us]", "3.25")) << out.str();
  EXPECT_TRUE(ends_under("osu min [us]", "1.00")) << out.str();
  EXPECT_TRUE(ends_under("osu max [us]", "6.00")) << out.str();
  const std::vector<std::string> csv = csv_lines(rows);
  EXPECT_NE(csv[0].find(",check,osu_avg_s,osu_min_s,osu_max_s"), std::string::npos) << csv[0];
  EXPECT_NE(csv[1].find(",PASS,3.25e-06,1e-06,6e-06"), std::string::npos) << csv[1];
  EXPECT_NE(csv[2].find(",FAIL,,,"), std::string::npos) << csv[2];
  const nlohmann::json osu = to_json(rows[0])["osu"];
  EXPECT_EQ(osu["avg_seconds"], 3.25e-6);
  EXPECT_EQ(osu["min_seconds"], 1e-6);
  EXPECT_EQ(osu["max_seconds"], 6e-6);
  EXPECT_EQ(osu["iterations"], 3);
}

// --stats osu on a split-phase row (issue 46): osu_ialltoall's figures, by hand on two ranks'
// means (us). Rank 0: pure comm 10, overall 14, compute 10, init 1, wait 3; rank 1: 12, 18, 12,
// 2, 4. Each figure is the mean over the ranks: pure comm 11, overall 16, compute 11, init 1.5,
// wait 3.5. What the compute did not hide is overall - compute = 5 of the 11 us of pure
// communication, so the overlap is 100 - 5 / 11 x 100 = 54.5454...%.
TEST(OsuOverlap, the_figures_are_means_over_ranks_and_the_overlap_is_osu_ialltoalls) {
  const std::vector<SplitPhaseRankSeconds> ranks = {{10e-6, 14e-6, 10e-6, 1e-6, 3e-6},
                                                    {12e-6, 18e-6, 12e-6, 2e-6, 4e-6}};
  const OsuOverlap figures = osu_overlap(ranks, 7);
  EXPECT_DOUBLE_EQ(figures.pure_comm_seconds, 11e-6);
  EXPECT_DOUBLE_EQ(figures.overall_seconds, 16e-6);
  EXPECT_DOUBLE_EQ(figures.compute_seconds, 11e-6);
  EXPECT_DOUBLE_EQ(figures.init_seconds, 1.5e-6);
  EXPECT_DOUBLE_EQ(figures.wait_seconds, 3.5e-6);
  EXPECT_NEAR(figures.overlap_percent, 100.0 - 500.0 / 11.0, 1e-9);
  EXPECT_EQ(figures.runs, 7);
}

// The overlap's ends: overall = compute (the compute hid all of it) is 100%; overall past
// compute + pure comm (the split cost more than it hid) is clamped to 0, as OSU's max(0, ...)
// (exactly compute + pure comm is 0 up to rounding);
// no pure communication is 0, where OSU would divide by zero; no ranks is all zeros.
TEST(OsuOverlap, full_none_clamped_and_empty) {
  EXPECT_DOUBLE_EQ(osu_overlap({{4e-6, 9e-6, 9e-6, 0, 0}}, 1).overlap_percent, 100.0);
  EXPECT_NEAR(osu_overlap({{4e-6, 13e-6, 9e-6, 0, 0}}, 1).overlap_percent, 0.0, 1e-9);
  EXPECT_DOUBLE_EQ(osu_overlap({{4e-6, 20e-6, 9e-6, 0, 0}}, 1).overlap_percent, 0.0);
  EXPECT_DOUBLE_EQ(osu_overlap({{0, 1e-6, 1e-6, 0, 0}}, 1).overlap_percent, 0.0);
  EXPECT_NEAR(osu_overlap({{4e-6, 11e-6, 9e-6, 0, 0}}, 1).overlap_percent, 50.0, 1e-9);
  EXPECT_EQ(osu_overlap({}, 3).runs, 0);
}

// The split-phase columns in every format: figures on a row that has them, and on a row without
// a split phase "-" (console, with the reason under the table), empty cells and the reason (CSV),
// and the reason alone (JSON).
TEST(Reporters, osu_ialltoall_columns_and_the_reason_a_row_has_none) {
  std::vector<AlltoallRow> rows = alltoall_rows();
  EXPECT_EQ(csv_lines(rows)[0].find("osu_overlap"), std::string::npos);
  rows[0].osu_overlap = OsuOverlap{16e-6, 11e-6, 11e-6, 1.5e-6, 3.5e-6, 54.5454, 7};
  rows[1].osu_overlap_none = "no split phase: because";
  std::ostringstream out;
  ConsoleReporter(out).report_runs(rows);
  const std::string console = out.str();
  const std::vector<std::string> lines = lines_of(console);
  const std::string& head = lines.at(0);
  EXPECT_LT(head.find("osu overall [us]"), head.find("osu compute [us]")) << head;
  EXPECT_LT(head.find("osu compute [us]"), head.find("osu pure comm [us]")) << head;
  EXPECT_LT(head.find("osu pure comm [us]"), head.find("osu overlap [%]")) << head;
  // Right-aligned under their headers; "-" on the row without a split phase.
  const auto cell_under = [&](std::size_t line, const std::string& header,
                              const std::string& cell) {
    const std::size_t end = head.find(header) + header.size();
    return lines.at(line).substr(end - cell.size(), cell.size()) == cell;
  };
  EXPECT_TRUE(cell_under(1, "osu overall [us]", "16.00")) << console;
  EXPECT_TRUE(cell_under(1, "osu compute [us]", "11.00")) << console;
  EXPECT_TRUE(cell_under(1, "osu pure comm [us]", "11.00")) << console;
  EXPECT_TRUE(cell_under(1, "osu overlap [%]", "54.55")) << console;
  EXPECT_TRUE(cell_under(2, "osu overlap [%]", " -")) << console;
  EXPECT_NE(
      console.find("no osu_ialltoall figures: " + rows[1].exchange + ": no split phase: because\n"),
      std::string::npos)
      << console;
  const std::vector<std::string> csv = csv_lines(rows);
  EXPECT_NE(csv[0].find(",osu_overall_s,osu_compute_s,osu_pure_comm_s,osu_init_s,osu_wait_s,"
                        "osu_overlap_percent,osu_no_overlap_because"),
            std::string::npos)
      << csv[0];
  EXPECT_NE(csv[1].find(",1.6e-05,1.1e-05,1.1e-05,1.5e-06,3.5e-06,54.5454,"), std::string::npos)
      << csv[1];
  EXPECT_NE(csv[2].find(",,,,,,,no split phase: because"), std::string::npos) << csv[2];
  const nlohmann::json split = to_json(rows[0])["osu_ialltoall"];
  EXPECT_EQ(split["overlap_percent"], 54.5454);
  EXPECT_EQ(split["pure_comm_seconds"], 11e-6);
  EXPECT_EQ(split["iterations"], 7);
  EXPECT_EQ(to_json(rows[1])["osu_ialltoall_none"], "no split phase: because");
  EXPECT_FALSE(to_json(rows[1]).contains("osu_ialltoall"));
}

// --format osu: the lines are OSU's to the character, checked against osu_allreduce -f's output
// as OSU 7.0 prints it (same print_preamble() and print_stats() as osu_alltoall), so that a
// script that splits OSU's lines by position or by whitespace reads a2afft's.
TEST(Osu, header_and_rows_have_osu_column_widths) {
  EXPECT_EQ(osu_header_line(),
            "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations");
  EXPECT_EQ(osu_row_line(4, OsuSummary{136.08e-6, 99.29e-6, 164.85e-6, 1000}),
            "4                     136.08             99.29            164.85        1000");
  EXPECT_EQ(osu_row_line(1048576, OsuSummary{12345.678e-6, 0.004e-6, 1e-6, 5}),
            "1048576             12345.68              0.00              1.00           5");
}

// One table per exchange, sizes rising, whatever order the rows came in; the context lines
// are a2afft's (comments to OSU's readers) and failures follow as comments too.
TEST(OsuReporter, prints_one_osu_table_per_exchange) {
  std::vector<AlltoallRow> rows = alltoall_rows();  // 16 B: mpi, then node-aware (FAIL)
  AlltoallRow larger = rows[0];
  larger.block_bytes = 1024;
  rows.push_back(larger);
  std::swap(rows[0], rows[2]);  // 1024 B's mpi first: the table still starts at 16 B
  rows[0].osu = OsuSummary{5e-6, 4e-6, 6e-6, 3};
  rows[1].osu = OsuSummary{1e-3, 9e-4, 1.1e-3, 3};
  rows[2].osu = OsuSummary{2e-6, 1e-6, 3e-6, 3};
  std::ostringstream out;
  OsuReporter osu(out);
  osu.report_context(header());
  osu.report_runs(rows);
  const std::vector<std::string> lines = lines_of(out.str());
  const std::vector<std::string> tables = {
      "",
      "# OSU MPI All-to-All Personalized Exchange Latency Test layout, by a2afft alltoall: "
      "exchange mpi",
      osu_header_line(),
      "16                      2.00              1.00              3.00           3",
      "1024                    5.00              4.00              6.00           3",
      "",
      "# OSU MPI All-to-All Personalized Exchange Latency Test layout, by a2afft alltoall: "
      "exchange node-aware(inner=tra2(r1=2,r2=2))",
      osu_header_line(),
      "16                   1000.00            900.00           1100.00           3",
      "# FAIL node-aware(inner=tra2(r1=2,r2=2)) at 16 B: rank 1, wrong data"};
  ASSERT_EQ(lines.size(), 4 + tables.size()) << out.str();  // 3 context lines and settings
  EXPECT_EQ(lines[3], "# 3 timed runs");
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 4, lines.end()), tables);
}

// A row with a run 33 times its median (onmpml at 64 MiB, issue 43) is marked in every format;
// its neighbour is not.
TEST(Reporters, mark_a_row_whose_max_is_far_over_its_median_unstable) {
  std::vector<AlltoallRow> rows = alltoall_rows();
  rows[1].check = "PASS";
  rows[1].failure.clear();
  rows[1].max_seconds = 33 * rows[1].median_seconds;
  std::ostringstream out;
  ConsoleReporter(out).report_runs(rows);
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 5u) << out.str();
  EXPECT_LT(lines[0].find("max [us]"), lines[0].find("spread")) << lines[0];
  EXPECT_NE(lines[1].find("  1.50x "), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].find("unstable"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("33.00x unstable"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[3],
            "unstable: node-aware(inner=tra2(r1=2,r2=2)) at 16 B: max 33000.00 us is 33.0x the "
            "median (over 3x)");
  EXPECT_EQ(lines[4].rfind("(unstable: a run over 3x the median", 0), 0u) << lines[4];
  const std::vector<std::string> csv = csv_lines(rows);
  EXPECT_NE(csv[2].find(",0.033,33,max 33000.00 us is 33.0x the median (over 3x),0.0001,"),
            std::string::npos)
      << csv[2];
  EXPECT_EQ(to_json(rows[0])["unstable"], false);
  EXPECT_DOUBLE_EQ(to_json(rows[1])["spread"].get<double>(), 33.0);
  EXPECT_EQ(to_json(rows[1])["unstable_reason"], "max 33000.00 us is 33.0x the median (over 3x)");

  FftRow slow = fft_row("a2afft", "row=-,column=onmpml(leaders=1)", true);
  slow.total.max = 10 * slow.total.median;
  std::ostringstream fft_out;
  ConsoleReporter(fft_out).report_runs(std::vector<FftRow>{slow});
  EXPECT_NE(fft_out.str().find("unstable: a2afft row=-,column=onmpml(leaders=1): max 20.00 ms is "
                               "10.0x the median (over 3x)\n"),
            std::string::npos)
      << fft_out.str();
  EXPECT_EQ(to_json(slow)["unstable"], true);
}

// A CSV has no context lines, so the environment's settings ride on every row, in a last
// column `environment` that only runs with such a setting have (other files keep their header).
TEST(CsvWriter, carries_the_environment_on_every_row_only_when_a_setting_is_set) {
  const std::string path = (scratch_directory() / "environment.csv").string();
  CsvWriter(path, {"run"}).add_row({"1"});
  EXPECT_EQ(lines_of(read(path)).at(0).find("environment"), std::string::npos);
  setenv("OMPI_MCA_coll_tuned_alltoall_algorithm", "2", 1);
  setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
  {
    CsvWriter csv(path, {"run"});
    csv.add_row({"1"});
  }
  unsetenv("OMPI_MCA_coll_tuned_alltoall_algorithm");
  unsetenv("OMPI_MCA_coll_tuned_use_dynamic_rules");
  const std::vector<std::string> lines = lines_of(read(path));
  ASSERT_EQ(lines.size(), 2u);
  const std::string settings =
      "OMPI_MCA_coll_tuned_alltoall_algorithm=2;OMPI_MCA_coll_tuned_use_dynamic_rules=1";
  EXPECT_EQ(lines[0].substr(lines[0].rfind(',') + 1), "environment");
  EXPECT_EQ(lines[1].substr(lines[1].rfind(',') + 1), settings);
}

TEST(CsvWriter, appends_rows_under_one_header_and_refuses_another_header) {
  const std::string path = (scratch_directory() / "study.csv").string();
  {
    CsvWriter csv(path, {"run", "exchange"}, CsvWriter::Mode::append);  // new: header first
    csv.add_row({"1", "mpi"});
  }
  {
    CsvWriter csv(path, {"run", "exchange"}, CsvWriter::Mode::append);
    csv.add_row({"2", "tra2:r1=2,r2=2"});
  }
  EXPECT_EQ(lines_of(read(path)),
            (std::vector<std::string>{"run,exchange", "1,mpi", "2,\"tra2:r1=2,r2=2\""}));
  EXPECT_THROW(CsvWriter(path, {"run", "spec"}, CsvWriter::Mode::append), UsageError);
  CsvWriter(path, {"run", "spec"});  // replace starts afresh
  EXPECT_EQ(lines_of(read(path)), (std::vector<std::string>{"run,spec"}));
  EXPECT_THROW(CsvWriter((fs::path(path) / "no" / "such.csv").string(), {"run"}), UsageError);
}

TEST(Reporters, print_nothing_on_ranks_that_do_not_print) {
  const fs::path directory = scratch_directory();
  const ReportFiles files{(directory / "r.json").string(), (directory / "r.csv").string()};
  std::ostringstream silent;
  Reporters others(false, silent, files);
  others.report_context(header());
  others.report_runs(alltoall_rows());
  EXPECT_TRUE(silent.str().empty());
  EXPECT_FALSE(fs::exists(files.json_path));

  std::ostringstream out;
  Reporters printing(true, out, files);
  printing.report_context(header());
  printing.report_runs(alltoall_rows());
  EXPECT_NE(out.str().find("# 3 timed runs"), std::string::npos);
  EXPECT_TRUE(fs::exists(files.json_path));
  EXPECT_EQ(lines_of(read(files.csv_path)).size(), 3u);
}

}  // namespace
}  // namespace a2afft::report
