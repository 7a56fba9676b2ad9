/* mt_mesh_inp.c — Abaqus/CalculiX .inp reader (motus/mesh.h).
 *
 * Line oriented: a keyword line ("*NODE, NSET=ALL") is followed by its data
 * lines; "**" starts a comment. Sets, sections and point masses are
 * collected while reading and applied at the end, so that their order in the
 * file does not matter (except that elements need their nodes first).
 * Beam section orientation: Abaqus's first section axis n1 (default
 * (0, 0, −1)) is Motus's orientation vector, I11 is Iy. B31 is a Timoshenko
 * beam (shear factor of the section), B33 Euler–Bernoulli. Reduced and
 * incompatible-mode hexahedra (C3D8R, C3D8I) are read as fully integrated
 * C3D8 (noted in model->skipped), C3D20R as C3D20. Plane-stress and membrane
 * quadrilaterals (CPS4, CPS8, M3D4, M3D8 and their R variants) only mark
 * boundaries (gmsh writes its physical surfaces so) unless a *SOLID SECTION
 * or *MEMBRANE SECTION names their ELSET: then they are mem4/mem8 membranes,
 * and CPS elements, being 2-D, get uz held at their nodes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mt_fe_elem.h"
#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_mesh_text.h"

#define MAXF 64
#define MAXDEPTH 8
#define MAXINCL 64 /* a file including itself many times must not multiply without end */
#define MAXEN 20 /* nodes of the largest element read (C3D20) */

typedef struct {
    const char *s[MAXF];
    size_t n[MAXF];
    int nf;
} Fields;

typedef struct {
    char elset[MT_FE_NAME];
    int kind;      /* MtFePropKind */
    char mat[MT_FE_NAME];
    int line;
    MtFeProp p;    /* geometry */
    int general;   /* BEAM GENERAL SECTION: own material */
    double E, G, rho;
    double tsolid; /* *SOLID SECTION's first data value: the thickness of plane-stress elements (0: none) */
} Section;

/* A block of CPS/M3D quadrilaterals with an ELSET: boundary marks, unless a
 * section names the set (then plane-stress membranes). */
typedef struct {
    char elset[MT_FE_NAME];
    char tname[16]; /* the Abaqus type, listed as skipped if no section claims the block */
    int type;      /* MT_FE_MEM4 or MT_FE_MEM8 */
    int plane;     /* CPS: a 2-D element, its uz held */
    int x0, nx;    /* its elements in Inp.xid */
    int line;
} Memb;

typedef struct {
    int id, node;
    char elset[MT_FE_NAME];
    double m, J[6];
} Point;

typedef struct {
    char name[MT_FE_NAME];
    int first, n; /* nodes in Inp.snode, weights in Inp.sw */
} Surface;

typedef struct {
    const char *name;
    MtFeModel *m;
    MtError *err;
    struct {
        char *buf;
        MtLines r;
        char path[512];
    } st[MAXDEPTH];
    int depth;
    int nincl; /* *INCLUDE lines followed in all, at most MAXINCL */
    Section *sec;
    int nsec, csec;
    Point *pt;
    int npt, cpt;
    Surface *sf;
    int nsf, csf;
    int *snode;
    double *sw;
    int nsn, csn;
    int cur_mat;
    int *etimo; /* per element: 1 if B31 (Timoshenko) */
    int *smark, nsmark; /* surface membership marks per node */
    /* elements of types that only mark boundaries (gmsh writes physical
     * surfaces and curves as CPS/T3D elements): their ids and nodes */
    int *xid, *xoff, *xnode;
    int nx, cx, cxo, nxn, cxn, xsorted;
    int *xorder;
    Memb *mb;
    int nmb, cmb;
    int cet;
    /* pending *COUPLING */
    int cp_ref, cp_surf, cp_line;
    /* current keyword */
    char kw[40];
    int kline;
} Inp;

static int grow(void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 32;
    while (c < need) {
        if (c > (1 << 29)) return -1;
        c *= 2;
    }
    void *q = realloc(*p, sz * (size_t)c);
    if (!q) return -1;
    *p = q, *cap = c;
    return 0;
}

static int oom(Inp *in)
{
    mt_error_set(in->err, MT_ERR_NOMEM, "", MT_("out of memory reading the mesh"));
    return -1;
}

static const char *cur_name(Inp *in) { return in->depth ? in->st[in->depth - 1].r.name : in->name; }
static int cur_line(Inp *in) { return in->depth ? in->st[in->depth - 1].r.line : 0; }

#define ERR(in, ...) mt_mesh_err((in)->err, cur_name(in), cur_line(in), __VA_ARGS__)

static void split(const char *s, size_t n, Fields *f)
{
    f->nf = 0;
    size_t a = 0;
    for (size_t i = 0; i <= n && f->nf < MAXF; i++)
        if (i == n || s[i] == ',') {
            const char *p = s + a;
            size_t l = i - a;
            while (l && isspace((unsigned char)*p)) p++, l--;
            while (l && isspace((unsigned char)p[l - 1])) l--;
            f->s[f->nf] = p, f->n[f->nf] = l, f->nf++;
            a = i + 1;
        }
    /* a trailing comma leaves an empty last field: drop it */
    if (f->nf > 1 && f->n[f->nf - 1] == 0) f->nf--;
}

static int feq(const char *s, size_t n, const char *w) { return n == strlen(w) && !strncasecmp(s, w, n); }

/* Keyword parameter value ("NSET=ALL" → "ALL"), copied into buf; 1 if present. */
static int param(const Fields *f, const char *key, char *buf, size_t bn)
{
    size_t kl = strlen(key);
    for (int i = 1; i < f->nf; i++) {
        const char *s = f->s[i];
        size_t n = f->n[i];
        if (n >= kl && !strncasecmp(s, key, kl)) {
            const char *p = s + kl;
            size_t r = n - kl;
            while (r && isspace((unsigned char)*p)) p++, r--;
            if (!r) {
                if (buf && bn) buf[0] = 0;
                return 1; /* flag */
            }
            if (*p != '=') continue;
            p++, r--;
            while (r && isspace((unsigned char)*p)) p++, r--;
            if (r && *p == '"') p++, r--;
            if (r && p[r - 1] == '"') r--;
            if (buf) snprintf(buf, bn, "%.*s", (int)(r < bn ? r : bn - 1), p);
            return 1;
        }
    }
    return 0;
}

/* Next line of the current file (or of the including one at its end). */
static int next_line(Inp *in, const char **s, size_t *n)
{
    while (in->depth > 0) {
        if (mt_lines_next(&in->st[in->depth - 1].r, s, n)) return 1;
        free(in->st[in->depth - 1].buf);
        in->depth--;
    }
    return 0;
}

/* Peeks whether the next line is a keyword line without consuming it. */
static int peek_keyword(Inp *in)
{
    if (!in->depth) return 1;
    MtLines save = in->st[in->depth - 1].r;
    const char *s;
    size_t n;
    int kw = 1;
    while (mt_lines_next(&in->st[in->depth - 1].r, &s, &n)) {
        while (n && isspace((unsigned char)*s)) s++, n--;
        if (!n) continue;
        if (n >= 2 && s[0] == '*' && s[1] == '*') continue;
        kw = s[0] == '*';
        break;
    }
    in->st[in->depth - 1].r = save;
    return kw;
}

/* Next data line of the current keyword (blank and comment lines skipped);
 * 0 when a keyword line or the end comes. */
static int data_line(Inp *in, Fields *f)
{
    for (;;) {
        if (peek_keyword(in)) return 0;
        const char *s;
        size_t n;
        if (!next_line(in, &s, &n)) return 0;
        const char *t = s;
        size_t m = n;
        while (m && isspace((unsigned char)*t)) t++, m--;
        if (!m || (m >= 2 && t[0] == '*' && t[1] == '*')) continue;
        split(s, n, f);
        return 1;
    }
}

static int node_of(Inp *in, const char *s, size_t n, int *node)
{
    int id;
    if (mt_num_int(s, n, &id)) return ERR(in, MT_("expected a node number, found '%.*s'"), (int)(n > 40 ? 40 : n), s);
    *node = mt_fe_node_index(in->m, id);
    if (*node < 0) return ERR(in, MT_("node %d is not defined"), id);
    return 0;
}

/* Nodes named by a field: a node number or a node set. Appends to *out. */
static int nodes_of(Inp *in, const char *s, size_t n, int **out, int *nout, int *cap)
{
    int id;
    if (!mt_num_int(s, n, &id)) {
        int node = mt_fe_node_index(in->m, id);
        if (node < 0) return ERR(in, MT_("node %d is not defined"), id);
        if (grow((void **)out, cap, *nout + 1, sizeof(int))) return oom(in);
        (*out)[(*nout)++] = node;
        return 0;
    }
    char name[MT_FE_NAME];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), s);
    int k = mt_fe_find_set(in->m, name, MT_FE_SET_NODE);
    if (k < 0) return ERR(in, MT_("node set '%s' is not defined"), name);
    const MtFeSet *st = &in->m->set[k];
    if (grow((void **)out, cap, *nout + st->n + 1, sizeof(int))) return oom(in);
    if (st->n) memcpy(*out + *nout, in->m->setitem + st->first, sizeof(int) * (size_t)st->n);
    *nout += st->n;
    return 0;
}

static int num(Inp *in, const Fields *f, int i, double *v, const char *what)
{
    if (i >= f->nf || mt_num_double(f->s[i], f->n[i], v))
        return ERR(in, MT_("expected %s, found '%.*s'"), what, i < f->nf ? (int)(f->n[i] > 40 ? 40 : f->n[i]) : 0,
                   i < f->nf ? f->s[i] : "");
    return 0;
}

/* ---- keywords ------------------------------------------------------------------ */

static int kw_node(Inp *in, const Fields *k)
{
    char nset[MT_FE_NAME];
    int has = param(k, "NSET", nset, sizeof nset), first = in->m->nnode;
    Fields f;
    while (data_line(in, &f)) {
        int id;
        double x[3] = {0, 0, 0};
        if (mt_num_int(f.s[0], f.n[0], &id))
            return ERR(in, MT_("expected a node number, found '%.*s'"), (int)(f.n[0] > 40 ? 40 : f.n[0]), f.s[0]);
        if (f.nf < 2 || f.nf > 4) return ERR(in, MT_("a node line has a number and 1 to 3 coordinates"));
        for (int i = 1; i < f.nf; i++)
            if (num(in, &f, i, &x[i - 1], MT_("a coordinate"))) return -1;
        MtError e2 = {0};
        if (mt_fe_add_node(in->m, id, x[0], x[1], x[2], &e2) < 0) return ERR(in, "%s", e2.msg);
    }
    if (has && in->m->nnode > first) {
        int n = in->m->nnode - first;
        int *idx = malloc(sizeof(int) * (size_t)n);
        if (!idx) return oom(in);
        for (int i = 0; i < n; i++) idx[i] = first + i;
        int r = mt_fe_add_set(in->m, nset, MT_FE_SET_NODE, n, idx, in->err);
        free(idx);
        if (r < 0) return -1;
    }
    return 0;
}

typedef struct {
    const char *name;
    int type, timo;
} EType;

static const EType etypes[] = {
    {"C3D4", MT_FE_TET4, 0},    {"C3D4H", MT_FE_TET4, 0},   {"C3D10", MT_FE_TET10, 0}, {"C3D10M", MT_FE_TET10, 0},
    {"C3D10H", MT_FE_TET10, 0}, {"C3D10I", MT_FE_TET10, 0}, {"C3D8", MT_FE_HEX8, 0},   {"C3D8R", MT_FE_HEX8, 0},
    {"C3D8I", MT_FE_HEX8, 0},   {"C3D8H", MT_FE_HEX8, 0},   {"S3", MT_FE_TRIA3, 0},    {"S3R", MT_FE_TRIA3, 0},
    {"STRI3", MT_FE_TRIA3, 0},  {"S4", MT_FE_QUAD4, 0},     {"S4R", MT_FE_QUAD4, 0},   {"S4R5", MT_FE_QUAD4, 0},
    {"S8", MT_FE_QUAD8, 0},     {"S8R", MT_FE_QUAD8, 0},    {"S8R5", MT_FE_QUAD8, 0},
    {"B31", MT_FE_BEAM2, 1},    {"B31H", MT_FE_BEAM2, 1},   {"B33", MT_FE_BEAM2, 0},   {"B33H", MT_FE_BEAM2, 0},
    {"C3D20", MT_FE_HEX20, 0},  {"C3D20R", MT_FE_HEX20, 0}, {"C3D20H", MT_FE_HEX20, 0}, {"C3D20RH", MT_FE_HEX20, 0},
    {"MASS", -1, 0},            {"ROTARYI", -2, 0},
};

/* Boundary-marking element types (plane, axisymmetric, truss): not part of
 * the structure; their nodes still define sets. */
static int boundary_type(const char *t)
{
    static const char *const pre[] = {"CPS", "CPE", "CAX", "T3D", "T2D", "DC2", "DC3", "M3D", "SFM", "R3D", NULL};
    for (int i = 0; pre[i]; i++)
        if (!strncasecmp(t, pre[i], strlen(pre[i]))) return 1;
    return 0;
}

static int cmp_xid(const void *a, const void *b, void *ctx)
{
    const int *id = ctx;
    int x = id[*(const int *)a], y = id[*(const int *)b];
    return (x > y) - (x < y);
}

/* Index of a boundary-marking element by id, -1 if none. */
static int xfind(Inp *in, int id)
{
    if (!in->nx) return -1;
    if (!in->xsorted) {
        int *o = realloc(in->xorder, sizeof(int) * (size_t)in->nx);
        if (!o) return -1;
        in->xorder = o;
        for (int i = 0; i < in->nx; i++) o[i] = i;
        qsort_r(o, (size_t)in->nx, sizeof(int), cmp_xid, in->xid);
        in->xsorted = 1;
    }
    int lo = 0, hi = in->nx - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, v = in->xid[in->xorder[mid]];
        if (v == id) return in->xorder[mid];
        if (v < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Plane-stress and membrane quadrilaterals Motus reads as mem4/mem8 (-1: other). */
static int membrane_type(const char *t)
{
    static const char *const four[] = {"CPS4", "CPS4R", "M3D4", "M3D4R", NULL}, *const eight[] = {"CPS8", "CPS8R", "M3D8", "M3D8R", NULL};
    for (int i = 0; four[i]; i++)
        if (!strcasecmp(t, four[i])) return MT_FE_MEM4;
    for (int i = 0; eight[i]; i++)
        if (!strcasecmp(t, eight[i])) return MT_FE_MEM8;
    return -1;
}

static int kw_boundary_elements(Inp *in, const Fields *k, const char *tname)
{
    char elset[MT_FE_NAME];
    int has_set = param(k, "ELSET", elset, sizeof elset), x0 = in->nx, line0 = cur_line(in) + 1;
    if (!has_set || membrane_type(tname) < 0) mt_mesh_skip(in->m, tname, strlen(tname)); /* membranes: at the end */
    Fields f;
    int *nodes = NULL, nn = 0, cap = 0;
    while (data_line(in, &f)) {
        int id;
        if (mt_num_int(f.s[0], f.n[0], &id)) {
            free(nodes);
            return ERR(in, MT_("expected an element number, found '%.*s'"), (int)(f.n[0] > 40 ? 40 : f.n[0]), f.s[0]);
        }
        if (grow((void **)&in->xid, &in->cx, in->nx + 2, sizeof(int)) ||
            grow((void **)&in->xoff, &in->cxo, in->nx + 2, sizeof(int)) ||
            grow((void **)&in->xnode, &in->cxn, in->nxn + f.nf, sizeof(int))) {
            free(nodes);
            return oom(in);
        }
        in->xid[in->nx] = id, in->xoff[in->nx] = in->nxn;
        for (int i = 1; i < f.nf; i++) {
            int node = -1;
            if (node_of(in, f.s[i], f.n[i], &node)) {
                free(nodes);
                return -1;
            }
            in->xnode[in->nxn++] = node;
            if (has_set) {
                if (grow((void **)&nodes, &cap, nn + 1, sizeof(int))) {
                    free(nodes);
                    return oom(in);
                }
                nodes[nn++] = node;
            }
        }
        in->nx++;
        in->xoff[in->nx] = in->nxn;
        in->xsorted = 0;
    }
    int r = has_set && nn ? mt_fe_add_set(in->m, elset, MT_FE_SET_NODE, nn, nodes, in->err) : 0;
    free(nodes);
    if (r < 0) return -1;
    int mt = membrane_type(tname);
    if (has_set && mt >= 0 && in->nx > x0) { /* may become membranes if a section names the set */
        if (grow((void **)&in->mb, &in->cmb, in->nmb + 1, sizeof(Memb))) return oom(in);
        Memb *b = &in->mb[in->nmb++];
        snprintf(b->elset, sizeof b->elset, "%s", elset);
        snprintf(b->tname, sizeof b->tname, "%s", tname);
        b->type = mt, b->plane = !strncasecmp(tname, "CPS", 3), b->x0 = x0, b->nx = in->nx - x0, b->line = line0;
    }
    return 0;
}

static int kw_element(Inp *in, const Fields *k)
{
    char tname[32], elset[MT_FE_NAME];
    if (!param(k, "TYPE", tname, sizeof tname)) return ERR(in, MT_("*ELEMENT needs TYPE="));
    int has_set = param(k, "ELSET", elset, sizeof elset);
    const EType *et = NULL;
    for (size_t i = 0; i < sizeof etypes / sizeof *etypes; i++)
        if (!strcasecmp(tname, etypes[i].name)) et = &etypes[i];
    if (!et && boundary_type(tname)) return kw_boundary_elements(in, k, tname);
    if (!et)
        return ERR(in,
                   MT_("element type %s is not supported (Motus reads C3D4, C3D10, C3D8, C3D20, S3, S4, S8, B31, "
                       "B33, CPS4, CPS8, M3D4, M3D8, MASS, ROTARYI)"),
                   tname);
    if (!strcasecmp(tname, "C3D8R") || !strcasecmp(tname, "C3D8I") || !strcasecmp(tname, "C3D20R") ||
        !strcasecmp(tname, "C3D20RH"))
        mt_mesh_skip(in->m, tname, strlen(tname));
    int nn = et->type >= 0 ? mt_fe_type_nodes(et->type) : 1, first = in->m->nelem;
    Fields f;
    int fid[MAXEN + 1], have = 0, line0 = 0;
    while (data_line(in, &f)) {
        if (!have) line0 = cur_line(in);
        for (int i = 0; i < f.nf; i++) {
            if (have >= nn + 1) return ERR(in, MT_("element has more than %d nodes for type %s"), nn, tname);
            if (mt_num_int(f.s[i], f.n[i], &fid[have]))
                return ERR(in, MT_("expected a number, found '%.*s'"), (int)(f.n[i] > 40 ? 40 : f.n[i]), f.s[i]);
            have++;
        }
        if (have < nn + 1) continue; /* continued on the next line */
        have = 0;
        int nodes[MAXEN];
        for (int a = 0; a < nn; a++) {
            nodes[a] = mt_fe_node_index(in->m, fid[a + 1]);
            if (nodes[a] < 0) return ERR(in, MT_("element %d refers to node %d, which is not defined"), fid[0], fid[a + 1]);
        }
        if (et->type < 0) { /* point mass or rotary inertia element */
            if (grow((void **)&in->pt, &in->cpt, in->npt + 1, sizeof(Point))) return oom(in);
            Point *p = &in->pt[in->npt++];
            memset(p, 0, sizeof *p);
            p->id = fid[0], p->node = nodes[0];
            snprintf(p->elset, sizeof p->elset, "%s", has_set ? elset : "");
            continue;
        }
        MtError e2 = {0};
        int e = mt_fe_add_elem(in->m, fid[0], et->type, -1, nodes, &e2);
        if (e < 0) return mt_mesh_err(in->err, cur_name(in), line0, "%s", e2.msg);
        if (grow((void **)&in->etimo, &in->cet, e + 1, sizeof(int))) return oom(in);
        in->etimo[e] = et->timo;
    }
    if (have) return ERR(in, MT_("the last element of the block is incomplete"));
    if (has_set && in->m->nelem > first) {
        int n = in->m->nelem - first;
        int *idx = malloc(sizeof(int) * (size_t)n);
        if (!idx) return oom(in);
        for (int i = 0; i < n; i++) idx[i] = first + i;
        int r = mt_fe_add_set(in->m, elset, MT_FE_SET_ELEM, n, idx, in->err);
        free(idx);
        if (r < 0) return -1;
    }
    return 0;
}

static int kw_set(Inp *in, const Fields *k, int kind)
{
    char name[MT_FE_NAME];
    if (!param(k, kind == MT_FE_SET_NODE ? "NSET" : "ELSET", name, sizeof name) || !name[0])
        return ERR(in, kind == MT_FE_SET_NODE ? MT_("*NSET needs NSET=") : MT_("*ELSET needs ELSET="));
    int gen = param(k, "GENERATE", NULL, 0);
    int *items = NULL, n = 0, cap = 0, *bn = NULL, nbn = 0, cbn = 0;
    Fields f;
    while (data_line(in, &f)) {
        if (gen) {
            int a, b, c = 1;
            if (f.nf < 2 || mt_num_int(f.s[0], f.n[0], &a) || mt_num_int(f.s[1], f.n[1], &b) ||
                (f.nf > 2 && mt_num_int(f.s[2], f.n[2], &c)) || c <= 0 || b < a || (long)(b - a) / c > 50000000) {
                free(items), free(bn);
                return ERR(in, MT_("GENERATE expects first, last[, increment]"));
            }
            for (long v = a; v <= b; v += c) {
                int idx = kind == MT_FE_SET_NODE ? mt_fe_node_index(in->m, (int)v) : mt_fe_elem_index(in->m, (int)v);
                if (idx < 0) continue; /* generated ranges may have gaps */
                if (grow((void **)&items, &cap, n + 1, sizeof(int))) {
                    free(items), free(bn);
                    return oom(in);
                }
                items[n++] = idx;
            }
            continue;
        }
        for (int i = 0; i < f.nf; i++) {
            if (!f.n[i]) continue;
            int id;
            if (!mt_num_int(f.s[i], f.n[i], &id)) {
                int idx = kind == MT_FE_SET_NODE ? mt_fe_node_index(in->m, id) : mt_fe_elem_index(in->m, id);
                int x = idx < 0 && kind == MT_FE_SET_ELEM ? xfind(in, id) : -1;
                if (x >= 0) { /* a boundary-marking element: its nodes go to a node set of that name */
                    int cnt = in->xoff[x + 1] - in->xoff[x];
                    if (grow((void **)&bn, &cbn, nbn + cnt, sizeof(int))) {
                        free(items), free(bn);
                        return oom(in);
                    }
                    if (cnt) memcpy(bn + nbn, in->xnode + in->xoff[x], sizeof(int) * (size_t)cnt);
                    nbn += cnt;
                    continue;
                }
                if (idx < 0) {
                    free(items), free(bn);
                    return ERR(in, kind == MT_FE_SET_NODE ? MT_("node %d is not defined") : MT_("element %d is not defined"),
                               id);
                }
                if (grow((void **)&items, &cap, n + 1, sizeof(int))) {
                    free(items), free(bn);
                    return oom(in);
                }
                items[n++] = idx;
            } else {
                char sn[MT_FE_NAME];
                snprintf(sn, sizeof sn, "%.*s", (int)(f.n[i] < sizeof sn ? f.n[i] : sizeof sn - 1), f.s[i]);
                int s = mt_fe_find_set(in->m, sn, kind);
                if (s < 0) {
                    free(items), free(bn);
                    return ERR(in, MT_("set '%s' is not defined"), sn);
                }
                const MtFeSet *st = &in->m->set[s];
                if (grow((void **)&items, &cap, n + st->n, sizeof(int))) {
                    free(items), free(bn);
                    return oom(in);
                }
                if (st->n) memcpy(items + n, in->m->setitem + st->first, sizeof(int) * (size_t)st->n);
                n += st->n;
            }
        }
    }
    int r = n || !nbn ? mt_fe_add_set(in->m, name, kind, n, items, in->err) : 0;
    if (r >= 0 && nbn) r = mt_fe_add_set(in->m, name, MT_FE_SET_NODE, nbn, bn, in->err);
    free(items), free(bn);
    return r < 0 ? -1 : 0;
}

static int kw_material(Inp *in, const Fields *k)
{
    char name[MT_FE_NAME];
    if (!param(k, "NAME", name, sizeof name) || !name[0]) return ERR(in, MT_("*MATERIAL needs NAME="));
    if (mt_fe_find_material(in->m, name) >= 0) return ERR(in, MT_("material '%s' is defined twice"), name);
    in->cur_mat = mt_fe_add_material(in->m, name, 0, 0, 0, in->err);
    Fields f;
    while (data_line(in, &f)) {
    }
    return in->cur_mat < 0 ? -1 : 0;
}

static int kw_elastic(Inp *in, const Fields *k)
{
    char type[32];
    if (param(k, "TYPE", type, sizeof type) && strcasecmp(type, "ISOTROPIC"))
        return ERR(in, MT_("*ELASTIC, TYPE=%s: only isotropic elasticity is supported"), type);
    if (in->cur_mat < 0) return ERR(in, MT_("*ELASTIC outside a *MATERIAL"));
    Fields f;
    int got = 0;
    while (data_line(in, &f)) {
        if (got++) continue; /* temperature-dependent tables: the first line */
        double E, nu;
        if (num(in, &f, 0, &E, MT_("Young's modulus")) || num(in, &f, 1, &nu, MT_("Poisson's ratio"))) return -1;
        in->m->mat[in->cur_mat].E = E, in->m->mat[in->cur_mat].nu = nu;
    }
    if (!got) return ERR(in, MT_("*ELASTIC needs a data line: E, nu"));
    return 0;
}

static int kw_density(Inp *in)
{
    if (in->cur_mat < 0) return ERR(in, MT_("*DENSITY outside a *MATERIAL"));
    Fields f;
    int got = 0;
    while (data_line(in, &f)) {
        if (got++) continue;
        if (num(in, &f, 0, &in->m->mat[in->cur_mat].rho, MT_("a density"))) return -1;
    }
    if (!got) return ERR(in, MT_("*DENSITY needs a data line"));
    return 0;
}

static int add_section(Inp *in, const Section *s)
{
    if (grow((void **)&in->sec, &in->csec, in->nsec + 1, sizeof(Section))) return oom(in);
    in->sec[in->nsec++] = *s;
    return 0;
}

static int kw_section(Inp *in, const Fields *k, int kind)
{
    Section s;
    memset(&s, 0, sizeof s);
    s.kind = kind, s.line = cur_line(in);
    if (!param(k, "ELSET", s.elset, sizeof s.elset) || !s.elset[0]) return ERR(in, MT_("a section needs ELSET="));
    if (!param(k, "MATERIAL", s.mat, sizeof s.mat) || !s.mat[0]) return ERR(in, MT_("a section needs MATERIAL="));
    Fields f;
    int nline = 0;
    s.p.v[2] = -1, s.p.has_v = 1; /* Abaqus default n1 = (0, 0, -1) */
    char sect[32] = "";
    if (kind == MT_FE_PROP_BEAM) {
        if (!param(k, "SECTION", sect, sizeof sect)) return ERR(in, MT_("*BEAM SECTION needs SECTION="));
        if (strcasecmp(sect, "RECT") && strcasecmp(sect, "CIRC") && strcasecmp(sect, "PIPE"))
            return ERR(in, MT_("beam section %s is not supported (RECT, CIRC, PIPE; or *BEAM GENERAL SECTION)"), sect);
    }
    while (data_line(in, &f)) {
        nline++;
        if (kind == MT_FE_PROP_SOLID && nline == 1 && f.nf > 0 && f.n[0] > 0) { /* plane stress: the thickness */
            if (num(in, &f, 0, &s.tsolid, MT_("a thickness"))) return -1;
        } else if (kind == MT_FE_PROP_SHELL && nline == 1) {
            if (num(in, &f, 0, &s.p.t, MT_("a shell thickness"))) return -1;
        } else if (kind == MT_FE_PROP_BEAM && nline == 1) {
            double a, b;
            if (!strcasecmp(sect, "RECT")) {
                if (num(in, &f, 0, &a, MT_("the width a")) || num(in, &f, 1, &b, MT_("the height b"))) return -1;
                double hi = fmax(a, b), lo = fmin(a, b);
                s.p.A = a * b, s.p.Iy = a * b * b * b / 12, s.p.Iz = b * a * a * a / 12;
                s.p.J = hi * lo * lo * lo * (1.0 / 3 - 0.21 * lo / hi * (1 - pow(lo / hi, 4) / 12));
                s.p.ky = s.p.kz = 5.0 / 6;
            } else if (!strcasecmp(sect, "CIRC")) {
                if (num(in, &f, 0, &a, MT_("the radius"))) return -1;
                s.p.A = M_PI * a * a, s.p.Iy = s.p.Iz = M_PI * pow(a, 4) / 4, s.p.J = 2 * s.p.Iy;
                s.p.ky = s.p.kz = 0.9;
            } else {
                if (num(in, &f, 0, &a, MT_("the outer radius")) || num(in, &f, 1, &b, MT_("the wall thickness")))
                    return -1;
                double ri = a - b;
                s.p.A = M_PI * (a * a - ri * ri), s.p.Iy = s.p.Iz = M_PI * (pow(a, 4) - pow(ri, 4)) / 4;
                s.p.J = 2 * s.p.Iy, s.p.ky = s.p.kz = 0.5;
            }
        } else if (kind == MT_FE_PROP_BEAM && nline == 2) {
            for (int i = 0; i < 3; i++)
                if (num(in, &f, i, &s.p.v[i], MT_("a component of the section axis n1"))) return -1;
        }
    }
    if (kind == MT_FE_PROP_SHELL && nline < 1)
        return ERR(in, MT_("*SHELL SECTION and *MEMBRANE SECTION need the thickness on a data line"));
    if (kind == MT_FE_PROP_BEAM && nline < 1) return ERR(in, MT_("*BEAM SECTION needs the section dimensions"));
    return add_section(in, &s);
}

static int kw_beam_general(Inp *in, const Fields *k)
{
    Section s;
    memset(&s, 0, sizeof s);
    s.kind = MT_FE_PROP_BEAM, s.line = cur_line(in), s.general = 1;
    if (!param(k, "ELSET", s.elset, sizeof s.elset) || !s.elset[0]) return ERR(in, MT_("a section needs ELSET="));
    char sect[32], dens[40];
    if (param(k, "SECTION", sect, sizeof sect) && strcasecmp(sect, "GENERAL"))
        return ERR(in, MT_("*BEAM GENERAL SECTION, SECTION=%s is not supported (GENERAL)"), sect);
    if (param(k, "DENSITY", dens, sizeof dens) && mt_num_double(dens, strlen(dens), &s.rho))
        return ERR(in, MT_("DENSITY= expects a number"));
    s.p.v[2] = -1, s.p.has_v = 1;
    Fields f;
    int nline = 0;
    while (data_line(in, &f)) {
        nline++;
        if (nline == 1) {
            double I12;
            if (num(in, &f, 0, &s.p.A, MT_("the area")) || num(in, &f, 1, &s.p.Iy, "I11") || num(in, &f, 2, &I12, "I12") ||
                num(in, &f, 3, &s.p.Iz, "I22") || num(in, &f, 4, &s.p.J, "J"))
                return -1;
            if (I12 != 0) return ERR(in, MT_("I12 must be zero: give the section in its principal axes"));
        } else if (nline == 2) {
            for (int i = 0; i < 3; i++)
                if (num(in, &f, i, &s.p.v[i], MT_("a component of the section axis n1"))) return -1;
        } else if (nline == 3) {
            if (num(in, &f, 0, &s.E, MT_("Young's modulus")) || num(in, &f, 1, &s.G, MT_("the shear modulus"))) return -1;
        }
    }
    if (nline < 3) return ERR(in, MT_("*BEAM GENERAL SECTION needs three data lines (A, I11, I12, I22, J; n1; E, G)"));
    s.p.ky = s.p.kz = 5.0 / 6;
    return add_section(in, &s);
}

static int kw_mass(Inp *in, const Fields *k, int rotary)
{
    char elset[MT_FE_NAME];
    if (!param(k, "ELSET", elset, sizeof elset)) return ERR(in, MT_("*MASS and *ROTARY INERTIA need ELSET="));
    Fields f;
    double v[6] = {0};
    int got = 0;
    while (data_line(in, &f)) {
        if (got++) continue;
        for (int i = 0; i < (rotary ? 6 : 1); i++) {
            if (i >= f.nf || !f.n[i]) continue;
            if (num(in, &f, i, &v[i], rotary ? MT_("a moment of inertia") : MT_("a mass"))) return -1;
        }
    }
    int any = 0;
    for (int i = 0; i < in->npt; i++) {
        if (strcasecmp(in->pt[i].elset, elset)) continue;
        any = 1;
        if (rotary) { /* I11 I22 I33 I12 I13 I23 → xx yy zz xy yz xz */
            Point *p = &in->pt[i];
            p->J[0] = v[0], p->J[1] = v[1], p->J[2] = v[2], p->J[3] = v[3], p->J[4] = v[5], p->J[5] = v[4];
        } else in->pt[i].m = v[0];
    }
    if (!any) return ERR(in, MT_("no MASS or ROTARYI element is in element set '%s'"), elset);
    return 0;
}

static int kw_boundary(Inp *in)
{
    Fields f;
    int *nodes = NULL, nn = 0, cap = 0;
    while (data_line(in, &f)) {
        nn = 0;
        if (nodes_of(in, f.s[0], f.n[0], &nodes, &nn, &cap)) goto fail;
        int mask = 0, a, b;
        if (f.nf >= 2 && (feq(f.s[1], f.n[1], "ENCASTRE"))) mask = MT_FE_ALL;
        else if (f.nf >= 2 && feq(f.s[1], f.n[1], "PINNED")) mask = MT_FE_TRANS;
        else if (f.nf >= 2 && (feq(f.s[1], f.n[1], "XSYMM") || feq(f.s[1], f.n[1], "YSYMM") ||
                               feq(f.s[1], f.n[1], "ZSYMM"))) {
            int ax = toupper((unsigned char)f.s[1][0]) - 'X';
            mask = 1 << ax | 1 << (3 + (ax + 1) % 3) | 1 << (3 + (ax + 2) % 3);
        } else {
            if (f.nf < 2 || mt_num_int(f.s[1], f.n[1], &a) || a < 1 || a > 6) {
                ERR(in, MT_("*BOUNDARY expects node or set, first DOF (1-6)[, last DOF[, value]]"));
                goto fail;
            }
            b = a;
            if (f.nf >= 3 && f.n[2] && (mt_num_int(f.s[2], f.n[2], &b) || b < a || b > 6)) {
                ERR(in, MT_("*BOUNDARY: last DOF must be between the first and 6"));
                goto fail;
            }
            double val = 0;
            if (f.nf >= 4 && f.n[3] && num(in, &f, 3, &val, MT_("a prescribed value"))) goto fail;
            if (val != 0) {
                ERR(in, MT_("*BOUNDARY with a nonzero value: prescribed motion is not part of a modal reduction"));
                goto fail;
            }
            for (int c = a; c <= b; c++) mask |= 1 << (c - 1);
        }
        for (int i = 0; i < nn; i++)
            if (mt_fe_add_spc(in->m, nodes[i], mask, in->err) < 0) goto fail;
    }
    free(nodes);
    return 0;
fail:
    free(nodes);
    return -1;
}

static int add_rbe(Inp *in, int type, int ref, int cm, int n, const int *nodes, const double *w)
{
    if (n < 1) return ERR(in, MT_("the coupling has no nodes"));
    int id = 1;
    for (int i = 0; i < in->m->nrigid; i++)
        if (in->m->rigid[i].id >= id) id = in->m->rigid[i].id + 1;
    MtError e2 = {0};
    if (mt_fe_add_rigid(in->m, id, type, ref, cm, n, nodes, w, &e2) < 0) return ERR(in, "%s", e2.msg);
    return 0;
}

static int kw_rigid_body(Inp *in, const Fields *k)
{
    char ref[40], set[MT_FE_NAME];
    int node, *nodes = NULL, nn = 0, cap = 0, cm = MT_FE_ALL;
    if (!param(k, "REF NODE", ref, sizeof ref)) return ERR(in, MT_("*RIGID BODY needs REF NODE="));
    if (node_of(in, ref, strlen(ref), &node)) return -1;
    if (param(k, "TIE NSET", set, sizeof set)) {
    } else if (param(k, "PIN NSET", set, sizeof set)) cm = MT_FE_TRANS;
    else if (param(k, "ELSET", set, sizeof set)) {
        int s = mt_fe_find_set(in->m, set, MT_FE_SET_ELEM);
        if (s < 0) return ERR(in, MT_("element set '%s' is not defined"), set);
        for (int i = 0; i < in->m->set[s].n; i++) {
            const MtFeElem *el = &in->m->elem[in->m->setitem[in->m->set[s].first + i]];
            int k2 = mt_fe_type_nodes(el->type);
            if (grow((void **)&nodes, &cap, nn + k2, sizeof(int))) {
                free(nodes);
                return oom(in);
            }
            for (int a = 0; a < k2; a++) nodes[nn++] = in->m->conn[el->conn + a];
        }
        set[0] = 0;
    } else return ERR(in, MT_("*RIGID BODY needs TIE NSET=, PIN NSET= or ELSET="));
    if (set[0] && nodes_of(in, set, strlen(set), &nodes, &nn, &cap)) {
        free(nodes);
        return -1;
    }
    /* unique, without the reference node */
    int k2 = 0;
    for (int i = 0; i < nn; i++) {
        int dup = nodes[i] == node;
        for (int j = 0; j < k2 && !dup; j++) dup = nodes[j] == nodes[i];
        if (!dup) nodes[k2++] = nodes[i];
    }
    Fields f;
    while (data_line(in, &f)) {
    }
    int r = add_rbe(in, MT_FE_RBE2, node, cm, k2, nodes, NULL);
    free(nodes);
    return r;
}

static int kw_kinematic_coupling(Inp *in, const Fields *k)
{
    char ref[40];
    int node;
    if (!param(k, "REF NODE", ref, sizeof ref)) return ERR(in, MT_("*KINEMATIC COUPLING needs REF NODE="));
    if (node_of(in, ref, strlen(ref), &node)) return -1;
    Fields f;
    int *nodes = NULL, nn = 0, cap = 0;
    while (data_line(in, &f)) {
        nn = 0;
        if (nodes_of(in, f.s[0], f.n[0], &nodes, &nn, &cap)) goto fail;
        int a = 1, b = 6;
        if (f.nf >= 2 && f.n[1] && (mt_num_int(f.s[1], f.n[1], &a) || a < 1 || a > 6)) {
            ERR(in, MT_("expected a DOF number 1-6"));
            goto fail;
        }
        b = f.nf >= 3 && f.n[2] ? b : (f.nf >= 2 && f.n[1] ? a : 6);
        if (f.nf >= 3 && f.n[2] && (mt_num_int(f.s[2], f.n[2], &b) || b < a || b > 6)) {
            ERR(in, MT_("expected a DOF number 1-6"));
            goto fail;
        }
        int cm = 0;
        for (int c = a; c <= b; c++) cm |= 1 << (c - 1);
        int k2 = 0;
        for (int i = 0; i < nn; i++)
            if (nodes[i] != node) nodes[k2++] = nodes[i];
        if (add_rbe(in, MT_FE_RBE2, node, cm, k2, nodes, NULL)) goto fail;
    }
    free(nodes);
    return 0;
fail:
    free(nodes);
    return -1;
}

/* Abaqus face numbering (1-based nodes): tets S1 (1,2,3) S2 (1,4,2) S3 (2,4,3)
 * S4 (3,4,1); hexahedra S1 (1,2,3,4) S2 (5,8,7,6) S3 (1,5,6,2) S4 (2,6,7,3)
 * S5 (3,7,8,4) S6 (4,8,5,1). Quadratic tets add the mid-side nodes. */
static int face_nodes(const MtFeModel *m, int e, int face, int *out)
{
    static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
    static const int hf[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
    static const int ed[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    const MtFeElem *el = &m->elem[e];
    const int *c = m->conn + el->conn;
    int n = 0;
    if (el->type == MT_FE_HEX8) {
        if (face < 1 || face > 6) return -1;
        for (int k = 0; k < 4; k++) out[n++] = c[hf[face - 1][k]];
        return n;
    }
    if (el->type != MT_FE_TET4 && el->type != MT_FE_TET10) return -1;
    if (face < 1 || face > 4) return -1;
    const int *t = tf[face - 1];
    for (int k = 0; k < 3; k++) out[n++] = c[t[k]];
    if (el->type == MT_FE_TET10)
        for (int k = 0; k < 3; k++) {
            int a = t[k], b = t[(k + 1) % 3];
            for (int q = 0; q < 6; q++)
                if ((ed[q][0] == a && ed[q][1] == b) || (ed[q][0] == b && ed[q][1] == a)) out[n++] = c[4 + q];
        }
    return n;
}

static int kw_surface(Inp *in, const Fields *k)
{
    char name[MT_FE_NAME], type[32] = "ELEMENT";
    if (!param(k, "NAME", name, sizeof name) || !name[0]) return ERR(in, MT_("*SURFACE needs NAME="));
    param(k, "TYPE", type, sizeof type);
    int node_based = !strcasecmp(type, "NODE");
    if (!node_based && strcasecmp(type, "ELEMENT"))
        return ERR(in, MT_("*SURFACE, TYPE=%s is not supported (NODE, ELEMENT)"), type);
    if (grow((void **)&in->sf, &in->csf, in->nsf + 1, sizeof(Surface))) return oom(in);
    Surface *s = &in->sf[in->nsf];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->first = in->nsn, s->n = 0;
    Fields f;
    int *nodes = NULL, nn = 0, cap = 0;
    while (data_line(in, &f)) {
        nn = 0;
        double w = 1;
        if (node_based) {
            if (nodes_of(in, f.s[0], f.n[0], &nodes, &nn, &cap)) goto fail;
            if (f.nf >= 2 && f.n[1] && num(in, &f, 1, &w, MT_("a weight"))) goto fail;
        } else {
            /* element or element set, face S1..S6 */
            int face;
            if (f.nf < 2 || f.n[1] < 2 || toupper((unsigned char)f.s[1][0]) != 'S' ||
                mt_num_int(f.s[1] + 1, f.n[1] - 1, &face)) {
                ERR(in, MT_("an element-based surface line is: element or element set, face S1..S6"));
                goto fail;
            }
            int id, *els = NULL, ne = 0, single;
            if (!mt_num_int(f.s[0], f.n[0], &id)) {
                single = mt_fe_elem_index(in->m, id);
                if (single < 0) {
                    ERR(in, MT_("element %d is not defined"), id);
                    goto fail;
                }
                els = &single, ne = 1;
            } else {
                char sn[MT_FE_NAME];
                snprintf(sn, sizeof sn, "%.*s", (int)(f.n[0] < sizeof sn ? f.n[0] : sizeof sn - 1), f.s[0]);
                int st = mt_fe_find_set(in->m, sn, MT_FE_SET_ELEM);
                if (st < 0) {
                    ERR(in, MT_("element set '%s' is not defined"), sn);
                    goto fail;
                }
                els = in->m->setitem + in->m->set[st].first, ne = in->m->set[st].n;
            }
            for (int i = 0; i < ne; i++) {
                int fn[8], c = face_nodes(in->m, els[i], face, fn);
                if (c < 0) {
                    ERR(in, MT_("element %d has no face S%d"), in->m->elem[els[i]].id, face);
                    goto fail;
                }
                if (grow((void **)&nodes, &cap, nn + c, sizeof(int))) {
                    oom(in);
                    goto fail;
                }
                memcpy(nodes + nn, fn, sizeof(int) * (size_t)c);
                nn += c;
            }
        }
        if (in->nsn + nn > in->csn) {
            int c = in->csn ? in->csn : 64;
            while (c < in->nsn + nn) c *= 2;
            int *sn = realloc(in->snode, sizeof(int) * (size_t)c);
            if (!sn) {
                oom(in);
                goto fail;
            }
            in->snode = sn;
            double *sw = realloc(in->sw, sizeof(double) * (size_t)c);
            if (!sw) {
                oom(in);
                goto fail;
            }
            in->sw = sw, in->csn = c;
        }
        if (in->nsmark < in->m->nnode || !in->smark) {
            int *mk = realloc(in->smark, sizeof(int) * ((size_t)in->m->nnode + 1));
            if (!mk) {
                oom(in);
                goto fail;
            }
            memset(mk + in->nsmark, 0, sizeof(int) * ((size_t)(in->m->nnode - in->nsmark) + 1));
            in->smark = mk, in->nsmark = in->m->nnode;
        }
        for (int i = 0; i < nn; i++) { /* unique within the surface */
            if (nodes[i] >= in->nsmark || in->smark[nodes[i]] == in->nsf + 1) continue;
            in->smark[nodes[i]] = in->nsf + 1;
            in->snode[in->nsn] = nodes[i];
            in->sw[in->nsn] = w;
            in->nsn++;
            s->n++;
        }
    }
    in->nsf++;
    free(nodes);
    return 0;
fail:
    free(nodes);
    return -1;
}

static int kw_coupling(Inp *in, const Fields *k)
{
    char ref[40], surf[MT_FE_NAME];
    if (!param(k, "REF NODE", ref, sizeof ref) || !param(k, "SURFACE", surf, sizeof surf))
        return ERR(in, MT_("*COUPLING needs REF NODE= and SURFACE="));
    if (node_of(in, ref, strlen(ref), &in->cp_ref)) return -1;
    in->cp_surf = -1;
    for (int i = 0; i < in->nsf; i++)
        if (!strcasecmp(in->sf[i].name, surf)) in->cp_surf = i;
    if (in->cp_surf < 0) return ERR(in, MT_("surface '%s' is not defined"), surf);
    in->cp_line = cur_line(in);
    Fields f;
    while (data_line(in, &f)) {
    }
    return 0;
}

static int kw_coupling_kind(Inp *in, int type)
{
    if (in->cp_surf < 0) return ERR(in, MT_("*KINEMATIC or *DISTRIBUTING must follow *COUPLING"));
    Fields f;
    int cm = 0, any = 0;
    while (data_line(in, &f)) {
        int a, b;
        any = 1;
        if (mt_num_int(f.s[0], f.n[0], &a) || a < 1 || a > 6) return ERR(in, MT_("expected a DOF number 1-6"));
        b = a;
        if (f.nf >= 2 && f.n[1] && (mt_num_int(f.s[1], f.n[1], &b) || b < a || b > 6))
            return ERR(in, MT_("expected a DOF number 1-6"));
        for (int c = a; c <= b; c++) cm |= 1 << (c - 1);
    }
    if (!any) cm = MT_FE_ALL;
    const Surface *s = &in->sf[in->cp_surf];
    int *nodes = malloc(sizeof(int) * (size_t)(s->n + 1));
    if (!nodes) return oom(in);
    int n = 0;
    double *w = malloc(sizeof(double) * (size_t)(s->n + 1));
    if (!w) {
        free(nodes);
        return oom(in);
    }
    for (int i = 0; i < s->n; i++)
        if (in->snode[s->first + i] != in->cp_ref) nodes[n] = in->snode[s->first + i], w[n] = in->sw[s->first + i], n++;
    int r = add_rbe(in, type, in->cp_ref, type == MT_FE_RBE3 ? MT_FE_ALL : cm, n, nodes, w);
    free(nodes), free(w);
    in->cp_surf = -1;
    return r;
}

static int kw_include(Inp *in, const Fields *k)
{
    char file[400];
    if (!param(k, "INPUT", file, sizeof file) || !file[0]) return ERR(in, MT_("*INCLUDE needs INPUT="));
    if (in->depth >= MAXDEPTH) return ERR(in, MT_("*INCLUDE nested deeper than %d"), MAXDEPTH);
    if (in->nincl >= MAXINCL) return ERR(in, MT_("more than %d *INCLUDE files"), MAXINCL);
    in->nincl++;
    const char *cur = cur_name(in);
    char path[512];
    const char *slash = strrchr(cur, '/');
    if (file[0] == '/' || !slash) snprintf(path, sizeof path, "%s", file);
    else snprintf(path, sizeof path, "%.*s/%s", (int)(slash - cur), cur, file);
    if (!in->name || !strcmp(in->name, "<mesh>")) return ERR(in, MT_("*INCLUDE is not available for text without a file"));
    size_t len;
    MtError e2 = {0};
    char *buf = mt_file_read_all(path, &len, &e2);
    if (!buf) return ERR(in, "%s", e2.msg);
    Fields f;
    while (data_line(in, &f)) {
    }
    int d = in->depth++;
    in->st[d].buf = buf;
    snprintf(in->st[d].path, sizeof in->st[d].path, "%s", path);
    mt_lines_init(&in->st[d].r, buf, len, in->st[d].path);
    return 0;
}

static void skip_data(Inp *in)
{
    Fields f;
    while (data_line(in, &f)) {
    }
}

/* ---- end of file: sections, masses --------------------------------------------- */

/* The CPS/M3D blocks whose set a section names become plane-stress
 * membranes; the section then is a shell-kind property (a *SOLID SECTION's
 * thickness, 1 if none, as Abaqus). CPS elements are 2-D: their nodes' uz is
 * held, which is what a plane-stress model in the x–y plane means. */
static int make_membranes(Inp *in, Section *s)
{
    MtFeModel *m = in->m;
    int made = 0;
    for (int b = 0; b < in->nmb; b++) {
        Memb *mb = &in->mb[b];
        if (strcasecmp(mb->elset, s->elset)) continue;
        int nn = mt_fe_type_nodes(mb->type), *idx = malloc(sizeof(int) * (size_t)mb->nx);
        if (!idx) return oom(in);
        for (int j = 0; j < mb->nx; j++) {
            int x = mb->x0 + j, nodes[8];
            if (in->xoff[x + 1] - in->xoff[x] != nn) {
                free(idx);
                return mt_mesh_err(in->err, in->name, mb->line, MT_("element %d has %d nodes, its type needs %d"), in->xid[x],
                                   in->xoff[x + 1] - in->xoff[x], nn);
            }
            memcpy(nodes, in->xnode + in->xoff[x], sizeof(int) * (size_t)nn);
            MtError e2 = {0};
            idx[j] = mt_fe_add_elem(m, in->xid[x], mb->type, -1, nodes, &e2);
            for (int a = 0; mb->plane && idx[j] >= 0 && a < nn; a++)
                if (mt_fe_add_spc(m, nodes[a], 0x04, &e2) < 0) idx[j] = -1;
            if (idx[j] < 0) {
                free(idx);
                return mt_mesh_err(in->err, in->name, mb->line, "%s", e2.msg);
            }
        }
        int r = mt_fe_add_set(m, mb->elset, MT_FE_SET_ELEM, mb->nx, idx, in->err);
        free(idx);
        if (r < 0) return -1;
        mb->nx = 0, made = 1; /* once */
    }
    if (made && s->kind == MT_FE_PROP_SOLID) s->kind = MT_FE_PROP_SHELL, s->p.t = s->tsolid > 0 ? s->tsolid : 1;
    return 0;
}

static int finish(Inp *in)
{
    MtFeModel *m = in->m;
    for (int i = 0; i < in->nsec; i++)
        if (!in->sec[i].general && in->sec[i].kind != MT_FE_PROP_BEAM && make_membranes(in, &in->sec[i])) return -1;
    for (int b = 0; b < in->nmb; b++) /* blocks no section claimed: boundary marks, not used */
        if (in->mb[b].nx) mt_mesh_skip(m, in->mb[b].tname, strlen(in->mb[b].tname));
    for (int i = 0; i < in->nsec; i++) {
        Section *s = &in->sec[i];
        int mat;
        if (s->general) {
            if (!(s->G > 0) || !(s->E > 0))
                return mt_mesh_err(in->err, in->name, s->line, MT_("beam section for '%s': E and G must be positive"),
                                   s->elset);
            char nm[MT_FE_NAME];
            snprintf(nm, sizeof nm, "section-%d", i + 1);
            mat = mt_fe_add_material(m, nm, s->E, s->E / (2 * s->G) - 1, s->rho, in->err);
            if (mat < 0) return -1;
        } else {
            mat = mt_fe_find_material(m, s->mat);
            if (mat < 0) return mt_mesh_err(in->err, in->name, s->line, MT_("material '%s' is not defined"), s->mat);
        }
        int set = mt_fe_find_set(m, s->elset, MT_FE_SET_ELEM);
        if (set < 0) return mt_mesh_err(in->err, in->name, s->line, MT_("element set '%s' is not defined"), s->elset);
        s->p.kind = s->kind, s->p.mat = mat;
        snprintf(s->p.name, sizeof s->p.name, "%s", s->elset);
        int pt = -1, pe = -1; /* Timoshenko and Euler–Bernoulli variants, made when used */
        for (int j = 0; j < m->set[set].n; j++) {
            int e = m->setitem[m->set[set].first + j];
            MtFeElem *el = &m->elem[e];
            int want = mt_fe_type_prop_kind(el->type);
            if (want != s->kind)
                return mt_mesh_err(in->err, in->name, s->line, MT_("element %d of set '%s' does not fit this section"),
                                   el->id, s->elset);
            int timo = s->kind == MT_FE_PROP_BEAM && e < in->cet && in->etimo[e];
            int *slot = timo || s->kind != MT_FE_PROP_BEAM ? &pt : &pe;
            if (*slot < 0) {
                MtFeProp p = s->p;
                if (s->kind == MT_FE_PROP_BEAM && !timo) p.ky = p.kz = 0;
                *slot = mt_fe_add_prop(m, &p, in->err);
                if (*slot < 0) return -1;
            }
            el->prop = *slot;
        }
    }
    for (int i = 0; i < in->npt; i++) {
        const Point *p = &in->pt[i];
        if (p->m == 0 && p->J[0] == 0 && p->J[1] == 0 && p->J[2] == 0) continue;
        if (mt_fe_add_mass(m, p->id, p->node, p->m, NULL, p->J, in->err) < 0) return -1;
    }
    return 0;
}

MtFeModel *mt_mesh_read_inp(const char *text, size_t len, const char *name, MtError *err)
{
    Inp in;
    memset(&in, 0, sizeof in);
    in.name = name ? name : "<mesh>";
    in.err = err;
    in.cur_mat = -1;
    in.cp_surf = -1;
    in.m = mt_fe_model_new();
    if (!in.m) {
        oom(&in);
        return NULL;
    }
    in.depth = 1;
    snprintf(in.st[0].path, sizeof in.st[0].path, "%s", in.name);
    mt_lines_init(&in.st[0].r, text, len, in.st[0].path);
    int rc = 0, any = 0;
    const char *s;
    size_t n;
    while (!rc && next_line(&in, &s, &n)) {
        const char *t = s;
        size_t m = n;
        while (m && isspace((unsigned char)*t)) t++, m--;
        if (!m || (m >= 2 && t[0] == '*' && t[1] == '*')) continue;
        if (t[0] != '*') {
            rc = ERR(&in, MT_("expected a keyword line starting with '*', found '%.*s'"), (int)(m > 40 ? 40 : m), t);
            break;
        }
        any = 1;
        Fields k;
        split(t + 1, m - 1, &k);
        const char *kw = k.s[0];
        size_t kn = k.n[0];
        if (feq(kw, kn, "NODE")) rc = kw_node(&in, &k);
        else if (feq(kw, kn, "ELEMENT")) rc = kw_element(&in, &k);
        else if (feq(kw, kn, "NSET")) rc = kw_set(&in, &k, MT_FE_SET_NODE);
        else if (feq(kw, kn, "ELSET")) rc = kw_set(&in, &k, MT_FE_SET_ELEM);
        else if (feq(kw, kn, "MATERIAL")) rc = kw_material(&in, &k);
        else if (feq(kw, kn, "ELASTIC")) rc = kw_elastic(&in, &k);
        else if (feq(kw, kn, "DENSITY")) rc = kw_density(&in);
        else if (feq(kw, kn, "SOLID SECTION")) rc = kw_section(&in, &k, MT_FE_PROP_SOLID);
        else if (feq(kw, kn, "SHELL SECTION")) rc = kw_section(&in, &k, MT_FE_PROP_SHELL);
        else if (feq(kw, kn, "MEMBRANE SECTION")) rc = kw_section(&in, &k, MT_FE_PROP_SHELL);
        else if (feq(kw, kn, "BEAM SECTION")) rc = kw_section(&in, &k, MT_FE_PROP_BEAM);
        else if (feq(kw, kn, "BEAM GENERAL SECTION")) rc = kw_beam_general(&in, &k);
        else if (feq(kw, kn, "MASS")) rc = kw_mass(&in, &k, 0);
        else if (feq(kw, kn, "ROTARY INERTIA")) rc = kw_mass(&in, &k, 1);
        else if (feq(kw, kn, "BOUNDARY")) rc = kw_boundary(&in);
        else if (feq(kw, kn, "RIGID BODY")) rc = kw_rigid_body(&in, &k);
        else if (feq(kw, kn, "KINEMATIC COUPLING")) rc = kw_kinematic_coupling(&in, &k);
        else if (feq(kw, kn, "SURFACE")) rc = kw_surface(&in, &k);
        else if (feq(kw, kn, "COUPLING")) rc = kw_coupling(&in, &k);
        else if (feq(kw, kn, "KINEMATIC")) rc = kw_coupling_kind(&in, MT_FE_RBE2);
        else if (feq(kw, kn, "DISTRIBUTING")) rc = kw_coupling_kind(&in, MT_FE_RBE3);
        else if (feq(kw, kn, "INCLUDE")) rc = kw_include(&in, &k);
        else if (feq(kw, kn, "HEADING")) {
            Fields f;
            if (data_line(&in, &f) && f.nf)
                snprintf(in.m->title, sizeof in.m->title, "%.*s", (int)(f.n[0] > 127 ? 127 : f.n[0]), f.s[0]);
            skip_data(&in);
        } else {
            /* anything else (steps, outputs, loads, other material laws) is skipped */
            if (!feq(kw, kn, "STEP") && !feq(kw, kn, "END STEP") && !feq(kw, kn, "FREQUENCY")) mt_mesh_skip(in.m, kw, kn);
            if (!feq(kw, kn, "ELASTIC") && !feq(kw, kn, "DENSITY") && !feq(kw, kn, "EXPANSION") && !feq(kw, kn, "DAMPING") &&
                !feq(kw, kn, "PLASTIC") && !feq(kw, kn, "CONDUCTIVITY") && !feq(kw, kn, "SPECIFIC HEAT"))
                in.cur_mat = -1;
            skip_data(&in);
        }
    }
    if (!rc && !any) rc = mt_mesh_err(err, in.name, 0, MT_("no keyword found: not an Abaqus/CalculiX input file"));
    if (!rc && !in.m->nelem && !in.nmb) rc = mt_mesh_err(err, in.name, 0, MT_("the file defines no element"));
    if (!rc) rc = finish(&in);
    if (!rc && !in.m->nelem) rc = mt_mesh_err(err, in.name, 0, MT_("the file defines no element")); /* CPS/M3D without a section */
    while (in.depth > 1) free(in.st[--in.depth].buf);
    free(in.sec), free(in.pt), free(in.sf), free(in.snode), free(in.sw), free(in.etimo), free(in.smark);
    free(in.xid), free(in.xoff), free(in.xnode), free(in.xorder), free(in.mb);
    if (rc) {
        mt_fe_model_free(in.m);
        return NULL;
    }
    return in.m;
}
