// The offload-bundle reader and writer (runtime/hip_sim/offload_bundle): what
// cdnajit-hipcc writes, the drop-in runtime reads back; malformed input gives
// an Error naming what is wrong, never a read outside the buffer.
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/hip_sim/offload_bundle.hpp"

using namespace cdnajit;
using namespace cdnajit::hip_sim;

TEST_CASE("an offload bundle round-trips its code objects", "[hip_sim]") {
  std::vector<uint8_t> a(5000, 0xa1), b(3, 0xb2);
  const auto bundle = write_offload_bundle({{"gfx942", a}, {"gfx950", b}});
  REQUIRE(std::memcmp(bundle.data(), "__CLANG_OFFLOAD_BUNDLE__", 24) == 0);
  const auto entries = read_offload_bundle(bundle.data(), bundle.size());
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].id == "host-x86_64-unknown-linux-gnu-");
  CHECK(entries[0].bytes.empty());
  CHECK(entries[1].id == "hipv4-amdgcn-amd-amdhsa--gfx942");
  CHECK(std::vector<uint8_t>(entries[1].bytes.begin(), entries[1].bytes.end()) == a);
  CHECK(std::vector<uint8_t>(entries[2].bytes.begin(), entries[2].bytes.end()) == b);
  // Entries start on 4096-byte boundaries, as clang's driver lays them out.
  CHECK((entries[1].bytes.data() - bundle.data()) % 4096 == 0);
  CHECK((entries[2].bytes.data() - bundle.data()) % 4096 == 0);
}

TEST_CASE("bundle entry ids name their processor", "[hip_sim]") {
  CHECK(bundle_entry_processor("hipv4-amdgcn-amd-amdhsa--gfx942") == "gfx942");
  CHECK(bundle_entry_processor("hipv4-amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-") == "gfx950");
  CHECK(bundle_entry_processor("host-x86_64-unknown-linux-gnu-").empty());
}

TEST_CASE("malformed offload bundles are refused with the reason", "[hip_sim]") {
  const auto good = write_offload_bundle({{"gfx942", std::vector<uint8_t>(100, 1)}});
  auto error_of = [](const std::vector<uint8_t>& v) {
    try {
      read_offload_bundle(v.data(), v.size());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::vector<uint8_t> v = good;
  v[0] = 'X';
  CHECK_THAT(error_of(v), Catch::Contains("magic"));
  CHECK_THAT(error_of({'C', 'C', 'O', 'B', 0, 0, 0, 0}), Catch::Contains("compressed"));
  CHECK_THAT(error_of(std::vector<uint8_t>(good.begin(), good.begin() + 40)), Catch::Contains("truncated"));
  v = good;
  v[24] = 0;  // zero entries
  CHECK_THAT(error_of(v), Catch::Contains("0 entries"));
  v = good;
  const uint64_t huge = uint64_t(1) << 40;
  std::memcpy(v.data() + 32, &huge, 8);  // first entry's offset
  CHECK_THAT(error_of(v), Catch::Contains("outside the bundle"));
  CHECK_THAT(error_of(std::vector<uint8_t>(good.begin(), good.end() - 1)), Catch::Contains("outside the bundle"));
}
