/* An LD_PRELOAD shim for scripts/bench-time: stat() of the path in $FAKE_USB_TTY (a symbolic link to a pty) reports
 * the USB-serial major number (188), so gpsd classifies that pty as a USB receiver. gpsd sends no time to NTP for a
 * pty (it keeps ptys for its own test harness), and the benchmark needs it to, from the same stream as ours.
 * Built by scripts/bench-time with: gcc -shared -fPIC -O2 -o fake-usb-tty.so fake-usb-tty.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
static void fake(const char *path, struct stat *sb) {
    const char *want = getenv("FAKE_USB_TTY");
    if (want && path && strcmp(path, want) == 0 && S_ISCHR(sb->st_mode)) sb->st_rdev = makedev(188, minor(sb->st_rdev));
}
int stat(const char *path, struct stat *sb) {
    static int (*real)(const char *, struct stat *);
    if (!real) real = dlsym(RTLD_NEXT, "stat");
    int r = real(path, sb);
    if (r == 0) fake(path, sb);
    return r;
}
int stat64(const char *path, struct stat64 *sb) {
    static int (*real)(const char *, struct stat64 *);
    if (!real) real = dlsym(RTLD_NEXT, "stat64");
    int r = real(path, sb);
    if (r == 0) fake(path, (struct stat *)sb);
    return r;
}
