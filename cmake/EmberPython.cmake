# The Python interpreter the build asks about pyarrow and PySpark.
#
# The project's virtual environment (.venv, made by tools/setup.sh) comes
# first; a machine without it (for example a GPU host that only has pyarrow
# installed system-wide) falls back to the python3 on PATH.

set(EMBER_VENV "${PROJECT_SOURCE_DIR}/.venv" CACHE PATH "The project's Python virtual environment")
if(NOT EMBER_PYTHON)
  if(EXISTS "${EMBER_VENV}/bin/python")
    set(_ember_python "${EMBER_VENV}/bin/python")
  else()
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    set(_ember_python "${Python3_EXECUTABLE}")
  endif()
  set(EMBER_PYTHON "${_ember_python}" CACHE FILEPATH "Python interpreter used by the build")
endif()
message(STATUS "Ember: Python ${EMBER_PYTHON}")

# ember_python_query(<out-var> <code>) runs a snippet with EMBER_PYTHON and
# stores its stripped standard output; the configure step fails with the
# interpreter's message when the snippet fails.
function(ember_python_query out code)
  execute_process(
    COMMAND "${EMBER_PYTHON}" -W ignore -c "${code}"
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "Ember: '${EMBER_PYTHON}' failed on:\n  ${code}\n${_err}\n"
                        "Run 'make setup' (or tools/setup.sh) to create the environment.")
  endif()
  set(${out} "${_out}" PARENT_SCOPE)
endfunction()
