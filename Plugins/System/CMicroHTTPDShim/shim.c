#include "CMicroHTTPDShim.h"
#include <stdio.h>
#include <string.h>

/* MHD's logger hands over a format and a va_list: format it here, pass the text on. */
static void cmhd_forward_log(void *context, const char *format, va_list arguments) {
    const cmhd_daemon_options *options = context;
    char message[1024];
    vsnprintf(message, sizeof message, format, arguments);
    options->logger(options->logger_context, message);
}

/* Leaves the URL and query text as the client sent them (MHD decodes %xx in place by default,
   which would make "a%2Fb" and "a/b" the same path). MHD still turns '+' into ' ' in the query. */
static size_t cmhd_keep_escaped(void *context, struct MHD_Connection *connection, char *text) {
    (void) context;
    (void) connection;
    return strlen(text);
}

struct MHD_Daemon *cmhd_start_daemon(const cmhd_daemon_options *options) {
    struct MHD_OptionItem items[24];
    size_t count = 0;
    /* The logger first, so that MHD reports problems with the other options through it. */
    if (options->logger != NULL)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) &cmhd_forward_log, (void *) options };
    if (options->bind_address != NULL)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_SOCK_ADDR, 0, (void *) options->bind_address };
    if (options->thread_pool_size > 1)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) options->thread_pool_size, NULL };
    if (options->connection_memory_limit > 0)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) options->connection_memory_limit, NULL };
    if (options->connection_limit > 0)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_LIMIT, (intptr_t) options->connection_limit, NULL };
    items[count++] = (struct MHD_OptionItem) { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) options->connection_timeout_seconds, NULL };
    if (options->per_ip_connection_limit > 0)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t) options->per_ip_connection_limit, NULL };
    if (options->notify_connection != NULL)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) options->notify_connection, options->notify_connection_context };
    if (options->uri_logger != NULL)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) options->uri_logger, options->uri_logger_context };
    if (options->listen_backlog > 0)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t) options->listen_backlog, NULL };
    if (options->keep_url_escaped)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) &cmhd_keep_escaped, NULL };
    if (options->request_completed != NULL)
        items[count++] = (struct MHD_OptionItem) { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) options->request_completed, options->request_completed_context };
    items[count++] = (struct MHD_OptionItem) { MHD_OPTION_END, 0, NULL };

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (options->ipv6)
        flags |= MHD_USE_IPv6;
    if (options->turbo)
        flags |= MHD_USE_TURBO;
    return MHD_start_daemon(flags, options->port, options->accept_policy, options->accept_policy_context,
                            options->access_handler, options->access_handler_context,
                            MHD_OPTION_ARRAY, items, MHD_OPTION_END);
}

uint16_t cmhd_daemon_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

unsigned int cmhd_daemon_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

const struct sockaddr *cmhd_connection_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
