#ifndef NMEA_CZSTD_SHIM_H
#define NMEA_CZSTD_SHIM_H
#include <zstd.h>
#endif
