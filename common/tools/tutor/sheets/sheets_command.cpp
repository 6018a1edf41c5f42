#include "sheets/sheets_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <system_error>

#include <fmt/format.h>

#include "sheets/sheet_set.hpp"
#include "study/data_root.hpp"
#include "tutor/atomic_file.hpp"
#include "tutor/cli.hpp"
#include "tutor/curriculum.hpp"
#include "tutor/input_file.hpp"

namespace tutor::sheets {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxSheetBytes = 4u << 20;

/// The first line where `expected` and `found` differ (1-based), with both lines.
struct Difference {
  std::size_t line = 0;
  std::string expected, found;
};

Difference first_difference(const std::string& expected, const std::string& found) {
  Difference d;
  std::size_t a = 0, b = 0;
  for (d.line = 1;; ++d.line) {
    const std::size_t ea = std::min(expected.find('\n', a), expected.size());
    const std::size_t eb = std::min(found.find('\n', b), found.size());
    d.expected = expected.substr(a, ea - a);
    d.found = found.substr(b, eb - b);
    if (d.expected != d.found || (ea == expected.size()) != (eb == found.size())) return d;
    if (ea == expected.size()) return d;  // equal (not reached: callers compare first)
    a = ea + 1;
    b = eb + 1;
  }
}

std::string shorten(const std::string& line) {
  return line.size() <= 80 ? line : line.substr(0, 77) + "...";
}

}  // namespace

SheetsCommand::SheetsCommand(CLI::App& app) {
  sub_ = app.add_subcommand("sheets",
                            "the reference sheets (docs/cheatsheets/): fill their templates from the GPU table and "
                            "the committed records, and write each as Markdown and printable HTML, with the index; "
                            "`--check` compares instead. Exit 0, 1 when a sheet is out of date, 2 on bad input");
  sub_->add_option("--out", out_, "the folder the sheets are written to [default: docs/cheatsheets of the repository]")
      ->option_text("DIR");
  sub_->add_option("--src", src_, "the folder of the templates <id>.md [default: docs/cheatsheets/src of the repository]")
      ->option_text("DIR");
  sub_->add_option("--data", data_, "the tutor's data folder (curriculum.json) [default: ./data, else the source tree's]")
      ->option_text("DIR");
  sub_->add_flag("--check", check_,
                 "write nothing: exit 1 naming the first file and line that differs from what would be written");
  sub_->add_option("--sheet", only_, "only these sheets (ids: track-a ... sharding-collectives); no index")
      ->option_text("ID...")
      ->expected(1, -1);
}

int SheetsCommand::run() {
  // An empty folder option (an unset shell variable) must not silently mean the repository's.
  for (const char* name : {"--out", "--src", "--data"})
    if (sub_->get_option(name)->count() > 0 && sub_->get_option(name)->as<std::string>().empty())
      throw UsageError(fmt::format("{}: the path is empty; give a folder", name));
  const fs::path root = study::repository_root(data_);
  const curriculum::Curriculum curriculum = [&] {
    try {
      return curriculum::load_curriculum(study::data_root(data_) / "curriculum.json");
    } catch (const std::exception& e) {
      throw UsageError(fmt::format("--data: {}", e.what()));
    }
  }();
  SheetInputs in;
  in.repository_root = root;
  in.templates = src_.empty() ? root / "docs" / "cheatsheets" / "src" : fs::path(src_);
  in.templates_label = src_.empty() ? "docs/cheatsheets/src" : src_;
  in.curriculum = &curriculum;
  const fs::path out = out_.empty() ? root / "docs" / "cheatsheets" : fs::path(out_);
  const std::string out_label = out_.empty() ? "docs/cheatsheets" : out_;
  std::error_code same_ec;
  if (fs::equivalent(out, in.templates, same_ec))
    throw UsageError(fmt::format("--out: {} is the templates folder {}; the sheets would overwrite their templates",
                                 out_label, in.templates_label));

  const std::vector<std::string> ids = template_ids(in.templates);
  for (const std::string& id : only_)
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      throw UsageError(fmt::format("--sheet {}: no template {}/{}.md", id, in.templates_label, id));
  const std::vector<GeneratedFile> files = generate_sheets(in, only_.empty() ? ids : only_, only_.empty());

  std::size_t unchanged = 0;
  std::vector<const GeneratedFile*> to_write;
  for (const GeneratedFile& f : files) {
    const fs::path path = out / f.name;
    std::error_code ec;
    std::string current;
    bool exists = fs::exists(path, ec);
    if (exists) {
      try {
        current = InputFile(path.string(), kMaxSheetBytes).read_all();
      } catch (const InputError& e) {
        throw UsageError(fmt::format("--out: {}/{}: {}", out_label, f.name, e.what_only()));
      }
    }
    if (exists && current == f.text) {
      ++unchanged;
      continue;
    }
    if (check_) {
      if (!exists) {
        std::cout << fmt::format("{}/{}: missing; run `tutor sheets` and commit the sheets\n", out_label, f.name);
        return kExitCheckFailed;
      }
      const Difference d = first_difference(f.text, current);
      std::cout << fmt::format("{}/{}:{}: differs from what `tutor sheets` generates; run it and commit the sheets\n"
                               "  generated: {}\n  committed: {}\n",
                               out_label, f.name, d.line, shorten(d.expected), shorten(d.found));
      return kExitCheckFailed;
    }
    to_write.push_back(&f);
  }
  if (check_) {
    std::cout << fmt::format("{}: {} files in sync with their templates and sources\n", out_label, unchanged);
    return kExitOk;
  }
  if (!to_write.empty()) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) throw UsageError(fmt::format("--out: cannot create {}: {}", out_label, ec.message()));
  }
  for (const GeneratedFile* f : to_write) {
    try {
      write_file_atomic((out / f->name).string(), f->text);
    } catch (const std::runtime_error& e) {
      throw UsageError(fmt::format("--out: {}", e.what()));
    }
    std::cout << fmt::format("wrote {}/{}\n", out_label, f->name);
  }
  std::cout << fmt::format("{}: {} files written, {} unchanged\n", out_label, to_write.size(), unchanged);
  return kExitOk;
}

}  // namespace tutor::sheets
