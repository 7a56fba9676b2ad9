/* mt_mesh_bdf.c — Nastran bulk data reader (motus/mesh.h).
 *
 * Two passes. The first splits the text into cards — small field (8
 * columns), large field (16 columns, name ending in '*', continuation lines
 * starting with '*') and free field (commas) — joining continuation lines
 * (a first field that is blank or starts with '+' or '*', or a free-field
 * line starting with ','); the fields are copied into an arena with the line
 * of the card. Bulk data are unordered, so the second pass handles the cards
 * by kind: materials, properties, grids, elements, masses, rigid elements,
 * constraints. Case control before BEGIN BULK is skipped; ENDDATA ends.
 *
 * CBAR/CBEAM: v = (X1, X2, X3) or the direction to grid G0; offsets and pin
 * flags are not supported (refused if nonzero). PBAR: I1 bends in plane 1
 * (the element x–y plane, our Iz), I2 is Iy; K1, K2 blank means no shear
 * flexibility (Euler–Bernoulli). PBEAM: the values at end A, shear factors
 * 1 (Timoshenko). CONM2: the inertia matrix is [I11 −I21 −I31; −I21 I22 −I32;
 * −I31 −I32 I33]; CID blank/0 (offset in basic axes) or −1 (X is the centre
 * of mass). GRID and elements in the basic coordinate system only. CHEXA
 * with 20 grids is the quadratic hexahedron (its mid-edge grids reordered to
 * Motus's, which is Abaqus's). CQUAD8 is the 8-node shell (quad8). A PSHELL
 * without MID2 is membrane only: its CQUAD4 and CQUAD8 are plane-stress
 * membranes (mem4, mem8). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_mesh_text.h"

typedef struct {
    char name[12];
    int line;
    const char *file;
    int first, n; /* fields (data only) in Bdf.fo / fl */
} Card;

typedef struct {
    const char *name; /* top file */
    MtFeModel *m;
    MtError *err;
    Card *card;
    int ncard, ccard;
    size_t *fo;       /* field offsets into arena */
    int *fl;          /* field lengths */
    int nf, cf;
    char *arena;
    size_t na, ca;
    char *files[9];   /* included file names (owned) and buffers */
    char *bufs[9];
    int nfiles;
    /* Nastran ids → indices */
    int *mid, nmid;   /* material ids (index = model material) */
    int *pid, npid;   /* property ids → model prop */
    int *ebeam;       /* element index → 1 if needs an Euler–Bernoulli variant */
    unsigned char *memb; /* model prop → 1 for a PSHELL without MID2 (membrane only) */
    int nmemb;
} Bdf;

static int grow(void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 256;
    while (c < need) {
        if (c > (1 << 28)) return -1;
        c *= 2;
    }
    void *q = realloc(*p, sz * (size_t)c);
    if (!q) return -1;
    *p = q, *cap = c;
    return 0;
}

static int oom(Bdf *b)
{
    mt_error_set(b->err, MT_ERR_NOMEM, "", MT_("out of memory reading the mesh"));
    return -1;
}

static int add_field(Bdf *b, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n > 64) n = 64;
    if (b->nf + 1 > b->cf) {
        int c = b->cf;
        if (grow((void **)&b->fo, &c, b->nf + 1, sizeof(size_t))) return oom(b);
        int *fl = realloc(b->fl, sizeof(int) * (size_t)c);
        if (!fl) return oom(b);
        b->fl = fl, b->cf = c;
    }
    if (b->na + n + 1 > b->ca) {
        size_t c = b->ca ? 2 * b->ca : 1 << 16;
        while (c < b->na + n + 1) c *= 2;
        char *a = realloc(b->arena, c);
        if (!a) return oom(b);
        b->arena = a, b->ca = c;
    }
    memcpy(b->arena + b->na, s, n);
    b->arena[b->na + n] = 0;
    b->fo[b->nf] = b->na;
    b->fl[b->nf] = (int)n;
    b->na += n + 1;
    b->nf++;
    return 0;
}

/* Expands tabs to 8-column stops (small-field files written with tabs). */
static size_t detab(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < cap - 1; i++) {
        if (s[i] == '\t') {
            do out[k++] = ' ';
            while (k % 8 && k < cap - 1);
        } else out[k++] = s[i];
    }
    out[k] = 0;
    return k;
}

/* Splits a line into name (or continuation mark) and data fields. */
typedef struct {
    char head[24];
    const char *f[80];
    size_t fn[80];
    int nf;
    int free_, large;
} Line;

static void split_line(const char *s, size_t n, Line *L)
{
    L->nf = 0, L->free_ = 0, L->large = 0;
    const char *c = memchr(s, ',', n);
    if (c) { /* free field */
        L->free_ = 1;
        size_t a = 0;
        int k = 0;
        for (size_t i = 0; i <= n && k < 80; i++)
            if (i == n || s[i] == ',') {
                const char *p = s + a;
                size_t l = i - a;
                while (l && isspace((unsigned char)*p)) p++, l--;
                while (l && isspace((unsigned char)p[l - 1])) l--;
                if (k == 0) snprintf(L->head, sizeof L->head, "%.*s", (int)(l < 20 ? l : 20), p);
                else L->f[L->nf] = p, L->fn[L->nf] = l, L->nf++;
                k++;
                a = i + 1;
            }
        return;
    }
    size_t h = n < 8 ? n : 8;
    const char *p = s;
    size_t l = h;
    while (l && isspace((unsigned char)*p)) p++, l--;
    while (l && isspace((unsigned char)p[l - 1])) l--;
    snprintf(L->head, sizeof L->head, "%.*s", (int)(l < 20 ? l : 20), p);
    L->large = strchr(L->head, '*') != NULL;
    int w = L->large ? 16 : 8, nd = L->large ? 4 : 8;
    for (int k = 0; k < nd; k++) {
        size_t a = 8 + (size_t)k * w;
        if (a >= n) break;
        size_t e = a + (size_t)w < n ? a + (size_t)w : n;
        L->f[L->nf] = s + a, L->fn[L->nf] = e - a, L->nf++;
    }
}

static int is_cont_head(const Line *L) { return L->head[0] == 0 || L->head[0] == '+' || L->head[0] == '*'; }

static int read_text(Bdf *b, const char *text, size_t len, const char *fname, int depth);

static int include(Bdf *b, const char *s, size_t n, const char *cur, int line, int depth)
{
    const char *q1 = memchr(s, '\'', n);
    const char *q2 = q1 ? memchr(q1 + 1, '\'', (size_t)(s + n - q1 - 1)) : NULL;
    if (!q1 || !q2) return mt_mesh_err(b->err, cur, line, MT_("INCLUDE expects a file name in quotes"));
    if (depth >= 8 || b->nfiles >= 9) return mt_mesh_err(b->err, cur, line, MT_("INCLUDE nested too deep"));
    if (!b->name || !strcmp(b->name, "<mesh>"))
        return mt_mesh_err(b->err, cur, line, MT_("INCLUDE is not available for text without a file"));
    char path[512];
    const char *slash = strrchr(cur, '/');
    int fl = (int)(q2 - q1 - 1);
    if (q1[1] == '/' || !slash) snprintf(path, sizeof path, "%.*s", fl, q1 + 1);
    else snprintf(path, sizeof path, "%.*s/%.*s", (int)(slash - cur), cur, fl, q1 + 1);
    size_t len;
    MtError e2 = {0};
    char *buf = mt_file_read_all(path, &len, &e2);
    if (!buf) return mt_mesh_err(b->err, cur, line, "%s", e2.msg);
    char *nm = strdup(path);
    if (!nm) {
        free(buf);
        return oom(b);
    }
    b->files[b->nfiles] = nm, b->bufs[b->nfiles] = buf, b->nfiles++;
    return read_text(b, buf, len, nm, depth + 1);
}

static int read_text(Bdf *b, const char *text, size_t len, const char *fname, int depth)
{
    MtLines r;
    mt_lines_init(&r, text, len, fname);
    const char *s;
    size_t n;
    /* skip the executive and case control when a BEGIN BULK is there */
    int bulk = depth > 0 || !memmem(text, len, "BEGIN BULK", 10);
    if (!bulk && depth == 0) {
        /* case-insensitive search as well */
        MtLines q = r;
        while (mt_lines_next(&q, &s, &n)) {
            while (n && isspace((unsigned char)*s)) s++, n--;
            if (n >= 10 && !strncasecmp(s, "BEGIN BULK", 10)) {
                r = q;
                bulk = 1;
                break;
            }
        }
        if (!bulk) mt_lines_init(&r, text, len, fname);
    }
    char lbuf[400];
    Line L;
    int open = 0; /* a card is being continued */
    while (mt_lines_next(&r, &s, &n)) {
        size_t k = detab(s, n, lbuf, sizeof lbuf);
        char *dollar = memchr(lbuf, '$', k);
        if (dollar) k = (size_t)(dollar - lbuf), lbuf[k] = 0;
        if (mt_blank(lbuf, k)) continue;
        const char *t = lbuf;
        size_t tn = k;
        while (tn && isspace((unsigned char)*t)) t++, tn--;
        if (tn >= 7 && !strncasecmp(t, "ENDDATA", 7)) break;
        if (tn >= 7 && !strncasecmp(t, "INCLUDE", 7)) {
            if (include(b, t, tn, fname, r.line, depth)) return -1;
            open = 0;
            continue;
        }
        if (tn >= 10 && !strncasecmp(t, "BEGIN BULK", 10)) continue;
        split_line(lbuf, k, &L);
        if (is_cont_head(&L) && (L.head[0] || L.free_ || k > 8)) {
            if (!open) return mt_mesh_err(b->err, fname, r.line, MT_("a continuation line without a card before it"));
            /* the lines before were full: pad the card to whole lines */
            int w = L.large ? 4 : 8;
            while (b->card[b->ncard - 1].n % w) {
                if (add_field(b, "", 0)) return -1;
                b->card[b->ncard - 1].n++;
            }
            if (b->card[b->ncard - 1].n > 4000)
                return mt_mesh_err(b->err, fname, r.line, MT_("a card with more than 4000 fields"));
            for (int i = 0; i < L.nf; i++) {
                if (L.free_ && i == 8 && L.nf == 9 && (L.fn[i] == 0 || L.f[i][0] == '+')) break; /* marker */
                if (add_field(b, L.f[i], L.fn[i])) return -1;
                b->card[b->ncard - 1].n++;
            }
            continue;
        }
        /* a new card */
        if (!isalpha((unsigned char)L.head[0]))
            return mt_mesh_err(b->err, fname, r.line, MT_("expected a card name, found '%s'"), L.head);
        if (grow((void **)&b->card, &b->ccard, b->ncard + 1, sizeof(Card))) return oom(b);
        Card *c = &b->card[b->ncard++];
        snprintf(c->name, sizeof c->name, "%.*s", (int)strcspn(L.head, "*"), L.head);
        for (char *p = c->name; *p; p++) *p = (char)toupper((unsigned char)*p);
        c->line = r.line, c->file = fname, c->first = b->nf, c->n = 0;
        for (int i = 0; i < L.nf; i++) {
            /* free field: the 10th field is a continuation marker unless it is a number */
            double v;
            if (L.free_ && i == 8 && L.nf == 9 && (L.fn[i] == 0 || mt_num_nastran(L.f[i], L.fn[i], &v))) break;
            if (add_field(b, L.f[i], L.fn[i])) return -1;
            c->n++;
        }
        open = 1;
    }
    return 0;
}

/* ---- field access ------------------------------------------------------------ */

static const char *fld(const Bdf *b, const Card *c, int i, size_t *n)
{
    if (i >= c->n) {
        *n = 0;
        return "";
    }
    *n = (size_t)b->fl[c->first + i];
    return b->arena + b->fo[c->first + i];
}

static int cerr(Bdf *b, const Card *c, int i, const char *what)
{
    size_t n;
    const char *s = fld(b, c, i, &n);
    return mt_mesh_err(b->err, c->file, c->line, MT_("%s, field %d: expected %s, found '%.*s'"), c->name, i + 2, what,
                       (int)n, s);
}

static int get_i(Bdf *b, const Card *c, int i, int def, int *v)
{
    size_t n;
    const char *s = fld(b, c, i, &n);
    if (mt_blank(s, n)) {
        if (def == -999999) return cerr(b, c, i, MT_("an integer"));
        *v = def;
        return 0;
    }
    if (mt_num_int(s, n, v) || memchr(s, '.', n)) return cerr(b, c, i, MT_("an integer"));
    return 0;
}

static int get_r(Bdf *b, const Card *c, int i, double def, double *v, int required)
{
    size_t n;
    const char *s = fld(b, c, i, &n);
    if (mt_blank(s, n)) {
        if (required) return cerr(b, c, i, MT_("a real number"));
        *v = def;
        return 0;
    }
    if (mt_num_nastran(s, n, v)) return cerr(b, c, i, MT_("a real number"));
    return 0;
}

static int blank(Bdf *b, const Card *c, int i)
{
    size_t n;
    const char *s = fld(b, c, i, &n);
    return mt_blank(s, n);
}

#define REQ (-999999)

static int node(Bdf *b, const Card *c, int i, int *idx)
{
    int id;
    if (get_i(b, c, i, REQ, &id)) return -1;
    *idx = mt_fe_node_index(b->m, id);
    if (*idx < 0) return mt_mesh_err(b->err, c->file, c->line, MT_("%s refers to grid %d, which is not defined"), c->name, id);
    return 0;
}

static int map_get(const int *ids, int n, int id)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id) return i;
    return -1;
}

/* ---- cards -------------------------------------------------------------------- */

static int c_mat1(Bdf *b, const Card *c)
{
    int id;
    double E, G, nu, rho;
    if (get_i(b, c, 0, REQ, &id) || get_r(b, c, 1, NAN, &E, 0) || get_r(b, c, 2, NAN, &G, 0) ||
        get_r(b, c, 3, NAN, &nu, 0) || get_r(b, c, 4, 0, &rho, 0))
        return -1;
    if (isnan(E) && !isnan(G) && !isnan(nu)) E = 2 * (1 + nu) * G;
    if (isnan(nu) && !isnan(E) && !isnan(G)) nu = E / (2 * G) - 1;
    if (isnan(E) || isnan(nu))
        return mt_mesh_err(b->err, c->file, c->line, MT_("MAT1 %d needs two of E, G and NU"), id);
    if (map_get(b->mid, b->nmid, id) >= 0) return mt_mesh_err(b->err, c->file, c->line, MT_("MAT1 %d is defined twice"), id);
    char nm[MT_FE_NAME];
    snprintf(nm, sizeof nm, "MAT1-%d", id);
    int k = mt_fe_add_material(b->m, nm, E, nu, rho, b->err);
    if (k < 0) return -1;
    int *mid = realloc(b->mid, sizeof(int) * (size_t)(k + 1));
    if (!mid) return oom(b);
    b->mid = mid;
    for (int i = b->nmid; i <= k; i++) b->mid[i] = -1;
    b->mid[k] = id, b->nmid = k + 1;
    return 0;
}

static int mat_of(Bdf *b, const Card *c, int i, int *mat)
{
    int id;
    if (get_i(b, c, i, REQ, &id)) return -1;
    *mat = map_get(b->mid, b->nmid, id);
    if (*mat < 0) return mt_mesh_err(b->err, c->file, c->line, MT_("%s refers to material %d, which is not defined"), c->name, id);
    return 0;
}

static int add_prop(Bdf *b, const Card *c, int id, MtFeProp *p)
{
    if (map_get(b->pid, b->npid, id) >= 0) return mt_mesh_err(b->err, c->file, c->line, MT_("property %d is defined twice"), id);
    snprintf(p->name, sizeof p->name, "%s-%d", c->name, id);
    int k = mt_fe_add_prop(b->m, p, b->err);
    if (k < 0) return -1;
    int *pid = realloc(b->pid, sizeof(int) * (size_t)(k + 1));
    if (!pid) return oom(b);
    b->pid = pid;
    for (int i = b->npid; i <= k; i++) b->pid[i] = -1;
    b->pid[k] = id, b->npid = k + 1;
    return 0;
}

static int c_prop(Bdf *b, const Card *c)
{
    int id;
    MtFeProp p;
    memset(&p, 0, sizeof p);
    if (get_i(b, c, 0, REQ, &id) || mat_of(b, c, 1, &p.mat)) return -1;
    if (!strcmp(c->name, "PSOLID")) p.kind = MT_FE_PROP_SOLID;
    else if (!strcmp(c->name, "PSHELL")) {
        p.kind = MT_FE_PROP_SHELL;
        if (get_r(b, c, 2, 0, &p.t, 1)) return -1;
        if (blank(b, c, 3)) { /* no MID2: membrane only (CQUAD4, CQUAD8 become plane-stress membranes) */
            if (add_prop(b, c, id, &p)) return -1;
            int k = map_get(b->pid, b->npid, id);
            unsigned char *q = realloc(b->memb, (size_t)k + 1);
            if (!q) return oom(b);
            b->memb = q;
            for (int i = b->nmemb; i <= k; i++) b->memb[i] = 0;
            b->memb[k] = 1, b->nmemb = k + 1;
            return 0;
        }
    } else if (!strcmp(c->name, "PBAR")) {
        p.kind = MT_FE_PROP_BEAM;
        double I1, I2;
        if (get_r(b, c, 2, 0, &p.A, 1) || get_r(b, c, 3, 0, &I1, 1) || get_r(b, c, 4, 0, &I2, 1) ||
            get_r(b, c, 5, 0, &p.J, 1))
            return -1;
        p.Iz = I1, p.Iy = I2;
        /* K1 K2 I12 on the second continuation: fields 16, 17, 18 */
        double k1 = 0, k2 = 0, i12 = 0;
        if (get_r(b, c, 16, 0, &k1, 0) || get_r(b, c, 17, 0, &k2, 0) || get_r(b, c, 18, 0, &i12, 0)) return -1;
        if (i12 != 0) return mt_mesh_err(b->err, c->file, c->line, MT_("PBAR %d: I12 must be zero (principal axes)"), id);
        p.ky = k1, p.kz = k2;
    } else if (!strcmp(c->name, "PBEAM")) {
        p.kind = MT_FE_PROP_BEAM;
        double I1, I2, I12;
        if (get_r(b, c, 2, 0, &p.A, 1) || get_r(b, c, 3, 0, &I1, 1) || get_r(b, c, 4, 0, &I2, 1) ||
            get_r(b, c, 5, 0, &I12, 0) || get_r(b, c, 6, 0, &p.J, 1))
            return -1;
        if (I12 != 0) return mt_mesh_err(b->err, c->file, c->line, MT_("PBEAM %d: I12 must be zero (principal axes)"), id);
        p.Iz = I1, p.Iy = I2, p.ky = p.kz = 1;
    } else { /* PBARL */
        p.kind = MT_FE_PROP_BEAM;
        size_t n;
        const char *ty = fld(b, c, 3, &n);
        double d1, d2 = 0;
        if (get_r(b, c, 8, 0, &d1, 1)) return -1;
        if (n == 3 && !strncasecmp(ty, "ROD", 3)) {
            p.A = M_PI * d1 * d1, p.Iy = p.Iz = M_PI * pow(d1, 4) / 4, p.J = 2 * p.Iy;
        } else if (n == 3 && !strncasecmp(ty, "BAR", 3)) {
            if (get_r(b, c, 9, 0, &d2, 1)) return -1;
            double hi = fmax(d1, d2), lo = fmin(d1, d2);
            p.A = d1 * d2, p.Iz = d2 * d1 * d1 * d1 / 12, p.Iy = d1 * d2 * d2 * d2 / 12;
            p.J = hi * lo * lo * lo * (1.0 / 3 - 0.21 * lo / hi * (1 - pow(lo / hi, 4) / 12));
        } else if (n == 4 && !strncasecmp(ty, "TUBE", 4)) {
            if (get_r(b, c, 9, 0, &d2, 1)) return -1;
            p.A = M_PI * (d1 * d1 - d2 * d2), p.Iy = p.Iz = M_PI * (pow(d1, 4) - pow(d2, 4)) / 4, p.J = 2 * p.Iy;
        } else
            return mt_mesh_err(b->err, c->file, c->line, MT_("PBARL %d: section type '%.*s' is not supported (ROD, BAR, TUBE)"),
                               id, (int)n, ty);
    }
    return add_prop(b, c, id, &p);
}

static int c_grid(Bdf *b, const Card *c)
{
    int id, cp;
    double x[3];
    if (get_i(b, c, 0, REQ, &id) || get_i(b, c, 1, 0, &cp) || get_r(b, c, 2, 0, &x[0], 0) || get_r(b, c, 3, 0, &x[1], 0) ||
        get_r(b, c, 4, 0, &x[2], 0))
        return -1;
    if (cp != 0)
        return mt_mesh_err(b->err, c->file, c->line,
                           MT_("GRID %d: coordinate system %d is not supported (basic coordinates only)"), id, cp);
    MtError e2 = {0};
    if (mt_fe_add_node(b->m, id, x[0], x[1], x[2], &e2) < 0) return mt_mesh_err(b->err, c->file, c->line, "%s", e2.msg);
    return 0;
}

static int c_elem(Bdf *b, const Card *c)
{
    int id, pidn, type, nn;
    if (get_i(b, c, 0, REQ, &id) || get_i(b, c, 1, id, &pidn)) return -1;
    if (!strcmp(c->name, "CTETRA")) {
        type = MT_FE_TET4, nn = 4;
        int ten = 0;
        for (int i = 6; i < 12; i++) ten |= !blank(b, c, i);
        if (ten) type = MT_FE_TET10, nn = 10;
    } else if (!strcmp(c->name, "CHEXA")) {
        type = MT_FE_HEX8, nn = 8;
        int mids = 0;
        for (int i = 10; i < 22; i++) mids += !blank(b, c, i);
        if (mids == 12) type = MT_FE_HEX20, nn = 20;
        else if (mids)
            return mt_mesh_err(b->err, c->file, c->line,
                               MT_("CHEXA %d: %d of the 12 mid-edge nodes given (8 or 20 nodes are read)"), id, mids);
    } else if (!strcmp(c->name, "CQUAD4")) type = MT_FE_QUAD4, nn = 4;
    else if (!strcmp(c->name, "CQUAD8")) type = MT_FE_MEM8, nn = 8;
    else if (!strcmp(c->name, "CTRIA3")) type = MT_FE_TRIA3, nn = 3;
    else type = MT_FE_BEAM2, nn = 2;
    int nodes[20];
    for (int a = 0; a < nn; a++)
        if (node(b, c, 2 + a, &nodes[a])) return -1;
    if (type == MT_FE_HEX20) { /* Nastran: G13–G16 the vertical edges, G17–G20 the top; Motus (Abaqus) the reverse */
        int t[4];
        memcpy(t, nodes + 12, sizeof t);
        memmove(nodes + 12, nodes + 16, sizeof t);
        memcpy(nodes + 16, t, sizeof t);
    }
    int prop = map_get(b->pid, b->npid, pidn);
    if (prop < 0) return mt_mesh_err(b->err, c->file, c->line, MT_("%s %d refers to property %d, which is not defined"), c->name, id, pidn);
    int memb = prop < b->nmemb && b->memb[prop];
    if (type == MT_FE_QUAD4 && memb) type = MT_FE_MEM4;
    if (type == MT_FE_MEM8 && !memb) type = MT_FE_QUAD8; /* with bending: the 8-node shell */
    MtError e2 = {0};
    int e = mt_fe_add_elem(b->m, id, type, prop, nodes, &e2);
    if (e < 0) return mt_mesh_err(b->err, c->file, c->line, "%s", e2.msg);
    if (type == MT_FE_BEAM2) {
        double v[3];
        int g0;
        size_t n;
        const char *s = fld(b, c, 4, &n);
        if (!mt_blank(s, n) && !memchr(s, '.', n) && blank(b, c, 5) && blank(b, c, 6)) { /* G0 */
            if (node(b, c, 4, &g0)) return -1;
            for (int k = 0; k < 3; k++) v[k] = b->m->x[3 * g0 + k] - b->m->x[3 * nodes[0] + k];
        } else if (get_r(b, c, 4, 0, &v[0], 1) || get_r(b, c, 5, 0, &v[1], 1) || get_r(b, c, 6, 0, &v[2], 1))
            return -1;
        if (mt_fe_set_orientation(b->m, e, v, b->err)) return -1;
        /* pin flags and offsets (first continuation, fields 8..15) */
        for (int i = 8; i < 16; i++) {
            double o = 0;
            size_t m2;
            const char *t = fld(b, c, i, &m2);
            if (mt_blank(t, m2)) continue;
            if (i < 10) return mt_mesh_err(b->err, c->file, c->line, MT_("%s %d: pin flags are not supported"), c->name, id);
            if (get_r(b, c, i, 0, &o, 0)) return -1;
            if (o != 0) return mt_mesh_err(b->err, c->file, c->line, MT_("%s %d: offsets are not supported"), c->name, id);
        }
    }
    return 0;
}

static int c_conm2(Bdf *b, const Card *c)
{
    int id, n, cid;
    double m, x[3], I[6];
    if (get_i(b, c, 0, REQ, &id) || node(b, c, 1, &n) || get_i(b, c, 2, 0, &cid) || get_r(b, c, 3, 0, &m, 1)) return -1;
    for (int k = 0; k < 3; k++)
        if (get_r(b, c, 4 + k, 0, &x[k], 0)) return -1;
    /* I11 I21 I22 I31 I32 I33 on the continuation (fields 8..13) */
    for (int k = 0; k < 6; k++)
        if (get_r(b, c, 8 + k, 0, &I[k], 0)) return -1;
    if (cid == -1)
        for (int k = 0; k < 3; k++) x[k] -= b->m->x[3 * n + k];
    else if (cid != 0)
        return mt_mesh_err(b->err, c->file, c->line, MT_("CONM2 %d: coordinate system %d is not supported"), id, cid);
    double J[6] = {I[0], I[2], I[5], -I[1], -I[4], -I[3]}; /* xx yy zz xy yz xz */
    return mt_fe_add_mass(b->m, id, n, m, x, J, b->err) < 0 ? -1 : 0;
}

static int comps(Bdf *b, const Card *c, int i, int *mask)
{
    size_t n;
    const char *s = fld(b, c, i, &n);
    *mask = 0;
    int any = 0;
    for (size_t k = 0; k < n; k++) {
        if (isspace((unsigned char)s[k])) continue;
        if (s[k] < '0' || s[k] > '6') return cerr(b, c, i, MT_("components (digits 1-6)"));
        if (s[k] > '0') *mask |= 1 << (s[k] - '1');
        any = 1;
    }
    if (!any) return cerr(b, c, i, MT_("components (digits 1-6)"));
    return 0;
}

static int c_rbe2(Bdf *b, const Card *c)
{
    int id, gn, cm;
    if (get_i(b, c, 0, REQ, &id) || node(b, c, 1, &gn) || comps(b, c, 2, &cm)) return -1;
    int *nodes = malloc(sizeof(int) * (size_t)(c->n + 1)), nn = 0;
    if (!nodes) return oom(b);
    for (int i = 3; i < c->n; i++) {
        size_t n;
        const char *s = fld(b, c, i, &n);
        if (mt_blank(s, n)) continue;
        if (memchr(s, '.', n)) break; /* ALPHA */
        if (node(b, c, i, &nodes[nn])) {
            free(nodes);
            return -1;
        }
        nn++;
    }
    MtError e2 = {0};
    int r = mt_fe_add_rigid(b->m, id, MT_FE_RBE2, gn, cm, nn, nodes, NULL, &e2);
    free(nodes);
    if (r < 0) return mt_mesh_err(b->err, c->file, c->line, "%s", e2.msg);
    return 0;
}

static int c_rbe3(Bdf *b, const Card *c)
{
    int id, ref, refc;
    if (get_i(b, c, 0, REQ, &id) || node(b, c, 2, &ref) || comps(b, c, 3, &refc)) return -1;
    int *nodes = malloc(sizeof(int) * (size_t)(c->n + 1)), nn = 0;
    double *w = malloc(sizeof(double) * (size_t)(c->n + 1)), wt = 1;
    if (!nodes || !w) {
        free(nodes), free(w);
        return oom(b);
    }
    int i = 4, rc = 0;
    while (i < c->n && !rc) {
        size_t n;
        const char *s = fld(b, c, i, &n);
        if (mt_blank(s, n)) {
            i++;
            continue;
        }
        if ((n >= 2 && !strncasecmp(s, "UM", 2)) || (n >= 5 && !strncasecmp(s, "ALPHA", 5))) break;
        if (!memchr(s, '.', n) && !memchr(s, 'e', n) && !memchr(s, 'E', n)) {
            rc = cerr(b, c, i, MT_("a weight (a real number)"));
            break;
        }
        int cm;
        if (get_r(b, c, i, 0, &wt, 1) || comps(b, c, i + 1, &cm)) {
            rc = -1;
            break;
        }
        if (cm & ~MT_FE_TRANS) mt_mesh_skip(b->m, "RBE3 rotations", 14);
        i += 2;
        while (i < c->n) {
            s = fld(b, c, i, &n);
            if (mt_blank(s, n)) {
                i++;
                continue;
            }
            if (memchr(s, '.', n) || !isdigit((unsigned char)s[0])) break;
            if (node(b, c, i, &nodes[nn])) {
                rc = -1;
                break;
            }
            w[nn++] = wt;
            i++;
        }
    }
    if (!rc) {
        MtError e2 = {0};
        if (mt_fe_add_rigid(b->m, id, MT_FE_RBE3, ref, refc, nn, nodes, w, &e2) < 0)
            rc = mt_mesh_err(b->err, c->file, c->line, "%s", e2.msg);
    }
    free(nodes), free(w);
    return rc;
}

static int c_spc(Bdf *b, const Card *c)
{
    int sid, mask;
    if (get_i(b, c, 0, REQ, &sid)) return -1;
    if (!strcmp(c->name, "SPC")) { /* SID G1 C1 D1 G2 C2 D2 */
        for (int i = 1; i + 1 < c->n; i += 3) {
            if (blank(b, c, i)) continue;
            int n;
            double d;
            if (node(b, c, i, &n) || comps(b, c, i + 1, &mask) || get_r(b, c, i + 2, 0, &d, 0)) return -1;
            if (d != 0) return mt_mesh_err(b->err, c->file, c->line, MT_("SPC with a nonzero value is not supported"));
            if (mt_fe_add_spc(b->m, n, mask, b->err) < 0) return -1;
        }
        return 0;
    }
    if (comps(b, c, 1, &mask)) return -1;
    for (int i = 2; i < c->n; i++) {
        size_t n;
        const char *s = fld(b, c, i, &n);
        if (mt_blank(s, n)) continue;
        if (n == 4 && !strncasecmp(s, "THRU", 4)) {
            int a, z;
            if (i < 3 || get_i(b, c, i - 1, REQ, &a) || get_i(b, c, i + 1, REQ, &z)) return cerr(b, c, i, "G1 THRU G2");
            if (z < a || z - a > 50000000) return cerr(b, c, i + 1, MT_("the end of the range"));
            for (long g = a + 1; g <= z; g++) {
                int idx = mt_fe_node_index(b->m, (int)g);
                if (idx >= 0 && mt_fe_add_spc(b->m, idx, mask, b->err) < 0) return -1;
            }
            i++;
            continue;
        }
        int idx;
        if (node(b, c, i, &idx)) return -1;
        if (mt_fe_add_spc(b->m, idx, mask, b->err) < 0) return -1;
    }
    return 0;
}

MtFeModel *mt_mesh_read_bdf(const char *text, size_t len, const char *name, MtError *err)
{
    Bdf b;
    memset(&b, 0, sizeof b);
    b.name = name ? name : "<mesh>";
    b.err = err;
    b.m = mt_fe_model_new();
    if (!b.m) {
        oom(&b);
        return NULL;
    }
    int rc = read_text(&b, text, len, b.name, 0);
    static const char *const order[][8] = {
        {"MAT1", 0}, {"PSOLID", "PSHELL", "PBAR", "PBARL", "PBEAM", 0}, {"GRID", 0},
        {"CTETRA", "CHEXA", "CQUAD4", "CQUAD8", "CTRIA3", "CBAR", "CBEAM", 0}, {"CONM2", 0}, {"RBE2", "RBE3", 0},
        {"SPC1", "SPC", 0}};
    for (int pass = 0; pass < 7 && !rc; pass++)
        for (int i = 0; i < b.ncard && !rc; i++) {
            const Card *c = &b.card[i];
            int hit = 0;
            for (int k = 0; order[pass][k] && !hit; k++) hit = !strcmp(c->name, order[pass][k]);
            if (!hit) continue;
            switch (pass) {
            case 0: rc = c_mat1(&b, c); break;
            case 1: rc = c_prop(&b, c); break;
            case 2: rc = c_grid(&b, c); break;
            case 3: rc = c_elem(&b, c); break;
            case 4: rc = c_conm2(&b, c); break;
            case 5: rc = !strcmp(c->name, "RBE2") ? c_rbe2(&b, c) : c_rbe3(&b, c); break;
            default: rc = c_spc(&b, c); break;
            }
        }
    if (!rc) {
        for (int i = 0; i < b.ncard; i++) {
            const char *nm = b.card[i].name;
            int known = 0;
            for (int pass = 0; pass < 7 && !known; pass++)
                for (int k = 0; order[pass][k] && !known; k++) known = !strcmp(nm, order[pass][k]);
            if (!known) mt_mesh_skip(b.m, nm, strlen(nm));
        }
        if (!b.m->nelem) rc = mt_mesh_err(err, b.name, 0, MT_("the file defines no element"));
    }
    /* PBAR/PBEAM props with shear factors make Timoshenko beams already; nothing more */
    free(b.card), free(b.fo), free(b.fl), free(b.arena), free(b.mid), free(b.pid), free(b.ebeam), free(b.memb);
    for (int i = 0; i < b.nfiles; i++) free(b.files[i]), free(b.bufs[i]);
    if (rc) {
        mt_fe_model_free(b.m);
        return NULL;
    }
    return b.m;
}
