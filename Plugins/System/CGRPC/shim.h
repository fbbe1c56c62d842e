// gRPC's C core (Debian libgrpc-dev, headers in /usr/include/grpc). The module map links "grpc" and
// "gpr" by name instead of through grpc.pc: SwiftPM expands that file's abseil Requires: tree without
// removing duplicates and the link line grows past the system's argument limit. Abseil and the rest
// come in through libgrpc's own dependencies.
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>

// The slice accessors are function-like macros, which Swift does not import.
static inline const uint8_t *CGRPC_slice_start(const grpc_slice *slice) { return GRPC_SLICE_START_PTR(*slice); }
static inline size_t CGRPC_slice_length(const grpc_slice *slice) { return GRPC_SLICE_LENGTH(*slice); }
