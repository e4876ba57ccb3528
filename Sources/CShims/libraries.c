#define _GNU_SOURCE
#include "CShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/// One lock for every library: loading happens once per library and per run.
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

static void load_locked(struct nmea_library *library) {
    // RTLD_LOCAL: the library's symbols do not join the program's global scope (nothing else resolves through
    // them); RTLD_NOW: a library that cannot be bound fails here, with its reason, not at some later call.
    void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(library->error, sizeof library->error, "cannot load %s (%s); %s", library->what, dlerror(),
                 library->remedy);
        __atomic_store_n(&library->state, -1, __ATOMIC_RELEASE);
        return;
    }
    for (int index = 0; index < library->count; index++) {
        void *function = dlsym(handle, library->names[index]);
        if (function == NULL) {
            snprintf(library->error, sizeof library->error, "cannot load %s: %s has no function %s; %s",
                     library->what, library->file, library->names[index], library->remedy);
            dlclose(handle);
            __atomic_store_n(&library->state, -1, __ATOMIC_RELEASE);
            return;
        }
        library->functions[index] = function;
    }
    library->error[0] = '\0';
    __atomic_store_n(&library->state, 1, __ATOMIC_RELEASE);
}

int nmea_library_load(struct nmea_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&loading);
        if (__atomic_load_n(&library->state, __ATOMIC_ACQUIRE) == 0) load_locked(library);
        state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
        pthread_mutex_unlock(&loading);
    }
    return state == 1 ? 0 : -1;
}

void *nmea_library_function(struct nmea_library *library, int index) {
    if (__atomic_load_n(&library->state, __ATOMIC_ACQUIRE) != 1 && nmea_library_load(library) != 0) {
        fprintf(stderr, "nmea: %s\n", library->error);
        abort();
    }
    return library->functions[index];
}
