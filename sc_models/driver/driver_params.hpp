#pragma once
#include "driver/firmware.hpp"

namespace gpumem {

// What the driver is elaborated with (params/ fills it from the config).
struct DriverParams {
  FirmwareParams firmware;
  unsigned max_request_bytes = 64;  // the data it loads goes in pieces no request would exceed
  bool virtual_addresses = false;   // an address space: data items name a process and a VA
};

}  // namespace gpumem
