# gRPC and protobuf from the operating system's packages.
#
# EMBER_WITH_GRPC=AUTO builds the Spark Connect server when both are found;
# OFF gives the standalone build (engine, SQL, io, gpu and the `ember` CLI
# without `server`/`submit`), which needs neither.
#
# Sets EMBER_GRPC_ENABLED (ON/OFF).

set(EMBER_GRPC_ENABLED OFF)
if(EMBER_WITH_GRPC STREQUAL "OFF")
  message(STATUS "Ember: gRPC off (standalone build)")
  return()
endif()

if(EMBER_WITH_GRPC STREQUAL "ON")
  set(_ember_grpc_required REQUIRED)
else()
  set(_ember_grpc_required "")
endif()

find_package(Protobuf ${_ember_grpc_required})
if(Protobuf_FOUND)
  find_package(gRPC CONFIG ${_ember_grpc_required})
endif()
if(NOT Protobuf_FOUND OR NOT gRPC_FOUND OR NOT TARGET gRPC::grpc_cpp_plugin)
  message(STATUS "Ember: gRPC off (gRPC or protobuf not found; standalone build)")
  return()
endif()

set(EMBER_GRPC_ENABLED ON)
message(STATUS "Ember: gRPC ${gRPC_VERSION}, protobuf ${Protobuf_VERSION}")
