# One per-GPU weight count for B05 and B06: `b05_transformer calc --tp N` and `b06_serving kv --tp N`
# print the same weights of one tensor-parallel rank (both take b05::tensor_parallel_share).
#   cmake -DB05=exe -DB06=exe -DMODEL=stem -DTP=n -P tp_weights_agree.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND "${B05}" calc --model ${MODEL} --tp ${TP} --json -
                RESULT_VARIABLE rc5 OUTPUT_VARIABLE out5 ERROR_VARIABLE err5)
execute_process(COMMAND "${B06}" kv --model ${MODEL} --gpu h200 --gpus ${TP} --tp ${TP} --json -
                RESULT_VARIABLE rc6 OUTPUT_VARIABLE out6 ERROR_VARIABLE err6)
if(NOT rc5 EQUAL 0 OR NOT rc6 EQUAL 0)
  message(FATAL_ERROR "exit codes ${rc5} (b05) and ${rc6} (b06), expected 0:\n${err5}\n${err6}")
endif()
string(JSON b05_bytes GET "${out5}" quantities tp_weight_bytes_per_gpu value)
string(JSON b06_bytes GET "${out6}" per_gpu weight_bytes)
# Both are the same double, written by nlohmann::json the same way: the text must be equal.
if(NOT b05_bytes STREQUAL b06_bytes)
  message(FATAL_ERROR "${MODEL} at TP ${TP}: b05 calc --tp says ${b05_bytes} B per GPU, b06 kv says ${b06_bytes} B")
endif()
message(STATUS "${MODEL} at TP ${TP}: ${b05_bytes} B of weights per GPU in both")
