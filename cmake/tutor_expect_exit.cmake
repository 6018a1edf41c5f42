# Runs a command and checks its exit code (and optionally its stderr) without a GPU.
#   cmake -DEXE=prog -DARGS="arg|arg|..." -DEXPECT="2" [-DEXPECT_STDERR=regex] [-DEXPECT_STDOUT=regex]
#         [-DONE_LINE_STDERR=ON] -P expect_exit.cmake
# EXPECT may list several codes ("0,3": a GPU lab succeeds on a GPU and exits 3 without one).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "," ";" EXPECT "${EXPECT}")
execute_process(COMMAND "${EXE}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc IN_LIST EXPECT)
  message(FATAL_ERROR "exit code ${rc}, expected one of: ${EXPECT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}':\n${err}")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}':\n${out}")
endif()
if(ONE_LINE_STDERR)
  string(STRIP "${err}" stripped)
  string(FIND "${stripped}" "\n" newline)
  if(NOT newline EQUAL -1)
    message(FATAL_ERROR "stderr should be one line, got:\n${err}")
  endif()
endif()
