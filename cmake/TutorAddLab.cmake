# One registration for every executable of the project, GPU lab or host-only tool, and one for
# a module's library, so warning flags, include folders and the output folder are set once.
#
# tutor_add_lab(NAME <exe> MODULE <id> HOST <.cpp...> [CUDA <.cu...>] [HIP <.hip...>]
#               [LIBS <targets...>] [CUDA_LIBS <targets...>] [HIP_LIBS <targets...>]
#               [TWIN mirror|structural|nvidia-only [<stem>=<mode>...]])
#
# Without CUDA or HIP sources the executable is a host tool, built once in every preset.
# With them it is a GPU lab, built once per vendor in TUTOR_VENDORS from the same host driver
# and that vendor's kernel sources: with one vendor the executable is <exe>
# (./build/a02_transpose); when both are built (the ci preset) the HIP one is <exe>_hip; with
# none (the host preset) it is built without kernels against a runtime that has no device, so
# --help, --list and --model work and a run exits 3. GPU sources compile as C++17 (fmt 9 and
# nlohmann_json do not compile under nvcc / hipcc in C++20 mode; they never appear in kernel
# files anyway), host sources as C++20. CUDA_LIBS / HIP_LIBS are linked only into that vendor's
# executable (CUDA::cublas, a NCCL target). TWIN says how the cuda/ and hip/ sources are
# compared by the twin test (docs/DESIGN.md, "Twins"); it is required when there are GPU sources.

# Warnings for host sources of the project (not for GPU sources: vendor headers are noisy).
set(TUTOR_WARNINGS $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic>)

function(tutor_add_lab)
  cmake_parse_arguments(LAB "" "NAME;MODULE" "HOST;CUDA;HIP;LIBS;CUDA_LIBS;HIP_LIBS;TWIN" ${ARGN})
  if(NOT LAB_NAME OR NOT LAB_MODULE OR NOT LAB_HOST)
    message(FATAL_ERROR "tutor_add_lab: NAME, MODULE and HOST are required")
  endif()
  set(gpu_lab FALSE)
  if(LAB_CUDA OR LAB_HIP)
    set(gpu_lab TRUE)
    list(GET LAB_TWIN 0 twin_mode)
    if(NOT twin_mode MATCHES "^(mirror|structural|nvidia-only)$")
      message(FATAL_ERROR "tutor_add_lab(${LAB_NAME}): TWIN must start with mirror, structural or nvidia-only "
                          "(then <stem>=<mode> for a pair that differs from it)")
    endif()
    if(TUTOR_BUILD_TESTS AND COMMAND tutor_add_twin_test)
      tutor_add_twin_test(NAME ${LAB_NAME} MODE ${LAB_TWIN} DIR "${CMAKE_CURRENT_SOURCE_DIR}"
                          CUDA ${LAB_CUDA} HIP ${LAB_HIP})
    endif()
  endif()

  if(NOT gpu_lab OR NOT TUTOR_VENDORS)
    add_executable(${LAB_NAME} ${LAB_HOST})
    set(runtime "")
    if(gpu_lab)
      set(runtime tutor_gpu_none)
      _tutor_step_lines(lines ${LAB_CUDA})
      target_compile_definitions(${LAB_NAME} PRIVATE TUTOR_HOST_ONLY "TUTOR_STEP_LINES=\"${lines}\"")
    endif()
    target_link_libraries(${LAB_NAME} PRIVATE tutor_common ${runtime} ${LAB_LIBS})
    _tutor_lab_properties(${LAB_NAME} ${LAB_MODULE})
    return()
  endif()

  foreach(vendor IN LISTS TUTOR_VENDORS)
    set(exe "${LAB_NAME}")
    if(vendor STREQUAL "HIP" AND "CUDA" IN_LIST TUTOR_VENDORS)
      set(exe "${LAB_NAME}_hip")
    endif()
    string(TOLOWER "${vendor}" v)
    add_executable(${exe} ${LAB_HOST} ${LAB_${vendor}})
    target_link_libraries(${exe} PRIVATE tutor_gpu_${v} ${LAB_LIBS} ${LAB_${vendor}_LIBS})
    set_target_properties(${exe} PROPERTIES CUDA_STANDARD 17 HIP_STANDARD 17)
    _tutor_lab_properties(${exe} ${LAB_MODULE})
    _tutor_step_lines(lines ${LAB_${vendor}})
    target_compile_definitions(${exe} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:TUTOR_STEP_LINES=\"${lines}\">")
    if(vendor STREQUAL "CUDA")
      # -lineinfo maps Nsight Compute's counters to source lines at no run-time cost.
      target_compile_options(${exe} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    endif()
  endforeach()
endfunction()

# _tutor_step_lines(<out var> <sources...>): "name=lines,name=lines" for every step section of
# the kernel sources (a `// ---- Step N: name ----` banner up to the next `// ----` banner),
# counting the lines that are neither blank nor comments: the record's "lines_of_code" per step.
function(_tutor_step_lines out)
  set(result "")
  foreach(src ${ARGN})
    file(STRINGS "${CMAKE_CURRENT_SOURCE_DIR}/${src}" lines)
    set(step "")
    set(count 0)
    foreach(line IN LISTS lines)
      if(line MATCHES "^// ---- ")
        if(step)
          list(APPEND result "${step}=${count}")
        endif()
        set(step "")
        set(count 0)
        if(line MATCHES "^// ---- Step [0-9]+: ([A-Za-z0-9_]+)")
          set(step "${CMAKE_MATCH_1}")
        endif()
      elseif(step AND NOT line MATCHES "^[ \t]*(//.*)?$")
        math(EXPR count "${count} + 1")
      endif()
    endforeach()
    if(step)
      list(APPEND result "${step}=${count}")
    endif()
  endforeach()
  string(REPLACE ";" "," result "${result}")
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(_tutor_lab_properties exe module)
  target_include_directories(${exe} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${exe} PRIVATE TUTOR_LAB_MODULE="${module}")
  if(TUTOR_EXERCISE_SOLUTIONS)  # the exercise rows then say they ran the worked solutions (exercise_build.hpp)
    target_compile_definitions(${exe} PRIVATE TUTOR_EXERCISE_SOLUTIONS)
  endif()
  target_compile_options(${exe} PRIVATE ${TUTOR_WARNINGS})
  set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
endfunction()

# tutor_add_module_library(<name> [STATIC|INTERFACE] SOURCES <.cpp...> [LIBS <targets...>]):
# a module's host code as a library (its model, its CPU reference), so its tests and the
# modules built on it (C07 links B05 and B06) can use it. The module folder is its include path.
function(tutor_add_module_library name)
  cmake_parse_arguments(LIB "INTERFACE" "" "SOURCES;LIBS" ${ARGN})
  if(LIB_INTERFACE)
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE "${CMAKE_CURRENT_SOURCE_DIR}")
    target_link_libraries(${name} INTERFACE tutor_common ${LIB_LIBS})
    return()
  endif()
  add_library(${name} STATIC ${LIB_SOURCES})
  target_include_directories(${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${name} PUBLIC tutor_common ${LIB_LIBS})
  target_compile_options(${name} PRIVATE ${TUTOR_WARNINGS})
endfunction()

# tutor_module_tests(): a module's own tests live in <module>/tests/ (the module is the room);
# call this last in the module's CMakeLists.txt.
function(tutor_module_tests)
  if(TUTOR_BUILD_TESTS)
    add_subdirectory("${CMAKE_CURRENT_SOURCE_DIR}/tests")
  endif()
endfunction()
