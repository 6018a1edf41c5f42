// tutor sheets: placeholders filled from the GPU table and records with their data-source marks, each
// way a placeholder can be wrong, the HTML page, --check, and determinism. Expected numbers are
// the GPU table's cells as their datasheets print them (common/src/hardware.cpp) and hand
// arithmetic written beside them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sheets/markdown_html.hpp"
#include "sheets/placeholders.hpp"
#include "sheets/sheet_set.hpp"
#include "sheets/sheets_command.hpp"
#include "tutor/curriculum.hpp"

namespace tutor::sheets {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = TUTOR_SOURCE_DIR;
const std::string kRecord = "common/tools/tutor/tests/fixtures/sheets/record.json";

/// A curriculum made here, so the test does not change when a module becomes available.
curriculum::Curriculum small_curriculum() {
  curriculum::Curriculum c;
  c.tracks = {{"A", "Writing kernels"}, {"B", "Understanding performance"}};
  auto module = [](std::string id, std::string track, std::string title, curriculum::Status status) {
    curriculum::Module m;
    m.id = std::move(id);
    m.track = std::move(track);
    m.title = std::move(title);
    m.status = status;
    return m;
  };
  c.modules = {module("A01", "A", "Foundations", curriculum::Status::kAvailable),
               module("A03", "A", "Parallel reduction", curriculum::Status::kPlanned),
               module("A04", "A", "Scan", curriculum::Status::kPlanned),
               module("B01", "B", "Architecture", curriculum::Status::kAvailable)};
  return c;
}

struct Filled {
  std::string text;
  std::vector<Footnote> notes;
};

Filled fill(const std::string& text) {
  const auto c = small_curriculum();
  Filler filler(kRoot, c);
  Filled out;
  out.text = filler.fill(text, "t.md");
  out.notes = filler.footnotes();
  return out;
}

/// The one-line message of the PlaceholderError that filling `text` throws.
std::string error_of(const std::string& text) {
  try {
    fill(text);
  } catch (const PlaceholderError& e) {
    return e.what();
  }
  return "(no error)";
}

// ---------------------------------------------------------------- {{gpu:...}}

TEST(SheetsGpu, H200BandwidthIsTheDatasheetsWithItsDocumentAsFootnote) {
  // H200 datasheet: "GPU Memory Bandwidth 4.8TB/s" = 4800 GB/s.
  const Filled f = fill("HBM {{gpu:h200-sxm:hbm_bandwidth_GBps}} GB/s");
  EXPECT_EQ(f.text, "HBM 4800<sup>[\\[d1\\]](#d1)</sup> GB/s");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].number, 1);
  EXPECT_EQ(f.notes[0].text,
            "GPU table: NVIDIA H200 Tensor Core GPU datasheet / product page (2024), Specifications, column H200 SXM.");
}

TEST(SheetsGpu, FormatSpecAppliesToTheCell) {
  // Dense bf16 = 1979 (with sparsity) / 2 = 989.5 TFLOP/s.
  EXPECT_EQ(fill("{{gpu:h200-sxm:bf16_TFLOPs}}").text, "989.5<sup>[\\[d1\\]](#d1)</sup>");
  EXPECT_EQ(fill("{{gpu:h200-sxm:bf16_TFLOPs:.2f}}").text, "989.50<sup>[\\[d1\\]](#d1)</sup>");
  EXPECT_EQ(fill("{{gpu:h200-sxm:hbm_bandwidth_GBps:.0f}}").text, "4800<sup>[\\[d1\\]](#d1)</sup>");
}

TEST(SheetsGpu, RidgeIsPeakOverBandwidthCitingBothCells) {
  // 989.5e12 FLOP/s / 4.8e12 B/s = 206.1 FLOP/B; the two cells come from one datasheet: one mark.
  const Filled f = fill("{{gpu:h200-sxm:ridge_bf16:.1f}}");
  EXPECT_EQ(f.text, "206.1<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].text.find("column H200 SXM"), std::string::npos);
  // H100 SXM: fp32 67 / 3350 GB/s, both from the same datasheet table: cited once.
  // 67e12 / 3.35e12 = 20.0 FLOP/B.
  const Filled h100 = fill("{{gpu:h100-sxm:ridge_fp32:.1f}}");
  EXPECT_EQ(h100.text, "20.0<sup>[\\[d1\\]](#d1)</sup>");
}

TEST(SheetsGpu, OneDatasheetIsOneSourceNamingItsPlacesOnce) {
  // The H100 SXM bandwidth cites "Technical Specifications, column H100 SXM" and its bf16 rate
  // "column H100 SXM" of the same datasheet: one source, the shorter place not repeated.
  const Filled f = fill("{{gpu:h100-sxm:hbm_bandwidth_GBps}} {{gpu:h100-sxm:bf16_TFLOPs}}");
  EXPECT_EQ(f.text, "3350<sup>[\\[d1\\]](#d1)</sup> 989.5<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text,
            "GPU table: NVIDIA H100 Tensor Core GPU datasheet (2023), Technical Specifications, column H100 SXM.");
}

TEST(SheetsGpu, DocumentsAndRecordsAreLetteredApart) {
  // A document of the GPU table is [d<n>], a record [r<n>]: a bare digit after a number would
  // read as a power, and the sheet's own Sources are [1], [2], ...
  const Filled f = fill("{{record:" + kRecord + ":/steps/1/n}} {{gpu:h200-sxm:hbm_bandwidth_GBps}}");
  EXPECT_EQ(f.text, "7<sup>[\\[r1\\]](#r1)</sup> 4800<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 2u);
  EXPECT_EQ(f.notes[0].label, "r1");
  EXPECT_EQ(f.notes[1].label, "d1");
}

TEST(SheetsGpu, NotApplicableCellReadsNaWithTheReasonAsFootnote) {
  const Filled f = fill("{{gpu:a100-80gb:fp8_TFLOPs}}");
  EXPECT_EQ(f.text, "n/a<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text.rfind("GPU table: Not applicable: ", 0), 0u) << f.notes[0].text;
}

TEST(SheetsGpu, DerivedCellCitesItsArithmetic) {
  // MI355X fp8: 8192 FLOPS/clock/CU x 256 CU x 2.4 GHz = 5033.2 TFLOP/s, derived in the table.
  const Filled f = fill("{{gpu:mi355x:fp8_TFLOPs}}");
  EXPECT_EQ(f.text, "5033.2<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.notes[0].text.find("DERIVED: AMD at ISSCC 2026"), std::string::npos) << f.notes[0].text;
  EXPECT_NE(f.notes[0].text.find("8192 x 256 CU x 2.4 GHz"), std::string::npos) << f.notes[0].text;
}

TEST(SheetsGpu, TextFieldsHaveNoFootnote) {
  const Filled f = fill("{{gpu:h200-sxm:name}} ({{gpu:h200-sxm:arch}}, {{gpu:h200-sxm:interconnect}})");
  EXPECT_EQ(f.text, "NVIDIA H200 SXM 141GB (sm\\_90, NVLink 4)");
  EXPECT_TRUE(f.notes.empty());
}

TEST(SheetsGpu, FootnotesAreNumberedByFirstUseAndShared) {
  const Filled f = fill("{{gpu:h100-sxm:hbm_bandwidth_GBps}} {{gpu:h200-sxm:hbm_bandwidth_GBps}} "
                        "{{gpu:h100-sxm:hbm_bandwidth_GBps}}");
  EXPECT_EQ(f.text, "3350<sup>[\\[d1\\]](#d1)</sup> 4800<sup>[\\[d2\\]](#d2)</sup> 3350<sup>[\\[d1\\]](#d1)</sup>");
  ASSERT_EQ(f.notes.size(), 2u);
  EXPECT_EQ(f.notes[1].number, 2);
}

// ---------------------------------------------------------------- {{record:...}}

TEST(SheetsRecord, NumberWithFormatAndTheRecordAsFootnote) {
  const Filled f = fill("{{record:" + kRecord + ":/steps/0/median_GBps:.0f}} and {{record:" + kRecord +
                        ":/steps/0/median_GBps}} and {{record:" + kRecord + ":/steps/1/n}}");
  // 4210.4 to no decimals is 4210; unformatted it reads back as written; an integer stays one.
  EXPECT_EQ(f.text, "4210<sup>[\\[r1\\]](#r1)</sup> and 4210.4<sup>[\\[r1\\]](#r1)</sup> and 7<sup>[\\[r1\\]](#r1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text, "Record `" + kRecord + "`: fixture on NVIDIA H200, fixture\\_copy abc1234.");
}

TEST(SheetsRecord, PercentFormatReadsAFraction) {
  // 0.951 x 100 = 95.1; without a precision, {fmt}'s fixed default of 6 decimals.
  EXPECT_EQ(fill("{{record:" + kRecord + ":/ratio:.1%}}").text, "95.1%<sup>[\\[r1\\]](#r1)</sup>");
  EXPECT_EQ(fill("{{record:" + kRecord + ":/ratio:%}}").text, "95.100000%<sup>[\\[r1\\]](#r1)</sup>");
}

TEST(SheetsRecord, IntegerFormat) {
  EXPECT_EQ(fill("{{record:" + kRecord + ":/steps/1/n:d}}").text, "7<sup>[\\[r1\\]](#r1)</sup>");
  EXPECT_EQ(fill("{{record:" + kRecord + ":/steps/1/n:.1f}}").text, "7.0<sup>[\\[r1\\]](#r1)</sup>");
}

TEST(SheetsRecord, CommittedH200RecordFills) {
  // The copy ceiling the A02 record measured, rounded as the README quotes it.
  std::ifstream in(kRoot / "docs/results/H200/a02_coalescing/a02_transpose.json");
  const auto record = nlohmann::json::parse(in);
  const double copy = record.at("device").at("measured").at("copy_GBps").get<double>();
  const Filled f = fill("{{record:docs/results/H200/a02_coalescing/a02_transpose.json:/device/measured/copy_GBps:.0f}}");
  EXPECT_EQ(f.text, std::to_string(static_cast<long>(std::lround(copy))) + "<sup>[\\[r1\\]](#r1)</sup>");
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_EQ(f.notes[0].text.rfind("Record `docs/results/H200/a02_coalescing/a02_transpose.json`: measurement on NVIDIA H200", 0), 0u)
      << f.notes[0].text;
}

// ---------------------------------------------------------------- errors: one line, file:line

TEST(SheetsErrors, EachNamesFileLineAndPlaceholder) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a\n{{gpu:h300:l2_MB}}", R"(^t\.md:2: \{\{gpu:h300:l2_MB\}\}: unknown GPU key 'h300' \(allowed: .*h200-sxm.*\)$)"},
      {"{{gpu:h200-sxm:l3_MB}}", R"(^t\.md:1: .*: unknown field 'l3_MB' \(allowed: .*\)$)"},
      {"{{gpu:h200-sxm}}", R"(^t\.md:1: .*: give \{\{gpu:<key>:<field>\[:<format>\]\}\}$)"},
      {"{{gpu:h200-sxm:name:.1f}}", R"(^t\.md:1: .*: 'name' is text: it takes no format$)"},
      {"{{gpu:h200-sxm:l2_MB:q}}", R"(^t\.md:1: .*: format 'q' is not a \{fmt\} format spec.*$)"},
      {"{{cell:h200-sxm:l2_MB}}", R"(^t\.md:1: .*: unknown placeholder kind 'cell' \(allowed: gpu, record, modules\)$)"},
      {"x\n\n{{gpu:h200-sxm:l2_MB\n}}", R"(^t\.md:3: \{\{gpu:h200-sxm:l2_MB: no closing '\}\}' on the same line$)"},
      {"{{record:no/such.json:/a}}", R"(^t\.md:1: .*: no/such\.json: .*$)"},
      {"{{record:" + kRecord + ":/steps/9/n}}", R"(^t\.md:1: .*: .*record\.json has nothing at /steps/9/n$)"},
      {"{{record:" + kRecord + ":/label}}", R"(^t\.md:1: .*: .*record\.json /label is a string, not a number$)"},
      {"{{record:" + kRecord + ":/verified}}", R"(^t\.md:1: .*: .*/verified is a boolean, not a number$)"},
      {"{{record:" + kRecord + ":/steps}}", R"(^t\.md:1: .*: .*/steps is an array, not a number$)"},
      {"{{record:" + kRecord + ":steps/0}}", R"(^t\.md:1: .*: 'steps/0' is not a JSON pointer.*$)"},
      {"{{record:" + kRecord + ":/steps/0/median_GBps:d}}", R"(^t\.md:1: .*: format 'd' needs an integer, the value is 4210\.4$)"},
      {"{{record:" + kRecord + "}}", R"(^t\.md:1: .*: give \{\{record:<path>:<JSON pointer>\[:<format>\]\}\}$)"},
      {"{{record:/etc/passwd:/a}}", R"(^t\.md:1: .*: the record path must be relative to the repository root$)"},
      {"{{record:../x.json:/a}}", R"(^t\.md:1: .*: the record path must stay inside the repository \(no '\.\.'\)$)"},
      {"{{record:common/tools/tutor/tests/sheets_test.cpp:/a}}", R"(^t\.md:1: .*: .*sheets_test\.cpp is not valid JSON$)"},
      {"{{modules:planned:Z}}", R"(^t\.md:1: .*: unknown track 'Z' \(data/curriculum\.json\)$)"},
      {"{{modules:coming:A}}", R"(^t\.md:1: .*: give \{\{modules:planned:<track>\}\}.*$)"},
  };
  for (const auto& [text, pattern] : cases) {
    const std::string message = error_of(text);
    EXPECT_TRUE(std::regex_match(message, std::regex(pattern))) << text << "\n  -> " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

// ---------------------------------------------------------------- {{modules:...}}

TEST(SheetsModules, PlannedAndAvailableInCurriculumOrder) {
  EXPECT_EQ(fill("{{modules:planned:A}}").text, "A03 Parallel reduction, A04 Scan");
  EXPECT_EQ(fill("{{modules:available:B}}").text, "B01 Architecture");
  EXPECT_EQ(fill("{{modules:planned:B}}").text, "none");
}

// ---------------------------------------------------------------- HTML

TEST(SheetsHtml, TablesFootnotesAndTheSourcesList) {
  const std::string html = markdown_to_html(
      "| a | b |\n| --- | ---: |\n| x | 1<sup>[\\[d1\\]](#d1)</sup> |\n\n## Sources\n\n"
      "1. Williams et al., [Roofline](https://doi.org/10.1145/1498765.1498785), 2009.\n"
      "2. <https://example.org/a>\n\n<div class=\"data-sources\">\n\n**Data sources**\n\n"
      "- <a id=\"d1\"></a>\\[d1\\] GPU table: a document.\n\n</div>\n");
  EXPECT_NE(html.find("<table>"), std::string::npos);
  EXPECT_NE(html.find("<td align=\"right\">1<sup><a href=\"#d1\">[d1]</a></sup></td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<li><a id=\"d1\"></a>[d1] GPU table: a document.</li>"), std::string::npos) << html;
  EXPECT_NE(html.find("<div class=\"sources\">\n<ol>"), std::string::npos) << html;
  // A link's address is printed after it only where its text is not the address already.
  EXPECT_NE(html.find("Roofline</a><span class=\"url\"> (https://doi.org/10.1145/1498765.1498785)</span>"),
            std::string::npos);
  EXPECT_EQ(html.find("example.org/a)</span>"), std::string::npos);
}

TEST(SheetsHtml, LinksOutsideTheSourcesListGetNoAddress) {
  const std::string html = markdown_to_html("See [B02](../../trackB/b02_roofline/README.md).\n");
  EXPECT_EQ(html.find("class=\"url\""), std::string::npos);
}

// ---------------------------------------------------------------- sheets and the index

std::vector<GeneratedFile> generate_fixture(const curriculum::Curriculum& c) {
  SheetInputs in;
  in.repository_root = kRoot;
  in.templates = kRoot / "common/tools/tutor/tests/fixtures/sheets/good";
  in.templates_label = "fixtures/good";
  in.curriculum = &c;
  return generate_sheets(in, template_ids(in.templates), true);
}

TEST(SheetsSet, EachTemplateGivesMarkdownAndHtmlThenTheIndex) {
  const auto c = small_curriculum();
  const auto files = generate_fixture(c);
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.name);
  // Index order: the ten known ids in their order (track-a before roofline).
  EXPECT_EQ(names, (std::vector<std::string>{"track-a.md", "track-a.html", "roofline.md", "roofline.html", "README.md"}));
  const std::string& md = files[2].text;
  EXPECT_EQ(md.rfind("<!-- Generated by `tutor sheets` from fixtures/good/roofline.md", 0), 0u);
  EXPECT_NE(md.find("| NVIDIA H200 SXM 141GB | 4800<sup>[\\[d1\\]](#d1)</sup> | 989.5<sup>[\\[d1\\]](#d1)</sup> | 206<sup>[\\[d1\\]](#d1)</sup> |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("\n- <a id=\"d1\"></a>\\[d1\\] GPU table: NVIDIA H200"), std::string::npos) << md;
  const std::string& html = files[3].text;
  EXPECT_NE(html.find("<title>Roofline fixture</title>"), std::string::npos);
  EXPECT_NE(html.find("<main class=\"sheet\" style=\"--print-columns: 2; --print-font: 7pt;\">"), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  EXPECT_NE(html.find("@page"), std::string::npos);
  const std::string& index = files[4].text;
  EXPECT_NE(index.find("| [Track fixture](track-a.md) | Second sheet, for the index. | [track-a.html](track-a.html) |"),
            std::string::npos)
      << index;
  EXPECT_NE(index.find("| [Roofline fixture](roofline.md) | What the fixture is for: every kind of placeholder once. |"),
            std::string::npos);
}

TEST(SheetsSet, DeterministicAndFreeOfThisMachinesPaths) {
  const auto c = small_curriculum();
  const auto a = generate_fixture(c);
  const auto b = generate_fixture(c);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text) << a[i].name;
    EXPECT_EQ(a[i].text.find(kRoot.string()), std::string::npos) << a[i].name << " names the build machine's path";
  }
}

TEST(SheetsSet, PrintSettingsOutOfRangeAreRefused) {
  const fs::path dir = fs::path(testing::TempDir()) / "sheets_print_settings";
  fs::create_directories(dir);
  std::ofstream(dir / "roofline.md") << "# T\n\n<!-- print: columns=7 -->\n";
  const auto c = small_curriculum();
  SheetInputs in{kRoot, dir, "src", &c};
  try {
    generate_sheets(in, {"roofline"}, false);
    ADD_FAILURE() << "columns=7 accepted";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "src/roofline.md: <!-- print: columns=7 -->: columns is 1 to 4");
  }
  std::ofstream(dir / "roofline.md") << "# T\n\n<!-- print: font=12pt -->\n";
  EXPECT_THROW(generate_sheets(in, {"roofline"}, false), UsageError);
  std::ofstream(dir / "roofline.md") << "No title\n";
  EXPECT_THROW(generate_sheets(in, {"roofline"}, false), UsageError);
}

// ---------------------------------------------------------------- the command

struct CommandResult {
  int code = -1;
  std::string out;
};

CommandResult run_sheets(std::vector<std::string> args) {
  CLI::App app{"t", "tutor"};
  SheetsCommand command(app);
  args.insert(args.begin(), "sheets");
  std::reverse(args.begin(), args.end());
  app.parse(args);
  testing::internal::CaptureStdout();
  CommandResult r;
  try {
    r.code = command.run();
  } catch (...) {
    testing::internal::GetCapturedStdout();
    throw;
  }
  r.out = testing::internal::GetCapturedStdout();
  return r;
}

TEST(SheetsCommand, WritesThenCheckFindsTheFirstChangedLine) {
  const fs::path out = fs::path(testing::TempDir()) / "sheets_command_out";
  fs::remove_all(out);
  const std::string src = (kRoot / "common/tools/tutor/tests/fixtures/sheets/good").string();
  const std::string data = (kRoot / "data").string();
  CommandResult w = run_sheets({"--src", src, "--out", out.string(), "--data", data});
  EXPECT_EQ(w.code, 0) << w.out;
  EXPECT_TRUE(fs::is_regular_file(out / "roofline.html"));
  EXPECT_TRUE(fs::is_regular_file(out / "README.md"));
  CommandResult in_sync = run_sheets({"--src", src, "--out", out.string(), "--data", data, "--check"});
  EXPECT_EQ(in_sync.code, 0) << in_sync.out;
  // A hand edit on line 3 of a generated sheet is found by --check, which writes nothing.
  std::string text;
  {
    std::ifstream in(out / "roofline.md");
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const std::size_t line3 = text.find('\n', text.find('\n') + 1) + 1;
  std::string edited = text;
  edited.insert(line3, "typed by hand ");
  std::ofstream(out / "roofline.md") << edited;
  CommandResult drift = run_sheets({"--src", src, "--out", out.string(), "--data", data, "--check"});
  EXPECT_EQ(drift.code, 1);
  EXPECT_NE(drift.out.find("/roofline.md:3: differs from what `tutor sheets` generates"), std::string::npos) << drift.out;
  // A missing file is named too.
  fs::remove(out / "track-a.html");
  CommandResult missing = run_sheets({"--src", src, "--out", out.string(), "--data", data, "--check"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.out.find("/track-a.html: missing"), std::string::npos) << missing.out;
  // Writing again restores both.
  EXPECT_EQ(run_sheets({"--src", src, "--out", out.string(), "--data", data}).code, 0);
  EXPECT_EQ(run_sheets({"--src", src, "--out", out.string(), "--data", data, "--check"}).code, 0);
}

TEST(SheetsCommand, SheetOptionNamesAnExistingTemplate) {
  const std::string src = (kRoot / "common/tools/tutor/tests/fixtures/sheets/good").string();
  const fs::path out = fs::path(testing::TempDir()) / "sheets_command_one";
  try {
    run_sheets({"--src", src, "--out", out.string(), "--sheet", "nope"});
    ADD_FAILURE() << "--sheet nope accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--sheet nope: no template"), std::string::npos) << e.what();
  }
  CommandResult one = run_sheets({"--src", src, "--out", out.string(), "--sheet", "roofline"});
  EXPECT_EQ(one.code, 0);
  EXPECT_TRUE(fs::is_regular_file(out / "roofline.md"));
  EXPECT_FALSE(fs::exists(out / "README.md"));  // no index for a subset
}

// ---------------------------------------------------------------- the repository's sheets

TEST(SheetsRepository, EveryAvailableModuleHasAnEntryOnItsTrackSheet) {
  // A track's sheet may come in parts: track-a.md, track-a-ml.md, ... (every template track-<t>*).
  const auto c = curriculum::load_curriculum(kRoot / "data/curriculum.json");
  const fs::path src = kRoot / "docs/cheatsheets/src";
  for (const auto& m : c.modules) {
    if (m.status != curriculum::Status::kAvailable) continue;
    std::string track = m.track;
    for (char& ch : track) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    std::string sheets;
    for (const auto& id : template_ids(src)) {
      if (id != "track-" + track && id.rfind("track-" + track + "-", 0) != 0) continue;
      std::ifstream in(src / (id + ".md"));
      ASSERT_TRUE(in) << id;
      std::stringstream ss;
      ss << in.rdbuf();
      sheets += ss.str();
    }
    EXPECT_NE(sheets.find("## " + m.id + " "), std::string::npos)
        << m.id << " is available: a track-" << track << " sheet needs a section '## " << m.id << " " << m.title << "'";
  }
}

TEST(SheetsRepository, TheKnownSheetsHaveTemplates) {
  const auto ids = template_ids(kRoot / "docs/cheatsheets/src");
  for (const auto id : kSheetIds)
    EXPECT_NE(std::find(ids.begin(), ids.end(), std::string(id)), ids.end()) << "no template for " << id;
}

}  // namespace
}  // namespace tutor::sheets
