# cmake -DA2AFFT=path/to/a2afft -DPAGE=docs/backends.md -P check_backends_table.cmake
# Fails unless the page's table, between the lines
#   <!-- backends table: a2afft list --markdown -->  and  <!-- end of backends table -->,
# is exactly what `a2afft list --markdown` prints from the registry rows (issue 32: the table is
# generated, so a new backend's row reaches the docs by regenerating it, never by hand).
execute_process(COMMAND ${A2AFFT} list --markdown OUTPUT_VARIABLE generated RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "a2afft list --markdown failed: ${status}")
endif()
if(NOT generated MATCHES "\\| `pairwise` \\|")
  message(FATAL_ERROR "a2afft list --markdown printed no backend rows:\n${generated}")
endif()
file(READ ${PAGE} page)
set(begin "<!-- backends table: a2afft list --markdown -->\n")
set(end "<!-- end of backends table -->")
string(FIND "${page}" "${begin}" first)
string(FIND "${page}" "${end}" last)
if(first EQUAL -1 OR last EQUAL -1 OR last LESS first)
  message(FATAL_ERROR "${PAGE} lacks the lines '${begin}' and '${end}' around the table")
endif()
string(LENGTH "${begin}" begin_length)
math(EXPR start "${first} + ${begin_length}")
math(EXPR length "${last} - ${start}")
string(SUBSTRING "${page}" ${start} ${length} table)
if(NOT table STREQUAL generated)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/backends-table.generated.md "${generated}")
  message(FATAL_ERROR "${PAGE}'s backends table differs from `a2afft list --markdown` "
                      "(written to ${CMAKE_CURRENT_BINARY_DIR}/backends-table.generated.md); "
                      "regenerate it between the two marker lines")
endif()
message(STATUS "${PAGE}'s backends table is a2afft list --markdown's")
