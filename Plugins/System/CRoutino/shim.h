// Routino's library (Debian libroutino-dev, /usr/include/routino.h). It ships no pkg-config file,
// so the module map links "routino" by name.
#include <routino.h>

// Swift 6 refuses to read a global C variable (shared mutable state): read Routino_errno here.
static inline int CRoutino_errno(void) { return Routino_errno; }
