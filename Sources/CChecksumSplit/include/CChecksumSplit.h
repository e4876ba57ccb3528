// The C reference loop of `nmea bench` (issue 33): what framing and splitting cost with nothing else, for typed
// decoding to be measured against. Used only by the benchmark.
#ifndef CCHECKSUMSPLIT_H
#define CCHECKSUMSPLIT_H

#include <stddef.h>
#include <stdint.h>

/// What one pass found.
typedef struct {
    /// Sentences whose checksum matched.
    size_t sentences;
    /// Sentences with a wrong, malformed or missing checksum, or too many fields.
    size_t rejected;
    /// A value depending on every comma offset recorded, so that the compiler keeps the recording.
    uint64_t check;
} nmea_checksum_split_result;

/// Finds each sentence in `bytes` (`$` or `!` to `*hh` and its line end), XORs the bytes between `$` and `*`,
/// compares the XOR with the two hex digits, and records the offset of every comma in an array on the stack (at
/// most 64 fields), a byte at a time: the "checksum + split" loop of the issue.
nmea_checksum_split_result nmea_checksum_split(const uint8_t *bytes, size_t count);

#endif
