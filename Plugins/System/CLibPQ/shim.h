// PostgreSQL's client library (Debian libpq-dev): the PostgreSQL store's connections.
#include <libpq-fe.h>
