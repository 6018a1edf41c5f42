#include "tutor/output.hpp"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"

namespace tutor {



Outputs::Outputs(CLI::App& app, OutputSet set) : set_(std::move(set)) {
  options_.push_back(app.add_option("--json", json_, "write the JSON record to PATH ('-': standard output)"));
  if (set_.csv) {
    std::string help = set_.csv_help + " ('-': standard output)";
    if (set_.csv_beside_json) help += "; default: beside --json, .json -> .csv";
    options_.push_back(app.add_option("--csv", csv_, help));
  }
  if (set_.plot) options_.push_back(app.add_option("--plot", plot_, set_.plot_help + " ('-': standard output)"));
  for (CLI::Option* opt : options_) opt->type_name("PATH")->option_text("PATH");
}

namespace {
/// True when `path` is this process's standard output under another name (/dev/stdout, or the
/// file stdout is redirected to): writing it by name would replace what "-" wrote there.
bool is_standard_output(const std::string& path) {
  struct stat out {}, st {};
  return path != "-" && !path.empty() && ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &st) == 0 &&
         out.st_dev == st.st_dev && out.st_ino == st.st_ino;
}
}  // namespace

void Outputs::check(const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (const CLI::Option* opt : options_)
    if (opt->count() > 0 && opt->as<std::string>().empty())
      throw UsageError(opt->get_name() + ": the path is empty; give a file, or '-' for standard output");
  // "--json --list" would take "--list" as the file and run in full: a path that looks like an
  // option is refused (a file really named so is written as ./--list).
  for (const CLI::Option* opt : options_)
    if (opt->count() > 0) {
      const std::string path = opt->as<std::string>();
      if (path.size() > 1 && path[0] == '-')
        throw UsageError(opt->get_name() + ": '" + path + "' looks like an option, not a file; give the file "
                         "after it, '-' for standard output, or ./" + path + " for a file named so");
    }
  for (std::string* path : {&json_, &csv_, &plot_})
    if (is_standard_output(*path)) *path = "-";
  if (set_.csv_beside_json) csv_ = csv_beside_json(csv_, json_);
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {"--json", json_}, {"--csv", csv_}, {"--plot", plot_}};
  for (const auto& [option, path] : outputs) require_writable(option, path);
  require_distinct_outputs(outputs, inputs);
}

void Outputs::refuse(const std::string& why) const {
  for (const auto& [option, path] : {std::pair{"--json", &json_}, {"--csv", &csv_}, {"--plot", &plot_}})
    if (!path->empty()) throw UsageError(std::string(option) + ": " + why);
}

std::FILE* Outputs::human() const {
  return json_ == "-" || csv_ == "-" || plot_ == "-" ? stderr : stdout;
}

void Outputs::write(const std::string& option, const std::string& path, const std::string& text,
                    nlohmann::json* note) {
  if (path.empty()) return;
  write_output(option, path, text);
  if (note) *note = {{"path", path == "-" ? "standard output" : path}, {"sha256", sha256_hex(text)},
                     {"bytes", text.size()}};
}

void Outputs::write_csv(const std::string& text) { write("--csv", csv_, text, &written_["csv"]); }
void Outputs::write_plot(const std::string& svg) { write("--plot", plot_, svg, &written_["plot"]); }

void Outputs::write_json(nlohmann::json record) {
  if (json_.empty()) return;
  nlohmann::json files = nlohmann::json::object();
  for (auto it = written_.begin(); it != written_.end(); ++it)
    if (!it.value().is_null()) files[it.key()] = it.value();
  if (!files.empty()) record["outputs"] = files;
  write("--json", json_, json_text(record), nullptr);
  if (json_ == "-") std::fflush(stdout);
}

std::string json_text(const nlohmann::json& record) {
  return record.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string sha256_hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

}  // namespace tutor
