// doc_snippets: its value is in being built (every documentation example
// compiled and linked). Running it lists how many examples that covered.
#include <cstdio>

namespace doc_snippets {
extern const int count;
}

int main() {
  std::printf("%d documentation examples compiled and linked\n", doc_snippets::count);
  return 0;
}
