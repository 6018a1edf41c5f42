# B06's simulator library: the continuous-batching engine (batch_sim), its step-cost model
# (step_cost) and its workloads (workload: synthetic and CSV trace). The `batch` subcommand
# of b06_serving and its tests and benchmark link it. Paths are relative to this file, so
# any CMakeLists can include() it; include_guard keeps the target defined once.
include_guard(GLOBAL)

add_library(tutor_b06_sim STATIC
  "${CMAKE_CURRENT_LIST_DIR}/batch_sim.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/step_cost.cpp"
  "${CMAKE_CURRENT_LIST_DIR}/workload.cpp")
target_include_directories(tutor_b06_sim PUBLIC "${CMAKE_CURRENT_LIST_DIR}")
target_link_libraries(tutor_b06_sim PUBLIC tutor_common)
target_compile_options(tutor_b06_sim PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>)
