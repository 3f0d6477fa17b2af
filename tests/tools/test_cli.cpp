// The cdnajit command as a user runs it: list, dump, build, run on the simulator,
// fuzz, and clear errors with a non-zero exit status for bad input.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iterator>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_run.hpp"

namespace {

using cdnajit_test::cli;
using cdnajit_test::Run;

std::filesystem::path scratch() {
  auto d = std::filesystem::temp_directory_path() / ("cdnajit_cli_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("cdnajit list and dump", "[cli]") {
  Run l = cli("list");
  CHECK(l.status == 0);
  CHECK_THAT(l.out, Catch::Contains("vector_add") && Catch::Contains("dwconv3d_seed.lds_dot2"));
  Run d = cli("dump --kernel bf16_dot --arch gfx942");
  CHECK(d.status == 0);
  CHECK_THAT(d.out, Catch::Contains(".amdhsa_kernel bf16_dot") && Catch::Contains("v_fmac_f32"));
}

TEST_CASE("cdnajit build then run on the simulator writes correct output", "[cli][sim]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string(), out = (dir / "out.bin").string();
  Run b = cli("build --kernel vector_add --arch gfx950 -o " + co);
  REQUIRE(b.status == 0);
  // iota inputs: the float with bit pattern i, plus itself: denormals add exactly, giving bit pattern 2i.
  Run r = cli("run " + co + " --kernel vector_add --device sim:gfx950 --grid 4 --block 256 "
              "--arg buf:a:4096:iota --arg buf:b:4096:iota --arg buf:out:4096 --arg u32:1000 --out out=" + out);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("VALU"));
  std::ifstream f(out, std::ios::binary);
  std::vector<uint32_t> v(1024);
  f.read(reinterpret_cast<char*>(v.data()), 4096);
  REQUIRE(f.gcount() == 4096);
  int bad = 0;
  for (uint32_t i = 0; i < 1024; ++i) bad += v[i] != (i < 1000 ? 2 * i : 0u);
  CHECK(bad == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit errors name what is wrong and exit non-zero", "[cli][errors]") {
  Run a = cli("dump --kernel vector_add --arch gfx908");
  CHECK(a.status == 2);  // a bad command line: status 2, before anything runs
  CHECK_THAT(a.out, Catch::Contains("gfx908") && Catch::Contains("valid: gfx942, gfx950"));
  Run k = cli("dump --kernel no_such_kernel --arch gfx942");
  CHECK(k.status == 2);  // checked while the command line is parsed
  CHECK_THAT(k.out, Catch::Contains("no_such_kernel") && Catch::Contains("vector_add"));
  Run v = cli("seed --arch gfx942 --variant lds_dot2 --channels 1");
  CHECK(v.status == 1);
  CHECK_THAT(v.out, Catch::Contains("only on gfx950"));
  Run m = cli("run /nonexistent.co --kernel x --grid 1 --block 64");
  CHECK(m.status == 1);
  CHECK_THAT(m.out, Catch::Contains("/nonexistent.co"));
}

TEST_CASE("cdnajit fuzz survives every mutation", "[cli][fuzz]") {
  // The iteration count ends the run; the time limit is set far beyond it so the result never
  // depends on how fast this machine is.
  Run f = cli("fuzz --iterations 100 --seconds 86400 --seed 7 --crash-dir " + (scratch() / "crashes").string());
  INFO(f.out);
  CHECK(f.status == 0);
  CHECK_THAT(f.out, Catch::Contains("fuzz seed 7") && Catch::Contains("fuzzed 100 mutations") && Catch::Contains(" 0 crash(es), 0 hang(s), 0 other exception(s)"));
}

TEST_CASE("cdnajit writes each stdout line into a pipe as it is printed", "[cli][output]") {
  // tune prints its header lines, then builds; each finished build leaves a code-object cache
  // entry. Once one exists the header lines are printed: kill the process there (SIGKILL,
  // no exit-time flush) and the pipe must already hold them. With a block-buffered stdout
  // they were still in the process's buffer and were lost.
  auto cache = scratch() / "line_buffer_cache";
  std::filesystem::remove_all(cache);
  std::filesystem::create_directories(cache);
  int p[2];
  REQUIRE(::pipe(p) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(p[1], 1);
    ::close(p[0]);
    ::close(p[1]);
    ::setenv("CDNAJIT_CACHE_DIR", cache.c_str(), 1);
    ::execl(CDNAJIT_CLI, CDNAJIT_CLI, "tune", "--family", "dwconv3d", "--problem", "seed", "--no-db", "--check-only",
            "--jobs", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(p[1]);
  auto has_entry = [&] {
    for (const auto& e : std::filesystem::directory_iterator(cache))
      if (e.path().extension() == ".co") return true;
    return false;
  };
  int status = 0;
  bool ended = false;
  while (!has_entry() && !ended) {
    ::usleep(20 * 1000);
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(p[0], buf, sizeof buf)) > 0) out.append(buf, size_t(n));
  ::close(p[0]);
  INFO(out);
  REQUIRE_FALSE(ended);  // the whole tune run ended before its first build: nothing was tested
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
  CHECK_THAT(out, Catch::Contains("tune dwconv3d") && Catch::Contains("valid configurations"));
  std::filesystem::remove_all(cache);
}

// ---- the command line itself: help, typed and range-checked values, unknown and repeated options ----

// Expects `args` to fail as a bad command line (status 2) with every one of `words` in the message.
void expect_usage_error(const std::string& args, const std::vector<std::string>& words) {
  Run r = cli(args);
  INFO(args << "\n" << r.out);
  CHECK(r.status == 2);
  for (const std::string& w : words) CHECK_THAT(r.out, Catch::Contains(w));
}

TEST_CASE("every cdnajit command has --help and -h", "[cli][args]") {
  for (std::string c : {"", "list ", "dump ", "build ", "stats ", "run ", "seed ", "fuzz ", "tune ", "conv3d ", "gemm ", "check "}) {
    for (std::string h : {"--help", "-h"}) {
      Run r = cli(c + h);
      INFO(c + h << "\n" << r.out);
      CHECK(r.status == 0);
      CHECK_THAT(r.out, Catch::Contains("Usage:"));
    }
  }
  CHECK_THAT(cli("run --help").out, Catch::Contains("--max-instructions") && Catch::Contains("--timeout"));
  Run none = cli("");
  CHECK(none.status == 2);
  CHECK_THAT(none.out, Catch::Contains("Subcommands:"));
  expect_usage_error("frob", {"unknown command 'frob'", "run", "dump"});
}

TEST_CASE("cdnajit rejects unknown and repeated options", "[cli][args]") {
  expect_usage_error("dump --kernel vector_add --arhc gfx942",
                     {"unknown option '--arhc' (valid options of dump: -h/--help, --kernel, --arch"});
  expect_usage_error("dump --kernel vector_add --arhc=gfx942", {"unknown option '--arhc' (valid options of dump:"});
  expect_usage_error("dump --kernel vector_add stray", {"unexpected argument 'stray'"});
  expect_usage_error("dump --kernel vector_add --arch gfx942 --arch gfx950", {"--arch given 2 times (give it once)"});
  expect_usage_error("dump --kernel vector_add --arch=gfx942 --arch=gfx942 --arch gfx942", {"--arch given 3 times"});
  expect_usage_error("build --kernel vector_add --kernel bf16_dot -o /tmp/x.co", {"--kernel given 2 times"});
  // "--opt=" with nothing after the '=' is an empty value, never "take the next word".
  expect_usage_error("dump --arch= --kernel vector_add", {"--arch: empty value in '--arch='", "--arch VALUE"});
  expect_usage_error("dump --kernel= vector_add", {"--kernel: empty value in '--kernel='"});
  // Before the command: only --help and --version.
  expect_usage_error("--verbose dump --kernel vector_add", {"unknown option '--verbose' before the command", "dump"});
  Run version = cli("--version");
  CHECK(version.status == 0);
  CHECK_THAT(version.out, Catch::StartsWith("cdnajit "));
  // Names checked while parsing are command-line errors (status 2) too.
  expect_usage_error("build --kernel no_such_kernel -o /tmp/x.co", {"--kernel: unknown kernel 'no_such_kernel'", "vector_add"});
  expect_usage_error("run /nonexistent.co --kernel k --grid 1 --block 64 --device nope",
                     {"--device: unknown device 'nope'", "sim:gfx942", "hip:N"});
  expect_usage_error("run /nonexistent.co --kernel k --grid 1 --block 64 --device hip:x", {"unknown device 'hip:x'"});
  expect_usage_error("tune --device sim:gfx90a", {"unknown device 'sim:gfx90a'"});
  expect_usage_error("dump", {"--kernel"});  // required
  expect_usage_error("dump --kernel vector_add --waitcnt sometimes", {"--waitcnt", "sometimes", "auto, verify, off"});
  expect_usage_error("dump --kernel vector_add --barrier-release global", {"--barrier-release", "global", "lds, all, none"});
}

TEST_CASE("cdnajit accepts --opt=value and -o FILE / -o=FILE", "[cli][args]") {
  auto dir = scratch();
  std::string a = (dir / "a.s").string(), b = (dir / "b.s").string(), c = (dir / "c.s").string();
  CHECK(cli("dump --kernel=vector_add --arch=gfx942 -o " + a).status == 0);
  CHECK(cli("dump --kernel vector_add --arch gfx942 -o=" + b).status == 0);
  CHECK(cli("dump --kernel vector_add --arch gfx942 --output=" + c).status == 0);
  for (const std::string& p : {a, b, c}) {
    std::ifstream f(p);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK_THAT(text, Catch::Contains(".amdhsa_kernel vector_add"));
  }
  expect_usage_error("build --kernel vector_add -o " + dir.string(), {"-o", "is a directory"});
  expect_usage_error("build --kernel vector_add -o /nonexistent_dir/x.co", {"/nonexistent_dir"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run: numbers are whole, in range and of the kernel's kind", "[cli][args]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 ";
  std::string bufs = " --arg buf:a:4096 --arg buf:b:4096 --arg buf:out:4096 ";
  expect_usage_error(run + "--grid 4 --block 256 --arg u32:-5", {"--arg u32", "'-5'", "0..4294967295"});
  expect_usage_error(run + "--grid 4 --block 256 --arg u32:5000000000", {"--arg u32", "5000000000", "0..4294967295"});
  expect_usage_error(run + "--grid 4 --block 256 --arg u32:12abc", {"--arg u32", "12abc", "not an integer"});
  expect_usage_error(run + "--grid 4 --block 256 --arg i32:3.9", {"--arg i32", "3.9", "-2147483648..2147483647"});
  expect_usage_error(run + "--grid 4 --block 256 --arg f32:1e39", {"--arg f32", "out of range"});
  expect_usage_error(run + "--grid 4 --block 256 --arg x64:1", {"unknown type 'x64'", "u32:V"});
  expect_usage_error(run + "--grid 4 --block 256 --arg buf:a:0", {"--arg a byte count", "1..4294967296"});
  expect_usage_error(run + "--grid 4 --block 256 --arg buf:a:16:ones", {"ones", "zero, iota, random, file=PATH"});
  expect_usage_error(run + "--grid 4x1 --block 256", {"--grid", "'4x1'", "X,Y,Z", "1..4294967295"});
  expect_usage_error(run + "--grid 4,1,1,9 --block 256", {"--grid", "more than 3 components"});
  expect_usage_error(run + "--grid -1 --block 256", {"--grid", "'-1'", "1..4294967295"});
  expect_usage_error(run + "--grid 4294967296 --block 256", {"--grid", "4294967296", "out of range", "1..4294967295"});
  expect_usage_error(run + "--grid 0 --block 256", {"--grid", "out of range"});
  expect_usage_error(run + "--grid 4 --block 64,64", {"--block", "4096", "at most 1024"});
  expect_usage_error(run + "--grid 4294967295 --block 2", {"--grid", "32-bit grid size"});
  expect_usage_error(run + "--grid 4 --block 256 --lds 12k", {"--lds", "12k", "0..163840"});
  expect_usage_error(run + "--grid 4 --block 256 --max-instructions 0", {"--max-instructions", "1.."});
  expect_usage_error(run + "--grid 4 --block 256 --timeout -3", {"--timeout", "-3"});
  // The kind check needs the kernel's metadata (.type_name 'uint' for n): an error of the run, status 1.
  Run f = cli(run + "--grid 4 --block 256" + bufs + "--arg f32:1000");
  INFO(f.out);
  CHECK(f.status == 1);
  // The fourth --arg is argument #3: numbered from 0 here as in the packer's messages.
  CHECK_THAT(f.out, Catch::Contains("--arg #3 (f32; arguments are numbered from 0)") &&
                        Catch::Contains("argument #3 'n'") && Catch::Contains("'uint'"));
  Run extra = cli(run + "--grid 4 --block 256" + bufs + "--arg u32:1000 --arg u32:7");
  INFO(extra.out);
  CHECK(extra.status == 1);
  CHECK_THAT(extra.out, Catch::Contains("argument #4 (u32; numbered from 0) given, but the kernel takes only 4") &&
                            Catch::Contains("#3 'n'"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run: --max-instructions and --timeout stop the simulator with a named error", "[cli][limits]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 --block 256 "
                    "--arg buf:a:4096 --arg buf:b:4096 --arg buf:out:4096 --arg u32:1000 ";
  Run b = cli(run + "--grid 4 --max-instructions 10");
  INFO(b.out);
  CHECK(b.status == 1);
  CHECK_THAT(b.out, Catch::Contains("instruction budget of 10") && Catch::Contains("--max-instructions"));
  // 2^22 workgroups take far longer than 1 ms to simulate whatever the machine (each is checked at its start).
  Run t = cli(run + "--grid 4194304 --timeout 0.001");
  INFO(t.out);
  CHECK(t.status == 1);
  CHECK_THAT(t.out, Catch::Contains("time limit of 0.001 s exceeded") && Catch::Contains("--timeout"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit build/dump/stats with a pass in verify mode exit 1 on findings", "[cli][verify]") {
  auto dir = scratch();
  std::string co = (dir / "v.co").string();
  // bf16_dot loads and uses the data: without its author's waits the wait-count verifier reports the uses.
  Run b = cli("build --kernel bf16_dot --arch gfx942 --waitcnt verify --drop-author-waits -o " + co);
  INFO(b.out);
  CHECK(b.status == 1);
  CHECK_THAT(b.out, Catch::Contains("finding(s) of passes in verify mode") && Catch::Contains("not written"));
  CHECK_FALSE(std::filesystem::exists(co));
  Run ok = cli("build --kernel bf16_dot --arch gfx942 --waitcnt verify -o " + co);  // the author's waits suffice
  CHECK(ok.status == 0);
  // The hazard verifier: bf16_dot on gfx950 stores a v_dot2 result one wait state too early
  // without the hazard pass's s_nops.
  std::string hco = (dir / "h.co").string();
  Run h = cli("build --kernel bf16_dot --arch gfx950 --hazards verify -o " + hco);
  INFO(h.out);
  CHECK(h.status == 1);
  CHECK_THAT(h.out, Catch::Contains("1 finding(s) of passes in verify mode") && Catch::Contains("[dot-result]") &&
                        Catch::Contains("not written"));
  CHECK_FALSE(std::filesystem::exists(hco));
  Run d = cli("dump --kernel bf16_dot --arch gfx942 --waitcnt verify --drop-author-waits");
  CHECK(d.status == 1);
  CHECK_THAT(d.out, Catch::Contains(".amdhsa_kernel bf16_dot") && Catch::Contains("finding(s)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run checks --out before running", "[cli][args]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 --grid 4 --block 256 "
                    "--arg buf:a:4096 --arg buf:b:4096 --arg buf:out:4096 --arg u32:1000 ";
  expect_usage_error(run + "--out c=" + (dir / "c.bin").string(), {"--out", "'c'", "buffers: a, b, out"});
  expect_usage_error(run + "--out out=/nonexistent_dir/o.bin", {"--out out", "/nonexistent_dir"});
  expect_usage_error(run + "--out out=" + dir.string(), {"--out out", "is a directory"});
  // A directory where no file can be created (sysfs): refused before the run, with the reason. As root,
  // access() would say yes, so the file is created (and removed) to find out.
  if (std::filesystem::is_directory("/sys/kernel")) {
    expect_usage_error(run + "--out out=/sys/kernel/cdnajit_zz.bin", {"--out out", "'/sys/kernel/cdnajit_zz.bin'"});
    if (geteuid() == 0)
      expect_usage_error(run + "--out out=/sys/kernel/cdnajit_zz.bin", {"cannot be created: Permission denied"});
  }
  // A read-only procfs file: root can open it for writing and only the write fails (EIO), which was
  // found after the whole run. Now refused before it (a non-root user gets the open's EACCES).
  if (std::filesystem::exists("/proc/version")) {
    Run p = cli(run + "--out out=/proc/version");
    INFO(p.out);
    CHECK(p.status == 2);
    CHECK_THAT(p.out, Catch::Contains("--out out: '/proc/version'") && !Catch::Contains("ran vector_add"));
    CHECK_THAT(p.out, Catch::Contains(geteuid() == 0 ? "is a read-only procfs file" : "is not writable"));
  }
  expect_usage_error(run + "--arg buf:a:16", {"buffer name 'a' is used twice"});
  std::filesystem::remove_all(dir);
}

TEST_CASE("cdnajit run reads files of a bounded size and never blocks on them", "[cli][files]") {
  auto dir = scratch();
  std::string co = (dir / "va.co").string(), fifo = (dir / "fifo").string(), big = (dir / "big.bin").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  {  // 8 KiB of 0x01 bytes: only the declared 16 are read into buffer 'a'
    std::ofstream f(big, std::ios::binary);
    std::string ones(8192, '\x01');
    f << ones;
  }
  std::string run = "run " + co + " --kernel vector_add --device sim:gfx950 --grid 1 --block 64 ";
  std::string rest = " --arg buf:b:256 --arg buf:out:256 --arg u32:4";
  Run z = cli(run + "--arg buf:a:256:file=/dev/zero" + rest);
  INFO(z.out);
  CHECK(z.status == 1);
  CHECK_THAT(z.out, Catch::Contains("/dev/zero") && Catch::Contains("not a regular file"));
  Run q = cli(run + "--arg buf:a:256:file=" + fifo + rest);  // would block forever if opened for a blocking read
  CHECK(q.status == 1);
  CHECK_THAT(q.out, Catch::Contains("a FIFO"));
  Run c = cli("run " + fifo + " --kernel vector_add --grid 1 --block 64");
  CHECK(c.status == 1);
  CHECK_THAT(c.out, Catch::Contains("code object") && Catch::Contains("a FIFO"));
  Run d = cli("run " + dir.string() + " --kernel vector_add --grid 1 --block 64");
  CHECK(d.status == 1);
  CHECK_THAT(d.out, Catch::Contains("a directory"));
  std::string out = (dir / "out.bin").string();
  Run ok = cli(run + "--arg buf:a:256:file=" + big + rest + " --out out=" + out);
  INFO(ok.out);
  REQUIRE(ok.status == 0);
  std::ifstream f(out, std::ios::binary);
  std::vector<uint32_t> v(64);
  f.read(reinterpret_cast<char*>(v.data()), 256);
  CHECK(v[0] == 0x01010101u);  // a (0x01010101, a denormal) + b (0) = a: the file's bytes were read
  CHECK(v[4] == 0u);           // n = 4: elements 4.. untouched
  CHECK_THAT(ok.out, !Catch::Contains("warning"));  // the file had more than enough bytes
  // A file shorter than the buffer: the rest is zero, and a warning says how much was read.
  std::string small = (dir / "small.bin").string();
  std::ofstream(small, std::ios::binary) << std::string(8, '\x02');
  Run sh = cli(run + "--arg buf:a:256:file=" + small + rest + " --out out=" + out);
  INFO(sh.out);
  REQUIRE(sh.status == 0);
  CHECK_THAT(sh.out, Catch::Contains("warning: --arg buf:a: read 8 of 256 bytes from '" + small + "'; the rest is zero"));
  std::ifstream fs(out, std::ios::binary);
  fs.read(reinterpret_cast<char*>(v.data()), 256);
  CHECK(v[0] == 0x02020202u);
  CHECK(v[1] == 0x02020202u);
  CHECK(v[2] == 0u);
  CHECK(v[3] == 0u);
  // Initial contents are written in 16 MiB chunks: iota continues across the chunk boundary
  // (read back through --out of the input buffer itself).
  const uint32_t words = (17u << 20) / 4 + 3;
  std::string a_out = (dir / "a.bin").string();
  Run big_iota = cli(run + "--arg buf:a:" + std::to_string(words * 4 + 2) + ":iota" + rest + " --out a=" + a_out);
  INFO(big_iota.out);
  REQUIRE(big_iota.status == 0);
  std::ifstream fa(a_out, std::ios::binary);
  std::vector<uint32_t> a(words + 1, 0xffffffffu);
  fa.read(reinterpret_cast<char*>(a.data()), std::streamsize(words) * 4 + 2);
  CHECK(fa.gcount() == std::streamsize(words) * 4 + 2);
  size_t wrong = 0;
  for (uint32_t i = 0; i < words; ++i) wrong += a[i] != i;
  CHECK(wrong == 0);
  CHECK((a[words] & 0xffffu) == 0u);  // the last, partial word is zero
  std::filesystem::remove_all(dir);
}

namespace {
// Replaces the first occurrence of `from` in the file with `to` (same length); false if absent.
bool patch_file(const std::string& path, const std::vector<uint8_t>& from, const std::vector<uint8_t>& to) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto it = std::search(b.begin(), b.end(), from.begin(), from.end());
  if (it == b.end()) return false;
  std::copy(to.begin(), to.end(), it);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
  return true;
}
}  // namespace

TEST_CASE("cdnajit check: wait counts, hazards and simulator coverage of a code object", "[cli][check]") {
  auto dir = scratch();
  std::string co = (dir / "va_check.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  Run ok = cli("check " + co);
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, Catch::Contains("1 kernel") && Catch::Contains("0 findings"));
  Run unknown = cli("check " + co + " --kernel nope");
  CHECK(unknown.status == 1);
  CHECK_THAT(unknown.out, Catch::Contains("no kernel 'nope'") && Catch::Contains("vector_add"));
  // Break it: the s_waitcnt vmcnt(0) before the add becomes s_sendmsghalt sendmsg(MSG_INTERRUPT), which the
  // simulator deliberately does not implement (it halts the wave), and the second global_load_dword becomes a
  // tbuffer_load_format_x (same size) of the default format (8 UNORM, a run-time Error in the simulator).
  REQUIRE(patch_file(co, {0x70, 0x0f, 0x8c, 0xbf}, {0x01, 0x00, 0x91, 0xbf}));
  REQUIRE(patch_file(co, {0x00, 0x80, 0x50, 0xdc, 0x01, 0x00, 0x06, 0x02}, {0x00, 0x00, 0x08, 0xe8, 0x00, 0x01, 0x01, 0x80}));
  Run bad = cli("check " + co + " --kernel vector_add");
  CHECK(bad.status == 1);
  INFO(bad.out);
  CHECK_THAT(bad.out, Catch::Contains("[waitcnt]") && Catch::Contains("v_add_f32") && Catch::Contains("needs 's_waitcnt vmcnt("));
  CHECK_THAT(bad.out, Catch::Contains("[sim-coverage]") && Catch::Contains("s_sendmsghalt"));
  CHECK_THAT(bad.out, Catch::Contains("vector_add +0x"));
  // The tbuffer load right after a load overwrites its address register: the VMEM soft clause rule (a hazard finding).
  CHECK_THAT(bad.out, Catch::Contains("[soft-clause]"));
  // The store then reads v1, which the tbuffer load writes without a wait: a second [waitcnt].
  CHECK_THAT(bad.out, Catch::Contains("reads v1 (tbuffer_load_format_x"));
  CHECK_THAT(bad.out, Catch::Contains("4 findings"));
  Run help = cli("check --help");
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("--kernel") && Catch::Contains("--block"));
  // Undecodable bytes (SOPP opcode 0x7f, none on gfx950): one [sim-coverage] finding that says the
  // verifiers did not run, not a second [decode] finding about the placeholder's '<' text.
  std::string co2 = (dir / "va_undecodable.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co2).status == 0);
  REQUIRE(patch_file(co2, {0x70, 0x0f, 0x8c, 0xbf}, {0x00, 0x00, 0xff, 0xbf}));
  Run und = cli("check " + co2);
  INFO(und.out);
  CHECK(und.status == 1);
  CHECK_THAT(und.out, Catch::Contains("[sim-coverage]") && Catch::Contains("<undecodable 0xbfff0000>") &&
                          Catch::Contains("verifiers were not run"));
  CHECK_THAT(und.out, !Catch::Contains("[decode]") && Catch::Contains(": 1 finding"));
  // The final s_endpgm (0xbf810000) becomes s_nop 0: execution can run past the end of the code.
  std::string co3 = (dir / "va_no_end.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co3).status == 0);
  REQUIRE(patch_file(co3, {0x00, 0x00, 0x81, 0xbf}, {0x00, 0x00, 0x80, 0xbf}));
  Run end = cli("check " + co3);
  INFO(end.out);
  CHECK(end.status == 1);
  CHECK_THAT(end.out, Catch::Contains("s_nop 0  [end-of-code]") && Catch::Contains("run past the end of its code") &&
                          Catch::Contains(": 1 finding"));
}

TEST_CASE("cdnajit check --block: a launch with more block dimensions than the kernel's work-item ids", "[cli][check]") {
  auto dir = scratch();
  std::string co = (dir / "va_ids.co").string();
  // vector_add reads only the X work-item id: its descriptor enables only X.
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  Run flat = cli("check " + co + " --block 128");
  CHECK(flat.status == 0);
  CHECK_THAT(flat.out, Catch::Contains("0 findings"));
  Run two = cli("check " + co + " --block 64,2");
  INFO(two.out);
  CHECK(two.status == 1);
  CHECK_THAT(two.out, Catch::Contains("[workitem-id] launched with block 64x2x1, but the descriptor enables only the X "
                                      "work-item id") &&
                          Catch::Contains("2 work-items share every id") && Catch::Contains("launch a block of 128x1x1") &&
                          Catch::Contains(": 1 finding"));
  Run big = cli("check " + co + " --block 64,32");
  CHECK(big.status == 2);
  CHECK_THAT(big.out, Catch::Contains("2048 work-items per workgroup (valid: at most 1024)"));
}

TEST_CASE("cdnajit run: numerics and buffer-range switches are validated", "[cli][args]") {
  auto dir = scratch();
  std::string co = (dir / "va_sw.co").string();
  REQUIRE(cli("build --kernel vector_add --arch gfx950 -o " + co).status == 0);
  std::string base = "run " + co + " --kernel vector_add --device sim:gfx950 --grid 1 --block 64 "
                     "--arg buf:a:256 --arg buf:b:256 --arg buf:out:256 --arg u32:64 ";
  CHECK(cli(base + "--mfma-numerics exact --dot2 products --strict-buffer-range").status == 0);
  Run bad = cli(base + "--mfma-numerics fast");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.out, Catch::Contains("valid: cdna3, exact"));
  Run bad2 = cli(base + "--dot2 x");
  CHECK(bad2.status == 2);
  CHECK_THAT(bad2.out, Catch::Contains("valid: fused, products"));
  CHECK(cli(base + "--e8m0-zero one").status == 0);
  Run bad3 = cli(base + "--e8m0-zero 0");
  CHECK(bad3.status == 2);
  CHECK_THAT(bad3.out, Catch::Contains("valid: ocp, one"));
  CHECK(cli(base + "--store-release all").status == 0);
  Run bad_release = cli(base + "--store-release lgkm");
  CHECK(bad_release.status == 2);
  CHECK_THAT(bad_release.out, Catch::Contains("valid: lds, all, none"));
  CHECK(cli(base + "--sr-seed-bits high").status == 0);
  Run bad4 = cli(base + "--sr-seed-bits top");
  CHECK(bad4.status == 2);
  CHECK_THAT(bad4.out, Catch::Contains("valid: per-form, low, high"));
  CHECK(cli(base + "--atomic-add-f32-denormals refuse").status == 0);
  Run bad5 = cli(base + "--atomic-add-f32-denormals flush");
  CHECK(bad5.status == 2);
  CHECK_THAT(bad5.out, Catch::Contains("valid: keep, flush-inputs, refuse"));
}

TEST_CASE("cdnajit gemm: impossible shapes and configurations are usage errors before any work", "[cli][args]") {
  expect_usage_error("gemm --k 100", {"K = 100 must be a multiple of tile_k = 64"});
  expect_usage_error("gemm --layout TX", {"unknown layout 'TX'", "NN", "NT", "TN", "TT"});
  expect_usage_error("gemm --arch gfx942 --model mi355x", {"model mi355x is a gfx950 product"});
  expect_usage_error("gemm --tile-m 256 --tile-n 256 --tile-k 128", {"LDS limit"});
}
