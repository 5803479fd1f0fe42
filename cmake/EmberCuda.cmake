# Optional CUDA compilation.
#
# EMBER_WITH_CUDA=AUTO enables the CUDA language when a compiler is found, in
# this order: CMAKE_CUDA_COMPILER / $CUDACXX when given, nvcc on PATH,
# $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, and the CUDA compiler wheels that
# tools/setup.sh installs into the virtual environment (linked as
# .venv/cuda). A CPU-only build never needs any of it.
#
# Sets EMBER_CUDA_ENABLED (ON/OFF) for the rest of the build.

set(EMBER_CUDA_ENABLED OFF)
set(EMBER_CUDA_ARCHITECTURES "80-real;86-real;89-real;90" CACHE STRING
    "GPU architectures: SASS for Ampere, Ada and Hopper, plus PTX for 90 so newer GPUs can JIT")
option(EMBER_CUDA_STATIC_RUNTIME
       "Link the CUDA runtime statically, so that the binary runs (CPU-only) where no CUDA is installed"
       ON)

if(EMBER_WITH_CUDA STREQUAL "OFF")
  message(STATUS "Ember: CUDA off (EMBER_WITH_CUDA=OFF)")
  return()
endif()

if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(EMBER_NVCC nvcc)
  find_program(EMBER_NVCC nvcc
    PATHS ENV CUDA_HOME ENV CUDA_PATH /usr/local/cuda "${EMBER_VENV}/cuda"
    PATH_SUFFIXES bin NO_DEFAULT_PATH)
  if(EMBER_NVCC)
    set(CMAKE_CUDA_COMPILER "${EMBER_NVCC}" CACHE FILEPATH "CUDA compiler")
  endif()
endif()
if(NOT CMAKE_CUDA_COMPILER AND DEFINED ENV{CUDACXX})
  set(CMAKE_CUDA_COMPILER "$ENV{CUDACXX}" CACHE FILEPATH "CUDA compiler")
endif()

if(NOT CMAKE_CUDA_COMPILER)
  if(EMBER_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "Ember: EMBER_WITH_CUDA=ON but no CUDA compiler found "
                        "(run tools/setup.sh, or set CUDACXX)")
  endif()
  message(STATUS "Ember: CUDA off (no CUDA compiler found)")
  return()
endif()

# The toolkit is the folder above nvcc's bin/ (for the wheels: nvidia/cu13).
get_filename_component(_ember_nvcc_real "${CMAKE_CUDA_COMPILER}" REALPATH)
get_filename_component(_ember_cuda_root "${_ember_nvcc_real}" DIRECTORY)
get_filename_component(_ember_cuda_root "${_ember_cuda_root}" DIRECTORY)
if(NOT CUDAToolkit_ROOT)
  set(CUDAToolkit_ROOT "${_ember_cuda_root}")
endif()
if(NOT CMAKE_CUDA_HOST_COMPILER)
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH "Host compiler for nvcc")
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "${EMBER_CUDA_ARCHITECTURES}")
endif()
set(EMBER_CUDA_FLAGS --expt-relaxed-constexpr --extended-lambda)
if(EMBER_CUDA_STATIC_RUNTIME)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
else()
  set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
endif()

enable_language(CUDA)
# C++20 for device code too. CMake 3.25 does not know nvcc's C++20 flag (nvcc
# has it since CUDA 12.0), and C++20 reaches the CUDA sources through the
# cxx_std_20 requirement of the targets they link, so it is taught here.
if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.0)
    message(FATAL_ERROR "Ember: CUDA ${CMAKE_CUDA_COMPILER_VERSION} lacks C++20; 12.0 or newer is needed")
  endif()
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
set(CMAKE_CUDA_STANDARD 20)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_EXTENSIONS OFF)
# CMake 3.25.1's FindCUDAToolkit fails on toolkits without the retired
# nvToolsExt library (CUDA 13): it sets a property on the missing target.
# An empty stand-in target avoids that; nothing here links it.
if(CMAKE_VERSION VERSION_LESS 3.26 AND NOT TARGET CUDA::nvToolsExt)
  add_library(CUDA::nvToolsExt INTERFACE IMPORTED)
endif()
find_package(CUDAToolkit REQUIRED)
if(EMBER_CUDA_STATIC_RUNTIME)
  set(EMBER_CUDA_RUNTIME_TARGET CUDA::cudart_static)
else()
  set(EMBER_CUDA_RUNTIME_TARGET CUDA::cudart)
endif()
set(EMBER_CUDA_ENABLED ON)
message(STATUS "Ember: CUDA ${CMAKE_CUDA_COMPILER_VERSION} from ${CMAKE_CUDA_COMPILER}, "
               "architectures ${CMAKE_CUDA_ARCHITECTURES}")
