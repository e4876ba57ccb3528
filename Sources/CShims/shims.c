#define _GNU_SOURCE
#include "CShims.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>

int nmea_tiocexcl(int fd) { return ioctl(fd, TIOCEXCL); }

int nmea_tiocnxcl(int fd) { return ioctl(fd, TIOCNXCL); }

int nmea_tiocgexcl(int fd) {
#ifdef TIOCGEXCL
    int flag = 0;
    if (ioctl(fd, TIOCGEXCL, &flag) < 0) return -1;
    return flag != 0;
#else
    (void)fd;
    return -1;
#endif
}

int nmea_fionread(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) < 0) return -1;
    return count;
}

int nmea_posix_openpt(int flags) { return posix_openpt(flags); }

int nmea_grantpt(int fd) { return grantpt(fd); }

int nmea_unlockpt(int fd) { return unlockpt(fd); }

int nmea_ptsname_r(int fd, char *buffer, size_t length) { return ptsname_r(fd, buffer, length); }

int nmea_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int nmea_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }

long nmea_recv_counting_drops(int fd, void *buffer, size_t length, int flags, uint32_t *dropped) {
    struct iovec vector = {.iov_base = buffer, .iov_len = length};
    union {
        char bytes[CMSG_SPACE(sizeof(uint32_t))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {0};
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof(control.bytes);
    ssize_t count = recvmsg(fd, &message, flags);
    if (count < 0) return count;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SO_RXQ_OVFL) {
            memcpy(dropped, CMSG_DATA(header), sizeof(uint32_t));
        }
    }
    return count;
}

int nmea_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int nmea_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
