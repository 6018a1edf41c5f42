# The twin test: every GPU lab's cuda/ and hip/ sources are compared by tutor_twins
# (common/tools/tutor_twins.cpp; docs/DESIGN.md, "Twins").
#
# tutor_add_twin_test(NAME <lab> MODE <mode> [<stem>=<mode>...] DIR <module dir>
#                     CUDA <files...> [HIP <files...>])
#
# registers the ctest <lab>.twins (label "twins"). MODE's first element is the default mode of
# the lab's pairs (mirror | structural | nvidia-only), then overrides per pair by file stem
# ("mirror vendor_blas=structural"). CUDA and HIP are relative to DIR, as tutor_add_lab takes
# them; pairs are matched by stem (cuda/sgemm.cu <-> hip/sgemm.hip, exercises/ included).
# tutor_add_lab calls this for every GPU lab; call it directly for other pairs (common's runtime).
function(tutor_add_twin_test)
  cmake_parse_arguments(TWIN "" "NAME;DIR" "MODE;CUDA;HIP" ${ARGN})
  if(NOT TWIN_NAME OR NOT TWIN_MODE OR NOT TWIN_DIR OR NOT TWIN_CUDA)
    message(FATAL_ERROR "tutor_add_twin_test: NAME, MODE, DIR and CUDA are required")
  endif()
  # Run from the source root with the folder relative to it, so messages name repository paths.
  file(RELATIVE_PATH dir "${CMAKE_SOURCE_DIR}" "${TWIN_DIR}")
  if(dir STREQUAL "")
    set(dir ".")
  endif()
  set(args --name ${TWIN_NAME} --dir "${dir}" --mode ${TWIN_MODE} --cuda ${TWIN_CUDA})
  if(TWIN_HIP)
    list(APPEND args --hip ${TWIN_HIP})
  endif()
  add_test(NAME ${TWIN_NAME}.twins COMMAND tutor_twins ${args})
  set_tests_properties(${TWIN_NAME}.twins PROPERTIES WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}" LABELS twins)
endfunction()
