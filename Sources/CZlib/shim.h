#ifndef NMEA_CZLIB_SHIM_H
#define NMEA_CZLIB_SHIM_H
#include <zlib.h>
#endif
