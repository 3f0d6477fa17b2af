// format_printf_buffer: the text of buffered device-printf frames, built here byte by byte as
// LLVM's buffered printf lowering writes them (runtime/device_printf.hpp states the layout).
#include <catch2/catch.hpp>

#include <cstring>

#include "runtime/device_printf.hpp"

using namespace cdnajit;

namespace {

// A buffer under construction: the header, then frames appended one by one.
struct Buffer {
  std::vector<uint8_t> bytes = printf_buffer_header(4096);
  std::vector<uint8_t> frame;
  static void put(std::vector<uint8_t>& to, const void* v, size_t n) {
    to.resize(to.size() + n);
    std::memcpy(to.data() + to.size() - n, v, n);
  }
  void u64(uint64_t v) { put(frame, &v, 8); }
  void f64(double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    u64(v);
  }
  void str(const std::string& s) {  // characters and NUL, padded to a multiple of 8 bytes
    const size_t n = (s.size() + 1 + 7) / 8 * 8;
    frame.insert(frame.end(), s.begin(), s.end());
    frame.resize(frame.size() + n - s.size(), 0);
  }
  // Closes the frame: its control dword first (size << 2 | constant << 1 | stderr).
  void end(bool constant, bool to_stderr = false) {
    const uint32_t control = uint32_t(frame.size() + 4) << 2 | uint32_t(constant) << 1 | uint32_t(to_stderr);
    put(bytes, &control, 4);
    put(bytes, frame.data(), frame.size());
    frame.clear();
    const uint32_t used = uint32_t(bytes.size() - kPrintfHeaderBytes);
    std::memcpy(bytes.data(), &used, 4);
  }
};

}  // namespace

TEST_CASE("device printf frames: constant formats, arguments narrowed as C reads them, inline strings", "[printf]") {
  const std::vector<std::string> formats = {"0:0:1234abcd,%d|%u|%hhd|%lld|%x\n", "0:0:ff,[%-4s] %c %.2f%%\n"};
  Buffer b;
  b.u64(0x1234abcd);
  b.u64(uint32_t(-7));  // an int, zero-extended by the compiler
  b.u64(4000000000u);
  b.u64(uint32_t(200));  // (signed char)200 promoted: printed as -56 by %hhd
  b.u64(uint64_t(-5));
  b.u64(255);
  b.end(true);
  b.u64(0xff);
  b.str("ab");
  b.u64('z');
  b.f64(2.345);
  b.end(true, /*to_stderr=*/true);
  const PrintedText t = format_printf_buffer(b.bytes, formats);
  CHECK(t.out == "-7|4000000000|-56|-5|ff\n");
  CHECK(t.err == "[ab  ] z 2.35%\n");
}

TEST_CASE("device printf frames: a non-constant format travels in the frame, its %s as a pointer", "[printf]") {
  Buffer b;
  b.str("n=%d s=%s\n");
  b.u64(3);
  b.u64(0xabc0);
  b.end(false);
  CHECK(format_printf_buffer(b.bytes, {}).out == "n=3 s=<string at 0xabc0>\n");
}

TEST_CASE("device printf frames: what is wrong is said, not thrown", "[printf]") {
  SECTION("a format the code object does not list") {
    Buffer b;
    b.u64(0x77);
    b.end(true);
    const PrintedText t = format_printf_buffer(b.bytes, {"0:0:78,x\n"});
    CHECK(t.out.empty());
    CHECK(t.err == "cdnajit: device printf: format 0000000000000077 is not in the code object's amdhsa.printf\n");
  }
  SECTION("a frame with fewer arguments than its format reads") {
    Buffer b;
    b.u64(0x10);
    b.u64(1);
    b.end(true);
    const PrintedText t = format_printf_buffer(b.bytes, {"0:0:10,%d %d\n"});
    CHECK(t.out.empty());
    CHECK(t.err.find("holds fewer arguments than its format \"%d %d\n\" reads") != std::string::npos);
  }
  SECTION("a frame whose size runs past the written bytes, and calls that did not fit") {
    Buffer b;
    b.u64(0x10);
    b.end(true);
    const uint32_t control = 4096u << 2 | 2;
    std::memcpy(b.bytes.data() + kPrintfHeaderBytes, &control, 4);
    const uint32_t dropped = 3;
    std::memcpy(b.bytes.data() + 8, &dropped, 4);
    const PrintedText t = format_printf_buffer(b.bytes, {"0:0:10,x\n"});
    CHECK(t.out.empty());
    CHECK(t.err.find("a malformed frame at byte 16 of the buffer (4096 bytes)") != std::string::npos);
    CHECK(t.err.find("3 printf calls did not fit the launch's 4096-byte buffer") != std::string::npos);
  }
  SECTION("the header's used count is clamped to the capacity and to the bytes given") {
    Buffer b;
    const uint32_t used = 1u << 30;
    std::memcpy(b.bytes.data(), &used, 4);
    CHECK(printf_buffer_used(b.bytes) == kPrintfHeaderBytes + 4096);
    CHECK(format_printf_buffer(b.bytes, {}).out.empty());
  }
}
