#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

/* SQLite's sqlite3_config() is variadic, which Swift cannot call; these wrap the calls we make. */

/* Turns off SQLite's memory statistics, which take one process-wide mutex on every allocation of
   every connection. Must run before SQLite initializes (before the first connection opens);
   returns SQLITE_OK, or SQLITE_MISUSE when SQLite was already initialized. */
int csqlite_disable_memory_statistics(void);

#endif
