# The version string every JSON record carries: `git describe --always --dirty` at configure
# time, or the project version outside a git checkout. -DTUTOR_VERSION=<describe> sets it where
# the build machine's copy of the tree has no (or an outdated) git history, so a record measured
# there still names the commit it was built from.
find_package(Git QUIET)
set(TUTOR_VERSION "" CACHE STRING "Version recorded in every JSON record (default: git describe)")
set(TUTOR_GIT_DESCRIBE "${PROJECT_VERSION}")
if(TUTOR_VERSION)
  set(TUTOR_GIT_DESCRIBE "${TUTOR_VERSION}")
elseif(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --tags
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    OUTPUT_VARIABLE _describe OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0 AND _describe)
    set(TUTOR_GIT_DESCRIBE "${_describe}")
  endif()
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/version.hpp.in"
               "${CMAKE_BINARY_DIR}/generated/tutor/version.hpp" @ONLY)
# The same string for scripts beside the build (run_records.sh hands it to the Python labs, so
# their records name the version the C++ labs of that build name).
file(WRITE "${CMAKE_BINARY_DIR}/tutor_version.txt" "${TUTOR_GIT_DESCRIBE}\n")
