# The layers of the engine, one folder and one target each.
#
# Dependencies point one way only, bottom-up:
#
#   common → types → column → io → functions → exec → gpu → plan → sql
#          → {ml, udf, ui} → connect → cli
#
# ember_add_layer() refuses a dependency on a layer at the same height or
# above, so an upward include shows up as a configure error, not as a tangle.

set(EMBER_LAYERS
  common types column io functions exec gpu plan sql ml udf ui connect cli)
# Height of each layer; layers of equal height may not depend on each other.
set(_ember_layer_height_common 0)
set(_ember_layer_height_types 1)
set(_ember_layer_height_column 2)
set(_ember_layer_height_io 3)
set(_ember_layer_height_functions 4)
set(_ember_layer_height_exec 5)
set(_ember_layer_height_gpu 6)
set(_ember_layer_height_plan 7)
set(_ember_layer_height_sql 8)
set(_ember_layer_height_ml 9)
set(_ember_layer_height_udf 9)
set(_ember_layer_height_ui 9)
set(_ember_layer_height_connect 10)
set(_ember_layer_height_cli 11)

# Layers switched off by the configuration; dependencies on them are dropped.
set(EMBER_DISABLED_LAYERS "")
if(NOT EMBER_GRPC_ENABLED)
  list(APPEND EMBER_DISABLED_LAYERS connect)
endif()

# ember_add_layer(<name> DEPS <layers>... [LIBS <targets>...] [EXECUTABLE <exe>])
#
# Builds src/<name>/*.cc (and, with CUDA on, src/gpu/*.cu) into the static
# library `ember_<name>` (alias `ember::<name>`), or an INTERFACE library while
# the folder has no sources yet. DEPS are other layers (linked PUBLIC), LIBS
# any other targets (linked PUBLIC). With EXECUTABLE the folder builds that
# executable instead of a library.
function(ember_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "EXECUTABLE" "DEPS;LIBS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ember_add_layer(${name}): unexpected ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT DEFINED _ember_layer_height_${name})
    message(FATAL_ERROR "ember_add_layer: '${name}' is not a layer (known: ${EMBER_LAYERS})")
  endif()
  if(name IN_LIST EMBER_DISABLED_LAYERS)
    return()
  endif()

  set(_deps "")
  foreach(_dep IN LISTS arg_DEPS)
    if(NOT DEFINED _ember_layer_height_${_dep})
      message(FATAL_ERROR "ember_add_layer(${name}): '${_dep}' is not a layer; use LIBS for other targets")
    endif()
    if(NOT _ember_layer_height_${_dep} LESS _ember_layer_height_${name})
      message(FATAL_ERROR "ember_add_layer(${name}): may not depend on '${_dep}', "
                          "which is not below it")
    endif()
    if(NOT _dep IN_LIST EMBER_DISABLED_LAYERS)
      list(APPEND _deps ember_${_dep})
    endif()
  endforeach()

  set(_dir "${PROJECT_SOURCE_DIR}/src/${name}")
  file(GLOB _srcs CONFIGURE_DEPENDS "${_dir}/*.cc")
  file(GLOB _cuda_srcs CONFIGURE_DEPENDS "${_dir}/*.cu")
  if(_cuda_srcs AND NOT name STREQUAL "gpu")
    message(FATAL_ERROR "ember_add_layer(${name}): CUDA sources belong in src/gpu: ${_cuda_srcs}")
  endif()
  set(_with_cuda OFF)
  if(name STREQUAL "gpu" AND EMBER_CUDA_ENABLED)
    set(_with_cuda ON)
    list(APPEND _srcs ${_cuda_srcs})
  endif()

  if(arg_EXECUTABLE)
    if(NOT _srcs)
      message(FATAL_ERROR "ember_add_layer(${name}): EXECUTABLE needs sources in ${_dir}")
    endif()
    add_executable(${arg_EXECUTABLE} ${_srcs})
    set(_target ${arg_EXECUTABLE})
    set(_scope PRIVATE)
    # Executables land at the top of the build folder (build/release/ember).
    set_target_properties(${_target} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}")
  elseif(_srcs)
    add_library(ember_${name} STATIC ${_srcs})
    set(_target ember_${name})
    set(_scope PUBLIC)
  else()
    add_library(ember_${name} INTERFACE)
    set(_target ember_${name})
    set(_scope INTERFACE)
  endif()
  if(NOT arg_EXECUTABLE)
    add_library(ember::${name} ALIAS ember_${name})
  endif()

  target_link_libraries(${_target} ${_scope} ember_options ${_deps} ${arg_LIBS})
  if(NOT _scope STREQUAL "INTERFACE")
    target_link_libraries(${_target} PRIVATE ember_warnings)
  endif()
  if(_with_cuda)
    target_link_libraries(${_target} ${_scope} ${EMBER_CUDA_RUNTIME_TARGET})
    target_compile_definitions(${_target} ${_scope} EMBER_WITH_CUDA=1)
    if(NOT _scope STREQUAL "INTERFACE")
      set_target_properties(${_target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
      target_compile_options(${_target} PRIVATE
        "$<$<COMPILE_LANGUAGE:CUDA>:${EMBER_CUDA_FLAGS}>")
    endif()
  endif()
  if(name STREQUAL "cli" AND EMBER_GRPC_ENABLED)
    target_compile_definitions(${_target} PRIVATE EMBER_WITH_GRPC=1)
  endif()
endfunction()
