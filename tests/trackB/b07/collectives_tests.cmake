# B07 multi-GPU lab: the alpha-beta fit and the lab's oracle (sizes, expected outputs), which
# need no GPU, and the command-line contract of b07_collectives. Included from this folder's
# CMakeLists.txt. A run exits 0 on a machine with NCCL and GPUs, 3 without a GPU.
if(TARGET tutor_b07_fit)
  tutor_add_test(b07_collectives_tests alpha_beta_fit_test.cpp)
  target_link_libraries(b07_collectives_tests PRIVATE tutor_b07_fit)
  # The suites are discovered under their own names (AlphaBetaFit.*, ...); this entry runs
  # them all under the module's prefix, so `ctest -R b07` covers them too.
  add_test(NAME b07.collectives_unit_tests COMMAND b07_collectives_tests)
endif()

foreach(exe b07_collectives b07_collectives_hip)
  if(NOT TARGET ${exe})
    continue()
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${exe}")
  tutor_cli_test(${exe}.help 0 ${exe} ARGS --help
                 STDOUT "--ops.*--min-bytes.*--max-bytes.*--quick.*--gpus.*--iters.*--warmup.*--json.*--csv.*--plot.*NCCL_NVLS_ENABLE=0")
  tutor_cli_test(${exe}.list 0 ${exe} ARGS --list STDOUT "allreduce +nccl-tests all_reduce_perf.*broadcast")
  # The model with the H200's datasheet link (alpha 3.4 us, B 450 GB/s): 1 GiB all-reduce on 8 ranks
  # is 14 x 3.4 + 1.75 x 2386.09 = 4223.26 us, busbw 444.93 GB/s (collective_model_test.cpp).
  tutor_cli_test(${exe}.model_h200 0 ${exe} ARGS --model h200 --gpus 8 --ops allreduce --min-bytes 1G --max-bytes 1G
                 STDOUT "kind: model.*1073741824 +4223.26 +[0-9.]+ +444.93")
  # All-gather over 8 ranks: 8 B and 16 B have no whole float per rank; the first line is 32 B.
  tutor_cli_test(${exe}.model_skips_sub_element_sizes 0 ${exe} ARGS --model h200 --ops allgather --min-bytes 8
                 --max-bytes 64 STDOUT "busbw[^0-9]+32 ")
  tutor_cli_test(${exe}.model_unknown 2 ${exe} ARGS --model nope STDERR "--model: unknown" ONE_LINE)
  tutor_cli_test(${exe}.model_pcie_only_card 2 ${exe} ARGS --model l4 STDERR "--model: l4 has no GPU-to-GPU link" ONE_LINE)
  tutor_cli_test(${exe}.model_pcie_link 0 ${exe} ARGS --model pcie-gen5 --gpus 2 --ops broadcast --min-bytes 1G
                 --max-bytes 1G STDOUT "B = 63 GB/s per direction")
  tutor_cli_test(${exe}.unknown_op 2 ${exe} ARGS --ops allreduce,allsum
                 STDERR "--ops: unknown collective 'allsum'; allowed: allreduce" ONE_LINE)
  tutor_cli_test(${exe}.min_not_power_of_two 2 ${exe} ARGS --min-bytes 12 STDERR "--min-bytes: '12' must be a power of two" ONE_LINE)
  tutor_cli_test(${exe}.min_below_one_float 2 ${exe} ARGS --min-bytes 2 STDERR "--min-bytes" ONE_LINE)
  tutor_cli_test(${exe}.max_too_big 2 ${exe} ARGS --max-bytes 32G STDERR "--max-bytes" ONE_LINE)
  tutor_cli_test(${exe}.max_not_a_size 2 ${exe} ARGS --max-bytes 4X STDERR "--max-bytes" ONE_LINE)
  tutor_cli_test(${exe}.max_below_min 2 ${exe} ARGS --min-bytes 1M --max-bytes 1K STDERR "--max-bytes: 1K is below" ONE_LINE)
  tutor_cli_test(${exe}.zero_gpus 2 ${exe} ARGS --gpus 0 STDERR "--gpus" ONE_LINE)
  tutor_cli_test(${exe}.zero_iters 2 ${exe} ARGS --iters 0 STDERR "--iters" ONE_LINE)
  tutor_cli_test(${exe}.negative_warmup 2 ${exe} ARGS --warmup -1 STDERR "--warmup" ONE_LINE)
  tutor_cli_test(${exe}.nan_budget 2 ${exe} ARGS --budget-ms nan STDERR "--budget-ms" ONE_LINE)
  tutor_cli_test(${exe}.negative_seed 2 ${exe} ARGS --seed -1 STDERR "--seed" ONE_LINE)
  tutor_cli_test(${exe}.quick_with_ops 2 ${exe} ARGS --quick --ops allreduce STDERR "quick|ops" ONE_LINE)
  tutor_cli_test(${exe}.unknown_link 2 ${exe} ARGS --link tin-can STDERR "--link: unknown link 'tin-can'" ONE_LINE)
  tutor_cli_test(${exe}.link_pcie_only_card 2 ${exe} ARGS --link t4 STDERR "--link: t4 has no GPU-to-GPU link" ONE_LINE)
  tutor_cli_test(${exe}.json_folder_missing 2 ${exe} ARGS --quick --json /nonexistent-dir/c.json STDERR "--json" ONE_LINE)
  tutor_cli_test(${exe}.same_output_twice 2 ${exe} ARGS --quick --json "${out}_same.json" --csv "${out}_same.json"
                 STDERR "--json and --csv both write" ONE_LINE)
  tutor_cli_test(${exe}.list_with_json 2 ${exe} ARGS --list --json STDERR "--json" ONE_LINE)
  tutor_cli_test(${exe}.unknown_option 2 ${exe} ARGS --bogus ONE_LINE)
  # A short run: every size checked on every GPU (exit 0), or one line naming what was looked for (exit 3).
  tutor_cli_test(${exe}.small_run 0,3 ${exe} ARGS --ops allreduce,alltoall --min-bytes 8 --max-bytes 1M --iters 3
                 --warmup 1 --json "${out}_small.json" --csv "${out}_small.csv" --plot "${out}_small.svg")
endforeach()
