// Process entry for every executable with an sc_main: silences the SystemC
// banner (it would pollute JSON on stdout and gtest test discovery) and
// hands over to the kernel. The variable must be set before the kernel starts.
#include <cstdlib>
#include <systemc>

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
