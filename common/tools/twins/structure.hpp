#pragma once
// The outline of a kernel file that both twins must share even where their instructions
// differ: kernel names in order, the launchers (the functions the lab's header declares)
// in order with their signatures, and the step banners.
#include <string>
#include <string_view>
#include <vector>

namespace tutor::twins {

/// A function found in a file, with the line its name is on.
struct Function {
  std::string name;       ///< qualified as written: "launch_naive", "DeviceBuffer::upload"
  std::string signature;  ///< normalised, parameter names and default arguments dropped
  int line = 0;
};

/// A "// ---- Step N: name ----" banner: its text without the dashes ("Step 3: tile32").
struct Banner {
  std::string text;
  int line = 0;
};

struct Structure {
  std::vector<Function> kernels;    ///< __global__ functions defined in the file, in file order
  std::vector<Function> launchers;  ///< functions defined outside any anonymous namespace that
                                    ///< are not static, __global__ or __device__, in file order
  std::vector<Banner> banners;      ///< step banners, in file order
};

/// Reads the outline of a .cu / .hip / .hpp source. A light reader, not a C++ parser: it
/// follows braces, namespaces and the statement before each '{'. Preprocessor lines are
/// skipped, and of each #if only the first arm is read.
Structure read_structure(std::string_view source);

}  // namespace tutor::twins
