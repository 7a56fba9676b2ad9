/* motus-viewport-hud.c — the cairo layers of MotusViewport over its GL
 * view, a private part of motus-viewport.c (see motus-viewport-private.h):
 * messages, overlay marks (picked points, traces, vectors), gizmo handles,
 * the axis triad, and the overlay API. */
#include "motus-viewport-private.h"

#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "motus-gl-driver.h"
#include "motus-gl-view.h"
#include "motus-i18n.h"
#include "motus-label-place.h"
#include "motus-plot-axis.h"
#include "motus-gizmo.h"
#include "motus-scene.h"
#include "motus/edit.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/units.h"

/* ---- HUD: axis letters and messages over the GL view ---------------------------- */

gboolean motus_viewport_to_screen(MotusViewport *self, const double *p, int width, int height, double *x, double *y)
{
    float w[3] = {(float)p[0], (float)p[1], (float)p[2]}, out[2];
    if (!motus_camera_project(&self->cam, w, (float)width, (float)height, out)) return FALSE;
    *x = out[0];
    *y = out[1];
    return TRUE;
}

/* Points, traces and arrows of the overlay, drawn with cairo in 2D over the GL picture. */
static void draw_overlay(MotusViewport *self, cairo_t *cr, int width, int height, PangoLayout *l)
{
    const double *P = (const double *)self->ov_pts->data;
    guint nl = 0, cap = self->ov->len + 1;
    double *ax = g_new(double, 6 * cap), *ay = ax + cap, *lw = ay + cap, *lh = lw + cap, *lx = lh + cap, *ly = lx + cap;
    guint *which = g_new(guint, cap);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (guint i = 0; i < self->ov->len; i++) {
        const OverlayItem *it = &g_array_index(self->ov, OverlayItem, i);
        double x = 0, y = 0, x1, y1;
        cairo_set_source_rgb(cr, it->rgb[0], it->rgb[1], it->rgb[2]);
        if (it->kind == OV_POINT) {
            if (!motus_viewport_to_screen(self, P + 3 * it->first, width, height, &x, &y)) continue;
            cairo_set_line_width(cr, 2);
            cairo_arc(cr, x, y, 7, 0, 2 * G_PI);
            cairo_stroke(cr);
            cairo_move_to(cr, x - 11, y);
            cairo_line_to(cr, x + 11, y);
            cairo_move_to(cr, x, y - 11);
            cairo_line_to(cr, x, y + 11);
            cairo_stroke(cr);
        } else if (it->kind == OV_LINE) {
            cairo_set_line_width(cr, 2);
            gboolean pen = FALSE;
            for (guint k = 0; k < it->n; k++) {
                if (!motus_viewport_to_screen(self, P + 3 * (it->first + k), width, height, &x, &y)) {
                    pen = FALSE;
                    continue;
                }
                if (pen) cairo_line_to(cr, x, y);
                else cairo_move_to(cr, x, y);
                pen = TRUE;
            }
            cairo_stroke(cr);
        } else {
            if (!motus_viewport_to_screen(self, P + 3 * it->first, width, height, &x, &y) ||
                !motus_viewport_to_screen(self, P + 3 * it->first + 3, width, height, &x1, &y1))
                continue;
            double dx = x1 - x, dy = y1 - y, len = hypot(dx, dy);
            cairo_set_line_width(cr, 2.5);
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, x1, y1);
            cairo_stroke(cr);
            if (len > 1) { /* head: 10 px, 25 degrees */
                double ux = dx / len, uy = dy / len, hl = MIN(10, len);
                cairo_move_to(cr, x1, y1);
                cairo_line_to(cr, x1 - hl * (ux * 0.906 - uy * 0.423), y1 - hl * (uy * 0.906 + ux * 0.423));
                cairo_line_to(cr, x1 - hl * (ux * 0.906 + uy * 0.423), y1 - hl * (uy * 0.906 - ux * 0.423));
                cairo_close_path(cr);
                cairo_fill(cr);
            }
            x = x1, y = y1;
        }
        if (it->label[0]) { /* placed after all the geometry, apart from each other */
            int tw, th;
            pango_layout_set_width(l, -1);
            pango_layout_set_text(l, it->label, -1);
            pango_layout_get_pixel_size(l, &tw, &th);
            ax[nl] = x, ay[nl] = y, lw[nl] = tw + 8, lh[nl] = th + 2, which[nl++] = i;
        }
    }
    motus_label_place((int)nl, ax, ay, lw, lh, width, height, lx, ly);
    g_array_set_size(self->ov_rects, 0);
    for (guint k = 0; k < nl; k++) {
        const OverlayItem *it = &g_array_index(self->ov, OverlayItem, which[k]);
        /* a light box edged in the item's colour: readable over a body of that colour or of any other */
        double r = 3, x0 = lx[k], y0 = ly[k], w = lw[k], h = lh[k];
        cairo_new_sub_path(cr);
        cairo_arc(cr, x0 + w - r, y0 + r, r, -G_PI / 2, 0);
        cairo_arc(cr, x0 + w - r, y0 + h - r, r, 0, G_PI / 2);
        cairo_arc(cr, x0 + r, y0 + h - r, r, G_PI / 2, G_PI);
        cairo_arc(cr, x0 + r, y0 + r, r, G_PI, 3 * G_PI / 2);
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, it->rgb[0], it->rgb[1], it->rgb[2]);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
        pango_layout_set_text(l, it->label, -1);
        cairo_move_to(cr, x0 + 4, y0 + 1);
        pango_cairo_show_layout(cr, l);
        double rect[5] = {which[k], x0, y0, w, h};
        g_array_append_vals(self->ov_rects, rect, 5);
    }
    g_free(ax);
    g_free(which);
}

gboolean motus_viewport_overlay_label_rect(MotusViewport *self, guint i, double rect[4])
{
    for (guint k = 0; self->ov_rects && k < self->ov_rects->len / 5; k++) {
        const double *r = &g_array_index(self->ov_rects, double, 5 * k);
        if ((guint)r[0] != i) continue;
        for (int c = 0; c < 4; c++) rect[c] = r[1 + c];
        return TRUE;
    }
    return FALSE;
}

/* The gizmo: arrows or rings in the axes' colours, the one under the pointer
 * or being dragged in yellow; while moving, it follows the drag. */
static void draw_gizmo(MotusViewport *self, cairo_t *cr, int width, int height)
{
    static const double col[3][3] = {{0.85, 0.15, 0.12}, {0.15, 0.65, 0.15}, {0.15, 0.35, 0.90}};
    MotusGizmo g = self->gizmo;
    if (g.mode == MOTUS_GIZMO_MOVE && self->gizmo_handle >= 0)
        for (int i = 0; i < 3; i++) g.origin[i] += self->gizmo_amount * g.axes[3 * i + self->gizmo_handle];
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int k = 0; k < 3; k++) {
        int n = motus_gizmo_path(&g, &self->cam, width, height, k, xy);
        gboolean hot = k == (self->gizmo_handle >= 0 ? self->gizmo_handle : self->gizmo_hover);
        gboolean pen = FALSE;
        for (int j = 0; j < n; j++) {
            if (isnan(xy[2 * j])) {
                pen = FALSE;
                continue;
            }
            if (pen) cairo_line_to(cr, xy[2 * j], xy[2 * j + 1]);
            else cairo_move_to(cr, xy[2 * j], xy[2 * j + 1]);
            pen = TRUE;
        }
        cairo_set_source_rgba(cr, 1, 1, 1, 0.7); /* a light edge: visible over bodies of its own colour */
        cairo_set_line_width(cr, hot ? 6.5 : 5.5);
        cairo_stroke_preserve(cr);
        if (hot) cairo_set_source_rgb(cr, 0.98, 0.80, 0.10);
        else cairo_set_source_rgb(cr, col[k][0], col[k][1], col[k][2]);
        cairo_set_line_width(cr, hot ? 4 : 3);
        cairo_stroke(cr);
        if (g.mode == MOTUS_GIZMO_MOVE && n == 2 && !isnan(xy[0]) && !isnan(xy[2])) { /* the head, 12 px */
            double dx = xy[2] - xy[0], dy = xy[3] - xy[1], len = hypot(dx, dy);
            if (len > 1) {
                double ux = dx / len, uy = dy / len, hl = 12;
                cairo_move_to(cr, xy[2] + ux * hl, xy[3] + uy * hl);
                cairo_line_to(cr, xy[2] - hl * 0.5 * uy, xy[3] + hl * 0.5 * ux);
                cairo_line_to(cr, xy[2] + hl * 0.5 * uy, xy[3] - hl * 0.5 * ux);
                cairo_close_path(cr);
                cairo_fill(cr);
            }
        }
    }
}

/* Where a click would place its point: a diamond and its coordinates. */
static void draw_snap_mark(MotusViewport *self, cairo_t *cr, int width, int height, PangoLayout *l)
{
    double x, y;
    if (!motus_viewport_to_screen(self, self->snap_p, width, height, &x, &y)) return;
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, x, y - 7);
    cairo_line_to(cr, x + 7, y);
    cairo_line_to(cr, x, y + 7);
    cairo_line_to(cr, x - 7, y);
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_stroke_preserve(cr);
    cairo_set_source_rgb(cr, 0.10, 0.45, 0.85);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    if (!self->snap_label[0]) return;
    int tw, th;
    pango_layout_set_width(l, -1);
    pango_layout_set_text(l, self->snap_label, -1);
    pango_layout_get_pixel_size(l, &tw, &th);
    double lx = MIN(x + 10, width - tw - 4), ly = MAX(y - th - 8, 2);
    cairo_rectangle(cr, lx - 3, ly - 1, tw + 6, th + 2);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.10, 0.30, 0.60);
    cairo_move_to(cr, lx, ly);
    pango_cairo_show_layout(cr, l);
}

void motus_viewport_hud_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da, (void)width;
    MotusViewport *self = data;
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self->hud), NULL);
    int tw, th;
    if (self->gl_error || !self->scene) {
        const char *msg = self->gl_error ? self->gl_error->message : _("No model — open one with Ctrl+O");
        g_autofree char *text = self->gl_error ? g_strdup_printf(_("3D view unavailable: %s"), msg) : g_strdup(msg);
        pango_layout_set_text(l, text, -1);
        pango_layout_set_width(l, (width - 40) * PANGO_SCALE);
        pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
        pango_layout_get_pixel_size(l, &tw, &th);
        cairo_set_source_rgb(cr, 0.25, 0.27, 0.32);
        cairo_move_to(cr, 20, (height - th) / 2.0); /* the layout is width - 40 wide, centred */
        pango_cairo_show_layout(cr, l);
    }
    if (self->gl_ok && self->ov->len) draw_overlay(self, cr, width, height, l);
    if (self->gl_ok && self->gizmo.mode != MOTUS_GIZMO_OFF) draw_gizmo(self, cr, width, height);
    if (self->gl_ok && self->snap_on) draw_snap_mark(self, cr, width, height, l);
    g_object_unref(l);
}

/* The letters of the corner triad, in a small area of their own: a cairo
 * layer over the whole view would be uploaded with every frame, which costs a
 * software renderer more than the bodies (measured 2026-11-24, commit 4dd8b96 of bench/RESULTS.md). */
void motus_viewport_axes_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da, (void)width;
    MotusViewport *self = data;
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self->axes_hud), NULL);
    int tw, th;
    if (self->gl_ok) {
        float r[3], u[3], f[3];
        motus_camera_basis(&self->cam, r, u, f);
        static const char *const names[3] = {"X", "Y", "Z"};
        static const double col[3][3] = {{0.75, 0.12, 0.12}, {0.10, 0.50, 0.15}, {0.12, 0.25, 0.80}};
        for (int a = 0; a < 3; a++) {
            /* the tip of axis a in the triad's orthographic view (half size 1.35) */
            double ex = r[a] * 1.22, ey = u[a] * 1.22;
            double x = TRIAD_PX * (ex / 1.35 + 1) / 2, y = height - TRIAD_PX * (ey / 1.35 + 1) / 2;
            pango_layout_set_width(l, -1);
            pango_layout_set_text(l, names[a], -1);
            pango_layout_get_pixel_size(l, &tw, &th);
            cairo_set_source_rgb(cr, col[a][0], col[a][1], col[a][2]);
            cairo_move_to(cr, x - tw / 2.0, y - th / 2.0);
            pango_cairo_show_layout(cr, l);
        }
    }
    g_object_unref(l);
}

/* The full-size layer is shown only when it has something to draw (a
 * message, picked points, traces, vectors); the triad letters always redraw. */
void motus_viewport_hud_refresh(MotusViewport *self)
{
    gboolean need = self->gl_error || !self->scene || (self->ov && self->ov->len) || self->gizmo.mode != MOTUS_GIZMO_OFF ||
                    self->snap_on;
    if (gtk_widget_get_visible(self->hud) != need) gtk_widget_set_visible(self->hud, need);
    if (need) gtk_widget_queue_draw(self->hud);
    gtk_widget_queue_draw(self->axes_hud);
}
gboolean motus_viewport_get_picking(MotusViewport *self) { return self->picking; }

void motus_viewport_clear_overlay(MotusViewport *self)
{
    g_array_set_size(self->ov, 0);
    g_array_set_size(self->ov_pts, 0);
    motus_viewport_hud_refresh(self);
}

static void add_item(MotusViewport *self, OverlayKind kind, const double *pts, guint n, const float rgb[3], const char *label)
{
    OverlayItem it = {kind, self->ov_pts->len / 3, n, {rgb[0], rgb[1], rgb[2]}, g_strdup(label ? label : ""), {NAN, NAN, NAN}};
    g_array_append_vals(self->ov_pts, pts, 3 * n);
    g_array_append_val(self->ov, it);
    motus_viewport_hud_refresh(self);
}

void motus_viewport_add_overlay_point(MotusViewport *self, const double p[3], const float rgb[3], const char *label)
{
    add_item(self, OV_POINT, p, 1, rgb, label);
}

void motus_viewport_add_overlay_line(MotusViewport *self, const double *pts, guint n, const float rgb[3])
{
    if (n >= 2) add_item(self, OV_LINE, pts, n, rgb, NULL);
}

void motus_viewport_add_overlay_arrow(MotusViewport *self, const double from[3], const double vec[3], const float rgb[3],
                                      const char *label)
{
    double p[6] = {from[0], from[1], from[2], from[0] + vec[0], from[1] + vec[1], from[2] + vec[2]};
    add_item(self, OV_ARROW, p, 2, rgb, label);
}

void motus_viewport_add_overlay_vector(MotusViewport *self, const double from[3], const double value[3], double scale,
                                       const float rgb[3], const char *label)
{
    double d[3] = {value[0] * scale, value[1] * scale, value[2] * scale};
    motus_viewport_add_overlay_arrow(self, from, d, rgb, label);
    memcpy(g_array_index(self->ov, OverlayItem, self->ov->len - 1).value, value, 3 * sizeof(double));
}

gboolean motus_viewport_overlay_point(MotusViewport *self, guint i, guint k, double p[3])
{
    if (i >= self->ov->len) return FALSE;
    const OverlayItem *it = &g_array_index(self->ov, OverlayItem, i);
    if (k >= it->n) return FALSE;
    memcpy(p, (const double *)self->ov_pts->data + 3 * (it->first + k), 3 * sizeof(double));
    return TRUE;
}

gboolean motus_viewport_overlay_item(MotusViewport *self, guint i, double p[3], double value[3])
{
    if (i >= self->ov->len) return FALSE;
    const OverlayItem *it = &g_array_index(self->ov, OverlayItem, i);
    if (p) memcpy(p, (const double *)self->ov_pts->data + 3 * it->first, 3 * sizeof(double));
    if (value) memcpy(value, it->value, 3 * sizeof(double));
    return TRUE;
}

guint motus_viewport_overlay_size(MotusViewport *self) { return self->ov->len; }

