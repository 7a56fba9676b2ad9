/* Units: values typed with units converted to SI exactly (decimal factors
 * correctly rounded), spellings, "g" as gram or standard gravity, units of
 * another quantity rejected with a message listing the right ones, the table
 * consistent with the dimensions of its quantities, conversion to display
 * units and formatting that reads back to the same double. */
#include <locale.h>
#include <string.h>

#include "motus/units.h"
#include "mt_test.h"

static double parse(const char *text, MtDim want, const char *bare)
{
    MtError err = {0};
    double v = NAN;
    MtStatus rc = mt_units_parse(text, want, bare, &v, &err);
    CHECK(rc == MT_OK, "'%s' as %s: %s", text, want == MT_DIM_ANY ? "any" : mt_dim_name(want), err.msg);
    return v;
}

/* The SI value must be exactly want. */
static void exact(const char *text, MtDim want, double si)
{
    double v = parse(text, want, NULL);
    CHECK(v == si, "'%s' = %.17g SI, expected %.17g", text, v, si);
    if (v == si) printf("ok   '%s' = %.17g\n", text, v);
}

static void rejected(const char *text, MtDim want, const char *frag1, const char *frag2)
{
    MtError err = {0};
    double v = 12345;
    MtStatus rc = mt_units_parse(text, want, NULL, &v, &err);
    int ok = rc == MT_ERR_SYNTAX && err.code == MT_ERR_SYNTAX && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2)) &&
             v == 12345;
    CHECK(ok, "'%s' as %s: expected an error mentioning '%s', got: %s", text, mt_dim_name(want), frag1,
          rc == MT_OK ? "(accepted)" : err.msg);
    if (ok) printf("ok   '%s' as %s -> %s\n", text, mt_dim_name(want), err.msg);
}

static double factor(const char *name, MtDim d)
{
    const MtUnit *u = mt_unit_lookup(name, d);
    CHECK(u != NULL, "unit '%s' of %s exists", name, mt_dim_name(d));
    return u ? u->num / u->den : NAN;
}

/* Switches LC_NUMERIC to a locale whose decimal point is not '.': an
 * installed one, else de_DE compiled into a temporary LOCPATH with localedef
 * (needs the locale sources); returns its name or NULL. */
static char comma_dir[64];
static const char *comma_locale(void)
{
    static const char *locs[] = {"de_DE.UTF-8", "ru_RU.UTF-8", "fr_FR.UTF-8", "de_DE", "ru_RU"};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++)
            if (setlocale(LC_NUMERIC, locs[i]) && strcmp(localeconv()->decimal_point, ".")) return locs[i];
        if (pass) break;
        snprintf(comma_dir, sizeof comma_dir, "/tmp/motus-locale-XXXXXX");
        if (!mkdtemp(comma_dir)) return NULL;
        char cmd[256];
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", comma_dir);
        if (system(cmd) != 0) break;
        setenv("LOCPATH", comma_dir, 1);
    }
    return NULL;
}
static void comma_locale_done(void)
{
    setlocale(LC_NUMERIC, "C");
    if (comma_dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", comma_dir);
        if (system(cmd) != 0) printf("could not remove %s\n", comma_dir);
        unsetenv("LOCPATH");
    }
}

int main(void)
{
    double f;
    MtDim d;
    CHECK(mt_unit_find("mm", &f, &d) && f == 0.001 && d == MT_DIM_LENGTH, "mt_unit_find mm: 0.001, length");
    CHECK(mt_unit_find("kN", &f, &d) && f == 1000 && d == MT_DIM_FORCE, "mt_unit_find kN");
    CHECK(mt_unit_find("g", &f, &d) && f == 0.001 && d == MT_DIM_MASS, "mt_unit_find g: the gram");
    CHECK(!mt_unit_find("furlong", &f, &d), "unknown unit");
    CHECK(mt_unit_find("", &f, &d) && f == 1 && d == MT_DIM_NONE, "the empty unit is dimensionless");

    /* typed-in values, exact where the factor is decimal */
    exact("25 mm", MT_DIM_LENGTH, 0.025);
    exact("25mm", MT_DIM_LENGTH, 0.025);
    exact("  -25  mm ", MT_DIM_LENGTH, -0.025);
    exact("2.5 cm", MT_DIM_LENGTH, 0.025);
    exact("1.5 km", MT_DIM_LENGTH, 1500);
    exact("25 µm", MT_DIM_LENGTH, 25e-6);
    exact("25 um", MT_DIM_LENGTH, 25e-6);
    exact("1 in", MT_DIM_LENGTH, 0.0254);
    exact("3 kN", MT_DIM_FORCE, 3000);
    exact("-3kN", MT_DIM_FORCE, -3000);
    exact("\xe2\x88\x92" "3 kN", MT_DIM_FORCE, -3000);
    exact("1 lbf", MT_DIM_FORCE, 4.4482216152605);
    exact("2 kgf", MT_DIM_FORCE, 19.6133);
    exact("2 g", MT_DIM_ACCEL, 19.6133);
    exact("2 g", MT_DIM_MASS, 0.002);
    exact("2 g", MT_DIM_ANY, 0.002);
    exact("500 g", MT_DIM_MASS, 0.5);
    exact("1.2 t", MT_DIM_MASS, 1200);
    exact("10 km/h", MT_DIM_VELOCITY, 10000.0 / 3600);
    exact("1 mph", MT_DIM_VELOCITY, 0.44704);
    exact("1 bar", MT_DIM_PRESSURE, 1e5);
    exact("5 MPa", MT_DIM_PRESSURE, 5e6);
    exact("5 N/mm²", MT_DIM_PRESSURE, 5e6);
    exact("210 GPa", MT_DIM_PRESSURE, 210e9);
    exact("100 N/mm", MT_DIM_STIFFNESS, 1e5);
    exact("2 N·s/mm", MT_DIM_DAMPING, 2000);
    exact("2 N*s/mm", MT_DIM_DAMPING, 2000);
    exact("2 Ns/mm", MT_DIM_DAMPING, 2000);
    exact("3 kg·m²", MT_DIM_INERTIA, 3);
    exact("3 kg*m^2", MT_DIM_INERTIA, 3);
    exact("3 kg m2", MT_DIM_INERTIA, 3);
    exact("1500 kg·mm²", MT_DIM_INERTIA, 0.0015);
    exact("7.85 g/cm³", MT_DIM_DENSITY, 7850);
    exact("7.85 kg/dm3", MT_DIM_DENSITY, 7850);
    exact("7850 kg/m^3", MT_DIM_DENSITY, 7850);
    exact("12 N·m", MT_DIM_TORQUE, 12);
    exact("12 N.m", MT_DIM_TORQUE, 12);
    exact("12 Nm", MT_DIM_TORQUE, 12);
    exact("12 N m", MT_DIM_TORQUE, 12);
    exact("12 N⋅m", MT_DIM_TORQUE, 12);
    exact("1200 N·mm", MT_DIM_TORQUE, 1.2);
    exact("12 N·m", MT_DIM_ENERGY, 12);
    exact("250 ms", MT_DIM_TIME, 0.25);
    exact("2 min", MT_DIM_TIME, 120);
    exact("9.81 m/s²", MT_DIM_ACCEL, 9.81);
    exact("9.81 m/s^2", MT_DIM_ACCEL, 9.81);
    exact("9.81 m/s2", MT_DIM_ACCEL, 9.81);
    exact("1.5 kW", MT_DIM_POWER, 1500);
    exact("50 Hz", MT_DIM_FREQUENCY, 50);
    exact("5 %", MT_DIM_NONE, 0.05);
    exact("0.3", MT_DIM_NONE, 0.3);
    exact("12.5", MT_DIM_LENGTH, 12.5);
    exact("1e3 mm", MT_DIM_LENGTH, 1);
    exact("25 mm", MT_DIM_ANY, 0.025);
    CHECK_REL(parse("30 deg", MT_DIM_ANGLE, NULL), M_PI / 6, 4.5e-16, "30 deg");
    CHECK_REL(parse("30°", MT_DIM_ANGLE, NULL), M_PI / 6, 4.5e-16, "30°");
    CHECK_REL(parse("0.25 rev", MT_DIM_ANGLE, NULL), M_PI / 2, 4.5e-16, "0.25 rev");
    CHECK_REL(parse("1500 rpm", MT_DIM_ANGVEL, NULL), 50 * M_PI, 4.5e-16, "1500 rpm");
    CHECK_REL(parse("1500 r/min", MT_DIM_ANGVEL, NULL), 50 * M_PI, 4.5e-16, "1500 r/min");
    CHECK_REL(parse("90 °/s", MT_DIM_ANGVEL, NULL), M_PI / 2, 4.5e-16, "90 °/s");
    CHECK_REL(parse("1 psi", MT_DIM_PRESSURE, NULL), 6894.757293168361, 4.5e-16, "1 psi");
    CHECK_REL(parse("1 lbf/in", MT_DIM_STIFFNESS, NULL), 175.12683524647639, 4.5e-16, "1 lbf/in");
    CHECK_REL(parse("1 N·m/deg", MT_DIM_ROTSTIFF, NULL), 180 / M_PI, 4.5e-16, "1 N·m/deg");
    CHECK_REL(parse("1 hp", MT_DIM_POWER, NULL), 745.69987158227022, 4.5e-16, "1 hp");
    /* bare numbers in the field's display unit */
    CHECK(parse("12.5", MT_DIM_LENGTH, "mm") == 0.0125, "bare 12.5 in a field shown in mm");
    CHECK(parse("12.5 m", MT_DIM_LENGTH, "mm") == 12.5, "an explicit unit wins over the display unit");
    CHECK_REL(parse("90", MT_DIM_ANGLE, "deg"), M_PI / 2, 4.5e-16, "bare 90 in a field shown in deg");

    /* rejected */
    rejected("25 mm", MT_DIM_FORCE, "'mm' is a unit of length, expected a unit of force (N, kN, MN, lbf, kgf)", NULL);
    rejected("3 kN", MT_DIM_LENGTH, "'kN' is a unit of force", "mm");
    rejected("30 deg", MT_DIM_NONE, "'deg' is a unit of angle", NULL);
    rejected("10 rad/s", MT_DIM_VELOCITY, "unit of angular velocity, expected a unit of velocity", "km/h");
    rejected("3 furlongs", MT_DIM_LENGTH, "unknown unit 'furlongs'; units of length: m, mm, cm, km, µm, nm, in, ft", NULL);
    rejected("3 furlongs", MT_DIM_ANY, "unknown unit 'furlongs'", NULL);
    rejected("3 MM", MT_DIM_LENGTH, "unknown unit 'MM'", NULL);
    rejected("abc", MT_DIM_LENGTH, "'abc' is not a number", NULL);
    rejected("mm", MT_DIM_LENGTH, "is not a number", NULL);
    rejected("", MT_DIM_LENGTH, "is not a number", NULL);
    rejected("1e999 m", MT_DIM_LENGTH, "is not a finite number", NULL);
    rejected("1e308 km", MT_DIM_LENGTH, "is not a finite number", NULL);
    rejected("2 * 3 mm", MT_DIM_LENGTH, "unknown unit '* 3 mm'", NULL);
    {
        char big[200];
        memset(big, 'x', sizeof big - 1);
        big[0] = '1';
        big[sizeof big - 1] = 0;
        rejected(big, MT_DIM_LENGTH, "unknown unit", NULL);
    }
    MtError err = {0};
    CHECK(mt_units_parse("1 m", (MtDim)99, NULL, &f, &err) == MT_ERR_ARG, "invalid quantity");
    CHECK(mt_units_parse(NULL, MT_DIM_LENGTH, NULL, &f, &err) == MT_ERR_ARG, "no text");

    /* the table: every quantity has units, SI first, contiguous, a name, the dimensions of the quantity */
    int total = 0;
    for (int q = 0; q < MT_DIM_COUNT; q++) {
        const MtUnit *l;
        int n = mt_units_of((MtDim)q, &l);
        total += n;
        int ok = n >= 1 && l[0].num == 1 && l[0].den == 1 && mt_unit_si((MtDim)q) == &l[0];
        for (int i = 0; i < n; i++) {
            ok = ok && l[i].dim == (MtDim)q && l[i].num > 0 && l[i].den > 0 && isfinite(l[i].num / l[i].den);
            /* every unit is found by its name among its quantity (first match is itself or an equal factor) */
            const MtUnit *u = mt_unit_lookup(l[i].name, (MtDim)q);
            ok = ok && u && u->num / u->den == l[i].num / l[i].den;
            /* display conversion round trip */
            double x = 0.1 + i;
            ok = ok && fabs(mt_unit_to_si(&l[i], mt_unit_from_si(&l[i], x)) - x) <= 6e-16 * x;
        }
        CHECK(ok, "units of %s: SI first, contiguous, found by name, round trip", mt_dim_name((MtDim)q));
        CHECK(mt_dim_from_name(mt_dim_name((MtDim)q)) == (MtDim)q, "quantity name '%s' reads back", mt_dim_name((MtDim)q));
    }
    printf("ok   %d units in %d quantities\n", total, (int)MT_DIM_COUNT);
    CHECK(mt_units_of((MtDim)-5, NULL) == 0 && mt_unit_si(MT_DIM_COUNT) == NULL && mt_dim_name(MT_DIM_COUNT) == NULL &&
          mt_dim_from_name("warp factor") == MT_DIM_ANY, "invalid quantities");

    /* dimensions: exponents (m, kg, s, rad) compose like the physics */
    int e[MT_DIM_COUNT][4];
    for (int q = 0; q < MT_DIM_COUNT; q++) mt_dim_exponents((MtDim)q, e[q]);
    int force[4] = {1, 1, -2, 0};
    CHECK(!memcmp(e[MT_DIM_FORCE], force, sizeof force), "force is kg·m/s²");
    int okdim = 1;
    for (int i = 0; i < 4; i++) {
        okdim &= e[MT_DIM_STIFFNESS][i] + e[MT_DIM_LENGTH][i] == e[MT_DIM_FORCE][i];
        okdim &= e[MT_DIM_DAMPING][i] + e[MT_DIM_VELOCITY][i] == e[MT_DIM_FORCE][i];
        okdim &= e[MT_DIM_PRESSURE][i] + 2 * e[MT_DIM_LENGTH][i] == e[MT_DIM_FORCE][i];
        okdim &= e[MT_DIM_ROTSTIFF][i] + e[MT_DIM_ANGLE][i] == e[MT_DIM_TORQUE][i];
        okdim &= e[MT_DIM_ROTDAMP][i] + e[MT_DIM_ANGVEL][i] == e[MT_DIM_TORQUE][i];
        okdim &= e[MT_DIM_INERTIA][i] + e[MT_DIM_ANGACC][i] - e[MT_DIM_ANGLE][i] == e[MT_DIM_TORQUE][i];
        okdim &= e[MT_DIM_DENSITY][i] + 3 * e[MT_DIM_LENGTH][i] == e[MT_DIM_MASS][i];
        okdim &= e[MT_DIM_MASS][i] + e[MT_DIM_ACCEL][i] == e[MT_DIM_FORCE][i];
        okdim &= e[MT_DIM_FORCE][i] + e[MT_DIM_VELOCITY][i] == e[MT_DIM_POWER][i];
        okdim &= e[MT_DIM_ANGVEL][i] + e[MT_DIM_TIME][i] == e[MT_DIM_ANGLE][i];
        okdim &= e[MT_DIM_FREQUENCY][i] + e[MT_DIM_TIME][i] == 0;
    }
    CHECK(okdim, "exponents: k·x = F, c·v = F, p·A = F, k_θ·θ = T, I·α = T, ρ·V = m, m·a = F, F·v = P, ω·t = θ, f·t = 1");

    /* factors of compound units agree with their parts */
    CHECK_REL(factor("N·mm", MT_DIM_TORQUE), factor("N", MT_DIM_FORCE) * factor("mm", MT_DIM_LENGTH), 1e-15, "N·mm = N × mm");
    CHECK_REL(factor("lbf·in", MT_DIM_TORQUE), factor("lbf", MT_DIM_FORCE) * factor("in", MT_DIM_LENGTH), 1e-15, "lbf·in = lbf × in");
    CHECK_REL(factor("lbf·ft", MT_DIM_TORQUE), factor("lbf", MT_DIM_FORCE) * factor("ft", MT_DIM_LENGTH), 1e-15, "lbf·ft = lbf × ft");
    CHECK_REL(factor("psi", MT_DIM_PRESSURE), factor("lbf", MT_DIM_FORCE) / pow(factor("in", MT_DIM_LENGTH), 2), 1e-15, "psi = lbf/in²");
    CHECK_REL(factor("lb·in²", MT_DIM_INERTIA), factor("lb", MT_DIM_MASS) * pow(factor("in", MT_DIM_LENGTH), 2), 1e-15, "lb·in² = lb × in²");
    CHECK_REL(factor("lb/in³", MT_DIM_DENSITY), factor("lb", MT_DIM_MASS) / pow(factor("in", MT_DIM_LENGTH), 3), 1e-15, "lb/in³ = lb / in³");
    CHECK_REL(factor("lbf", MT_DIM_FORCE), factor("lb", MT_DIM_MASS) * factor("g", MT_DIM_ACCEL), 1e-15, "lbf = lb × g");
    CHECK_REL(factor("rpm", MT_DIM_ANGVEL), factor("rev", MT_DIM_ANGLE) / factor("min", MT_DIM_TIME), 1e-15, "rpm = rev/min");
    CHECK_REL(factor("mph", MT_DIM_VELOCITY), 1609.344 / factor("h", MT_DIM_TIME), 1e-15, "mph = 1609.344 m / h");
    CHECK_REL(factor("hp", MT_DIM_POWER), 550 * factor("lbf·ft", MT_DIM_TORQUE), 1e-15, "hp = 550 lbf·ft/s");
    CHECK_REL(factor("g·cm²", MT_DIM_INERTIA), factor("g", MT_DIM_MASS) * pow(factor("cm", MT_DIM_LENGTH), 2), 1e-15, "g·cm² = g × cm²");
    CHECK_REL(factor("N·mm/deg", MT_DIM_ROTSTIFF), factor("N·mm", MT_DIM_TORQUE) / factor("deg", MT_DIM_ANGLE), 1e-15, "N·mm/deg");
    CHECK_REL(factor("kN·s/m", MT_DIM_DAMPING), factor("kN", MT_DIM_FORCE), 1e-15, "kN·s/m");

    /* display units and formatting */
    const MtUnit *mm = mt_unit_lookup("mm", MT_DIM_LENGTH), *deg = mt_unit_lookup("deg", MT_DIM_ANGLE);
    const MtUnit *kgm2 = mt_unit_lookup("kg m^2", MT_DIM_INERTIA);
    CHECK(mm && deg && kgm2 && !strcmp(kgm2->name, "kg·m²"), "look-ups by other spellings");
    CHECK(mt_unit_from_si(mm, 0.025) == 25 && mt_unit_to_si(mm, 25) == 0.025, "0.025 m = 25 mm both ways");
    CHECK(mt_unit_from_si(deg, M_PI / 6) == 30 || fabs(mt_unit_from_si(deg, M_PI / 6) - 30) < 1e-14, "π/6 = 30 deg");
    char buf[64];
    mt_units_format(0.025, mm, 0, buf, sizeof buf);
    CHECK(!strcmp(buf, "25 mm"), "format 0.025 m in mm: '%s'", buf);
    mt_units_format(M_PI / 6, deg, 15, buf, sizeof buf);
    CHECK(!strcmp(buf, "30 deg"), "format π/6 in deg, 15 digits: '%s'", buf);
    mt_units_format(M_PI / 6, deg, 0, buf, sizeof buf);
    CHECK(!strcmp(buf, "29.999999999999996 deg"), "format π/6 in deg, exact: '%s'", buf);
    mt_units_format(0.1, NULL, 0, buf, sizeof buf);
    CHECK(!strcmp(buf, "0.1"), "format bare: '%s'", buf);
    mt_units_format(-1.5e-7, mt_unit_lookup("N", MT_DIM_FORCE), 0, buf, sizeof buf);
    CHECK(!strcmp(buf, "-1.5e-07 N"), "format -1.5e-7 N: '%s'", buf);
    mt_units_format(1234.5678, mm, 4, buf, sizeof buf);
    CHECK(!strcmp(buf, "1.235e+06 mm"), "format with 4 digits: '%s'", buf);
    int w = mt_units_format(0.025, mm, 0, buf, 4);
    CHECK(w == 5 && !strcmp(buf, "25 "), "format truncated to the buffer: %d '%s'", w, buf);
    /* formatted values read back to the same double, in every unit */
    int nround = 0, nbad = 0;
    for (int q = 0; q < MT_DIM_COUNT; q++) {
        const MtUnit *l;
        int n = mt_units_of((MtDim)q, &l);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < 50; j++) {
                double si = (j % 2 ? -1 : 1) * pow(10, -8 + j * 0.37) * (1 + j / 7.0);
                mt_units_format(si, &l[i], 0, buf, sizeof buf);
                double back = NAN;
                MtError er = {0};
                /* format writes the display value; reading it with its unit gives si up to the unit's conversion */
                if (mt_units_parse(buf, (MtDim)q, NULL, &back, &er) != MT_OK ||
                    fabs(back - si) > 6e-16 * fabs(si)) {
                    nbad++;
                    CHECK(0, "'%s' reads back as %.17g, formatted from %.17g (%s)", buf, back, si, er.msg);
                }
                double v = mt_unit_from_si(&l[i], si), vb;
                char num[64];
                snprintf(num, sizeof num, "%s", buf);
                char *sp = strchr(num, ' ');
                if (sp) *sp = 0;
                if (mt_units_parse(num, MT_DIM_ANY, NULL, &vb, &er) != MT_OK || vb != v) {
                    nbad++;
                    CHECK(0, "display value '%s' is not exactly %.17g", num, v);
                }
                nround++;
            }
    }
    CHECK(nbad == 0, "format round trip");
    printf("%s %d formatted values read back\n", nbad ? "FAIL" : "ok  ", nround);

    /* a locale with a decimal comma changes nothing */
    const char *loc = comma_locale();
    int tried = loc != NULL;
    if (loc) {
        exact("2.5 mm", MT_DIM_LENGTH, 0.0025);
        mt_units_format(0.0025, mm, 0, buf, sizeof buf);
        CHECK(!strcmp(buf, "2.5 mm"), "format under %s: '%s'", loc, buf);
    }
    comma_locale_done();
    printf("%s numbers under a locale with a decimal comma\n", tried ? "ok  " : "skip");
    /* readable units: the largest multiple of the SI unit by a power of 1000 that shows the value ≥ 1 */
    {
        static const struct {
            MtDim d;
            double v;
            const char *want;
        } r[] = {{MT_DIM_FORCE, 18650, "kN"},       {MT_DIM_FORCE, 999.9, "N"},          {MT_DIM_FORCE, 2.5e6, "MN"},
                 {MT_DIM_FORCE, 0.02, "N"},         {MT_DIM_PRESSURE, 6e7, "MPa"},       {MT_DIM_PRESSURE, 2.1e11, "GPa"},
                 {MT_DIM_PRESSURE, 1500, "kPa"},    {MT_DIM_LENGTH, 0.004, "mm"},        {MT_DIM_LENGTH, 2e-6, "µm"},
                 {MT_DIM_LENGTH, 0.3, "mm"},        {MT_DIM_LENGTH, 1.2, "m"},           {MT_DIM_LENGTH, 1e-9, "nm"},
                 {MT_DIM_TORQUE, 0.5, "N·mm"},      {MT_DIM_TORQUE, 3e4, "kN·m"},        {MT_DIM_ANGLE, 1e-4, "rad"},
                 {MT_DIM_VELOCITY, 3e3, "m/s"},     {MT_DIM_STIFFNESS, 5e4, "N/mm"},     {MT_DIM_FORCE, 0, "N"},
                 {MT_DIM_FORCE, NAN, "N"},          {MT_DIM_ACCEL, 0.05, "mm/s²"}};
        for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
            const MtUnit *u = mt_unit_readable(r[i].d, r[i].v);
            CHECK(u && !strcmp(u->name, r[i].want), "readable unit of %g %s: %s (want %s)", r[i].v, mt_dim_name(r[i].d),
                  u ? u->name : "NULL", r[i].want);
        }
    }
    return mt_test_done();
}
