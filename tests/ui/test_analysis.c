/* Statics, kinematics and modes from the window, driven for real under
 * Xvfb (ctest gui_analysis): F7 and F9 pressed and the header bar's
 * "Analysis" menu clicked through XTest (xinput.h), then the outcome checked
 * against closed forms:
 *   statics   a 2 kg mass on a 400 N/m spring sits m g / k lower, the
 *             spring pulls m g, the view draws the mass there;
 *   modes     the same mass vibrates at sqrt(k/m) / 2 pi with damping ratio
 *             c / (2 sqrt(k m)); the steel strip of
 *             tests/cli/cantilever-flex.motus.txt clamped at one end bends
 *             first at 1.8751² sqrt(EI / (rho A L⁴)) / 2 pi (within 0.1 %),
 *             the table's row shows it, a click on it animates the strip;
 *   kinematics the driven slider-crank: frames to its end time, the slider
 *             where the crank puts it (r cos θ + sqrt(l² − r² sin² θ)),
 *             the plot has its curve.
 * Screenshots of the statics window, the mode table and an animated mode
 * stay in build/tests/ui (analysis-*.png). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "motus-plot.h"
#include "motus-window-analysis.h"
#include "motus/store.h"
#include "ui-app.h"


static MotusAnalysisKind want_kind;
static const MotusAnalysis *before; /* the result shown when the analysis waited for was started */
static const MotusAnalysis *result(void)
{
    const MotusAnalysis *a = motus_window_analysis_result(win);
    return a && a->kind == want_kind ? a : NULL;
}
static gboolean analysis_done(void)
{
    return result() && result() != before && !motus_window_is_running(win);
}
static gboolean dialog_shown(void)
{
    GtkWidget *d = motus_window_analysis_dialog(win);
    return d && gtk_widget_get_mapped(d);
}
static gboolean animating(void) { return motus_window_analysis_animated(win) == 0; }
static int want_mode;
static gboolean animating_want(void) { return motus_window_analysis_animated(win) == want_mode; }
static gboolean playing(void) { return motus_window_is_playing(win); }
static gboolean not_playing(void) { return !motus_window_is_playing(win); }
static gboolean later(void) { return motus_window_get_time(win) > 0.55; }

/* The "Analysis" menu's item with this label, when shown. */
static GtkWidget *menu_item(const char *label)
{
    GtkPopover *pop = gtk_menu_button_get_popover(GTK_MENU_BUTTON(motus_window_analysis_button(win)));
    GtkWidget *w = pop ? xin_find(GTK_WIDGET(pop), xin_has_label, label) : NULL;
    return w && gtk_widget_get_mapped(w) ? w : NULL;
}
static const char *item_wanted;
static gboolean item_shown(void) { return menu_item(item_wanted) != NULL; }

/* Opens the header bar's "Analysis" menu and clicks an item, as a user does. */
static void choose(const char *label)
{
    focus_main();
    GtkWidget *b = motus_window_analysis_button(win);
    g_assert_true(gtk_widget_get_mapped(b));
    g_assert_nonnull(xin_find(b, xin_has_label, "Analysis"));
    xin_click(b);
    item_wanted = label;
    g_assert_true(wait_for(item_shown, 5));
    settle_for(0.2);
    shot(GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(b))), "analysis-menu.png"); /* for a person to look at */
    xin_click(menu_item(label));
}

/* A label whose text holds the given words. */
static gboolean label_has(GtkWidget *w, gconstpointer text)
{
    return GTK_IS_LABEL(w) && strstr(gtk_label_get_text(GTK_LABEL(w)), text);
}

/* The text of label `col` of row `row` of the mode table. */
static const char *mode_cell(int row, int col)
{
    GtkListBoxRow *r = gtk_list_box_get_row_at_index(GTK_LIST_BOX(motus_window_analysis_mode_list(win)), row);
    g_assert_nonnull(r);
    GtkWidget *box = gtk_list_box_row_get_child(r), *l = gtk_widget_get_first_child(box);
    for (int i = 0; i < col && l; i++) l = gtk_widget_get_next_sibling(l);
    g_assert_true(GTK_IS_LABEL(l));
    return gtk_label_get_text(GTK_LABEL(l));
}

static char *clip_text;
/* The window's own clipboard content, once the copy came (read from its provider: the test runs in the C
 * locale, where reading the text back as a stream would convert it). */
static gboolean clipboard_read(void)
{
    GdkContentProvider *p = gdk_clipboard_get_content(gtk_widget_get_clipboard(GTK_WIDGET(win)));
    GValue v = G_VALUE_INIT;
    g_value_init(&v, G_TYPE_STRING);
    if (p && gdk_content_provider_get_value(p, &v, NULL)) {
        g_free(clip_text);
        clip_text = g_value_dup_string(&v);
    }
    g_value_unset(&v);
    return clip_text && strchr(clip_text, '\t');
}

static const double g = 9.81, m_mass = 2, k_spring = 400, c_spring = 0.7, y_free = 0.2;

/* F7: the mass sits m g / k lower, the spring holds m g, and the view draws it there. */
static void test_statics(void)
{
    g_autofree char *path = g_build_filename(MOTUS_UI_DIR, "spring-mass.motus.txt", NULL);
    open_model(path);
    settle_for(0.3);
    double x0, y0, x1, y1;
    g_assert_true(motus_viewport_project_body(MOTUS_VIEWPORT(motus_window_get_viewport(win)), 0, &x0, &y0));
    focus_main();
    want_kind = MOTUS_ANALYSIS_STATICS, before = motus_window_analysis_result(win);
    xin_press("F7");
    g_assert_true(wait_for(analysis_done, 30));
    g_assert_true(wait_for(dialog_shown, 5));
    const MotusAnalysis *a = result();
    double y = a->body_pos[1], want = y_free - m_mass * g / k_spring;
    g_test_message("statics: y = %.12g m (closed form %.12g), tension %.12g N; status: %s", y, want, a->spring[1],
                   motus_window_get_status(win));
    g_assert_cmpfloat(fabs(y - want), <, 1e-9 * want);
    g_assert_cmpfloat(fabs(a->spring[1] - m_mass * g), <, 1e-9 * m_mass * g);
    g_assert_cmpfloat(fabs(a->spring[0] - (0.8 + m_mass * g / k_spring)), <, 1e-9);
    g_assert_cmpint(a->statics.negative, ==, 0);
    g_assert_nonnull(strstr(motus_window_get_status(win), "Static equilibrium (stable)"));
    /* the equilibrium is one frame, and the view draws the mass lower (project y up: screen y down) */
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 1);
    settle_for(0.3);
    g_assert_true(motus_viewport_project_body(MOTUS_VIEWPORT(motus_window_get_viewport(win)), 0, &x1, &y1));
    g_test_message("mass on screen: y %.1f -> %.1f px", y0, y1);
    g_assert_cmpfloat(y1, >, y0 + 1);
    /* the window lists the spring's tension as the grid shows it */
    GtkWidget *d = motus_window_analysis_dialog(win);
    g_assert_nonnull(xin_find(d, xin_has_label, "19.62"));
    settle_for(0.3);
    shot(d, "analysis-statics.png");
    /* Copy as Text puts the tables on the clipboard, tab-separated */
    xin_focus(d);
    settle_for(0.2);
    xin_click(xin_find(d, xin_has_label, "Copy as Text"));
    g_assert_true(wait_for(clipboard_read, 5));
    g_test_message("clipboard: %zu bytes", strlen(clip_text));
    g_assert_nonnull(strstr(clip_text, "\nsp\t0.84905\t19.62\n"));
    g_assert_nonnull(strstr(clip_text, "\nmass\t0\t0.15095\t0\n"));
    g_clear_pointer(&clip_text, g_free);
}

/* F9 on the same model: one mode at sqrt(k/m) / 2 pi, damping ratio c / (2 sqrt(k m)). */
static void test_modes_spring(void)
{
    focus_main();
    want_kind = MOTUS_ANALYSIS_MODES, before = motus_window_analysis_result(win);
    xin_press("F9");
    g_assert_true(wait_for(analysis_done, 30));
    g_assert_true(wait_for(dialog_shown, 5));
    const MotusAnalysis *a = result();
    const MtModes *md = a->modes;
    double f = sqrt(k_spring / m_mass) / (2 * G_PI), zeta = c_spring / (2 * sqrt(k_spring * m_mass));
    g_assert_cmpint(md->nmode, ==, 1);
    g_test_message("mode 1: %.12g Hz (closed form %.12g), zeta %.12g (%.12g); row: %s Hz", md->mode[0].freq, f,
                   md->mode[0].zeta, zeta, mode_cell(0, 1));
    g_assert_cmpfloat(fabs(md->mode[0].freq / f - 1), <, 1e-9);
    g_assert_cmpfloat(fabs(md->mode[0].zeta / zeta - 1), <, 1e-9);
    g_assert_cmpfloat(fabs(g_ascii_strtod(mode_cell(0, 1), NULL) / f - 1), <, 1e-6);
    g_assert_cmpstr(mode_cell(0, 3), ==, "oscillatory");
    /* a click on the row animates it: the mass moves up and down on screen about its equilibrium */
    GtkWidget *d = motus_window_analysis_dialog(win);
    xin_focus(d);
    settle_for(0.2);
    xin_click(GTK_WIDGET(gtk_list_box_get_row_at_index(GTK_LIST_BOX(motus_window_analysis_mode_list(win)), 0)));
    g_assert_true(wait_for(animating, 5));
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(win));
    double lo = INFINITY, hi = -INFINITY, x, y;
    for (int i = 0; i < 30; i++) {
        settle_for(0.06);
        g_assert_true(motus_viewport_project_body(vp, 0, &x, &y));
        lo = fmin(lo, y), hi = fmax(hi, y);
    }
    g_test_message("animated rigid mode: the mass's screen y spans %.1f px", hi - lo);
    g_assert_cmpfloat(hi - lo, >, 10);
    gtk_window_destroy(GTK_WINDOW(d));
    g_assert_cmpint(motus_window_analysis_animated(win), ==, -1);
}

/* The clamped strip, modes chosen from the menu by clicks: the first bending frequency within 0.1 % of
 * Euler–Bernoulli; a click on its row animates it (the strip bends and moves on screen). */
static void test_modes_flexible(void)
{
    g_autofree char *path = g_build_filename(MOTUS_CLI_DIR, "cantilever-flex.motus.txt", NULL);
    open_model(path);
    settle_for(0.3);
    const double E = 2.1e11, rho = 7850, b = 0.006, h = 0.004, L = 1, I = b * h * h * h / 12;
    /* statics first: the tip sags q L⁴ / 8EI (bending across the 6 mm side), the colour map spans it */
    focus_main();
    want_kind = MOTUS_ANALYSIS_STATICS, before = motus_window_analysis_result(win);
    xin_press("F7");
    g_assert_true(wait_for(analysis_done, 60));
    g_assert_true(wait_for(dialog_shown, 5));
    double sag = rho * b * h * g * pow(L, 4) / (8 * E * h * b * b * b / 12), lo, hi;
    const MotusAnalysis *st = result();
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(win));
    g_assert_true(motus_viewport_get_colour_range(vp, &lo, &hi));
    g_test_message("strip statics: largest displacement %.9g mm, q L^4/8EI %.9g mm (%.2e); colour map %g .. %g m, "
                   "largest von Mises %g MPa", st->flex_max[0] * 1e3, sag * 1e3, st->flex_max[0] / sag - 1, lo, hi,
                   st->flex_max[1] * 1e-6);
    g_assert_cmpfloat(fabs(st->flex_max[0] / sag - 1), <, 1e-3);
    double static_max = st->flex_max[0];
    /* the clamp holds the strip's weight and its moment about the root */
    double W = rho * b * h * L * g;
    g_test_message("clamp reaction Fy %.12g N (m g %.12g), Tz %.12g N m (m g L/2 %.12g)", st->reaction[1], W,
                   st->reaction[5], W * L / 2);
    g_assert_cmpfloat(fabs(st->reaction[1] / W - 1), <, 1e-9);
    /* the moment within the reduction's error (16 Craig-Bampton modes: -6.6e-5, as the sag's) */
    g_assert_cmpfloat(fabs(st->reaction[5] / (W * L / 2) - 1), <, 2e-4);
    g_assert_cmpfloat(fabs(hi / st->flex_max[0] - 1), <, 1e-6);
    g_assert_cmpint(motus_viewport_get_colour_field(vp), ==, MOTUS_FIELD_DISPLACEMENT);
    settle_for(0.3);
    motus_window_save_screenshot(win, MOTUS_OUT_DIR "/analysis-statics-flex.png", NULL);
    want_kind = MOTUS_ANALYSIS_MODES, before = motus_window_analysis_result(win);
    choose("Modes");
    g_assert_true(wait_for(analysis_done, 60));
    g_assert_true(wait_for(dialog_shown, 5));
    const MtModes *md = result()->modes;
    double f = 1.875104069 * 1.875104069 * sqrt(E * I / (rho * b * h * pow(L, 4))) / (2 * G_PI);
    g_assert_cmpint(md->mode[0].kind, ==, MT_MODE_OSCILLATORY);
    g_test_message("strip: first mode %.9g Hz, Euler-Bernoulli %.9g Hz (%.2e relative); row: %s", md->mode[0].freq, f,
                   md->mode[0].freq / f - 1, mode_cell(0, 1));
    g_assert_cmpfloat(fabs(md->mode[0].freq / f - 1), <, 1e-3);
    g_assert_cmpfloat(fabs(g_ascii_strtod(mode_cell(0, 1), NULL) / f - 1), <, 1e-3);
    GtkWidget *d = motus_window_analysis_dialog(win);
    settle_for(0.3);
    shot(d, "analysis-modes-table.png");
    /* a click on the first row animates the mode: the strip's tip moves on screen */
    xin_focus(d);
    settle_for(0.2);
    GtkListBoxRow *row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(motus_window_analysis_mode_list(win)), 0);
    xin_click(GTK_WIDGET(row));
    g_assert_true(wait_for(animating, 5));
    focus_main();
    /* from the top: the first mode bends the strip across its thin side, along z */
    xin_click(xin_find(motus_window_get_viewport(win), xin_has_label, "Top"));
    settle_for(0.2);
    int n = motus_viewport_flex_n_vertices(vp, 0), tip = -1;
    g_assert_cmpint(n, >, 0);
    double p[3], x, y, far = -INFINITY, best = 0;
    lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < n; v++) /* the vertex farthest along the strip, undeformed: its tip */
        if (motus_viewport_flex_vertex(vp, 0, v, 0, p) && p[0] > far) far = p[0], tip = v;
    for (int i = 0; i < 30; i++) {
        settle_for(0.06);
        g_assert_true(motus_viewport_flex_vertex(vp, 0, tip, motus_viewport_get_deformation_scale(vp), p));
        if (!motus_viewport_project_point(vp, p, &x, &y)) continue; /* swung out of the view */
        lo = fmin(lo, y), hi = fmax(hi, y);
        if (fabs(p[2]) > best) { /* the screenshot at the largest swing */
            best = fabs(p[2]);
            motus_window_save_screenshot(win, MOTUS_OUT_DIR "/analysis-mode-animated.png", NULL);
        }
    }
    g_test_message("animated mode 1: the tip's screen y spans %.1f px", hi - lo);
    g_assert_cmpfloat(hi - lo, >, 20);
    g_test_message("the tip swings %.3g m across the strip (a twentieth of its length, RMS over the strip)", best);
    /* the colours span the mode's deformation while it animates, the frame's again afterwards */
    double clo, chi;
    g_assert_true(motus_viewport_get_colour_range(vp, &clo, &chi));
    g_test_message("colour range while animating: %g .. %g m, deformation scale %g", clo, chi, motus_viewport_get_deformation_scale(vp));
    g_assert_cmpfloat(chi, >, 2 * static_max); /* the field is relative to the supports (root and tip markers) */
    gtk_window_destroy(GTK_WINDOW(d));
    g_assert_cmpint(motus_window_analysis_animated(win), ==, -1);
    g_assert_true(motus_viewport_get_colour_range(vp, &clo, &chi));
    g_test_message("colour range of the equilibrium frame: %g .. %g m", clo, chi);
    g_assert_cmpfloat(fabs(chi / static_max - 1), <, 1e-6);
}

/* The strip on a hinge: its turn is a free motion (0 Hz), and its bending in the hinge's plane is the
 * pinned-free beam's (beta L = 3.9266), where the strip turns about the hinge as it bends: animated, the
 * body's frame turns and the strip deforms in the same picture. */
static void test_modes_hinged(void)
{
    g_autofree char *path = g_build_filename(MOTUS_CLI_DIR, "hinged-flex.motus.txt", NULL);
    open_model(path);
    settle_for(0.3);
    focus_main();
    want_kind = MOTUS_ANALYSIS_MODES, before = motus_window_analysis_result(win);
    xin_press("F9");
    g_assert_true(wait_for(analysis_done, 60));
    g_assert_true(wait_for(dialog_shown, 5));
    const MtModes *md = result()->modes;
    const double E = 2.1e11, rho = 7850, b = 0.006, h = 0.004, L = 1, I = h * b * b * b / 12, bl = 3.926602312;
    double f = bl * bl * sqrt(E * I / (rho * b * h * pow(L, 4))) / (2 * G_PI);
    g_assert_cmpint(md->mode[0].kind, ==, MT_MODE_RIGID);
    g_assert_cmpstr(mode_cell(0, 3), ==, "free motion");
    int k = 3;
    g_test_message("hinged strip: mode 4 %.9g Hz, pinned-free Euler-Bernoulli %.9g Hz (%.2e)", md->mode[k].freq, f,
                   md->mode[k].freq / f - 1);
    g_assert_cmpfloat(fabs(md->mode[k].freq / f - 1), <, 1e-3);
    GtkWidget *d = motus_window_analysis_dialog(win);
    xin_focus(d);
    settle_for(0.2);
    xin_click(GTK_WIDGET(gtk_list_box_get_row_at_index(GTK_LIST_BOX(motus_window_analysis_mode_list(win)), k)));
    want_mode = k;
    g_assert_true(wait_for(animating_want, 5));
    focus_main();
    xin_click(xin_find(motus_window_get_viewport(win), xin_has_label, "Front")); /* the hinge's plane: x-y */
    settle_for(0.2);
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(win));
    int n = motus_viewport_flex_n_vertices(vp, 0), mid = -1;
    double p[3], best = INFINITY, clo = INFINITY, chi = -INFINITY, dlo = INFINITY, dhi = -INFINITY, big = 0;
    for (int v = 0; v < n; v++) /* a vertex near the middle of the strip, undeformed */
        if (motus_viewport_flex_vertex(vp, 0, v, 0, p) && fabs(p[0] - 0.5) < best) best = fabs(p[0] - 0.5), mid = v;
    for (int i = 0; i < 30; i++) {
        settle_for(0.06);
        double x, y, q[3];
        g_assert_true(motus_viewport_project_body(vp, 0, &x, &y)); /* the frame: rigid motion */
        clo = fmin(clo, y), chi = fmax(chi, y);
        g_assert_true(motus_viewport_flex_vertex(vp, 0, mid, 1, p)); /* deformed minus rigid: elastic motion */
        g_assert_true(motus_viewport_flex_vertex(vp, 0, mid, 0, q));
        dlo = fmin(dlo, p[1] - q[1]), dhi = fmax(dhi, p[1] - q[1]);
        if (fabs(p[1] - q[1]) > big) {
            big = fabs(p[1] - q[1]);
            motus_window_save_screenshot(win, MOTUS_OUT_DIR "/analysis-mode-hinged.png", NULL);
        }
    }
    g_test_message("pinned-free mode: the frame's centre spans %.1f px, the middle's elastic deflection %.3g m", chi - clo,
                   dhi - dlo);
    g_assert_cmpfloat(chi - clo, >, 5);
    g_assert_cmpfloat(dhi - dlo, >, 0.02);
    gtk_window_destroy(GTK_WINDOW(d));
}

/* The planar four-bar built upright (tests/cli/fourbar.motus.txt): F7 finds the equilibrium nearest the
 * start, unstable, lowest eigenvalue of M⁻¹K −(2 m a + m_c r) g / (2 (I + m a²) + m_c r²) = −115.412 1/s²;
 * "Statics, Settling Downhill" from the menu finds it hanging, stable, +115.412 1/s². */
static void test_statics_relax(void)
{
    g_autofree char *path = g_build_filename(MOTUS_CLI_DIR, "fourbar.motus.txt", NULL);
    open_model(path);
    settle_for(0.3);
    const double m = 1, a = 0.05, I = 1e-3, mc = 1, r = 0.1;
    double lam = (2 * m * a + mc * r) * g / (2 * (I + m * a * a) + mc * r * r);
    focus_main();
    want_kind = MOTUS_ANALYSIS_STATICS, before = motus_window_analysis_result(win);
    xin_press("F7");
    g_assert_true(wait_for(analysis_done, 30));
    const MotusAnalysis *st = result();
    g_test_message("upright: %d unstable direction(s), lowest eigenvalue %.9g 1/s^2 (closed form %.9g); status: %s",
                   st->statics.negative, st->statics.lowest, -lam, motus_window_get_status(win));
    g_assert_cmpint(st->statics.negative, ==, 1);
    g_assert_cmpfloat(fabs(st->statics.lowest / -lam - 1), <, 1e-9);
    g_assert_nonnull(strstr(motus_window_get_status(win), "(unstable)"));
    g_assert_true(wait_for(dialog_shown, 5));
    g_assert_nonnull(xin_find(motus_window_analysis_dialog(win), label_has,
                              "UNSTABLE: 1 direction(s) with negative stiffness (lowest eigenvalue of M⁻¹K: -115.412 1/s²)."));
    gtk_window_destroy(GTK_WINDOW(motus_window_analysis_dialog(win)));
    before = motus_window_analysis_result(win);
    choose("Statics, Settling Downhill");
    g_assert_true(wait_for(analysis_done, 30));
    st = result();
    g_test_message("settled (relax %d, %ld relaxation steps): %d unstable, lowest eigenvalue %.9g 1/s^2 (closed form %.9g)", st->relax, st->statics.relax_steps, st->statics.negative,
                   st->statics.lowest, lam);
    g_assert_cmpint(st->statics.negative, ==, 0);
    g_assert_cmpfloat(fabs(st->statics.lowest / lam - 1), <, 1e-9);
    g_assert_true(wait_for(dialog_shown, 5));
    gtk_window_destroy(GTK_WINDOW(motus_window_analysis_dialog(win)));
}

/* The slider-crank's kinematics from the menu: every frame, the slider where the crank puts it, plotted. */
static void test_kinematics(void)
{
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "slider-crank.motus.txt", NULL);
    open_model(path);
    settle_for(0.3);
    want_kind = MOTUS_ANALYSIS_KINEMATICS, before = motus_window_analysis_result(win);
    choose("Kinematics");
    g_assert_true(wait_for(analysis_done, 60));
    guint n = motus_window_get_n_frames(win);
    g_test_message("kinematics: %u frames; status: %s", n, motus_window_get_status(win));
    g_assert_cmpuint(n, ==, 2001); /* 0 … 2 s every 1 ms */
    g_assert_nonnull(strstr(motus_window_get_status(win), "Kinematics: 2001 frames"));
    double *t, *x;
    guint k = motus_window_get_column(win, "slider.x", &t, &x);
    g_assert_cmpuint(k, ==, n);
    double worst = 0;
    for (guint i = 0; i < k; i++) {
        double th = 2 * G_PI * t[i], r = 0.1, l = 0.3;
        worst = fmax(worst, fabs(x[i] - (r * cos(th) + sqrt(l * l - r * r * sin(th) * sin(th)))));
    }
    g_test_message("slider position vs r cos(th) + sqrt(l^2 - r^2 sin^2(th)): largest difference %.3g m", worst);
    g_assert_cmpfloat(worst, <, 1e-9);
    g_free(t);
    g_free(x);
    g_assert_cmpint(motus_plot_n_curves(MOTUS_PLOT(motus_window_get_plot(win))), >, 0);
    /* and played back like a run's: Space plays from the start, the time moves */
    focus_main();
    motus_window_set_time(win, 0.5);
    /* the model tree's row took the keys when the model was opened (Space there is the row's) */
    g_assert_true(gtk_widget_grab_focus(motus_viewport_get_gl_area(MOTUS_VIEWPORT(motus_window_get_viewport(win)))));
    xin_press("space");
    g_assert_true(wait_for(playing, 5));
    g_assert_true(wait_for(later, 5));
    xin_press("space");
    g_assert_true(wait_for(not_playing, 5));
    settle_for(0.3);
    motus_window_save_screenshot(win, MOTUS_OUT_DIR "/analysis-kinematics.png", NULL);
}

/* A model with a body connected to nothing: statics fails in words naming it, the window stays. */
static void test_statics_error(void)
{
    g_autofree char *path = g_build_filename(MOTUS_OUT_DIR, "free-rock.motus.txt", NULL);
    g_assert_true(g_file_set_contents(path,
                                      "gravity 0 -9.81 0\nground\nend\nbody rock\n mass 1\n inertia 0.1 0.1 0.1\nend\n",
                                      -1, NULL));
    open_model(path);
    motus_window_set_batch(win, TRUE); /* the error goes to stderr instead of a dialog */
    focus_main();
    xin_press("F7");
    gint64 end = g_get_monotonic_time() + 20000000;
    while ((motus_window_is_running(win) || !strstr(motus_window_get_status(win), "failed")) &&
           g_get_monotonic_time() < end)
        settle_for(0.05);
    const char *status = motus_window_get_status(win);
    g_test_message("status: %s", status);
    g_assert_nonnull(strstr(status, "Statics failed"));
    g_assert_nonnull(strstr(status, "rock"));
    motus_window_set_batch(win, FALSE);
    g_unlink(path);
}

static gboolean running(void) { return motus_window_is_running(win); }
static gboolean not_running(void) { return !motus_window_is_running(win); }

/* Escape stops a long equilibrium search (a 40-link chain built horizontal: seconds of damped Newton
 * steps) within a moment, and the window says so. */
static void test_statics_stop(void)
{
    GString *t = g_string_new("gravity 0 -9.81 0\nground\n marker p\nend\n");
    for (int i = 0; i < 40; i++)
        g_string_append_printf(t, "body l%d\n mass 1\n com 0.05 0 0\n inertia 1e-4 1e-3 1e-3\n position %g 0 0\n"
                                  " marker a\n marker b at 0.1 0 0\nend\njoint j%d spherical l%d.a %s%d.b\n",
                               i, 0.1 * i, i, i, i ? "l" : "ground.p", i - 1);
    g_autofree char *text = g_string_free(t, FALSE);
    char *gp = strstr(text, "ground.p-1.b");
    memmove(gp + 8, gp + 12, strlen(gp + 12) + 1); /* the first link hangs from ground.p */
    g_autofree char *path = g_build_filename(MOTUS_OUT_DIR, "chain40.motus.txt", NULL);
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    open_model(path);
    focus_main();
    xin_press("F7");
    g_assert_true(wait_for(running, 5));
    settle_for(0.3);
    gint64 t0 = g_get_monotonic_time();
    xin_press("Escape");
    g_assert_true(wait_for(not_running, 10));
    double took = (double)(g_get_monotonic_time() - t0) * 1e-6;
    g_test_message("stopped %.2f s after Escape; status: %s", took, motus_window_get_status(win));
    g_assert_nonnull(strstr(motus_window_get_status(win), "Statics stopped"));
    g_assert_cmpfloat(took, <, 5); /* the whole search takes 3.8 s of CPU (12 s on the loaded test machine) */
    g_unlink(path);
}

/* The runs of a project and the log line of its newest one. */
static int project_runs(const char *path, MtRunInfo *last, char *log, size_t n)
{
    MtError err = {0};
    MtStore *st = mt_store_open(path, MT_STORE_READONLY, &err);
    g_assert_nonnull(st);
    MtRunInfo *runs = NULL;
    int nr = mt_store_list_runs(st, &runs, &err);
    g_assert_cmpint(nr, >=, 0);
    if (nr) *last = runs[nr - 1];
    free(runs);
    mt_store_close(st);
    log[0] = 0;
    sqlite3 *db;
    sqlite3_stmt *q;
    g_assert_cmpint(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint(sqlite3_prepare_v2(db, "SELECT message FROM run_log WHERE run_id = ?1 ORDER BY id", -1, &q, NULL), ==,
                    SQLITE_OK);
    sqlite3_bind_int64(q, 1, nr ? last->id : 0);
    if (sqlite3_step(q) == SQLITE_ROW) g_strlcpy(log, (const char *)sqlite3_column_text(q, 0), n);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return nr;
}

/* In a project, statics is stored as a run of one frame whose log says what made it; modes are kept as
 * modes, and shown again after the project is reopened ("Stored Modes" clicked in the menu);
 * kinematics of a mechanism with a free coordinate is refused naming it. */
static void test_stored(void)
{
    g_autofree char *src = g_build_filename(MOTUS_UI_DIR, "spring-mass.motus.txt", NULL);
    open_model(src);
    g_autofree char *dir = g_dir_make_tmp("motus-analysis-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "spring.motus", NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_as(win, path, &error));
    focus_main();
    want_kind = MOTUS_ANALYSIS_STATICS, before = motus_window_analysis_result(win);
    xin_press("F7");
    g_assert_true(wait_for(analysis_done, 30));
    MtRunInfo last;
    char log[256];
    g_assert_cmpint(project_runs(path, &last, log, sizeof log), ==, 1);
    g_test_message("run %ld: %s, %ld frame(s), log: %s", last.id, mt_run_status_name(last.status), last.frames, log);
    g_assert_cmpint(last.status, ==, MT_RUN_FINISHED);
    g_assert_cmpint(last.frames, ==, 1);
    g_assert_cmpstr(log, ==, "static equilibrium (statics)");
    want_kind = MOTUS_ANALYSIS_MODES, before = motus_window_analysis_result(win);
    focus_main();
    xin_press("F9");
    g_assert_true(wait_for(analysis_done, 30));
    g_assert_cmpint(project_runs(path, &last, log, sizeof log), ==, 1); /* modes make no run… */
    double f_computed = result()->modes->mode[0].freq;
    g_test_message("status: %s", motus_window_get_status(win));
    g_assert_nonnull(strstr(motus_window_get_status(win), "kept in the project"));
    long kept = motus_window_analysis_stored_modes(win); /* …they are kept as modes */
    g_assert_cmpint(kept, >, 0);
    /* reopened, "Stored Modes" from the menu shows them again: the same frequency, bit for bit, animated */
    gtk_window_destroy(GTK_WINDOW(motus_window_analysis_dialog(win)));
    open_model(src);
    open_model(path);
    g_assert_cmpint(motus_window_analysis_stored_modes(win), ==, kept);
    want_kind = MOTUS_ANALYSIS_MODES, before = motus_window_analysis_result(win);
    choose("Stored Modes");
    g_assert_true(wait_for(analysis_done, 30));
    g_assert_true(wait_for(dialog_shown, 5));
    const MtModes *back = result()->modes;
    g_test_message("stored modes %ld: %d, the first at %.17g Hz (computed %.17g)", kept, back->nmode, back->mode[0].freq,
                   f_computed);
    g_assert_cmpint(result()->stored_id, ==, kept);
    g_assert_cmpfloat(back->mode[0].freq, ==, f_computed);
    g_assert_cmpfloat(fabs(back->mode[0].freq / (sqrt(k_spring / m_mass) / (2 * G_PI)) - 1), <, 1e-9);
    g_assert_true(motus_window_analysis_animate(win, 0));
    g_assert_cmpint(project_runs(path, &last, log, sizeof log), ==, 1);
    /* kinematics needs every coordinate driven: the slide is free */
    motus_window_set_batch(win, TRUE);
    focus_main();
    xin_press("F8");
    gint64 end = g_get_monotonic_time() + 20000000;
    while ((motus_window_is_running(win) || !strstr(motus_window_get_status(win), "failed")) &&
           g_get_monotonic_time() < end)
        settle_for(0.05);
    motus_window_set_batch(win, FALSE);
    g_test_message("status: %s", motus_window_get_status(win));
    g_assert_nonnull(strstr(motus_window_get_status(win), "Kinematics failed"));
    g_assert_nonnull(strstr(motus_window_get_status(win), "'slide'"));
    gtk_window_destroy(GTK_WINDOW(motus_window_analysis_dialog(win)));
    open_model(src); /* the project's file can go */
    g_autofree char *wal = g_strconcat(path, "-wal", NULL), *shm = g_strconcat(path, "-shm", NULL);
    g_unlink(wal);
    g_unlink(shm);
    g_unlink(path);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusAnalysisTest");
    g_test_add_func("/analysis/statics", test_statics);
    g_test_add_func("/analysis/modes-spring", test_modes_spring);
    g_test_add_func("/analysis/modes-flexible", test_modes_flexible);
    g_test_add_func("/analysis/modes-hinged", test_modes_hinged);
    g_test_add_func("/analysis/statics-relax", test_statics_relax);
    g_test_add_func("/analysis/kinematics", test_kinematics);
    g_test_add_func("/analysis/statics-error", test_statics_error);
    g_test_add_func("/analysis/statics-stop", test_statics_stop);
    g_test_add_func("/analysis/stored", test_stored);
    return ui_app_finish(g_test_run());
}
