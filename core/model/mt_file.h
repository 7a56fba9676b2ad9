/* mt_file.h — opening the files a user names for reading. */
#ifndef MT_FILE_H
#define MT_FILE_H

#include <stdio.h>

#include "motus/error.h"

/* Opens PATH for reading ("rb") if it is a regular file. A FIFO, device,
 * socket or directory is refused with a message naming the path (reading
 * /dev/zero or a FIFO would never end, or block forever); the open itself
 * never blocks. NULL with err set (MT_ERR_IO) on failure. */
FILE *mt_file_open_regular(const char *path, MtError *err);

/* The same check for a path opened by someone else (SQLite): MT_OK when PATH
 * is a regular file or does not exist, MT_ERR_IO with the message otherwise. */
MtStatus mt_file_check_regular(const char *path, MtError *err);

/* The whole of a regular file, NUL-terminated, its length in *len (free()
 * it); NULL with err naming the path. */
char *mt_file_read_all(const char *path, size_t *len, MtError *err);

#endif
