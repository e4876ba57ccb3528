#define _GNU_SOURCE
#include "CShims.h"

#include <signal.h>
#include <stdatomic.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

// The temporary files of outputs not yet renamed into place, for the signal handler to remove. Fixed storage, so the
// handler reads no heap and takes no lock: a slot is written, then marked ready; the handler unlinks ready slots.

enum { SLOTS = NMEA_PENDING_SLOTS, PATH_BYTES = 4096 };
enum { FREE = 0, FILLING = 1, READY = 2 };

static char paths[SLOTS][PATH_BYTES];
static _Atomic int states[SLOTS];

int nmea_pending_add(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_BYTES) return -1;
    for (int slot = 0; slot < SLOTS; slot++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&states[slot], &expected, FILLING)) {
            memcpy(paths[slot], path, length + 1);
            atomic_store(&states[slot], READY);
            return slot;
        }
    }
    return -1;
}

void nmea_pending_remove(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&states[slot], FREE);
}

void nmea_pending_unlink_all(void) {
    for (int slot = 0; slot < SLOTS; slot++) {
        if (atomic_load(&states[slot]) == READY) unlink(paths[slot]);
    }
}

static void remove_and_reraise(int signal_number) {
    int saved = errno;
    nmea_pending_unlink_all();
    // Die of the signal as if it had not been caught: default action, then the signal again (blocked until this
    // handler returns, so it is delivered right after).
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    raise(signal_number);
    errno = saved;
}

void nmea_pending_install_handlers(void) {
    static atomic_flag installed = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&installed)) return;
    static const int signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ};
    for (size_t index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0) continue;
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;  // taken or ignored
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = remove_and_reraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        sigaction(signals[index], &action, NULL);
    }
}
