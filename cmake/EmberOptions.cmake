# Build options, compiler flags and the compiler launcher.
#
# Every Ember target links `ember_options` (include root, C++ standard,
# generated build information) and privately `ember_warnings`.

option(EMBER_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(EMBER_WERROR "Treat compiler warnings in Ember's own code as errors" OFF)
option(EMBER_BUILD_TESTS "Build the C++ tests (needs GoogleTest)" ON)
option(EMBER_FUZZ "Build the readers' fuzz targets (tests/fuzz)" OFF)
set(EMBER_WITH_GRPC "AUTO" CACHE STRING
    "Build the Spark Connect server (needs gRPC and protobuf): AUTO, ON or OFF")
set_property(CACHE EMBER_WITH_GRPC PROPERTY STRINGS AUTO ON OFF)
set(EMBER_WITH_CUDA "AUTO" CACHE STRING
    "Compile the CUDA code: AUTO (when a CUDA compiler is found), ON or OFF")
set_property(CACHE EMBER_WITH_CUDA PROPERTY STRINGS AUTO ON OFF)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

# -O2 rather than CMake's default -O3: it compiles faster and is what the
# benchmarks are measured with.
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG")
set(CMAKE_CUDA_FLAGS_RELEASE "-O2 -DNDEBUG")
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g -DNDEBUG")
set(CMAKE_CUDA_FLAGS_RELWITHDEBINFO "-O2 -g -lineinfo -DNDEBUG")

find_program(EMBER_CCACHE ccache)
if(EMBER_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${EMBER_CCACHE}")
  set(CMAKE_CUDA_COMPILER_LAUNCHER "${EMBER_CCACHE}")
endif()

add_library(ember_options INTERFACE)
target_compile_features(ember_options INTERFACE cxx_std_20)
target_include_directories(ember_options INTERFACE
  "${PROJECT_SOURCE_DIR}/src"
  "${PROJECT_BINARY_DIR}/include")

add_library(ember_warnings INTERFACE)
target_compile_options(ember_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${EMBER_WERROR}>>:-Werror>)

if(EMBER_SANITIZE)
  set(_ember_san -fsanitize=address,undefined -fno-omit-frame-pointer
                 -fno-sanitize-recover=undefined)
  # Host code only: device code cannot be instrumented, and nvcc passes host
  # flags through -Xcompiler, which the CUDA sources do not need for tests.
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:${_ember_san}>"
    "$<$<COMPILE_LANGUAGE:CXX>:-O1;-g>")
  add_link_options(${_ember_san})
endif()
