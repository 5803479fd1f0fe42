# The Spark Connect protocol, generated at build time.
#
# tools/connect_descriptors.py collects the protocol's FileDescriptorProtos
# from the pinned PySpark release (and google.rpc status/error details) into
# one FileDescriptorSet in the build folder; protoc and the gRPC plugin turn
# spark/connect/*.proto and google/rpc/{status,error_details}.proto into C++
# under ${PROJECT_BINARY_DIR}/gen. The well-known types come from libprotobuf.
#
# Defines the static library `ember_connect_proto`; code includes
# "spark/connect/base.grpc.pb.h", "google/rpc/status.pb.h" and so on.

set(_ember_proto_script "${PROJECT_SOURCE_DIR}/tools/connect_descriptors.py")
set(_ember_proto_gen "${PROJECT_BINARY_DIR}/gen")
set(_ember_proto_set "${PROJECT_BINARY_DIR}/proto/spark_connect.pb")

# The list of files is needed now, at configure time, to name the outputs.
execute_process(
  COMMAND "${EMBER_PYTHON}" "${_ember_proto_script}" --list
  OUTPUT_VARIABLE _ember_proto_files ERROR_VARIABLE _ember_proto_err
  RESULT_VARIABLE _ember_proto_rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _ember_proto_rc EQUAL 0)
  message(FATAL_ERROR "Ember: listing the Spark Connect protocol failed "
                      "(is pyspark[connect] installed in ${EMBER_PYTHON}?)\n${_ember_proto_err}")
endif()
string(REPLACE "\n" ";" _ember_proto_files "${_ember_proto_files}")

# Regenerate when PySpark is replaced by another version.
ember_python_query(_ember_pyspark_version_file
  "import os, pyspark.version as v; print(os.path.realpath(v.__file__))")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${_ember_proto_script}" "${_ember_pyspark_version_file}")

set(_ember_proto_srcs "")
set(_ember_proto_hdrs "")
foreach(_file IN LISTS _ember_proto_files)
  string(REGEX REPLACE "\\.proto$" "" _stem "${_file}")
  list(APPEND _ember_proto_srcs
    "${_ember_proto_gen}/${_stem}.pb.cc" "${_ember_proto_gen}/${_stem}.grpc.pb.cc")
  list(APPEND _ember_proto_hdrs
    "${_ember_proto_gen}/${_stem}.pb.h" "${_ember_proto_gen}/${_stem}.grpc.pb.h")
endforeach()

add_custom_command(
  OUTPUT "${_ember_proto_set}"
  COMMAND "${EMBER_PYTHON}" "${_ember_proto_script}" --out "${_ember_proto_set}"
  DEPENDS "${_ember_proto_script}" "${_ember_pyspark_version_file}"
  COMMENT "Collecting the Spark Connect protocol descriptors"
  VERBATIM)

add_custom_command(
  OUTPUT ${_ember_proto_srcs} ${_ember_proto_hdrs}
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${_ember_proto_gen}"
  COMMAND protobuf::protoc
          "--descriptor_set_in=${_ember_proto_set}"
          "--cpp_out=${_ember_proto_gen}"
          "--grpc_out=${_ember_proto_gen}"
          "--plugin=protoc-gen-grpc=$<TARGET_FILE:gRPC::grpc_cpp_plugin>"
          ${_ember_proto_files}
  DEPENDS "${_ember_proto_set}" protobuf::protoc gRPC::grpc_cpp_plugin
  COMMENT "Generating C++ for the Spark Connect protocol"
  VERBATIM)

add_library(ember_connect_proto STATIC ${_ember_proto_srcs} ${_ember_proto_hdrs})
add_library(ember::connect_proto ALIAS ember_connect_proto)
# Generated code: its warnings are not ours to fix. Dependents see the
# headers as system headers for the same reason.
target_compile_options(ember_connect_proto PRIVATE -w)
target_include_directories(ember_connect_proto SYSTEM PUBLIC "${_ember_proto_gen}")
target_link_libraries(ember_connect_proto PUBLIC protobuf::libprotobuf gRPC::grpc++)
