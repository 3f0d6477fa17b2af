// check: load a code object and list every instruction the simulator cannot
// execute (not decodable, no semantics, or a refused operand/modifier form),
// with kernel, pc and text. Exit status 1 when there is one.
#include <iostream>

#include "runtime/sim/code_object.hpp"
#include "runtime/sim/semantics_check.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/files.hpp"

namespace cdnajit::cli {

void add_check_command(CommandLine& cl) {
  auto file = std::make_shared<std::string>();
  CLI::App* c = cl.add("check", "list the instructions of a code object the simulator has no semantics for", [file] {
    constexpr uint64_t kMaxBytes = 256ull << 20;
    std::vector<uint8_t> bytes = read_regular_file(*file, "code object", kMaxBytes, true);
    CodeObject co = read_code_object(bytes);
    auto list = sim::unbound_instructions(co);
    if (list.empty()) {
      std::cout << "cdnajit: every instruction of " << co.kernels.size() << " kernel(s) has simulator semantics\n";
      return 0;
    }
    std::cerr << sim::format_unbound(list);
    std::cerr << "cdnajit: " << list.size() << " instruction(s) without simulator semantics\n";
    return 1;
  });
  c->add_option("file", *file, "code object (ELF) to check")->required();
}

}  // namespace cdnajit::cli
