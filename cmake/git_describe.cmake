# cmake -DSOURCE_DIR=... -DOUTPUT=.../git_describe.hpp -P git_describe.cmake
# Runs at every build, so reports name the commit the binary was really built from; the
# header is rewritten only when the answer changes, so nothing recompiles needlessly.
set(describe "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --tags
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE describe
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(describe STREQUAL "")
  set(describe "unknown")
endif()
set(content "#pragma once\n#define A2AFFT_GIT_DESCRIBE \"${describe}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUTPUT} "${content}")
endif()
