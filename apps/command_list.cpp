// `a2afft list`: the registered backends with their parameters, defaults and summaries.

#include <iostream>

#include "commands.hpp"
#include "registry.hpp"
#include "report/text_table.hpp"

namespace a2afft::commands {

Runner add_list(CLI::App& app) {
  auto* command = app.add_subcommand("list", "List the exchange backends and their parameters");
  auto names_only = std::make_shared<bool>(false);
  command->add_flag("--names", *names_only, "Print only the backend names, one per line");
  return [names_only] {
    if (!is_printing_rank()) return 0;
    if (*names_only) {
      for (const ExchangeInfo* info : registered_exchanges())
        std::cout << info->name << '\n';
      return 0;
    }
    report::TextTable table({{"name"}, {"parameters (default)"}, {"layouts"}, {"summary"}});
    for (const ExchangeInfo* info : registered_exchanges()) {
      std::string params;
      for (const ParamInfo& param : info->params) {
        params += (params.empty() ? "" : ", ") + std::string(param.key) + " (" +
                  std::string(param.default_value) + ")";
      }
      table.add_row({std::string(info->name), params.empty() ? "-" : params,
                     std::string(info->layouts), std::string(info->summary)});
    }
    table.print(std::cout);
    std::cout << "\nParameters:\n";
    for (const ExchangeInfo* info : registered_exchanges()) {
      for (const ParamInfo& param : info->params) {
        std::cout << "  " << info->name << ':' << param.key << "  " << param.meaning << '\n';
      }
    }
    std::cout << "\nSources:\n";
    for (const ExchangeInfo* info : registered_exchanges()) {
      std::cout << "  " << info->name << "  " << info->source << '\n';
    }
    std::cout << "\nA spec is name[:key=value,...], e.g. nonblocking:batch=4; lists are "
                 "comma-separated: mpi,nonblocking:batch=2,factor\n";
    return 0;
  };
}

}  // namespace a2afft::commands
