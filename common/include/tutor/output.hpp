#pragma once
// The output options every executable shares: --json PATH, --csv PATH, --plot PATH.
//
// One convention everywhere: a PATH of "-" writes to standard output, and the human table
// then goes to standard error. Every path is checked right after parsing (a typo never costs
// a run), no two outputs may name one file or both be standard output, and no output may be
// a file the tool reads. Files are written atomically (tutor/atomic_file.hpp). The CSV and the
// plot are written first and the JSON record last, naming them with their SHA-256, so a record
// and a CSV from different runs are told apart (the grader checks it).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tutor {

/// Which outputs a command offers besides --json.
struct OutputSet {
  bool csv = false;             ///< --csv PATH
  bool plot = false;            ///< --plot PATH (SVG)
  bool csv_beside_json = false; ///< without --csv, a CSV is written beside --json (x.json -> x.csv)
  std::string csv_help = "write the table of results as CSV to PATH";
  std::string plot_help = "draw the results as an SVG chart at PATH";
};

class Outputs {
 public:
  /// Adds --json (and --csv, --plot as `set` says) to `app`, a CLI11 app or subcommand.
  explicit Outputs(CLI::App& app, OutputSet set = {});
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;

  /// After parsing: derives the CSV path beside --json where asked, reads a path that names
  /// standard output itself (/dev/stdout, /proc/self/fd/1) as "-", then throws UsageError (exit
  /// 2, one line naming the option) when a path is given empty or cannot be written, two outputs
  /// name one file or both write to standard output, or an output is one of the `inputs`
  /// ({"--config", path} pairs) the tool reads.
  void check(const std::vector<std::pair<std::string, std::string>>& inputs = {});

  /// Throws UsageError("<option>: <why>") when any output was given: for modes that only
  /// print (--list, --help-like views). `why` says what the mode does instead.
  void refuse(const std::string& why) const;

  bool json() const { return !json_.empty(); }
  bool csv() const { return !csv_.empty(); }
  bool plot() const { return !plot_.empty(); }
  const std::string& json_path() const { return json_; }
  const std::string& csv_path() const { return csv_; }
  const std::string& plot_path() const { return plot_; }

  /// Where the human table goes: stdout, or stderr when an output writes to stdout.
  std::FILE* human() const;

  /// Write the CSV / the SVG now (no-ops when not asked for); remembered for the record.
  void write_csv(const std::string& text);
  void write_plot(const std::string& svg);

  /// Writes `record` to --json (no-op when not asked for), adding "outputs": the CSV and plot
  /// written by this run, each {"path", "sha256", "bytes"}. Call it after write_csv/write_plot.
  void write_json(nlohmann::json record);

 private:
  void write(const std::string& option, const std::string& path, const std::string& text,
             nlohmann::json* note);
  OutputSet set_;
  std::string json_, csv_, plot_;
  std::vector<CLI::Option*> options_;
  nlohmann::json written_ = nlohmann::json::object();
};

/// The record as indented JSON text; bytes that are not UTF-8 (a file name) become U+FFFD, so a
/// record is always valid JSON.
std::string json_text(const nlohmann::json& record);

/// SHA-256 of `bytes` as 64 lowercase hex digits (FIPS 180-4, through OpenSSL's libcrypto).
std::string sha256_hex(const std::string& bytes);

}  // namespace tutor
