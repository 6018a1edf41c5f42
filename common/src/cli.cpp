#include "tutor/cli.hpp"

#include <cstdio>
#include <exception>

#include "tutor/gpu.hpp"

namespace tutor {

int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (auto& ch : what)
      if (ch == '\n') ch = ' ';
    std::fprintf(stderr, "%s: error: %s (see --help)\n", app.get_name().c_str(), what.c_str());
    return kExitBadInput;
  }
  return -1;
}

int run_main(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), e.what());
    return kExitBadInput;
  } catch (const gpu::NoDevice& e) {
    std::fprintf(stderr, "%s: no usable GPU: %s\n", program.c_str(), e.what());
    return kExitNoGpu;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", program.c_str(), e.what());
    return kExitCheckFailed;
  }
}

std::string command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_of(" \t'\"$\\*?;&|<>()") == std::string::npos;
    if (!out.empty()) out += ' ';
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char ch : a) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
      out += '\'';
    }
  }
  return out;
}

}  // namespace tutor
