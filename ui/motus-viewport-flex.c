/* motus-viewport-flex.c — flexible bodies in MotusViewport, a private part
 * of motus-viewport.c (see motus-viewport-private.h): the modal deformation
 * and its colour map, the legend and the controls under it (scale, field,
 * range), and the animated preview of a mode shape. */
#include "motus-viewport-private.h"

#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "motus-gl-driver.h"
#include "motus-gl-view.h"
#include "motus-i18n.h"
#include "motus-plot-axis.h"
#include "motus-gizmo.h"
#include "motus-scene.h"
#include "motus/edit.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/units.h"

/* The modal coordinates drawn: the preview's while a mode animates. */
static const double *shown_w(MotusViewport *self) { return self->prev_body >= 0 ? self->wp : self->w; }

/* The field the colours show: an animated mode shape is coloured by its displacement at least. */
static MotusField shown_field(MotusViewport *self)
{
    return self->prev_body >= 0 && self->field == MOTUS_FIELD_NONE ? MOTUS_FIELD_DISPLACEMENT : self->field;
}

static void current_range(MotusViewport *self, double *lo, double *hi)
{
    int f = shown_field(self) == MOTUS_FIELD_VONMISES ? 1 : 0;
    *lo = 0;
    if (self->prev_body >= 0)
        *hi = self->prev_peak[f];
    else if (self->range_mode == MOTUS_RANGE_FIXED)
        *lo = self->fixed_lo, *hi = self->fixed_hi;
    else if (self->range_mode == MOTUS_RANGE_RUN && self->run_max[f] > 0)
        *hi = self->run_max[f];
    else /* the current frame (also before a run has given its maximum) */
        *hi = self->frame_max[f];
    if (!(*hi > *lo)) *hi = *lo + fmax(fabs(*lo) * 1e-6, 1e-12);
}

/* The rigid motion of each flexible body's supports at the modal coordinates shown. */
static void update_rig(MotusViewport *self)
{
    const double *w = shown_w(self);
    for (int b = 0; self->rig && b < self->scene->nbody; b++) {
        const MotusFlexMesh *fm = self->scene->body[b].flex;
        if (fm && w)
            mt_flexview_support_motion(fm->fb, w + fm->moff, self->rig + 6 * b);
        else
            memset(self->rig + 6 * b, 0, 6 * sizeof(double));
    }
}

/* Largest value of the field shown over every flexible body at the modal coordinates shown. */
static void update_frame_max(MotusViewport *self)
{
    if (!self->scene) return;
    update_rig(self);
    if (self->field == MOTUS_FIELD_NONE) return;
    int f = self->field == MOTUS_FIELD_VONMISES ? 1 : 0;
    /* the frame's maximum costs a pass over every vertex and mode: only when the range uses it */
    if (self->range_mode == MOTUS_RANGE_FIXED || (self->range_mode == MOTUS_RANGE_RUN && self->run_max[f] > 0)) return;
    const double *w = shown_w(self);
    double mx = 0;
    for (int b = 0; w && b < self->scene->nbody; b++) {
        const MotusFlexMesh *fm = self->scene->body[b].flex;
        if (fm) mx = fmax(mx, mt_flexview_field(fm->fb, w + fm->moff, self->rig + 6 * b, (MtFlexField)f, NULL));
    }
    self->frame_max[f] = mx;
}

void motus_viewport_draw_flex(MotusViewport *self, GLuint prog, int i, mat4 V, mat4 M, const float hl[4], gboolean colour)
{
    const FlexGl *f = &self->flexgl[i];
    const MotusFlexMesh *fm = self->scene->body[i].flex;
    if (!f->count) return;
    mat4 VM;
    mat3 N;
    glm_mat4_mul(V, M, VM);
    glm_mat4_pick3(VM, N);
    glUniformMatrix4fv(glGetUniformLocation(prog, "uModel"), 1, GL_FALSE, (const float *)M);
    glUniformMatrix3fv(glGetUniformLocation(prog, "uNormal"), 1, GL_FALSE, (const float *)N);
    glUniform4fv(glGetUniformLocation(prog, "uHighlight"), 1, hl);
    static float w4[4 * (MAX_SHADER_MODES / 4)];
    memset(w4, 0, sizeof w4);
    const double *w = shown_w(self);
    for (int k = 0; w && k < f->nmodes; k++) w4[k] = (float)w[fm->moff + k];
    glUniform4fv(glGetUniformLocation(prog, "uW"), MAX_SHADER_MODES / 4, w4);
    glUniform1i(glGetUniformLocation(prog, "uNModes"), f->nmodes);
    glUniform1i(glGetUniformLocation(prog, "uNsv"), fm->info.nsv);
    glUniform1f(glGetUniformLocation(prog, "uScale"), (float)self->deform);
    const double *rg = self->rig + 6 * i;
    glUniform3f(glGetUniformLocation(prog, "uRigT"), (float)rg[0], (float)rg[1], (float)rg[2]);
    glUniform3f(glGetUniformLocation(prog, "uRigR"), (float)rg[3], (float)rg[4], (float)rg[5]);
    int field = colour ? (int)shown_field(self) : 0;
    if (field == MOTUS_FIELD_VONMISES && !f->stress) field = 0; /* beams: no stresses */
    if (!f->nmodes) field = 0;
    glUniform1i(glGetUniformLocation(prog, "uField"), field);
    double lo, hi;
    current_range(self, &lo, &hi);
    glUniform2f(glGetUniformLocation(prog, "uRange"), (float)lo, (float)hi);
    glUniform1i(glGetUniformLocation(prog, "uH"), 0);
    glUniform1i(glGetUniformLocation(prog, "uS"), 1);
    glUniform1i(glGetUniformLocation(prog, "uMap"), 2);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, f->htex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, f->stex);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_1D, self->map_tex);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(f->vao);
    glDrawElements(GL_TRIANGLES, f->count, GL_UNSIGNED_INT, NULL);
}



/* ---- flexible bodies: controls, legend, preview ------------------------------------ */

static MtDim field_dim(MotusField f) { return f == MOTUS_FIELD_VONMISES ? MT_DIM_PRESSURE : MT_DIM_LENGTH; }

/* The legend's unit: the project's display unit for the quantity, or when it
 * has none, mm for displacements under 0.1 m (m above) and MPa for stresses. */
static const MtUnit *field_unit(MotusViewport *self, MotusField f)
{
    if (f == MOTUS_FIELD_NONE || !self->model) return NULL;
    MtDim dim = field_dim(f);
    const MtUnit *u = mt_edit_display_unit(self->model, dim);
    if (u && u != mt_unit_si(dim)) return u;
    if (f == MOTUS_FIELD_VONMISES) return mt_unit_lookup("MPa", dim);
    double lo, hi;
    current_range(self, &lo, &hi);
    return hi < 0.1 ? mt_unit_lookup("mm", dim) : mt_unit_si(dim);
}

static void flex_refresh(MotusViewport *self)
{
    update_frame_max(self);
    gtk_widget_queue_draw(self->legend);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

/* Which of the bar's widgets show: the bar with flexible bodies, the range
 * entries for a fixed range, the legend with a field. */
static void flex_widgets(MotusViewport *self)
{
    gboolean flex = self->scene && self->scene->nmodal > 0;
    gtk_widget_set_visible(self->flexbar, flex);
    gtk_widget_set_visible(self->legend, flex && (self->field != MOTUS_FIELD_NONE || self->prev_body >= 0));
    gboolean fixed = self->range_mode == MOTUS_RANGE_FIXED && self->field != MOTUS_FIELD_NONE;
    gtk_widget_set_visible(self->lo_entry, fixed);
    gtk_widget_set_visible(self->hi_entry, fixed);
    gtk_widget_set_sensitive(self->range_dd, self->field != MOTUS_FIELD_NONE);
    if (fixed) { /* the entries show the range in the legend's unit */
        const MtUnit *u = field_unit(self, self->field);
        char buf[64];
        mt_units_format(self->fixed_lo, u, 4, buf, sizeof buf);
        gtk_editable_set_text(GTK_EDITABLE(self->lo_entry), buf);
        mt_units_format(self->fixed_hi, u, 4, buf, sizeof buf);
        gtk_editable_set_text(GTK_EDITABLE(self->hi_entry), buf);
    }
}

void motus_viewport_flex_model_changed(MotusViewport *self)
{
    motus_viewport_preview_mode(self, -1, -1);
    int n = self->scene ? self->scene->nmodal : 0;
    g_free(self->w);
    g_free(self->wp);
    g_free(self->rig);
    self->w = n ? g_new0(double, n) : NULL;
    self->wp = n ? g_new0(double, n) : NULL;
    self->rig = self->scene ? g_new0(double, 6 * (self->scene->nbody + 1)) : NULL;
    self->run_max[0] = self->run_max[1] = self->frame_max[0] = self->frame_max[1] = 0;
    self->has_stress = FALSE;
    for (int b = 0; self->scene && b < self->scene->nbody; b++)
        if (self->scene->body[b].flex)
            self->has_stress |= mt_flexview_has_field(self->scene->body[b].flex->fb, MT_FLEXFIELD_VONMISES);
    flex_widgets(self);
}

static void scale_changed(GtkSpinButton *spin, gpointer data)
{
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    motus_viewport_set_deformation_scale(self, gtk_spin_button_get_value(spin));
}

static void field_changed(GObject *dd, GParamSpec *ps, gpointer data)
{
    (void)ps;
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    motus_viewport_set_colour_field(self, (MotusField)gtk_drop_down_get_selected(GTK_DROP_DOWN(dd)));
}

static void range_changed(GObject *dd, GParamSpec *ps, gpointer data)
{
    (void)ps;
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    MotusRangeMode mode = (MotusRangeMode)gtk_drop_down_get_selected(GTK_DROP_DOWN(dd));
    double lo = self->fixed_lo, hi = self->fixed_hi;
    if (mode == MOTUS_RANGE_FIXED && !(hi > lo)) { /* start from what is shown */
        self->range_mode = self->range_mode == MOTUS_RANGE_FIXED ? MOTUS_RANGE_RUN : self->range_mode;
        current_range(self, &lo, &hi);
    }
    motus_viewport_set_colour_range(self, mode, lo, hi);
}

/* A bound typed in the range entries: a number in the legend's unit or with its own ("250 MPa"). */
static void bound_activated(GtkEntry *entry, gpointer data)
{
    MotusViewport *self = data;
    const MtUnit *u = field_unit(self, self->field);
    double v;
    MtError err = {0};
    g_autofree char *typed = motus_delocalise(gtk_editable_get_text(GTK_EDITABLE(entry)));
    if (!u || mt_units_parse(typed, field_dim(self->field), u->name, &v, &err)) {
        gtk_widget_add_css_class(GTK_WIDGET(entry), "error");
        gtk_widget_set_tooltip_text(GTK_WIDGET(entry), err.msg);
        return;
    }
    gtk_widget_remove_css_class(GTK_WIDGET(entry), "error");
    gtk_widget_set_tooltip_text(GTK_WIDGET(entry), NULL);
    double lo = self->fixed_lo, hi = self->fixed_hi;
    if (GTK_WIDGET(entry) == self->lo_entry)
        lo = v;
    else
        hi = v;
    motus_viewport_set_colour_range(self, MOTUS_RANGE_FIXED, lo, hi);
}

enum { LEGEND_H = 290 }; /* the legend panel's height when the view has room */

static void legend_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da;
    MotusViewport *self = data;
    gboolean preview = self->prev_body >= 0;
    MotusField f = shown_field(self);
    if (f == MOTUS_FIELD_NONE || !self->scene) return;
    height = MIN(height, LEGEND_H);
    double lo, hi;
    current_range(self, &lo, &hi);
    const MtUnit *u = field_unit(self, f);
    PangoLayout *l = gtk_widget_create_pango_layout(self->legend, NULL);
    int tw, th;
    /* panel */
    double r = 6;
    cairo_new_sub_path(cr);
    cairo_arc(cr, width - r, r, r, -G_PI / 2, 0);
    cairo_arc(cr, width - r, height - r, r, 0, G_PI / 2);
    cairo_arc(cr, r, height - r, r, G_PI / 2, G_PI);
    cairo_arc(cr, r, r, r, G_PI, 3 * G_PI / 2);
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.86);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.3, 0.33, 0.38, 0.5);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    /* title: the quantity and its unit */
    g_autofree char *title = NULL;
    if (preview) {
        const MtFlexInfo *fb = &self->scene->body[self->prev_body].flex->info;
        /* TRANSLATORS: legend of an animated mode shape: mode number and its frequency. */
        title = g_strdup_printf(_("Mode %d\n%.4g Hz\n(shape: no scale)"), self->prev_mode + 1,
                                fb->freq ? fb->freq[self->prev_mode] : 0.0);
    } else {
        title = g_strdup_printf("%s\n%s", f == MOTUS_FIELD_VONMISES ? _("von Mises stress") : _("Displacement"),
                                mt_unit_label(u));
    }
    const char *note = motus_viewport_legend_note(self);
    if (note) {
        g_autofree char *t = title;
        title = g_strdup_printf("%s\n\n%s", t, note);
    }
    pango_layout_set_text(l, title, -1);
    pango_layout_set_width(l, (width - 16) * PANGO_SCALE);
    pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
    pango_layout_get_pixel_size(l, &tw, &th);
    cairo_set_source_rgb(cr, 0.12, 0.13, 0.16);
    cairo_move_to(cr, 8, 6);
    pango_cairo_show_layout(cr, l);
    pango_layout_set_width(l, -1);
    if (note) {
        g_object_unref(l);
        return;
    }
    /* the bar, top = high */
    int bx = 10, bw = 18, by = 6 + th + 10, foot = 40, bh = height - by - foot;
    if (bh < 20) {
        g_object_unref(l);
        return;
    }
    /* one gradient fill: rows of 1 px rectangles off the pixel grid would blend into the panel */
    cairo_pattern_t *grad = cairo_pattern_create_linear(0, by + bh, 0, by);
    for (int k = 0; k <= 64; k++) {
        float c[3];
        motus_colormap(k / 64.0, c);
        cairo_pattern_add_color_stop_rgb(grad, k / 64.0, c[0], c[1], c[2]);
    }
    cairo_set_source(cr, grad);
    cairo_rectangle(cr, bx, by, bw, bh);
    cairo_fill(cr);
    cairo_pattern_destroy(grad);
    cairo_set_source_rgba(cr, 0.2, 0.2, 0.25, 0.8);
    cairo_rectangle(cr, bx + 0.5, by + 0.5, bw - 1, bh - 1);
    cairo_stroke(cr);
    /* labels: the plot's nice ticks inside the range, and its top value (the maximum) when no tick is near */
    double a = u ? mt_unit_from_si(u, lo) : lo, b = u ? mt_unit_from_si(u, hi) : hi;
    MotusTicks tk;
    motus_ticks_compute(a, b, 5, FALSE, &tk);
    int nlab = preview ? 2 : tk.n + 1;
    /* the maximum's own label, unless it would sit on the last round tick; when that tick is closer than a
     * line of text (a short bar), the round tick gives way to the maximum */
    pango_layout_set_text(l, "0", -1);
    pango_layout_get_pixel_size(l, &tw, &th);
    double top_gap = tk.n ? (b - motus_ticks_value(&tk, tk.n - 1)) / (b - a) * (bh - 1) : INFINITY;
    int drop_last = !preview && top_gap < th + 2 && top_gap >= 0.4 * tk.step / (b - a) * (bh - 1);
    for (int k = 0; k < nlab; k++) {
        if (drop_last && k == tk.n - 1) continue;
        char buf[48];
        double v;
        if (preview) {
            v = k ? b : a;
            g_strlcpy(buf, k ? _("max") : "0", sizeof buf);
        } else if (k < tk.n) {
            v = motus_ticks_value(&tk, k);
            motus_ticks_format(v, tk.step, buf, sizeof buf);
        } else {
            v = b;
            if (tk.n && b - motus_ticks_value(&tk, tk.n - 1) < 0.4 * tk.step) continue;
            motus_ticks_format(v, tk.step / 10, buf, sizeof buf);
        }
        double y = by + (1 - (v - a) / (b - a)) * (bh - 1);
        cairo_set_source_rgb(cr, 0.12, 0.13, 0.16);
        cairo_move_to(cr, bx + bw, y);
        cairo_line_to(cr, bx + bw + 4, y);
        cairo_stroke(cr);
        pango_layout_set_text(l, buf, -1);
        pango_layout_get_pixel_size(l, &tw, &th);
        cairo_move_to(cr, bx + bw + 7, y - th / 2.0);
        pango_cairo_show_layout(cr, l);
    }
    /* foot: the deformation scale and what the range is */
    const char *what = preview                                    ? ""
                       : self->range_mode == MOTUS_RANGE_FIXED   ? _("fixed range")
                       : self->range_mode == MOTUS_RANGE_RUN && self->run_max[f == MOTUS_FIELD_VONMISES] > 0
                           ? _("run maximum")
                           : _("this frame");
    /* TRANSLATORS: legend foot: deformation scale factor, then how the colour range is chosen. */
    g_autofree char *foot_text = g_strdup_printf(_("deformation ×%g\n%s"), self->deform, what);
    pango_layout_set_text(l, foot_text, -1);
    cairo_set_source_rgb(cr, 0.25, 0.27, 0.32);
    cairo_move_to(cr, 8, by + bh + 6);
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}

static gboolean preview_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    MotusViewport *self = data;
    if (self->prev_body < 0) {
        self->prev_tick = 0;
        return G_SOURCE_REMOVE;
    }
    const MotusFlexMesh *fm = self->scene->body[self->prev_body].flex;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    if (!self->prev_t0) self->prev_t0 = now;
    double t = (double)(now - self->prev_t0) * 1e-6;
    self->wp[fm->moff + self->prev_mode] = self->prev_amp * sin(2 * G_PI * t / PREVIEW_PERIOD);
    update_rig(self);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return G_SOURCE_CONTINUE;
}

/* ---- public: flexible bodies ------------------------------------------------------- */

int motus_viewport_n_modal(MotusViewport *self) { return self->scene ? self->scene->nmodal : 0; }

void motus_viewport_set_modal(MotusViewport *self, const double *w, int n)
{
    if (!self->w) return;
    int nm = self->scene->nmodal;
    if (w && n == nm)
        memcpy(self->w, w, sizeof(double) * (size_t)nm);
    else
        memset(self->w, 0, sizeof(double) * (size_t)nm);
    if (self->prev_body >= 0) return; /* the preview's own coordinates are drawn */
    flex_refresh(self);
}

static void apply_scale(MotusViewport *self, double scale)
{
    self->deform = scale;
    self->flex_quiet = TRUE;
    if (gtk_spin_button_get_value(GTK_SPIN_BUTTON(self->scale_spin)) != scale)
        gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->scale_spin), scale);
    self->flex_quiet = FALSE;
    if (self->prev_body >= 0) motus_viewport_preview_mode(self, self->prev_body, self->prev_mode);
    flex_refresh(self);
}

void motus_viewport_set_deformation_scale(MotusViewport *self, double scale)
{
    if (!(scale >= 0) || !isfinite(scale)) return;
    self->deform_chosen = TRUE;
    apply_scale(self, scale);
}

gboolean motus_viewport_propose_view(MotusViewport *self, double scale, MotusField field)
{
    gboolean done = FALSE;
    if (!self->deform_chosen && scale > 0 && isfinite(scale) && scale != self->deform) apply_scale(self, scale), done = TRUE;
    if (!self->field_chosen && self->field == MOTUS_FIELD_NONE && field != MOTUS_FIELD_NONE) {
        motus_viewport_set_colour_field(self, field);
        self->field_chosen = FALSE; /* still the proposal: the next run may propose again */
        done = TRUE;
    }
    return done;
}

double motus_viewport_get_deformation_scale(MotusViewport *self) { return self->deform; }

void motus_viewport_set_colour_field(MotusViewport *self, MotusField field)
{
    if (field > MOTUS_FIELD_VONMISES) return;
    self->field = field;
    self->field_chosen = TRUE;
    self->flex_quiet = TRUE;
    gtk_drop_down_set_selected(GTK_DROP_DOWN(self->field_dd), field);
    self->flex_quiet = FALSE;
    update_frame_max(self);
    flex_widgets(self);
    flex_refresh(self);
}

MotusField motus_viewport_get_colour_field(MotusViewport *self) { return self->field; }

void motus_viewport_set_colour_range(MotusViewport *self, MotusRangeMode mode, double lo, double hi)
{
    if (mode > MOTUS_RANGE_FIXED) return;
    self->range_mode = mode;
    if (mode == MOTUS_RANGE_FIXED && isfinite(lo) && isfinite(hi)) self->fixed_lo = lo, self->fixed_hi = hi;
    self->flex_quiet = TRUE;
    gtk_drop_down_set_selected(GTK_DROP_DOWN(self->range_dd), mode);
    self->flex_quiet = FALSE;
    flex_widgets(self);
    flex_refresh(self);
}

MotusRangeMode motus_viewport_get_range_mode(MotusViewport *self) { return self->range_mode; }

void motus_viewport_set_run_max(MotusViewport *self, double disp, double von_mises)
{
    /* every run start resets the maxima: a view with nothing new to show is not drawn again */
    if (self->run_max[0] == disp && self->run_max[1] == von_mises) return;
    self->run_max[0] = disp;
    self->run_max[1] = von_mises;
    flex_refresh(self);
}

gboolean motus_viewport_get_colour_range(MotusViewport *self, double *lo, double *hi)
{
    if (self->field == MOTUS_FIELD_NONE || !self->scene || !self->scene->nmodal) return FALSE;
    current_range(self, lo, hi);
    return TRUE;
}

GtkWidget *motus_viewport_get_legend(MotusViewport *self) { return self->legend; }

const char *motus_viewport_legend_unit(MotusViewport *self)
{
    const MtUnit *u = field_unit(self, self->field);
    return u ? u->name : NULL;
}

const char *motus_viewport_legend_note(MotusViewport *self)
{
    /* Beams have no surface stress: a bar from 0 to 0 would read as an unloaded body. */
    if (self->prev_body < 0 && shown_field(self) == MOTUS_FIELD_VONMISES && !self->has_stress)
        /* TRANSLATORS: legend when stress was asked for but no flexible body has it. */
        return _("Not available: beam elements carry no surface stress. "
                 "Show Displacement, or model the body with shells or solids.");
    return NULL;
}

int motus_viewport_flex_n_vertices(MotusViewport *self, int body)
{
    if (!self->scene || body < 0 || body >= self->scene->nbody || !self->scene->body[body].flex) return 0;
    return self->scene->body[body].flex->info.nsv;
}

int motus_viewport_flex_peak_vertex(MotusViewport *self, int body)
{
    int n = motus_viewport_flex_n_vertices(self, body), best = -1;
    const MotusFlexMesh *fm = n ? self->scene->body[body].flex : NULL;
    const double *w = shown_w(self);
    double bd = -1;
    for (int v = 0; w && v < n; v++) {
        double u[3];
        mt_flexview_disp(fm->fb, w + fm->moff, self->rig + 6 * body, v, u);
        double d = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        if (d > bd) bd = d, best = v;
    }
    return best;
}

gboolean motus_viewport_flex_vertex(MotusViewport *self, int body, int v, double scale, double out[3])
{
    if (!self->scene || body < 0 || body >= self->scene->nbody || !self->scene->body[body].flex) return FALSE;
    const MotusFlexMesh *fm = self->scene->body[body].flex;
    if (v < 0 || v >= fm->info.nsv) return FALSE;
    double u[3] = {0, 0, 0}, p[3];
    const double *w = shown_w(self);
    if (w) mt_flexview_disp(fm->fb, w + fm->moff, self->rig + 6 * body, v, u);
    for (int c = 0; c < 3; c++) p[c] = fm->info.sv_x[3 * v + c] + scale * u[c];
    return motus_viewport_body_to_world(self, body, p, out);
}

void motus_viewport_preview_mode(MotusViewport *self, int body, int mode)
{
    const MotusFlexMesh *fm =
        self->scene && body >= 0 && body < self->scene->nbody ? self->scene->body[body].flex : NULL;
    if (!fm || mode < 0 || mode >= fm->info.nmode) {
        if (self->prev_tick) gtk_widget_remove_tick_callback(self->area, self->prev_tick);
        self->prev_tick = 0;
        gboolean was = self->prev_body >= 0;
        self->prev_body = self->prev_mode = -1;
        if (was && self->legend) {
            flex_widgets(self);
            flex_refresh(self);
        }
        return;
    }
    if (self->wp) memset(self->wp, 0, sizeof(double) * (size_t)self->scene->nmodal);
    self->prev_body = body;
    self->prev_mode = mode;
    self->prev_t0 = 0;
    /* the shape moves by a tenth of the body's size on screen, whatever the deformation scale */
    double peak = 0.1 * mt_flexview_size(fm->fb) / (self->deform > 0 ? self->deform : 1);
    self->prev_amp = mt_flexview_mode_amplitude(fm->fb, mode, peak);
    self->wp[fm->moff + mode] = self->prev_amp;
    update_rig(self);
    for (int f = 0; f < MT_FLEXFIELD_COUNT; f++)
        self->prev_peak[f] = mt_flexview_field(fm->fb, self->wp + fm->moff, self->rig + 6 * body, (MtFlexField)f, NULL);
    if (!self->prev_tick) self->prev_tick = gtk_widget_add_tick_callback(self->area, preview_tick, self, NULL);
    flex_widgets(self);
    gtk_widget_queue_draw(self->legend);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_preview_body(MotusViewport *self) { return self->prev_body; }
int motus_viewport_preview_index(MotusViewport *self) { return self->prev_mode; }

/* The bar of controls for flexible bodies (bottom right) and the legend (right). */
void motus_viewport_flex_controls_init(MotusViewport *self)
{
    self->deform = 1;
    self->prev_body = self->prev_mode = -1;
    self->flexbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_add_css_class(self->flexbar, "osd");
    gtk_widget_add_css_class(self->flexbar, "toolbar");
    gtk_widget_set_halign(self->flexbar, GTK_ALIGN_END);
    gtk_widget_set_valign(self->flexbar, GTK_ALIGN_END);
    gtk_widget_set_margin_end(self->flexbar, 8);
    gtk_widget_set_margin_bottom(self->flexbar, 8);
    /* TRANSLATORS: label before the deformation scale factor of flexible bodies. */
    gtk_box_append(GTK_BOX(self->flexbar), gtk_label_new(_("Deformation ×")));
    self->scale_spin = gtk_spin_button_new_with_range(0, 1e6, 1);
    gtk_spin_button_set_digits(GTK_SPIN_BUTTON(self->scale_spin), 0);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->scale_spin), 1);
    gtk_editable_set_width_chars(GTK_EDITABLE(self->scale_spin), 5);
    gtk_widget_set_tooltip_text(self->scale_spin, _("Scale factor of the elastic deformation drawn"));
    g_signal_connect(self->scale_spin, "value-changed", G_CALLBACK(scale_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->scale_spin);
    const char *fields[] = {_("Plain"), _("Displacement"), _("von Mises stress"), NULL};
    self->field_dd = gtk_drop_down_new_from_strings(fields);
    gtk_widget_set_tooltip_text(self->field_dd, _("Colour flexible bodies by a field"));
    g_signal_connect(self->field_dd, "notify::selected", G_CALLBACK(field_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->field_dd);
    const char *ranges[] = {_("Run maximum"), _("This frame"), _("Fixed range"), NULL};
    self->range_dd = gtk_drop_down_new_from_strings(ranges);
    gtk_widget_set_tooltip_text(self->range_dd, _("What the colour scale spans: the largest value of the run, of the "
                                                  "frame shown, or a range you type"));
    g_signal_connect(self->range_dd, "notify::selected", G_CALLBACK(range_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->range_dd);
    self->lo_entry = gtk_entry_new();
    self->hi_entry = gtk_entry_new();
    GtkWidget *ents[2] = {self->lo_entry, self->hi_entry};
    for (int i = 0; i < 2; i++) {
        gtk_editable_set_width_chars(GTK_EDITABLE(ents[i]), 8);
        gtk_widget_set_tooltip_text(ents[i], i ? _("Top of the colour scale (a unit may follow: 250 MPa)")
                                               : _("Bottom of the colour scale"));
        g_signal_connect(ents[i], "activate", G_CALLBACK(bound_activated), self);
        gtk_box_append(GTK_BOX(self->flexbar), ents[i]);
    }
    GtkWidget *modes = gtk_button_new_with_label(_("Modes…"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(modes), "win.flex-modes");
    gtk_widget_set_tooltip_text(modes, _("List the modes of a flexible body and animate their shapes"));
    gtk_widget_set_focus_on_click(modes, FALSE);
    gtk_box_append(GTK_BOX(self->flexbar), modes);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->flexbar);
    gtk_widget_set_visible(self->flexbar, FALSE);

    self->legend = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->legend, FALSE);
    gtk_widget_set_halign(self->legend, GTK_ALIGN_END);
    /* from below the view buttons down to the control bar: in a short view (plots open under it) the
     * legend shrinks instead of sliding under the bar; legend_draw keeps it at most LEGEND_H tall */
    gtk_widget_set_valign(self->legend, GTK_ALIGN_FILL);
    gtk_widget_set_margin_top(self->legend, 48);
    gtk_widget_set_margin_end(self->legend, 8);
    gtk_widget_set_margin_bottom(self->legend, 76);
    gtk_widget_set_size_request(self->legend, 132, 150);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->legend), legend_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->legend);
    gtk_widget_set_visible(self->legend, FALSE);
}

/* ---- public ---------------------------------------------------------------------- */

