/* motus-frame-store.c — frames in blocks, full blocks spilled to an unlinked
 * file (see motus-frame-store.h).
 *
 * In memory a block of B frames is B rows of `stride` doubles, which the
 * solver's frame callback fills in place. In the file it is transposed: first
 * the B rows of time and poses (P = 1 + 7 nbody doubles each, so a frame's
 * poses are one read), then each result column's B values in a row (a column
 * of a block is one read). The writer transposes a full block in one pass, 8
 * frames at a time (whole cache lines written), which cost a third of what
 * scattering each frame's values into place did. Block k lies at k * slot
 * bytes in the file, whether full or not. The writer reuses the buffer of the
 * block it just spilled for the next one, so a long run touches the same
 * buffers' pages instead of faulting in fresh memory every frame. */
#include "motus-frame-store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Memory of one block (its frames: at least 16, at most 256): about 1 MiB, so
 * that the block being filled stays small for big models and a column read
 * from the file is still a few hundred reads for 10 000 frames. */
#define BLOCK_BYTES ((gsize)1 << 20)
/* Columns asked for one value at a time are kept whole up to this much (the
 * teaching overlay's reactions of a 100-joint chain over 10 001 frames: 24 MB);
 * a cached column unused for CACHE_STALE_US may give way to another. */
#define CACHE_BYTES ((gsize)32 << 20)
#define CACHE_STALE_US G_USEC_PER_SEC

typedef struct {
    double *v;
    guint len, cap; /* frames held, room */
    gint64 used;    /* when last read (monotonic µs) */
} Column;

struct MotusFrameStore {
    GMutex lock;
    int nbody, ncol, P, stride; /* P: time and poses; stride: P + ncol */
    guint B;                    /* frames a block */
    gsize slot;                 /* bytes a block */
    int fd;                     /* the spill file, -1: none */
    char *dir;                  /* the folder it is in */
    gboolean spill_failed;      /* a write failed: later blocks stay in memory */
    GPtrArray *blocks;          /* double[B * stride] per block, NULL once in the file (lock held to change) */
    double *spare;              /* writer: a spilled block's buffer, for the next block */
    double *out;                /* writer: a block transposed for the file */
    gsize writer_bytes;         /* blocks in memory, spare and out (lock held to change) */
    double *times;              /* every frame's time */
    gsize tcap;
    int nframes;                /* atomic: frames below it are complete */
    GHashTable *cache;          /* col + 1 -> Column* */
    gsize cached_bytes;
};

static void column_free(gpointer p)
{
    Column *c = p;
    g_free(c->v);
    g_free(c);
}

/* The spill file, in the user's cache folder (on disk where the temporary
 * folder may be in memory, tmpfs), else in the temporary folder; unlinked at
 * once, so it goes with the descriptor, even if the program is killed. */
static void open_spill(MotusFrameStore *fs)
{
    char *dirs[] = {g_build_filename(g_get_user_cache_dir(), "motus", NULL), g_strdup(g_get_tmp_dir())};
    fs->fd = -1;
    for (int k = 0; k < 2; k++) {
        char *tmpl = g_build_filename(dirs[k], "frames-XXXXXX", NULL);
        if (fs->fd < 0 && g_mkdir_with_parents(dirs[k], 0700) == 0 && (fs->fd = g_mkstemp_full(tmpl, O_RDWR, 0600)) >= 0) {
            g_unlink(tmpl);
            fs->dir = g_strdup(dirs[k]);
        }
        g_free(tmpl);
        g_free(dirs[k]);
    }
}

MotusFrameStore *motus_frame_store_new(void)
{
    MotusFrameStore *fs = g_new0(MotusFrameStore, 1);
    g_mutex_init(&fs->lock);
    fs->blocks = g_ptr_array_new_with_free_func(g_free);
    fs->cache = g_hash_table_new_full(NULL, NULL, NULL, column_free);
    open_spill(fs);
    return fs;
}

static void drop_writer(MotusFrameStore *fs)
{
    g_mutex_lock(&fs->lock);
    g_clear_pointer(&fs->spare, g_free);
    g_clear_pointer(&fs->out, g_free);
    fs->writer_bytes = 0;
    for (guint k = 0; k < fs->blocks->len; k++) fs->writer_bytes += g_ptr_array_index(fs->blocks, k) ? fs->slot : 0;
    g_mutex_unlock(&fs->lock);
}

void motus_frame_store_free(MotusFrameStore *fs)
{
    if (!fs) return;
    if (fs->fd >= 0) close(fs->fd);
    g_free(fs->dir);
    g_ptr_array_unref(fs->blocks);
    g_hash_table_unref(fs->cache);
    g_free(fs->spare);
    g_free(fs->out);
    g_free(fs->times);
    g_mutex_clear(&fs->lock);
    g_free(fs);
}

void motus_frame_store_reset(MotusFrameStore *fs, int nbody, int ncol)
{
    g_mutex_lock(&fs->lock);
    g_ptr_array_set_size(fs->blocks, 0);
    g_hash_table_remove_all(fs->cache);
    fs->cached_bytes = 0;
    g_clear_pointer(&fs->spare, g_free);
    g_clear_pointer(&fs->out, g_free);
    g_clear_pointer(&fs->times, g_free);
    fs->tcap = 0;
    fs->writer_bytes = 0;
    fs->nbody = MAX(nbody, 0), fs->ncol = MAX(ncol, 0);
    fs->P = 1 + 7 * fs->nbody;
    fs->stride = fs->P + fs->ncol;
    fs->B = (guint)CLAMP(BLOCK_BYTES / ((gsize)fs->stride * sizeof(double)), 16, 256) & ~7u; /* whole 8-frame tiles */
    fs->slot = (gsize)fs->B * (gsize)fs->stride * sizeof(double);
    fs->spill_failed = FALSE;
    /* the file is not emptied: the next run writes over the last one's pages, still in the page cache, where
     * fresh pages cost the writer up to ten times as much on the test VM (trim gives back what it does not
     * use) */
    g_atomic_int_set(&fs->nframes, 0);
    g_mutex_unlock(&fs->lock);
}

gboolean motus_frame_store_spills(const MotusFrameStore *fs) { return fs->fd >= 0 && !fs->spill_failed; }

const char *motus_frame_store_dir(const MotusFrameStore *fs) { return fs->dir; }

guint64 motus_frame_store_disk_free(const MotusFrameStore *fs)
{
    struct statvfs v;
    if (fs->fd < 0 || fstatvfs(fs->fd, &v)) return 0;
    return (guint64)v.f_bavail * (guint64)v.f_frsize;
}

/* ---- the file ------------------------------------------------------------------ */

/* Written 16 KiB at a time: for a larger write the kernel makes large page
 * cache folios, taken from the high-order free blocks that a virtual
 * machine's balloon hands back to the host, and their first touch is slow.
 * Writing a 100-body run's 300 MB in 1 MiB pieces took 0.06–0.6 s of the
 * writer's CPU from one process to the next on the test VM, in 16 KiB pieces
 * a steady 0.11 s, as writing anonymous memory does. */
#define WRITE_PIECE ((gsize)16 << 10)

static gboolean write_all(int fd, const void *buf, gsize n, gint64 off)
{
    const char *p = buf;
    while (n) {
        ssize_t w = pwrite(fd, p, MIN(n, WRITE_PIECE), (off_t)off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return FALSE;
        p += w, n -= (gsize)w, off += w;
    }
    return TRUE;
}

static gboolean read_all(int fd, void *buf, gsize n, gint64 off)
{
    char *p = buf;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return FALSE;
        p += r, n -= (gsize)r, off += r;
    }
    return TRUE;
}

/* count doubles of spilled block k from offset off (in doubles, the file's
 * layout), NAN-filled when the file cannot be read. */
static void read_file(MotusFrameStore *fs, guint k, gsize off, gsize count, double *out)
{
    if (fs->fd >= 0 && read_all(fs->fd, out, count * sizeof(double), (gint64)k * (gint64)fs->slot + (gint64)(off * sizeof(double))))
        return;
    for (gsize i = 0; i < count; i++) out[i] = NAN;
}

/* The poses of frame i (lock held). */
static void read_poses(MotusFrameStore *fs, guint i, double *poses)
{
    guint k = i / fs->B, r = i % fs->B;
    const double *b = g_ptr_array_index(fs->blocks, k);
    if (b)
        memcpy(poses, b + (gsize)r * fs->stride + 1, 7 * (gsize)fs->nbody * sizeof(double));
    else
        read_file(fs, k, (gsize)r * fs->P + 1, 7 * (gsize)fs->nbody, poses);
}

/* Values of column col for frames from .. from + n - 1, all below n_frames,
 * block by block (lock held). */
static void read_column(MotusFrameStore *fs, int col, guint from, guint n, double *v)
{
    for (guint i = from; i < from + n;) {
        guint k = i / fs->B, r = i % fs->B, m = MIN(fs->B - r, from + n - i);
        const double *b = g_ptr_array_index(fs->blocks, k);
        if (b)
            for (guint j = 0; j < m; j++) v[i - from + j] = b[(gsize)(r + j) * fs->stride + fs->P + col];
        else
            read_file(fs, k, (gsize)fs->B * fs->P + (gsize)col * fs->B + r, m, v + (i - from));
        i += m;
    }
}

/* Block b in the file's layout into out: the rows' time and poses, then each
 * column's values, 8 frames at a time (a cache line of each column). */
static void transpose(const MotusFrameStore *fs, const double *b, double *out)
{
    gsize P = (gsize)fs->P, S = (gsize)fs->stride, B = fs->B;
    for (gsize r = 0; r < B; r++) memcpy(out + r * P, b + r * S, P * sizeof(double));
    double *cols = out + B * P;
    for (gsize r0 = 0; r0 < B; r0 += 8) {
        const double *src = b + r0 * S + P;
        for (gsize c = 0; c < (gsize)fs->ncol; c++) {
            double *d = cols + c * B + r0;
            for (gsize j = 0; j < 8; j++) d[j] = src[j * S + c];
        }
    }
}

/* Writer: block k to the file, its buffer kept for the next block; it stays
 * in memory when the file cannot take it. */
static void spill_block(MotusFrameStore *fs, guint k)
{
    double *b = g_ptr_array_index(fs->blocks, k);
    if (!b || !motus_frame_store_spills(fs)) return;
    if (!fs->out) {
        double *o = g_try_malloc0(fs->slot);
        if (!o) return;
        g_mutex_lock(&fs->lock);
        fs->out = o;
        fs->writer_bytes += fs->slot;
        g_mutex_unlock(&fs->lock);
    }
    transpose(fs, b, fs->out);
    if (!write_all(fs->fd, fs->out, fs->slot, (gint64)k * (gint64)fs->slot)) {
        fs->spill_failed = TRUE;
        return;
    }
    g_mutex_lock(&fs->lock);
    g_ptr_array_index(fs->blocks, k) = NULL; /* readers go to the file from now on */
    if (!fs->spare) fs->spare = b;
    else {
        g_free(b);
        fs->writer_bytes -= fs->slot;
    }
    g_mutex_unlock(&fs->lock);
}

/* ---- writer -------------------------------------------------------------------- */

double *motus_frame_store_row(MotusFrameStore *fs)
{
    guint n = (guint)g_atomic_int_get(&fs->nframes), k = n / fs->B;
    if (k >= fs->blocks->len) {
        /* zeroed: the unused rows of a last, partial block are written to the file too */
        double *b = fs->spare ? fs->spare : g_try_malloc0(fs->slot);
        if (!b) return NULL;
        g_mutex_lock(&fs->lock);
        if (b != fs->spare) fs->writer_bytes += fs->slot;
        fs->spare = NULL;
        g_ptr_array_add(fs->blocks, b);
        g_mutex_unlock(&fs->lock);
    }
    /* the writer's own: rows at and above n are read by no one */
    return (double *)g_ptr_array_index(fs->blocks, k) + (gsize)(n % fs->B) * (gsize)fs->stride;
}

gboolean motus_frame_store_append(MotusFrameStore *fs)
{
    guint n = (guint)g_atomic_int_get(&fs->nframes), k = n / fs->B;
    if (n >= fs->tcap) { /* the time index grows under the lock: readers search it */
        gsize cap = MAX((gsize)1024, 2 * fs->tcap);
        g_mutex_lock(&fs->lock);
        double *t = g_try_realloc(fs->times, cap * sizeof(double));
        if (t) fs->times = t, fs->tcap = cap;
        g_mutex_unlock(&fs->lock);
        if (!t) return FALSE;
    }
    fs->times[n] = ((const double *)g_ptr_array_index(fs->blocks, k))[(gsize)(n % fs->B) * (gsize)fs->stride];
    g_atomic_int_set(&fs->nframes, (int)n + 1); /* a full barrier: the row is written before it is counted */
    if ((n + 1) % fs->B == 0) spill_block(fs, k);
    return TRUE;
}

void motus_frame_store_trim(MotusFrameStore *fs)
{
    guint n = (guint)g_atomic_int_get(&fs->nframes);
    if (n) spill_block(fs, (n - 1) / fs->B);
    drop_writer(fs);
    /* what an earlier, longer run left beyond this one's frames gives back its disk */
    if (motus_frame_store_spills(fs) && ftruncate(fs->fd, (off_t)fs->blocks->len * (off_t)fs->slot)) fs->spill_failed = TRUE;
}

/* ---- readers ------------------------------------------------------------------- */

guint motus_frame_store_n_frames(MotusFrameStore *fs) { return (guint)g_atomic_int_get(&fs->nframes); }

double motus_frame_store_time(MotusFrameStore *fs, guint i)
{
    double t = NAN;
    g_mutex_lock(&fs->lock);
    if (i < motus_frame_store_n_frames(fs)) t = fs->times[i];
    g_mutex_unlock(&fs->lock);
    return t;
}

gboolean motus_frame_store_frame(MotusFrameStore *fs, guint i, double *t, double *poses)
{
    g_mutex_lock(&fs->lock);
    gboolean ok = i < motus_frame_store_n_frames(fs);
    if (ok && t) *t = fs->times[i];
    if (ok && poses) read_poses(fs, i, poses);
    g_mutex_unlock(&fs->lock);
    return ok;
}

guint motus_frame_store_frame_at(MotusFrameStore *fs, double t)
{
    g_mutex_lock(&fs->lock);
    guint n = motus_frame_store_n_frames(fs), lo = 0, hi = n;
    while (hi - lo > 1) { /* the last frame with time <= t */
        guint mid = (lo + hi) / 2;
        if (fs->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    g_mutex_unlock(&fs->lock);
    return lo;
}

/* Drops columns not read for a while until need more bytes fit in the cache
 * (lock held); FALSE when they still do not. */
static gboolean make_room(MotusFrameStore *fs, gsize need, gint64 now)
{
    GHashTableIter it;
    gpointer key, val;
    g_hash_table_iter_init(&it, fs->cache);
    while (fs->cached_bytes + need > CACHE_BYTES && g_hash_table_iter_next(&it, &key, &val)) {
        Column *o = val;
        if (now - o->used < CACHE_STALE_US) continue;
        fs->cached_bytes -= o->cap * sizeof(double);
        g_hash_table_iter_remove(&it);
    }
    return fs->cached_bytes + need <= CACHE_BYTES;
}

/* The cached column col brought up to the frames stored, or NULL when it is
 * not cached and there is no room for it (lock held). */
static Column *cached(MotusFrameStore *fs, int col, guint total)
{
    gint64 now = g_get_monotonic_time();
    Column *c = g_hash_table_lookup(fs->cache, GINT_TO_POINTER(col + 1));
    if (c) c->used = now; /* not dropped to make room for itself */
    if (!c || total > c->cap) {
        guint cap = MAX(total, MAX(1024u, c ? 2 * c->cap : 0));
        gsize more = (gsize)(cap - (c ? c->cap : 0)) * sizeof(double);
        double *v = make_room(fs, more, now) ? g_try_realloc(c ? c->v : NULL, (gsize)cap * sizeof(double)) : NULL;
        if (!v) { /* no room: read one value at a time */
            if (c) fs->cached_bytes -= c->cap * sizeof(double);
            if (c) g_hash_table_remove(fs->cache, GINT_TO_POINTER(col + 1));
            return NULL;
        }
        if (!c) {
            c = g_new0(Column, 1);
            g_hash_table_insert(fs->cache, GINT_TO_POINTER(col + 1), c);
        }
        fs->cached_bytes += more;
        c->v = v, c->cap = cap, c->used = now;
    }
    if (total > c->len) read_column(fs, col, c->len, total - c->len, c->v + c->len);
    c->len = MAX(c->len, total);
    return c;
}

double motus_frame_store_value(MotusFrameStore *fs, int col, guint i)
{
    double v = NAN;
    g_mutex_lock(&fs->lock);
    guint total = motus_frame_store_n_frames(fs);
    if (col >= 0 && col < fs->ncol && i < total) {
        Column *c = cached(fs, col, total);
        if (c)
            v = c->v[i];
        else
            read_column(fs, col, i, 1, &v);
    }
    g_mutex_unlock(&fs->lock);
    return v;
}

guint motus_frame_store_copy_column(MotusFrameStore *fs, int col, guint from, guint n, double *t, double *v)
{
    if (col < 0 || col >= fs->ncol) return 0;
    g_mutex_lock(&fs->lock);
    guint total = motus_frame_store_n_frames(fs), k = from < total ? MIN(n, total - from) : 0;
    if (k && t) memcpy(t, fs->times + from, (gsize)k * sizeof(double));
    Column *c = k && v ? g_hash_table_lookup(fs->cache, GINT_TO_POINTER(col + 1)) : NULL;
    if (c && from + k <= c->len)
        memcpy(v, c->v + from, (gsize)k * sizeof(double));
    else if (k && v)
        read_column(fs, col, from, k, v);
    g_mutex_unlock(&fs->lock);
    return k;
}

gsize motus_frame_store_bytes_held(MotusFrameStore *fs)
{
    g_mutex_lock(&fs->lock);
    gsize b = fs->writer_bytes + fs->tcap * sizeof(double) + fs->cached_bytes;
    g_mutex_unlock(&fs->lock);
    return b;
}
