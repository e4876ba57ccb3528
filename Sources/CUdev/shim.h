#ifndef NMEA_CUDEV_SHIM_H
#define NMEA_CUDEV_SHIM_H
#include <libudev.h>
#endif
