# tutor sheets (included by this folder's CMakeLists.txt): the generator's unit tests
# (sheets_test.cpp), the committed sheets in sync with their templates and sources, bad
# placeholders on the command line, and the one-page print of every sheet (skipped without
# chromium and poppler-utils).
tutor_add_test(tutor_sheets_tests sheets_test.cpp PREFIX "tutor.sheets.")
target_link_libraries(tutor_sheets_tests PRIVATE tutor_sheets)

set(sheet_fixtures "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/sheets")
set(sheet_out "${CMAKE_CURRENT_BINARY_DIR}/sheets_out")
tutor_cli_test(tutor.sheets.check_in_sync 0 tutor ARGS sheets --check --data ${CMAKE_SOURCE_DIR}/data
  STDOUT "docs/cheatsheets: [0-9]+ files in sync")
tutor_cli_test(tutor.sheets.help 0 tutor ARGS sheets --help STDOUT "--check")
tutor_cli_test(tutor.sheets.bad_gpu 2 tutor
  ARGS sheets --src ${sheet_fixtures}/bad_gpu --out ${sheet_out} --data ${CMAKE_SOURCE_DIR}/data
  STDERR "bad_gpu/roofline.md:5: \\{\\{gpu:h300-sxm:hbm_bandwidth_GBps\\}\\}: unknown GPU key 'h300-sxm'" ONE_LINE)
tutor_cli_test(tutor.sheets.bad_pointer 2 tutor
  ARGS sheets --src ${sheet_fixtures}/bad_pointer --out ${sheet_out} --data ${CMAKE_SOURCE_DIR}/data
  STDERR "bad_pointer/roofline.md:5: \\{\\{record:.*\\}\\}: .*record.json has nothing at /steps/9/median_GBps" ONE_LINE)
tutor_cli_test(tutor.sheets.not_a_number 2 tutor
  ARGS sheets --src ${sheet_fixtures}/not_a_number --out ${sheet_out} --data ${CMAKE_SOURCE_DIR}/data
  STDERR "not_a_number/roofline.md:3: .*/label is a string, not a number" ONE_LINE)
tutor_cli_test(tutor.sheets.unclosed 2 tutor
  ARGS sheets --src ${sheet_fixtures}/unclosed --out ${sheet_out} --data ${CMAKE_SOURCE_DIR}/data
  STDERR "unclosed/roofline.md:3: \\{\\{gpu:h200-sxm:l2_MB: no closing" ONE_LINE)
tutor_cli_test(tutor.sheets.no_such_src 2 tutor ARGS sheets --src no_such_dir --data ${CMAKE_SOURCE_DIR}/data
  STDERR "--src: no_such_dir is not a folder" ONE_LINE)
tutor_cli_test(tutor.sheets.unknown_sheet 2 tutor ARGS sheets --sheet nope --out ${sheet_out} --data ${CMAKE_SOURCE_DIR}/data
  STDERR "--sheet nope: no template docs/cheatsheets/src/nope.md" ONE_LINE)

# The committed sheets printed on A4 and on Letter, one page each (PDFs and PNGs in the build tree).
add_test(NAME tutor.sheets.print_one_page
  COMMAND bash "${CMAKE_SOURCE_DIR}/common/tools/tutor/sheets/print_sheets.sh"
          "${CMAKE_SOURCE_DIR}/docs/cheatsheets" "${CMAKE_CURRENT_BINARY_DIR}/sheets_print")
set_tests_properties(tutor.sheets.print_one_page PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
