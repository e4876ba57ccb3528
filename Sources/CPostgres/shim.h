#ifndef NMEA_CPOSTGRES_SHIM_H
#define NMEA_CPOSTGRES_SHIM_H
// libpq, PostgreSQL's C client (Debian: libpq-dev), for the fleet store.
#include <libpq-fe.h>
#endif
