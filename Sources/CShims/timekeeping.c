// Reference-clock structures and calls for the Timekeeping module: chrony's SOCK sample, NTP's shared-memory
// segment (with the count/valid protocol and its memory barriers), and the RFC 2783 PPS fetch (Linux PPS_FETCH).

#include "CShims.h"

#include <errno.h>
#include <linux/pps.h>
#include <string.h>
#include <sys/ioctl.h>

void nmea_shm_store(struct nmea_shm_time *shm, int64_t clock_ns, int64_t receive_ns, int leap, int precision) {
    // ntpd's refclock_shm.c and chrony's refclock_shm.c read in mode 1: a reader copies the fields, and keeps them
    // only when `count` is the same before and after and `valid` is set. So: invalidate, bump the count, write, bump
    // the count again, validate, with barriers so that neither compiler nor CPU reorders across them.
    volatile struct nmea_shm_time *target = shm;
    target->valid = 0;
    target->count += 1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    target->mode = 1;
    target->clockTimeStampSec = (time_t)(clock_ns / 1000000000);
    target->clockTimeStampNSec = (unsigned)(clock_ns % 1000000000);
    target->clockTimeStampUSec = (int)(target->clockTimeStampNSec / 1000);
    target->receiveTimeStampSec = (time_t)(receive_ns / 1000000000);
    target->receiveTimeStampNSec = (unsigned)(receive_ns % 1000000000);
    target->receiveTimeStampUSec = (int)(target->receiveTimeStampNSec / 1000);
    target->leap = leap;
    target->precision = precision;
    target->nsamples = 3;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    target->count += 1;
    target->valid = 1;
}

int nmea_pps_fetch(int fd, int timeout_ms, int64_t *assert_ns, uint32_t *assert_sequence) {
    struct pps_fdata data;
    memset(&data, 0, sizeof data);
    data.timeout.sec = timeout_ms / 1000;
    data.timeout.nsec = (timeout_ms % 1000) * 1000000;
    data.timeout.flags = 0;
    if (ioctl(fd, PPS_FETCH, &data) < 0) return -1;
    *assert_ns = (int64_t)data.info.assert_tu.sec * 1000000000 + data.info.assert_tu.nsec;
    *assert_sequence = data.info.assert_sequence;
    return 0;
}

int nmea_pps_check(int fd) {
    struct pps_kparams params;
    memset(&params, 0, sizeof params);
    return ioctl(fd, PPS_GETPARAMS, &params);
}

const char *nmea_build_date(void) { return __DATE__; }
