// `a2afft list`: the registered backends with their parameters, defaults and summaries.

#include <iostream>

#include <a2afft/backends.hpp>

#include "commands.hpp"
#include "report/text_table.hpp"

namespace a2afft::commands {

Runner add_list(CLI::App& app) {
  auto* command = app.add_subcommand("list", "List the exchange backends and their parameters");
  auto names_only = std::make_shared<bool>(false);
  command->add_flag("--names", *names_only, "Print only the backend names, one per line");
  return [names_only] {
    if (!is_printing_rank()) return 0;
    const std::vector<BackendInfo> infos = backends();
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
