/* mt_units.c — the unit table and typed-in values with units. Spellings
 * are compared after normalisation (separators '·' '⋅' '*' '.' and spaces
 * become '*', '²' '³' and a digit right after a letter become '^2' '^3',
 * 'µ' and 'μ' become 'u', '°' becomes "deg"), so the table lists each unit once. */
#include "mt_units.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define LBF 4.4482216152605 /* N, exactly 0.45359237 kg × 9.80665 m/s² */
#define INCH 0.0254

/* Grouped by quantity, in the order of MtDim, SI unit first. */
static const MtUnit units[] = {
    {"", NULL, MT_DIM_NONE, 1, 1},
    {"%", NULL, MT_DIM_NONE, 1, 100},

    {"m", NULL, MT_DIM_LENGTH, 1, 1},
    {"mm", NULL, MT_DIM_LENGTH, 1, 1000},
    {"cm", NULL, MT_DIM_LENGTH, 1, 100},
    {"km", NULL, MT_DIM_LENGTH, 1000, 1},
    {"µm", NULL, MT_DIM_LENGTH, 1, 1e6},
    {"in", "inch", MT_DIM_LENGTH, INCH, 1},
    {"ft", NULL, MT_DIM_LENGTH, 0.3048, 1},

    {"rad", NULL, MT_DIM_ANGLE, 1, 1},
    {"deg", NULL, MT_DIM_ANGLE, M_PI, 180},
    {"rev", "turn", MT_DIM_ANGLE, 2 * M_PI, 1},

    {"kg", NULL, MT_DIM_MASS, 1, 1},
    {"g", NULL, MT_DIM_MASS, 1, 1000},
    {"t", NULL, MT_DIM_MASS, 1000, 1},
    {"lb", NULL, MT_DIM_MASS, 0.45359237, 1},

    {"s", NULL, MT_DIM_TIME, 1, 1},
    {"ms", NULL, MT_DIM_TIME, 1, 1000},
    {"min", NULL, MT_DIM_TIME, 60, 1},
    {"h", NULL, MT_DIM_TIME, 3600, 1},

    {"N", NULL, MT_DIM_FORCE, 1, 1},
    {"kN", NULL, MT_DIM_FORCE, 1000, 1},
    {"MN", NULL, MT_DIM_FORCE, 1e6, 1},
    {"lbf", NULL, MT_DIM_FORCE, LBF, 1},
    {"kgf", NULL, MT_DIM_FORCE, 9.80665, 1},

    {"N·m", "Nm", MT_DIM_TORQUE, 1, 1},
    {"N·mm", "Nmm", MT_DIM_TORQUE, 1, 1000},
    {"kN·m", "kNm", MT_DIM_TORQUE, 1000, 1},
    {"lbf·in", NULL, MT_DIM_TORQUE, 0.1129848290276167, 1},
    {"lbf·ft", NULL, MT_DIM_TORQUE, 1.3558179483314004, 1},

    {"m/s", NULL, MT_DIM_VELOCITY, 1, 1},
    {"mm/s", NULL, MT_DIM_VELOCITY, 1, 1000},
    {"km/h", "kph", MT_DIM_VELOCITY, 1000, 3600},
    {"ft/s", NULL, MT_DIM_VELOCITY, 0.3048, 1},
    {"mph", NULL, MT_DIM_VELOCITY, 1609.344, 3600},

    {"rad/s", NULL, MT_DIM_ANGVEL, 1, 1},
    {"deg/s", NULL, MT_DIM_ANGVEL, M_PI, 180},
    {"rpm", "r/min|rev/min", MT_DIM_ANGVEL, 2 * M_PI, 60},
    {"rev/s", "r/s", MT_DIM_ANGVEL, 2 * M_PI, 1},

    {"m/s²", NULL, MT_DIM_ACCEL, 1, 1},
    {"mm/s²", NULL, MT_DIM_ACCEL, 1, 1000},
    {"g", "gn|g0", MT_DIM_ACCEL, 9.80665, 1},
    {"ft/s²", NULL, MT_DIM_ACCEL, 0.3048, 1},

    {"rad/s²", NULL, MT_DIM_ANGACC, 1, 1},
    {"deg/s²", NULL, MT_DIM_ANGACC, M_PI, 180},
    {"rpm/s", NULL, MT_DIM_ANGACC, 2 * M_PI, 60},

    {"Pa", "N/m²", MT_DIM_PRESSURE, 1, 1},
    {"kPa", NULL, MT_DIM_PRESSURE, 1000, 1},
    {"MPa", "N/mm²", MT_DIM_PRESSURE, 1e6, 1},
    {"GPa", NULL, MT_DIM_PRESSURE, 1e9, 1},
    {"bar", NULL, MT_DIM_PRESSURE, 1e5, 1},
    {"psi", "lbf/in²", MT_DIM_PRESSURE, LBF, INCH * INCH},

    {"N/m", NULL, MT_DIM_STIFFNESS, 1, 1},
    {"N/mm", NULL, MT_DIM_STIFFNESS, 1000, 1},
    {"kN/m", NULL, MT_DIM_STIFFNESS, 1000, 1},
    {"kN/mm", NULL, MT_DIM_STIFFNESS, 1e6, 1},
    {"lbf/in", NULL, MT_DIM_STIFFNESS, LBF, INCH},

    {"N·s/m", "Ns/m", MT_DIM_DAMPING, 1, 1},
    {"N·s/mm", "Ns/mm", MT_DIM_DAMPING, 1000, 1},
    {"kN·s/m", "kNs/m", MT_DIM_DAMPING, 1000, 1},
    {"lbf·s/in", NULL, MT_DIM_DAMPING, LBF, INCH},

    {"N·m/rad", "Nm/rad", MT_DIM_ROTSTIFF, 1, 1},
    {"N·m/deg", "Nm/deg", MT_DIM_ROTSTIFF, 180, M_PI},
    {"N·mm/rad", "Nmm/rad", MT_DIM_ROTSTIFF, 1, 1000},
    {"N·mm/deg", "Nmm/deg", MT_DIM_ROTSTIFF, 0.18, M_PI},

    {"N·m·s/rad", "Nms/rad", MT_DIM_ROTDAMP, 1, 1},
    {"N·m·s/deg", "Nms/deg", MT_DIM_ROTDAMP, 180, M_PI},
    {"N·mm·s/rad", "Nmms/rad", MT_DIM_ROTDAMP, 1, 1000},

    {"kg·m²", NULL, MT_DIM_INERTIA, 1, 1},
    {"kg·mm²", NULL, MT_DIM_INERTIA, 1, 1e6},
    {"kg·cm²", NULL, MT_DIM_INERTIA, 1, 1e4},
    {"g·cm²", NULL, MT_DIM_INERTIA, 1, 1e7},
    {"g·mm²", NULL, MT_DIM_INERTIA, 1, 1e9},
    {"lb·in²", NULL, MT_DIM_INERTIA, 0.0002926396534292, 1},

    {"kg/m³", NULL, MT_DIM_DENSITY, 1, 1},
    {"g/cm³", "kg/dm³|t/m³", MT_DIM_DENSITY, 1000, 1},
    {"kg/mm³", NULL, MT_DIM_DENSITY, 1e9, 1},
    {"lb/in³", NULL, MT_DIM_DENSITY, 0.45359237, INCH * INCH * INCH},

    {"J", "N·m", MT_DIM_ENERGY, 1, 1},
    {"kJ", NULL, MT_DIM_ENERGY, 1000, 1},
    {"mJ", "N·mm", MT_DIM_ENERGY, 1, 1000},

    {"W", NULL, MT_DIM_POWER, 1, 1},
    {"kW", NULL, MT_DIM_POWER, 1000, 1},
    {"hp", NULL, MT_DIM_POWER, 745.69987158227022, 1},

    {"Hz", "1/s", MT_DIM_FREQUENCY, 1, 1},
    {"kHz", NULL, MT_DIM_FREQUENCY, 1000, 1},
    {"1/min", NULL, MT_DIM_FREQUENCY, 1, 60},
};
#define NUNITS ((int)(sizeof units / sizeof units[0]))

static const struct {
    const char *name;
    signed char exp[4]; /* m, kg, s, rad */
} dims[MT_DIM_COUNT] = {
    [MT_DIM_NONE] = {"dimensionless", {0, 0, 0, 0}},
    [MT_DIM_LENGTH] = {"length", {1, 0, 0, 0}},
    [MT_DIM_ANGLE] = {"angle", {0, 0, 0, 1}},
    [MT_DIM_MASS] = {"mass", {0, 1, 0, 0}},
    [MT_DIM_TIME] = {"time", {0, 0, 1, 0}},
    [MT_DIM_FORCE] = {"force", {1, 1, -2, 0}},
    [MT_DIM_TORQUE] = {"torque", {2, 1, -2, 0}},
    [MT_DIM_VELOCITY] = {"velocity", {1, 0, -1, 0}},
    [MT_DIM_ANGVEL] = {"angular velocity", {0, 0, -1, 1}},
    [MT_DIM_ACCEL] = {"acceleration", {1, 0, -2, 0}},
    [MT_DIM_ANGACC] = {"angular acceleration", {0, 0, -2, 1}},
    [MT_DIM_PRESSURE] = {"pressure", {-1, 1, -2, 0}},
    [MT_DIM_STIFFNESS] = {"stiffness", {0, 1, -2, 0}},
    [MT_DIM_DAMPING] = {"damping", {0, 1, -1, 0}},
    [MT_DIM_ROTSTIFF] = {"rotational stiffness", {2, 1, -2, -1}},
    [MT_DIM_ROTDAMP] = {"rotational damping", {2, 1, -1, -1}},
    [MT_DIM_INERTIA] = {"moment of inertia", {2, 1, 0, 0}},
    [MT_DIM_DENSITY] = {"density", {-3, 1, 0, 0}},
    [MT_DIM_ENERGY] = {"energy", {2, 1, -2, 0}},
    [MT_DIM_POWER] = {"power", {2, 1, -3, 0}},
    [MT_DIM_FREQUENCY] = {"frequency", {0, 0, -1, 0}},
};

static int valid(MtDim d) { return (int)d >= 0 && d < MT_DIM_COUNT; }

const char *mt_dim_name(MtDim d) { return valid(d) ? dims[d].name : NULL; }

MtDim mt_dim_from_name(const char *s)
{
    for (int d = 0; s && d < MT_DIM_COUNT; d++)
        if (!strcmp(dims[d].name, s)) return (MtDim)d;
    return MT_DIM_ANY;
}

void mt_dim_exponents(MtDim d, int exp[4])
{
    for (int i = 0; i < 4; i++) exp[i] = valid(d) ? dims[d].exp[i] : 0;
}

int mt_units_of(MtDim d, const MtUnit **list)
{
    int first = -1, n = 0;
    for (int i = 0; valid(d) && i < NUNITS; i++)
        if (units[i].dim == d) {
            if (first < 0) first = i;
            n++;
        }
    if (list) *list = first >= 0 ? &units[first] : NULL;
    return n;
}

const MtUnit *mt_unit_si(MtDim d)
{
    const MtUnit *u;
    return mt_units_of(d, &u) ? u : NULL;
}

/* Normalised spelling of s[0..n) into out (see the top of the file);
 * 0 if it does not fit. */
static int norm(const char *s, size_t n, char *out, size_t size)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
#define PUT(ch)                          \
    do {                                 \
        if (o + 1 >= size) return 0;     \
        out[o++] = (char)(ch);           \
    } while (0)
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        const char *rep = NULL;
        size_t len = 1;
        if (c == ' ' || c == '\t' || c == '*' || c == '.') rep = "*";
        else if (c == 0xC2 && i + 1 < n && p[i + 1] == 0xB7) rep = "*", len = 2;                        /* · */
        else if (c == 0xE2 && i + 2 < n && p[i + 1] == 0x8B && p[i + 2] == 0x85) rep = "*", len = 3;   /* ⋅ */
        else if (c == 0xC2 && i + 1 < n && p[i + 1] == 0xB2) rep = "^2", len = 2;                       /* ² */
        else if (c == 0xC2 && i + 1 < n && p[i + 1] == 0xB3) rep = "^3", len = 2;                       /* ³ */
        else if (c == 0xC2 && i + 1 < n && p[i + 1] == 0xB5) rep = "u", len = 2;                        /* µ */
        else if (c == 0xCE && i + 1 < n && p[i + 1] == 0xBC) rep = "u", len = 2;                        /* μ */
        else if (c == 0xC2 && i + 1 < n && p[i + 1] == 0xB0) rep = "deg", len = 2;                      /* ° */
        else if (c == 0xE2 && i + 2 < n && p[i + 1] == 0x88 && p[i + 2] == 0x92) rep = "-", len = 3;   /* − */
        if (rep && rep[0] == '*') {
            /* one separator, none at the ends or next to '/' and '^' */
            if (o > 0 && out[o - 1] != '*' && out[o - 1] != '/' && out[o - 1] != '^') PUT('*');
        } else if (rep) {
            if (rep[0] == '^' && o > 0 && out[o - 1] == '*') o--;
            for (const char *r = rep; *r; r++) PUT(*r);
        } else {
            if ((c == '/' || c == '^') && o > 0 && out[o - 1] == '*') o--;
            /* m2 → m^2 */
            if ((c == '2' || c == '3') && o > 0 &&
                ((out[o - 1] >= 'a' && out[o - 1] <= 'z') || (out[o - 1] >= 'A' && out[o - 1] <= 'Z')))
                PUT('^');
            PUT(c);
        }
        i += len;
    }
    while (o > 0 && out[o - 1] == '*') o--;
    out[o] = 0;
#undef PUT
    return 1;
}

/* 1 if unit u is called (normalised) name. */
static int called(const MtUnit *u, const char *name)
{
    char buf[64];
    if (norm(u->name, strlen(u->name), buf, sizeof buf) && !strcmp(buf, name)) return 1;
    for (const char *a = u->aliases; a && *a;) {
        const char *bar = strchr(a, '|');
        size_t n = bar ? (size_t)(bar - a) : strlen(a);
        if (norm(a, n, buf, sizeof buf) && !strcmp(buf, name)) return 1;
        a += n + (bar ? 1 : 0);
    }
    return 0;
}

const MtUnit *mt_unit_lookup(const char *name, MtDim want)
{
    char key[64];
    if (!name || !norm(name, strlen(name), key, sizeof key)) return NULL;
    if (want != MT_DIM_ANY && !valid(want)) return NULL;
    for (int i = 0; i < NUNITS; i++)
        if ((want == MT_DIM_ANY || units[i].dim == want) && called(&units[i], key)) return &units[i];
    return NULL;
}

int mt_unit_find(const char *name, double *factor, MtDim *dim)
{
    const MtUnit *u = mt_unit_lookup(name, MT_DIM_ANY);
    if (!u) return 0;
    if (factor) *factor = u->num / u->den;
    if (dim) *dim = u->dim;
    return 1;
}

double mt_unit_to_si(const MtUnit *u, double value) { return u ? value * u->num / u->den : value; }
double mt_unit_from_si(const MtUnit *u, double si) { return u ? si * u->den / u->num : si; }

/* "N, kN, MN, lbf, kgf" */
static void list_units(MtDim d, char *buf, size_t size)
{
    const MtUnit *l;
    int n = mt_units_of(d, &l);
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && o < size; i++) {
        if (!l[i].name[0]) continue;
        int w = snprintf(buf + o, size - o, "%s%s", o ? ", " : "", l[i].name);
        if (w < 0) break;
        o += (size_t)w;
    }
}

MtStatus mt_units_parse(const char *text, MtDim want, const char *bare_unit, double *si, MtError *err)
{
    if (!text) return mt_error_set(err, MT_ERR_ARG, "", "no value");
    if (want != MT_DIM_ANY && !valid(want)) return mt_error_set(err, MT_ERR_ARG, "", "invalid quantity %d", (int)want);
    const char *s = text;
    while (*s == ' ' || *s == '\t') s++;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    else if (!strncmp(s, "\xe2\x88\x92", 3)) neg = 1, s += 3;
    double v;
    size_t n = mt_expr_scan_number(s, &v);
    if (!n) return mt_error_set(err, MT_ERR_SYNTAX, "", "'%.60s' is not a number", text);
    if (neg) v = -v;
    s += n;
    while (*s == ' ' || *s == '\t') s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\r')) len--;
    char name[64];
    const char *uname = bare_unit;
    if (len) {
        if (len >= sizeof name) return mt_error_set(err, MT_ERR_SYNTAX, "", "unknown unit '%.60s'", s);
        memcpy(name, s, len);
        name[len] = 0;
        uname = name;
    }
    const MtUnit *u = NULL;
    if (uname) {
        u = mt_unit_lookup(uname, want);
        if (!u) {
            char list[256];
            const MtUnit *other = mt_unit_lookup(uname, MT_DIM_ANY);
            if (want == MT_DIM_ANY) return mt_error_set(err, MT_ERR_SYNTAX, "", "unknown unit '%s'", uname);
            list_units(want, list, sizeof list);
            if (other)
                return mt_error_set(err, MT_ERR_SYNTAX, "", "'%s' is a unit of %s, expected a unit of %s (%s)", uname,
                                    dims[other->dim].name, dims[want].name, list[0] ? list : "none");
            return mt_error_set(err, MT_ERR_SYNTAX, "", "unknown unit '%s'; units of %s: %s", uname, dims[want].name,
                                list[0] ? list : "none");
        }
    }
    v = mt_unit_to_si(u, v);
    if (!isfinite(v)) return mt_error_set(err, MT_ERR_SYNTAX, "", "'%.60s' is not a finite number", text);
    if (si) *si = v;
    return MT_OK;
}

int mt_units_format(double si, const MtUnit *u, int digits, char *buf, size_t size)
{
    double v = mt_unit_from_si(u, si);
    char num[64];
    if (digits > 17) digits = 17;
    for (int prec = digits > 0 ? digits : 15; prec <= 17; prec++) {
        snprintf(num, sizeof num, "%.*g", prec, v);
        /* always a '.', whatever the C locale says */
        const char *dp = localeconv()->decimal_point;
        char *at = dp && *dp && strcmp(dp, ".") ? strstr(num, dp) : NULL;
        if (at) {
            size_t ndp = strlen(dp);
            *at = '.';
            memmove(at + 1, at + ndp, strlen(at + ndp) + 1);
        }
        double back;
        const char *p = num + (num[0] == '-');
        if (digits > 0 || !isfinite(v) || (mt_expr_scan_number(p, &back) && (num[0] == '-' ? -back : back) == v)) break;
    }
    const char *un = u && u->name[0] ? u->name : NULL;
    return snprintf(buf, size, "%s%s%s", num, un ? " " : "", un ? un : "");
}
