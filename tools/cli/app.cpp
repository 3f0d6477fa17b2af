#include "tools/cli/app.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "runtime/tune/perf_db.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/values.hpp"

namespace cdnajit::cli {

namespace {

// CLI11 reads "--opt=" (nothing after the '=') as a bare "--opt" and takes the next word as
// its value ("--arch= --kernel k" would make "--kernel" the arch), so an empty value is
// refused before CLI11 sees it.
void reject_empty_values(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;  // everything after "--" is a value
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.find('=') == a.size() - 1) {
      std::string name = a.substr(0, a.size() - 1);
      throw Error(fmt::format("{}: empty value in '{}' (give {} VALUE or {}=VALUE)", name, a, name, name));
    }
  }
}

// The options of command `c`, as "--arch, -o/--output, ..." for an error message.
std::string option_list(const CLI::App* c) {
  std::string list;
  for (const CLI::Option* o : c->get_options()) {
    std::string names;
    for (const std::string& s : o->get_snames()) names += (names.empty() ? "-" : "/-") + s;
    for (const std::string& l : o->get_lnames()) names += (names.empty() ? "--" : "/--") + l;
    if (!names.empty()) list += (list.empty() ? "" : ", ") + names;
  }
  return list;
}

// CLI11's message for a parse error, in the project's words where CLI11's are unclear:
// an unknown option by name with the command's valid options, a repeated option with its
// count. `c` is the command being parsed (nullptr before one was named).
std::string parse_error_message(const CLI::ParseError& e, const CLI::App& app, const CLI::App* c) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const CLI::App& owner = c ? *c : app;
    std::vector<std::string> extra = owner.remaining();
    if (extra.empty()) extra = app.remaining();
    for (const std::string& w : extra) {
      if (w.size() < 2 || w[0] != '-') continue;
      std::string name = w.substr(0, w.find('='));
      if (c) return fmt::format("unknown option '{}' (valid options of {}: {})", name, c->get_name(), option_list(c));
      return fmt::format("unknown option '{}' before the command (valid there: --help, --version)", name);
    }
    if (!extra.empty())
      return fmt::format("unexpected argument '{}' (each option takes one value; no command takes positional words "
                         "except where its --help shows one)",
                         extra.front());
  }
  const std::string at_most = ": At Most 1 required but received ";
  if (auto pos = what.find(at_most); pos != std::string::npos && dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    std::string name = what.substr(0, pos);
    return fmt::format("{} given {} times (give it once)", name, what.substr(pos + at_most.size()));
  }
  return what;
}

}  // namespace

// One row per add function of commands.hpp, with the names of the commands it
// registers (add() refuses a name its row does not list, so the table cannot drift).
struct CommandLine::Family {
  std::vector<std::string_view> names;
  void (*add)(CommandLine&);
};

CommandLine::CommandLine() : CommandLine(nullptr) {}

CommandLine CommandLine::for_words(const std::vector<std::string>& words) { return CommandLine(&words); }

CommandLine::CommandLine(const std::vector<std::string>* words)
    : app_("cdnajit: JIT kernels for AMD CDNA3/CDNA4 (gfx942, gfx950) and their simulator", "cdnajit") {
  app_.require_subcommand(1);
  app_.set_version_flag("--version", tune::project_version(), "print the version and exit");
  app_.footer("Run 'cdnajit COMMAND --help' for a command's options.");
  for (const Family& f : families()) {
    bool named = !words || std::any_of(f.names.begin(), f.names.end(), [&](std::string_view n) {
      return std::find(words->begin(), words->end(), n) != words->end();
    });
    if (!named) continue;
    registering_ = &f;
    f.add(*this);
  }
  registering_ = nullptr;
}

const std::vector<CommandLine::Family>& CommandLine::families() {
  static const std::vector<Family> table = {
      {{"list", "dump", "build", "stats"}, add_kernel_commands},
      {{"run"}, add_run_command},
      {{"seed"}, add_seed_command},
      {{"fuzz"}, add_fuzz_command},
      {{"tune"}, add_tune_command},
      {{"conv3d"}, add_conv3d_command},
      {{"gemm"}, add_gemm_command},
      {{"gemm-mx"}, add_gemm_mx_command},
      {{"check"}, add_check_command},
      {{"isa"}, add_isa_command},
      {{"selftest"}, add_selftest_command},
      {{"model"}, add_model_command},
      {{"calibrate"}, add_calibrate_command},
      {{"job"}, add_job_command},
  };
  return table;
}

std::vector<std::string> CommandLine::command_names() const {
  std::vector<std::string> names;
  for (auto& [c, action] : commands_) names.push_back(c->get_name());
  return names;
}

std::string CommandLine::parsed_command() const {
  for (auto& [c, action] : commands_)
    if (c->parsed()) return c->get_name();
  return "";
}

CLI::App* CommandLine::add(const std::string& name, const std::string& description, Action action) {
  if (!registering_ || std::find(registering_->names.begin(), registering_->names.end(), name) == registering_->names.end())
    throw Error(fmt::format("internal: command '{}' is registered outside its row of the command table "
                            "(tools/cli/app.cpp, families())", name));
  CLI::App* c = app_.add_subcommand(name, description);
  commands_.emplace_back(c, std::move(action));
  return c;
}

Action CommandLine::parse(std::vector<std::string> args) {
  reject_empty_values(args);
  if (!args.empty()) args.erase(args.begin());  // the program name
  std::reverse(args.begin(), args.end());        // CLI11 consumes from the back
  app_.parse(args);
  for (auto& [c, action] : commands_)
    if (c->parsed()) return action;
  throw CLI::RequiredError("a command");  // unreachable with require_subcommand(1)
}

int CommandLine::main(int argc, const char* const* argv) {
  Action action;
  try {
    action = parse(std::vector<std::string>(argv, argv + argc));
  } catch (const CLI::CallForHelp& e) {
    return app_.exit(e);  // prints the help of the command it was given for; status 0
  } catch (const CLI::CallForVersion& e) {
    return app_.exit(e);  // prints the version; status 0
  } catch (const CLI::ParseError& e) {
    if (argc < 2) {
      std::cerr << app_.help();
      return 2;
    }
    std::string valid;
    bool known = false;
    for (auto& [c, a] : commands_) {
      valid += (valid.empty() ? "" : ", ") + c->get_name();
      known = known || c->get_name() == argv[1];
    }
    if (argv[1][0] != '-' && !known) {
      std::cerr << "cdnajit: error: unknown command '" << argv[1] << "' (valid: " << valid << ")\n";
      return 2;
    }
    const std::string first = argv[1];
    if (first.size() > 1 && first[0] == '-' && !app_.get_option_no_throw(first.substr(0, first.find('=')))) {
      std::cerr << "cdnajit: error: unknown option '" << first.substr(0, first.find('='))
                << "' before the command (valid there: -h/--help, --version; then a command: " << valid << ")\n";
      return 2;
    }
    std::string cmd;
    const CLI::App* parsed = nullptr;
    for (auto& [c, a] : commands_)
      if (c->parsed()) cmd = c->get_name() + " ", parsed = c;
    std::cerr << "cdnajit: error: " << parse_error_message(e, app_, parsed) << "\n";
    std::cerr << "Run 'cdnajit " << cmd << "--help' for the valid options.\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cdnajit: error: " << e.what() << "\n";
    return 2;
  }
  try {
    return action();
  } catch (const std::bad_alloc&) {
    std::cerr << "cdnajit: error: out of host memory (an allocation the input asked for is too large for this machine)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "cdnajit: error: " << e.what() << "\n";
    return 1;
  }
}

CLI::Option* add_arch_option(CLI::App* c, Arch& arch) {
  arch = Arch::gfx950;
  return add_typed_option(
      c, "--arch", arch,
      [](std::string_view text, std::string_view what) {
        auto a = parse_arch(text);
        if (!a) throw Error(fmt::format("{}: unknown arch '{}' (valid: gfx942, gfx950)", what, text));
        return *a;
      },
      "target: gfx942 (MI300) or gfx950 (MI350/MI355); default gfx950");
}

namespace {

PassMode parse_mode(std::string_view text, std::string_view what) {
  if (text == "auto") return PassMode::Auto;
  if (text == "verify") return PassMode::Verify;
  if (text == "off") return PassMode::Off;
  throw Error(fmt::format("{}: '{}' (valid: auto, verify, off)", what, text));
}

BarrierRelease parse_barrier_release(std::string_view text, std::string_view what) {
  if (text == "lds") return BarrierRelease::Lds;
  if (text == "all") return BarrierRelease::All;
  if (text == "none") return BarrierRelease::None;
  throw Error(fmt::format("{}: '{}' (valid: lds, all, none)", what, text));
}

}  // namespace

void add_pass_mode_options(CLI::App* c, BuildOptions& opts) {
  add_typed_option(c, "--waitcnt", opts.waitcnt, parse_mode,
                   "wait-count pass: auto (insert), verify (report, exit 1 on findings), off");
  add_typed_option(c, "--hazards", opts.hazards, parse_mode,
                   "hazard pass: auto (insert), verify (report, exit 1 on findings), off");
  add_typed_option(c, "--barrier-release", opts.barrier_release, parse_barrier_release,
                   "stores each s_barrier waits for (makes visible to the workgroup): lds (LDS stores, as clang "
                   "for __syncthreads), all (also global stores, as clang in threadgroup-split mode), none "
                   "(LDS DMA only); default lds");
  c->add_flag("--drop-author-waits", opts.drop_author_waits,
              "drop the s_waitcnt the kernel's author wrote before the passes run (with --waitcnt verify: "
              "what would be unsafe without them)");
}

CLI::Option* add_output_option(CLI::App* c, std::string& path, const std::string& description) {
  return add_typed_option(
      c, "-o,--output", path,
      [](std::string_view text, std::string_view what) {
        std::string p(text);
        if (!p.empty() && p[0] == '=') p.erase(0, 1);  // "-o=FILE" means FILE, as in LLVM's tools
        if (p.empty()) throw Error(std::string(what) + ": empty file name");
        check_writable(p, what);
        return p;
      },
      description);
}

}  // namespace cdnajit::cli
