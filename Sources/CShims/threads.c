#define _GNU_SOURCE
#include "CShims.h"

#include <pthread.h>
#include <string.h>

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int nmea_futex_wait(uint32_t *address, uint32_t expected, int64_t timeout_ns) {
    struct timespec timeout;
    struct timespec *limit = NULL;
    if (timeout_ns >= 0) {
        timeout.tv_sec = (time_t)(timeout_ns / 1000000000);
        timeout.tv_nsec = (long)(timeout_ns % 1000000000);
        limit = &timeout;
    }
    // The timeout of FUTEX_WAIT is relative and measured against CLOCK_MONOTONIC.
    long result = syscall(SYS_futex, address, FUTEX_WAIT_PRIVATE, expected, limit, NULL, 0);
    return result == 0 ? 0 : errno;
}

int nmea_futex_wake(uint32_t *address, int32_t count) {
    long result = syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
    return result < 0 ? 0 : (int)result;
}

void nmea_set_thread_name(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = 0;
    pthread_setname_np(pthread_self(), shortened);
}
