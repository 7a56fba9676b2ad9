/* mt_rail.h — the wheel–rail force element (force KIND wheelrail): a
 * wheelset on a track with its geometry (straight, clothoid transitions,
 * circle, cant) and irregularities, contact search on the wheel and rail
 * profiles, Hertzian normal force and Kalker creep forces with Shen–Hedrick–
 * Elkins saturation. Theory and choices in docs/rail.md. */
#ifndef MT_RAIL_H
#define MT_RAIL_H

#include "mt_kin.h"
#include "mt_system.h"

/* Parameter slots of a wheelrail element (MtForceSpec.p, names in mt_catalogue.c). */
enum {
    WR_R0, WR_B, WR_CONE, WR_FLANGE, WR_FANGLE, WR_FHEIGHT, WR_CROWN, WR_CORNER, WR_HEAD, WR_KN, WR_CN, WR_MU,
    WR_F11, WR_F22, WR_F23, WR_F33, WR_N0, WR_SAT, WR_VMIN, WR_STRAIGHT, WR_TRANS, WR_RADIUS, WR_CURVE, WR_CANT,
    WR_LENGTH, WR_PSD, WR_SEED, WR_LMIN, WR_LMAX, WR_FADE, WR_NPAR
};
/* Table names of a wheelrail element, in MtForceSpec.expr: wheel and rail
 * profile, vertical and lateral irregularity ("" = none). */
enum { WR_T_WHEEL, WR_T_RAIL, WR_T_VERT, WR_T_LAT };

/* Values a wheelrail element records after the 9 common ones (MtState.fout):
 * per wheel (left, then right) normal force, longitudinal and lateral creep
 * force, contact position on the wheel and on the rail, the three
 * creepages, rolling radius, contact angle; then the track distance, the
 * lateral offset and the yaw angle of the wheelset on the track. */
#define MT_RAIL_WHEEL 11
#define MT_RAIL_OUT (2 * MT_RAIL_WHEEL + 3)
extern const char *const mt_rail_wheel_cols[MT_RAIL_WHEEL];
extern const char *const mt_rail_track_cols[3];

typedef struct MtRail MtRail;

/* Builds the track, irregularity and profile data of wheelrail element k. */
int mt_rail_compile(MtSystem *s, int k, MtError *err);
void mt_rail_free(MtRail *r);
/* The loads of element k on the wheelset (marker mi) and the track (mj), and its record. */
void mt_rail_force(MtState *st, int k, const double *q, const MtMk *mi, const MtMk *mj);
/* Track distance of the wheelset of element k at st->q (the hint for the next step). */
double mt_rail_distance(MtState *st, int k);

/* Irregularity of the track-quality spectrum psd (1 low, 2 high
 * disturbance) for a seed over wavelengths lmin … lmax, at distances
 * s[0..n): vertical into zv, lateral into yl (for tests and docs). */
void mt_rail_irregularity_sample(int psd, double seed, double lmin, double lmax, int n, const double *s, double *zv, double *yl);
/* The spectra's variance over wavelengths lmin … lmax (closed form): vertical (lat = 0) or lateral. */
double mt_rail_psd_variance(int psd, int lat, double lmin, double lmax);

#endif
