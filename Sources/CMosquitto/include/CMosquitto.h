#ifndef NMEA_CMOSQUITTO_H
#define NMEA_CMOSQUITTO_H
// libmosquitto, the MQTT client, for the fleet module (Debian: libmosquitto-dev for this header, libmosquitto1 to
// run). The program does not link it: libmosquitto.c loads it when first used, so that the commands that never use
// it start without it.
#include <mosquitto.h>
// Linux calls the fleet module needs and Swift's Glibc module does not export.
#include <sys/eventfd.h>

/// Loads libmosquitto once (later calls give the first call's answer): 0 when loaded, -1 when not, with `*error`
/// pointing at the reason and what to do (static storage).
int nmea_libmosquitto_load(const char **error);

#endif
