# Arrow C++ and Parquet from the pyarrow wheel.
#
# The wheel ships Arrow's C++ headers and shared libraries, built with the
# C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=1), which is also the default of the
# system g++. This file defines imported targets for them:
#
#   ember::arrow          libarrow (core, IPC, CSV, JSON, file systems)
#   ember::arrow_compute  libarrow_compute (compute kernels, casts)
#   ember::arrow_acero    libarrow_acero
#   ember::arrow_dataset  libarrow_dataset
#   ember::parquet        libparquet
#
# EMBER_ARROW_HAS_ORC says whether libarrow exports Arrow's ORC adapter (the pyarrow wheels
# build it in; a libarrow built without ORC lacks header and symbols). Without it the ORC data
# source reports that it is unavailable.
#
# Binaries that link them get the wheel's library directory as RPATH (in the
# build tree and when installed), so they run without LD_LIBRARY_PATH.

ember_python_query(_ember_arrow_info
  "import pyarrow as pa; b = pa.cpp_build_info; print(pa.__version__); print(b.so_version); print(pa.get_include()); print(pa.get_library_dirs()[0])")
string(REPLACE "\n" ";" _ember_arrow_info "${_ember_arrow_info}")
list(GET _ember_arrow_info 0 EMBER_ARROW_VERSION)
list(GET _ember_arrow_info 1 _ember_arrow_so_version)
list(GET _ember_arrow_info 2 EMBER_ARROW_INCLUDE_DIR)
list(GET _ember_arrow_info 3 EMBER_ARROW_LIBRARY_DIR)
message(STATUS "Ember: Arrow ${EMBER_ARROW_VERSION} from ${EMBER_ARROW_LIBRARY_DIR}")

set(EMBER_ARROW_EXPECTED_VERSION "25.0.1" CACHE STRING "The pyarrow version the sources are written for")
if(NOT EMBER_ARROW_VERSION VERSION_EQUAL EMBER_ARROW_EXPECTED_VERSION)
  message(WARNING "Ember: pyarrow ${EMBER_ARROW_VERSION} found, ${EMBER_ARROW_EXPECTED_VERSION} expected")
endif()

# ember_import_wheel_library(<target> <library-name> [DEPS <targets>...])
function(ember_import_wheel_library target libname)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "DEPS")
  # The unversioned name exists after pyarrow.create_library_symlinks(); the
  # versioned file always does, and links just as well.
  set(_candidates
    "${EMBER_ARROW_LIBRARY_DIR}/lib${libname}.so"
    "${EMBER_ARROW_LIBRARY_DIR}/lib${libname}.so.${_ember_arrow_so_version}")
  set(_location "")
  foreach(_candidate IN LISTS _candidates)
    if(EXISTS "${_candidate}")
      set(_location "${_candidate}")
      break()
    endif()
  endforeach()
  if(NOT _location)
    message(FATAL_ERROR "Ember: lib${libname}.so not found in ${EMBER_ARROW_LIBRARY_DIR}")
  endif()
  add_library(${target} SHARED IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION "${_location}"
    IMPORTED_SONAME "lib${libname}.so.${_ember_arrow_so_version}"
    INTERFACE_INCLUDE_DIRECTORIES "${EMBER_ARROW_INCLUDE_DIR}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${EMBER_ARROW_INCLUDE_DIR}"
    INTERFACE_COMPILE_FEATURES cxx_std_20)
  if(arg_DEPS)
    set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${arg_DEPS}")
  endif()
endfunction()

ember_import_wheel_library(ember::arrow arrow)
ember_import_wheel_library(ember::arrow_compute arrow_compute DEPS ember::arrow)
ember_import_wheel_library(ember::arrow_acero arrow_acero DEPS ember::arrow_compute)
ember_import_wheel_library(ember::arrow_dataset arrow_dataset DEPS ember::arrow_acero)
ember_import_wheel_library(ember::parquet parquet DEPS ember::arrow)

include(CheckCXXSourceCompiles)
get_target_property(_ember_libarrow ember::arrow IMPORTED_LOCATION)
set(CMAKE_REQUIRED_INCLUDES "${EMBER_ARROW_INCLUDE_DIR}")
set(CMAKE_REQUIRED_LIBRARIES "${_ember_libarrow}")
set(CMAKE_REQUIRED_FLAGS "-std=c++20")
set(CMAKE_REQUIRED_QUIET ON)
# Taking the functions' addresses makes the link step resolve the adapter's symbols.
check_cxx_source_compiles([=[
#include <arrow/adapters/orc/adapter.h>
int main() {
  auto open_reader = &arrow::adapters::orc::ORCFileReader::Open;
  auto open_writer = &arrow::adapters::orc::ORCFileWriter::Open;
  return open_reader != nullptr && open_writer != nullptr ? 0 : 1;
}
]=] EMBER_ARROW_HAS_ORC)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_QUIET)
message(STATUS "Ember: Arrow's ORC adapter ${EMBER_ARROW_HAS_ORC}")

# Installed binaries find the wheel's libraries too.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
