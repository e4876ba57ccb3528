#ifndef NMEA_ALLOCATION_COUNTER_H
#define NMEA_ALLOCATION_COUNTER_H

/// Counts heap allocations made by the calling thread, for tests that assert a code path allocates nothing.
///
/// The library defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc and memalign; they forward to
/// the C library's own (found with dlsym(RTLD_NEXT)). Because they are linked into the test executable, they take
/// the place of the C library's for every allocation in the process, the Swift runtime's included.
///
/// Counting and the counters are per thread: Swift Testing runs tests in parallel, so allocations made by other
/// threads must not be counted, and another test's start must not zero this one's count. While counting is off on a
/// thread, a call costs one thread-local load more than the C library's.
///
///     nmea_allocation_counter_start();    // zeroes the counters and turns counting on for this thread
///     …code under test, with no suspension point…
///     long count = nmea_allocation_counter_stop();   // turns it off; returns the allocations seen

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Zeroes the counters and turns counting on for the calling thread.
void nmea_allocation_counter_start(void);

/// Turns counting off for the calling thread and returns the number of allocations counted since the last start.
long nmea_allocation_counter_stop(void);

/// Turns counting on (non-zero) or off (zero) for the calling thread without touching the counters.
void nmea_allocation_counter_set_enabled(int enabled);

/// Zeroes the calling thread's counters.
void nmea_allocation_counter_reset(void);

/// Allocations counted on the calling thread (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign calls that returned
/// memory or asked for it).
long nmea_allocation_counter_allocations(void);

/// free calls with a non-null pointer counted on the calling thread.
long nmea_allocation_counter_frees(void);

/// Called for each counted allocation; a place for a debugger breakpoint. Not meant to be called.
void nmea_allocation_counter_counted(size_t size);

/// Bytes requested by the calling thread's counted allocations.
long nmea_allocation_counter_bytes(void);

/// Non-zero once this library's malloc has been called at least once, which shows that it is the process's
/// malloc (if the C library's were used instead, nothing would ever be counted).
int nmea_allocation_counter_is_active(void);

/// Sets aside the Swift runtime's will-throw hooks (`_swift_willThrow`, `_swift_willThrowTypedImpl`) until
/// nmea_allocation_counter_resume_throw_hooks().
///
/// Swift Testing installs them to capture a backtrace each time an error is thrown, and that capture allocates; a
/// program that installs none throws without allocating. Suspending them measures the code under test as such a
/// program runs it. The hooks are process-wide: while they are suspended, errors thrown by other tests carry no
/// backtrace in Swift Testing's reports (nothing else changes).
void nmea_allocation_counter_suspend_throw_hooks(void);

/// Puts back the hooks set aside by nmea_allocation_counter_suspend_throw_hooks().
void nmea_allocation_counter_resume_throw_hooks(void);

/// Opens the window a test counts the code under test in: the throw hooks set aside, the counters zeroed and
/// counting on for the calling thread. Every allocation test counts through this pair.
static inline void nmea_allocation_window_open(void) {
    nmea_allocation_counter_suspend_throw_hooks();
    nmea_allocation_counter_start();
}

/// Closes the window: counting off, the hooks put back. Returns the allocations counted in it (their bytes stay in
/// nmea_allocation_counter_bytes()).
static inline long nmea_allocation_window_close(void) {
    long allocations = nmea_allocation_counter_stop();
    nmea_allocation_counter_resume_throw_hooks();
    return allocations;
}

#ifdef __cplusplus
}
#endif

#endif
