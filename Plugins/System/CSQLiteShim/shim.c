#include <sqlite3.h>
#include "CSQLiteShim.h"

int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
