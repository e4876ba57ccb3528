#include "CChecksumSplit.h"

enum { maximum_fields = 64 };

static int hex_value(uint8_t byte) {
    if (byte >= '0' && byte <= '9') return byte - '0';
    if (byte >= 'A' && byte <= 'F') return byte - 'A' + 10;
    if (byte >= 'a' && byte <= 'f') return byte - 'a' + 10;
    return -1;
}

nmea_checksum_split_result nmea_checksum_split(const uint8_t *bytes, size_t count) {
    nmea_checksum_split_result result = {0, 0, 0};
    uint16_t commas[maximum_fields];
    const uint8_t *cursor = bytes;
    const uint8_t *end = bytes + count;
    while (cursor < end) {
        // The start of a sentence.
        if (*cursor != '$' && *cursor != '!') {
            cursor++;
            continue;
        }
        const uint8_t *start = cursor++;
        uint8_t xor = 0;
        size_t fields = 0;
        int overflow = 0;
        // Its body: XOR every byte, record every comma, up to `*` or a line end.
        while (cursor < end && *cursor != '*' && *cursor != '\n' && *cursor != '\r') {
            uint8_t byte = *cursor;
            if (byte == ',') {
                if (fields < maximum_fields) {
                    commas[fields++] = (uint16_t)(cursor - start);
                } else {
                    overflow = 1;
                }
            }
            xor ^= byte;
            cursor++;
        }
        if (end - cursor < 3 || *cursor != '*') {
            result.rejected++;
            continue;
        }
        int high = hex_value(cursor[1]);
        int low = hex_value(cursor[2]);
        cursor += 3;
        if (high < 0 || low < 0 || (uint8_t)(high << 4 | low) != xor || overflow) {
            result.rejected++;
            continue;
        }
        result.sentences++;
        result.check += fields + (fields > 0 ? commas[fields - 1] + commas[fields / 2] : 0);
        // Its line end.
        while (cursor < end && (*cursor == '\r' || *cursor == '\n')) cursor++;
    }
    return result;
}
