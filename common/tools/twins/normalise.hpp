#pragma once
// The vendor-neutral reading of a cuda/ or hip/ source line, so two twins can be compared
// line by line: comments removed, runtime names and vendor words spelled one way,
// whitespace collapsed. docs/DESIGN.md ("Twins") lists what is normalised.
#include <string>
#include <string_view>
#include <vector>

namespace tutor::twins {

/// One normalised line and where it came from (1-based line number in its file).
struct Line {
  int number = 0;
  std::string text;
};

/// `source` with every // and /* */ comment removed. String and character literals are kept
/// (a "//" inside a string is not a comment); newlines are kept, so line numbers still hold.
/// Raw string literals are not recognised (no twin uses one).
std::string strip_comments(std::string_view source);

/// One comment-free line in the neutral spelling: cudaX / hipX -> gpuX (with a table for the
/// names that differ beyond the prefix, cudaMallocHost / hipHostMalloc ...), <cuda_X.h> and
/// <hip/hip_X.h> -> <gpu_X.h>, __shfl_*_sync(mask, ...) -> __shfl_*(...), the vendor words
/// CUDA/HIP -> $API, NVIDIA/AMD -> $VENDOR, NCCL/RCCL -> $CCL, nvtx/roctx -> $tx; runs of
/// spaces and tabs become one space, and the ends are trimmed. A normalised line never holds
/// two spaces in a row (allowlists rely on that for their trailing "  # why").
std::string normalise_line(std::string_view line);

/// Every line of `source` that is not blank once comments are removed, normalised.
std::vector<Line> normalise_source(std::string_view source);

}  // namespace tutor::twins
