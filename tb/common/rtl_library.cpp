#include "tb/common/rtl_library.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base/child_process.hpp"
#include "base/input_file.hpp"
#include "base/readable.hpp"
#include "base/stop_request.hpp"
#include "base/user_paths.hpp"
#include "regs/rtl_package.hpp"
#include "tb/common/rtl_port_check.hpp"

namespace gpumem::tb {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// FNV-1a, 64 bits: stable across runs and machines (std::hash is neither).
struct Fnv {
  uint64_t h = 0xcbf29ce484222325ull;
  Fnv& add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    h = (h ^ 0xFF) * 0x100000001b3ull;  // a separator, so "ab"+"c" differs from "a"+"bc"
    return *this;
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

// The first line a command prints (its version).
std::string first_line_of(const std::vector<std::string>& argv, const fs::path& scratch) {
  const fs::path log = scratch / ("version-" + std::to_string(getpid()) + ".txt");  // runs in parallel share the folder
  fs::remove(log);
  const int status = run_tool(argv, log);
  std::string line;
  std::ifstream in(log);
  std::getline(in, line);
  fs::remove(log);
  return status == 0 ? line : "";
}

// Lines of a log that say what went wrong (Verilator's %Error/%Warning, the
// compiler's "error:"), at most `limit`.
std::vector<std::string> problems(const fs::path& log, bool warnings, size_t limit = 40) {
  std::vector<std::string> out;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line) && out.size() < limit;) {
    const bool error = line.rfind("%Error", 0) == 0 || line.find("error:") != std::string::npos;
    const bool warning = line.rfind("%Warning", 0) == 0;
    if ((error && line.find("Exiting due to") == std::string::npos) || (warnings && warning)) out.push_back(line);
  }
  return out;
}

struct Tools {
  std::string verilator, cxx, make;
};

std::string find_verilator() {
  const char* v = std::getenv("GPUMEM_VERILATOR");
  const std::string verilator_name = v && *v ? v : "verilator";
  const std::string verilator = find_tool(verilator_name);
  if (verilator.empty())
    throw RtlToolError(std::string("cannot verilate the RTL: no Verilator (") + verilator_name +
                             (v && *v ? ", from GPUMEM_VERILATOR" : " on PATH") +
                             "); install it with scripts/install-deps.sh");
  return verilator;
}

Tools find_tools() {
  Tools t{find_verilator(), "", find_tool("make")};
  if (t.make.empty())
    throw RtlToolError("cannot build the verilated RTL: no make on PATH; install it with scripts/install-deps.sh");
  const char* c = std::getenv("CXX");
  const std::string cxx_name = c && *c ? c : GPUMEM_CXX_COMPILER;
  t.cxx = find_tool(cxx_name);
  if (t.cxx.empty())
    throw RtlToolError("cannot compile the verilated RTL: no C++ compiler (" + cxx_name +
                             (c && *c ? ", from CXX" : ", the one gpumem was built with") +
                             "); install it with scripts/install-deps.sh");
  return t;
}

// The library's C++ flags. The standard is gpumem's own: SystemC checks at
// link time that a module was compiled for its library's standard (Debian
// builds it as C++17, clang's default is C++14), and the adapter's headers
// are gpumem's.
constexpr const char* kCompileFlags = "-fPIC -std=c++17 -I" GPUMEM_SOURCE_DIR;

// Verilator's flags for every runtime library, as the built-in blocks are
// verilated (verilator/CMakeLists.txt, GPUMEM_VERILATE_COMMON_ARGS), with
// waves of every field.
const std::vector<std::string>& common_flags() {
  static const std::vector<std::string> f{"--assert", "--x-initial", "unique", "--trace-fst", "--trace-structs",
                                          "--trace-max-array", "4096"};
  return f;
}

std::string adapter_source(const RtlContract& c) {
  std::string table;  // the contract's ports as a port table (port_table.hpp), widths at this config
  for (const RtlContractPort& p : c.ports)
    table += std::string(" ") + (p.output ? "OUT" : p.name == "clk_i" ? "CLOCK" : "IN") + "(" + p.name + ", " +
             std::to_string(p.width) + ")";
  return "// Written by gpumem (tb/common/rtl_library.cpp): the fast-mode adapter of\n"
         "// the " + c.block + " contract around the model verilated here.\n"
         "#include \"Vrtl.h\"\n#include \"tb/common/rtl_adapter.hpp\"\n"
         "#define GPUMEM_PORTS(CLOCK, IN, OUT)" + table + "\n"
         "GPUMEM_RTL_PORTS(Ports, GPUMEM_PORTS)\n"
         "extern \"C\" const GpumemRtlApi* " GPUMEM_RTL_API_ENTRY "() { return gpumem::tb::rtl_api<Vrtl, Ports>(); }\n";
}

// The pin-level library's source: the block's shell (rtl_sc_shell.hpp) with
// the Verilated --sc model inside, each port but clk_i on a signal of the
// model's own type and copied to or from the shell's uint64_t port.
std::string sc_adapter_source(const RtlContract& c) {
  std::string signals, binds, in, out, in_sens, out_sens;
  for (const RtlContractPort& p : c.ports) {
    if (p.name == "clk_i") continue;
    signals += "  sc_core::sc_signal<Native<decltype(Vrtl::" + p.name + ")>> n_" + p.name + "{\"n_" + p.name + "\"};\n";
    binds += "    model->" + p.name + "(n_" + p.name + ");\n";
    if (p.output) {
      out += "    " + p.name + ".write(static_cast<uint64_t>(n_" + p.name + ".read()));\n";
      out_sens += " << n_" + p.name;
    } else {
      in += "    n_" + p.name + ".write(static_cast<Native<decltype(Vrtl::" + p.name + ")>>(" + p.name + ".read()));\n";
      in_sens += " << " + p.name;
    }
  }
  return "// Written by gpumem (tb/common/rtl_library.cpp): the pin-level shell of the\n"
         "// " + c.block + " contract around the model verilated here.\n"
         "#include <memory>\n#include <type_traits>\n#include \"Vrtl.h\"\n"
         "#include \"tb/common/initial_values.hpp\"\n"
         "#include \"" + c.sc_shell_header + "\"\n"
         "template <typename Port> using Native = typename std::remove_reference_t<Port>::data_type;\n"
         "struct Impl final : " + c.sc_shell + " {\n"
         "  SC_HAS_PROCESS(Impl);\n"
         "  VerilatedContext context;\n  std::unique_ptr<Vrtl> model;\n" + signals +
         "  Impl(sc_core::sc_module_name name, uint64_t seed) : " + c.sc_shell + "(name) {\n"
         "    gpumem::tb::randomize_initial_values(context, seed);  // as the fast mode's\n"
         "    context.fatalOnError(false);\n"
         "    Verilated::threadContextp(&context);\n"
         "    model = std::make_unique<Vrtl>(\"rtl\");\n"
         "    model->clk_i(clk_i);\n" + binds +
         "    SC_METHOD(copy_in);\n    sensitive" + in_sens + ";\n"
         "    SC_METHOD(copy_out);\n    sensitive" + out_sens + ";\n  }\n"
         "  ~Impl() override {\n    Verilated::threadContextp(&context);\n    model.reset();\n"
         "    Verilated::threadContextp(Verilated::defaultContextp());\n  }\n"
         "  void copy_in() {\n" + in + "  }\n  void copy_out() {\n" + out + "  }\n"
         "  bool assertion_failed() const override { return context.gotError(); }\n"
         "  void final() override { model->final(); }\n};\n"
         "extern \"C\" void* " GPUMEM_RTL_SC_ENTRY "(const char* name, uint64_t seed) {\n"
         "  return static_cast<gpumem::tb::RtlScShell*>(new Impl(name, seed));\n}\n";
}

// Verilator's flags for parameters "NAME=value".
std::vector<std::string> g_flags(const std::vector<std::string>& parameters) {
  std::vector<std::string> flags;
  for (const std::string& p : parameters) flags.push_back("-G" + p);
  return flags;
}

// What step 1 of load_rtl finds: `top` of `sources` (gpumem_pkg first)
// elaborated with each contract parameter it declares.
struct Elaborated {
  RtlModule module;
  std::vector<std::string> parameters_set;  // "NAME=value"
};
Elaborated elaborate(const std::string& verilator, const std::vector<std::string>& sources, const std::string& top,
                     const RtlContract& c, const fs::path& work, const fs::path& log) {
  auto xml = [&](const std::vector<std::string>& params) {
    // Lint is the build's business: here only the elaborated ports matter.
    std::vector<std::string> argv{verilator, "--xml-only", "-Wno-fatal", "--top-module", top,
                                  "--xml-output", (work / "module.xml").string()};
    argv.insert(argv.end(), params.begin(), params.end());
    argv.insert(argv.end(), sources.begin(), sources.end());
    if (run_tool(argv, log) != 0)
      throw RtlBuildError("Verilator cannot read the RTL (" + log.string() + ")", problems(log, false));
    return read_rtl_module((work / "module.xml").string(), top);
  };
  const RtlModule declared = xml({});
  Elaborated out;
  for (const RtlContractParameter& p : c.parameters)
    for (const std::string& name : declared.parameters)
      if (name == p.name) out.parameters_set.push_back(p.name + "=" + p.value);
  out.module = out.parameters_set.empty() ? declared : xml(g_flags(out.parameters_set));
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const GpumemRtlApi* open_library(const fs::path& path, const RtlContract& c) {
  // Never closed: a Verilated model's runtime must outlive every model of it.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load ") + path.string() + ": " + dlerror());
  const auto entry = reinterpret_cast<GpumemRtlApiEntry>(dlsym(handle, GPUMEM_RTL_API_ENTRY));
  if (!entry) throw std::runtime_error(path.string() + " has no " GPUMEM_RTL_API_ENTRY);
  const GpumemRtlApi* api = entry();
  if (api->abi_version != GPUMEM_RTL_ABI_VERSION || api->inputs != c.inputs() || api->outputs != c.outputs())
    throw std::runtime_error(path.string() + " was built for another interface; delete it to rebuild");
  return api;
}

void* (*open_sc_library(const fs::path& path))(const char*, uint64_t) {
  // RTLD_LOCAL: its Verilator runtime is its own; SystemC is the process's (libsystemc is shared).
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load ") + path.string() + ": " + dlerror());
  const auto entry = reinterpret_cast<void* (*)(const char*, uint64_t)>(dlsym(handle, GPUMEM_RTL_SC_ENTRY));
  if (!entry) throw std::runtime_error(path.string() + " has no " GPUMEM_RTL_SC_ENTRY);
  return entry;
}

}  // namespace

std::string LoadedRtl::description() const {
  std::string s;
  for (const std::string& f : sources) s += (s.empty() ? "" : ", ") + f;
  const char* coverage = code_coverage ? ", with line coverage" : "";
  if (!user_rtl) return s + " verilated for this config" + coverage;
  return s + ", top " + top + coverage;
}

std::string LoadedRtl::cosim_flags() const {
  if (!user_rtl) return "";
  std::string s;
  for (const std::string& f : sources) s += " --rtl " + shell_quoted(absolute_path(f));
  s += " --top " + top;
  if (max_latency) s += " --max-latency " + std::to_string(max_latency);
  return schemes.empty() ? s : s + " --schemes " + schemes;
}

std::string rtl_cache_dir() {
  if (const char* d = std::getenv("GPUMEM_RTL_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/gpumem/rtl";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/gpumem/rtl";
}

RtlModule elaborate_project_rtl(const RtlContract& c, const std::string& work) {
  const fs::path dir = work;
  fs::create_directories(dir);
  write_file(dir / "gpumem_pkg.sv", systemverilog_package());
  const std::vector<std::string> sources{(dir / "gpumem_pkg.sv").string(),
                                         (fs::path(GPUMEM_SOURCE_DIR) / c.rtl_file).string()};
  return elaborate(find_verilator(), sources, c.module, c, dir, dir / "build.log").module;
}

namespace {

std::vector<std::string> read_lines(const fs::path& p) {
  std::vector<std::string> lines;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_lines(const fs::path& p, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  write_file(p, text);
}

bool is_runtime_object(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.rfind("verilated", 0) == 0 && (p.extension() == ".o" || p.extension() == ".d");
}

// The RTL cache (docs/cosim.md, "Any geometry, and your own RTL"): one folder a key, the key
// every input of a build (the sources, the package, the waivers, the
// adapters and the test-bench headers they compile with, the contract's
// parameters, the tools and their versions, the flags), so that a folder
// found is a build of exactly these, and a build's folder appears whole.
class RtlCache {
 public:
  RtlCache(const RtlBuildRequest& request, std::ostream* progress) : request_(request), c_(request.contract), progress_(progress) {
    out_.user_rtl = !request.sources.empty();
    out_.max_latency = out_.user_rtl ? 0 : 1;
    out_.top = request.top.empty() ? c_.module : request.top;
    out_.sources = out_.user_rtl ? request.sources : std::vector<std::string>{c_.rtl_file};
    for (const std::string& s : out_.sources) {
      const fs::path p = out_.user_rtl ? fs::path(s) : fs::path(GPUMEM_SOURCE_DIR) / s;
      if (!fs::is_regular_file(p)) throw RtlBuildError("no RTL file " + s, {});
      files_.push_back(absolute_path(p));
    }
    package_ = systemverilog_package();
    waivers_ = read_input_file(std::string(GPUMEM_SOURCE_DIR) + "/verilator/waivers.vlt", "lint waiver");
    adapter_ = adapter_source(c_);
    tools_ = find_tools();
    root_ = rtl_cache_dir();
    std::error_code ec;
    fs::create_directories(root_, ec);
    if (ec)
      throw RtlToolError("cannot make the RTL cache folder " + root_.string() + " (GPUMEM_RTL_CACHE, XDG_CACHE_HOME or HOME): " +
                         ec.message());
    verilator_version_ = first_line_of({tools_.verilator, "--version"}, root_);
    cxx_version_ = first_line_of({tools_.cxx, "--version"}, root_);
    out_.code_coverage = request.code_coverage;
    key_ = key_of().hex();
    dir_ = root_ / (c_.block + "-" + key_);
    out_.library = (dir_ / "libgpumem_rtl.so").string();
  }

  // The fast-mode library: from the cache, or built into it.
  void fast() {
    const fs::path library = out_.library;
    if (fs::exists(library) && fs::exists(dir_ / "parameters.txt") && fs::exists(dir_ / "lint.txt")) {
      // What the build found (the parameters set, the lint) is kept beside
      // the library, so a run from the cache reports it too.
      out_.parameters_set = read_lines(dir_ / "parameters.txt");
      out_.lint = read_lines(dir_ / "lint.txt");
    } else {
      build_fast();
    }
    out_.api = open_library(library, c_);
  }

  // The pin-level library, beside the fast one.
  void pin_level() {
    const fs::path sc_library = dir_ / "libgpumem_rtl_sc.so";
    if (!fs::exists(sc_library)) {
      step("verilating " + out_.top + " as a SystemC module for the pin-level mode");
      const fs::path work = work_folder("sc");
      verilate(work, true, g_flags(out_.parameters_set), "libgpumem_rtl_sc.so");
      fs::rename(work / "libgpumem_rtl_sc.so", sc_library);  // one file: atomic, whoever is second replaces it
      fs::remove_all(work);
      out_.built = true;
    }
    out_.sc_create = open_sc_library(sc_library);
  }

  LoadedRtl take() {
    if (out_.built) {
      out_.build_seconds = seconds_since(t0_);
      step("built in " + host_seconds(out_.build_seconds));
    }
    return std::move(out_);
  }

 private:
  Fnv key_of() const {
    Fnv key;
    key.add(std::to_string(GPUMEM_RTL_ABI_VERSION)).add(c_.block).add(out_.top).add(package_).add(waivers_).add(adapter_);
    key.add(verilator_version_);
    key.add(tools_.cxx).add(cxx_version_);
    for (const std::string& f : common_flags()) key.add(f);
    if (request_.code_coverage) key.add("--coverage-line");
    key.add(kCompileFlags);
    // What the libraries compile from the source tree, besides the sources.
    key.add(sc_adapter_source(c_));
    for (const std::string& h : {std::string("tb/common/rtl_abi.h"), std::string("tb/common/rtl_adapter.hpp"),
                                 std::string("tb/common/initial_values.hpp"), std::string("tb/common/port_table.hpp"),
                                 std::string("tb/common/rtl_sc_shell.hpp"), c_.sc_shell_header, c_.ports_header})
      key.add(read_input_file(std::string(GPUMEM_SOURCE_DIR) + "/" + h, "RTL"));
    for (const RtlContractParameter& p : c_.parameters) key.add(p.name).add(p.value);
    for (const std::string& f : files_) key.add(f).add(read_input_file(f, "RTL"));
    return key;
  }

  void step(const std::string& what) const {
    if (progress_) *progress_ << "gpumem: " << what << "\n" << std::flush;
  }

  // A build happens in a folder of its own, moved into place in one step
  // when it is done: a concurrent run building the same key keeps its own
  // folder, and whichever renames second finds the first's.
  fs::path work_folder(const char* what) const {
    const fs::path work = root_ / (c_.block + "-" + key_ + "." + what + std::to_string(getpid()));
    fs::remove_all(work);
    fs::create_directories(work);
    write_file(work / "gpumem_pkg.sv", package_);
    write_file(work / "waivers.vlt", waivers_);
    return work;
  }

  // Verilator's runtime (verilated.cpp and friends, most of a build's
  // compiling) is the same for every library of one kind with these tools:
  // its objects are kept once per cache and copied into a later build's
  // object folder after Verilator has written the makefile (which they must
  // be newer than), so that make finds them up to date.
  fs::path runtime_folder(bool sc) const {
    Fnv k;
    k.add(std::to_string(GPUMEM_RTL_ABI_VERSION)).add(sc ? "sc" : "cc").add(verilator_version_);
    k.add(tools_.cxx).add(cxx_version_).add(kCompileFlags);
    for (const std::string& f : common_flags()) k.add(f);
    if (request_.code_coverage) k.add("--coverage-line");  // verilated_cov.o among the runtime's objects
    return root_ / ("verilated-runtime-" + std::string(sc ? "sc-" : "cc-") + k.hex());
  }

  // Verilates the sources with `params` in `work` into `work`/`so`: --cc
  // with the fast-mode adapter, or --sc with the pin-level shell. The lint.
  std::vector<std::string> verilate(const fs::path& work, bool sc, const std::vector<std::string>& params, const char* so) const {
    const char* entry = sc ? GPUMEM_RTL_SC_ENTRY : GPUMEM_RTL_API_ENTRY;
    write_file(work / "adapter.cpp", sc ? sc_adapter_source(c_) : adapter_);
    write_file(work / "exports.map", std::string("{\n  global: ") + entry + ";\n  local: *;\n};\n");
    std::vector<std::string> argv{tools_.verilator, sc ? "--sc" : "--cc", "--exe", "-Wall"};
    if (out_.user_rtl) argv.push_back("-Wno-fatal");  // a user's lint warnings are shown, not fatal
    argv.insert(argv.end(), common_flags().begin(), common_flags().end());
    if (request_.code_coverage) argv.push_back("--coverage-line");
    argv.insert(argv.end(), {(work / "waivers.vlt").string(), "--top-module", out_.top, "--prefix", "Vrtl"});
    argv.insert(argv.end(), params.begin(), params.end());
    argv.push_back((work / "gpumem_pkg.sv").string());
    argv.insert(argv.end(), files_.begin(), files_.end());
    const fs::path obj = work / "obj";
    argv.insert(argv.end(), {(work / "adapter.cpp").string(), "-CFLAGS", kCompileFlags, "-LDFLAGS",
                             "-shared -Wl,--version-script=" + (work / "exports.map").string(), "-Mdir",
                             obj.string(), "-o", so});
    const fs::path log = work / "build.log";
    const fs::path runtime = runtime_folder(sc);
    auto failed = [&] {
      return RtlBuildError("the RTL did not verilate and compile (" + log.string() + ")", problems(log, false));
    };
    if (run_tool(argv, log) != 0) throw failed();
    std::error_code copy_ec;
    if (fs::is_directory(runtime))
      for (const auto& e : fs::directory_iterator(runtime, copy_ec))
        if (is_runtime_object(e.path())) fs::copy_file(e.path(), obj / e.path().filename(), copy_ec);
    // -O2 for the model (Verilator's default is -Os): it is run millions of cycles.
    if (run_tool({tools_.make, "-C", obj.string(), "-f", "Vrtl.mk", "-j", "2", "CXX=" + tools_.cxx, "LINK=" + tools_.cxx,
                  "OPT_FAST=-O2"},
                 log) != 0)
      throw failed();
    if (!fs::is_directory(runtime)) {  // the first build of its kind in this cache keeps its runtime
      const fs::path kept = runtime.string() + ".tmp" + std::to_string(getpid());
      fs::create_directories(kept, copy_ec);
      for (const auto& e : fs::directory_iterator(obj, copy_ec))
        if (is_runtime_object(e.path())) fs::copy_file(e.path(), kept / e.path().filename(), copy_ec);
      fs::rename(kept, runtime, copy_ec);  // whoever renames second keeps the first's
      if (copy_ec) fs::remove_all(kept, copy_ec);
    }
    fs::rename(work / "obj" / so, work / so);
    fs::remove_all(work / "obj");
    return problems(log, true);
  }

  void build_fast() {
    const fs::path work = work_folder("tmp");
    std::vector<std::string> sources{(work / "gpumem_pkg.sv").string()};
    sources.insert(sources.end(), files_.begin(), files_.end());
    const fs::path log = work / "build.log";

    // 1. The module's ports and parameters, at the config's parameter values.
    step("checking the ports of " + out_.top + " against the " + c_.block + " contract");
    Elaborated elaborated = elaborate(tools_.verilator, sources, out_.top, c_, work, log);
    out_.parameters_set = std::move(elaborated.parameters_set);
    if (const std::vector<std::string> errors = check_ports(c_, elaborated.module); !errors.empty()) {
      fs::remove_all(work);  // nothing in it to look at: the messages say it all
      throw RtlBuildError(out_.top + " does not meet the " + c_.block + " port contract (docs/cosim.md)", errors);
    }

    // 2. Verilate and compile: the model and the adapter, one shared library.
    step("verilating " + out_.top + " for this config (the first time; later runs reuse " + dir_.string() + ")");
    const std::vector<std::string> lint = verilate(work, false, g_flags(out_.parameters_set), "libgpumem_rtl.so");
    if (out_.user_rtl) out_.lint = lint;
    write_lines(work / "parameters.txt", out_.parameters_set);
    write_lines(work / "lint.txt", out_.lint);
    std::error_code ec;
    fs::rename(work, dir_, ec);
    if (ec) fs::remove_all(work);
    out_.built = true;
  }

  const RtlBuildRequest& request_;
  const RtlContract& c_;
  std::ostream* progress_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  LoadedRtl out_;
  std::vector<std::string> files_;  // absolute
  std::string package_, waivers_, adapter_;
  Tools tools_;
  fs::path root_;
  std::string verilator_version_, cxx_version_;
  std::string key_;
  fs::path dir_;
};

}  // namespace

LoadedRtl load_rtl(const RtlBuildRequest& request, std::ostream* progress, bool pin_level) {
  RtlCache cache(request, progress);
  cache.fast();
  if (pin_level) cache.pin_level();
  return cache.take();
}

}  // namespace gpumem::tb
