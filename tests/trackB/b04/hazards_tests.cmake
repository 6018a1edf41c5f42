# B04, the hazards and int8 side: unit tests of the experiments and the quantization demo against
# hand derivations, and the command-line contract of `b04_numerics hazards` and `b04_numerics int8`.
# Included by tests/trackB/b04/CMakeLists.txt (include(... OPTIONAL)).
if(TARGET tutor_b04_tools)
  tutor_add_test(b04_hazards_tests "${CMAKE_CURRENT_LIST_DIR}/hazards_test.cpp")
  target_link_libraries(b04_hazards_tests PRIVATE tutor_b04_tools tutor_b04)
  tutor_add_test(b04_int8_tests "${CMAKE_CURRENT_LIST_DIR}/int8_quant_test.cpp")
  target_link_libraries(b04_int8_tests PRIVATE tutor_b04_tools tutor_b04)
endif()

if(TARGET b04_numerics)
  set(b04 b04_numerics)
  # hazards: every experiment on small sizes, one at a time, JSON on stdout, then bad input.
  tutor_cli_test(b04.hazards.all 0 ${b04} ARGS hazards --sum-count 1000 --samples 1024 --max-k 256
                 STDOUT "kind: simulation.*65504.*65520.*257 .*256.*Welford.*TF32.*e5m2.*holds")
  tutor_cli_test(b04.hazards.only_bf16_sum 0 ${b04} ARGS hazards --only bf16-sum --sum-count 300
                 STDOUT "bf16-sum.*step 257: sum 256 has ulp 2 and half-ulp 1")
  tutor_cli_test(b04.hazards.only_variance 0 ${b04} ARGS hazards --only variance --samples 64
                 STDOUT "one-pass 24 +Welford 22.5")
  tutor_cli_test(b04.hazards.json_stdout 0 ${b04} ARGS hazards --only fp16-overflow --json
                 STDOUT "\"overflow_threshold\": 65520.*\"kind\": \"simulation\"")
  tutor_cli_test(b04.hazards.unknown_only 2 ${b04} ARGS hazards --only nope
                 STDERR "--only: unknown hazard 'nope'; allowed: fp16-overflow, bf16-sum" ONE_LINE)
  tutor_cli_test(b04.hazards.sum_count_zero 2 ${b04} ARGS hazards --sum-count 0 STDERR "--sum-count" ONE_LINE)
  tutor_cli_test(b04.hazards.sum_count_not_a_number 2 ${b04} ARGS hazards --sum-count ten
                 STDERR "--sum-count" ONE_LINE)
  tutor_cli_test(b04.hazards.samples_too_large 2 ${b04} ARGS hazards --samples 100000000 STDERR "--samples" ONE_LINE)
  tutor_cli_test(b04.hazards.max_k_not_power_of_two 2 ${b04} ARGS hazards --max-k 1000
                 STDERR "--max-k: must be a power of two in \\[64, 65536\\]" ONE_LINE)
  tutor_cli_test(b04.hazards.max_k_too_small 2 ${b04} ARGS hazards --max-k 32 STDERR "--max-k" ONE_LINE)
  tutor_cli_test(b04.hazards.negative_seed 2 ${b04} ARGS hazards --seed -1 STDERR "--seed" ONE_LINE)
  tutor_cli_test(b04.hazards.json_folder_missing 2 ${b04} ARGS hazards --only variance --json /nonexistent-dir/h.json
                 STDERR "--json" ONE_LINE)

  # int8: a small matrix (the default 4096 x 4096 takes seconds), JSON on stdout, then bad input.
  tutor_cli_test(b04.int8.small 0 ${b04} ARGS int8 --rows 64 --cols 1024 --outlier-channels 2
                 STDOUT "kind: simulation.*int8 per-tensor absmax.*per-group\\(128\\).*clip p99.99.*fp8 e4m3 per-channel.*reading")
  tutor_cli_test(b04.int8.json_stdout 0 ${b04} ARGS int8 --rows 16 --cols 256 --group-size 64 --json
                 STDOUT "\"kind\": \"simulation\".*\"int8 per-group\\(64\\) absmax\".*\"sqnr_db\"")
  tutor_cli_test(b04.int8.no_outliers 0 ${b04} ARGS int8 --rows 32 --cols 512 --outlier-channels 0
                 STDOUT "no outlier channels")
  tutor_cli_test(b04.int8.rows_zero 2 ${b04} ARGS int8 --rows 0 STDERR "--rows" ONE_LINE)
  tutor_cli_test(b04.int8.rows_not_a_number 2 ${b04} ARGS int8 --rows many STDERR "--rows" ONE_LINE)
  tutor_cli_test(b04.int8.cols_too_large 2 ${b04} ARGS int8 --cols 20000 STDERR "--cols" ONE_LINE)
  tutor_cli_test(b04.int8.too_many_weights 2 ${b04} ARGS int8 --rows 16384 --cols 16384
                 STDERR "--rows x --cols: at most 33,554,432 weights" ONE_LINE)
  tutor_cli_test(b04.int8.more_outliers_than_columns 2 ${b04} ARGS int8 --cols 8 --outlier-channels 9
                 STDERR "--outlier-channels" ONE_LINE)
  tutor_cli_test(b04.int8.outlier_scale_below_one 2 ${b04} ARGS int8 --outlier-scale 0.5 STDERR "--outlier-scale" ONE_LINE)
  tutor_cli_test(b04.int8.outlier_scale_nan 2 ${b04} ARGS int8 --outlier-scale nan STDERR "--outlier-scale" ONE_LINE)
  tutor_cli_test(b04.int8.sigma_negative 2 ${b04} ARGS int8 --sigma -1 STDERR "--sigma" ONE_LINE)
  tutor_cli_test(b04.int8.group_size_zero 2 ${b04} ARGS int8 --group-size 0 STDERR "--group-size" ONE_LINE)
  tutor_cli_test(b04.int8.percentile_100 2 ${b04} ARGS int8 --clip-percentiles 100
                 STDERR "--clip-percentiles: each must be in .50, 100\\), got 100" ONE_LINE)
  tutor_cli_test(b04.int8.percentile_not_a_number 2 ${b04} ARGS int8 --clip-percentiles x STDERR "--clip-percentiles" ONE_LINE)
  tutor_cli_test(b04.int8.json_folder_missing 2 ${b04} ARGS int8 --rows 8 --cols 8 --json /nonexistent-dir/q.json
                 STDERR "--json" ONE_LINE)
endif()
