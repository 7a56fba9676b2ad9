/* mt_file.c — the files a user names, read: regular files only, and whole. */
#include "mt_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mt_i18n.h"

static MtStatus refuse_kind(const char *path, mode_t mode, MtError *err)
{
    if (S_ISDIR(mode)) return mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s': it is a directory, not a file"), path);
    if (S_ISFIFO(mode))
        return mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s': it is a pipe (FIFO), not a regular file"), path);
    return mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s': it is a device or socket, not a regular file"), path);
}

FILE *mt_file_open_regular(const char *path, MtError *err)
{
    /* O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s': %s"), path, strerror(e));
        return NULL;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s': %s"), path, strerror(e));
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        refuse_kind(path, sb.st_mode, err);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s': %s"), path, strerror(e));
    }
    return f;
}

MtStatus mt_file_check_regular(const char *path, MtError *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return MT_OK; /* missing: the caller says so (or creates it) */
    if (!S_ISREG(sb.st_mode)) return refuse_kind(path, sb.st_mode, err);
    return MT_OK;
}

char *mt_file_read_all(const char *path, size_t *len, MtError *err)
{
    FILE *f = mt_file_open_regular(path, err); /* /dev/zero, a FIFO or a directory would never end or block */
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            char *q = realloc(buf, 2 * cap + 1);
            if (!q) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = q, cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (!r) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        mt_error_set(err, buf ? MT_ERR_IO : MT_ERR_NOMEM, path, MT_("cannot read '%s'"), path);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
