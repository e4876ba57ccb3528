#ifndef NMEA_CPOSTGRES_H
#define NMEA_CPOSTGRES_H
// libpq, PostgreSQL's C client, for the fleet store (Debian: libpq-dev for this header, libpq5 to run). The program
// does not link it: libpq.c loads it when first used, so that the commands that never use it start without it.
#include <postgresql/libpq-fe.h>

/// Loads libpq once (later calls give the first call's answer): 0 when loaded, -1 when not, with `*error` pointing
/// at the reason and what to do (static storage).
int nmea_libpq_load(const char **error);

#endif
