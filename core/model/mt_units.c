/* mt_units.c — the unit table and typed-in values with units. Spellings
 * are compared after normalisation (separators '·' '⋅' '*' '.' and spaces
 * become '*', '²' '³' and a digit right after a letter become '^2' '^3',
 * 'µ' and 'μ' become 'u', '°' becomes "deg"), so the table lists each unit once. Declared in motus/units.h. */
#include "motus/units.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define LBF 4.4482216152605 /* N, exactly 0.45359237 kg × 9.80665 m/s² */
#define INCH 0.0254

/* Grouped by quantity, in the order of MtDim, SI unit first. */
static const MtUnit units[] = {
    {"", NULL, MT_DIM_NONE, 1, 1},
    {"%", NULL, MT_DIM_NONE, 1, 100},

    {MT_NC_("unit of length", "m"), NULL, MT_DIM_LENGTH, 1, 1},
    {MT_NC_("unit of length", "mm"), NULL, MT_DIM_LENGTH, 1, 1000},
    {MT_NC_("unit of length", "cm"), NULL, MT_DIM_LENGTH, 1, 100},
    {MT_NC_("unit of length", "km"), NULL, MT_DIM_LENGTH, 1000, 1},
    {MT_NC_("unit of length", "µm"), NULL, MT_DIM_LENGTH, 1, 1e6},
    {MT_NC_("unit of length", "nm"), NULL, MT_DIM_LENGTH, 1, 1e9},
    {MT_NC_("unit of length", "in"), "inch", MT_DIM_LENGTH, INCH, 1},
    {MT_NC_("unit of length", "ft"), NULL, MT_DIM_LENGTH, 0.3048, 1},

    {MT_NC_("unit of angle", "rad"), NULL, MT_DIM_ANGLE, 1, 1},
    {MT_NC_("unit of angle", "deg"), NULL, MT_DIM_ANGLE, M_PI, 180},
    {MT_NC_("unit of angle", "rev"), "turn", MT_DIM_ANGLE, 2 * M_PI, 1},

    {MT_NC_("unit of mass", "kg"), NULL, MT_DIM_MASS, 1, 1},
    {MT_NC_("unit of mass", "g"), NULL, MT_DIM_MASS, 1, 1000},
    {MT_NC_("unit of mass", "t"), NULL, MT_DIM_MASS, 1000, 1},
    {MT_NC_("unit of mass", "lb"), NULL, MT_DIM_MASS, 0.45359237, 1},

    {MT_NC_("unit of time", "s"), NULL, MT_DIM_TIME, 1, 1},
    {MT_NC_("unit of time", "ms"), NULL, MT_DIM_TIME, 1, 1000},
    {MT_NC_("unit of time", "min"), NULL, MT_DIM_TIME, 60, 1},
    {MT_NC_("unit of time", "h"), NULL, MT_DIM_TIME, 3600, 1},

    {MT_NC_("unit of force", "N"), NULL, MT_DIM_FORCE, 1, 1},
    {MT_NC_("unit of force", "kN"), NULL, MT_DIM_FORCE, 1000, 1},
    {MT_NC_("unit of force", "MN"), NULL, MT_DIM_FORCE, 1e6, 1},
    {MT_NC_("unit of force", "lbf"), NULL, MT_DIM_FORCE, LBF, 1},
    {MT_NC_("unit of force", "kgf"), NULL, MT_DIM_FORCE, 9.80665, 1},

    {MT_NC_("unit of torque", "N·m"), "Nm", MT_DIM_TORQUE, 1, 1},
    {MT_NC_("unit of torque", "N·mm"), "Nmm", MT_DIM_TORQUE, 1, 1000},
    {MT_NC_("unit of torque", "kN·m"), "kNm", MT_DIM_TORQUE, 1000, 1},
    {MT_NC_("unit of torque", "lbf·in"), NULL, MT_DIM_TORQUE, 0.1129848290276167, 1},
    {MT_NC_("unit of torque", "lbf·ft"), NULL, MT_DIM_TORQUE, 1.3558179483314004, 1},

    {MT_NC_("unit of velocity", "m/s"), NULL, MT_DIM_VELOCITY, 1, 1},
    {MT_NC_("unit of velocity", "mm/s"), NULL, MT_DIM_VELOCITY, 1, 1000},
    {MT_NC_("unit of velocity", "km/h"), "kph", MT_DIM_VELOCITY, 1000, 3600},
    {MT_NC_("unit of velocity", "ft/s"), NULL, MT_DIM_VELOCITY, 0.3048, 1},
    {MT_NC_("unit of velocity", "mph"), NULL, MT_DIM_VELOCITY, 1609.344, 3600},

    {MT_NC_("unit of angular velocity", "rad/s"), NULL, MT_DIM_ANGVEL, 1, 1},
    {MT_NC_("unit of angular velocity", "deg/s"), NULL, MT_DIM_ANGVEL, M_PI, 180},
    {MT_NC_("unit of angular velocity", "rpm"), "r/min|rev/min", MT_DIM_ANGVEL, 2 * M_PI, 60},
    {MT_NC_("unit of angular velocity", "rev/s"), "r/s", MT_DIM_ANGVEL, 2 * M_PI, 1},

    {MT_NC_("unit of acceleration", "m/s²"), NULL, MT_DIM_ACCEL, 1, 1},
    {MT_NC_("unit of acceleration", "mm/s²"), NULL, MT_DIM_ACCEL, 1, 1000},
    {MT_NC_("unit of acceleration", "g"), "gn|g0", MT_DIM_ACCEL, 9.80665, 1},
    {MT_NC_("unit of acceleration", "ft/s²"), NULL, MT_DIM_ACCEL, 0.3048, 1},

    {MT_NC_("unit of angular acceleration", "rad/s²"), NULL, MT_DIM_ANGACC, 1, 1},
    {MT_NC_("unit of angular acceleration", "deg/s²"), NULL, MT_DIM_ANGACC, M_PI, 180},
    {MT_NC_("unit of angular acceleration", "rpm/s"), NULL, MT_DIM_ANGACC, 2 * M_PI, 60},

    {MT_NC_("unit of pressure", "Pa"), "N/m²", MT_DIM_PRESSURE, 1, 1},
    {MT_NC_("unit of pressure", "kPa"), NULL, MT_DIM_PRESSURE, 1000, 1},
    {MT_NC_("unit of pressure", "MPa"), "N/mm²", MT_DIM_PRESSURE, 1e6, 1},
    {MT_NC_("unit of pressure", "GPa"), NULL, MT_DIM_PRESSURE, 1e9, 1},
    {MT_NC_("unit of pressure", "bar"), NULL, MT_DIM_PRESSURE, 1e5, 1},
    {MT_NC_("unit of pressure", "psi"), "lbf/in²", MT_DIM_PRESSURE, LBF, INCH * INCH},

    {MT_NC_("unit of stiffness", "N/m"), NULL, MT_DIM_STIFFNESS, 1, 1},
    {MT_NC_("unit of stiffness", "N/mm"), NULL, MT_DIM_STIFFNESS, 1000, 1},
    {MT_NC_("unit of stiffness", "kN/m"), NULL, MT_DIM_STIFFNESS, 1000, 1},
    {MT_NC_("unit of stiffness", "kN/mm"), NULL, MT_DIM_STIFFNESS, 1e6, 1},
    {MT_NC_("unit of stiffness", "lbf/in"), NULL, MT_DIM_STIFFNESS, LBF, INCH},

    {MT_NC_("unit of damping", "N·s/m"), "Ns/m", MT_DIM_DAMPING, 1, 1},
    {MT_NC_("unit of damping", "N·s/mm"), "Ns/mm", MT_DIM_DAMPING, 1000, 1},
    {MT_NC_("unit of damping", "kN·s/m"), "kNs/m", MT_DIM_DAMPING, 1000, 1},
    {MT_NC_("unit of damping", "lbf·s/in"), NULL, MT_DIM_DAMPING, LBF, INCH},

    {MT_NC_("unit of rotational stiffness", "N·m/rad"), "Nm/rad", MT_DIM_ROTSTIFF, 1, 1},
    {MT_NC_("unit of rotational stiffness", "N·m/deg"), "Nm/deg", MT_DIM_ROTSTIFF, 180, M_PI},
    {MT_NC_("unit of rotational stiffness", "N·mm/rad"), "Nmm/rad", MT_DIM_ROTSTIFF, 1, 1000},
    {MT_NC_("unit of rotational stiffness", "N·mm/deg"), "Nmm/deg", MT_DIM_ROTSTIFF, 0.18, M_PI},

    {MT_NC_("unit of rotational damping", "N·m·s/rad"), "Nms/rad", MT_DIM_ROTDAMP, 1, 1},
    {MT_NC_("unit of rotational damping", "N·m·s/deg"), "Nms/deg", MT_DIM_ROTDAMP, 180, M_PI},
    {MT_NC_("unit of rotational damping", "N·mm·s/rad"), "Nmms/rad", MT_DIM_ROTDAMP, 1, 1000},

    {MT_NC_("unit of moment of inertia", "kg·m²"), NULL, MT_DIM_INERTIA, 1, 1},
    {MT_NC_("unit of moment of inertia", "kg·mm²"), NULL, MT_DIM_INERTIA, 1, 1e6},
    {MT_NC_("unit of moment of inertia", "kg·cm²"), NULL, MT_DIM_INERTIA, 1, 1e4},
    {MT_NC_("unit of moment of inertia", "g·cm²"), NULL, MT_DIM_INERTIA, 1, 1e7},
    {MT_NC_("unit of moment of inertia", "g·mm²"), NULL, MT_DIM_INERTIA, 1, 1e9},
    {MT_NC_("unit of moment of inertia", "lb·in²"), NULL, MT_DIM_INERTIA, 0.0002926396534292, 1},

    {MT_NC_("unit of density", "kg/m³"), NULL, MT_DIM_DENSITY, 1, 1},
    {MT_NC_("unit of density", "g/cm³"), "kg/dm³|t/m³", MT_DIM_DENSITY, 1000, 1},
    {MT_NC_("unit of density", "kg/mm³"), NULL, MT_DIM_DENSITY, 1e9, 1},
    {MT_NC_("unit of density", "lb/in³"), NULL, MT_DIM_DENSITY, 0.45359237, INCH * INCH * INCH},

    {MT_NC_("unit of energy", "J"), "N·m", MT_DIM_ENERGY, 1, 1},
    {MT_NC_("unit of energy", "kJ"), NULL, MT_DIM_ENERGY, 1000, 1},
    {MT_NC_("unit of energy", "mJ"), "N·mm", MT_DIM_ENERGY, 1, 1000},

    {MT_NC_("unit of power", "W"), NULL, MT_DIM_POWER, 1, 1},
    {MT_NC_("unit of power", "kW"), NULL, MT_DIM_POWER, 1000, 1},
    {MT_NC_("unit of power", "hp"), NULL, MT_DIM_POWER, 745.69987158227022, 1},

    {MT_NC_("unit of frequency", "Hz"), "1/s", MT_DIM_FREQUENCY, 1, 1},
    {MT_NC_("unit of frequency", "kHz"), NULL, MT_DIM_FREQUENCY, 1000, 1},
    {MT_NC_("unit of frequency", "1/min"), NULL, MT_DIM_FREQUENCY, 1, 60},
};
#define NUNITS ((int)(sizeof units / sizeof units[0]))

static const struct {
    const char *name;
    signed char exp[4]; /* m, kg, s, rad */
} dims[MT_DIM_COUNT] = {
    [MT_DIM_NONE] = {MT_NC_("quantity", "dimensionless"), {0, 0, 0, 0}},
    [MT_DIM_LENGTH] = {MT_NC_("quantity", "length"), {1, 0, 0, 0}},
    [MT_DIM_ANGLE] = {MT_NC_("quantity", "angle"), {0, 0, 0, 1}},
    [MT_DIM_MASS] = {MT_NC_("quantity", "mass"), {0, 1, 0, 0}},
    [MT_DIM_TIME] = {MT_NC_("quantity", "time"), {0, 0, 1, 0}},
    [MT_DIM_FORCE] = {MT_NC_("quantity", "force"), {1, 1, -2, 0}},
    [MT_DIM_TORQUE] = {MT_NC_("quantity", "torque"), {2, 1, -2, 0}},
    [MT_DIM_VELOCITY] = {MT_NC_("quantity", "velocity"), {1, 0, -1, 0}},
    [MT_DIM_ANGVEL] = {MT_NC_("quantity", "angular velocity"), {0, 0, -1, 1}},
    [MT_DIM_ACCEL] = {MT_NC_("quantity", "acceleration"), {1, 0, -2, 0}},
    [MT_DIM_ANGACC] = {MT_NC_("quantity", "angular acceleration"), {0, 0, -2, 1}},
    [MT_DIM_PRESSURE] = {MT_NC_("quantity", "pressure"), {-1, 1, -2, 0}},
    [MT_DIM_STIFFNESS] = {MT_NC_("quantity", "stiffness"), {0, 1, -2, 0}},
    [MT_DIM_DAMPING] = {MT_NC_("quantity", "damping"), {0, 1, -1, 0}},
    [MT_DIM_ROTSTIFF] = {MT_NC_("quantity", "rotational stiffness"), {2, 1, -2, -1}},
    [MT_DIM_ROTDAMP] = {MT_NC_("quantity", "rotational damping"), {2, 1, -1, -1}},
    [MT_DIM_INERTIA] = {MT_NC_("quantity", "moment of inertia"), {2, 1, 0, 0}},
    [MT_DIM_DENSITY] = {MT_NC_("quantity", "density"), {-3, 1, 0, 0}},
    [MT_DIM_ENERGY] = {MT_NC_("quantity", "energy"), {2, 1, -2, 0}},
    [MT_DIM_POWER] = {MT_NC_("quantity", "power"), {2, 1, -3, 0}},
    [MT_DIM_FREQUENCY] = {MT_NC_("quantity", "frequency"), {0, 0, -1, 0}},
};

static int valid(MtDim d) { return (int)d >= 0 && d < MT_DIM_COUNT; }
/* The quantity's name in the user's language (messages; files use dims[].name). */
static const char *dim_label(MtDim d) { return mt_pgettext("quantity", dims[d].name); }

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

/* 1 when f is 1000^k for a whole k (within rounding). */
static int power_of_1000(double f)
{
    double k = log10(f) / 3;
    return f > 0 && fabs(k - round(k)) < 1e-9;
}

const MtUnit *mt_unit_readable(MtDim d, double maxabs)
{
    const MtUnit *l, *best = NULL, *smallest = NULL;
    int n = mt_units_of(d, &l);
    if (!n || !(maxabs > 0) || !isfinite(maxabs)) return mt_unit_si(d);
    for (int i = 0; i < n; i++) {
        double f = l[i].num / l[i].den;
        if (!power_of_1000(f)) continue;
        if (!smallest || f < smallest->num / smallest->den) smallest = &l[i];
        /* 1 ≤ value in this unit, the largest such unit (first of equal ones: N/mm before kN/m) */
        if (maxabs / f >= 1 - 1e-12 && (!best || f > best->num / best->den * (1 + 1e-12))) best = &l[i];
    }
    return best ? best : smallest ? smallest : mt_unit_si(d);
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
    if (!text) return mt_error_set(err, MT_ERR_ARG, "", MT_("no value"));
    if (want != MT_DIM_ANY && !valid(want)) return mt_error_set(err, MT_ERR_ARG, "", MT_("invalid quantity %d"), (int)want);
    const char *s = text;
    while (*s == ' ' || *s == '\t') s++;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    else if (!strncmp(s, "\xe2\x88\x92", 3)) neg = 1, s += 3;
    double v;
    size_t n = mt_expr_scan_number(s, &v);
    if (!n) return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("'%.60s' is not a number"), text);
    if (neg) v = -v;
    s += n;
    while (*s == ' ' || *s == '\t') s++;
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\r')) len--;
    char name[64];
    const char *uname = bare_unit;
    if (len) {
        if (len >= sizeof name) return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("unknown unit '%.60s'"), s);
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
            if (want == MT_DIM_ANY) return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("unknown unit '%s'"), uname);
            list_units(want, list, sizeof list);
            if (other)
                return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("'%s' is a unit of %s, expected a unit of %s (%s)"),
                                    uname, dim_label(other->dim), dim_label(want), list[0] ? list : MT_("none"));
            return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("unknown unit '%s'; units of %s: %s"), uname,
                                dim_label(want), list[0] ? list : MT_("none"));
        }
    }
    v = mt_unit_to_si(u, v);
    if (!isfinite(v)) return mt_error_set(err, MT_ERR_SYNTAX, "", MT_("'%.60s' is not a finite number"), text);
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

/* ---- the units in the user's language ---------------------------------- */

const char *mt_unit_label(const MtUnit *u)
{
    if (!u) return "";
    if (!u->name[0] || !valid(u->dim) || u->dim == MT_DIM_NONE) return u->name;
    char ctx[64]; /* the context of the unit's MT_NC_ mark in the table */
    snprintf(ctx, sizeof ctx, "unit of %s", dims[u->dim].name);
    return mt_pgettext(ctx, u->name);
}

const char *mt_unit_label_of(const char *name, MtDim dim)
{
    const MtUnit *u = name ? mt_unit_lookup(name, dim) : NULL;
    return u ? mt_unit_label(u) : name ? name : "";
}

int mt_units_delocalise(const char *text, char *out, size_t size)
{
    /* a unit is only ever typed after a number ("25 мм"): only that form is
     * looked at, so that expressions — whose names may be any letters, a
     * parameter "с" included — pass unchanged */
    const char *p = text;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '-' || *p == '+') p++;
    else if (!strncmp(p, "\xe2\x88\x92", 3)) p += 3; /* U+2212 minus */
    double v;
    size_t n = mt_expr_scan_number(p, &v);
    const MtUnit *unit = NULL;
    size_t head = 0;
    if (n) {
        p += n;
        while (*p == ' ' || *p == '\t') p++;
        size_t len = strlen(p);
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\n' || p[len - 1] == '\r')) len--;
        for (int i = 0; len && i < NUNITS && !unit; i++) {
            const char *l = mt_unit_label(&units[i]);
            if (strlen(l) == len && !strncmp(p, l, len) && strcmp(l, units[i].name)) unit = &units[i];
        }
        head = (size_t)(p - text);
    }
    int w = unit ? snprintf(out, size, "%.*s%s", (int)head, text, unit->name) : snprintf(out, size, "%s", text);
    if (w < 0 || (size_t)w >= size) {
        if (size) out[0] = 0;
        return -1;
    }
    return 0;
}

const char *mt_double_str(double v, char buf[MT_DOUBLE_BUF])
{
    for (int prec = 15; prec < 17; prec++) {
        snprintf(buf, MT_DOUBLE_BUF, "%.*g", prec, v);
        double r = strtod(buf, NULL);
        if (!memcmp(&r, &v, sizeof r)) return buf; /* memcmp: -0 must stay -0 */
    }
    snprintf(buf, MT_DOUBLE_BUF, "%.17g", v); /* always exact (and nan, inf as they are) */
    return buf;
}
