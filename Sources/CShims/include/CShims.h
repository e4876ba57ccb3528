#ifndef NMEA_CSHIMS_H
#define NMEA_CSHIMS_H

#include <spawn.h>
#include <stddef.h>
#include <stdint.h>

/// Tiny wrappers over C calls Swift cannot make directly (variadic ioctl, functions hidden behind feature macros).
/// Each returns what the C call returns; on failure -1 with errno set.

/// ioctl(fd, TIOCEXCL): later open(2)s of the terminal fail with EBUSY (except for CAP_SYS_ADMIN).
int nmea_tiocexcl(int fd);
/// ioctl(fd, TIOCNXCL): undoes TIOCEXCL.
int nmea_tiocnxcl(int fd);
/// ioctl(fd, TIOCGEXCL, &flag): 1 when the terminal is in exclusive mode, 0 when not, -1 on error.
int nmea_tiocgexcl(int fd);
/// ioctl(fd, FIONREAD, &count): bytes waiting to be read, or -1.
int nmea_fionread(int fd);

/// posix_openpt(flags): a new pseudo-terminal master.
int nmea_posix_openpt(int flags);
/// grantpt(fd).
int nmea_grantpt(int fd);
/// unlockpt(fd).
int nmea_unlockpt(int fd);
/// ptsname_r(fd, buffer, length): the slave's path; 0 on success, an error number otherwise.
int nmea_ptsname_r(int fd, char *buffer, size_t length);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK): a descriptor that becomes readable once written to.
int nmea_eventfd(void);

/// accept4(fd, NULL, NULL, flags): the next connection, with SOCK_CLOEXEC / SOCK_NONBLOCK from `flags`.
int nmea_accept4(int fd, int flags);

/// recvmsg(fd, …, flags) into `buffer`, with room for the control messages SO_RXQ_OVFL adds: when one came,
/// `*dropped` is set to its count (datagrams the kernel dropped on this socket so far, its receive buffer full).
/// Returns what recvmsg returns.
long nmea_recv_counting_drops(int fd, void *buffer, size_t length, int flags, uint32_t *dropped);

/// pipe2(fds, O_CLOEXEC): fds[0] is the read end, fds[1] the write end.
int nmea_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np(actions, path): the child starts in `path` (glibc 2.29).
int nmea_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);


// Threads: futex waits for the pipeline's ring buffer, thread names.

/// futex(FUTEX_WAIT_PRIVATE): sleeps while `*address == expected`, at most `timeout_ns` nanoseconds (negative: no
/// limit). Returns 0 when woken (or spuriously), else an errno: EAGAIN (the value differed), ETIMEDOUT, or the
/// errno of an interruption by a signal.
int nmea_futex_wait(uint32_t *address, uint32_t expected, int64_t timeout_ns);

/// futex(FUTEX_WAKE_PRIVATE): wakes up to `count` threads sleeping on `address`. Returns how many were woken.
int nmea_futex_wake(uint32_t *address, int32_t count);

/// Names the calling thread (`pthread_setname_np`; the kernel keeps 15 bytes).
void nmea_set_thread_name(const char *name);

// Temporary files of outputs not yet in place (System's ReplacingFile), removed when a fatal signal arrives.

/// How many temporary files can be registered at once.
#define NMEA_PENDING_SLOTS 64
/// Registers `path` for removal by a fatal signal; returns its slot, or -1 (too many, or a path over 4095 bytes).
int nmea_pending_add(const char *path);
/// Forgets the registration of `slot` (after the file was renamed into place or removed); -1 is ignored.
void nmea_pending_remove(int slot);
/// unlink(2)s every registered path. Async-signal-safe: fixed storage, atomics, no locks.
void nmea_pending_unlink_all(void);
/// Once per process: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE and SIGXFSZ, where their action is still the default,
/// get a handler that removes the registered files and then dies of the signal as before. A command that takes a
/// signal itself (StopSignal) replaces the handler and cleans up on its own way out.
void nmea_pending_install_handlers(void);

// MARK: Reference clocks (timekeeping.c)

#include <sys/time.h>
#include <time.h>

/// chrony's `refclock SOCK` datagram (`struct sock_sample` in chrony's refclock_sock.c): the receive time on the
/// system clock, the offset of the reference from it in seconds, whether it is a pulse, the leap indicator
/// (0 none, 1 insert, 2 delete) and the magic `0x534f434b` ("SOCK").
struct nmea_sock_sample {
    struct timeval tv;
    double offset;
    int pulse;
    int leap;
    int _pad;
    int magic;
};

/// NTP's shared-memory reference clock segment (`struct shmTime` in ntpd's refclock_shm.c, read by chrony's SHM
/// driver too), key 0x4e545030 + unit.
struct nmea_shm_time {
    int mode;
    volatile int count;
    time_t clockTimeStampSec;
    int clockTimeStampUSec;
    time_t receiveTimeStampSec;
    int receiveTimeStampUSec;
    int leap;
    int precision;
    int nsamples;
    volatile int valid;
    unsigned clockTimeStampNSec;
    unsigned receiveTimeStampNSec;
    int dummy[8];
};

/// Writes one sample into an attached segment with the mode-1 count/valid protocol: `clock_ns` the reference's
/// time, `receive_ns` the system clock's at the same moment, both in nanoseconds since 1970.
void nmea_shm_store(struct nmea_shm_time *shm, int64_t clock_ns, int64_t receive_ns, int leap, int precision);

/// RFC 2783 time_pps_fetch over Linux's PPS_FETCH ioctl: waits up to `timeout_ms` for the next assert edge and
/// returns its time (nanoseconds since 1970) and sequence number; 0, or -1 with errno set.
int nmea_pps_fetch(int fd, int timeout_ms, int64_t *assert_ns, uint32_t *assert_sequence);
/// ioctl(fd, PPS_GETPARAMS): 0 when `fd` is a PPS device, -1 with errno set (ENOTTY) when it is not.
int nmea_pps_check(int fd);

/// The C compiler's __DATE__ ("Mmm dd yyyy") when this file was compiled: the program's build day.
const char *nmea_build_date(void);

/// A shared library loaded when first used (`dlopen`), not when the program starts: the fleet's libpq and
/// libmosquitto, whose dependencies (OpenSSL, Kerberos, LDAP, GnuTLS…) made every command's start cost twice what it
/// needs. The module that calls the library defines each function it uses as a trampoline through `functions`.
struct nmea_library {
    /// The file to load ("libpq.so.5").
    const char *file;
    /// What it is, for messages ("the PostgreSQL client library").
    const char *what;
    /// What a user who has not got it does ("install it: apt install libpq5").
    const char *remedy;
    /// The names of the functions used, `count` of them.
    const char *const *names;
    /// Where their addresses go, `count` of them; set once loaded.
    void **functions;
    int count;
    /// 0 not tried, 1 loaded, -1 failed (`error` says why); written under a lock, read with acquire.
    int state;
    char error[512];
};

/// Loads `library` and finds every function of it, once (later calls give the first call's answer; safe from any
/// thread): 0 when loaded, -1 when not, with the reason and the remedy in `library->error`.
int nmea_library_load(struct nmea_library *library);

/// The address of function `index` of `library`, loading it first if need be; when it cannot be loaded, prints the
/// reason and aborts (a caller loads with `nmea_library_load` first and reports the failure itself).
void *nmea_library_function(struct nmea_library *library, int index);

/// Defines, in a C file, the `static struct nmea_library library` of `FILE`, `int LOAD(const char **error)` (loads
/// it once: 0, or -1 with `*error` set to the reason) and a trampoline for each function `LIST` names: `LIST(F, V)`
/// gives each as `F(result, name, (parameters), (arguments))`, or `V(name, (parameters), (arguments))` for one that
/// returns nothing. A trampoline has the library's own name and type (so the compiler checks it against the
/// library's header) and calls the function of the library loaded at first use.
#define NMEA_LIBRARY(LIST, LOAD, FILE, WHAT, REMEDY)                                                                   \
    enum { LIST(NMEA_LIBRARY_INDEX, NMEA_LIBRARY_INDEX_VOID) NMEA_LIBRARY_COUNT };                                     \
    static const char *const library_names[] = {LIST(NMEA_LIBRARY_NAME, NMEA_LIBRARY_NAME_VOID)};                      \
    static void *library_functions[NMEA_LIBRARY_COUNT];                                                                \
    static struct nmea_library library = {                                                                             \
        .file = FILE,                                                                                                  \
        .what = WHAT,                                                                                                  \
        .remedy = REMEDY,                                                                                              \
        .names = library_names,                                                                                        \
        .functions = library_functions,                                                                                \
        .count = NMEA_LIBRARY_COUNT,                                                                                   \
    };                                                                                                                 \
    int LOAD(const char **error) {                                                                                     \
        int loaded = nmea_library_load(&library);                                                                      \
        *error = library.error;                                                                                        \
        return loaded;                                                                                                 \
    }                                                                                                                  \
    LIST(NMEA_LIBRARY_TRAMPOLINE, NMEA_LIBRARY_TRAMPOLINE_VOID)

#define NMEA_LIBRARY_INDEX(result, name, parameters, arguments) NMEA_LIBRARY_INDEX_##name,
#define NMEA_LIBRARY_INDEX_VOID(name, parameters, arguments) NMEA_LIBRARY_INDEX_##name,
#define NMEA_LIBRARY_NAME(result, name, parameters, arguments) #name,
#define NMEA_LIBRARY_NAME_VOID(name, parameters, arguments) #name,
#define NMEA_LIBRARY_FUNCTION(name) ((__typeof__(&name))nmea_library_function(&library, NMEA_LIBRARY_INDEX_##name))
#define NMEA_LIBRARY_TRAMPOLINE(result, name, parameters, arguments)                                                   \
    result name parameters { return NMEA_LIBRARY_FUNCTION(name) arguments; }
#define NMEA_LIBRARY_TRAMPOLINE_VOID(name, parameters, arguments)                                                      \
    void name parameters { NMEA_LIBRARY_FUNCTION(name) arguments; }

#endif
