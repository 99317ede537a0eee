// sc_main for the simulation tests: gtest runs inside the SystemC kernel's
// process. SystemC errors become exceptions, so a test fails instead of aborting.
#include <gtest/gtest.h>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
