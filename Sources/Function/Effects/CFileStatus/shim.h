#ifndef CFILESTATUS_SHIM_H
#define CFILESTATUS_SHIM_H

// What a file is and whose, read without its times.
//
// On Linux 6.13 and later (multigrain timestamps), a stat that reports a file's change time marks it as seen, and the
// next write must then stamp the file with a fine-grained time, which dirties the inode (on ext4, a journal update)
// at every write. statx(2) asked only for the type, mode, owner and inode leaves the times unseen, so a file that is
// checked before each append keeps appends as cheap as a plain write. Swift's Glibc module does not declare statx
// (it needs _GNU_SOURCE), so the system call is made here. Where statx is missing (Linux before 4.11, or a seccomp
// filter that refuses it) this falls back to fstatat(2).

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef __linux__
#include <linux/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#endif

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/// The identity and privacy of a file: whether it is a regular file, its permission bits, its owner, and the device
/// and inode that name it.
struct cfilestatus_identity {
    bool is_regular_file;
    uint32_t permissions;
    uint32_t owner;
    uint64_t device;
    uint64_t inode;
};

static inline int cfilestatus_read_identity_by_stat(int directory, const char *path, int flags,
                                               struct cfilestatus_identity *identity) {
    struct stat status;
    int result = (flags & AT_EMPTY_PATH) ? fstat(directory, &status) : fstatat(directory, path, &status, flags);
    if (result != 0) return -1;
    identity->is_regular_file = S_ISREG(status.st_mode);
    identity->permissions = (uint32_t)status.st_mode & 07777;
    identity->owner = (uint32_t)status.st_uid;
#ifdef __linux__
    // As statx reports it, so that a file read both ways compares equal.
    identity->device = ((uint64_t)major(status.st_dev) << 32) | minor(status.st_dev);
#else
    identity->device = (uint64_t)status.st_dev;
#endif
    identity->inode = (uint64_t)status.st_ino;
    return 0;
}

/// Fills `identity` for `path` relative to `directory` (`AT_FDCWD`, or with `AT_EMPTY_PATH` and "" the descriptor
/// itself), not following a final symbolic link when `flags` has `AT_SYMLINK_NOFOLLOW`. Returns 0, or -1 with `errno`.
static inline int cfilestatus_read_identity(int directory, const char *path, int flags,
                                       struct cfilestatus_identity *identity) {
#if defined(__linux__) && defined(SYS_statx)
    struct statx status;
    long result = syscall(SYS_statx, directory, path, flags, STATX_TYPE | STATX_MODE | STATX_UID | STATX_INO, &status);
    if (result == 0) {
        identity->is_regular_file = S_ISREG(status.stx_mode);
        identity->permissions = status.stx_mode & 07777;
        identity->owner = status.stx_uid;
        identity->device = ((uint64_t)status.stx_dev_major << 32) | status.stx_dev_minor;
        identity->inode = status.stx_ino;
        return 0;
    }
    if (errno != ENOSYS && errno != EPERM) return -1;
#endif
    return cfilestatus_read_identity_by_stat(directory, path, flags, identity);
}

#endif
