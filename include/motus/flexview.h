/* motus/flexview.h — what a view of a flexible body computes from its reduced
 * data (MtFlexBody, motus/reduce.h), without GL: the elastic displacement of
 * each surface vertex for modal coordinates w (modal superposition
 * u_v = Σ w_k H_k(v)), the colour-map fields (displacement magnitude; von
 * Mises stress of the superposed modal stress tensors σ_v = Σ w_k σ_k(v)),
 * their largest value, and the amplitude that shows a mode shape at a given
 * size. The GUI does the same sums in its vertex shader; these are the
 * reference the tests, the legend's ranges and the screenshot checks use.
 *
 * Displacements are shown relative to the body's supports: the modes move
 * the surface relative to the floating frame (near the mean axes), so a
 * pinned rod's ends move too, and a scaled-up deformation would tear the
 * body off its joints. mt_flexview_support_motion gives the rigid motion
 * (translation t, small rotation θ: u = t + θ × x) that best fits the
 * displacements and rotations of the interface nodes (where joints and
 * forces act), and the functions taking `rig` (6 values t, θ; NULL: none)
 * subtract it. It does not change stresses.
 *
 * Layouts as in MtFlexBody: sv_H [3·(k·nsv + v)], sv_sig [6·(k·nsv + v)]
 * (xx yy zz xy yz zx); per-vertex outputs are float arrays of nsv values
 * (3·nsv for positions). */
#ifndef MOTUS_FLEXVIEW_H
#define MOTUS_FLEXVIEW_H

#include "motus/reduce.h"

typedef enum {
    MT_FLEXFIELD_DISPLACEMENT, /* |u|, m */
    MT_FLEXFIELD_VONMISES,     /* von Mises stress, Pa */
    MT_FLEXFIELD_COUNT
} MtFlexField;

/* 1 when the body has the data for field f (von Mises needs modal stresses:
 * solids and shells have them, beams do not). Costs a scan of the modal von
 * Mises values: ask once per body. */
int mt_flexview_has_field(const MtFlexBody *fb, MtFlexField f);
/* Rigid motion rig = (t, θ) best fitting the interface nodes' displacements
 * (and, with weight (size/10)², their rotations) for modal coordinates w;
 * zero for a body without interface nodes. */
void mt_flexview_support_motion(const MtFlexBody *fb, const double *w, double rig[6]);
/* Elastic displacement of surface vertex v for modal coordinates w (N =
 * fb->nmode), less the rigid motion rig (may be NULL). */
void mt_flexview_disp(const MtFlexBody *fb, const double *w, const double *rig, int v, double u[3]);
/* Deformed surface: out[3v..3v+2] = sv_x + scale·u_v (body axes). */
void mt_flexview_deformed(const MtFlexBody *fb, const double *w, const double *rig, double scale, float *out);
/* von Mises stress of a stress tensor (xx yy zz xy yz zx). */
double mt_flexview_von_mises(const double s[6]);
/* Field f at every surface vertex into out (may be NULL); returns the largest
 * value (0 for a body without surface, or without the field's data). */
double mt_flexview_field(const MtFlexBody *fb, const double *w, const double *rig, MtFlexField f, float *out);
/* Diagonal of the box around the undeformed surface, m (0 without surface). */
double mt_flexview_size(const MtFlexBody *fb);
/* Modal coordinate of mode k whose largest surface displacement is `size`
 * (0 when the mode moves no surface vertex). */
double mt_flexview_mode_amplitude(const MtFlexBody *fb, int k, double size);
/* Rate of the unit surface normal per unit modal coordinate, so that shading
 * follows the deformation: dn[3·(k·nsv + v)] = the mean over the triangles at
 * vertex v of d n̂/dw_k = (ṅ − n̂ (n̂·ṅ))/|n|, ṅ = (H_b − H_a)×(c − a) +
 * (b − a)×(H_c − H_a). Zero where no triangle is (beam lines). Returns 0, or
 * −1 when out of memory. */
int mt_flexview_normal_modes(const MtFlexBody *fb, float *dn);

#endif
