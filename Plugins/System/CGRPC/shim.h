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

// Everything gRPC's core holds a pointer to during one unary call, in one block: the call, its
// details (an unregistered method's path and host) or deadline, the metadata, the request and
// response messages, the status trailer, the ops of a batch and the cancelled flag. A call's context
// carries it inline, so a call costs one allocation of ours, not one per field.
typedef struct {
    grpc_call *call;
    grpc_call_details details;
    gpr_timespec deadline;
    grpc_metadata_array metadata;
    grpc_byte_buffer *received;
    grpc_byte_buffer *response;
    grpc_metadata trailer;
    int has_trailer;
    int cancelled;
    int answered;
    grpc_op ops[4];
} CGRPC_call_state;

static inline grpc_op *CGRPC_call_ops(CGRPC_call_state *state) { return state->ops; }

// Sets the call's answered flag; true for the first caller only (answers may come from any thread).
static inline int CGRPC_claim_answer(CGRPC_call_state *state) {
    return __atomic_exchange_n(&state->answered, 1, __ATOMIC_ACQ_REL) == 0;
}

// The key of the status trailer, from a C string literal: the core keeps the pointer of a static
// slice, which a Swift string passed as `const char *` does not give (its buffer may be temporary).
static inline grpc_slice CGRPC_status_details_key(void) { return grpc_slice_from_static_string("grpc-status-details-bin"); }

// glibc's thread names (what top and perf show), declared by <pthread.h> only under _GNU_SOURCE:
// the serving threads name themselves, which Foundation's `Thread.name` does not do on Linux.
#include <pthread.h>
extern int pthread_setname_np(pthread_t thread, const char *name);
extern int pthread_getname_np(pthread_t thread, char *name, size_t length);
