// Writes the hostile inputs of the regression tests into a folder (ctest runs it first, as the
// fixture "hostile_inputs"): large or odd files are made here, never committed.
//
//   make_hostile_inputs <repository root> <output folder>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

/// `config` (a JSON object's text) with `"key": value` added as its last member.
std::string with_member(const std::string& config, const std::string& key, const std::string& value) {
  const auto close = config.rfind('}');
  return config.substr(0, close) + ",\n  \"" + key + "\": " + value + "\n}\n";
}

/// `config` with the first `"key": <number>` given another value.
std::string with_value(std::string config, const std::string& key, const std::string& value) {
  const std::string marker = "\"" + key + "\": ";
  const auto at = config.find(marker);
  if (at == std::string::npos) throw std::runtime_error("no key " + key);
  const auto start = at + marker.size();
  const auto end = config.find_first_of(",\n}", start);
  return config.replace(start, end - start, value);
}

std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string nested_objects(std::size_t depth) {
  std::string out;
  for (std::size_t i = 0; i < depth; ++i) out += "{\"a\":";
  out += "0";
  out += std::string(depth, '}');
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3) throw std::runtime_error("usage: make_hostile_inputs <repository root> <output folder>");
  const fs::path root = argv[1], out = argv[2];
  fs::create_directories(out);
  const std::string llama = read(root / "data/models/llama-3.1-8b.json");
  const std::string deepseek = read(root / "data/models/deepseek-v3.json");

  // A field nested 100,000 brackets deep (crashed every reader with a stack overflow).
  write(out / "deep_array.json", with_member(llama, "x", nested_arrays(100'000)));
  write(out / "deep_object.json", with_member(llama, "x", nested_objects(100'000)));
  // A 10 MB config with a per-layer list of 600,000 entries (hung the readers).
  std::string layers = "[";
  for (int i = 0; i < 600'000; ++i) layers += i ? ",\"full_attention\"" : "\"full_attention\"";
  write(out / "long_layer_list.json", with_member(llama, "layer_types", layers + "]"));
  // Numbers that overflow a double, at the top level and inside text_config.
  write(out / "overflow_top.json", with_value(llama, "num_hidden_layers", "1e400"));
  write(out / "overflow_nested.json",
        with_member(llama, "text_config", "{\"hidden_size\": 4096, \"vocab_size\": 1e999}"));
  write(out / "subnormal.json", with_value(llama, "rms_norm_eps", "4e-320"));
  // A huge shared-expert count (printed negative parameter counts with exit 0).
  write(out / "huge_shared_experts.json", with_value(deepseek, "n_shared_experts", "1000000000000000"));
  write(out / "huge_layers.json", with_value(llama, "num_hidden_layers", "4000000000"));
  write(out / "huge_hidden.json", with_value(llama, "hidden_size", "9007199254740993"));
  // Each field within its bound, their product past what a double counts exactly (1e24).
  std::string product = with_value(llama, "hidden_size", "2147483647");
  product = with_value(product, "intermediate_size", "2147483647");
  product = with_value(product, "num_hidden_layers", "100000");
  product = with_value(product, "num_attention_heads", "1");
  write(out / "huge_product.json", with_value(product, "num_key_value_heads", "1"));
  // A model whose positions, taken as the default context, pass 9e15 B per step (blamed --gpus).
  write(out / "huge_positions.json",
        with_value(with_value(llama, "num_hidden_layers", "4096"), "max_position_embeddings", "1073741824"));
  // One huge head_dim: the message names it (it listed hidden_size, intermediate_size, ...).
  write(out / "huge_head_dim.json", with_member(llama, "head_dim", "2147483647"));

  // A model_type with a terminal escape sequence: quoted back, it must not reach the terminal.
  write(out / "escape_model_type.json", with_value(llama, "model_type", "\"\\u001b[2Jllama\\u0007\""));

  // GPU files.
  const std::string gpu = "{\"name\": \"X\", \"memory_GB\": 80, \"hbm_bandwidth_GBps\": 3350, \"bf16_TFLOPs\": 989}\n";
  write(out / "gpu_deep.json", with_member(gpu, "x", nested_arrays(100'000)));
  write(out / "gpu_overflow.json", with_value(gpu, "memory_GB", "1e400"));
  write(out / "gpu_huge_memory.json", with_value(gpu, "memory_GB", "1e300"));
  write(out / "gpu_subnormal.json", with_value(gpu, "hbm_bandwidth_GBps", "5e-324"));
  // Tiny positive rates, each a normal double (made every step cost inf, or printed absurd times).
  write(out / "gpu_tiny_bandwidth.json", with_value(gpu, "hbm_bandwidth_GBps", "1e-300"));
  write(out / "gpu_tiny_bf16.json", with_value(gpu, "bf16_TFLOPs", "2.3e-308"));
  write(out / "gpu_tiny_fp8.json", with_member(gpu, "fp8_TFLOPs", "1e-300"));
  write(out / "gpu_tiny_interconnect.json", with_member(gpu, "interconnect_GBps", "2.3e-308"));

  // A C1 control (U+009B, a terminal's CSI) in model_type: echoed, it must be escaped.
  write(out / "c1_model_type.json", with_value(llama, "model_type", "\"\\u009b31mXX\""));

  // Traces: 1 GiB of NUL bytes (a sparse file: no disk is used), a line of 4 MiB, a binary
  // byte after a good row.
  {
    const fs::path nul = out / "trace_nul_1GiB.csv";
    const int fd = ::open(nul.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::ftruncate(fd, off_t(1) << 30) != 0) throw std::runtime_error("cannot make " + nul.string());
    ::close(fd);
  }
  write(out / "trace_long_line.csv", "timestamp_s,prompt_tokens,output_tokens\n0," + std::string(4 << 20, '7') + ",1\n");
  write(out / "trace_huge_sequence.csv",
        "timestamp_s,prompt_tokens,output_tokens\n0,2147483647,2147483647\n");
  write(out / "trace_escape.csv", "timestamp_s,prompt_tokens,output_tokens\n0,10,10\n0,\x1b[2J,1\n");
  // Lines of spaces after the header (a million of them were read whole, 1 GiB, before refusing).
  {
    std::string blank = "timestamp_s,prompt_tokens,output_tokens\n";
    for (int i = 0; i < 2000; ++i) blank += std::string(100, ' ') + "\n";
    write(out / "trace_blank_lines.csv", blank + "0,10,10\n");
  }
  // Good rows, then a bad one: --requests 2 reads the first two rows and stops.
  write(out / "trace_bad_last_row.csv", "timestamp_s,prompt_tokens,output_tokens\n0,10,10\n1,20,20\n2,30,30\nbad\n");

  // A data folder whose models/ holds a link loop, a dangling link and one good config.
  const fs::path models = out / "data_with_loop/models";
  fs::remove_all(out / "data_with_loop");
  fs::create_directories(models);
  fs::create_symlink("loop.json", models / "loop.json");
  fs::create_symlink("missing-target.json", models / "dangling.json");
  write(models / "llama-3.1-8b.json", llama);

  // A data folder with one good config and one that is an empty object (b05 table exited 1
  // after half a table).
  const fs::path bad_models = out / "data_with_bad_config/models";
  fs::remove_all(out / "data_with_bad_config");
  fs::create_directories(bad_models);
  write(bad_models / "llama-3.1-8b.json", llama);
  write(bad_models / "zz-empty.json", "{}\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "make_hostile_inputs: %s\n", e.what());
  return 1;
}
