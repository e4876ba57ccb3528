#ifndef NMEA_CMOSQUITTO_SHIM_H
#define NMEA_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
// Linux calls the fleet module needs and Swift's Glibc module does not export.
#include <sys/eventfd.h>
#endif
