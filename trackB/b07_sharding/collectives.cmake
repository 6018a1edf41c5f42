# B07 multi-GPU lab: b07_collectives (collectives.cpp + cuda/collectives.cu over NCCL,
# hip/collectives.hip over RCCL) and the alpha-beta fit it prints beside each measured line
# (tutor_b07_fit, host-only, unit-tested). Included from this folder's CMakeLists.txt.
#
# A vendor's lab is built only where its collective library is found at configure time:
#   NCCL: nccl.h + libnccl.so from the CUDA toolkit (CUDA 13 ships NCCL 2.28 in
#         /usr/local/cuda) or from NCCL_HOME / NCCL_ROOT; linked dynamically (there is no
#         static libnccl here), with the run path set, so the binary needs libnccl.so.2
#         from the same place at run time.
#   RCCL: rccl/rccl.h + librccl.so from ROCM_PATH or /opt/rocm (Debian 12 has no RCCL
#         package: on this project's machines the HIP twin is not compiled).
# A host-only build (no GPU vendor) still builds the lab without kernels, like every lab:
# --help, --list and --model work and a run exits 3.

add_library(tutor_b07_fit STATIC alpha_beta_fit.cpp)
target_include_directories(tutor_b07_fit PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
target_link_libraries(tutor_b07_fit PUBLIC tutor_b07)
target_compile_options(tutor_b07_fit PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>)

set(_b07_coll_vendors "")
set(_b07_coll_note "")

if("CUDA" IN_LIST TUTOR_VENDORS)
  if(NOT TARGET tutor::nccl)
    find_path(TUTOR_NCCL_INCLUDE_DIR nccl.h
      HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME ENV NCCL_ROOT PATH_SUFFIXES include)
    find_library(TUTOR_NCCL_LIBRARY NAMES nccl
      HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME ENV NCCL_ROOT PATH_SUFFIXES lib lib64)
    if(TUTOR_NCCL_INCLUDE_DIR AND TUTOR_NCCL_LIBRARY)
      add_library(tutor::nccl UNKNOWN IMPORTED GLOBAL)
      set_target_properties(tutor::nccl PROPERTIES
        IMPORTED_LOCATION "${TUTOR_NCCL_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${TUTOR_NCCL_INCLUDE_DIR}")
    endif()
  endif()
  if(TARGET tutor::nccl)
    list(APPEND _b07_coll_vendors CUDA)
    get_target_property(_b07_nccl_lib tutor::nccl IMPORTED_LOCATION)
    string(APPEND _b07_coll_note "NVIDIA build: NCCL linked dynamically (${_b07_nccl_lib}, run path set: "
                                 "libnccl.so.2 must be found there or on LD_LIBRARY_PATH at run time). ")
  else()
    message(STATUS "tutor: b07_collectives left out of the CUDA build: NCCL not found (nccl.h and libnccl.so "
                   "under the CUDA toolkit, NCCL_HOME or NCCL_ROOT)")
  endif()
endif()

if("HIP" IN_LIST TUTOR_VENDORS)
  if(NOT TARGET tutor::rccl)
    find_path(TUTOR_RCCL_INCLUDE_DIR rccl/rccl.h HINTS ENV ROCM_PATH /opt/rocm PATH_SUFFIXES include)
    find_library(TUTOR_RCCL_LIBRARY NAMES rccl HINTS ENV ROCM_PATH /opt/rocm PATH_SUFFIXES lib lib64)
    if(TUTOR_RCCL_INCLUDE_DIR AND TUTOR_RCCL_LIBRARY)
      add_library(tutor::rccl UNKNOWN IMPORTED GLOBAL)
      set_target_properties(tutor::rccl PROPERTIES
        IMPORTED_LOCATION "${TUTOR_RCCL_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${TUTOR_RCCL_INCLUDE_DIR}")
    endif()
  endif()
  if(TARGET tutor::rccl)
    list(APPEND _b07_coll_vendors HIP)
    string(APPEND _b07_coll_note "AMD build: RCCL linked dynamically. ")
  else()
    message(STATUS "tutor: b07_collectives left out of the HIP build: RCCL not found (rccl/rccl.h and librccl.so "
                   "under ROCM_PATH or /opt/rocm; Debian 12 has no RCCL package), so hip/collectives.hip is not "
                   "compiled here")
    string(APPEND _b07_coll_note "AMD: RCCL was not found when this was built, so the HIP twin "
                                 "(hip/collectives.hip) was not compiled. ")
  endif()
endif()

# tutor_add_lab builds for every vendor in TUTOR_VENDORS; a function scope narrows that list
# to the vendors whose library was found, without touching the rest of the build. The note
# becomes a compile definition: it must hold no semicolon (a CMake list separator).
function(_tutor_b07_add_collectives vendors note)
  set(TUTOR_VENDORS ${vendors})
  string(STRIP "${note}" note)
  tutor_add_lab(NAME b07_collectives MODULE B07
    HOST collectives.cpp
    CUDA cuda/collectives.cu
    HIP  hip/collectives.hip
    LIBS tutor_b07 tutor_b07_fit
    CUDA_LIBS tutor::nccl
    HIP_LIBS tutor::rccl
    TWIN mirror)
  foreach(exe b07_collectives b07_collectives_hip)
    if(TARGET ${exe})
      target_compile_definitions(${exe} PRIVATE "TUTOR_B07_BUILD_NOTE=\"${note}\"")
      target_compile_options(${exe} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic>)
    endif()
  endforeach()
endfunction()

if(NOT TUTOR_VENDORS)
  _tutor_b07_add_collectives("" "host preset: no GPU runtime, no NCCL or RCCL, so a run exits 3.")
elseif(_b07_coll_vendors)
  _tutor_b07_add_collectives("${_b07_coll_vendors}" "${_b07_coll_note}")
else()
  message(STATUS "tutor: b07_collectives not built: no collective library (NCCL / RCCL) for ${TUTOR_VENDORS}")
endif()
