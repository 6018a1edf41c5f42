# GPU exercises: a kernel with a TODO that a lab runs as its `exercise` step (StepRole::exercise),
# and its worked solution, same file name, under exercises/solutions/.
#
# tutor_gpu_exercises(LAB <lab> TWIN <mode> CUDA <exercises/cuda/x.cu...> HIP <exercises/hip/x.hip...>
#                     OUT_CUDA <var> OUT_HIP <var> [LIBS <targets...>])
#
# Sets <OUT_CUDA> / <OUT_HIP> to the sources the lab links: the stubs the learner edits, or, with
# -DTUTOR_EXERCISE_SOLUTIONS=ON, the worked solutions (exercises/solutions/cuda|hip/, same names), so
# one build of the lab on a GPU writes the stub's record and another the solution's. The set the lab
# does not link is compiled too, as an OBJECT library per vendor (<lab>_exercise_check_cuda|hip) for
# one architecture only, so CI compile-checks both sets and neither rots; its cuda/ and hip/ files
# get their own twin test (<lab>_exercise_solutions.twins or <lab>_exercise_stubs.twins, mode TWIN).
# The lab's own twin test (tutor_add_lab's TWIN) checks the set it links.
include_guard(GLOBAL)

option(TUTOR_EXERCISE_SOLUTIONS
       "GPU labs link the worked solutions of their exercises (exercises/solutions/) instead of the stubs" OFF)

function(tutor_gpu_exercises)
  cmake_parse_arguments(EX "" "LAB;OUT_CUDA;OUT_HIP" "TWIN;CUDA;HIP;LIBS" ${ARGN})
  foreach(required LAB TWIN CUDA HIP OUT_CUDA OUT_HIP)
    if(NOT EX_${required})
      message(FATAL_ERROR "tutor_gpu_exercises: ${required} is required")
    endif()
  endforeach()
  set(stubs_cuda ${EX_CUDA})
  set(stubs_hip ${EX_HIP})
  list(TRANSFORM EX_CUDA REPLACE "^exercises/" "exercises/solutions/" OUTPUT_VARIABLE solutions_cuda)
  list(TRANSFORM EX_HIP REPLACE "^exercises/" "exercises/solutions/" OUTPUT_VARIABLE solutions_hip)
  if(TUTOR_EXERCISE_SOLUTIONS)
    set(linked solutions)
    set(other stubs)
  else()
    set(linked stubs)
    set(other solutions)
  endif()
  set(${EX_OUT_CUDA} ${${linked}_cuda} PARENT_SCOPE)
  set(${EX_OUT_HIP} ${${linked}_hip} PARENT_SCOPE)

  if(TUTOR_BUILD_TESTS AND COMMAND tutor_add_twin_test)
    tutor_add_twin_test(NAME ${EX_LAB}_exercise_${other} MODE ${EX_TWIN} DIR "${CMAKE_CURRENT_SOURCE_DIR}"
                        CUDA ${${other}_cuda} HIP ${${other}_hip})
  endif()
  # The other set, compiled for the first architecture of each vendor (a compile check, not linked).
  foreach(vendor IN LISTS TUTOR_VENDORS)
    string(TOLOWER "${vendor}" v)
    set(target ${EX_LAB}_exercise_check_${v})
    add_library(${target} OBJECT ${${other}_${v}})
    target_link_libraries(${target} PRIVATE tutor_gpu_${v} ${EX_LIBS})
    target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
    if(vendor STREQUAL "CUDA")
      list(GET CMAKE_CUDA_ARCHITECTURES 0 arch)
      set_target_properties(${target} PROPERTIES CUDA_STANDARD 17 CUDA_ARCHITECTURES ${arch})
    else()
      list(GET CMAKE_HIP_ARCHITECTURES 0 arch)
      set_target_properties(${target} PROPERTIES HIP_STANDARD 17 HIP_ARCHITECTURES ${arch})
    endif()
  endforeach()
endfunction()
