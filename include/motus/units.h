/* motus/units.h — units for values typed in by users ("25 mm", "30 deg",
 * "1500 rpm", "2 g"): a table of units per physical quantity, each with its
 * factor to SI; parsing a number with an optional unit for a field of a
 * given quantity, conversion to and from display units, formatting.
 * Everything inside Motus is SI (m, kg, s, rad, N). docs/expressions.md. */
#ifndef MT_UNITS_H
#define MT_UNITS_H

#include <stddef.h>

#include "motus/error.h"

/* Physical quantity (dimension) of a field. Quantities with the same SI
 * dimension (torque and energy) are still told apart. */
typedef enum {
    MT_DIM_ANY = -1, /* in look-ups: any quantity */
    MT_DIM_NONE,     /* dimensionless (ratios) */
    MT_DIM_LENGTH,
    MT_DIM_ANGLE,
    MT_DIM_MASS,
    MT_DIM_TIME,
    MT_DIM_FORCE,
    MT_DIM_TORQUE,
    MT_DIM_VELOCITY,
    MT_DIM_ANGVEL,    /* angular velocity */
    MT_DIM_ACCEL,     /* acceleration */
    MT_DIM_ANGACC,    /* angular acceleration */
    MT_DIM_PRESSURE,  /* pressure, stress, modulus */
    MT_DIM_STIFFNESS, /* N/m */
    MT_DIM_DAMPING,   /* N·s/m */
    MT_DIM_ROTSTIFF,  /* rotational stiffness, N·m/rad */
    MT_DIM_ROTDAMP,   /* rotational damping, N·m·s/rad */
    MT_DIM_INERTIA,   /* kg·m² */
    MT_DIM_DENSITY,   /* kg/m³ */
    MT_DIM_ENERGY,
    MT_DIM_POWER,
    MT_DIM_FREQUENCY,
    MT_DIM_COUNT
} MtDim;

/* One unit: 1 unit = num/den SI units (two numbers so that decimal units
 * convert exactly: 25 mm = 25/1000 m, correctly rounded). */
typedef struct {
    const char *name;    /* symbol shown to users, UTF-8: "mm", "N·m", "kg·m²" */
    const char *aliases; /* other accepted spellings, '|'-separated, or NULL */
    MtDim dim;
    double num, den;
} MtUnit;

/* "length", "angular velocity", ...; NULL for an invalid dim. */
const char *mt_dim_name(MtDim d);
/* The quantity named s ("force", "angular velocity"), or MT_DIM_ANY if none. */
MtDim mt_dim_from_name(const char *s);
/* SI base exponents of d: metre, kilogram, second, radian. */
void mt_dim_exponents(MtDim d, int exp[4]);

/* The units of quantity d, SI unit first; returns their number (0 for an
 * invalid d) and sets *list. */
int mt_units_of(MtDim d, const MtUnit **list);
/* The SI unit of d (NULL for an invalid d). */
const MtUnit *mt_unit_si(MtDim d);
/* The unit of d that shows values up to maxabs (SI) readably: among the SI
 * unit and its multiples by powers of 1000 (mm, kN, MPa, N·mm …; not cm,
 * bar or degrees), the largest whose value of maxabs is at least 1, or the
 * smallest of them; the SI unit for 0, non-finite values or an invalid d. */
const MtUnit *mt_unit_readable(MtDim d, double maxabs);

/* The unit called name (symbol or alias; "N*m", "N.m", "Nm" and "N·m" are
 * the same, as are "m^2", "m2" and "m²", "um" and "µm", "°" and "deg")
 * among the units of want (or of any quantity: MT_DIM_ANY, first match), or
 * NULL. "g" is the gram among masses and standard gravity (9.80665 m/s²)
 * among accelerations. */
const MtUnit *mt_unit_lookup(const char *name, MtDim want);
/* As mt_unit_lookup with MT_DIM_ANY: 1 and the factor to SI and quantity
 * (either pointer may be NULL) if name is a unit, 0 if not. */
int mt_unit_find(const char *name, double *factor, MtDim *dim);

/* value in unit u → SI, and back. */
double mt_unit_to_si(const MtUnit *u, double value);
double mt_unit_from_si(const MtUnit *u, double si);

/* Reads "NUMBER [UNIT]" ("25 mm", "-3kN", "30°", "1500 rpm") for a field of
 * quantity want (MT_DIM_ANY: any unit) into *si. A number without a unit is
 * in bare_unit (a unit name of want, e.g. the display unit of the field),
 * or in SI if bare_unit is NULL. Errors (MT_ERR_SYNTAX, entity left empty):
 * no number, unknown unit, unit of another quantity (the message lists the
 * units of want), value not finite. */
MtStatus mt_units_parse(const char *text, MtDim want, const char *bare_unit, double *si, MtError *err);

/* Writes si in unit u as "25 mm" (u NULL: the bare SI number) with a '.'
 * whatever the C locale: with `digits` significant digits (1 to 17; 15 hides
 * the last-bit noise of conversions, π/6 rad shows as "30 deg"), or, for
 * digits = 0, the fewest digits that read back to the same display value.
 * Returns the length snprintf would have written. */
int mt_units_format(double si, const MtUnit *u, int digits, char *buf, size_t size);

/* What the interface shows for unit u in the user's language ("мм" in
 * Russian; the symbol itself without a catalogue); "" for NULL. The model
 * format and the project keep the symbols (u->name). */
const char *mt_unit_label(const MtUnit *u);
/* The label of the unit spelled name among the units of dim (MT_DIM_ANY:
 * any), or name itself when it is no unit ("" for NULL). */
const char *mt_unit_label_of(const char *name, MtDim dim);
/* Copies a typed value into out with its unit, when written as the user's
 * language shows it and that differs from the symbol, replaced by the symbol
 * ("25 мм" → "25 mm", "30°" → "30deg"), so that what a person types in the
 * units the interface shows is stored the same in every locale. Only the
 * form "NUMBER UNIT" is changed (expressions and their names never).
 * -1 when out is too small (out then empty). */
int mt_units_delocalise(const char *text, char *out, size_t size);

/* The shortest of %.15g, %.16g and %.17g that strtod reads back as the very
 * same double (bit for bit, -0 included): 9.81 is written "9.81", not
 * "9.8100000000000005", and a model written and read again runs identically.
 * Returns buf. MT_DOUBLE_STR(v) gives a buffer that lives to the end of the
 * enclosing full statement (a compound literal), for use in printf arguments. */
#define MT_DOUBLE_BUF 32
const char *mt_double_str(double v, char buf[MT_DOUBLE_BUF]);
#define MT_DOUBLE_STR(v) mt_double_str((v), (char[MT_DOUBLE_BUF]){0})

#endif
