/* mt_fe_io.c — binary form of a reduced flexible body (mt_fe_reduce.h), to be
 * kept as a BLOB in the project store or in a file.
 *
 * Layout (little-endian):
 *   "MTFLEX\0\0"  8 bytes magic
 *   u32 version (1), u32 section count
 *   sections: u32 tag, u32 element type (1 int32, 2 float64, 3 float32),
 *             u64 element count, the elements.
 * Section tags are listed in the table below; the counts of the arrays
 * follow from the integer header section (tag 1), and the reader checks every
 * count against them, so a damaged buffer is an error, never a crash. Unknown
 * tags are skipped (newer writers may add sections). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_fe_reduce.h"
#include "mt_i18n.h"

enum { T_I32 = 1, T_F64 = 2, T_F32 = 3 };
enum {
    S_HEAD = 1, S_SCAL, S_FREQ, S_KR, S_MR, S_ZETA, S_RFREQ, S_FFREQ, S_FMEFF, S_IFID, S_IFX, S_IFH,
    S_S1, S_IR, S_MWW, S_I1, S_I2, S_SW, S_SVID, S_SVX, S_ST, S_SEG, S_SVH, S_SVVM, S_SVSIG, S_KG, S_KW
};
#define NHEAD 8 /* method nmode nrigid nfix nif nsv nst nseg */
#define NSCAL 15 /* alpha beta mass s0[3] I0[9] */

static int little_endian(void)
{
    uint16_t x = 1;
    unsigned char c;
    memcpy(&c, &x, 1);
    return c == 1;
}

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int fail;
} Buf;

static void put(Buf *b, const void *src, size_t size, size_t count)
{
    size_t len = size * count;
    if (b->fail || !count) return; /* an empty section (modes 0): src may be NULL, memcpy must not see it */
    if (len / count != size) {
        b->fail = 1;
        return;
    }
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + len) cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->fail = 1;
            return;
        }
        b->p = q, b->cap = cap;
    }
    if (little_endian() || size == 1) memcpy(b->p + b->n, src, len);
    else
        for (size_t i = 0; i < count; i++)
            for (size_t k = 0; k < size; k++) b->p[b->n + i * size + k] = ((const unsigned char *)src)[i * size + size - 1 - k];
    b->n += len;
}

static void section(Buf *b, uint32_t tag, uint32_t type, const void *data, size_t count, uint32_t *nsec)
{
    if (!data && count) count = 0;
    uint64_t c = count;
    put(b, &tag, 4, 1);
    put(b, &type, 4, 1);
    put(b, &c, 8, 1);
    put(b, data, type == T_F64 ? 8 : 4, count);
    (*nsec)++;
}

void *mt_flex_body_serialize(const MtFlexBody *fb, size_t *size, MtError *err)
{
    Buf b = {0};
    uint32_t version = 1, nsec = 0;
    put(&b, "MTFLEX\0\0", 1, 8);
    put(&b, &version, 4, 1);
    size_t nsec_at = b.n;
    put(&b, &nsec, 4, 1);
    size_t N = (size_t)fb->nmode, nif = (size_t)fb->nif, nsv = (size_t)fb->nsv;
    int32_t head[NHEAD] = {fb->method, fb->nmode, fb->nrigid, fb->nfix, fb->nif, fb->nsv, fb->nst, fb->nseg};
    double scal[NSCAL] = {fb->alpha, fb->beta, fb->mass};
    memcpy(scal + 3, fb->s0, sizeof fb->s0);
    memcpy(scal + 6, fb->I0, sizeof fb->I0);
    section(&b, S_HEAD, T_I32, head, NHEAD, &nsec);
    section(&b, S_SCAL, T_F64, scal, NSCAL, &nsec);
    section(&b, S_FREQ, T_F64, fb->freq, N, &nsec);
    section(&b, S_KR, T_F64, fb->Kr, N * N, &nsec);
    section(&b, S_MR, T_F64, fb->Mr, N * N, &nsec);
    section(&b, S_ZETA, T_F64, fb->zeta, N, &nsec);
    section(&b, S_RFREQ, T_F64, fb->rigid_freq, (size_t)fb->nrigid, &nsec);
    section(&b, S_FFREQ, T_F64, fb->fix_freq, (size_t)fb->nfix, &nsec);
    section(&b, S_FMEFF, T_F64, fb->fix_meff, 6 * (size_t)fb->nfix, &nsec);
    section(&b, S_IFID, T_I32, fb->if_id, nif, &nsec);
    section(&b, S_IFX, T_F64, fb->if_x, 3 * nif, &nsec);
    section(&b, S_IFH, T_F64, fb->if_H, 6 * nif * N, &nsec);
    section(&b, S_S1, T_F64, fb->S1, 3 * N, &nsec);
    section(&b, S_IR, T_F64, fb->Ir, 3 * N, &nsec);
    section(&b, S_MWW, T_F64, fb->Mww, N * N, &nsec);
    section(&b, S_I1, T_F64, fb->I1, 9 * N, &nsec);
    section(&b, S_I2, T_F64, fb->I2, 9 * N * N, &nsec);
    section(&b, S_SW, T_F64, fb->Sw, 3 * N * N, &nsec);
    section(&b, S_SVID, T_I32, fb->sv_id, nsv, &nsec);
    section(&b, S_SVX, T_F32, fb->sv_x, 3 * nsv, &nsec);
    section(&b, S_ST, T_I32, fb->st, 3 * (size_t)fb->nst, &nsec);
    section(&b, S_SEG, T_I32, fb->seg, 2 * (size_t)fb->nseg, &nsec);
    section(&b, S_SVH, T_F32, fb->sv_H, 3 * nsv * N, &nsec);
    section(&b, S_SVVM, T_F32, fb->sv_vm, nsv * N, &nsec);
    section(&b, S_SVSIG, T_F32, fb->sv_sig, 6 * nsv * N, &nsec);
    if (fb->Kg) section(&b, S_KG, T_F64, fb->Kg, MT_FLEX_NKG * N * N, &nsec);
    if (fb->Kw) section(&b, S_KW, T_F64, fb->Kw, N * N * N, &nsec);
    if (b.fail) {
        free(b.p);
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory writing the flexible body"));
        return NULL;
    }
    Buf fix = {b.p + nsec_at, 0, 4, 0}; /* patch the section count in place */
    put(&fix, &nsec, 4, 1);
    *size = b.n;
    return b.p;
}

static void get(const unsigned char *src, void *dst, size_t size, size_t count)
{
    if (little_endian() || size == 1) memcpy(dst, src, size * count);
    else
        for (size_t i = 0; i < count; i++)
            for (size_t k = 0; k < size; k++) ((unsigned char *)dst)[i * size + k] = src[i * size + size - 1 - k];
}

static int damaged(MtError *err, const char *what)
{
    mt_error_set(err, MT_ERR_SYNTAX, "", MT_("flexible body data is damaged or truncated (%s)"), what);
    return -1;
}

MtFlexBody *mt_flex_body_deserialize(const void *buf, size_t size, MtError *err)
{
    const unsigned char *p = buf;
    if (size < 16 || memcmp(p, "MTFLEX\0\0", 8)) {
        damaged(err, "no MTFLEX header");
        return NULL;
    }
    uint32_t version, nsec;
    get(p + 8, &version, 4, 1);
    get(p + 12, &nsec, 4, 1);
    if (version != 1) {
        mt_error_set(err, MT_ERR_SYNTAX, "", MT_("flexible body data of version %u is not supported"), (unsigned)version);
        return NULL;
    }
    MtFlexBody *b = calloc(1, sizeof *b);
    if (!b) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory"));
        return NULL;
    }
    size_t off = 16;
    int have_head = 0;
    size_t N = 0, nif = 0, nsv = 0, nst = 0, nseg = 0, nr = 0, nfix = 0;
    for (uint32_t s = 0; s < nsec; s++) {
        if (size - off < 16) {
            damaged(err, "section header");
            goto fail;
        }
        uint32_t tag, type;
        uint64_t count;
        get(p + off, &tag, 4, 1);
        get(p + off + 4, &type, 4, 1);
        get(p + off + 8, &count, 8, 1);
        off += 16;
        size_t es = type == T_F64 ? 8 : type == T_I32 || type == T_F32 ? 4 : 0;
        if (!es || count > (size - off) / es) {
            damaged(err, "section size");
            goto fail;
        }
        const unsigned char *data = p + off;
        off += (size_t)count * es;
        if (tag == S_HEAD) {
            int32_t h[NHEAD];
            if (type != T_I32 || count != NHEAD) {
                damaged(err, "header");
                goto fail;
            }
            get(data, h, 4, NHEAD);
            for (int k = 0; k < NHEAD; k++)
                if (h[k] < 0 || h[k] > 100000000) {
                    damaged(err, "header values");
                    goto fail;
                }
            b->method = h[0], b->nmode = h[1], b->nrigid = h[2], b->nfix = h[3], b->nif = h[4], b->nsv = h[5];
            b->nst = h[6], b->nseg = h[7];
            N = (size_t)h[1], nr = (size_t)h[2], nfix = (size_t)h[3], nif = (size_t)h[4], nsv = (size_t)h[5];
            nst = (size_t)h[6], nseg = (size_t)h[7];
            if (N > 100000 || nsv * N > ((size_t)1 << 34)) {
                damaged(err, "sizes");
                goto fail;
            }
            have_head = 1;
            continue;
        }
        if (!have_head) {
            damaged(err, "header missing");
            goto fail;
        }
        void **dst = NULL;
        size_t want = 0;
        uint32_t wtype = T_F64;
        switch (tag) {
        case S_SCAL: {
            double sc[NSCAL];
            if (type != T_F64 || count != NSCAL) {
                damaged(err, "scalars");
                goto fail;
            }
            get(data, sc, 8, NSCAL);
            b->alpha = sc[0], b->beta = sc[1], b->mass = sc[2];
            memcpy(b->s0, sc + 3, sizeof b->s0);
            memcpy(b->I0, sc + 6, sizeof b->I0);
            continue;
        }
        case S_FREQ: dst = (void **)&b->freq, want = N; break;
        case S_KR: dst = (void **)&b->Kr, want = N * N; break;
        case S_MR: dst = (void **)&b->Mr, want = N * N; break;
        case S_ZETA: dst = (void **)&b->zeta, want = N; break;
        case S_RFREQ: dst = (void **)&b->rigid_freq, want = nr; break;
        case S_FFREQ: dst = (void **)&b->fix_freq, want = nfix; break;
        case S_FMEFF: dst = (void **)&b->fix_meff, want = 6 * nfix; break;
        case S_IFID: dst = (void **)&b->if_id, want = nif, wtype = T_I32; break;
        case S_IFX: dst = (void **)&b->if_x, want = 3 * nif; break;
        case S_IFH: dst = (void **)&b->if_H, want = 6 * nif * N; break;
        case S_S1: dst = (void **)&b->S1, want = 3 * N; break;
        case S_IR: dst = (void **)&b->Ir, want = 3 * N; break;
        case S_MWW: dst = (void **)&b->Mww, want = N * N; break;
        case S_I1: dst = (void **)&b->I1, want = 9 * N; break;
        case S_I2: dst = (void **)&b->I2, want = 9 * N * N; break;
        case S_SW: dst = (void **)&b->Sw, want = 3 * N * N; break;
        case S_SVID: dst = (void **)&b->sv_id, want = nsv, wtype = T_I32; break;
        case S_SVX: dst = (void **)&b->sv_x, want = 3 * nsv, wtype = T_F32; break;
        case S_ST: dst = (void **)&b->st, want = 3 * nst, wtype = T_I32; break;
        case S_SEG: dst = (void **)&b->seg, want = 2 * nseg, wtype = T_I32; break;
        case S_SVH: dst = (void **)&b->sv_H, want = 3 * nsv * N, wtype = T_F32; break;
        case S_SVVM: dst = (void **)&b->sv_vm, want = nsv * N, wtype = T_F32; break;
        case S_SVSIG: dst = (void **)&b->sv_sig, want = 6 * nsv * N, wtype = T_F32; break;
        case S_KG: dst = (void **)&b->Kg, want = MT_FLEX_NKG * N * N; break;
        case S_KW: dst = (void **)&b->Kw, want = N * N * N; break;
        default: continue; /* unknown section: skip */
        }
        if (type != wtype || (count != want && count != 0) || *dst) {
            damaged(err, "array size");
            goto fail;
        }
        if (count == 0) continue;
        *dst = malloc((size_t)count * es);
        if (!*dst) {
            mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory"));
            goto fail;
        }
        get(data, *dst, es, (size_t)count);
    }
    if (!have_head || !b->freq || (N && (!b->Kr || !b->Mr))) {
        damaged(err, "required sections missing");
        goto fail;
    }
    /* index arrays must point inside */
    for (size_t i = 0; b->st && i < 3 * nst; i++)
        if (b->st[i] < 0 || (size_t)b->st[i] >= nsv) {
            damaged(err, "triangle index");
            goto fail;
        }
    for (size_t i = 0; b->seg && i < 2 * nseg; i++)
        if (b->seg[i] < 0 || (size_t)b->seg[i] >= nsv) {
            damaged(err, "segment index");
            goto fail;
        }
    if ((nst && !b->st) || (nseg && !b->seg) || (nsv && (!b->sv_x || !b->sv_id))) {
        damaged(err, "surface sections missing");
        goto fail;
    }
    return b;
fail:
    mt_flex_body_free(b);
    return NULL;
}

MtStatus mt_flex_body_save(const MtFlexBody *b, const char *path, MtError *err)
{
    size_t n;
    void *buf = mt_flex_body_serialize(b, &n, err);
    if (!buf) return err ? err->code : MT_ERR_NOMEM;
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(buf);
        return mt_error_set(err, MT_ERR_IO, path, MT_("cannot write '%s'"), path);
    }
    int ok = fwrite(buf, 1, n, f) == n;
    ok &= fclose(f) == 0;
    free(buf);
    if (!ok) return mt_error_set(err, MT_ERR_IO, path, MT_("cannot write '%s'"), path);
    return MT_OK;
}

MtFlexBody *mt_flex_body_load(const char *path, MtError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s'"), path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            unsigned char *q = realloc(buf, cap * 2);
            if (!q) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = q, cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s'"), path);
        return NULL;
    }
    MtFlexBody *b = mt_flex_body_deserialize(buf, n, err);
    free(buf);
    return b;
}
