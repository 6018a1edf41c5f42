# tutor_add_lab(NAME <exe> MODULE <id> HOST <driver .cpp...> CUDA <.cu...> HIP <.hip...>
#               [LIBS <targets...>] [CUDA_LIBS <targets...>] [HIP_LIBS <targets...>])
#
# Builds one lab executable per vendor in TUTOR_VENDORS from the same host driver and that
# vendor's kernel sources. With one vendor the executable is <exe> (./build/a02_transpose);
# when both are built (the ci preset) the HIP one is <exe>_hip. GPU sources are compiled
# as C++17 (fmt 9 and nlohmann_json do not compile under nvcc / hipcc in C++20 mode; they
# never appear in kernel files anyway), host sources as C++20. CUDA_LIBS / HIP_LIBS are linked
# only into that vendor's executable (CUDA::cublas, a NCCL target).
function(tutor_add_lab)
  cmake_parse_arguments(LAB "" "NAME;MODULE" "HOST;CUDA;HIP;LIBS;CUDA_LIBS;HIP_LIBS" ${ARGN})
  if(NOT TUTOR_VENDORS)
    add_executable(${LAB_NAME} ${LAB_HOST})
    target_link_libraries(${LAB_NAME} PRIVATE tutor_gpu_none ${LAB_LIBS})
    target_include_directories(${LAB_NAME} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
    target_compile_definitions(${LAB_NAME} PRIVATE TUTOR_HOST_ONLY TUTOR_LAB_MODULE="${LAB_MODULE}")
    set_target_properties(${LAB_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
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
    target_include_directories(${exe} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
    set_target_properties(${exe} PROPERTIES
      CUDA_STANDARD 17 HIP_STANDARD 17
      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
    target_compile_definitions(${exe} PRIVATE TUTOR_LAB_MODULE="${LAB_MODULE}")
    if(vendor STREQUAL "CUDA")
      # -lineinfo maps Nsight Compute's counters to source lines at no run-time cost.
      target_compile_options(${exe} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    endif()
  endforeach()
endfunction()
