#pragma once
// The checks of one cuda/hip pair. Each returns its findings, one line each, ready to print;
// no findings means the twins agree.
#include <string>
#include <vector>

#include "allowlist.hpp"

namespace tutor::twins {

/// A source file: the path that messages name, and its text.
struct Source {
  std::string path;
  std::string text;
};

/// Mirror check: the normalised lines, diffed; each differing line must match an entry of
/// `allow` (read from `allow_path`), and each entry must match at least one differing line.
std::vector<std::string> compare_lines(const Source& cuda, const Source& hip, std::vector<AllowEntry> allow,
                                       const std::string& allow_path);

/// Structural check: the same kernel names, launcher signatures and step banners, in the
/// same order (structure.hpp says what each one is).
std::vector<std::string> compare_structure(const Source& cuda, const Source& hip);

/// An nvidia-only lab may keep a HIP file only as a documented stub: a comment line
/// "// nvidia-only: <why>" and no kernels.
bool is_nvidia_only_stub(const std::string& text);

}  // namespace tutor::twins
