// minmea doing what Embedded/Firmware.swift does, for the size comparison: the input in 64-byte chunks, lines framed
// and checked (minmea_check), RMC, GGA, GSA and GSV decoded, each epoch's time, date and position merged into a fix
// (a new time closes the epoch), one line per fix, `FIX <ISO 8601 time> <latitude> <longitude>` (six decimals).
// minmea itself (minmea.c, minmea.h) is not in this repository: Embedded/minmea/build takes it from MINMEA_DIR.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "minmea.h"

void firmware_write(const uint8_t *bytes, size_t count);
const uint8_t *firmware_input(size_t *count);
void firmware_report(void);

struct fix {
    int has_time, has_date, has_position;
    struct minmea_time time;
    struct minmea_date date;
    int64_t latitude, longitude;  // millionths of a degree
};
static struct fix epoch;
static struct minmea_date last_date;
static int have_date;

static char line[128];
static size_t line_length;

static void put(const char *text) { firmware_write((const uint8_t *)text, strlen(text)); }
static void put_digits(int64_t value, int digits) {
    char buffer[24];
    for (int i = digits - 1; i >= 0; i--) { buffer[i] = '0' + value % 10; value /= 10; }
    firmware_write((const uint8_t *)buffer, digits);
}
static void put_number(int64_t value) {
    char buffer[24];
    int at = sizeof buffer;
    do { buffer[--at] = '0' + value % 10; value /= 10; } while (value);
    firmware_write((const uint8_t *)buffer + at, sizeof buffer - at);
}
static void put_degrees(int64_t millionths) {
    if (millionths < 0) { put("-"); millionths = -millionths; }
    put_number(millionths / 1000000);
    put(".");
    put_digits(millionths % 1000000, 6);
}

// ddmm.mmmm as millionths of a degree, rounded
static int64_t degrees(const struct minmea_float *f) {
    int64_t scale = f->scale, value = f->value, sign = value < 0 ? -1 : 1;
    if (value < 0) value = -value;
    int64_t whole = value / (scale * 100), minutes = value % (scale * 100);
    return sign * (whole * 1000000 + (minutes * 1000000 + 30 * scale) / (60 * scale));
}

static void emit(void) {
    if (!epoch.has_time) return;
    struct minmea_date date = epoch.has_date ? epoch.date : last_date;
    put("FIX ");
    if (epoch.has_date || have_date) {
        put_digits(2000 + date.year, 4); put("-"); put_digits(date.month, 2); put("-"); put_digits(date.day, 2);
        put("T"); put_digits(epoch.time.hours, 2); put(":"); put_digits(epoch.time.minutes, 2); put(":");
        put_digits(epoch.time.seconds, 2);
        put("."); put_digits(epoch.time.microseconds / 10000, 2);  // hundredths, as drive.nmea sends them
        put("Z");
    } else {
        put("-");
    }
    if (epoch.has_position) {
        put(" "); put_degrees(epoch.latitude); put(" "); put_degrees(epoch.longitude); put("\n");
    } else {
        put(" - -\n");
    }
    memset(&epoch, 0, sizeof epoch);
}

static void begin(const struct minmea_time *time) {
    if (time->hours < 0) return;
    if (epoch.has_time && memcmp(&epoch.time, time, sizeof *time) != 0) emit();
    epoch.has_time = 1;
    epoch.time = *time;
}

static void sentence(const char *text) {
    switch (minmea_sentence_id(text, true)) {
    case MINMEA_SENTENCE_RMC: {
        struct minmea_sentence_rmc rmc;
        if (!minmea_parse_rmc(&rmc, text)) return;
        begin(&rmc.time);
        if (rmc.valid && rmc.date.year >= 0) {
            epoch.date = rmc.date; epoch.has_date = 1; last_date = rmc.date; have_date = 1;
        }
        if (rmc.valid && rmc.latitude.scale) {
            epoch.latitude = degrees(&rmc.latitude); epoch.longitude = degrees(&rmc.longitude);
            epoch.has_position = 1;
        }
    } break;
    case MINMEA_SENTENCE_GGA: {
        struct minmea_sentence_gga gga;
        if (!minmea_parse_gga(&gga, text)) return;
        begin(&gga.time);
        if (gga.fix_quality > 0 && gga.latitude.scale) {
            epoch.latitude = degrees(&gga.latitude); epoch.longitude = degrees(&gga.longitude);
            epoch.has_position = 1;
        }
    } break;
    case MINMEA_SENTENCE_GSA: {
        struct minmea_sentence_gsa gsa;
        (void)minmea_parse_gsa(&gsa, text);
    } break;
    case MINMEA_SENTENCE_GSV: {
        struct minmea_sentence_gsv gsv;
        (void)minmea_parse_gsv(&gsv, text);
    } break;
    default: break;
    }
}

int main(int argc, char **argv) {
    (void)argc; (void)argv;
    size_t count;
    const uint8_t *input = firmware_input(&count);
    for (size_t offset = 0; offset < count; offset += 64) {
        size_t chunk = count - offset < 64 ? count - offset : 64;
        for (size_t i = 0; i < chunk; i++) {
            char c = (char)input[offset + i];
            if (c == '\r') continue;
            if (c == '\n') {
                line[line_length] = 0;
                sentence(line);
                line_length = 0;
            } else if (line_length < sizeof line - 1) {
                line[line_length++] = c;
            }
        }
    }
    emit();
    firmware_report();
    return 0;
}
