// The C side of the libuv binding: the libuv header plus tiny helpers Swift cannot express.
#ifndef QUERYD_CLIBUV_SHIM_H
#define QUERYD_CLIBUV_SHIM_H
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

/// Reads the peer's credentials (SO_PEERCRED) of a connected Unix socket.
/// Returns 0 on success, or a negative errno. `struct ucred` needs _GNU_SOURCE in glibc, so a layout-identical
/// local struct is used instead (pid_t, uid_t, gid_t are 32-bit on Linux).
static inline int queryd_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
    struct {
        int32_t pid;
        uint32_t uid;
        uint32_t gid;
    } cred;
    socklen_t length = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) {
        return -errno;
    }
    if (length != sizeof(cred)) {
        return -EINVAL;
    }
    *pid = cred.pid;
    *uid = cred.uid;
    *gid = cred.gid;
    return 0;
}

#endif
