# The version string every JSON record carries: `git describe --always --dirty` at
# configure time, or the project version outside a git checkout.
find_package(Git QUIET)
set(TUTOR_GIT_DESCRIBE "${PROJECT_VERSION}")
if(GIT_FOUND)
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
