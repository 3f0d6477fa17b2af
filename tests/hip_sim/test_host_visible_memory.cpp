// sim::Memory::alloc_host_visible, which backs hipHostMalloc / hipMallocManaged
// in the drop-in runtime: the device address is the host address, the bytes are
// zeroed, bounds are checked like any allocation's, and simulated allocations
// around them keep their address reuse.
#include <catch2/catch.hpp>

#include <cstring>

#include "jit/isa/error.hpp"
#include "runtime/sim/simulator.hpp"

using namespace cdnajit;

TEST_CASE("host-visible allocations share one address for host and device", "[hip_sim][memory]") {
  sim::Memory mem;
  const uint64_t a = mem.alloc(1000, "dev");
  const uint64_t h = mem.alloc_host_visible(256, "host");
  auto* p = reinterpret_cast<uint32_t*>(h);
  CHECK(p[0] == 0);
  CHECK(p[63] == 0);
  p[5] = 0x12345678;  // a host write ...
  uint32_t v = 0;
  mem.read(h + 20, &v, 4);  // ... is what the simulated memory holds
  CHECK(v == 0x12345678);
  const uint32_t w = 0xdeadbeef;
  mem.write(h + 252, &w, 4);
  CHECK(p[63] == 0xdeadbeef);
  REQUIRE(mem.find(h, 256) != nullptr);
  CHECK(mem.find(h, 256)->host_visible);
  CHECK(mem.find(h + 1, 256) == nullptr);  // one byte past the end
  CHECK_THROWS_WITH(mem.read(h + 256, &v, 4), Catch::Contains("out of bounds"));

  // Freeing the newest simulated allocation still returns its addresses, host blocks or not.
  mem.free(a);
  CHECK(mem.alloc(1000, "again") == a);
  mem.free(h);
  CHECK(mem.find(h, 1) == nullptr);
  CHECK(mem.alloc(10, "next") > a);
}
