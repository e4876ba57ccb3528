#ifndef NMEA_CSQLITE_SHIM_H
#define NMEA_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
