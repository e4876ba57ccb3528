// Counting wrappers around the C library's allocator. See include/CAllocationCounter.h.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NMEA_SANITIZER_OWNS_MALLOC 1
#endif
#endif

// Under a sanitizer its runtime owns malloc and free: wrapping them again breaks it, so nothing is counted (the
// allocation tests skip, as elsewhere).
#if defined(__linux__) && !defined(NMEA_SANITIZER_OWNS_MALLOC)

#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_alloc_fn)(size_t, size_t);

static _Atomic(malloc_fn) real_malloc;
static _Atomic(calloc_fn) real_calloc;
static _Atomic(realloc_fn) real_realloc;
static _Atomic(free_fn) real_free;
static _Atomic(posix_memalign_fn) real_posix_memalign;
static _Atomic(aligned_alloc_fn) real_aligned_alloc;
static _Atomic(aligned_alloc_fn) real_memalign;

static atomic_int active;

// Initial-exec: the variables live in the static TLS block of the executable, reached without __tls_get_addr.
#define TLS_MODEL __attribute__((tls_model("initial-exec")))

// Counting is per thread, and so are the counters: tests running in parallel on other threads neither add to them
// nor reset them. Thread-locals of the executable itself are reached without a call and never allocate.
static _Thread_local TLS_MODEL int counting;
static _Thread_local TLS_MODEL long allocations;
static _Thread_local TLS_MODEL long frees;
static _Thread_local TLS_MODEL long bytes;
/// This thread is inside dlsym, which may itself call calloc/malloc before the real ones are known.
static _Thread_local TLS_MODEL int resolving;

// While the real functions are being looked up, allocations come from this buffer. Each block has a 16-byte header
// holding its size, so that realloc can move it to real memory. Its blocks are never freed.
static _Alignas(16) unsigned char bootstrap[16 * 1024];
static atomic_size_t bootstrap_used;

static int is_bootstrap(const void *pointer) {
    return (const unsigned char *)pointer >= bootstrap && (const unsigned char *)pointer < bootstrap + sizeof bootstrap;
}

static void *bootstrap_alloc(size_t size) {
    size_t rounded = (size + 15) & ~(size_t)15;
    size_t offset = atomic_fetch_add(&bootstrap_used, rounded + 16);
    if (offset + rounded + 16 > sizeof bootstrap) return NULL;
    unsigned char *block = bootstrap + offset;
    memcpy(block, &size, sizeof size);
    return block + 16;  // static storage is zeroed, as calloc needs
}

static size_t bootstrap_size(const void *pointer) {
    size_t size;
    memcpy(&size, (const unsigned char *)pointer - 16, sizeof size);
    return size;
}

static void resolve(void) {
    resolving = 1;
    atomic_store(&real_calloc, (calloc_fn)dlsym(RTLD_NEXT, "calloc"));
    atomic_store(&real_malloc, (malloc_fn)dlsym(RTLD_NEXT, "malloc"));
    atomic_store(&real_realloc, (realloc_fn)dlsym(RTLD_NEXT, "realloc"));
    atomic_store(&real_free, (free_fn)dlsym(RTLD_NEXT, "free"));
    atomic_store(&real_posix_memalign, (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign"));
    atomic_store(&real_aligned_alloc, (aligned_alloc_fn)dlsym(RTLD_NEXT, "aligned_alloc"));
    atomic_store(&real_memalign, (aligned_alloc_fn)dlsym(RTLD_NEXT, "memalign"));
    resolving = 0;
}

__attribute__((constructor)) static void resolve_early(void) {
    if (!atomic_load(&real_malloc)) resolve();
}

/// Called for every counted allocation. To find out who allocates, break here in a debugger:
/// `gdb -ex 'break nmea_allocation_counter_counted' -ex run --args .build/debug/…xctest --testing-library swift-testing --filter …`
__attribute__((noinline)) void nmea_allocation_counter_counted(size_t size) {
    allocations += 1;
    bytes += (long)size;
    __asm__ volatile("");
}

static inline void count(size_t size) {
    if (__builtin_expect(counting, 0)) nmea_allocation_counter_counted(size);
}

void *malloc(size_t size) {
    malloc_fn real = atomic_load_explicit(&real_malloc, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) return bootstrap_alloc(size);
        resolve();
        real = atomic_load(&real_malloc);
    }
    if (!atomic_load_explicit(&active, memory_order_relaxed)) atomic_store(&active, 1);
    count(size);
    return real(size);
}

void *calloc(size_t number, size_t size) {
    calloc_fn real = atomic_load_explicit(&real_calloc, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        size_t total;
        if (__builtin_mul_overflow(number, size, &total)) return NULL;
        if (resolving) return bootstrap_alloc(total);
        resolve();
        real = atomic_load(&real_calloc);
    }
    count(number * size);
    return real(number, size);
}

void *realloc(void *pointer, size_t size) {
    realloc_fn real = atomic_load_explicit(&real_realloc, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) {
            void *moved = bootstrap_alloc(size);
            if (moved && pointer) {
                size_t old = bootstrap_size(pointer);
                memcpy(moved, pointer, old < size ? old : size);
            }
            return moved;
        }
        resolve();
        real = atomic_load(&real_realloc);
    }
    count(size);
    if (pointer && is_bootstrap(pointer)) {
        void *moved = atomic_load(&real_malloc)(size);
        if (moved) {
            size_t old = bootstrap_size(pointer);
            memcpy(moved, pointer, old < size ? old : size);
        }
        return moved;
    }
    return real(pointer, size);
}

void free(void *pointer) {
    if (!pointer || is_bootstrap(pointer)) return;
    if (__builtin_expect(counting, 0)) frees += 1;
    free_fn real = atomic_load_explicit(&real_free, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) return;  // nothing to free it with yet: leak it rather than recurse into dlsym
        resolve();
        real = atomic_load(&real_free);
    }
    real(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    posix_memalign_fn real = atomic_load_explicit(&real_posix_memalign, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) return ENOMEM;
        resolve();
        real = atomic_load(&real_posix_memalign);
    }
    count(size);
    return real(result, alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    aligned_alloc_fn real = atomic_load_explicit(&real_aligned_alloc, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) return NULL;
        resolve();
        real = atomic_load(&real_aligned_alloc);
    }
    count(size);
    return real(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    aligned_alloc_fn real = atomic_load_explicit(&real_memalign, memory_order_relaxed);
    if (__builtin_expect(!real, 0)) {
        if (resolving) return NULL;
        resolve();
        real = atomic_load(&real_memalign);
    }
    count(size);
    return real(alignment, size);
}

// The Swift runtime calls these hooks, when set, just before an error is thrown. Swift Testing sets them to capture a
// backtrace for every thrown error, which allocates; a program that sets none pays nothing. They are declared weak so
// that this file also links where the runtime lacks them.
extern _Atomic(void *) _swift_willThrow __attribute__((weak));
extern _Atomic(void *) _swift_willThrowTypedImpl __attribute__((weak));
static void *saved_will_throw;
static void *saved_will_throw_typed;

void nmea_allocation_counter_suspend_throw_hooks(void) {
    if (&_swift_willThrow) saved_will_throw = atomic_exchange(&_swift_willThrow, NULL);
    if (&_swift_willThrowTypedImpl) saved_will_throw_typed = atomic_exchange(&_swift_willThrowTypedImpl, NULL);
}

void nmea_allocation_counter_resume_throw_hooks(void) {
    if (&_swift_willThrow) atomic_store(&_swift_willThrow, saved_will_throw);
    if (&_swift_willThrowTypedImpl) atomic_store(&_swift_willThrowTypedImpl, saved_will_throw_typed);
    saved_will_throw = NULL;
    saved_will_throw_typed = NULL;
}

void nmea_allocation_counter_reset(void) {
    allocations = 0;
    frees = 0;
    bytes = 0;
}

void nmea_allocation_counter_set_enabled(int enabled) { counting = enabled != 0; }

void nmea_allocation_counter_start(void) {
    nmea_allocation_counter_reset();
    counting = 1;
}

long nmea_allocation_counter_stop(void) {
    counting = 0;
    return allocations;
}

long nmea_allocation_counter_allocations(void) { return allocations; }
long nmea_allocation_counter_frees(void) { return frees; }
long nmea_allocation_counter_bytes(void) { return bytes; }
int nmea_allocation_counter_is_active(void) { return atomic_load(&active); }

#else

#include "CAllocationCounter.h"

// Elsewhere nothing is counted; nmea_allocation_counter_is_active() says so, and tests skip.
static long zero = 0;
void nmea_allocation_counter_start(void) {}
long nmea_allocation_counter_stop(void) { return zero; }
void nmea_allocation_counter_set_enabled(int enabled) { (void)enabled; }
void nmea_allocation_counter_reset(void) {}
long nmea_allocation_counter_allocations(void) { return zero; }
long nmea_allocation_counter_frees(void) { return zero; }
long nmea_allocation_counter_bytes(void) { return zero; }
int nmea_allocation_counter_is_active(void) { return 0; }
void nmea_allocation_counter_suspend_throw_hooks(void) {}
void nmea_allocation_counter_resume_throw_hooks(void) {}

#endif
