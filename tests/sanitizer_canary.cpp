// A planted bug of each kind the sanitizer build must stop at (tests
// sanitize.canary.*, docs/reliability.md): if a flag went missing from the
// build, the canary would exit 0 and its test would fail. The argument picks
// the bug; the index and the addend come from argc so no compiler folds them.
#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char* argv[]) {
  if (argc < 2) return 2;
  if (std::strcmp(argv[1], "heap-overflow") == 0) {
    int* p = new int[4]{};
    const int v = p[argc + 2];  // argc == 2: p[4]
    delete[] p;
    return v;
  }
  if (std::strcmp(argv[1], "signed-overflow") == 0) {
    int x = INT_MAX - 2 + argc;  // INT_MAX
    x += argc;
    return x == 0;
  }
  // A block read after 16 MB more was freed and as much allocated again:
  // reported while the quarantine (64 MB in the suite, tests/CMakeLists.txt)
  // still holds it, and not once a smaller one has handed it out again.
  if (std::strcmp(argv[1], "use-after-free") == 0) {
    std::vector<char*> freed_after((16 << 20) / 64), allocated_after(freed_after.size());
    for (char*& b : freed_after) b = new char[64];
    char* p = new char[64];
    p[0] = static_cast<char>(argc);
    delete[] p;
    for (char* b : freed_after) delete[] b;
    for (char*& b : allocated_after) b = new char[64];
    const char v = p[0];
    for (char* b : allocated_after) delete[] b;
    return v;
  }
  if (std::strcmp(argv[1], "leak") == 0) {
    static char* volatile sink;  // volatile: the allocation and the lost pointer stay
    sink = new char[64 * argc];
    sink = nullptr;
    return sink != nullptr;
  }
  return 2;
}
