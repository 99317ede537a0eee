#!/usr/bin/env bash
# Installs the Debian packages gpumem needs, only those that are missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libsystemc-dev          # SystemC 2.3.4 + TLM-2.0
  verilator               # 5.006, provides verilator-config.cmake
  libyaml-cpp-dev         # config files
  libgtest-dev googletest # tests (CTest + gtest_discover_tests)
  librapidcheck-dev       # property tests with shrinking
  nlohmann-json3-dev      # stats JSON
  libcli11-dev            # command line
  graphviz                # dot: the library dependency picture in docs/architecture.md
  python3-matplotlib      # scripts/plot_channels.py and gpumem explore --plot (docs/explorer.md, "Plots")
  clang libclang-rt-14-dev llvm lld  # the reliability build: sanitizers, libFuzzer, symbolized reports, its linker
  libpugixml-dev          # gpumem cosim --rtl: a module's ports from verilator --xml-only (docs/cosim.md)
  zlib1g-dev              # FST waves of RTL verilated at run time
  universal-ctags         # the CTest code.function_length: each function's extent (scripts/check_function_length.py)
  lcov                    # gpumem cosim --code-coverage: genhtml's report of the RTL's line and branch coverage (docs/cosim.md)
  slurmctld slurmd slurm-client munge  # gpumem sweep --slurm and its one-node test cluster (scripts/slurm-local.sh)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
