#include "base/junit_report.hpp"

#include <cstdio>
#include <sstream>

namespace gpumem {

std::string xml_escaped(const std::string& s) {
  std::string x;
  for (const char c : s) {
    switch (c) {
      case '&': x += "&amp;"; break;
      case '<': x += "&lt;"; break;
      case '>': x += "&gt;"; break;
      case '"': x += "&quot;"; break;
      default: x += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? ' ' : c;
    }
  }
  return x;
}

std::string first_divergence(const std::string& report) {
  std::istringstream lines(report);
  std::string heading, first;
  while (heading.empty() && std::getline(lines, heading)) {
  }
  std::getline(lines, first);
  return first.empty() ? heading : heading + ": " + first;
}

namespace {

std::string time_attribute(double seconds) {
  if (seconds < 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, " time=\"%.3f\"", seconds);
  return buf;
}

}  // namespace

std::string junit_report(const std::string& suite, const std::vector<JUnitCase>& cases, double seconds) {
  size_t failures = 0, skipped = 0;
  for (const JUnitCase& c : cases) {
    if (!c.skipped.empty()) ++skipped;
    else if (!c.failure.empty()) ++failures;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"" + xml_escaped(suite) +
                  "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) +
                  "\" errors=\"0\"" + (skipped ? " skipped=\"" + std::to_string(skipped) + "\"" : "") +
                  time_attribute(seconds) + ">\n";
  for (const JUnitCase& c : cases) {
    x += "    <testcase classname=\"" + xml_escaped(c.classname) + "\" name=\"" + xml_escaped(c.name) + "\"" +
         time_attribute(c.seconds);
    if (!c.skipped.empty())
      x += ">\n      <skipped message=\"" + xml_escaped(c.skipped) + "\"/>\n    </testcase>\n";
    else if (!c.failure.empty())
      x += ">\n      <failure message=\"" + xml_escaped(c.message) + "\">" + xml_escaped(c.failure) +
           "</failure>\n    </testcase>\n";
    else
      x += "/>\n";
  }
  return x + "  </testsuite>\n</testsuites>\n";
}

}  // namespace gpumem
