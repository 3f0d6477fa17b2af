// The cdnajit command line on CLI11: one subcommand per command, each with
// --help, typed and range-checked options, unknown and repeated options
// rejected. A command is added by one function (see commands.hpp) that
// registers its options, bound to a struct its action owns:
//
//   void add_hello_command(CommandLine& cl) {
//     auto o = std::make_shared<HelloOptions>();
//     CLI::App* c = cl.add("hello", "print a greeting", [o] { fmt::print("hi {}\n", o->name); return 0; });
//     c->add_option("--name", o->name, "who to greet")->required();
//   }
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jit/kernel.hpp"

namespace cdnajit::cli {

using Action = std::function<int()>;

class CommandLine {
 public:
  CommandLine();  // registers every command of commands.hpp
  // Registers only the commands whose family (one add_X function of commands.hpp)
  // has a command named by one of `words` (none if no word names one). CLI11 enters
  // a subcommand only on a word equal to its name, so parse(words) gives the same
  // result as with every command registered (test_cli_partial checks this); the
  // libFuzzer target uses it because building every command's options costs
  // milliseconds per input under the sanitizers.
  static CommandLine for_words(const std::vector<std::string>& words);
  // Adds a subcommand; `action` runs when it is chosen (after every option parsed).
  CLI::App* add(const std::string& name, const std::string& description, Action action);
  // Parses the arguments (argv[0] is the program) and returns the chosen
  // command's action. Throws CLI::ParseError (also for --help) or
  // cdnajit::Error for a bad value.
  Action parse(std::vector<std::string> args);
  // parse + run: exit status 0 (done, or help printed), 1 (an error while
  // running), 2 (a bad command line). Messages go to stderr.
  int main(int argc, const char* const* argv);
  // The registered commands' names, in registration order.
  std::vector<std::string> command_names() const;
  // The command the last parse() chose ("" if none).
  std::string parsed_command() const;

 private:
  struct Family;
  static const std::vector<Family>& families();
  explicit CommandLine(const std::vector<std::string>* words);  // nullptr: every family
  CLI::App app_;
  const Family* registering_ = nullptr;  // the family whose add function runs (add() checks the name)
  std::vector<std::pair<CLI::App*, Action>> commands_;
};

// ---- options several commands share ----

// --arch gfx942|gfx950 (default gfx950).
CLI::Option* add_arch_option(CLI::App* c, Arch& arch);
// --waitcnt / --hazards auto|verify|off (default auto), --drop-author-waits.
void add_pass_mode_options(CLI::App* c, BuildOptions& opts);
// -o,--output FILE, checked writable at parse time (a leading '=' as in
// "-o=FILE" is dropped).
CLI::Option* add_output_option(CLI::App* c, std::string& path, const std::string& description);
// An option whose text is converted by `parse(text, option_name)` while the
// command line is parsed (so errors come before anything runs).
template <class T, class Parse>
CLI::Option* add_typed_option(CLI::App* c, const std::string& name, T& target, Parse parse, const std::string& description) {
  std::string what = name.substr(name.rfind(',') == std::string::npos ? 0 : name.rfind(',') + 1);
  return c->add_option_function<std::string>(
      name, [&target, parse, what](const std::string& text) { target = parse(text, what); }, description);
}

}  // namespace cdnajit::cli
