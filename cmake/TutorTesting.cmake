# Test registration, shared by common's tests (tests/) and every module's own tests
# (<module>/tests/). Every test here needs no GPU: a GPU lab's command-line contract is
# checked without one (bad options exit 2, a run exits 3 or, on a GPU, 0).
include(GoogleTest)

# tutor_add_test(<name> <sources...> [PREFIX <p>]): a GoogleTest executable linked to
# tutor_common, its tests discovered into ctest (named <p>Suite.Test with a PREFIX, so
# `ctest -R b06` selects a module's unit tests with its CLI tests). TUTOR_SOURCE_DIR points
# tests at data/ and fixtures.
function(tutor_add_test name)
  cmake_parse_arguments(T "" "PREFIX" "" ${ARGN})
  add_executable(${name} ${T_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE tutor_common GTest::gtest_main)
  target_include_directories(${name} PRIVATE "${CMAKE_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}/..")
  target_compile_definitions(${name} PRIVATE TUTOR_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  target_compile_options(${name} PRIVATE ${TUTOR_WARNINGS})
  gtest_discover_tests(${name} TEST_PREFIX "${T_PREFIX}" DISCOVERY_MODE PRE_TEST)
endfunction()

# tutor_cli_test(<name> <expected codes> <exe> ARGS <args...> [STDERR regex] [STDOUT regex]
#                [ONE_LINE]): runs a lab or tool and checks its exit code (codes separated by
# commas: "0,3" for a run that succeeds on a GPU and exits 3 without one).
function(tutor_cli_test name codes exe)
  cmake_parse_arguments(T "ONE_LINE" "STDERR;STDOUT" "ARGS" ${ARGN})
  set(defs -DEXPECT=${codes})
  if(T_STDERR)
    list(APPEND defs "-DEXPECT_STDERR=${T_STDERR}")
  endif()
  if(T_STDOUT)
    list(APPEND defs "-DEXPECT_STDOUT=${T_STDOUT}")
  endif()
  if(T_ONE_LINE)
    list(APPEND defs -DONE_LINE_STDERR=ON)
  endif()
  string(REPLACE ";" "|" args "${T_ARGS}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DEXE=$<TARGET_FILE:${exe}>" "-DARGS=${args}" ${defs}
           -P "${TUTOR_CMAKE_DIR}/tutor_expect_exit.cmake")
  set_tests_properties(${name} PROPERTIES WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
endfunction()

# tutor_lab_executables(<lab> <out var>): the executables built for a lab in this configure
# (<lab> and, when both vendors are built, <lab>_hip), for looping CLI tests over both.
function(tutor_lab_executables lab out)
  set(found "")
  foreach(exe ${lab} ${lab}_hip)
    if(TARGET ${exe})
      list(APPEND found ${exe})
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
