// B05 profile: the report of a run, fed a made-up run (no GPU): the CSV rows, the record's two
// separate blocks (measurements and the model's predictions), the stacked-bar SVG and the
// summary of which GEMMs the roofline predicts within 25%.
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <string>
#include <vector>

#include "profile_report.hpp"

namespace tutor::b05 {
namespace {

const LayerShape kLlama8B{4096, 32, 8, 128, 14336};

/// Prefill 1x2048 of Llama-3.1-8B on roofs of 1000 TFLOP/s and 5000 GB/s, every sub-op "measured"
/// at 1.2x its roofline time except gate_up_proj at 2x.
PhaseRun made_up_run(ProfileRoofs& roofs) {
  roofs.measured = {1000, 5000};
  roofs.launch_ms = 0.002;
  PhaseRun run;
  run.phase = {PhaseKind::prefill, 1, 2048};
  for (const SubOpCost& c : layer_costs(kLlama8B, run.phase)) {
    SubOpRun s;
    s.cost = c;
    predict_sub_op(s, roofs);
    s.result.name = std::string(to_string(c.op));
    s.result.verified = s.result.timed = true;
    s.result.bytes = c.bytes;
    s.result.flops = c.flops;
    s.result.time_ms.median = s.result.time_ms.min = s.result.time_ms.max =
        s.predicted.time_ms * (c.op == SubOp::gate_up_proj ? 2.0 : 1.2);
    run.sub_ops.push_back(s);
  }
  run.layer.name = "layer";
  run.layer.verified = run.layer.timed = true;
  run.layer.time_ms.median = run.measured_sum_ms();
  return run;
}

std::string printed(void (*print)(std::FILE*, const std::vector<PhaseRun>&), const std::vector<PhaseRun>& runs) {
  std::FILE* f = std::tmpfile();
  print(f, runs);
  std::rewind(f);
  std::string text;
  for (int ch; (ch = std::fgetc(f)) != EOF;) text += static_cast<char>(ch);
  std::fclose(f);
  return text;
}

TEST(ProfileReport, GemmSummarySortsByTheTwentyFivePercentLine) {
  ProfileRoofs roofs;
  const std::vector<PhaseRun> runs = {made_up_run(roofs)};
  const std::string text = printed(print_gemm_summary, runs);
  // qkv_proj (103 GFLOP), o_proj (69), down_proj (241) at 1.2x are within 25%; gate_up_proj at 2x is not.
  EXPECT_NE(text.find("within 25% of the roofline: prefill 1x2048 qkv_proj 1.20x, prefill 1x2048 o_proj 1.20x, "
                      "prefill 1x2048 down_proj 1.20x"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("outside 25% of the roofline: prefill 1x2048 gate_up_proj 2.00x"), std::string::npos) << text;
}

TEST(ProfileReport, CsvHasASubOpRowEachAndTheLayer) {
  ProfileRoofs roofs;
  const std::string csv = profile_csv({made_up_run(roofs)});
  EXPECT_EQ(csv.rfind("phase,sub_op,verified,time_ms_median,", 0), 0u);
  std::size_t lines = 0;
  for (const char ch : csv) lines += ch == '\n';
  EXPECT_EQ(lines, 1u + 11u + 1u);  // header, eleven sub-ops, the whole layer
  // qkv_proj's prediction on these roofs: 103,079,215,104 FLOPs / 1e15 FLOP/s = 0.103079215104 ms, compute-bound.
  const std::size_t at = csv.find("prefill_b1_s2048,qkv_proj,true,");
  ASSERT_NE(at, std::string::npos);
  std::vector<std::string> fields;
  for (std::size_t from = at, to; from <= csv.find('\n', at); from = to + 1) {
    to = std::min(csv.find(',', from), csv.find('\n', at));
    fields.push_back(csv.substr(from, to - from));
  }
  ASSERT_EQ(fields.size(), 17u);
  EXPECT_DOUBLE_EQ(std::stod(fields[10]), 0.103079215104);  // roofline_ms
  EXPECT_DOUBLE_EQ(std::stod(fields[12]), 0.0184549376);    // roofline_memory_ms
  EXPECT_DOUBLE_EQ(std::stod(fields[13]), 1.2);             // measured / roofline
  EXPECT_EQ(fields[14], "compute");
  EXPECT_NE(csv.find("prefill_b1_s2048,layer,true,"), std::string::npos);
}

TEST(ProfileReport, RecordKeepsMeasurementsAndPredictionsApart) {
  ProfileRoofs roofs;
  const std::vector<PhaseRun> runs = {made_up_run(roofs)};
  const nlohmann::json measured = measurement_rows(runs);
  ASSERT_EQ(measured.size(), 12u);
  EXPECT_EQ(measured[1]["name"], "qkv_proj");
  EXPECT_EQ(measured[1]["phase"], "prefill_b1_s2048");
  EXPECT_FALSE(measured[1].contains("roofline"));  // a measurement row carries no model numbers
  const nlohmann::json model = prediction_block(runs, roofs);
  EXPECT_EQ(model["kind"], "model");
  EXPECT_EQ(model["roofs"]["measured"]["kind"], "measurement");
  EXPECT_TRUE(model["roofs"]["datasheet"].is_null());
  EXPECT_EQ(model["rows"][1]["name"], "qkv_proj");
  EXPECT_DOUBLE_EQ(model["rows"][1]["roofline"]["time_ms"].get<double>(), 0.103079215104);
  EXPECT_DOUBLE_EQ(model["rows"][1]["measured_over_roofline"].get<double>(), 1.2);
  // attn_norm: 33,562,624 B / 5e12 B/s = 0.0067125248 ms, above the 0.002 ms launch: memory-bound.
  EXPECT_EQ(model["rows"][0]["bound"], "memory");
}

TEST(ProfileReport, SvgStacksEverySubOpTwicePerPhase) {
  ProfileRoofs roofs;
  const std::vector<PhaseRun> runs = {made_up_run(roofs), made_up_run(roofs)};
  const std::string svg = profile_svg(runs, "a title");
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("a title"), std::string::npos);
  std::size_t bars = 0;
  for (std::size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) ++bars;
  EXPECT_EQ(bars, 2u * 2u * 11u);  // two phases x (measured, roofline) x eleven sub-ops
  EXPECT_NE(svg.find("prefill 1x2048"), std::string::npos);
  EXPECT_NE(svg.find(">gate_up_proj<"), std::string::npos);  // the legend
}

TEST(ProfileReport, ListNamesElevenSubOps) {
  const std::string table = sub_op_table();
  EXPECT_NE(table.find("| 4 | attention |"), std::string::npos);
  EXPECT_NE(table.find("| 11 | mlp_residual |"), std::string::npos);
}

}  // namespace
}  // namespace tutor::b05
