/* mt_mesh_msh.c — Gmsh .msh reader, ASCII formats 2.2 and 4.0/4.1
 * (motus/mesh.h). The text is read as whitespace-separated tokens; sections we
 * do not use are skipped up to their $End marker. Gmsh's 10-node tetrahedron
 * lists its last two mid-side nodes as edges 2-3, 1-3 (0-based); they are
 * swapped into the Abaqus/Nastran order (1-3, 2-3) used inside Motus; the
 * 20-node hexahedron's mid-edge nodes are reordered to Abaqus's likewise.
 * 8-node quadrangles are 8-node shells (quad8), as 4-node ones are quad4. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_mesh_text.h"

typedef struct {
    const char *p, *end, *name;
    int line;
    const char *tok; /* last token */
    size_t n;
    int tline;       /* its line */
} Tok;

static int next(Tok *t)
{
    while (t->p < t->end && isspace((unsigned char)*t->p)) {
        if (*t->p == '\n') t->line++;
        t->p++;
    }
    if (t->p >= t->end) return 0;
    const char *a = t->p;
    if (*a == '"') { /* quoted name */
        const char *q = a + 1;
        while (q < t->end && *q != '"' && *q != '\n') q++;
        t->tok = a + 1, t->n = (size_t)(q - a - 1), t->tline = t->line;
        t->p = q < t->end && *q == '"' ? q + 1 : q;
        return 1;
    }
    while (t->p < t->end && !isspace((unsigned char)*t->p)) t->p++;
    t->tok = a, t->n = (size_t)(t->p - a), t->tline = t->line;
    return 1;
}

static int is(const Tok *t, const char *s) { return t->n == strlen(s) && !memcmp(t->tok, s, t->n); }

static int bad(Tok *t, MtError *err, const char *what)
{
    if (t->p >= t->end && !t->n)
        return mt_mesh_err(err, t->name, t->line, MT_("unexpected end of file while reading %s"), what);
    return mt_mesh_err(err, t->name, t->tline, MT_("expected %s, found '%.*s'"), what, (int)(t->n > 40 ? 40 : t->n),
                       t->tok);
}

static int get_int(Tok *t, int *v, MtError *err, const char *what)
{
    t->n = 0;
    if (!next(t) || mt_num_int(t->tok, t->n, v)) return bad(t, err, what);
    return 0;
}

static int get_nonneg(Tok *t, int *v, MtError *err, const char *what)
{
    if (get_int(t, v, err, what)) return -1;
    if (*v < 0) return bad(t, err, what);
    return 0;
}

static int get_double(Tok *t, double *v, MtError *err, const char *what)
{
    t->n = 0;
    if (!next(t) || mt_num_double(t->tok, t->n, v)) return bad(t, err, what);
    return 0;
}

/* Skips to the token $End<name> of section name (t->tok is "$name"). */
static int skip_section(Tok *t, MtError *err)
{
    char endtag[80];
    snprintf(endtag, sizeof endtag, "$End%.*s", (int)(t->n > 60 ? 60 : t->n - 1), t->tok + 1);
    int line = t->tline;
    while (next(t))
        if (is(t, endtag)) return 0;
    return mt_mesh_err(err, t->name, line, MT_("section %s is not closed by %s"), endtag + 4, endtag);
}

static int expect_end(Tok *t, const char *tag, MtError *err)
{
    t->n = 0;
    if (!next(t) || !is(t, tag)) return bad(t, err, tag);
    return 0;
}

/* Gmsh element types: dimension, node count, Motus type (-1: not supported). */
static int gtype_info(int g, int *dim, int *nn)
{
    static const int tab[20][3] = {{-1, 0, 0},          {1, 2, MT_FE_BEAM2}, {2, 3, MT_FE_TRIA3}, {2, 4, MT_FE_QUAD4},
                                   {3, 4, MT_FE_TET4},  {3, 8, MT_FE_HEX8},  {3, 6, -1},          {3, 5, -1},
                                   {1, 3, -1},          {2, 6, -1},          {2, 9, -1},          {3, 10, MT_FE_TET10},
                                   {3, 27, -1},         {3, 18, -1},         {3, 14, -1},         {0, 1, -1},
                                   {2, 8, MT_FE_QUAD8}, {3, 20, MT_FE_HEX20}, {3, 15, -1},        {3, 13, -1}};
    *dim = -1, *nn = 0;
    if (g < 1 || g > 19) return -2;
    *dim = tab[g][0], *nn = tab[g][1];
    return tab[g][2];
}

static const char *gtype_name(int g)
{
    static const char *const names[20] = {"?",       "line2",  "tri3",   "quad4",   "tet4",   "hex8",   "prism6",
                                          "pyramid5", "line3", "tri6",   "quad9",   "tet10",  "hex27",  "prism18",
                                          "pyramid14", "point", "quad8", "hex20",   "prism15", "pyramid13"};
    return g >= 1 && g <= 19 ? names[g] : "?";
}

typedef struct {
    int dim, tag;
    char name[MT_FE_NAME];
} PName;

typedef struct {
    int dim, tag, first, n; /* physical tags in ptag[first..] */
} Ent;

typedef struct {
    int gtype, dim, ent, phys, line, id, first; /* node labels in lab[first..] */
} El;

typedef struct {
    PName *pn;
    int npn, cpn;
    Ent *en;
    int nen, cen;
    int *ptag;
    int nptag, cptag;
    El *el;
    int nel, cel;
    int *lab;
    size_t nlab, clab;
} Msh;

static int grow(void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 64;
    while (c < need) {
        if (c > (1 << 29)) return -1;
        c *= 2;
    }
    void *q = realloc(*p, sz * (size_t)c);
    if (!q) return -1;
    *p = q, *cap = c;
    return 0;
}

static int oom(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory reading the mesh"));
    return -1;
}

static const char *phys_name(const Msh *h, int dim, int tag, char *buf, size_t n)
{
    for (int i = 0; i < h->npn; i++)
        if (h->pn[i].dim == dim && h->pn[i].tag == tag) return h->pn[i].name;
    snprintf(buf, n, "PHYSICAL%d_%d", dim, tag);
    return buf;
}

static int read_physnames(Tok *t, Msh *h, MtError *err)
{
    int n;
    if (get_nonneg(t, &n, err, MT_("the number of physical names"))) return -1;
    for (int i = 0; i < n; i++) {
        int dim, tag;
        if (get_int(t, &dim, err, MT_("a dimension")) || get_int(t, &tag, err, MT_("a physical tag"))) return -1;
        t->n = 0;
        if (!next(t)) return bad(t, err, MT_("a physical name"));
        if (grow((void **)&h->pn, &h->cpn, h->npn + 1, sizeof(PName))) return oom(err);
        PName *p = &h->pn[h->npn++];
        p->dim = dim, p->tag = tag;
        snprintf(p->name, sizeof p->name, "%.*s", (int)(t->n > 63 ? 63 : t->n), t->tok);
    }
    return expect_end(t, "$EndPhysicalNames", err);
}

static int read_entities(Tok *t, Msh *h, int v40, MtError *err)
{
    int cnt[4];
    for (int d = 0; d < 4; d++)
        if (get_nonneg(t, &cnt[d], err, MT_("an entity count"))) return -1;
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < cnt[d]; i++) {
            int tag, np;
            double x;
            if (get_int(t, &tag, err, MT_("an entity tag"))) return -1;
            int nbox = d == 0 && !v40 ? 3 : 6;
            for (int k = 0; k < nbox; k++)
                if (get_double(t, &x, err, MT_("a coordinate"))) return -1;
            if (get_nonneg(t, &np, err, MT_("the number of physical tags"))) return -1;
            if (grow((void **)&h->en, &h->cen, h->nen + 1, sizeof(Ent)) ||
                grow((void **)&h->ptag, &h->cptag, h->nptag + np, sizeof(int)))
                return oom(err);
            Ent *e = &h->en[h->nen++];
            e->dim = d, e->tag = tag, e->first = h->nptag, e->n = np;
            for (int k = 0; k < np; k++)
                if (get_int(t, &h->ptag[h->nptag++], err, MT_("a physical tag"))) return -1;
            if (d > 0) {
                int nb, b;
                if (get_nonneg(t, &nb, err, MT_("the number of bounding entities"))) return -1;
                for (int k = 0; k < nb; k++)
                    if (get_int(t, &b, err, MT_("a bounding entity"))) return -1;
            }
        }
    return expect_end(t, "$EndEntities", err);
}

static int add_node(Tok *t, MtFeModel *m, int id, double *x, MtError *err)
{
    MtError e2 = {0};
    if (mt_fe_add_node(m, id, x[0], x[1], x[2], &e2) < 0)
        return mt_mesh_err(err, t->name, t->tline, "%s", e2.msg);
    return 0;
}

static int read_nodes(Tok *t, MtFeModel *m, int v4, int v40, MtError *err)
{
    double x[3];
    if (!v4) {
        int n;
        if (get_nonneg(t, &n, err, MT_("the number of nodes"))) return -1;
        for (int i = 0; i < n; i++) {
            int id;
            if (get_int(t, &id, err, MT_("a node number"))) return -1;
            for (int k = 0; k < 3; k++)
                if (get_double(t, &x[k], err, MT_("a coordinate"))) return -1;
            if (add_node(t, m, id, x, err)) return -1;
        }
        return expect_end(t, "$EndNodes", err);
    }
    int nb, nn, dum;
    if (get_nonneg(t, &nb, err, MT_("the number of node blocks")) || get_nonneg(t, &nn, err, MT_("the number of nodes")))
        return -1;
    if (!v40 && (get_int(t, &dum, err, MT_("the smallest node tag")) || get_int(t, &dum, err, MT_("the largest node tag"))))
        return -1;
    for (int b = 0; b < nb; b++) {
        int dim, tag, par, cnt;
        if (v40) {
            if (get_int(t, &tag, err, MT_("an entity tag")) || get_int(t, &dim, err, MT_("an entity dimension"))) return -1;
        } else if (get_int(t, &dim, err, MT_("an entity dimension")) || get_int(t, &tag, err, MT_("an entity tag")))
            return -1;
        if (get_int(t, &par, err, MT_("the parametric flag")) || get_nonneg(t, &cnt, err, MT_("a node count"))) return -1;
        if (dim < 0 || dim > 3) return bad(t, err, MT_("an entity dimension 0..3"));
        int extra = par ? dim : 0;
        if (v40) {
            for (int i = 0; i < cnt; i++) {
                int id;
                if (get_int(t, &id, err, MT_("a node number"))) return -1;
                for (int k = 0; k < 3; k++)
                    if (get_double(t, &x[k], err, MT_("a coordinate"))) return -1;
                double u;
                for (int k = 0; k < extra; k++)
                    if (get_double(t, &u, err, MT_("a parametric coordinate"))) return -1;
                if (add_node(t, m, id, x, err)) return -1;
            }
            continue;
        }
        int first = m->nnode;
        for (int i = 0; i < cnt; i++) { /* tags first, coordinates after: add with zero coordinates */
            int id;
            double z[3] = {0, 0, 0};
            if (get_int(t, &id, err, MT_("a node number"))) return -1;
            if (add_node(t, m, id, z, err)) return -1;
        }
        for (int i = 0; i < cnt; i++) {
            double *p = m->x + 3 * (first + i), u;
            for (int k = 0; k < 3; k++)
                if (get_double(t, &p[k], err, MT_("a coordinate"))) return -1;
            for (int k = 0; k < extra; k++)
                if (get_double(t, &u, err, MT_("a parametric coordinate"))) return -1;
        }
    }
    return expect_end(t, "$EndNodes", err);
}

static int add_el(Tok *t, Msh *h, int gtype, int dim, int ent, int phys, int id, int line, MtError *err)
{
    int edim, nn;
    if (gtype_info(gtype, &edim, &nn) == -2)
        return mt_mesh_err(err, t->name, line, MT_("unknown Gmsh element type %d"), gtype);
    (void)dim;
    if (grow((void **)&h->el, &h->cel, h->nel + 1, sizeof(El))) return oom(err);
    if (h->nlab + (size_t)nn > h->clab) {
        size_t c = h->clab ? 2 * h->clab : 1024;
        while (c < h->nlab + (size_t)nn) c *= 2;
        int *q = realloc(h->lab, sizeof(int) * c);
        if (!q) return oom(err);
        h->lab = q, h->clab = c;
    }
    El *e = &h->el[h->nel++];
    e->gtype = gtype, e->dim = edim, e->ent = ent, e->phys = phys, e->line = line, e->id = id;
    e->first = (int)h->nlab;
    for (int k = 0; k < nn; k++)
        if (get_int(t, &h->lab[h->nlab++], err, MT_("a node number of the element"))) return -1;
    return 0;
}

static int read_elements(Tok *t, Msh *h, int v4, int v40, MtError *err)
{
    if (!v4) {
        int n;
        if (get_nonneg(t, &n, err, MT_("the number of elements"))) return -1;
        for (int i = 0; i < n; i++) {
            int id, g, nt, phys = -1, ent = -1, tg;
            if (get_int(t, &id, err, MT_("an element number"))) return -1;
            int line = t->tline;
            if (get_int(t, &g, err, MT_("an element type")) || get_nonneg(t, &nt, err, MT_("the number of tags")))
                return -1;
            if (nt > 100) return bad(t, err, MT_("a tag count below 100"));
            for (int k = 0; k < nt; k++) {
                if (get_int(t, &tg, err, MT_("a tag"))) return -1;
                if (k == 0) phys = tg;
                if (k == 1) ent = tg;
            }
            if (add_el(t, h, g, -1, ent, phys, id, line, err)) return -1;
        }
        return expect_end(t, "$EndElements", err);
    }
    int nb, ne, dum;
    if (get_nonneg(t, &nb, err, MT_("the number of element blocks")) ||
        get_nonneg(t, &ne, err, MT_("the number of elements")))
        return -1;
    if (!v40 && (get_int(t, &dum, err, MT_("the smallest element tag")) ||
                 get_int(t, &dum, err, MT_("the largest element tag"))))
        return -1;
    for (int b = 0; b < nb; b++) {
        int dim, tag, g, cnt;
        if (v40) {
            if (get_int(t, &tag, err, MT_("an entity tag")) || get_int(t, &dim, err, MT_("an entity dimension"))) return -1;
        } else if (get_int(t, &dim, err, MT_("an entity dimension")) || get_int(t, &tag, err, MT_("an entity tag")))
            return -1;
        if (get_int(t, &g, err, MT_("an element type")) || get_nonneg(t, &cnt, err, MT_("an element count"))) return -1;
        for (int i = 0; i < cnt; i++) {
            int id;
            if (get_int(t, &id, err, MT_("an element number"))) return -1;
            if (add_el(t, h, g, dim, tag, -1, id, t->tline, err)) return -1;
        }
    }
    return expect_end(t, "$EndElements", err);
}

/* Physical tags of element e: v2 its own, v4 its entity's. */
static int el_phys(const Msh *h, const El *e, int v4, const int **tags)
{
    if (!v4) {
        *tags = &e->phys;
        return e->phys > 0;
    }
    for (int i = 0; i < h->nen; i++)
        if (h->en[i].dim == e->dim && h->en[i].tag == e->ent) {
            *tags = h->ptag + h->en[i].first;
            return h->en[i].n;
        }
    return 0;
}

static int build(Tok *t, Msh *h, MtFeModel *m, int v4, MtError *err)
{
    int maxdim = -1;
    for (int i = 0; i < h->nel; i++) {
        int d, nn, mt = gtype_info(h->el[i].gtype, &d, &nn);
        if (mt >= 0 && d > maxdim) maxdim = d;
    }
    for (int i = 0; i < h->nel; i++) {
        int d, nn, mt = gtype_info(h->el[i].gtype, &d, &nn);
        if (d > maxdim && d > 0)
            return mt_mesh_err(err, t->name, h->el[i].line,
                               MT_("element %d: Gmsh type %s is not supported (Motus reads line2, tri3, quad4, quad8, "
                                   "tet4, tet10, hex8, hex20)"),
                               h->el[i].id, gtype_name(h->el[i].gtype));
        (void)mt;
    }
    if (maxdim < 0) return mt_mesh_err(err, t->name, 0, MT_("the mesh has no element Motus can use"));
    int nodes[32];
    int *midx = malloc(sizeof(int) * ((size_t)h->nel + 1));
    if (!midx) return oom(err);
    for (int i = 0; i < h->nel; i++) {
        El *e = &h->el[i];
        int d, nn, mt = gtype_info(e->gtype, &d, &nn);
        midx[i] = -1;
        for (int k = 0; k < nn; k++) {
            nodes[k] = mt_fe_node_index(m, h->lab[e->first + k]);
            if (nodes[k] < 0) {
                free(midx);
                return mt_mesh_err(err, t->name, e->line, MT_("element %d refers to node %d, which is not defined"),
                                   e->id, h->lab[e->first + k]);
            }
        }
        if (d != maxdim) continue;
        if (mt < 0) {
            free(midx);
            return mt_mesh_err(err, t->name, e->line,
                               MT_("element %d: Gmsh type %s is not supported (Motus reads line2, tri3, quad4, quad8, "
                                   "tet4, tet10, hex8, hex20)"),
                               e->id, gtype_name(e->gtype));
        }
        if (mt == MT_FE_TET10) {
            int s = nodes[8];
            nodes[8] = nodes[9], nodes[9] = s;
        }
        if (mt == MT_FE_HEX20) { /* Gmsh's mid-edge order (0-1, 0-3, 0-4, 1-2, 1-5, 2-3, 2-6, 3-7, 4-5, 4-7, 5-6, 6-7) to Abaqus's */
            static const int g[12] = {8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15};
            int t[20];
            memcpy(t, nodes, sizeof t);
            for (int k = 0; k < 12; k++) nodes[8 + k] = t[g[k]];
        }
        MtError e2 = {0};
        midx[i] = mt_fe_add_elem(m, e->id, mt, -1, nodes, &e2);
        if (midx[i] < 0) {
            free(midx);
            return mt_mesh_err(err, t->name, e->line, "%s", e2.msg);
        }
    }
    /* sets: one node set per physical group, and an element set for groups of structural elements */
    int *items = malloc(sizeof(int) * (h->nlab + (size_t)h->nel + 1)), rc = 0, *done = NULL, ndone = 0, cdone = 0;
    if (!items) {
        free(midx);
        return oom(err);
    }
    for (int i = 0; i < h->nel && !rc; i++) {
        const int *tags;
        int np = el_phys(h, &h->el[i], v4, &tags);
        for (int k = 0; k < np && !rc; k++) {
            int dim = h->el[i].dim, tag = tags[k], seen = 0;
            for (int j = 0; j < ndone && !seen; j++) seen = done[2 * j] == dim && done[2 * j + 1] == tag;
            if (seen) continue;
            if (grow((void **)&done, &cdone, 2 * (ndone + 1), sizeof(int))) {
                rc = oom(err);
                break;
            }
            done[2 * ndone] = dim, done[2 * ndone + 1] = tag, ndone++;
            int ne = 0, nnod = 0;
            for (int j = i; j < h->nel; j++) {
                const int *tj;
                int nj = el_phys(h, &h->el[j], v4, &tj), in = 0;
                for (int q = 0; q < nj; q++) in |= h->el[j].dim == dim && tj[q] == tag;
                if (!in) continue;
                if (midx[j] >= 0) items[ne++] = midx[j];
                int d2, nn2;
                gtype_info(h->el[j].gtype, &d2, &nn2);
                for (int q = 0; q < nn2; q++) items[h->nel + nnod++] = mt_fe_node_index(m, h->lab[h->el[j].first + q]);
            }
            char nb[40];
            const char *name = phys_name(h, dim, tag, nb, sizeof nb);
            if (ne && mt_fe_add_set(m, name, MT_FE_SET_ELEM, ne, items, err) < 0) rc = -1;
            if (!rc && mt_fe_add_set(m, name, MT_FE_SET_NODE, nnod, items + h->nel, err) < 0) rc = -1;
        }
    }
    free(items);
    free(midx);
    free(done);
    return rc;
}

MtFeModel *mt_mesh_read_msh(const char *text, size_t len, const char *name, MtError *err)
{
    Tok t = {text, text + len, name ? name : "<mesh>", 1, NULL, 0, 1};
    MtFeModel *m = mt_fe_model_new();
    Msh h = {0};
    if (!m) {
        oom(err);
        return NULL;
    }
    int v4 = 0, v40 = 0, have_fmt = 0, rc = -1;
    double ver;
    t.n = 0;
    if (!next(&t) || !is(&t, "$MeshFormat")) {
        bad(&t, err, "$MeshFormat");
        goto done;
    }
    int ft, ds;
    if (get_double(&t, &ver, err, MT_("the format version")) || get_int(&t, &ft, err, MT_("the file type")) ||
        get_int(&t, &ds, err, MT_("the data size")))
        goto done;
    if (ft != 0) {
        mt_mesh_err(err, t.name, t.tline, MT_("binary .msh files are not read: save the mesh as ASCII"));
        goto done;
    }
    if (ver >= 2 && ver < 3) v4 = 0;
    else if (ver >= 4 && ver < 4.05) v4 = 1, v40 = 1;
    else if (ver >= 4.05 && ver < 5) v4 = 1;
    else {
        mt_mesh_err(err, t.name, t.tline, MT_("Gmsh format version %g is not supported (2.2, 4.0, 4.1)"), ver);
        goto done;
    }
    if (expect_end(&t, "$EndMeshFormat", err)) goto done;
    have_fmt = 1;
    int have_nodes = 0, have_el = 0;
    while (t.n = 0, next(&t)) {
        if (is(&t, "$PhysicalNames")) {
            if (read_physnames(&t, &h, err)) goto done;
        } else if (is(&t, "$Entities")) {
            if (read_entities(&t, &h, v40, err)) goto done;
        } else if (is(&t, "$Nodes")) {
            if (have_nodes++) {
                mt_mesh_err(err, t.name, t.tline, MT_("a second $Nodes section"));
                goto done;
            }
            if (read_nodes(&t, m, v4, v40, err)) goto done;
        } else if (is(&t, "$Elements")) {
            if (have_el++) {
                mt_mesh_err(err, t.name, t.tline, MT_("a second $Elements section"));
                goto done;
            }
            if (read_elements(&t, &h, v4, v40, err)) goto done;
        } else if (t.n > 1 && t.tok[0] == '$') {
            mt_mesh_skip(m, t.tok + 1, t.n - 1);
            if (skip_section(&t, err)) goto done;
        } else {
            bad(&t, err, MT_("a section ($Nodes, $Elements, ...)"));
            goto done;
        }
    }
    if (!have_nodes || !have_el) {
        mt_mesh_err(err, t.name, 0, MT_("the file has no $Nodes or no $Elements section"));
        goto done;
    }
    if (build(&t, &h, m, v4, err)) goto done;
    rc = 0;
done:
    (void)have_fmt;
    free(h.pn), free(h.en), free(h.ptag), free(h.el), free(h.lab);
    if (rc) {
        mt_fe_model_free(m);
        return NULL;
    }
    return m;
}
