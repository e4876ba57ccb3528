#ifndef NMEA_CMOSQUITTO_SHIM_H
#define NMEA_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
// Linux calls the fleet module needs and Swift's Glibc module does not export.
#include <sys/eventfd.h>
#include <sys/prctl.h>

/// Names the calling thread (at most 15 bytes show), for top and gdb.
static inline void nmea_fleet_name_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
#endif
