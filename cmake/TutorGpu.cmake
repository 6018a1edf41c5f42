# GPU vendor selection. Sets TUTOR_VENDORS to the vendors labs are built for (CUDA, HIP,
# both, or none) and enables those languages. TUTOR_GPU (cache): none | cuda | hip | auto.
#   cuda, hip: that vendor is required; configuring fails with a message if it is missing.
#   auto:      every vendor whose compiler is found (the ci preset: compile-check both).
include(CheckLanguage)
set(TUTOR_VENDORS "")

# --- CUDA -------------------------------------------------------------------------------
# Architectures: the GPU found at configure time (nvidia-smi's compute capability), else
# TUTOR_DEFAULT_CUDA_ARCHITECTURES (Ampere 80 and Hopper 90). Override with
# -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment variable.
set(TUTOR_DEFAULT_CUDA_ARCHITECTURES "80;90" CACHE STRING
    "CUDA architectures when no GPU is visible at configure time")

function(_tutor_pick_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    return()
  endif()
  set(_archs "${TUTOR_DEFAULT_CUDA_ARCHITECTURES}")
  find_program(_nvidia_smi nvidia-smi)
  if(_nvidia_smi)
    execute_process(COMMAND "${_nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
      OUTPUT_VARIABLE _caps RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rc EQUAL 0 AND _caps MATCHES "^[0-9]+\\.[0-9]+")
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _caps "${_caps}")
      list(REMOVE_DUPLICATES _caps)
      list(TRANSFORM _caps REPLACE "\\." "")
      set(_archs "${_caps}")
      message(STATUS "tutor: CUDA architectures from the GPU found: ${_archs}")
    endif()
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_archs}" CACHE STRING "CUDA architectures" FORCE)
endfunction()

if(TUTOR_GPU STREQUAL "cuda" OR TUTOR_GPU STREQUAL "auto")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "/usr/local/cuda/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    _tutor_pick_cuda_architectures()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    list(APPEND TUTOR_VENDORS CUDA)
  elseif(TUTOR_GPU STREQUAL "cuda")
    message(FATAL_ERROR "tutor: TUTOR_GPU=cuda but no CUDA compiler (nvcc) was found; "
                        "see docs/SETUP.md, or use the host preset")
  endif()
endif()

# --- HIP --------------------------------------------------------------------------------
# CMake's HIP language looks for <rocm-root>/lib/cmake/hip-lang/hip-lang-config.cmake.
# A ROCm install under /opt/rocm has it; Debian's packages (hipcc, ROCm 5.2) install it
# under /usr/lib/<multiarch>/cmake/hip-lang instead, so on Debian we give CMake a small
# "ROCm root" in the build tree whose lib/cmake/hip-lang links to Debian's folder
# (hip-lang-config.cmake resolves the link and keeps /usr as its prefix), and tell clang
# where Debian keeps the device libraries. docs/SETUP.md explains this.
set(TUTOR_HIP_ARCHITECTURES "gfx90a;gfx940" CACHE STRING
    "AMD GPU targets: gfx90a = CDNA2 (MI200), gfx940 = CDNA3 (MI300; clang 15 knows no gfx942)")

function(_tutor_prepare_hip out_ok)
  set(${out_ok} FALSE PARENT_SCOPE)
  if(CMAKE_HIP_COMPILER AND CMAKE_HIP_COMPILER_ROCM_ROOT)
    set(${out_ok} TRUE PARENT_SCOPE)   # the user configured HIP themselves
    return()
  endif()
  foreach(_root "$ENV{ROCM_PATH}" "/opt/rocm")
    if(_root AND EXISTS "${_root}/lib/cmake/hip-lang/hip-lang-config.cmake"
       AND EXISTS "${_root}/llvm/bin/clang++")
      set(CMAKE_HIP_COMPILER "${_root}/llvm/bin/clang++" CACHE FILEPATH "HIP compiler")
      set(${out_ok} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(_debian_lang "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang")
  set(_debian_bitcode "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode")
  find_program(_hip_clang NAMES clang++-15 clang++-16 clang++-17 clang++)
  if(NOT EXISTS "${_debian_lang}/hip-lang-config.cmake" OR NOT EXISTS "${_debian_bitcode}"
     OR NOT _hip_clang)
    return()
  endif()
  set(_shim "${CMAKE_BINARY_DIR}/rocm-root")
  file(MAKE_DIRECTORY "${_shim}/lib/cmake")
  if(NOT EXISTS "${_shim}/lib/cmake/hip-lang")
    file(CREATE_LINK "${_debian_lang}" "${_shim}/lib/cmake/hip-lang" SYMBOLIC)
  endif()
  set(CMAKE_HIP_COMPILER "${_hip_clang}" CACHE FILEPATH "HIP compiler")
  set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_shim}" CACHE PATH "ROCm root seen by CMake's HIP language")
  set(CMAKE_HIP_FLAGS "--rocm-path=/usr --rocm-device-lib-path=${_debian_bitcode}"
      CACHE STRING "Flags for the HIP compiler")
  # hip-lang-config.cmake asks for amd_comgr; CMake's compiler checks run it in a scratch
  # project that does not yet know the multiarch folder, so pass the package's location on.
  set(amd_comgr_DIR "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/amd_comgr" CACHE PATH "")
  set(${out_ok} TRUE PARENT_SCOPE)
endfunction()

if(TUTOR_GPU STREQUAL "hip" OR TUTOR_GPU STREQUAL "auto")
  _tutor_prepare_hip(_hip_ok)
  if(_hip_ok)
    if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
      set(CMAKE_HIP_ARCHITECTURES "${TUTOR_HIP_ARCHITECTURES}" CACHE STRING "HIP architectures")
    endif()
    list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES amd_comgr_DIR CMAKE_HIP_COMPILER_ROCM_ROOT)
    enable_language(HIP)
    list(APPEND TUTOR_VENDORS HIP)
  elseif(TUTOR_GPU STREQUAL "hip")
    message(FATAL_ERROR "tutor: TUTOR_GPU=hip but no HIP toolchain was found (a ROCm install "
                        "under /opt/rocm, or Debian's hipcc package); see docs/SETUP.md")
  endif()
endif()
