#ifndef CPIPELINE_H
#define CPIPELINE_H

#include <stdint.h>

/// futex(FUTEX_WAIT_PRIVATE): sleeps while `*address == expected`, at most `timeout_ns` nanoseconds (negative: no
/// limit). Returns 0 when woken (or spuriously), else an errno: EAGAIN (the value differed), ETIMEDOUT, EINTR.
int cpipeline_futex_wait(uint32_t *address, uint32_t expected, int64_t timeout_ns);

/// futex(FUTEX_WAKE_PRIVATE): wakes up to `count` threads sleeping on `address`. Returns how many were woken.
int cpipeline_futex_wake(uint32_t *address, int32_t count);

/// Names the calling thread (`pthread_setname_np`; the kernel keeps 15 bytes).
void cpipeline_set_thread_name(const char *name);

#endif
