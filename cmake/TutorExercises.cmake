# Host exercises (B05, B06, B07, C07): the learner writes one function in a small C++ file and a
# checker compares it with the module's library (tutor/exercise.hpp).
#
# tutor_add_host_exercise(NAME <name> MODULE <id> CHECKER <.cpp> STUB <.cpp> SOLUTION <.cpp>
#                         LIBS <targets...> STUB_MESSAGE <regex>)
#
# Builds the checker once (an object library) and links it twice: with the stub the learner edits
# (<module>_exercise_<name>, e.g. b05_exercise_kv_cache) and with the worked solution
# (<module>_exercise_<name>_solution). Both are registered with tutor_add_lab (HOST only). With
# tests on, two ctest cases labelled `exercise`:
#   <module>.exercise.<name>.solution  the solution passes every case (exit 0);
#   <module>.exercise.<name>.stub      the stub fails (exit 1) for the intended reason: its table
#                                      shows STUB_MESSAGE ("not implemented yet: ...");
#   <module>.exercise.<name>.bad_seed  a bad option is bad input: exit 2, one line naming it.
# So an exercise never rots (the solution keeps passing the library) and is never already solved.
include_guard(GLOBAL)

function(tutor_add_host_exercise)
  cmake_parse_arguments(EX "" "NAME;MODULE;CHECKER;STUB;SOLUTION;STUB_MESSAGE" "LIBS" ${ARGN})
  foreach(required NAME MODULE CHECKER STUB SOLUTION STUB_MESSAGE)
    if(NOT EX_${required})
      message(FATAL_ERROR "tutor_add_host_exercise: ${required} is required")
    endif()
  endforeach()
  string(TOLOWER "${EX_MODULE}" module)
  set(exe "${module}_exercise_${EX_NAME}")

  add_library(${exe}_checker OBJECT ${EX_CHECKER})
  target_link_libraries(${exe}_checker PRIVATE tutor_common ${EX_LIBS})
  target_include_directories(${exe}_checker PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_options(${exe}_checker PRIVATE ${TUTOR_WARNINGS})

  tutor_add_lab(NAME ${exe} MODULE ${EX_MODULE} HOST ${EX_STUB} $<TARGET_OBJECTS:${exe}_checker> LIBS ${EX_LIBS})
  tutor_add_lab(NAME ${exe}_solution MODULE ${EX_MODULE} HOST ${EX_SOLUTION} $<TARGET_OBJECTS:${exe}_checker>
                LIBS ${EX_LIBS})

  if(TUTOR_BUILD_TESTS)
    tutor_cli_test(${module}.exercise.${EX_NAME}.solution 0 ${exe}_solution ARGS --failures)
    tutor_cli_test(${module}.exercise.${EX_NAME}.stub 1 ${exe} ARGS --failures STDOUT "${EX_STUB_MESSAGE}")
    tutor_cli_test(${module}.exercise.${EX_NAME}.bad_seed 2 ${exe} ARGS --seed -1 STDERR "--seed: must be an integer"
                   ONE_LINE)
    set_tests_properties(${module}.exercise.${EX_NAME}.solution ${module}.exercise.${EX_NAME}.stub
                         ${module}.exercise.${EX_NAME}.bad_seed PROPERTIES LABELS exercise)
  endif()
endfunction()
