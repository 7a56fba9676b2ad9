/* test_file.c — mt_file_open_regular (core/model/mt_file.c): regular files open,
 * a FIFO, a device and a directory are refused at once with a message naming
 * the path, and so are the model and project readers that use it. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mt_file.h"
#include "motus/store.h"
#include "mt_test.h"

int main(void)
{
    char dir[] = "/tmp/mt_file_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "temporary directory");
    char fifo[64], reg[64];
    snprintf(fifo, sizeof fifo, "%s/model.fifo", dir);
    snprintf(reg, sizeof reg, "%s/model.txt", dir);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
    FILE *w = fopen(reg, "w");
    fputs("body b\nend\n", w);
    fclose(w);

    MtError err = {0};
    FILE *f = mt_file_open_regular(reg, &err);
    CHECK(f != NULL && err.code == MT_OK, "a regular file opens");
    char buf[16] = "";
    CHECK(f && fgets(buf, sizeof buf, f) && !strcmp(buf, "body b\n"), "and reads: '%s'", buf);
    if (f) fclose(f);

    /* without the check this open (no writer) blocks for ever */
    f = mt_file_open_regular(fifo, &err);
    CHECK(!f && err.code == MT_ERR_IO && strstr(err.msg, "pipe (FIFO)") && strstr(err.msg, fifo), "FIFO refused: %s", err.msg);
    mt_error_clear(&err);
    f = mt_file_open_regular("/dev/zero", &err);
    CHECK(!f && strstr(err.msg, "device") && strstr(err.msg, "/dev/zero"), "/dev/zero refused: %s", err.msg);
    mt_error_clear(&err);
    f = mt_file_open_regular(dir, &err);
    CHECK(!f && strstr(err.msg, "directory"), "directory refused: %s", err.msg);
    mt_error_clear(&err);
    f = mt_file_open_regular("/nonexistent/x", &err);
    CHECK(!f && strstr(err.msg, "cannot open '/nonexistent/x'"), "missing file: %s", err.msg);

    /* the readers built on it: a text model and a project */
    mt_error_clear(&err);
    MtModel *m = mt_model_load(fifo, &err);
    CHECK(!m && strstr(err.msg, "pipe (FIFO)"), "mt_model_load of a FIFO refused: %s", err.msg);
    mt_model_free(m);
    CHECK(!mt_store_is_sqlite_file(fifo), "a FIFO is no SQLite file (and the test does not block)");
    mt_error_clear(&err);
    MtStore *s = mt_store_open(fifo, MT_STORE_READONLY, &err);
    CHECK(!s && strstr(err.msg, "pipe (FIFO)"), "mt_store_open of a FIFO refused: %s", err.msg);
    mt_error_clear(&err);
    s = mt_store_open("/dev/zero", 0, &err);
    CHECK(!s && strstr(err.msg, "/dev/zero"), "mt_store_open of /dev/zero refused: %s", err.msg);

    unlink(fifo);
    unlink(reg);
    rmdir(dir);
    return mt_test_done();
}
