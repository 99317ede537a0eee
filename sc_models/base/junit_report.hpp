// A JUnit XML report, the form in which Jenkins, GitLab and cocotb's or a
// UVM flow's results reach a CI server: one test suite of test cases, each
// passed, failed (a one-line message and the failure's text) or skipped.
// gpumem cosim writes its run as one case, gpumem sweep and sweep merge a
// case per point.
#pragma once
#include <string>
#include <vector>

namespace gpumem {

struct JUnitCase {
  std::string classname, name;
  double seconds = -1;  // < 0: no time attribute (a report that compares byte for byte)
  std::string message;  // failed: the one-line message
  std::string failure;  // failed: the failure's text; empty for a pass
  std::string skipped;  // not run: why (then message and failure are unused)
};

// The report's whole text. `seconds` < 0: the suite has no time attribute.
std::string junit_report(const std::string& suite, const std::vector<JUnitCase>& cases, double seconds = -1);

// Text as XML character data or an attribute value (control characters
// other than newline and tab, which XML 1.0 forbids, as spaces).
std::string xml_escaped(const std::string& s);

// A failure report's message: its first heading and the line after it,
// as "HEADING: line" (a report that is one line: that line).
std::string first_divergence(const std::string& report);

}  // namespace gpumem
