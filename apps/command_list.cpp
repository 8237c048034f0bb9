// `a2afft list`: the registered backends with their parameters, defaults and summaries.

#include <iostream>

#include <a2afft/backends.hpp>

#include "commands.hpp"
#include "report/text_table.hpp"

namespace a2afft::commands {
namespace {

// A table cell: pipes escaped, so a summary cannot split its row.
std::string cell(const std::string& text) {
  std::string escaped;
  for (const char c : text)
    escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

// The backends table of docs/backends.md, generated from the registry rows (issue 32): the
// test docs.backends_table_is_generated keeps the page equal to this output.
void print_markdown(const std::vector<BackendInfo>& infos) {
  std::cout << "| name | source | idea | parameters (default) | layouts | split phase |\n"
            << "|---|---|---|---|---|---|\n";
  for (const BackendInfo& info : infos) {
    std::string params;
    for (const BackendParameter& param : info.parameters)
      params +=
          (params.empty() ? "" : ", ") + ("`" + param.key + "` (" + param.default_value + ")");
    std::cout << "| `" << info.name << "` | " << cell(info.source) << " | " << cell(info.summary)
              << " | " << (params.empty() ? "—" : cell(params)) << " | " << cell(info.layouts)
              << " | " << info.split_phase << " |\n";
  }
}

// The specs the running MPI library offers (the vendor rows, read through MPI_T; in
// simulation SMPI's own algorithms, one of which the whole simulation runs).
void print_offered(const std::vector<BackendInfo>& infos) {
  std::cout << "\nOffered by this MPI library "
            << (A2AFFT_SMPI ? "(SimGrid SMPI's alltoall algorithms, read at run time from "
                              "SimGrid; only the one the simulation was launched with runs: "
                              "scripts/simulate --alltoall NAME):\n"
                            : "(read at run time through MPI_T):\n");
  bool any = false;
  for (const BackendInfo& info : infos) {
    for (const std::string& spec : info.offered) {
      std::cout << "  " << spec << '\n';
      any = true;
    }
  }
  if (!any) std::cout << "  none (the library lists no alltoall algorithm to force)\n";
}

}  // namespace

Runner add_list(CLI::App& app) {
  auto* command = app.add_subcommand("list", "List the exchange backends and their parameters");
  auto names_only = std::make_shared<bool>(false);
  command->add_flag("--names", *names_only, "Print only the backend names, one per line");
  auto markdown = std::make_shared<bool>(false);
  command
      ->add_flag("--markdown", *markdown,
                 "Print the backends table (name, source, idea, parameters with defaults, "
                 "layouts, split phase) in Markdown, as docs/backends.md holds it")
      ->excludes("--names");
  return [names_only, markdown] {
    if (!is_printing_rank()) return 0;
    const std::vector<BackendInfo> infos = backends();
    if (*markdown) {
      print_markdown(infos);
      return 0;
    }
    if (*names_only) {
      for (const BackendInfo& info : infos)
        std::cout << info.name << '\n';
      return 0;
    }
    report::TextTable table(
        {{"name"}, {"parameters (default)"}, {"layouts"}, {"split phase"}, {"summary"}});
    for (const BackendInfo& info : infos) {
      std::string params;
      for (const BackendParameter& param : info.parameters)
        params += (params.empty() ? "" : ", ") + param.key + " (" + param.default_value + ")";
      table.add_row(
          {info.name, params.empty() ? "-" : params, info.layouts, info.split_phase, info.summary});
    }
    table.print(std::cout);
    std::cout << "\nParameters:\n";
    for (const BackendInfo& info : infos) {
      for (const BackendParameter& param : info.parameters) {
        std::cout << "  " << info.name << ':' << param.key << "  " << param.meaning << '\n';
      }
    }
    print_offered(infos);
    std::cout << "\nSources:\n";
    for (const BackendInfo& info : infos) {
      std::cout << "  " << info.name << "  " << info.source << '\n';
    }
    std::cout << "\nA spec is name[:key=value,...], e.g. nonblocking:batch=4; lists are "
                 "comma-separated: mpi,nonblocking:batch=2,factor\n"
              << "Split phase 'yes': Exchange::start() returns with messages in flight, so work "
                 "done before finish() overlaps them; 'no': start() does all the work\n";
    return 0;
  };
}

}  // namespace a2afft::commands
