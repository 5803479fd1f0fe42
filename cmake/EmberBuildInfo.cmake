# Generates <build>/include/ember_build_info.h: versions and the features
# this build has, for `ember --version`, `ember doctor` and the Spark Connect
# version reply. Only configure-time facts go in, so the header changes (and
# everything that includes it recompiles) only when the configuration does.

# The Spark version is the PySpark pin in requirements.txt, so machines
# without PySpark (the GPU host) report the same one.
file(STRINGS "${PROJECT_SOURCE_DIR}/requirements.txt" _ember_pyspark_pin
     REGEX "^pyspark(\\[[a-z,]+\\])?==")
string(REGEX REPLACE "^.*==([0-9A-Za-z.]+).*$" "\\1" EMBER_SPARK_VERSION "${_ember_pyspark_pin}")
if(NOT EMBER_SPARK_VERSION)
  message(FATAL_ERROR "Ember: no 'pyspark[connect]==<version>' pin in requirements.txt")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/requirements.txt")

foreach(_flag GRPC CUDA)
  if(EMBER_${_flag}_ENABLED)
    set(EMBER_BUILD_HAS_${_flag} 1)
  else()
    set(EMBER_BUILD_HAS_${_flag} 0)
  endif()
endforeach()
if(EMBER_SANITIZE)
  set(EMBER_BUILD_HAS_SANITIZERS 1)
else()
  set(EMBER_BUILD_HAS_SANITIZERS 0)
endif()
set(EMBER_BUILD_CUDA_VERSION "${CMAKE_CUDA_COMPILER_VERSION}")

configure_file("${PROJECT_SOURCE_DIR}/cmake/ember_build_info.h.in"
               "${PROJECT_BINARY_DIR}/include/ember_build_info.h" @ONLY)

# The source revision changes with every commit, not with the configuration: it has a header of
# its own, brought up to date at each build (cmake/EmberRevision.cmake).
add_custom_target(ember_revision
  COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
          -DOUTPUT=${PROJECT_BINARY_DIR}/include/ember_revision.h
          -P "${PROJECT_SOURCE_DIR}/cmake/EmberRevision.cmake"
  BYPRODUCTS "${PROJECT_BINARY_DIR}/include/ember_revision.h"
  COMMENT "Ember source revision")
