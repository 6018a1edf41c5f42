# tutor_use_rocprim(<hip sources...>): where rocPRIM (AMD's counterpart of CUB, header-only;
# Debian: librocprim-dev) is found, the named HIP sources are compiled with TUTOR_HAVE_ROCPRIM=1
# and its include folder; without it they leave their vendor rows out. Debian installs it in
# /usr/include, which the compiler searches already: naming that folder again with -isystem moves
# it ahead of libstdc++'s own headers, whose #include_next <math.h> then fails, so it is not added.
function(tutor_use_rocprim)
  if(NOT "HIP" IN_LIST TUTOR_VENDORS)
    return()
  endif()
  find_path(TUTOR_ROCPRIM_INCLUDE_DIR rocprim/rocprim.hpp PATHS /opt/rocm/include)
  if(NOT TUTOR_ROCPRIM_INCLUDE_DIR)
    return()
  endif()
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_DEFINITIONS TUTOR_HAVE_ROCPRIM=1)
  if(NOT TUTOR_ROCPRIM_INCLUDE_DIR STREQUAL "/usr/include")
    set_source_files_properties(${ARGN} PROPERTIES INCLUDE_DIRECTORIES "${TUTOR_ROCPRIM_INCLUDE_DIR}")
  endif()
endfunction()
