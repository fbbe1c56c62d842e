#ifndef CMICROHTTPDSHIM_H
#define CMICROHTTPDSHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon, MHD_get_connection_info and MHD_get_daemon_info are variadic, and MHD's logger
   takes a va_list: Swift can call none of them. These wrappers take plain arguments instead. */

/* A message from libmicrohttpd, already formatted. */
typedef void (*cmhd_log_function)(void *context, const char *message);

/* MHD_OPTION_URI_LOG_CALLBACK's callback: the request line arrived (before the header fields).
   It must return NULL here: its result becomes the request's context pointer. */
typedef void *(*cmhd_uri_log_function)(void *context, const char *uri, struct MHD_Connection *connection);

/* Everything MHD_start_daemon needs, as one struct. Zero means "MHD's default" for the numbers.
   The daemon always runs its own threads, each with an epoll loop (MHD_USE_INTERNAL_POLLING_THREAD |
   MHD_USE_EPOLL), allows suspend/resume (MHD_ALLOW_SUSPEND_RESUME, which brings MHD_USE_ITC, needed
   by MHD_quiesce_daemon) and reports errors (MHD_USE_ERROR_LOG). */
typedef struct cmhd_daemon_options {
    int ipv6;                                 /* non-zero: bind_address is IPv6 (MHD_USE_IPv6) */
    int turbo;                                /* non-zero: MHD_USE_TURBO */
    uint16_t port;                            /* ignored when bind_address is set */
    const struct sockaddr *bind_address;      /* NULL: every IPv4 (or IPv6) address */
    unsigned int thread_pool_size;            /* MHD_OPTION_THREAD_POOL_SIZE; 0 or 1: one polling thread */
    size_t connection_memory_limit;           /* MHD_OPTION_CONNECTION_MEMORY_LIMIT */
    unsigned int connection_limit;            /* MHD_OPTION_CONNECTION_LIMIT */
    unsigned int connection_timeout_seconds;  /* MHD_OPTION_CONNECTION_TIMEOUT; 0: none */
    unsigned int per_ip_connection_limit;     /* MHD_OPTION_PER_IP_CONNECTION_LIMIT; 0: none */
    unsigned int listen_backlog;              /* MHD_OPTION_LISTEN_BACKLOG_SIZE */
    int keep_url_escaped;                     /* non-zero: MHD leaves %xx in the URL and query alone */
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_context;
    MHD_RequestCompletedCallback request_completed;
    void *request_completed_context;
    MHD_NotifyConnectionCallback notify_connection;  /* MHD_OPTION_NOTIFY_CONNECTION; NULL: none */
    void *notify_connection_context;
    cmhd_uri_log_function uri_logger;         /* MHD_OPTION_URI_LOG_CALLBACK; NULL: none */
    void *uri_logger_context;
    MHD_AcceptPolicyCallback accept_policy;   /* called with each accepted client's address; NULL: accept all */
    void *accept_policy_context;
    cmhd_log_function logger;                 /* NULL: MHD logs to stderr (when MHD_USE_ERROR_LOG is set) */
    void *logger_context;
} cmhd_daemon_options;

/* Starts a daemon with these options; NULL when MHD refuses (address in use, bad option).
   `options` must stay valid until MHD_stop_daemon returns: the logger reads it. */
struct MHD_Daemon *cmhd_start_daemon(const cmhd_daemon_options *options);

/* The port the daemon's listening socket is bound to, 0 if unknown. */
uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon);

/* The number of connections the daemon holds now. */
unsigned int cmhd_daemon_connection_count(struct MHD_Daemon *daemon);

/* The client's socket address, NULL if unknown. Valid while the connection lives. */
const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection);

/* The connection's socket, -1 if unknown. */
int cmhd_connection_fd(struct MHD_Connection *connection);

/* The pointer the connection-notify callback stored for this connection, NULL if none. */
void *cmhd_connection_socket_context(struct MHD_Connection *connection);

#endif
