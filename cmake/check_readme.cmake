# cmake -DA2AFFT=path/to/a2afft -DREADME=README.md -P check_readme.cmake
# Fails unless the README's backend table has a row for every backend `a2afft list` knows.
execute_process(COMMAND ${A2AFFT} list --names OUTPUT_VARIABLE names RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "a2afft list --names failed: ${status}")
endif()
file(READ ${README} readme)
string(REPLACE "\n" ";" names "${names}")
foreach(name IN LISTS names)
  if(name AND NOT readme MATCHES "\\| `${name}` \\|")
    message(FATAL_ERROR "README.md has no backend row for `${name}`")
  endif()
endforeach()
message(STATUS "README lists every backend")
