# Every third-party library is found first (Debian: libfmt-dev, libcli11-dev,
# nlohmann-json3-dev, libgtest-dev, libbenchmark-dev) and fetched only where it is not
# installed. FIND_PACKAGE_ARGS makes FetchContent_MakeAvailable try find_package first
# (CMake >= 3.24). Nothing is vendored.
include(FetchContent)

FetchContent_Declare(fmt
  GIT_REPOSITORY https://github.com/fmtlib/fmt.git
  GIT_TAG 10.2.1
  FIND_PACKAGE_ARGS 9)
FetchContent_Declare(CLI11
  GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
  GIT_TAG v2.4.2
  FIND_PACKAGE_ARGS 2.1)
FetchContent_Declare(nlohmann_json
  GIT_REPOSITORY https://github.com/nlohmann/json.git
  GIT_TAG v3.11.3
  FIND_PACKAGE_ARGS 3.10)
FetchContent_MakeAvailable(fmt CLI11 nlohmann_json)

if(TUTOR_BUILD_TESTS)
  FetchContent_Declare(googletest
    GIT_REPOSITORY https://github.com/google/googletest.git
    GIT_TAG v1.14.0
    FIND_PACKAGE_ARGS NAMES GTest)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(googletest)
endif()

if(TUTOR_BUILD_BENCHMARKS)
  FetchContent_Declare(benchmark
    GIT_REPOSITORY https://github.com/google/benchmark.git
    GIT_TAG v1.8.3
    FIND_PACKAGE_ARGS 1.6)
  set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(benchmark)
endif()

# SHA-256 of the files a record names (tutor/output.hpp): OpenSSL's libcrypto (Debian:
# libssl-dev). It is part of every Linux distribution, so it is found, never fetched.
find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)

# Header-only fmt keeps lab binaries free of libfmt.so, so a binary built on one machine
# runs on another that has no fmt installed (the H200 measurement machine has none).
if(TARGET fmt::fmt-header-only)
  set(TUTOR_FMT fmt::fmt-header-only)
else()
  set(TUTOR_FMT fmt::fmt)
endif()
