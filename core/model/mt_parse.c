/* mt_parse.c — the hand-writable text model format (docs/model-format.md):
 * reading it into an MtModel and writing a model back in canonical form. Declared in motus/model.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/model.h"
#include "motus/study.h"
#include "motus/units.h"

#define MAXTOK (1 << 22) /* words in one statement (a driver table of two million points) */

/* A field written as {expression}, bound after the whole file is read. */
typedef struct {
    MtEntityKind kind;
    int index, line;
    char field[24];
    char expr[MT_EXPR_MAX];
} Pending;

typedef struct {
    const char *src;
    int line;
    MtError *err;
    char **tok; /* the words of the statement, on the heap (grown as needed) */
    int ntok, captok;
    /* the numeric field being read, for {expression} values (fname NULL: numbers only) */
    MtEntityKind fk;
    int fi, comp;
    const char *fname;
    Pending *pend;
    int npend, cappend;
    /* the table block being read: its name, first line and points x y x y … */
    char tname[MT_NAME_MAX];
    int tline, ntp, captp;
    double *tp;
    MtParamIndex pix; /* the parameters' names, to find a repeated one without a linear search */
} Parser;

#define CTX(p, k, i, name) ((p)->fk = (k), (p)->fi = (i), (p)->fname = (name), (p)->comp = -1)

/* Records a syntax error at the current line: "SOURCE:LINE: message". fmt is
 * already translated by the caller: perr(p, entity, MT_("..."), ...). */
static MtStatus perr(Parser *p, const char *entity, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static MtStatus perr(Parser *p, const char *entity, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mt_error_set(p->err, MT_ERR_SYNTAX, entity, "%s:%d: %s", p->src, p->line, msg);
}

/* Copies the len bytes of src, which the user typed, into dst (cap bytes)
 * whole, or refuses naming the entity and what it is: nothing typed is
 * shortened silently (an expression of 200 terms was cut to 128). */
static int put_text(Parser *p, char *dst, size_t cap, const char *src, size_t len, const char *entity, const char *what)
{
    if (len >= cap)
        return perr(p, entity, MT_("'%s': the %s is %zu bytes long, more than the %zu accepted; shorten it"), entity, what, len,
                    cap - 1);
    memcpy(dst, src, len);
    dst[len] = 0;
    return 0;
}
#define PUT_WORD(p, dst, src, entity, what) put_text(p, dst, sizeof(dst), src, strlen(src), entity, what)

/* One more word slot; -1 when the statement is too long or memory is out. */
static int tok_room(Parser *p)
{
    if (p->ntok < p->captok) return 0;
    if (p->ntok >= MAXTOK) return perr(p, "", MT_("too many words in one statement (at most %d)"), MAXTOK);
    int nc = p->captok ? 2 * p->captok : 64;
    char **t = realloc(p->tok, sizeof(char *) * (size_t)nc);
    if (!t) return perr(p, "", "%s", MT_("out of memory"));
    p->tok = t;
    p->captok = nc;
    return 0;
}

/* Splits a line in place into words appended to the statement: whitespace-
 * separated words, "quoted strings", {expressions}, # comments. A last word
 * "\" continues the statement on the next line: *more is set and the word
 * is dropped. */
static int tokenize(Parser *p, char *s, int *more)
{
    int first = p->ntok, bare = 0; /* bare: the last word was neither quoted nor an expression */
    *more = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\r') s++;
        if (!*s || *s == '#') break;
        if (tok_room(p)) return -1;
        bare = 0;
        if (*s == '{') { /* an expression, spaces allowed: {2*L + 0.1} */
            p->tok[p->ntok++] = s;
            while (*s && *s != '}') s++;
            if (*s != '}') return perr(p, "", "%s", MT_("unterminated expression: '{' without '}'"));
            s++;
            if (*s && *s != ' ' && *s != '\t' && *s != '\r') return perr(p, "", "%s", MT_("put a space after '}'"));
            if (*s) *s++ = 0;
            continue;
        }
        if (*s == '"') {
            p->tok[p->ntok++] = ++s;
            while (*s && *s != '"') s++;
            if (*s != '"') return perr(p, "", MT_("unterminated quoted text"));
            *s++ = 0;
            continue;
        }
        p->tok[p->ntok++] = s;
        bare = 1;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r') s++;
        if (*s) *s++ = 0;
    }
    if (bare && p->ntok > first && !strcmp(p->tok[p->ntok - 1], "\\")) { /* continued on the next line */
        p->ntok--;
        *more = 1;
    }
    return 0;
}

/* A number in SI, or with the suffix "deg" (converted to radians). */
static int num(Parser *p, const char *entity, int i, double *out)
{
    if (i >= p->ntok) return perr(p, entity, MT_("'%s': a number is missing at the end of the line"), entity);
    const char *s = p->tok[i];
    if (s[0] == '{') {
        if (!p->fname) return perr(p, entity, MT_("'%s': an expression is not accepted here, write a number"), entity);
        size_t len = strlen(s);
        if (len < 3 || len - 2 >= MT_EXPR_MAX) return perr(p, entity, MT_("'%s': empty or too long expression"), entity);
        if (p->npend == p->cappend) {
            int nc = p->cappend ? 2 * p->cappend : 16;
            Pending *np = realloc(p->pend, sizeof *np * (size_t)nc);
            if (!np) return perr(p, entity, "%s", MT_("out of memory"));
            p->pend = np;
            p->cappend = nc;
        }
        Pending *pd = &p->pend[p->npend++];
        pd->kind = p->fk;
        pd->index = p->fi;
        pd->line = p->line;
        if (p->comp >= 0) snprintf(pd->field, sizeof pd->field, "%s.%d", p->fname, p->comp);
        else snprintf(pd->field, sizeof pd->field, "%s", p->fname);
        snprintf(pd->expr, sizeof pd->expr, "%.*s", (int)(len - 2), s + 1);
        *out = 0; /* the value comes from mt_model_eval_params */
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s) return perr(p, entity, MT_("'%s': expected a number, found '%s'"), entity, s);
    if (!strcmp(end, "deg")) v *= M_PI / 180.0;
    else if (*end) return perr(p, entity, MT_("'%s': '%s' is not a number (units other than 'deg' are not accepted here)"), entity, s);
    if (!isfinite(v)) return perr(p, entity, MT_("'%s': '%s' is not a finite number"), entity, s);
    /* underflow to zero (1e-999) is refused as model-format.md says; a subnormal result is kept (the writer prints them) */
    if (errno == ERANGE && v == 0)
        return perr(p, entity, MT_("'%s': '%s' is too small for a double: it would read as 0"), entity, s);
    *out = v;
    return 0;
}

/* n numbers: the components field.0 … field.(n−1) of the current field */
static int nums(Parser *p, const char *entity, int i, int n, double *out)
{
    for (int k = 0; k < n; k++) {
        p->comp = k;
        if (num(p, entity, i + k, &out[k])) return -1;
    }
    p->comp = -1;
    return 0;
}

/* Reads an orientation from word i to the end of the statement: "z ax ay az
 * [x bx by bz]", "quat w x y z", "axis ax ay az ANGLE", "matrix r11 … r33" or
 * "angles AX AY AZ". Any word may be an {expression}: it becomes the binding
 * "orient.K" of entity (kind, index), *o keeps the form and words, and rot
 * comes from mt_model_eval_params; without expressions *o stays
 * MT_ORIENT_NONE and R is the rotation. */
static int orientation(Parser *p, const char *entity, int i, MtEntityKind kind, int index, MtOrient *o, double *R)
{
    static const struct {
        const char *kw;
        MtOrientForm form;
    } forms[] = {{"z", MT_ORIENT_Z}, {"quat", MT_ORIENT_QUAT}, {"axis", MT_ORIENT_AXIS}, {"matrix", MT_ORIENT_MATRIX},
                 {"angles", MT_ORIENT_ANGLES}};
    if (i >= p->ntok) return perr(p, entity, MT_("'%s': orientation expects 'z …', 'quat …' or 'axis …'"), entity);
    const char *kw = p->tok[i];
    MtOrientForm form = MT_ORIENT_NONE;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        if (!strcmp(kw, forms[f].kw)) form = forms[f].form;
    if (form == MT_ORIENT_Z && p->ntok > i + 4) {
        if (strcmp(p->tok[i + 4], "x") || p->ntok != i + 8)
            return perr(p, entity, MT_("'%s': after 'z ax ay az' only 'x bx by bz' may follow"), entity);
        form = MT_ORIENT_ZX;
    }
    int n = mt_orient_nwords(form), pend0 = p->npend;
    if (form == MT_ORIENT_NONE)
        return perr(p, entity, MT_("'%s': unknown orientation form '%s' (use z, quat, axis, matrix or angles)"), entity, kw);
    if (form != MT_ORIENT_Z && form != MT_ORIENT_ZX && p->ntok != i + 1 + n) {
        if (form == MT_ORIENT_QUAT) return perr(p, entity, MT_("'%s': quat takes exactly four numbers"), entity);
        if (form == MT_ORIENT_AXIS) return perr(p, entity, MT_("'%s': axis takes three components and an angle"), entity);
        if (form == MT_ORIENT_MATRIX) return perr(p, entity, MT_("'%s': matrix takes nine numbers"), entity);
        return perr(p, entity, MT_("'%s': angles takes three angles (about x, then y, then z)"), entity);
    }
    MtOrient t = {form, {0}};
    CTX(p, kind, index, "orient");
    for (int k = 0; k < n; k++) {
        p->comp = k;
        if (num(p, entity, i + 1 + k + (k >= 3 && form == MT_ORIENT_ZX), &t.w[k])) return -1;
    }
    p->comp = -1;
    if (p->npend > pend0) { /* the words' values come with the parameters */
        *o = t;
        return 0;
    }
    int rc = mt_orient_rot(form, t.w, R);
    return rc ? perr(p, entity, "'%s': %s", entity, mt_orient_problem(rc)) : 0;
}

/* perr for functions that return a count: -1 */
#define PERR1(...) (perr(__VA_ARGS__), -1)

/* One setting of the schema, row f of entity (kind, index) whose struct is
 * obj, at word i: "xi 0.7", "com 0 0 1", "method dp54", a bare switch,
 * "curve {x*x}". Returns the words it took, or -1 with the error set. */
static int setting(Parser *p, MtEntityKind kind, int index, void *obj, const char *entity, int i, const MtField *f)
{
    void *at = MT_SCHEMA_AT(obj, f);
    int nv = p->ntok - i - 1;
    if (f->type == MT_ST_FLAG) {
        *(int *)at = 1;
        return 1;
    }
    if (nv < 1) return PERR1(p, entity, MT_("%s: '%s' needs a value"), entity, f->key);
    const char *v = p->tok[i + 1];
    switch (f->type) {
    case MT_ST_ENUM: {
        int x = mt_schema_enum_find(f, v);
        char list[256];
        if (x < 0) return PERR1(p, entity, MT_("%s: %s takes %s, not '%s'"), entity, f->key, mt_schema_enum_list(f, list, sizeof list), v);
        *(int *)at = x;
        return 2;
    }
    case MT_ST_INT: {
        double x;
        CTX(p, kind, index, NULL);
        if (num(p, entity, i + 1, &x)) return -1;
        if (x != floor(x) || x < f->lo || x > f->hi)
            return PERR1(p, entity, MT_("%s: %s must be a whole number from %s to %s"), entity, f->key, MT_DOUBLE_STR(f->lo),
                        MT_DOUBLE_STR(f->hi));
        *(int *)at = (int)x;
        return 2;
    }
    case MT_ST_TEXT: {
        size_t len = strlen(v);
        if (v[0] == '{' ? put_text(p, at, (size_t)f->n, v + 1, len >= 2 ? len - 2 : 0, entity, f->key)
                        : put_text(p, at, (size_t)f->n, v, len, entity, f->key))
            return -1;
        return 2;
    }
    case MT_ST_VEC: {
        int n = f->n;
        if ((f->flags & MT_SF_SHORT) && nv == n / 2) n /= 2;
        else if (nv < n)
            return (f->flags & MT_SF_SHORT) ? PERR1(p, entity, MT_("%s: %s takes %d or %d numbers"), entity, f->key, f->n / 2, f->n)
                                            : PERR1(p, entity, MT_("%s: %s takes %d numbers"), entity, f->key, f->n);
        memset(at, 0, sizeof(double) * (size_t)f->n);
        CTX(p, kind, index, (f->flags & MT_SF_EXPR) ? f->key : NULL);
        return nums(p, entity, i + 1, n, at) ? -1 : 1 + n;
    }
    default:
        CTX(p, kind, index, (f->flags & MT_SF_EXPR) ? f->key : NULL);
        return num(p, entity, i + 1, at) ? -1 : 2;
    }
}

/* Settings "KEY VALUE …" of entity (kind, index) from word i to the end of
 * the statement; 0, or -1 with the error set (an unknown key named). */
static int settings(Parser *p, MtEntityKind kind, int index, void *obj, const char *entity, int i)
{
    while (i < p->ntok) {
        int c;
        const MtField *f = mt_schema_find(kind, p->tok[i], &c);
        if (!f || c >= 0 || (f->flags & MT_SF_OWN)) return perr(p, entity, MT_("%s: unknown setting '%s'"), entity, p->tok[i]);
        int n = setting(p, kind, index, obj, entity, i, f);
        if (n < 0) return -1;
        i += n;
    }
    return 0;
}

/* marker NAME [at x y z] [z ax ay az [x bx by bz]] */
static int marker_line(Parser *p, MtModel *m, int body)
{
    if (p->ntok < 2) return perr(p, "", MT_("marker: a name is expected after 'marker'"));
    const char *name = p->tok[1];
    double pos[3] = {0, 0, 0}, R[9];
    mt_m3_identity(R);
    int i = 2;
    if (i < p->ntok && !strcmp(p->tok[i], "at")) {
        CTX(p, MT_ENT_MARKER, m->nmarker, "at");
        if (nums(p, name, i + 1, 3, pos)) return -1;
        i += 4;
    }
    MtMarkerSpec set; /* node and spider, before the marker exists */
    mt_schema_defaults(MT_ENT_MARKER, &set);
    int c;
    const MtField *f;
    while (i < p->ntok && (f = mt_schema_find(MT_ENT_MARKER, p->tok[i], &c)) && c < 0) {
        if (body < 0 || mt_model_body_flex(m, body) < 0)
            return perr(p, name, MT_("marker '%s': 'node' and 'spider' go on markers of a flexible body (write its "
                                     "'flexible' line first)"), name);
        int n = setting(p, MT_ENT_MARKER, m->nmarker, &set, name, i, f);
        if (n < 0) return -1;
        i += n;
    }
    MtOrient ori = {MT_ORIENT_NONE, {0}};
    if (i < p->ntok && orientation(p, name, i, MT_ENT_MARKER, m->nmarker, &ori, R)) return -1;
    int k = mt_model_add_marker(m, body, name, pos, R, p->err);
    if (k < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", p->err->msg);
        return mt_error_set(p->err, MT_ERR_SYNTAX, name, "%s:%d: %s", p->src, p->line, msg);
    }
    mt_schema_copy(MT_ENT_MARKER, &m->marker[k], &set);
    m->marker[k].ori = ori;
    return 0;
}

/* shape KIND NUMBERS… [from X Y Z to X Y Z] [scale S] [at X Y Z] [ORIENTATION] [color R G B] */
static int shape_line(Parser *p, MtModel *m, int body)
{
    const char *owner = mt_model_body_name(m, body);
    if (p->ntok < 2) return perr(p, owner, MT_("'%s': write 'shape box|cylinder|sphere|capsule|bar|mesh …'"), owner);
    MtShapeSpec sh;
    memset(&sh, 0, sizeof sh);
    sh.body = body;
    mt_m3_identity(sh.rot);
    if (mt_shape_kind_from_name(p->tok[1], &sh.kind))
        return perr(p, owner, MT_("'%s': unknown shape '%s' (box, cylinder, sphere, capsule, bar, mesh)"), owner, p->tok[1]);
    int i = 2, n = sh.kind == MT_SHAPE_MESH ? 0 : mt_shape_nsize(sh.kind), si = m->nshape, pend0 = p->npend;
    CTX(p, MT_ENT_SHAPE, si, "size");
    if (sh.kind == MT_SHAPE_MESH) {
        if (p->ntok < 3) return perr(p, owner, MT_("'%s': write 'shape mesh FILE [scale S]'"), owner);
        if (PUT_WORD(p, sh.mesh, p->tok[2], owner, MT_("file name"))) return -1;
        sh.size[0] = 1;
        i = 3;
    } else if (nums(p, owner, i, n, sh.size)) return -1;
    i += n;
    int have_from = 0, have_to = 0;
    while (i < p->ntok) {
        const char *k = p->tok[i];
        if (!strcmp(k, "at") || !strcmp(k, "from")) {
            CTX(p, MT_ENT_SHAPE, si, "pos");
            if (nums(p, owner, i + 1, 3, sh.pos)) return -1;
            have_from |= k[0] == 'f';
            i += 4;
        } else if (!strcmp(k, "to")) {
            CTX(p, MT_ENT_SHAPE, si, "end");
            if (nums(p, owner, i + 1, 3, sh.end)) return -1;
            have_to = 1;
            i += 4;
        } else if (!strcmp(k, "scale")) {
            CTX(p, MT_ENT_SHAPE, si, "size");
            p->comp = 0;
            if (num(p, owner, i + 1, &sh.size[0])) return -1;
            p->comp = -1;
            i += 2;
        } else if (!strcmp(k, "color")) {
            double c[3];
            CTX(p, MT_ENT_SHAPE, si, NULL);
            if (nums(p, owner, i + 1, 3, c)) return -1;
            for (int q = 0; q < 3; q++) sh.color[q] = (float)fmin(1, fmax(0, c[q]));
            i += 4;
        } else {
            /* an orientation runs to the next keyword */
            int j = i + 1;
            while (j < p->ntok && strcmp(p->tok[j], "color") && strcmp(p->tok[j], "at") && strcmp(p->tok[j], "scale")) j++;
            int save = p->ntok;
            p->ntok = j;
            int rc = orientation(p, owner, i, MT_ENT_SHAPE, si, &sh.ori, sh.rot);
            p->ntok = save;
            if (rc) return -1;
            i = j;
        }
    }
    if (sh.kind == MT_SHAPE_BAR && !(have_from && have_to))
        return perr(p, owner, MT_("'%s': a bar needs 'from X Y Z to X Y Z'"), owner);
    for (int q = 0; q < mt_shape_nsize(sh.kind); q++) {
        char field[16];
        snprintf(field, sizeof field, "size.%d", q);
        int bound = 0; /* an expression's value is checked once it is known (mt_model_validate) */
        for (int k = pend0; k < p->npend; k++) bound |= !strcmp(p->pend[k].field, field);
        if (!bound && !(sh.size[q] > 0)) return perr(p, owner, MT_("'%s': shape sizes must be positive"), owner);
    }
    if (mt_model_add_shape(m, &sh, p->err) < 0) return perr(p, owner, "%s", p->err->msg);
    return 0;
}

static int expect_n(Parser *p, const char *entity, int n)
{
    if (p->ntok != n) {
        perr(p, entity, n == 2 ? MT_("'%s': '%s' takes one value") : MT_("'%s': '%s' takes three values"), entity, p->tok[0]);
        return -1;
    }
    return 0;
}

static const char *const section_names[] = {"rect", "circle", "tube", NULL};

static int word_index(const char *const *names, const char *w)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], w)) return i;
    return -1;
}

/* flexible beam length L elements N section rect A B|circle D|tube D D2 E .. nu .. rho .. [SETTINGS]
 * flexible mesh FILE [E ..] [nu ..] [rho ..] [thickness T] [SETTINGS]
 * SETTINGS: fix {NODES:DIGITS; …}, modes N, method cb|free|guyan|attach, zeta Z, rayleigh ALPHA BETA, stiffening,
 *           initial assembled|rest */
static int flexible_line(Parser *p, MtModel *m, int bi)
{
    const char *name = m->body[bi].name;
    if (p->ntok < 3 || (strcmp(p->tok[1], "beam") && strcmp(p->tok[1], "mesh")))
        return perr(p, name, MT_("body '%s': write 'flexible beam length L elements N section …' or 'flexible mesh FILE …'"), name);
    int beam = p->tok[1][0] == 'b';
    int fi = mt_model_add_flex(m, bi, beam ? MT_FLEX_BEAM : MT_FLEX_MESH, p->err);
    if (fi < 0) return perr(p, name, "%s", p->err->msg);
    MtFlexSpec *f = &m->flex[fi];
    int i = 2;
    if (!beam) {
        if (PUT_WORD(p, f->file, p->tok[2], name, MT_("file name"))) return -1;
        i = 3;
    }
    char what[MT_NAME_MAX + 16];
    snprintf(what, sizeof what, MT_("body '%s'"), name);
    while (i < p->ntok) { /* the schema's settings, and the two written their own way */
        const char *k = p->tok[i];
        if (!strcmp(k, "rayleigh")) { /* rayleigh ALPHA BETA */
            CTX(p, MT_ENT_FLEX, bi, "alpha");
            if (num(p, name, i + 1, &f->alpha)) return -1;
            CTX(p, MT_ENT_FLEX, bi, "beta");
            if (num(p, name, i + 2, &f->beta)) return -1;
            i += 3;
        } else if (!strcmp(k, "section")) { /* section rect B H | circle D | tube D D_INNER */
            int w = i + 1 < p->ntok ? word_index(section_names, p->tok[i + 1]) : -1;
            if (w < 0) return perr(p, name, MT_("body '%s': section is rect B H, circle D or tube D D_INNER"), name);
            f->section = (MtSection)w;
            CTX(p, MT_ENT_FLEX, bi, "sec");
            if (nums(p, name, i + 2, w == MT_SECTION_CIRCLE ? 1 : 2, f->sec)) return -1;
            i += w == MT_SECTION_CIRCLE ? 3 : 4;
        } else {
            int c;
            const MtField *fd = mt_schema_find(MT_ENT_FLEX, k, &c);
            if (!fd || c >= 0 || (fd->flags & MT_SF_OWN))
                return perr(p, name, MT_("body '%s': unknown flexible setting '%s' (length, elements, section, E, nu, rho, "
                                         "thickness, fix, modes, method, zeta, rayleigh, stiffening, initial)"), name, k);
            int n = setting(p, MT_ENT_FLEX, bi, f, what, i, fd);
            if (n < 0) return -1;
            i += n;
        }
    }
    return 0;
}

static int body_line(Parser *p, MtModel *m, int bi)
{
    MtBodySpec *b = &m->body[bi];
    const char *k = p->tok[0];
    if (!strcmp(k, "marker")) return marker_line(p, m, bi);
    if (!strcmp(k, "shape")) return shape_line(p, m, bi);
    int c;
    const MtField *f = mt_schema_find(MT_ENT_BODY, k, &c);
    if (f && c < 0) { /* one setting per line: "mass 2", "com 0 0 0.1", a switch */
        char what[MT_NAME_MAX + 16];
        snprintf(what, sizeof what, MT_("body '%s'"), b->name);
        int n = setting(p, MT_ENT_BODY, bi, b, what, 0, f);
        if (n < 0) return -1;
        if (n != p->ntok) return perr(p, b->name, MT_("%s: too many words after '%s'"), what, k);
        return 0;
    }
    if (!strcmp(k, "flexible")) return flexible_line(p, m, bi);
    if (!strcmp(k, "orientation")) { /* a second orientation line replaces the first, expressions too */
        b->ori.form = MT_ORIENT_NONE;
        int n = 0;
        for (int q = 0; q < p->npend; q++)
            if (!(p->pend[q].kind == MT_ENT_BODY && p->pend[q].index == bi && !strncmp(p->pend[q].field, "orient.", 7)))
                p->pend[n++] = p->pend[q];
        p->npend = n;
        return orientation(p, b->name, 1, MT_ENT_BODY, bi, &b->ori, b->rot);
    }
    return perr(p, b->name, MT_("body '%s': unknown property '%s' (mass, com, inertia, density, flexible, position, orientation, velocity, omega, marker, shape)"),
                b->name, k);
}

static int marker_ref(Parser *p, MtModel *m, const char *entity, const char *ref, int *out)
{
    *out = mt_model_find_marker(m, ref);
    if (*out < 0) return perr(p, entity, MT_("'%s': unknown marker '%s' (write body.marker; define the body before it is used)"), entity, ref);
    return 0;
}

/* A line of a table block: numbers, the points x y x y … in order. */
static int table_line(Parser *p)
{
    CTX(p, MT_ENT_SOLVER, 0, NULL); /* table points are plain numbers */
    for (int i = 0; i < p->ntok; i++) {
        if (p->ntp == p->captp) {
            int nc = p->captp ? 2 * p->captp : 64;
            double *t = realloc(p->tp, sizeof(double) * (size_t)nc);
            if (!t) return perr(p, p->tname, "%s", MT_("out of memory"));
            p->tp = t;
            p->captp = nc;
        }
        if (num(p, p->tname, i, &p->tp[p->ntp])) return -1;
        p->ntp++;
    }
    return 0;
}

/* The end of a table block: the points become the table. */
static int table_end(Parser *p, MtModel *m)
{
    int line = p->line, rc = 0;
    p->line = p->tline; /* messages name the line the table starts on */
    if (p->ntp % 2)
        rc = perr(p, p->tname, MT_("table '%s': the numbers must come in pairs 'X Y' (found %d numbers)"), p->tname, p->ntp);
    else if (mt_model_add_table(m, p->tname, p->ntp / 2, p->tp, p->err) < 0) rc = perr(p, p->tname, "%s", p->err->msg);
    p->line = line;
    return rc;
}

/* 'motus-model' */
static int statement_motus_model(Parser *p, MtModel *m, int *block)
{
    (void)m;
    (void)block;
    if (p->ntok != 2 || strcmp(p->tok[1], "1"))
        return perr(p, "", MT_("this file is format version '%s'; this Motus reads version 1"), p->ntok > 1 ? p->tok[1] : "?");
    return 0;
}

/* 'title' */
static int statement_title(Parser *p, MtModel *m, int *block)
{
    (void)block;
    if (p->ntok != 2) return perr(p, "title", MT_("title: put the title in quotes"));
    if (PUT_WORD(p, m->title, p->tok[1], "title", MT_("title"))) return -1;
    return 0;
}

/* 'gravity' */
static int statement_gravity(Parser *p, MtModel *m, int *block)
{
    (void)block;
    CTX(p, MT_ENT_GRAVITY, 0, "gravity");
    return expect_n(p, "gravity", 4) || nums(p, "gravity", 1, 3, m->gravity);
}

/* parameter NAME VALUE|{EXPR} [UNIT] */
static int statement_parameter(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok != 3 && p->ntok != 4)
        return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s", MT_("parameter: write 'parameter NAME VALUE [UNIT]' or 'parameter NAME {EXPRESSION} [UNIT]'"));
    const char *v = p->tok[2], *unit = p->ntok == 4 ? p->tok[3] : "";
    char expr[MT_EXPR_MAX];
    size_t len = strlen(v);
    if (v[0] == '{' ? put_text(p, expr, sizeof expr, v + 1, len >= 2 ? len - 2 : 0, p->tok[1], MT_("expression"))
                    : PUT_WORD(p, expr, v, p->tok[1], MT_("expression")))
        return -1;
    /* "90deg": the deg suffix any number may carry (Numbers in model-format.md) is the parameter's unit */
    size_t nl = len > 3 && !strcmp(v + len - 3, "deg") ? len - 3 : 0;
    if (v[0] != '{' && nl && nl < sizeof expr) {
        expr[nl] = 0;
        if (!mt_expr_is_number(expr, NULL)) snprintf(expr, sizeof expr, "%s", v); /* not a number: the evaluator says why */
        else if (unit[0])
            return perr(p, p->tok[1], MT_("parameter '%s': '%s' is in degrees already; drop the unit '%s' or the suffix 'deg'"),
                        p->tok[1], v, unit);
        else unit = "deg";
    }
    if (mt_param_index_find(&p->pix, m, p->tok[1]) >= 0)
        return perr(p, p->tok[1], MT_("parameter '%s' is defined twice"), p->tok[1]);
    int i = mt_model_append_param(m, p->tok[1], expr, unit, err);
    if (i < 0) return perr(p, p->tok[1], "%s", err->msg);
    if (mt_param_index_add(&p->pix, m, i)) return perr(p, p->tok[1], "%s", MT_("out of memory"));
    return 0;
}

/* units QUANTITY UNIT [QUANTITY UNIT …]; spaces in quantities written as _ */
static int statement_units(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 3 || p->ntok % 2 == 0) return perr(p, "units", "%s", MT_("units: write 'units QUANTITY UNIT [QUANTITY UNIT …]'"));
    for (int i = 1; i < p->ntok; i += 2) {
        char q[24];
        if (PUT_WORD(p, q, p->tok[i], "units", MT_("quantity"))) return -1;
        for (char *c = q; *c; c++)
            if (*c == '_') *c = ' ';
        if (mt_model_set_unit(m, q, p->tok[i + 1], err) < 0) return perr(p, "units", "%s", err->msg);
    }
    return 0;
}

/* view …: how the 3D view shows the model (mt_view.c) */
static int statement_view(Parser *p, MtModel *m, int *block)
{
    (void)block;
    if (mt_view_parse(&m->view, p->tok + 1, p->ntok - 1, p->err)) {
        char msg[sizeof p->err->msg];
        snprintf(msg, sizeof msg, "%s", p->err->msg);
        return perr(p, "view", "%s", msg);
    }
    return 0;
}

/* slider PARAMETER MIN MAX: the parameter as a slider over the 3D view (mt_sliders.c) */
static int statement_slider(Parser *p, MtModel *m, int *block)
{
    (void)block;
    if (mt_slider_parse(m, p->tok + 1, p->ntok - 1, p->err)) {
        char msg[sizeof p->err->msg];
        snprintf(msg, sizeof msg, "%s", p->err->msg);
        return perr(p, p->ntok > 1 ? p->tok[1] : "slider", "%s", msg);
    }
    return 0;
}

/* plot COLUMN [COLUMN …] [against COLUMN]: one plot the model opens with */
static int statement_plot(Parser *p, MtModel *m, int *block)
{
    (void)block;
    int n = p->ntok - 1, xy = n >= 3 && !strcmp(p->tok[p->ntok - 2], "against");
    if (xy) n -= 2;
    for (int i = 1; i < p->ntok; i++)
        if (!strcmp(p->tok[i], "against") && !(xy && i == p->ntok - 2)) n = 0; /* 'against' not before one last column */
    if (n < 1) return perr(p, "plot", "%s", MT_("plot: write 'plot COLUMN [COLUMN …] [against COLUMN]'"));
    if (m->nplot >= MT_PLOT_MAX) return perr(p, "plot", MT_("plot: at most %d plots"), MT_PLOT_MAX);
    if (n > MT_PLOT_CURVES) return perr(p, "plot", MT_("plot: at most %d curves in one plot"), MT_PLOT_CURVES);
    MtPlotSpec *ps = &m->plot[m->nplot];
    memset(ps, 0, sizeof *ps);
    for (int i = 1; i <= n + 2 * xy; i++) {
        if (xy && i == n + 1) continue; /* the word 'against' */
        if (!mt_plot_name_ok(p->tok[i]))
            return perr(p, "plot", MT_("plot: '%s' is not a result column (names like crank.wz, pin.Fy or a sensor's)"), p->tok[i]);
    }
    for (int i = 0; i < n; i++)
        if (PUT_WORD(p, ps->curve[i], p->tok[1 + i], "plot", MT_("column name"))) return -1;
    ps->ncurve = n;
    if (xy && PUT_WORD(p, ps->x, p->tok[p->ntok - 1], "plot", MT_("column name"))) return -1;
    m->nplot++;
    return 0;
}

/* derived NAME OP CURVE [CURVE …] [NUMBER]: a curve computed from result columns for plots */
static int statement_derived(Parser *p, MtModel *m, int *block)
{
    (void)block;
    if (p->ntok < 4)
        return perr(p, "derived", "%s",
                    MT_("derived: write 'derived NAME OPERATION CURVE [CURVE …] [NUMBER]' (docs/model-format.md)"));
    if (m->nderived >= MT_DERIVED_MAX) return perr(p, "derived", MT_("derived: at most %d derived curves"), MT_DERIVED_MAX);
    MtDerivedSpec d = {0};
    if (strlen(p->tok[1]) >= sizeof d.name || mt_model_find_derived(m, p->tok[1]) >= 0)
        return perr(p, p->tok[1], MT_("derived curve '%s': the name is too long or used twice"), p->tok[1]);
    snprintf(d.name, sizeof d.name, "%s", p->tok[1]);
    d.op = mt_derived_op_from_name(p->tok[2]);
    int lo = 0, hi = 0, param = d.op < MT_DERIVED_COUNT ? mt_derived_arity(d.op, &lo, &hi) : 0, n = p->ntok - 3 - param;
    if (param && n >= 0) {
        char *end;
        d.param = strtod(p->tok[p->ntok - 1], &end);
        if (*end || end == p->tok[p->ntok - 1])
            return perr(p, d.name, MT_("derived curve '%s': '%s' is not a number"), d.name, p->tok[p->ntok - 1]);
    }
    for (int i = 0; i < n && i < MT_DERIVED_ARGS; i++) {
        if (strlen(p->tok[3 + i]) >= MT_PLOT_NAME) return perr(p, d.name, MT_("derived curve '%s': a curve name is too long"), d.name);
        snprintf(d.arg[i], MT_PLOT_NAME, "%s", p->tok[3 + i]);
    }
    d.narg = n;
    MtError e = {0};
    if (mt_derived_check(&d, &e) != MT_OK) return perr(p, d.name, "%s", e.msg);
    m->derived[m->nderived++] = d;
    return 0;
}

/* study …: one statement of the model's study (motus/study.h) */
static int statement_study(Parser *p, MtModel *m, int *block)
{
    (void)block;
    if (!m->study && !(m->study = mt_study_new())) return perr(p, "study", "%s", MT_("out of memory"));
    if (mt_study_read(m->study, p->ntok, p->tok, p->err) == MT_OK) return 0;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", p->err->msg);
    return perr(p, p->err->entity, "%s", msg);
}

/* table NAME, then lines of points X Y, then end */
static int statement_table(Parser *p, MtModel *m, int *block)
{
    if (p->ntok != 2)
        return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s",
                    MT_("table: write 'table NAME' on its own line, then the points 'X Y' (one or more per line), then 'end'"));
    if (mt_model_find_table(m, p->tok[1]) >= 0) return perr(p, p->tok[1], MT_("table '%s' is defined twice"), p->tok[1]);
    if (PUT_WORD(p, p->tname, p->tok[1], p->tok[1], MT_("name"))) return -1;
    p->tline = p->line;
    p->ntp = 0;
    *block = -3;
    return 0;
}

/* 'ground' */
static int statement_ground(Parser *p, MtModel *m, int *block)
{
    (void)m;
    if (p->ntok != 1) return perr(p, "ground", MT_("ground: nothing may follow 'ground' on its line"));
    *block = -2;
    return 0;
}

/* 'body' */
static int statement_body(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    if (p->ntok != 2) return perr(p, "", MT_("body: write 'body NAME' on its own line"));
    int b = mt_model_add_body(m, p->tok[1], err);
    if (b < 0) return perr(p, p->tok[1], "%s", err->msg);
    *block = b;
    return 0;
}

/* 'joint' */
static int statement_joint(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok != 5 && p->ntok != 7)
        return perr(p, p->ntok > 1 ? p->tok[1] : "", MT_("joint: write 'joint NAME TYPE body.marker_i body.marker_j [pitch P | length L | radius R]'"));
    const char *name = p->tok[1];
    MtJointType t;
    if (mt_joint_type_from_name(p->tok[2], &t))
        return perr(p, name, MT_("joint '%s': unknown joint type '%s' (spherical, revolute, prismatic, cylindrical, universal, fixed, planar, screw, inline, inplane, distance, rolling, ball)"),
                    name, p->tok[2]);
    int mi, mj;
    if (marker_ref(p, m, name, p->tok[3], &mi) || marker_ref(p, m, name, p->tok[4], &mj)) return -1;
    const char *want = t == MT_JOINT_SCREW ? "pitch" : t == MT_JOINT_DISTANCE ? "length" : (t == MT_JOINT_ROLLING || t == MT_JOINT_BALL) ? "radius" : NULL;
    double param = t == MT_JOINT_DISTANCE ? NAN : 0; /* a distance defaults to the initial one */
    CTX(p, MT_ENT_JOINT, m->njoint, "param");
    if (p->ntok == 7) {
        if (!want || strcmp(p->tok[5], want))
            return perr(p, name, MT_("joint '%s': unexpected '%s' (screw takes pitch, distance length, rolling radius)"), name, p->tok[5]);
        if (num(p, name, 6, &param)) return -1;
    } else if (t == MT_JOINT_SCREW || t == MT_JOINT_ROLLING || t == MT_JOINT_BALL)
        return perr(p, name, MT_("joint '%s': a %s joint needs '%s'"), name, p->tok[2], want);
    if (mt_model_add_joint(m, name, t, mi, mj, err) < 0) return perr(p, name, "%s", err->msg);
    m->joint[m->njoint - 1].param = param;
    return 0;
}

/* 'driver' */
static int statement_driver(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 5)
        return perr(p, p->ntok > 1 ? p->tok[1] : "", MT_("driver: write 'driver NAME JOINT[.COORD] [disp|vel|acc] LAW …' or 'driver NAME markers I J COMP [disp|vel|acc] LAW …'"));
    const char *name = p->tok[1];
    int i = 2, j = -1, mi = -1, mj = -1;
    MtCoordKind coord = MT_COORD_NONE;
    MtComp comp = MT_COMP_X;
    if (!strcmp(p->tok[2], "markers")) {
        if (p->ntok < 8) return perr(p, name, MT_("driver '%s': write 'markers body.marker_i body.marker_j x|y|z|ax|ay|az'"), name);
        if (marker_ref(p, m, name, p->tok[3], &mi) || marker_ref(p, m, name, p->tok[4], &mj)) return -1;
        if (mt_comp_from_name(p->tok[5], &comp))
            return perr(p, name, MT_("driver '%s': unknown component '%s' (x, y, z, ax, ay, az)"), name, p->tok[5]);
        i = 6;
    } else {
        char jn[MT_NAME_MAX + 16];
        if (PUT_WORD(p, jn, p->tok[2], name, MT_("joint name"))) return -1;
        char *dot = strchr(jn, '.');
        if (dot) {
            *dot = 0;
            if (mt_coord_from_name(dot + 1, &coord))
                return perr(p, name, MT_("driver '%s': unknown coordinate '%s' (angle, disp, x, y)"), name, dot + 1);
        }
        j = mt_model_find_joint(m, jn);
        if (j < 0) return perr(p, name, MT_("driver '%s': unknown joint '%s'"), name, jn);
        if (coord == MT_COORD_NONE) coord = mt_joint_default_coord(m->joint[j].type);
        if (coord == MT_COORD_NONE)
            return perr(p, name, MT_("driver '%s': joint '%s' (%s) has no coordinate to drive"), name, jn, mt_joint_type_name(m->joint[j].type));
        i = 3;
    }
    MtDriverLevel level = MT_LEVEL_DISP;
    if (i < p->ntok && (!strcmp(p->tok[i], "disp") || !strcmp(p->tok[i], "vel") || !strcmp(p->tok[i], "acc"))) {
        level = p->tok[i][0] == 'd' ? MT_LEVEL_DISP : p->tok[i][0] == 'v' ? MT_LEVEL_VEL : MT_LEVEL_ACC;
        i++;
    }
    if (i >= p->ntok) return perr(p, name, MT_("driver '%s': the law is missing (const, rate, poly, harmonic, step, table, expr)"), name);
    const char *lw = p->tok[i++];
    double c[MT_POLY_MAX] = {0};
    int n = 0, nargs = p->ntok - i;
    MtDriverKind kind;
    double *table = NULL;
    char law_expr[MT_EXPR_MAX] = "";
    CTX(p, MT_ENT_DRIVER, m->ndriver, "coef");
    if (!strcmp(lw, "rate")) {
        kind = MT_DRIVER_RATE;
        n = 2;
        p->comp = 1;
        if (num(p, name, i, &c[1])) return -1;
        if (nargs == 3 && !strcmp(p->tok[i + 1], "start")) {
            p->comp = 0;
            if (num(p, name, i + 2, &c[0])) return -1;
        } else if (nargs != 1) return perr(p, name, MT_("driver '%s': after 'rate W' only 'start F0' may follow"), name);
    } else if (!strcmp(lw, "const")) {
        kind = MT_DRIVER_POLY;
        n = 1;
        if (nargs != 1) return perr(p, name, MT_("driver '%s': const takes one value"), name);
        p->comp = 0;
        if (num(p, name, i, &c[0])) return -1;
    } else if (!strcmp(lw, "poly")) {
        kind = MT_DRIVER_POLY;
        n = nargs;
        if (n < 1 || n > MT_POLY_MAX) return perr(p, name, MT_("driver '%s': poly takes 1 to 8 coefficients"), name);
        if (nums(p, name, i, n, c)) return -1;
    } else if (!strcmp(lw, "harmonic")) { /* amplitude, circular frequency [phase P] [offset C] */
        kind = MT_DRIVER_HARMONIC;
        n = 4;
        if (nargs < 2) return perr(p, name, MT_("driver '%s': write 'harmonic AMPLITUDE OMEGA [phase P] [offset C]'"), name);
        if (nums(p, name, i, 2, c)) return -1;
        for (int a = i + 2; a < p->ntok; a += 2) {
            double v;
            p->comp = !strcmp(p->tok[a], "phase") ? 2 : 3;
            if (num(p, name, a + 1, &v)) return -1;
            if (!strcmp(p->tok[a], "phase")) c[2] = v;
            else if (!strcmp(p->tok[a], "offset")) c[3] = v;
            else return perr(p, name, MT_("driver '%s': unknown harmonic setting '%s' (phase, offset)"), name, p->tok[a]);
        }
    } else if (!strcmp(lw, "step")) {
        kind = MT_DRIVER_STEP;
        n = 4;
        if (nargs != 4) return perr(p, name, MT_("driver '%s': write 'step T0 VALUE0 T1 VALUE1'"), name);
        if (nums(p, name, i, 4, c)) return -1;
    } else if (!strcmp(lw, "table")) {
        kind = MT_DRIVER_TABLE;
        CTX(p, MT_ENT_DRIVER, 0, NULL); /* table points are plain numbers */
        if (nargs < 4 || nargs % 2) return perr(p, name, MT_("driver '%s': a table takes pairs 'TIME VALUE', at least two"), name);
        table = malloc(sizeof(double) * (size_t)nargs);
        if (!table) return perr(p, name, MT_("driver '%s': out of memory"), name);
        if (nums(p, name, i, nargs, table)) { free(table); return -1; }
        n = 1;
    } else if (!strcmp(lw, "expr")) { /* f(t) as an expression of time and parameters */
        kind = MT_DRIVER_EXPR;
        n = 1;
        const char *e = nargs == 1 ? p->tok[i] : "";
        size_t len = strlen(e);
        if (e[0] != '{' || len < 3) return perr(p, name, MT_("driver '%s': write 'expr {EXPRESSION OF t}'"), name);
        if (put_text(p, law_expr, sizeof law_expr, e + 1, len - 2, name, MT_("expression"))) return -1;
    } else return perr(p, name, MT_("driver '%s': unknown law '%s' (const, rate, poly, harmonic, step, table, expr)"), name, lw);
    int d = mt_model_add_driver(m, name, j, kind == MT_DRIVER_TABLE || kind == MT_DRIVER_EXPR ? MT_DRIVER_POLY : kind, n, c, err);
    if (d < 0) { free(table); return perr(p, name, "%s", err->msg); }
    MtDriverSpec *ds = &m->driver[d];
    ds->joint = j;
    ds->coord = coord;
    ds->mi = mi;
    ds->mj = mj;
    ds->comp = comp;
    ds->level = level;
    if (kind == MT_DRIVER_EXPR && mt_model_driver_set_expr(m, d, law_expr, err)) return perr(p, name, "%s", err->msg);
    if (table) {
        MtStatus rc = mt_model_driver_set_table(m, d, nargs / 2, table, err);
        free(table);
        if (rc) return perr(p, name, "%s", err->msg);
    }
    return 0;
}

/* The modal coordinate K of "wK" (1 … 9999), or 0. */
static int modal_coord(const char *s)
{
    if (s[0] != 'w' || s[1] < '1' || s[1] > '9' || strlen(s) > 5) return 0;
    for (const char *c = s + 1; *c; c++)
        if (*c < '0' || *c > '9') return 0;
    return atoi(s + 1);
}

/* initial JOINT[.COORD] [VALUE] [rate V]  |  initial BODY.wK [VALUE] [rate V] (a flexible body's modal coordinate) */
static int statement_initial(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 3) return perr(p, "", "%s", MT_("initial: write 'initial JOINT[.COORD] [VALUE] [rate V]'"));
    char jn[MT_NAME_MAX + 16];
    if (PUT_WORD(p, jn, p->tok[1], "initial", MT_("joint name"))) return -1;
    MtCoordKind coord = MT_COORD_NONE;
    char *dot = strchr(jn, '.');
    int mode = dot ? modal_coord(dot + 1) : 0, j = -1, b = -1;
    if (dot) *dot = 0;
    if (mode) {
        b = mt_model_find_body(m, jn);
        if (b < 0) return perr(p, jn, MT_("initial condition: unknown body '%s' (write 'initial BODY.wK' after the body)"), jn);
        if (mt_model_body_flex(m, b) < 0)
            return perr(p, jn, MT_("initial condition: body '%s' is not flexible, it has no modal coordinate w%d"), jn, mode);
    } else {
        if (dot && mt_coord_from_name(dot + 1, &coord))
            return perr(p, jn, MT_("initial condition: unknown coordinate '%s' (angle, disp, x, y)"), dot + 1);
        j = mt_model_find_joint(m, jn);
        if (j < 0) return perr(p, jn, MT_("initial condition: unknown joint '%s'"), jn);
        if (coord == MT_COORD_NONE) coord = mt_joint_default_coord(m->joint[j].type);
    }
    double value = 0, rate = 0;
    int has_value = 0, has_rate = 0, i = 2;
    CTX(p, MT_ENT_INITIAL, m->ninitial, "value");
    if (strcmp(p->tok[i], "rate")) {
        if (num(p, jn, i, &value)) return -1;
        has_value = 1;
        i++;
    }
    if (i < p->ntok) {
        if (strcmp(p->tok[i], "rate") || i + 2 != p->ntok)
            return perr(p, jn, "%s", MT_("initial: write 'initial JOINT[.COORD] [VALUE] [rate V]'"));
        CTX(p, MT_ENT_INITIAL, m->ninitial, "rate");
        if (num(p, jn, i + 1, &rate)) return -1;
        has_rate = 1;
    }
    if ((mode ? mt_model_add_initial_mode(m, b, mode, has_value, value, has_rate, rate, err)
              : mt_model_add_initial(m, j, coord, has_value, value, has_rate, rate, err)) < 0)
        return perr(p, jn, "%s", err->msg);
    return 0;
}

/* 'gear', 'rack', 'coupler' */
static int statement_gear(Parser *p, MtModel *m, int *block)
{
    const char *k = p->tok[0];
    MtError *err = p->err;
    (void)block;
    const char *name = p->ntok > 1 ? p->tok[1] : "";
    int joints[3];
    MtCoordKind coords[3] = {MT_COORD_NONE, MT_COORD_NONE, MT_COORD_NONE};
    double coef[3] = {0, 0, 0};
    int n = 2;
    MtCoupleKind kind = k[0] == 'g' ? MT_COUPLE_GEAR : k[0] == 'r' ? MT_COUPLE_RACK : MT_COUPLE_LINEAR;
    if (kind != MT_COUPLE_LINEAR) {
        int internal = p->ntok == 8 && kind == MT_COUPLE_GEAR && !strcmp(p->tok[7], "internal");
        int want = kind == MT_COUPLE_GEAR ? 7 : 6;
        if ((p->ntok != want && !internal) || strcmp(p->tok[4], "radius"))
            return perr(p, name, kind == MT_COUPLE_GEAR ? MT_("gear: write 'gear NAME JOINT_A JOINT_B radius R_A R_B [internal]'")
                                                        : MT_("rack: write 'rack NAME PINION_JOINT RACK_JOINT radius R'"));
        for (int t = 0; t < 2; t++) {
            joints[t] = mt_model_find_joint(m, p->tok[2 + t]);
            if (joints[t] < 0) return perr(p, name, MT_("coupling '%s': unknown joint '%s'"), name, p->tok[2 + t]);
        }
        CTX(p, MT_ENT_COUPLE, m->ncouple, "coef");
        p->comp = 0;
        if (num(p, name, 5, &coef[0])) return -1;
        if (kind == MT_COUPLE_GEAR) {
            int before = p->npend;
            p->comp = 1;
            if (num(p, name, 6, &coef[1])) return -1;
            if (internal) {
                coef[1] = -coef[1];
                if (p->npend > before) { /* an internal gear's radius enters with its sign */
                    char e[MT_EXPR_MAX];
                    const char *x = p->pend[p->npend - 1].expr;
                    if (strlen(x) + 3 >= sizeof e) /* the sign's "-()" must fit too */
                        return perr(p, name, MT_("'%s': the %s is %zu bytes long, more than the %zu accepted; shorten it"),
                                    name, MT_("expression"), strlen(x) + 3, sizeof e - 1);
                    snprintf(e, sizeof e, "-(%s)", x);
                    memcpy(p->pend[p->npend - 1].expr, e, sizeof e);
                }
            }
        } else coef[1] = -1;
    } else {
        if (p->ntok != 6 && p->ntok != 8) return perr(p, name, MT_("coupler: write 'coupler NAME JOINT[.COORD] C1 JOINT[.COORD] C2 [JOINT[.COORD] C3]'"));
        n = (p->ntok - 2) / 2;
        for (int t = 0; t < n; t++) {
            char jn[MT_NAME_MAX + 16];
            if (PUT_WORD(p, jn, p->tok[2 + 2 * t], name, MT_("joint name"))) return -1;
            char *dot = strchr(jn, '.');
            if (dot) {
                *dot = 0;
                if (mt_coord_from_name(dot + 1, &coords[t]))
                    return perr(p, name, MT_("coupling '%s': unknown coordinate '%s' (angle, disp, x, y)"), name, dot + 1);
            }
            joints[t] = mt_model_find_joint(m, jn);
            if (joints[t] < 0) return perr(p, name, MT_("coupling '%s': unknown joint '%s'"), name, jn);
            if (coords[t] == MT_COORD_NONE) coords[t] = mt_joint_default_coord(m->joint[joints[t]].type);
            CTX(p, MT_ENT_COUPLE, m->ncouple, "coef");
            p->comp = t;
            if (num(p, name, 3 + 2 * t, &coef[t])) return -1;
        }
    }
    if (mt_model_add_couple(m, name, kind, n, joints, kind == MT_COUPLE_LINEAR ? coords : NULL, coef, err) < 0)
        return perr(p, name, "%s", err->msg);
    return 0;
}

/* 'spring' */
static int statement_spring(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 4) return perr(p, p->ntok > 1 ? p->tok[1] : "", MT_("spring: write 'spring NAME body.marker_i body.marker_j [k K] [c C] [length L0] [preload F]'"));
    const char *name = p->tok[1];
    int mi, mj;
    if (marker_ref(p, m, name, p->tok[2], &mi) || marker_ref(p, m, name, p->tok[3], &mj)) return -1;
    char what[MT_NAME_MAX + 16];
    snprintf(what, sizeof what, MT_("spring '%s'"), name);
    if (mt_model_add_spring(m, name, mi, mj, 0, 0, 0, 0, err) < 0) return perr(p, name, "%s", err->msg);
    MtSpringSpec *sp = &m->spring[m->nspring - 1];
    mt_schema_defaults(MT_ENT_SPRING, sp); /* the free length, if not given, from the initial geometry */
    if (settings(p, MT_ENT_SPRING, m->nspring - 1, sp, what, 4)) {
        m->nspring--;
        return -1;
    }
    return 0;
}

/* control NAME pid|lag|second input {E} [setpoint {E}] KEY VALUE … [limit LO HI] */
static int statement_control(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 5) return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s", MT_("control: write 'control NAME pid|lag|second input {EXPRESSION} …'"));
    const char *name = p->tok[1];
    MtControlKind kind;
    if (mt_control_kind_from_name(p->tok[2], &kind))
        return perr(p, name, MT_("control '%s': unknown kind '%s' (pid, lag, second)"), name, p->tok[2]);
    int c = mt_model_add_control(m, name, kind, err);
    if (c < 0) return perr(p, name, "%s", err->msg);
    MtControlSpec *cs = &m->control[c];
    const char *const *keys = mt_control_param_names(kind);
    int lo = 0;
    while (keys[lo]) lo++;
    for (int i = 3; i < p->ntok;) {
        const char *key = p->tok[i];
        if (!strcmp(key, "input") || !strcmp(key, "setpoint")) {
            const char *e = i + 1 < p->ntok ? p->tok[i + 1] : "";
            size_t len = strlen(e);
            if (e[0] != '{' || len < 3) return perr(p, name, MT_("control '%s': write '%s {EXPRESSION}'"), name, key);
            if (put_text(p, key[0] == 'i' ? cs->input : cs->setpoint, MT_EXPR_MAX, e + 1, len - 2, name, MT_("expression")))
                return -1;
            i += 2;
        } else if (!strcmp(key, "limit")) {
            CTX(p, MT_ENT_CONTROL, c, "limit");
            if (nums(p, name, i + 1, 2, cs->p + lo)) return -1;
            if (!(cs->p[lo] < cs->p[lo + 1])) return perr(p, name, MT_("control '%s': the lower limit must be below the upper"), name);
            i += 3;
        } else if (!strcmp(key, "disabled")) {
            cs->disabled = 1;
            i++;
        } else {
            int q = 0;
            while (keys[q] && strcmp(keys[q], key)) q++;
            if (!keys[q]) return perr(p, name, MT_("control '%s': unknown setting '%s'"), name, key);
            CTX(p, MT_ENT_CONTROL, c, keys[q]);
            if (num(p, name, i + 1, &cs->p[q])) return -1;
            i += 2;
        }
    }
    if (!cs->input[0]) return perr(p, name, MT_("control '%s': an input {EXPRESSION} is needed"), name);
    return 0;
}

/* event NAME at T | when {E} crosses V [rising|falling] do ACTION [TARGET] */
static int statement_event(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 5) return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s", MT_("event: write 'event NAME at T do ACTION [TARGET]' or 'event NAME when {EXPRESSION} crosses V [rising|falling] do ACTION [TARGET]'"));
    const char *name = p->tok[1];
    int e = mt_model_add_event(m, name, err);
    if (e < 0) return perr(p, name, "%s", err->msg);
    MtEventSpec *ev = &m->event[e];
    int i;
    if (!strcmp(p->tok[2], "at")) {
        ev->trigger = MT_EVENT_AT;
        CTX(p, MT_ENT_EVENT, e, "time");
        if (num(p, name, 3, &ev->time)) return -1;
        i = 4;
    } else if (!strcmp(p->tok[2], "when")) {
        const char *x = p->tok[3];
        size_t len = strlen(x);
        if (x[0] != '{' || len < 3 || p->ntok < 6 || strcmp(p->tok[4], "crosses"))
            return perr(p, name, MT_("event '%s': write 'when {EXPRESSION} crosses VALUE'"), name);
        ev->trigger = MT_EVENT_CROSSES;
        if (put_text(p, ev->expr, sizeof ev->expr, x + 1, len - 2, name, MT_("expression"))) return -1;
        CTX(p, MT_ENT_EVENT, e, "value");
        if (num(p, name, 5, &ev->value)) return -1;
        i = 6;
        if (i < p->ntok && (!strcmp(p->tok[i], "rising") || !strcmp(p->tok[i], "falling"))) {
            ev->direction = p->tok[i][0] == 'r' ? 1 : -1;
            i++;
        }
    } else return perr(p, name, MT_("event '%s': 'at' or 'when' expected, not '%s'"), name, p->tok[2]);
    if (i + 1 >= p->ntok || strcmp(p->tok[i], "do")) return perr(p, name, MT_("event '%s': 'do ACTION' expected"), name);
    const char *act = p->tok[i + 1], *tg = i + 2 < p->ntok ? p->tok[i + 2] : NULL;
    const char *const *acts = mt_action_names;
    int a = 0;
    while (a < 5 && strcmp(acts[a], act)) a++;
    if (a == 5) return perr(p, name, MT_("event '%s': unknown action '%s' (stop, break, lock, enable, disable)"), name, act);
    ev->action = (MtEventAction)a;
    if (ev->action == MT_ACTION_STOP) {
        if (tg) return perr(p, name, MT_("event '%s': stop takes no target"), name);
        return 0;
    }
    if (!tg || i + 3 != p->ntok) return perr(p, name, MT_("event '%s': the action needs one target"), name);
    if (ev->action == MT_ACTION_BREAK || ev->action == MT_ACTION_LOCK) {
        ev->target_kind = MT_TARGET_JOINT;
        ev->target = mt_model_find_joint(m, tg);
        if (ev->target < 0) return perr(p, name, MT_("event '%s': unknown joint '%s'"), name, tg);
        if (ev->action == MT_ACTION_LOCK && mt_joint_default_coord(m->joint[ev->target].type) == MT_COORD_NONE)
            return perr(p, name, MT_("event '%s': joint '%s' has no coordinate to lock"), name, tg);
        return 0;
    }
    int f;
    if ((f = mt_model_find_force(m, tg)) >= 0) { ev->target_kind = MT_TARGET_FORCE; ev->target = f; return 0; }
    if ((f = mt_model_find_control(m, tg)) >= 0) { ev->target_kind = MT_TARGET_CONTROL; ev->target = f; return 0; }
    for (f = 0; f < m->nspring; f++)
        if (!strcmp(m->spring[f].name, tg)) { ev->target_kind = MT_TARGET_SPRING; ev->target = f; return 0; }
    for (f = 0; f < m->ndriver; f++)
        if (!strcmp(m->driver[f].name, tg)) { ev->target_kind = MT_TARGET_DRIVER; ev->target = f; return 0; }
    return perr(p, name, MT_("event '%s': '%s' is not a force element, spring, driver or control"), name, tg);
}

/* sensor NAME KIND TARGETS… [rel M] [frame M] [component C] [part P] [unit U] */
static int statement_sensor(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 4) return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s", MT_("sensor: write 'sensor NAME KIND …' (see the model format)"));
    const char *name = p->tok[1];
    MtSensorKind kind;
    if (mt_sensor_kind_from_name(p->tok[2], &kind))
        return perr(p, name, MT_("sensor '%s': unknown kind '%s' (position, velocity, acceleration, angvel, angacc, angle, distance, joint, reaction, energy, force, expr, deformation, deformation_rate, deformation_acc, stress)"),
                    name, p->tok[2]);
    int sn = mt_model_add_sensor(m, name, kind, err);
    if (sn < 0) return perr(p, name, "%s", err->msg);
    MtSensorSpec *ss = &m->sensor[sn];
    int i = 4;
    if (kind == MT_SENSOR_EXPR) {
        const char *e = p->tok[3];
        size_t len = strlen(e);
        if (e[0] != '{' || len < 3) return perr(p, name, MT_("sensor '%s': write 'expr {EXPRESSION}'"), name);
        if (put_text(p, ss->expr, sizeof ss->expr, e + 1, len - 2, name, MT_("expression"))) return -1;
    } else if (kind == MT_SENSOR_REACTION) {
        ss->joint = mt_model_find_joint(m, p->tok[3]);
        if (ss->joint < 0) return perr(p, name, MT_("sensor '%s': unknown joint '%s'"), name, p->tok[3]);
        ss->comp = 6;
    } else if (kind == MT_SENSOR_JOINT) {
        char jn[MT_NAME_MAX + 16];
        if (PUT_WORD(p, jn, p->tok[3], name, MT_("joint name"))) return -1;
        char *dot = strchr(jn, '.');
        MtCoordKind ck = MT_COORD_NONE;
        if (dot) {
            *dot = 0;
            if (mt_coord_from_name(dot + 1, &ck))
                return perr(p, name, MT_("sensor '%s': unknown coordinate '%s' (angle, disp, x, y)"), name, dot + 1);
        }
        ss->joint = mt_model_find_joint(m, jn);
        if (ss->joint < 0) return perr(p, name, MT_("sensor '%s': unknown joint '%s'"), name, jn);
        if (ck == MT_COORD_NONE) ck = mt_joint_default_coord(m->joint[ss->joint].type);
        if (ck == MT_COORD_NONE || !mt_joint_has_coord(m->joint[ss->joint].type, ck))
            return perr(p, name, MT_("sensor '%s': joint '%s' has no such coordinate"), name, jn);
        ss->coord = ck;
        ss->comp = 0;
    } else if (kind == MT_SENSOR_FORCE) {
        ss->force = mt_model_find_force(m, p->tok[3]);
        for (int k2 = 0; ss->force < 0 && k2 < m->nspring; k2++)
            if (!strcmp(m->spring[k2].name, p->tok[3])) ss->spring = k2;
        if (ss->force < 0 && ss->spring < 0)
            return perr(p, name, MT_("sensor '%s': '%s' is not a force element or spring (define it before the sensor)"), name, p->tok[3]);
        ss->comp = 6;
    } else if (kind == MT_SENSOR_ENERGY) {
        if (strcmp(p->tok[3], "system") && mt_model_body_ref(m, p->tok[3], &ss->body))
            return perr(p, name, MT_("sensor '%s': unknown body '%s' (or 'system')"), name, p->tok[3]);
        if (!strcmp(p->tok[3], "system")) ss->body = -1;
        ss->energy = 2;
    } else {
        if (marker_ref(p, m, name, p->tok[3], &ss->mi)) return -1;
        if (kind == MT_SENSOR_DISTANCE) {
            if (p->ntok < 5) return perr(p, name, MT_("sensor '%s': a distance needs two markers"), name);
            if (marker_ref(p, m, name, p->tok[4], &ss->mj)) return -1;
            i = 5;
        }
    }
    const char *const *comps = mt_vector_comp_names, *const *rcomps = mt_load_comp_names;
    const char *const *parts = mt_part_names, *const *energies = mt_energy_names;
    static const char *const jcomps[] = {"value", "rate"};
    for (; i < p->ntok; i++) {
        const char *key = p->tok[i];
        if (kind == MT_SENSOR_ENERGY) {
            int ok = 0;
            for (int e = 0; e < 4; e++)
                if (!strcmp(key, energies[e])) { ss->energy = e; ok = 1; }
            if (ok) continue;
        }
        if (i + 1 >= p->ntok) return perr(p, name, MT_("sensor '%s': '%s' needs a value"), name, key);
        const char *v = p->tok[++i];
        int ok = 0;
        if (!strcmp(key, "rel") && kind != MT_SENSOR_REACTION && kind != MT_SENSOR_ENERGY && kind != MT_SENSOR_EXPR &&
            kind != MT_SENSOR_FORCE && kind != MT_SENSOR_JOINT) {
            if (marker_ref(p, m, name, v, &ss->mj)) return -1;
            ok = 1;
        } else if (!strcmp(key, "frame")) {
            if (marker_ref(p, m, name, v, &ss->mframe)) return -1;
            ok = 1;
        } else if (!strcmp(key, "component")) {
            const char *const *list = kind == MT_SENSOR_REACTION || kind == MT_SENSOR_FORCE ? rcomps
                                    : kind == MT_SENSOR_JOINT                                ? jcomps
                                                                                             : comps;
            int n = kind == MT_SENSOR_REACTION ? 8 : kind == MT_SENSOR_FORCE ? 11 : kind == MT_SENSOR_JOINT ? 2 : 4;
            for (int c = 0; c < n; c++)
                if (!strcmp(v, list[c])) { ss->comp = c; ok = 1; }
            if (!ok) return perr(p, name, MT_("sensor '%s': unknown component '%s'"), name, v);
        } else if (!strcmp(key, "part") && kind == MT_SENSOR_REACTION) {
            for (int c = 0; c < 4; c++)
                if (!strcmp(v, parts[c])) { ss->part = (MtReactionPart)c; ok = 1; }
            if (!ok) return perr(p, name, MT_("sensor '%s': unknown part '%s' (total, constraint, friction, driver)"), name, v);
        } else if (!strcmp(key, "unit")) {
            if (PUT_WORD(p, ss->unit, v, name, MT_("unit"))) return -1;
            ok = 1;
        }
        if (!ok) return perr(p, name, MT_("sensor '%s': unexpected '%s'"), name, key);
    }
    return 0;
}

/* force NAME KIND TARGETS… [GEOMETRY] KEY VALUE … */
static int statement_force(Parser *p, MtModel *m, int *block)
{
    MtError *err = p->err;
    (void)block;
    if (p->ntok < 4) return perr(p, p->ntok > 1 ? p->tok[1] : "", "%s", MT_("force: write 'force NAME KIND TARGETS… KEY VALUE …'"));
    const char *name = p->tok[1];
    MtForceKind kind;
    if (mt_force_kind_from_name(p->tok[2], &kind))
        return perr(p, name, MT_("force '%s': unknown kind '%s' (torsion, bushing, friction, contact, strut, tyre, actuator, drag, wheelrail)"),
                    name, p->tok[2]);
    int i = 3, mi = -1, mj = -1, joint = -1, geom = 0;
    if (kind == MT_FORCE_TORSION || kind == MT_FORCE_FRICTION) {
        joint = mt_model_find_joint(m, p->tok[3]);
        if (joint < 0) return perr(p, name, MT_("force '%s': unknown joint '%s'"), name, p->tok[3]);
        i = 4;
    } else {
        if (marker_ref(p, m, name, p->tok[3], &mi)) return -1;
        i = 4;
        if (kind != MT_FORCE_DRAG) {
            if (p->ntok < 5) return perr(p, name, MT_("force '%s': a second marker is needed"), name);
            if (marker_ref(p, m, name, p->tok[4], &mj)) return -1;
            i = 5;
        }
        if (kind == MT_FORCE_CONTACT) {
            MtContactGeom g;
            if (i >= p->ntok || mt_contact_geom_from_name(p->tok[i], &g))
                return perr(p, name, MT_("force '%s': say the geometry: sphere-plane, point-plane, box-plane, sphere-sphere, point-sphere or box-sphere"), name);
            geom = g;
            i++;
        }
    }
    int f = mt_model_add_force(m, name, kind, mi, mj, joint, err);
    if (f < 0) return perr(p, name, "%s", err->msg);
    MtForceSpec *fs = &m->force[f];
    fs->geom = geom;
    const char *const *pn = mt_force_param_names(kind);
    const char *const *comp = mt_load_comp_names; /* fx … tz */
    for (; i < p->ntok; i += 2) {
        const char *key = p->tok[i];
        if (i + 1 >= p->ntok) return perr(p, name, MT_("force '%s': '%s' needs a value"), name, key);
        int done = 0;
        if (kind == MT_FORCE_BUSHING && (!strcmp(key, "kmatrix") || !strcmp(key, "cmatrix"))) {
            /* the whole 6 x 6 matrix, row by row: kx k12 … k16 k21 ky … */
            int c = key[0] == 'c';
            if (i + 36 >= p->ntok) return perr(p, name, MT_("force '%s': '%s' takes 36 numbers, row by row"), name, key);
            for (int a = 0; a < 6; a++)
                for (int b = 0; b < 6; b++) {
                    int q = mt_bushing_index(c, a, b);
                    CTX(p, MT_ENT_FORCE, f, pn[q]);
                    if (num(p, name, i + 1 + 6 * a + b, &fs->p[q])) return -1;
                }
            i += 35;
            continue;
        }
        if (kind == MT_FORCE_ACTUATOR)
            for (int c = 0; c < 6 && !done; c++)
                if (!strcmp(key, comp[c])) {
                    const char *v = p->tok[i + 1];
                    size_t len = strlen(v);
                    if (v[0] == '{' ? put_text(p, fs->expr[c], MT_EXPR_MAX, v + 1, len >= 2 ? len - 2 : 0, name, MT_("expression"))
                                    : PUT_WORD(p, fs->expr[c], v, name, MT_("expression")))
                        return -1;
                    done = 1;
                }
        if (kind == MT_FORCE_WHEELRAIL) {
            for (int c = 0; c < 4 && !done; c++)
                if (!strcmp(key, mt_wheelrail_table_keys[c])) {
                    if (PUT_WORD(p, fs->expr[c], p->tok[i + 1], name, MT_("table name"))) return -1;
                    done = 1;
                }
            if (!done && !strcmp(key, "psd")) { /* a named spectrum */
                int w = mt_wheelrail_psd_from_name(p->tok[i + 1]);
                if (w < 0) return perr(p, name, MT_("force '%s': psd is none, low or high (the German track spectra), not '%s'"), name, p->tok[i + 1]);
                fs->p[25] = w;
                done = 1;
            }
        }
        for (int q = 0; pn[q] && !done; q++)
            if (!strcmp(key, pn[q])) {
                CTX(p, MT_ENT_FORCE, f, pn[q]);
                if (num(p, name, i + 1, &fs->p[q])) return -1;
                done = 1;
            }
        if (!done) return perr(p, name, MT_("force '%s': unknown setting '%s' for a %s"), name, key, p->tok[2]);
    }
    return 0;
}

/* solver KEY VALUE … */
static int statement_solver(Parser *p, MtModel *m, int *block)
{
    (void)block;
    return settings(p, MT_ENT_SOLVER, 0, &m->solver, "solver", 1);
}

/* The statements of the top level and who reads them. */
static const struct {
    const char *keyword;
    int (*read)(Parser *p, MtModel *m, int *block);
} statements[] = {
    {"motus-model", statement_motus_model},
    {"title", statement_title},
    {"gravity", statement_gravity},
    {"parameter", statement_parameter},
    {"units", statement_units},
    {"solver", statement_solver},
    {"plot", statement_plot},
    {"view", statement_view},
    {"slider", statement_slider},
    {"derived", statement_derived},
    {"study", statement_study},
    {"table", statement_table},
    {"ground", statement_ground},
    {"body", statement_body},
    {"joint", statement_joint},
    {"driver", statement_driver},
    {"initial", statement_initial},
    {"gear", statement_gear},
    {"rack", statement_gear},
    {"coupler", statement_gear},
    {"spring", statement_spring},
    {"control", statement_control},
    {"event", statement_event},
    {"sensor", statement_sensor},
    {"force", statement_force},
};

static int top_line(Parser *p, MtModel *m, int *block)
{
    for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++)
        if (!strcmp(p->tok[0], statements[i].keyword)) return statements[i].read(p, m, block);
    const char *k = p->tok[0];
    return perr(p, "", MT_("unknown statement '%s' (expected title, gravity, solver, ground, body, joint, driver, spring, force, sensor, control, event, gear, rack, coupler, initial, parameter, table, units, plot, view or study)"), k);
}

/* Free length of a spring without "length": its initial distance. */
static void marker_world(const MtModel *m, int mk, double *p)
{
    const MtMarkerSpec *k = &m->marker[mk];
    if (k->body == MT_GROUND) { mt_v3_copy(p, k->pos); return; }
    const MtBodySpec *b = &m->body[k->body];
    mt_m3_mulv(p, b->rot, k->pos);
    mt_v3_add(p, p, b->pos);
}

MtModel *mt_model_parse_text(const char *text, const char *source_name, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    mt_error_clear(err);
    MtModel *m = mt_model_new();
    char *buf = strdup(text ? text : "");
    if (!m || !buf) {
        mt_model_free(m);
        free(buf);
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return NULL;
    }
    Parser p = {.src = source_name ? source_name : "<text>", .err = err};
    int block = -1; /* -1 top level, -2 ground, -3 table, ≥ 0 body */
    int fail = 0, more = 0, first = 0;
    char *line = buf, *end = buf + strlen(buf);
    while (line && !fail) {
        /* memchr with the end known: strchr would look for the end of the whole text on every line, which
         * under AddressSanitizer's strict string checks made a 100 000-line model take minutes */
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl) *nl = 0;
        p.line++;
        if (!more) {
            p.ntok = 0;
            first = p.line;
        }
        if (tokenize(&p, line, &more)) { fail = 1; break; }
        line = nl ? nl + 1 : NULL;
        if (more && line) continue; /* the statement goes on at the next line */
        int last = p.line;
        p.line = first; /* messages name the line the statement starts on */
        CTX(&p, MT_ENT_SOLVER, 0, NULL);
        if (p.ntok) {
            if (!strcmp(p.tok[0], "end")) {
                if (block == -1) fail = perr(&p, "", MT_("'end' without an open ground, body or table block")) || 1;
                else if (block == -3) fail = table_end(&p, m) != 0;
                block = -1;
            } else if (block == -3) fail = table_line(&p);
            else if (block == -2) {
                if (!strcmp(p.tok[0], "shape")) fail = shape_line(&p, m, MT_GROUND) != 0;
                else if (strcmp(p.tok[0], "marker")) fail = perr(&p, "ground", MT_("ground: only markers and shapes go in the ground block, not '%s'"), p.tok[0]) || 1;
                else fail = marker_line(&p, m, MT_GROUND) != 0;
            } else if (block >= 0) {
                if (!strcmp(p.tok[0], "body") || !strcmp(p.tok[0], "joint") || !strcmp(p.tok[0], "ground"))
                    fail = perr(&p, m->body[block].name, MT_("body '%s': missing 'end' before '%s'"), m->body[block].name, p.tok[0]) || 1;
                else fail = body_line(&p, m, block) != 0;
            } else fail = top_line(&p, m, &block) != 0;
        }
        if (!fail) p.line = last;
    }
    if (!fail && block == -3) {
        fail = 1;
        mt_error_set(err, MT_ERR_SYNTAX, p.tname, MT_("%s: table '%s' is not closed with 'end'"), p.src, p.tname);
    }
    if (!fail && block != -1) {
        fail = 1;
        mt_error_set(err, MT_ERR_SYNTAX, block >= 0 ? m->body[block].name : "ground", MT_("%s: block '%s' is not closed with 'end'"),
                     p.src, block >= 0 ? m->body[block].name : "ground");
    }
    free(buf);
    free(p.tok);
    free(p.tp);
    mt_param_index_free(&p.pix);
    for (int i = 0; !fail && i < p.npend; i++) { /* fields written as {expression} */
        const Pending *pd = &p.pend[i];
        if (mt_model_bind(m, pd->kind, pd->index, pd->field, pd->expr, err) < 0) {
            p.line = pd->line;
            fail = perr(&p, "", MT_("'%s' cannot hold an expression here"), pd->field) || 1;
        }
    }
    free(p.pend);
    if (!fail && (m->nparam || m->nbinding) && mt_model_eval_params(m, err) != MT_OK) {
        char msg[512], entity[sizeof err->entity];
        snprintf(msg, sizeof msg, "%s", err->msg);
        snprintf(entity, sizeof entity, "%s", err->entity);
        mt_error_set(err, MT_ERR_MODEL, entity, "%s: %s", p.src, msg);
        fail = 1;
    }
    if (!fail && mt_model_update_mass_props(m, err)) {
        char msg[512], entity[sizeof err->entity];
        snprintf(msg, sizeof msg, "%s", err->msg);
        snprintf(entity, sizeof entity, "%s", err->entity);
        mt_error_set(err, MT_ERR_MODEL, entity, "%s: %s", p.src, msg);
        fail = 1;
    }
    { /* mesh files are relative to the model file */
        const char *slash = strrchr(p.src, '/');
        size_t n = slash ? (size_t)(slash - p.src) : 0;
        if (n >= sizeof m->basedir && !fail) /* cut, its meshes would be looked for elsewhere */
            fail = mt_error_set(err, MT_ERR_IO, p.src, MT_("%s: the path of its directory is longer than %zu bytes"), p.src,
                                sizeof m->basedir - 1) || 1;
        else snprintf(m->basedir, sizeof m->basedir, "%.*s", (int)n, p.src);
    }
    if (fail) {
        if (err->code == MT_OK) mt_error_set(err, MT_ERR_SYNTAX, "", MT_("%s:%d: syntax error"), p.src, p.line);
        mt_model_free(m);
        return NULL;
    }
    for (int i = 0; i < m->njoint; i++)
        if (m->joint[i].type == MT_JOINT_DISTANCE && isnan(m->joint[i].param)) {
            double a[3], b[3], d[3];
            marker_world(m, m->joint[i].mi, a);
            marker_world(m, m->joint[i].mj, b);
            mt_v3_sub(d, b, a);
            m->joint[i].param = mt_v3_norm(d);
        }
    for (int i = 0; i < m->nforce; i++)
        if (m->force[i].kind == MT_FORCE_STRUT && isnan(m->force[i].p[12])) { /* extended length: as built */
            double a[3], b[3], d[3];
            marker_world(m, m->force[i].mi, a);
            marker_world(m, m->force[i].mj, b);
            mt_v3_sub(d, b, a);
            m->force[i].p[12] = mt_v3_norm(d);
        }
    for (int i = 0; i < m->nspring; i++)
        if (isnan(m->spring[i].length)) {
            double a[3], b[3], d[3];
            marker_world(m, m->spring[i].mi, a);
            marker_world(m, m->spring[i].mj, b);
            mt_v3_sub(d, b, a);
            m->spring[i].length = mt_v3_norm(d);
        }
    if (mt_model_validate(m, err) != MT_OK) {
        char msg[512], entity[sizeof err->entity];
        snprintf(msg, sizeof msg, "%s", err->msg);
        snprintf(entity, sizeof entity, "%s", err->entity); /* mt_error_set overwrites err->entity */
        mt_error_set(err, MT_ERR_MODEL, entity, "%s: %s", p.src, msg);
        mt_model_free(m);
        return NULL;
    }
    return m;
}

MtModel *mt_model_load_text(const char *path, MtError *err)
{
    FILE *f = mt_file_open_regular(path, err); /* a FIFO or device would never end */
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    size_t r;
    while (text && (r = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            if (cap > ((size_t)256 << 20)) { free(text); text = NULL; break; }
            char *t = realloc(text, cap * 2);
            if (!t) { free(text); text = NULL; break; }
            text = t;
            cap *= 2;
        }
    }
    int ioerr = ferror(f);
    fclose(f);
    if (!text || ioerr) {
        free(text);
        mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s' (unreadable or larger than 256 MiB)"), path);
        return NULL;
    }
    text[n] = 0;
    if (memchr(text, 0, n)) {
        free(text);
        mt_error_set(err, MT_ERR_SYNTAX, path, MT_("'%s' is not a Motus text model (it contains binary data)"), path);
        return NULL;
    }
    MtModel *m = mt_model_parse_text(text, path, err);
    free(text);
    return m;
}

/* "z … x …" when that reproduces R bit for bit, else the exact matrix. */
static void write_frame(FILE *f, const double *R)
{
    double zx[6] = {R[2], R[5], R[8], R[0], R[3], R[6]}, T[9];
    if (mt_orient_rot(MT_ORIENT_ZX, zx, T) == 0 && !memcmp(T, R, sizeof T)) {
        fprintf(f, "z %s %s %s x %s %s %s", MT_DOUBLE_STR(zx[0]), MT_DOUBLE_STR(zx[1]), MT_DOUBLE_STR(zx[2]), MT_DOUBLE_STR(zx[3]), MT_DOUBLE_STR(zx[4]), MT_DOUBLE_STR(zx[5]));
        return;
    }
    fprintf(f, "matrix");
    for (int k = 0; k < 9; k++) fprintf(f, " %s", MT_DOUBLE_STR(R[k]));
}

/* One numeric field: its expression in braces when it is bound, else the number. */
static void wv(FILE *f, const MtModel *m, MtEntityKind kind, int index, const char *field, double v)
{
    const MtBinding *b = mt_model_binding(m, kind, index, field);
    if (b) fprintf(f, " {%s}", b->expr);
    else fprintf(f, " %s", MT_DOUBLE_STR(v));
}

/* n components field.0 … field.(n−1). */
static void wvs(FILE *f, const MtModel *m, MtEntityKind kind, int index, const char *field, const double *v, int n)
{
    char name[32];
    for (int k = 0; k < n; k++) {
        snprintf(name, sizeof name, "%s.%d", field, k);
        wv(f, m, kind, index, name, v[k]);
    }
}

/* Whether row f of an entity holds its default and no expression (an
 * optional setting the writer leaves out then). */
static int at_default(const MtModel *m, MtEntityKind kind, int index, const void *obj, const MtField *f)
{
    const void *at = MT_SCHEMA_AT(obj, f);
    switch (f->type) {
    case MT_ST_TEXT: return ((const char *)at)[0] == 0;
    case MT_ST_REAL: return *(const double *)at == f->def && !mt_model_binding(m, kind, index, f->key);
    case MT_ST_VEC: return 0;
    default: return *(const int *)at == (int)f->def;
    }
}

/* The settings of entity (kind, index) whose struct is obj, each as
 * "SEP KEY VALUE" (sep " " on one line, "\n  " in a block); rows the entity
 * writes itself, optional ones at their default and those with a flag in
 * skip (what a body's density or FE model gives, what a point mass lacks)
 * are left out. */
static void write_settings(FILE *out, const MtModel *m, MtEntityKind kind, int index, const void *obj, const char *sep,
                           unsigned skip)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    for (int r = 0; r < n; r++) {
        const MtField *f = &rows[r];
        const void *at = MT_SCHEMA_AT(obj, f);
        if (f->flags & (MT_SF_OWN | skip)) continue;
        if ((f->flags & MT_SF_OPT) && at_default(m, kind, index, obj, f)) continue;
        switch (f->type) {
        case MT_ST_FLAG:
            if (*(const int *)at) fprintf(out, "%s%s", sep, f->key);
            break;
        case MT_ST_ENUM: fprintf(out, "%s%s %s", sep, f->key, mt_schema_enum_name(f, *(const int *)at)); break;
        case MT_ST_INT: fprintf(out, "%s%s %d", sep, f->key, *(const int *)at); break;
        case MT_ST_TEXT: fprintf(out, "%s%s {%s}", sep, f->key, (const char *)at); break;
        case MT_ST_VEC:
            fprintf(out, "%s%s", sep, f->key);
            wvs(out, m, kind, index, f->key, at, f->n);
            break;
        default:
            fprintf(out, "%s%s", sep, f->key);
            wv(out, m, kind, index, f->key, *(const double *)at);
        }
    }
}

/* An orientation: as typed when it holds expressions, else the frame. */
static void write_orient(FILE *f, const MtModel *m, MtEntityKind kind, int index, const MtOrient *o, const double *R)
{
    if (o->form == MT_ORIENT_NONE) {
        write_frame(f, R);
        return;
    }
    fprintf(f, "%s", mt_orient_form_name(o->form));
    for (int k = 0; k < mt_orient_nwords(o->form); k++) {
        char name[24];
        if (k == 3 && o->form == MT_ORIENT_ZX) fprintf(f, " x");
        snprintf(name, sizeof name, "orient.%d", k);
        wv(f, m, kind, index, name, o->w[k]);
    }
}

static void write_shapes(FILE *f, const MtModel *m, int body)
{
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *sh = &m->shape[i];
        if (sh->body != body) continue;
        fprintf(f, "  shape %s", mt_shape_kind_name(sh->kind));
        if (sh->kind == MT_SHAPE_MESH) {
            fprintf(f, " \"%s\" scale", sh->mesh);
            wv(f, m, MT_ENT_SHAPE, i, "size.0", sh->size[0]);
        } else {
            wvs(f, m, MT_ENT_SHAPE, i, "size", sh->size, mt_shape_nsize(sh->kind));
        }
        fprintf(f, sh->kind == MT_SHAPE_BAR ? " from" : " at");
        wvs(f, m, MT_ENT_SHAPE, i, "pos", sh->pos, 3);
        if (sh->kind == MT_SHAPE_BAR) {
            fprintf(f, " to");
            wvs(f, m, MT_ENT_SHAPE, i, "end", sh->end, 3);
        }
        if (sh->kind != MT_SHAPE_BAR || sh->ori.form != MT_ORIENT_NONE) { /* a bar's frame is its ends, unless typed */
            fputc(' ', f);
            write_orient(f, m, MT_ENT_SHAPE, i, &sh->ori, sh->rot);
        }
        if (sh->color[0] || sh->color[1] || sh->color[2])
            fprintf(f, " color %.9g %.9g %.9g", (double)sh->color[0], (double)sh->color[1], (double)sh->color[2]);
        fputc('\n', f);
    }
}

static void write_markers(FILE *f, const MtModel *m, int body)
{
    for (int i = 0; i < m->nmarker; i++) {
        const MtMarkerSpec *k = &m->marker[i];
        if (k->body != body) continue;
        fprintf(f, "  marker %s at", k->name);
        wvs(f, m, MT_ENT_MARKER, i, "at", k->pos, 3);
        write_settings(f, m, MT_ENT_MARKER, i, k, " ", 0);
        fputc(' ', f);
        write_orient(f, m, MT_ENT_MARKER, i, &k->ori, k->rot);
        fputc('\n', f);
    }
}

/* The canonical text of the header: title, units, tables, parameters, gravity and the solver. */
static void write_head(FILE *f, const MtModel *m)
{
    fprintf(f, "motus-model 1\n");
    if (m->title[0]) { /* quotes and line breaks cannot be written inside a title */
        fputs("title \"", f);
        for (const char *c = m->title; *c; c++) fputc((*c == '"' || *c == '\n' || *c == '\r') ? '\'' : *c, f);
        fputs("\"\n", f);
    }
    for (int i = 0; i < m->nunit; i++) fprintf(f, "units %s %s\n", m->unit[i].quantity, m->unit[i].unit);
    for (int i = 0; i < m->ntable; i++) {
        const MtTableSpec *t = &m->table[i];
        fprintf(f, "table %s\n", t->name);
        for (int k = 0; k < t->n; k++) fprintf(f, "  %s %s\n", MT_DOUBLE_STR(t->x[k]), MT_DOUBLE_STR(t->y[k]));
        fprintf(f, "end\n");
    }
    for (int i = 0; i < m->nparam; i++) {
        const MtParamSpec *pp = &m->param[i];
        double v;
        if (mt_expr_is_number(pp->expr, &v) && strchr(pp->expr, ' ') == NULL) fprintf(f, "parameter %s %s", pp->name, pp->expr);
        else fprintf(f, "parameter %s {%s}", pp->name, pp->expr);
        if (pp->unit[0]) fprintf(f, " %s", pp->unit);
        fputc('\n', f);
    }
    fprintf(f, "gravity");
    wvs(f, m, MT_ENT_GRAVITY, 0, "gravity", m->gravity, 3);
    fprintf(f, "\nsolver");
    write_settings(f, m, MT_ENT_SOLVER, 0, &m->solver, " ", 0);
    fprintf(f, "\n");
}

/* The canonical text of the ground and the bodies with their shapes and markers. */
static void write_bodies(FILE *f, const MtModel *m)
{
    fprintf(f, "\nground\n");
    write_shapes(f, m, MT_GROUND);
    write_markers(f, m, MT_GROUND);
    fprintf(f, "end\n");
    for (int i = 0; i < m->nbody; i++) {
        const MtBodySpec *bd = &m->body[i];
        fprintf(f, "\nbody %s", bd->name);
        int fx = mt_model_body_flex(m, i);
        if (fx >= 0) { /* mass properties come from the FE model */
            const MtFlexSpec *fl = &m->flex[fx];
            if (fl->source == MT_FLEX_BEAM) fprintf(f, "\n  flexible beam");
            else fprintf(f, "\n  flexible mesh \"%s\"", fl->file);
            write_settings(f, m, MT_ENT_FLEX, i, fl, " ", 0);
            if (fl->source == MT_FLEX_BEAM) {
                fprintf(f, " section %s", section_names[fl->section % 3]);
                wvs(f, m, MT_ENT_FLEX, i, "sec", fl->sec, fl->section == MT_SECTION_CIRCLE ? 1 : 2);
            }
            if (fl->alpha > 0 || fl->beta > 0 || mt_model_binding(m, MT_ENT_FLEX, i, "alpha") ||
                mt_model_binding(m, MT_ENT_FLEX, i, "beta")) {
                fprintf(f, " rayleigh");
                wv(f, m, MT_ENT_FLEX, i, "alpha", fl->alpha);
                wv(f, m, MT_ENT_FLEX, i, "beta", fl->beta);
            }
        }
        /* mass, com and inertia are written when typed, not when density or the FE model gives them */
        write_settings(f, m, MT_ENT_BODY, i, bd, "\n  ",
                       (fx >= 0 || bd->density > 0 ? MT_SF_DERIVED : 0) | (bd->point_mass ? MT_SF_ROT : 0));
        fprintf(f, "\n  orientation ");
        write_orient(f, m, MT_ENT_BODY, i, &bd->ori, bd->rot);
        fputc('\n', f);
        write_shapes(f, m, i);
        write_markers(f, m, i);
        fprintf(f, "end\n");
    }
}

/* The canonical text of joints, drivers, couplings and initial conditions. */
static void write_joints(FILE *f, const MtModel *m)
{
    char a[2 * MT_NAME_MAX + 2], b[2 * MT_NAME_MAX + 2];
    if (m->njoint) fputc('\n', f);
    for (int i = 0; i < m->njoint; i++) {
        const MtJointSpec *j = &m->joint[i];
        fprintf(f, "joint %s %s %s %s", j->name, mt_joint_type_name(j->type), mt_model_marker_ref(m, j->mi, a, sizeof a),
                mt_model_marker_ref(m, j->mj, b, sizeof b));
        const char *kw = j->type == MT_JOINT_SCREW ? "pitch" : j->type == MT_JOINT_DISTANCE ? "length"
                       : (j->type == MT_JOINT_ROLLING || j->type == MT_JOINT_BALL) ? "radius" : NULL;
        if (kw) {
            fprintf(f, " %s", kw);
            wv(f, m, MT_ENT_JOINT, i, "param", j->param);
        }
        fputc('\n', f);
    }
    const char *const *levels = mt_level_names;
    for (int i = 0; i < m->ndriver; i++) {
        const MtDriverSpec *d = &m->driver[i];
        if (d->joint >= 0) fprintf(f, "driver %s %s.%s", d->name, m->joint[d->joint].name, mt_coord_name(d->coord));
        else
            fprintf(f, "driver %s markers %s %s %s", d->name, mt_model_marker_ref(m, d->mi, a, sizeof a),
                    mt_model_marker_ref(m, d->mj, b, sizeof b), mt_comp_name(d->comp));
        fprintf(f, " %s", levels[d->level]);
        switch (d->kind) {
        case MT_DRIVER_RATE:
            fprintf(f, " rate");
            wv(f, m, MT_ENT_DRIVER, i, "coef.1", d->coef[1]);
            fprintf(f, " start");
            wv(f, m, MT_ENT_DRIVER, i, "coef.0", d->coef[0]);
            break;
        case MT_DRIVER_HARMONIC:
            fprintf(f, " harmonic");
            wvs(f, m, MT_ENT_DRIVER, i, "coef", d->coef, 2);
            fprintf(f, " phase");
            wv(f, m, MT_ENT_DRIVER, i, "coef.2", d->coef[2]);
            fprintf(f, " offset");
            wv(f, m, MT_ENT_DRIVER, i, "coef.3", d->coef[3]);
            break;
        case MT_DRIVER_STEP:
            fprintf(f, " step");
            wvs(f, m, MT_ENT_DRIVER, i, "coef", d->coef, 4);
            break;
        case MT_DRIVER_TABLE:
            fprintf(f, " table");
            for (int k = 0; k < 2 * d->ntab; k++) fprintf(f, " %s", MT_DOUBLE_STR(d->tab[k]));
            break;
        case MT_DRIVER_EXPR: fprintf(f, " expr {%s}", d->expr); break;
        default:
            fprintf(f, " poly");
            wvs(f, m, MT_ENT_DRIVER, i, "coef", d->coef, d->ncoef);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < m->ncouple; i++) {
        const MtCoupleSpec *c = &m->couple[i];
        if (c->kind == MT_COUPLE_GEAR) {
            fprintf(f, "gear %s %s %s radius", c->name, m->joint[c->joint[0]].name, m->joint[c->joint[1]].name);
            wv(f, m, MT_ENT_COUPLE, i, "coef.0", c->coef[0]);
            const MtBinding *bb = mt_model_binding(m, MT_ENT_COUPLE, i, "coef.1");
            size_t len = bb ? strlen(bb->expr) : 0;
            if (bb && c->coef[1] < 0 && len > 3 && !strncmp(bb->expr, "-(", 2) && bb->expr[len - 1] == ')')
                fprintf(f, " {%.*s}", (int)(len - 3), bb->expr + 2); /* internal: the sign lives in the keyword */
            else wv(f, m, MT_ENT_COUPLE, i, "coef.1", fabs(c->coef[1]));
            fprintf(f, "%s\n", c->coef[1] < 0 ? " internal" : "");
        } else if (c->kind == MT_COUPLE_RACK) {
            fprintf(f, "rack %s %s %s radius", c->name, m->joint[c->joint[0]].name, m->joint[c->joint[1]].name);
            wv(f, m, MT_ENT_COUPLE, i, "coef.0", c->coef[0]);
            fputc('\n', f);
        } else {
            fprintf(f, "coupler %s", c->name);
            for (int k = 0; k < c->n; k++) {
                char fld[16];
                snprintf(fld, sizeof fld, "coef.%d", k);
                fprintf(f, " %s.%s", m->joint[c->joint[k]].name, mt_coord_name(c->coord[k]));
                wv(f, m, MT_ENT_COUPLE, i, fld, c->coef[k]);
            }
            fputc('\n', f);
        }
    }
    for (int i = 0; i < m->ninitial; i++) {
        const MtInitialSpec *in = &m->initial[i];
        if (in->mode) fprintf(f, "initial %s.w%d", m->body[in->body].name, in->mode);
        else fprintf(f, "initial %s.%s", m->joint[in->joint].name, mt_coord_name(in->coord));
        if (in->has_value) wv(f, m, MT_ENT_INITIAL, i, "value", in->value);
        if (in->has_rate) {
            fprintf(f, " rate");
            wv(f, m, MT_ENT_INITIAL, i, "rate", in->rate);
        }
        fputc('\n', f);
    }
}

/* The canonical text of springs and force elements. */
static void write_forces(FILE *f, const MtModel *m)
{
    char a[2 * MT_NAME_MAX + 2], b[2 * MT_NAME_MAX + 2];
    for (int i = 0; i < m->nspring; i++) {
        const MtSpringSpec *sp = &m->spring[i];
        fprintf(f, "spring %s %s %s", sp->name, mt_model_marker_ref(m, sp->mi, a, sizeof a), mt_model_marker_ref(m, sp->mj, b, sizeof b));
        write_settings(f, m, MT_ENT_SPRING, i, sp, " ", 0);
        fputc('\n', f);
    }
    for (int i = 0; i < m->nforce; i++) {
        const MtForceSpec *fs = &m->force[i];
        fprintf(f, "force %s %s", fs->name, mt_force_kind_name(fs->kind));
        if (fs->joint >= 0) fprintf(f, " %s", m->joint[fs->joint].name);
        else {
            fprintf(f, " %s", mt_model_marker_ref(m, fs->mi, a, sizeof a));
            if (fs->mj >= 0) fprintf(f, " %s", mt_model_marker_ref(m, fs->mj, b, sizeof b));
        }
        if (fs->kind == MT_FORCE_CONTACT) fprintf(f, " %s", mt_contact_geom_name((MtContactGeom)fs->geom));
        const char *const *pn = mt_force_param_names(fs->kind);
        for (int q = 0; pn[q]; q++) {
            if (isnan(fs->p[q])) continue; /* left to its default */
            if (fs->kind == MT_FORCE_WHEELRAIL && !strcmp(pn[q], "psd")) {
                fprintf(f, " psd %s", mt_wheelrail_psd_name((int)fs->p[q]));
                continue;
            }
            fprintf(f, " %s", pn[q]);
            wv(f, m, MT_ENT_FORCE, i, pn[q], fs->p[q]);
        }
        const char *const *comp = mt_load_comp_names; /* fx … tz */
        for (int c = 0; c < 6; c++)
            if (fs->expr[c][0] && fs->kind == MT_FORCE_WHEELRAIL && c < 4) fprintf(f, " %s %s", mt_wheelrail_table_keys[c], fs->expr[c]);
            else if (fs->expr[c][0]) fprintf(f, " %s {%s}", comp[c], fs->expr[c]);
        fputc('\n', f);
    }
}

/* The canonical text of sensors. */
static void write_sensors(FILE *f, const MtModel *m)
{
    char a[2 * MT_NAME_MAX + 2], b[2 * MT_NAME_MAX + 2];
    const char *const *comps = mt_vector_comp_names, *const *rcomps = mt_load_comp_names;
    const char *const *parts = mt_part_names, *const *energies = mt_energy_names;
    for (int i = 0; i < m->nsensor; i++) {
        const MtSensorSpec *ss = &m->sensor[i];
        fprintf(f, "sensor %s %s", ss->name, mt_sensor_kind_name(ss->kind));
        switch (ss->kind) {
        case MT_SENSOR_EXPR: fprintf(f, " {%s}", ss->expr); break;
        case MT_SENSOR_REACTION:
            fprintf(f, " %s part %s component %s", m->joint[ss->joint].name, parts[ss->part], rcomps[ss->comp]);
            break;
        case MT_SENSOR_ENERGY: fprintf(f, " %s %s", ss->body < 0 ? "system" : m->body[ss->body].name, energies[ss->energy]); break;
        case MT_SENSOR_JOINT:
            fprintf(f, " %s.%s component %s", m->joint[ss->joint].name, mt_coord_name((MtCoordKind)ss->coord), ss->comp ? "rate" : "value");
            break;
        case MT_SENSOR_FORCE:
            fprintf(f, " %s component %s", ss->force >= 0 ? m->force[ss->force].name : m->spring[ss->spring].name, rcomps[ss->comp]);
            break;
        case MT_SENSOR_DISTANCE:
            fprintf(f, " %s %s", mt_model_marker_ref(m, ss->mi, a, sizeof a), mt_model_marker_ref(m, ss->mj, b, sizeof b));
            break;
        default:
            fprintf(f, " %s", mt_model_marker_ref(m, ss->mi, a, sizeof a));
            if (ss->mj >= 0) fprintf(f, " rel %s", mt_model_marker_ref(m, ss->mj, b, sizeof b));
            fprintf(f, " component %s", comps[ss->comp]);
        }
        if (ss->mframe >= 0) fprintf(f, " frame %s", mt_model_marker_ref(m, ss->mframe, a, sizeof a));
        if (ss->unit[0]) fprintf(f, " unit %s", ss->unit);
        fputc('\n', f);
    }
}

/* The canonical text of control channels, events and plots. */
static void write_controls(FILE *f, const MtModel *m)
{
    for (int i = 0; i < m->ncontrol; i++) {
        const MtControlSpec *c = &m->control[i];
        fprintf(f, "control %s %s input {%s}", c->name, mt_control_kind_name(c->kind), c->input);
        if (c->setpoint[0]) fprintf(f, " setpoint {%s}", c->setpoint);
        const char *const *keys = mt_control_param_names(c->kind);
        int nk = 0;
        for (; keys[nk]; nk++) {
            fprintf(f, " %s", keys[nk]);
            wv(f, m, MT_ENT_CONTROL, i, keys[nk], c->p[nk]);
        }
        if (isfinite(c->p[nk]) && isfinite(c->p[nk + 1])) {
            fprintf(f, " limit");
            wvs(f, m, MT_ENT_CONTROL, i, "limit", c->p + nk, 2);
        }
        if (c->disabled) fprintf(f, " disabled");
        fputc('\n', f);
    }
    for (int i = 0; i < m->nevent; i++) {
        const MtEventSpec *ev = &m->event[i];
        if (ev->trigger == MT_EVENT_AT) {
            fprintf(f, "event %s at", ev->name);
            wv(f, m, MT_ENT_EVENT, i, "time", ev->time);
        } else {
            fprintf(f, "event %s when {%s} crosses", ev->name, ev->expr);
            wv(f, m, MT_ENT_EVENT, i, "value", ev->value);
            fprintf(f, "%s", ev->direction > 0 ? " rising" : ev->direction < 0 ? " falling" : "");
        }
        fprintf(f, " do %s", mt_event_action_name(ev->action));
        const char *tn = "";
        switch (ev->target_kind) {
        case MT_TARGET_JOINT: tn = m->joint[ev->target].name; break;
        case MT_TARGET_FORCE: tn = m->force[ev->target].name; break;
        case MT_TARGET_SPRING: tn = m->spring[ev->target].name; break;
        case MT_TARGET_DRIVER: tn = m->driver[ev->target].name; break;
        case MT_TARGET_CONTROL: tn = m->control[ev->target].name; break;
        default: break;
        }
        if (tn[0]) fprintf(f, " %s", tn);
        fputc('\n', f);
    }
    for (int i = 0; i < m->nderived; i++) { /* before the plots that show them */
        const MtDerivedSpec *d = &m->derived[i];
        fprintf(f, "derived %s %s", d->name, mt_derived_op_name(d->op));
        for (int a = 0; a < d->narg; a++) fprintf(f, " %s", d->arg[a]);
        int lo, hi;
        if (mt_derived_arity(d->op, &lo, &hi)) fprintf(f, " %s", MT_DOUBLE_STR(d->param));
        fputc('\n', f);
    }
    for (int i = 0; i < m->nplot; i++) {
        const MtPlotSpec *ps = &m->plot[i];
        if (!ps->ncurve) continue; /* an empty plot of the window: nothing to keep */
        fprintf(f, "plot");
        for (int c = 0; c < ps->ncurve; c++) fprintf(f, " %s", ps->curve[c]);
        if (ps->x[0]) fprintf(f, " against %s", ps->x);
        fputc('\n', f);
    }
    char view[1024]; /* (meters: up to 8 column names) */
    mt_view_format(&m->view, view, sizeof view);
    if (view[0]) fprintf(f, "%s\n", view);
    for (int i = 0; i < m->nparam; i++) {
        char line[MT_NAME_MAX + 2 * MT_DOUBLE_BUF + 16];
        mt_slider_format(m, i, line, sizeof line);
        if (line[0]) fprintf(f, "%s\n", line);
    }
}

MtStatus mt_model_write(const MtModel *m, FILE *f, MtError *err)
{
    write_head(f, m);
    write_bodies(f, m);
    write_joints(f, m);
    write_forces(f, m);
    write_sensors(f, m);
    write_controls(f, m);
    mt_study_write(m->study, f);
    if (ferror(f)) return mt_error_set(err, MT_ERR_IO, "", "%s", MT_("write error"));
    return MT_OK;
}
