/*
 * An LD_PRELOAD shim for the tests that interrupt `ipreuse --in-place` in the middle of its
 * write (tests/it/cli_fs.rs): it slows `fsync` and `fdatasync` of regular files down, so that
 * a test can send a signal while the temp files are being written. The product has no hook
 * for this; the shim wraps the C library's calls from the outside.
 *
 *   SLOW_FSYNC_MS=N     wait N ms before each fsync/fdatasync of a regular file (a signal that
 *                       arrives ends the wait early: nanosleep returns on EINTR)
 *   SLOW_FSYNC_LOG=PATH append one line per slowed call to PATH before waiting, so that a test
 *                       knows the process is inside the write (and that the shim was loaded)
 *
 * Folders are not slowed down (the syncs after the renames). Built by
 * tests/it/support/slow_fsync.rs with `cc -shared -fPIC`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void slow_down(const char *call, int fd)
{
    const char *ms_text = getenv("SLOW_FSYNC_MS");
    if (ms_text == NULL)
        return;
    long ms = strtol(ms_text, NULL, 10);
    struct stat st;
    if (ms <= 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    int saved = errno;
    const char *log = getenv("SLOW_FSYNC_LOG");
    if (log != NULL) {
        int out = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (out >= 0) {
            char line[64];
            int n = snprintf(line, sizeof line, "%s %ld ms\n", call, ms);
            if (n > 0 && write(out, line, (size_t)n) < 0) {
                /* the test sees no line and fails; nothing to do here */
            }
            close(out);
        }
    }
    struct timespec wait = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&wait, NULL);
    errno = saved;
}

int fsync(int fd)
{
    static int (*real)(int);
    if (real == NULL)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow_down("fsync", fd);
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    if (real == NULL)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow_down("fdatasync", fd);
    return real(fd);
}
