// The result record (ARCHITECTURE.md, "The result record"), the ladder arithmetic behind
// its GB/s, fraction-of-ceiling and speedup columns, the human table, and atomic writes.
// The ladder below is made up so that every number is easy to derive by hand:
//   step     bytes  median   GB/s = bytes / (median_ms * 1e-3 s) / 1e9      of 4000   vs prev      vs first
//   naive    2e9    1.0 ms   2e9 / 1e-3 / 1e9      = 2000                   0.5       - (first)    1
//   broken   2e9    (failed verification: not timed, skipped by every chain)
//   tiled    2e9    0.5 ms   2e9 / 0.5e-3 / 1e9    = 4000                   1.0       1.0/0.5 = 2  1.0/0.5 = 2
//   vec4     2e9    0.625 ms 2e9 / 0.625e-3 / 1e9  = 3200                   0.8       0.5/0.625    1.0/0.625
//                                                                                     = 0.8        = 1.6
#include "tutor/atomic_file.hpp"
#include "tutor/ladder_lab.hpp"
#include "tutor/report.hpp"
#include "tutor/result.hpp"
#include "tutor/version.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tutor::Ceiling;
using tutor::CeilingUnit;
using tutor::LabRecord;
using tutor::StepResult;

StepResult timed_step(const std::string& name, double bytes, double median_ms) {
  StepResult s;
  s.name = name;
  s.change = "step " + name;
  s.verified = true;
  s.timed = true;
  s.bytes = bytes;
  s.time_ms.min = median_ms * 0.9;
  s.time_ms.median = median_ms;
  s.time_ms.max = median_ms * 1.2;
  s.time_ms.n = 20;
  return s;
}

StepResult failed_step(const std::string& name) {
  StepResult s;
  s.name = name;
  s.change = "step " + name + " (wrong on purpose)";
  s.verified = false;
  s.timed = false;  // a wrong kernel is not timed
  s.bytes = 2e9;
  const std::vector<float> got = {1, 2, 4};
  const std::vector<double> ref = {1, 2, 3};
  s.checks.push_back({"31x33", tutor::compare(got, ref, 0.0)});
  s.rel_err = s.checks.back().cmp.rel_l2;
  return s;
}

/// The ladder of the header comment, before finish_ladder.
std::vector<StepResult> transpose_ladder() {
  return {timed_step("naive", 2e9, 1.0), failed_step("broken"), timed_step("tiled", 2e9, 0.5),
          timed_step("vec4", 2e9, 0.625)};
}

const Ceiling kCopyCeiling{"device-to-device copy", 4000.0, CeilingUnit::GBps};

LabRecord transpose_record() {
  LabRecord r;
  r.lab = "a02_transpose";
  r.module = "A02";
  r.command = "./a02_transpose --rows 4096 --cols 4096";
  r.device.info.vendor = "NVIDIA";
  r.device.info.name = "Made-up GPU";
  r.device.info.arch = "sm_90";
  r.device.info.sm_count = 132;
  r.device.copy_GBps = 4000.0;
  r.device.fma_TFLOPs = 60.0;
  r.ceiling = kCopyCeiling;
  r.problem = {{"rows", 4096}, {"cols", 4096}, {"dtype", "f32"}};
  r.variants = transpose_ladder();
  tutor::finish_ladder(r.variants, r.ceiling);
  return r;
}

/// A fresh folder for one test, removed with everything in it at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("tutor_report_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ------------------------------------------------------------------ finish_ladder

TEST(FinishLadder, BandwidthIsBytesOverMedianTime) {
  auto steps = transpose_ladder();
  tutor::finish_ladder(steps, kCopyCeiling);
  EXPECT_DOUBLE_EQ(steps[0].GBps, 2000.0);  // 2e9 B / 1e-3 s / 1e9
  EXPECT_DOUBLE_EQ(steps[2].GBps, 4000.0);  // 2e9 B / 0.5e-3 s / 1e9
  EXPECT_DOUBLE_EQ(steps[3].GBps, 3200.0);  // 2e9 B / 0.625e-3 s / 1e9
}

TEST(FinishLadder, FractionOfCeilingDividesByTheMeasuredCopyBandwidth) {
  auto steps = transpose_ladder();
  tutor::finish_ladder(steps, kCopyCeiling);
  EXPECT_DOUBLE_EQ(steps[0].fraction_of_ceiling, 0.5);  // 2000 / 4000
  EXPECT_DOUBLE_EQ(steps[2].fraction_of_ceiling, 1.0);  // 4000 / 4000
  EXPECT_DOUBLE_EQ(steps[3].fraction_of_ceiling, 0.8);  // 3200 / 4000
}

TEST(FinishLadder, SpeedupsSkipAStepThatWasNotTimed) {
  auto steps = transpose_ladder();
  tutor::finish_ladder(steps, kCopyCeiling);
  EXPECT_EQ(steps[0].speedup_vs_prev, 0.0) << "the first step has no previous step";
  EXPECT_DOUBLE_EQ(steps[0].speedup_vs_first, 1.0);
  EXPECT_DOUBLE_EQ(steps[2].speedup_vs_prev, 2.0) << "tiled is compared with naive, not broken";
  EXPECT_DOUBLE_EQ(steps[2].speedup_vs_first, 2.0);
  EXPECT_DOUBLE_EQ(steps[3].speedup_vs_prev, 0.8) << "a slower step shows a speedup below 1";
  EXPECT_DOUBLE_EQ(steps[3].speedup_vs_first, 1.6);
}

TEST(FinishLadder, AStepThatWasNotTimedGetsNoRates) {
  auto steps = transpose_ladder();
  tutor::finish_ladder(steps, kCopyCeiling);
  const StepResult& broken = steps[1];
  EXPECT_EQ(broken.GBps, 0.0);
  EXPECT_EQ(broken.TFLOPs, 0.0);
  EXPECT_EQ(broken.fraction_of_ceiling, 0.0);
  EXPECT_EQ(broken.speedup_vs_prev, 0.0);
  EXPECT_EQ(broken.speedup_vs_first, 0.0);
}

TEST(FinishLadder, AnUntimedFirstStepLeavesTheSecondAsTheBaseline) {
  std::vector<StepResult> steps = {failed_step("broken"), timed_step("naive", 2e9, 1.0),
                                   timed_step("tiled", 2e9, 0.5)};
  tutor::finish_ladder(steps, kCopyCeiling);
  EXPECT_EQ(steps[1].speedup_vs_prev, 0.0);
  EXPECT_DOUBLE_EQ(steps[1].speedup_vs_first, 1.0);
  EXPECT_DOUBLE_EQ(steps[2].speedup_vs_prev, 2.0);  // 1.0 / 0.5
  EXPECT_DOUBLE_EQ(steps[2].speedup_vs_first, 2.0);
}

TEST(FinishLadder, ComputeCeilingDividesTflopsByTheFmaRate) {
  // 4e9 FLOPs in 0.1 ms: 4e9 / 1e-4 s / 1e12 = 40 TFLOP/s; of a 50 TFLOP/s roof: 0.8.
  // 8e8 bytes in the same time: 8e8 / 1e-4 / 1e9 = 8000 GB/s (reported, not the ceiling).
  StepResult gemm = timed_step("sgemm", 8e8, 0.1);
  gemm.flops = 4e9;
  std::vector<StepResult> steps = {gemm};
  tutor::finish_ladder(steps, Ceiling{"fp32 FMA", 50.0, CeilingUnit::TFLOPs});
  EXPECT_DOUBLE_EQ(steps[0].TFLOPs, 40.0);
  EXPECT_DOUBLE_EQ(steps[0].GBps, 8000.0);
  EXPECT_DOUBLE_EQ(steps[0].fraction_of_ceiling, 0.8);
}

// ------------------------------------------------------------------ to_json (the record)

TEST(LabRecordJson, HasEveryTopLevelFieldOfTheRecord) {
  const json j = tutor::to_json(transpose_record());
  EXPECT_EQ(j.at("lab"), "a02_transpose");
  EXPECT_EQ(j.at("module"), "A02");
  EXPECT_EQ(j.at("version"), std::string(tutor::kVersion));
  EXPECT_EQ(j.at("kind"), "measurement");
  EXPECT_EQ(j.at("command"), "./a02_transpose --rows 4096 --cols 4096");
  EXPECT_EQ(j.at("problem"), (json{{"rows", 4096}, {"cols", 4096}, {"dtype", "f32"}}));
  ASSERT_TRUE(j.at("variants").is_array());
  EXPECT_EQ(j.at("variants").size(), 4u);
}

TEST(LabRecordJson, DeviceHasItsPropertiesAndMeasuredCeilings) {
  const json device = tutor::to_json(transpose_record()).at("device");
  EXPECT_EQ(device.at("name"), "Made-up GPU");
  EXPECT_EQ(device.at("vendor"), "NVIDIA");
  EXPECT_EQ(device.at("arch"), "sm_90");
  EXPECT_EQ(device.at("sm_count"), 132);
  EXPECT_EQ(device.at("measured").at("copy_GBps"), 4000.0);
  EXPECT_EQ(device.at("measured").at("fma_TFLOPs"), 60.0);
}

TEST(LabRecordJson, TimedVariantHasEveryFieldWithTheHandDerivedValues) {
  const json tiled = tutor::to_json(transpose_record()).at("variants").at(2);
  EXPECT_EQ(tiled.at("name"), "tiled");
  EXPECT_EQ(tiled.at("verified"), true);
  EXPECT_EQ(tiled.at("rel_err"), 0.0);
  const json& t = tiled.at("time_ms");
  EXPECT_DOUBLE_EQ(t.at("min").get<double>(), 0.45);     // 0.9 * 0.5
  EXPECT_DOUBLE_EQ(t.at("median").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(t.at("max").get<double>(), 0.6);      // 1.2 * 0.5
  EXPECT_EQ(t.at("n"), 20);
  EXPECT_EQ(tiled.at("bytes"), 2e9);
  EXPECT_EQ(tiled.at("flops"), 0.0);
  EXPECT_DOUBLE_EQ(tiled.at("GBps").get<double>(), 4000.0);
  EXPECT_EQ(tiled.at("TFLOPs"), 0.0);
  EXPECT_DOUBLE_EQ(tiled.at("fraction_of_ceiling").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(tiled.at("speedup_vs_prev").get<double>(), 2.0);
}

TEST(LabRecordJson, FirstVariantHasANullSpeedupOverThePreviousStep) {
  const json naive = tutor::to_json(transpose_record()).at("variants").at(0);
  ASSERT_TRUE(naive.contains("speedup_vs_prev"));
  EXPECT_TRUE(naive.at("speedup_vs_prev").is_null());
}

TEST(LabRecordJson, UntimedVariantHasNullTimeAndSaysWhyItFailed) {
  const json broken = tutor::to_json(transpose_record()).at("variants").at(1);
  EXPECT_EQ(broken.at("name"), "broken");
  EXPECT_EQ(broken.at("verified"), false);
  ASSERT_TRUE(broken.contains("time_ms"));
  EXPECT_TRUE(broken.at("time_ms").is_null());
  // got {1, 2, 4} vs ref {1, 2, 3}: rel_l2 = 1 / sqrt(14) = 0.2673, first mismatch index 2.
  EXPECT_NEAR(broken.at("rel_err").get<double>(), 0.2672612, 1e-7);
  const json& check = broken.at("checks").at(0);
  EXPECT_EQ(check.at("shape"), "31x33");
  EXPECT_EQ(check.at("passed"), false);
  EXPECT_EQ(check.at("first_mismatch"), 2);
  EXPECT_TRUE(check.contains("reason"));
}

TEST(LabRecordJson, KindIsNeverOmitted) {
  const LabRecord defaulted;
  const json j = tutor::to_json(defaulted);
  ASSERT_TRUE(j.contains("kind"));
  EXPECT_EQ(j.at("kind"), "measurement");

  LabRecord model = transpose_record();
  model.kind = "model";
  EXPECT_EQ(tutor::to_json(model).at("kind"), "model");
}

// ------------------------------------------------------------------ write_file_atomic

TEST(WriteFileAtomic, WritesTheContent) {
  ScratchDir dir;
  const fs::path file = dir.path() / "record.json";
  tutor::write_file_atomic(file.string(), "{\"lab\": \"a02_transpose\"}\n");
  EXPECT_EQ(read_text(file), "{\"lab\": \"a02_transpose\"}\n");
}

TEST(WriteFileAtomic, ReplacesAnExistingFile) {
  ScratchDir dir;
  const fs::path file = dir.path() / "record.json";
  tutor::write_file_atomic(file.string(), "old, and longer than the new text\n");
  tutor::write_file_atomic(file.string(), "new\n");
  EXPECT_EQ(read_text(file), "new\n");
}

TEST(WriteFileAtomic, LeavesNoTemporaryFileBehind) {
  ScratchDir dir;
  const fs::path file = dir.path() / "record.json";
  tutor::write_file_atomic(file.string(), "first\n");
  tutor::write_file_atomic(file.string(), "second\n");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"record.json"});
  for (const auto& name : names) EXPECT_FALSE(mentions(name, ".tmp.")) << name;
}

TEST(WriteFileAtomic, MissingFolderThrowsNamingThePath) {
  ScratchDir dir;
  const std::string path = (dir.path() / "no_such_folder" / "record.json").string();
  try {
    tutor::write_file_atomic(path, "x");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(mentions(e.what(), path)) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir.path() / "no_such_folder"));
}

// ------------------------------------------------------------------ the ladder table

TEST(LadderTable, PrintsEveryStepAndNoForTheFailedOne) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  const LabRecord r = transpose_record();
  tutor::detail::print_steps(out, r.variants, r.ceiling);
  std::fflush(out);
  std::rewind(out);
  std::string text;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, out)) > 0) text.append(buf, n);
  std::fclose(out);

  for (const char* name : {"naive", "broken", "tiled", "vec4"})
    EXPECT_TRUE(mentions(text, name)) << name << " missing from:\n" << text;
  EXPECT_TRUE(mentions(text, "NO at 31x33")) << text;
  EXPECT_TRUE(mentions(text, "not timed")) << text;
  EXPECT_TRUE(mentions(text, "2.00x")) << "tiled over naive:\n" << text;
  EXPECT_TRUE(mentions(text, "device-to-device copy")) << "the ceiling line:\n" << text;
}

}  // namespace

// ------------------------------------------------------------------ sweeps (1-D and 2-D)

namespace {
tutor::StepResult timed_row(const std::string& name, double ms, double flops) {
  tutor::StepResult r;
  r.name = name;
  r.timed = r.verified = true;
  r.time_ms.median = r.time_ms.min = r.time_ms.max = ms;
  r.flops = flops;
  r.TFLOPs = flops / (ms * 1e-3) / 1e12;
  return r;
}
}  // namespace

TEST(Sweep, OneDimensionalCsvHasOneRowPerPointAndStep) {
  const std::vector<tutor::detail::SweepPoint> points = {{256, std::nullopt, {timed_row("a", 1, 2e9)}},
                                                         {512, std::nullopt, {timed_row("a", 2, 16e9)}}};
  const std::string csv = tutor::detail::sweep_csv("size", "", points);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "size,step,role,median_ms,min_ms,max_ms,GBps,TFLOPs,fraction_of_ceiling,verified,rel_err");
  EXPECT_TRUE(mentions(csv, "\n256,a,ladder,1.000000,")) << csv;
  EXPECT_TRUE(mentions(csv, "\n512,a,ladder,2.000000,")) << csv;
}

TEST(Sweep, TwoDimensionalCsvAndPlotNameTheSeriesValue) {
  // 2 x values x 2 series values x 1 step: four rows, and one plot line per (step, series value).
  std::vector<tutor::detail::SweepPoint> points;
  for (int y : {1, 8})
    for (int x : {1024, 2048}) points.push_back({x, y, {timed_row("gemv", 1.0 / y, 1e9 * x)}});
  const std::string csv = tutor::detail::sweep_csv("size", "batch", points);
  EXPECT_EQ(csv.substr(0, csv.find(',', 5)), "size,batch");
  EXPECT_TRUE(mentions(csv, "\n2048,8,gemv,ladder,")) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
  const std::string svg = tutor::detail::sweep_svg("t", "size", "batch", tutor::CeilingUnit::TFLOPs, points);
  EXPECT_TRUE(mentions(svg, "gemv, batch 1")) << svg;
  EXPECT_TRUE(mentions(svg, "gemv, batch 8")) << svg;
}
