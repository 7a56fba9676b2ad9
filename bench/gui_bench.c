/* gui_bench.c — speed of the application's 3D view and main loop (bench/RESULTS.md,
 * "GUI"). Run under a display (xvfb-run for llvmpipe); never part of the tests.
 *
 *   gui_bench fps [BODIES [SECONDS]]      the 3D view alone in a 1280x800 window,
 *       a chain of BODIES steel spheres (2048 triangles each at full detail with
 *       their joint glyphs; 100 → 204 800), the camera turning every frame:
 *       frames per second, and the triangles drawn per frame with the levels
 *       of detail (far fewer: the spheres are a few pixels across).
 *   gui_bench fps-full [BODIES [SECONDS]]  the same with every body at full
 *       detail: the benchmark of 200k triangles at 1280x800.
 *       For both: GUI_BENCH_PRESET=K keeps one view (0 iso, 1 front, 2 top,
 *       3 right: the chain end-on) instead of turning through the four;
 *       GUI_BENCH_SHOT=FILE saves the window at the end; GUI_BENCH_FRAMES=N
 *       measures N frames instead of SECONDS, and under valgrind's callgrind
 *       (--instr-atstart=no) counts the instructions of those N frames only,
 *       all threads included: a figure that the other users of a shared
 *       machine do not change (commit 94deecb of bench/RESULTS.md).
 *   gui_bench window [BODIES [SECONDS [gizmo|full]]]   the same chain in the whole main
 *       window at 1280x800 (3D view, tree, plot …), the camera turning every
 *       frame, no run: frames per second of the window as a user orbiting sees
 *       it; "gizmo": with the move gizmo shown on the first body; "full": every
 *       body at full detail.
 *   gui_bench latency [BODIES [UNTIL [full]]]    the whole main window at 1280x800 with the
 *       same chain, run to UNTIL s on the worker while the view and plot follow
 *       live: intervals between frame-clock ticks of the window and the lateness
 *       of a 5 ms timer on the main loop during the run (median, 95th
 *       percentile, largest), and the CPU time of the solver thread and of
 *       the rest of the process (GTK, GL, llvmpipe) per window frame, which
 *       depends less on what else the machine runs than the intervals do;
 *       also the time motus_window_run took, every interval of the first 0.5 s
 *       and the main thread's CPU time in the first 0.25 s (the start of a
 *       run), and for the first four frames of the run and the median of the
 *       later ones the time of the frame's update and layout phases and of
 *       its paint (snapshot, render, upload); "full": every body at full detail
 *       (no levels of detail). GUI_BENCH_NODES=PREFIX writes the window's
 *       render nodes before the run and after its first three frames to
 *       PREFIX-K.node (compare them with diff to see what a frame changed);
 *       GUI_BENCH_SHOT=FILE saves the window after the run's fourth painted frame.
 *       After the run: the memory its frames take in the window (issue 20, point 8:
 *       under 50 MB for `latency 100 10`), the process's peak resident size, and the
 *       time to read a column no plot showed, to put two more in the plot and to
 *       show a frame (motus_window_set_time, 1000 frames spread over the run).
 *
 *   gui_bench flex MODEL [SECONDS [FIELD]]   the 3D view alone at 1280x800 showing a
 *       model with flexible bodies, their modal coordinates changed every frame
 *       (each mode at 1 mm, a sinusoid), deformation x300, coloured by FIELD
 *       (none, displacement or stress; default stress): frames per second.
 *
 * The chain model is generated: bodies in a row along x, 0.1 m apart, joined by
 * spherical joints, the first one to the ground, released under gravity. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h> /* counted frames under callgrind: GUI_BENCH_FRAMES */
#define HAVE_CALLGRIND 1
#endif
#endif

#include "motus-scene.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "motus/flex.h"
#include "motus/flexview.h"

static char *chain_text(int n, double until)
{
    GString *s = g_string_new("motus-model 1\ntitle \"GUI bench chain\"\ngravity 0 -9.81 0\n");
    g_string_append_printf(s, "solver method rk4 step 1e-3 until %g\nground\n  marker pivot at 0 0 0\nend\n", until);
    for (int i = 0; i < n; i++)
        g_string_append_printf(s,
                               "body b%d\n  position %g 0 0\n  density 7800\n  shape sphere 0.04\n"
                               "  marker left at -0.05 0 0\n  marker right at 0.05 0 0\nend\n",
                               i, 0.05 + 0.1 * i);
    for (int i = 0; i < n; i++) {
        if (i == 0)
            g_string_append(s, "joint j0 spherical b0.left ground.pivot\n");
        else
            g_string_append_printf(s, "joint j%d spherical b%d.left b%d.right\n", i, i, i - 1);
    }
    return g_string_free(s, FALSE);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void stats(const char *what, GArray *a)
{
    if (!a->len) {
        printf("%s: no samples\n", what);
        return;
    }
    qsort(a->data, a->len, sizeof(double), cmp);
    double *d = (double *)a->data;
    printf("%s: %u samples, median %.2f ms, 95%% %.2f ms, max %.2f ms\n", what, a->len, d[a->len / 2],
           d[(guint)(0.95 * (a->len - 1))], d[a->len - 1]);
}

/* ---- fps ---------------------------------------------------------------------------- */

/* CPU seconds of the whole process (llvmpipe's threads included). */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static double load_average(void)
{
    double la = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &la) != 1) la = -1;
    if (f) fclose(f);
    return la;
}

typedef struct {
    MotusViewport *vp;
    double cpu0, cpu1;
    gint64 start, end;
    guint frames0;
    double seconds;
    GMainLoop *loop;
    double *w, *amp; /* flexible bodies: modal coordinates shown, their amplitudes */
    int nw;
} Fps;

static gboolean fps_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    Fps *f = data;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    /* GUI_BENCH_FRAMES=N: N frames instead of a time (under callgrind, which counts only those) */
    const char *nf = g_getenv("GUI_BENCH_FRAMES");
    if (!f->start && motus_viewport_get_frames_drawn(f->vp) > 5) { /* after start-up */
        f->start = now;
        f->cpu0 = cpu_seconds();
        f->frames0 = motus_viewport_get_frames_drawn(f->vp);
#ifdef HAVE_CALLGRIND
        CALLGRIND_ZERO_STATS;
        CALLGRIND_START_INSTRUMENTATION;
#endif
    }
    /* a new view every frame, so that every frame is drawn */
    static const MotusViewPreset presets[] = {MOTUS_VIEW_ISO, MOTUS_VIEW_FRONT, MOTUS_VIEW_TOP, MOTUS_VIEW_RIGHT};
    static int k;
    const char *fix = g_getenv("GUI_BENCH_PRESET");
    motus_viewport_view_preset(f->vp, presets[fix ? atoi(fix) % 4 : k % 4]);
    k++;
    if (f->w) { /* flexible bodies: new modal coordinates every frame, as during playback */
        for (int i = 0; i < f->nw; i++) f->w[i] = f->amp[i] * sin(0.3 * k + i);
        motus_viewport_set_modal(f->vp, f->w, f->nw);
    }
    if (f->start && (nf ? motus_viewport_get_frames_drawn(f->vp) - f->frames0 >= (guint)atoi(nf)
                        : now - f->start > (gint64)(f->seconds * 1e6))) {
#ifdef HAVE_CALLGRIND
        CALLGRIND_STOP_INSTRUMENTATION;
        CALLGRIND_DUMP_STATS_AT("frames");
#endif
        f->end = now;
        f->cpu1 = cpu_seconds();
        g_main_loop_quit(f->loop);
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

/* The window as its renderer draws it, to a PNG (what was measured, to look at). */
static void save_window_png(GtkWidget *win, const char *path)
{
    int w = gtk_widget_get_width(win), h = gtk_widget_get_height(win);
    GdkPaintable *p = gtk_widget_paintable_new(win);
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(p, GDK_SNAPSHOT(snap), w, h);
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    GskRenderer *r = gtk_native_get_renderer(GTK_NATIVE(win));
    if (node && r) {
        GdkTexture *tex = gsk_renderer_render_texture(r, node, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
        if (!gdk_texture_save_to_png(tex, path)) fprintf(stderr, "cannot write %s\n", path);
        g_object_unref(tex);
    }
    if (node) gsk_render_node_unref(node);
    g_object_unref(p);
}

static int bench_fps(int n, double seconds, gboolean full)
{
    g_autofree char *text = chain_text(n, 1);
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "bench", &err);
    if (!m) {
        fprintf(stderr, "model: %s\n", err.msg);
        return 1;
    }
    MotusScene *sc = motus_scene_new(m, NULL, NULL);
    long tris = 0;
    for (int b = 0; b <= sc->nbody; b++) tris += sc->body[b].tri->len / 3 + sc->body[b].glyph->len / 3;
    motus_scene_free(sc);
    GtkWidget *win = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    gtk_window_set_decorated(GTK_WINDOW(win), FALSE);
    GtkWidget *vp = motus_viewport_new();
    gtk_window_set_child(GTK_WINDOW(win), vp);
    motus_viewport_set_model(MOTUS_VIEWPORT(vp), m, NULL, NULL);
    motus_viewport_set_full_detail(MOTUS_VIEWPORT(vp), full);
    gtk_window_present(GTK_WINDOW(win));
    Fps f = {MOTUS_VIEWPORT(vp), 0, 0, 0, 0, 0, seconds, g_main_loop_new(NULL, FALSE), NULL, NULL, 0};
    gtk_widget_add_tick_callback(win, fps_tick, &f, NULL);
    g_main_loop_run(f.loop);
    guint frames = motus_viewport_get_frames_drawn(f.vp) - f.frames0;
    GtkWidget *area = motus_viewport_get_gl_area(f.vp);
    printf("fps: %d bodies, %ld triangles at full detail, %ld drawn in the last frame (%s), view %dx%d, GL %s\n", n,
           tris, motus_viewport_get_triangles_drawn(f.vp), full ? "full detail" : "levels of detail",
           gtk_widget_get_width(area), gtk_widget_get_height(area), motus_viewport_get_gl_info(f.vp));
    double wall = (f.end - f.start) * 1e-6;
    printf("fps: %u frames in %.2f s = %.1f frames/s; CPU %.1f ms per frame (%.0f%% of one core); load average %.2f\n",
           frames, wall, frames / wall, 1e3 * (f.cpu1 - f.cpu0) / frames, 100 * (f.cpu1 - f.cpu0) / wall,
           load_average());
    const char *shot = g_getenv("GUI_BENCH_SHOT");
    if (shot) save_window_png(win, shot);
    g_main_loop_unref(f.loop);
    gtk_window_destroy(GTK_WINDOW(win));
    mt_model_free(m);
    return 0;
}

/* Writes the chain model to a temporary file and opens it in a main window at 1280x800. */
static MotusWindow *chain_window(int n, double until, char **path)
{
    g_autofree char *text = chain_text(n, until);
    *path = g_build_filename(g_get_tmp_dir(), "motus-gui-bench.motus.txt", NULL);
    if (!g_file_set_contents(*path, text, -1, NULL)) return NULL;
    MotusWindow *win = motus_window_new(NULL);
    motus_window_set_batch(win, TRUE);
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    gtk_window_present(GTK_WINDOW(win));
    g_autoptr(GFile) file = g_file_new_for_path(*path);
    g_autoptr(GError) error = NULL;
    if (!motus_window_open_file(win, file, &error)) {
        fprintf(stderr, "%s\n", error->message);
        gtk_window_destroy(GTK_WINDOW(win));
        return NULL;
    }
    return win;
}

static int bench_window(int n, double seconds, gboolean gizmo, gboolean full)
{
    g_autofree char *path = NULL;
    MotusWindow *win = chain_window(n, 1, &path);
    if (!win) return 1;
    motus_viewport_set_full_detail(MOTUS_VIEWPORT(motus_window_get_viewport(win)), full);
    if (gizmo) {
        motus_window_select_entity(win, MT_EDIT_BODY, 0);
        g_action_group_activate_action(G_ACTION_GROUP(win), "gizmo", g_variant_new_string("move"));
    }
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(win));
    Fps f = {vp, 0, 0, 0, 0, 0, seconds, g_main_loop_new(NULL, FALSE), NULL, NULL, 0};
    gtk_widget_add_tick_callback(GTK_WIDGET(win), fps_tick, &f, NULL);
    g_main_loop_run(f.loop);
    guint frames = motus_viewport_get_frames_drawn(vp) - f.frames0;
    GtkWidget *area = motus_viewport_get_gl_area(vp);
    double wall = (f.end - f.start) * 1e-6;
    printf("window: %d bodies%s, %ld triangles drawn in the last frame (%s), view %dx%d in the main window 1280x800, "
           "GL %s\n",
           n, motus_viewport_get_gizmo(vp) != MOTUS_GIZMO_OFF ? " with the gizmo" : "",
           motus_viewport_get_triangles_drawn(vp), full ? "full detail" : "levels of detail", gtk_widget_get_width(area),
           gtk_widget_get_height(area), motus_viewport_get_gl_info(vp));
    printf("window: %u frames in %.2f s = %.1f frames/s; CPU %.1f ms per frame (%.0f%% of one core); load average %.2f\n",
           frames, wall, frames / wall, 1e3 * (f.cpu1 - f.cpu0) / frames, 100 * (f.cpu1 - f.cpu0) / wall, load_average());
    const char *shot = g_getenv("GUI_BENCH_SHOT"); /* what was measured, to look at */
    if (shot && !motus_window_save_screenshot(win, shot, NULL)) fprintf(stderr, "window: no screenshot %s\n", shot);
    g_main_loop_unref(f.loop);
    gtk_window_destroy(GTK_WINDOW(win));
    g_unlink(path);
    return 0;
}

static int bench_flex(const char *path, double seconds, const char *field)
{
    MtError err = {0};
    MtModel *m = mt_model_load(path, &err);
    if (!m) {
        fprintf(stderr, "model: %s\n", err.msg);
        return 1;
    }
    GtkWidget *win = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    gtk_window_set_decorated(GTK_WINDOW(win), FALSE);
    GtkWidget *vp = motus_viewport_new();
    gtk_window_set_child(GTK_WINDOW(win), vp);
    g_autofree char *dir = g_path_get_dirname(path);
    motus_viewport_set_model(MOTUS_VIEWPORT(vp), m, dir, NULL);
    MotusField fl = !strcmp(field, "none") ? MOTUS_FIELD_NONE
                    : !strcmp(field, "displacement") ? MOTUS_FIELD_DISPLACEMENT
                                                     : MOTUS_FIELD_VONMISES;
    motus_viewport_set_colour_field(MOTUS_VIEWPORT(vp), fl);
    motus_viewport_set_colour_range(MOTUS_VIEWPORT(vp), MOTUS_RANGE_FRAME, 0, 0);
    motus_viewport_set_deformation_scale(MOTUS_VIEWPORT(vp), 300);
    Fps f = {MOTUS_VIEWPORT(vp), 0, 0, 0, 0, 0, seconds, g_main_loop_new(NULL, FALSE), NULL, NULL, 0};
    f.nw = motus_viewport_n_modal(f.vp);
    f.w = g_new0(double, f.nw + 1);
    f.amp = g_new0(double, f.nw + 1);
    long tris = 0, verts = 0;
    for (int i = 0, off = 0; i < m->nflex; i++) {
        const MtFlexBody *fb = mt_model_flex_body(m, i);
        if (!fb) continue;
        MtFlexInfo fi;
        mt_flex_body_info(fb, &fi);
        for (int k = 0; k < fi.nmode; k++) f.amp[off + k] = mt_flexview_mode_amplitude(fb, k, 1e-3);
        off += fi.nmode;
        tris += fi.nst;
        verts += fi.nsv;
    }
    gtk_window_present(GTK_WINDOW(win));
    gtk_widget_add_tick_callback(win, fps_tick, &f, NULL);
    g_main_loop_run(f.loop);
    guint frames = motus_viewport_get_frames_drawn(f.vp) - f.frames0;
    printf("flex: %s, %d modal coordinates, %ld surface vertices, %ld surface triangles, field %s, GL %s\n", path, f.nw,
           verts, tris, field, motus_viewport_get_gl_info(f.vp));
    double wall = (f.end - f.start) * 1e-6;
    printf("flex: %u frames in %.2f s = %.1f frames/s; CPU %.1f ms per frame (%.0f%% of one core)\n", frames, wall,
           frames / wall, 1e3 * (f.cpu1 - f.cpu0) / frames, 100 * (f.cpu1 - f.cpu0) / wall);
    g_free(f.w);
    g_free(f.amp);
    g_main_loop_unref(f.loop);
    gtk_window_destroy(GTK_WINDOW(win));
    mt_model_free(m);
    return 0;
}

/* ---- latency during a run -------------------------------------------------------------- */

typedef struct {
    GArray *ticks, *late;
    GArray *tick_at; /* when each interval ended, s since the run started */
    gint64 start;
    gint64 last_tick, due;
    gboolean running, done;
    guint timer;
    /* the frames of the run: the time from the frame clock's "before-paint" to its "paint" (update and
     * layout phases) and from there to "after-paint" (snapshot, render, upload to the X server); for the
     * first four also the main thread's minor page faults in the paint */
    gint64 frame_t0, paint_t0;
    long paint_flt0;
    int npaint;
    double layout_ms[4], paint_ms[4];
    long paint_flt[4];
    GArray *layout_all, *paint_all; /* every frame of the run after the first 0.25 s: the same two times */
    guint work_n, work_over; /* every painted frame of the run; those whose update, layout and paint took > 20 ms */
    double work_max;
    char solver_stat[64]; /* /proc path of the solver thread's stat, once found */
    double solver_cpu;    /* its CPU seconds, last read */
    double main_cpu0, main_cpu_start; /* the main thread's CPU seconds when the run started; in its first 0.25 s */
    GtkWidget *win;
    GdkFrameClock *clock;
} Lat;

/* CPU seconds of the calling thread. */
static double thread_self_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* CPU seconds (user + system) of the thread whose /proc stat file is path; -1 when gone. */
static double thread_cpu(const char *path, char *comm, gsize ncomm)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL)) return -1;
    char *open = strchr(text, '('), *close = strrchr(text, ')');
    if (!open || !close) return -1;
    if (comm) g_strlcpy(comm, open + 1, MIN(ncomm, (gsize)(close - open)));
    /* after ") ": state is field 3; utime and stime are fields 14 and 15 */
    char *p = close + 2;
    unsigned long ut = 0, st = 0;
    for (int f = 3; f < 14 && p; f++) p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
    if (!p || sscanf(p, "%lu %lu", &ut, &st) != 2) return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Follows the CPU time of the solver thread (named "motus-solver") while it lives. */
static void follow_solver(Lat *l)
{
    if (!l->solver_stat[0]) {
        GDir *d = g_dir_open("/proc/self/task", 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            char path[64], comm[32] = "";
            g_snprintf(path, sizeof path, "/proc/self/task/%s/stat", name);
            if (thread_cpu(path, comm, sizeof comm) >= 0 && !strcmp(comm, "motus-solver")) {
                g_strlcpy(l->solver_stat, path, sizeof l->solver_stat);
                break;
            }
        }
        if (d) g_dir_close(d);
    }
    double c = l->solver_stat[0] ? thread_cpu(l->solver_stat, NULL, 0) : -1;
    if (c >= 0) l->solver_cpu = c;
}

static gboolean lat_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    Lat *l = data;
    /* the wall clock, not the frame clock's time: GTK smooths that to whole refresh intervals, so a
     * frame 22 ms after the last would read 16.67 ms */
    (void)clock;
    gint64 now = g_get_monotonic_time();
    if (l->running && l->last_tick) {
        double ms = (now - l->last_tick) * 1e-3, at = (now - l->start) * 1e-6;
        g_array_append_val(l->ticks, ms);
        g_array_append_val(l->tick_at, at);
        if (at > 0.25 && l->main_cpu_start < 0) l->main_cpu_start = thread_self_cpu() - l->main_cpu0;
    }
    l->last_tick = now;
    return l->done ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static long thread_minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) ? 0 : ru.ru_minflt;
}

static void lat_before(GdkFrameClock *c, gpointer data)
{
    (void)c;
    Lat *l = data;
    l->frame_t0 = l->running ? g_get_monotonic_time() : 0;
}

/* An emission hook on the frame clock's "paint": it runs before GDK's handler, which snapshots and renders
 * the window, so this is where the frame's update and layout phases end. */
static gboolean lat_paint_hook(GSignalInvocationHint *hint, guint n, const GValue *param, gpointer data)
{
    (void)hint, (void)n;
    Lat *l = data;
    if (g_value_get_object(&param[0]) != (GObject *)l->clock || !l->running || !l->frame_t0) return TRUE;
    l->paint_t0 = g_get_monotonic_time();
    l->paint_flt0 = thread_minor_faults();
    return TRUE;
}

/* GUI_BENCH_NODES=PREFIX: the window's render nodes written to PREFIX-K.node (K = 0 before the run,
 * 1, 2 … after its first frames), to see with diff what a frame changed. */
static void dump_nodes(GtkWidget *win, int k)
{
    const char *prefix = g_getenv("GUI_BENCH_NODES");
    if (!prefix) return;
    GdkPaintable *p = gtk_widget_paintable_new(win);
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(p, snap, gtk_widget_get_width(win), gtk_widget_get_height(win));
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    g_autofree char *path = g_strdup_printf("%s-%d.node", prefix, k);
    if (node) {
        GBytes *b = gsk_render_node_serialize(node);
        g_file_set_contents(path, g_bytes_get_data(b, NULL), g_bytes_get_size(b), NULL);
        g_bytes_unref(b);
        gsk_render_node_unref(node);
    }
    g_object_unref(p);
}

static void lat_painted(GdkFrameClock *c, gpointer data)
{
    (void)c;
    Lat *l = data;
    if (l->running && l->npaint < 3) dump_nodes(l->win, l->npaint + 1);
    /* GUI_BENCH_SHOT=FILE: the window as the run's fourth painted frame left it, to look at (slows that frame) */
    const char *shot = g_getenv("GUI_BENCH_SHOT");
    if (shot && l->running && l->npaint == 3 && l->paint_t0 &&
        !motus_window_save_screenshot(MOTUS_WINDOW(l->win), shot, NULL))
        fprintf(stderr, "latency: no screenshot %s\n", shot);
    if (!l->running || !l->paint_t0 || !l->frame_t0) return;
    gint64 now = g_get_monotonic_time();
    double lay = (l->paint_t0 - l->frame_t0) * 1e-3, paint = (now - l->paint_t0) * 1e-3;
    l->work_n++, l->work_over += lay + paint > 20, l->work_max = fmax(l->work_max, lay + paint);
    if (l->npaint < 4) {
        l->layout_ms[l->npaint] = lay;
        l->paint_ms[l->npaint] = paint;
        l->paint_flt[l->npaint++] = thread_minor_faults() - l->paint_flt0;
    } else if ((now - l->start) * 1e-6 > 0.25) {
        g_array_append_val(l->layout_all, lay);
        g_array_append_val(l->paint_all, paint);
    }
    l->paint_t0 = l->frame_t0 = 0;
}

static gboolean lat_timer(gpointer data)
{
    Lat *l = data;
    gint64 now = g_get_monotonic_time();
    if (l->running && l->due) {
        double ms = (now - l->due) * 1e-3;
        g_array_append_val(l->late, ms);
    }
    if (l->running) follow_solver(l);
    l->due = now + 5000;
    return G_SOURCE_CONTINUE;
}

static void lat_finished(MotusWindow *w, gboolean ok, const char *msg, gpointer data)
{
    (void)w;
    Lat *l = data;
    if (!ok) fprintf(stderr, "run: %s\n", msg);
    l->running = FALSE;
    l->done = TRUE;
}

/* A line "NAME: value kB" of /proc/self/status, kB (-1 when absent). */
static long proc_status_kb(const char *name)
{
    g_autofree char *text = NULL;
    const char *p = g_file_get_contents("/proc/self/status", &text, NULL, NULL) ? strstr(text, name) : NULL;
    return p ? atol(p + strlen(name) + 1) : -1;
}

/* After the run: the memory its frames take in the window and the process's peak and current resident
 * size; then the time to read a result column no plot showed (a reaction of the middle joint) for every
 * frame, the first time and again, and to put two such columns in the plot (as choosing curves does). */
static void print_memory(MotusWindow *win, int nb)
{
    guint n = motus_window_get_n_frames(win);
    double until = motus_window_get_time(win); /* the run's end: the view followed it */
    printf("memory: the run's %u frames take %.1f MB in the window; process peak (VmHWM) %.1f MB, now (VmRSS) %.1f MB\n",
           n, motus_window_get_results_bytes(win) / 1e6, proc_status_kb("VmHWM:") / 1e3, proc_status_kb("VmRSS:") / 1e3);
    g_autofree char *col = g_strdup_printf("j%d.Fx", nb / 2), *c1 = g_strdup_printf("j%d.Fy", nb / 3),
                    *c2 = g_strdup_printf("j%d.Fz", nb / 4);
    for (int k = 0; k < 2; k++) {
        double *t = NULL, *v = NULL;
        gint64 t0 = g_get_monotonic_time();
        guint got = motus_window_get_column(win, col, &t, &v);
        printf("memory: column %s read for %u frames in %.2f ms%s\n", col, got, (g_get_monotonic_time() - t0) * 1e-3,
               k ? " (again)" : "");
        g_free(t);
        g_free(v);
    }
    const char *names[] = {c1, c2, NULL};
    gint64 t0 = g_get_monotonic_time();
    gboolean ok = motus_window_set_plot_columns(win, names, NULL);
    printf("memory: the plot's curves set to %s and %s in %.2f ms%s\n", c1, c2, (g_get_monotonic_time() - t0) * 1e-3,
           ok ? "" : " (failed)");
    printf("memory: afterwards the frames take %.1f MB in the window\n", motus_window_get_results_bytes(win) / 1e6);
    /* frames shown as playback shows them (the view's poses, the plot cursor, the slider), 1000 spread over
     * the run: the main thread's work for each, the picture's drawing left out */
    t0 = g_get_monotonic_time();
    for (int k = 0; k < 1000; k++) motus_window_set_time(win, until * ((k * 379) % 1000) / 1000.0);
    printf("memory: showing a frame (1000 spread over the run) took %.1f us each\n", (g_get_monotonic_time() - t0) * 1e-3);
}

static int bench_latency(int n, double until, gboolean full)
{
    g_autofree char *path = NULL;
    MotusWindow *win = chain_window(n, until, &path);
    if (!win) return 1;
    motus_viewport_set_full_detail(MOTUS_VIEWPORT(motus_window_get_viewport(win)), full);
    g_autoptr(GError) error = NULL;
    Lat l = {.ticks = g_array_new(FALSE, FALSE, sizeof(double)), .late = g_array_new(FALSE, FALSE, sizeof(double)),
             .tick_at = g_array_new(FALSE, FALSE, sizeof(double)), .main_cpu_start = -1, .win = GTK_WIDGET(win)};
    g_signal_connect(win, "run-finished", G_CALLBACK(lat_finished), &l);
    gtk_widget_add_tick_callback(GTK_WIDGET(win), lat_tick, &l, NULL);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(GTK_WIDGET(win));
    l.layout_all = g_array_new(FALSE, FALSE, sizeof(double));
    l.paint_all = g_array_new(FALSE, FALSE, sizeof(double));
    g_signal_connect(clock, "before-paint", G_CALLBACK(lat_before), &l);
    l.clock = clock;
    guint paint_sig = g_signal_lookup("paint", GDK_TYPE_FRAME_CLOCK);
    gulong hook = g_signal_add_emission_hook(paint_sig, 0, lat_paint_hook, &l, NULL);
    g_signal_connect(clock, "after-paint", G_CALLBACK(lat_painted), &l);
    /* let start-up finish (GL realised, first frames) before the run */
    gint64 t0 = g_get_monotonic_time();
    while (g_get_monotonic_time() - t0 < 1500000) g_main_context_iteration(NULL, FALSE);
    l.timer = g_timeout_add(5, lat_timer, &l);
    dump_nodes(GTK_WIDGET(win), 0);
    gint64 call = g_get_monotonic_time();
    l.main_cpu0 = thread_self_cpu(), l.main_cpu_start = -1;
    if (!motus_window_run(win, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return 1;
    }
    l.running = TRUE;
    gint64 start = l.start = g_get_monotonic_time();
    printf("latency: starting the run took %.1f ms on the main thread\n", (start - call) * 1e-3);
    if (g_getenv("GUI_BENCH_SHOW_START")) printf("latency: run started at monotonic %.6f s\n", start * 1e-6);
    double cpu0 = cpu_seconds();
    guint drawn0 = motus_viewport_get_frames_drawn(MOTUS_VIEWPORT(motus_window_get_viewport(win)));
    while (!l.done) g_main_context_iteration(NULL, TRUE);
    double wall = (g_get_monotonic_time() - start) * 1e-6, cpu = cpu_seconds() - cpu0;
    guint drawn = motus_viewport_get_frames_drawn(MOTUS_VIEWPORT(motus_window_get_viewport(win))) - drawn0;
    g_source_remove(l.timer);
    GtkWidget *area = motus_viewport_get_gl_area(MOTUS_VIEWPORT(motus_window_get_viewport(win)));
    printf("latency: %d bodies, run to %g s took %.2f s wall, %u frames stored, view %dx%d (window 1280x800), %ld "
           "triangles drawn in the last frame (%s), GL %s\n",
           n, until, wall, motus_window_get_n_frames(win), gtk_widget_get_width(area), gtk_widget_get_height(area),
           motus_viewport_get_triangles_drawn(MOTUS_VIEWPORT(motus_window_get_viewport(win))),
           full ? "full detail" : "levels of detail", motus_viewport_get_gl_info(MOTUS_VIEWPORT(motus_window_get_viewport(win))));
    /* the three longest intervals and when they ended: start-up of the run, or a stall in the middle? */
    printf("latency: longest frame intervals:");
    for (int k = 0; k < 3; k++) {
        guint best = 0;
        for (guint i = 1; i < l.ticks->len; i++)
            if (g_array_index(l.ticks, double, i) > g_array_index(l.ticks, double, best)) best = i;
        if (!l.ticks->len || g_array_index(l.ticks, double, best) < 0) break;
        printf(" %.1f ms at %.2f s;", g_array_index(l.ticks, double, best), g_array_index(l.tick_at, double, best));
        g_array_index(l.ticks, double, best) = -g_array_index(l.ticks, double, best); /* marked, restored below */
    }
    printf("\n");
    for (guint i = 0; i < l.ticks->len; i++) g_array_index(l.ticks, double, i) = fabs(g_array_index(l.ticks, double, i));
    /* the first quarter second redraws most of the window (buttons and fields change state as a run starts) */
    g_autoptr(GArray) steady = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i < l.ticks->len; i++)
        if (g_array_index(l.tick_at, double, i) > 0.25) g_array_append_val(steady, g_array_index(l.ticks, double, i));
    /* the target is < 20 ms at every frame: how many missed it, and how many of those at the start */
    guint over = 0, over_start = 0;
    for (guint i = 0; i < l.ticks->len; i++)
        if (g_array_index(l.ticks, double, i) > 20) over++, over_start += g_array_index(l.tick_at, double, i) <= 0.25;
    printf("latency: intervals over 20 ms: %u of %u (%u in the first 0.25 s)\n", over, l.ticks->len, over_start);
    printf("latency: intervals in the first 0.5 s:");
    for (guint i = 0; i < l.ticks->len && g_array_index(l.tick_at, double, i) < 0.5; i++)
        printf(" %.0f", g_array_index(l.ticks, double, i));
    printf(" ms; the main thread's CPU in the first 0.25 s: %.1f ms\n", 1e3 * l.main_cpu_start);
    printf("latency: the first frames' update and layout + paint:");
    for (int k = 0; k < l.npaint; k++)
        printf(" %.1f + %.1f ms (%ld page faults);", l.layout_ms[k], l.paint_ms[k], l.paint_flt[k]);
    printf("\n");
    printf("latency: the main thread's work in a painted frame (update, layout, paint): over 20 ms in %u of %u, "
           "longest %.1f ms\n", l.work_over, l.work_n, l.work_max);
    stats("latency: update and layout of a frame after the first 0.25 s", l.layout_all);
    stats("latency: paint of a frame after the first 0.25 s", l.paint_all);
    stats("latency: window frame interval during the run", l.ticks);
    stats("latency: the same after the first 0.25 s", steady);
    stats("latency: lateness of a 5 ms main-loop timer", l.late);
    /* the solver's CPU is read last a few ms before it ends: a slight underestimate */
    guint nt = l.ticks->len + 1;
    printf("latency: CPU during the run: solver %.2f s, the rest %.2f s = %.1f ms per window frame (%u frames, %u of "
           "them redrew the 3D view); load average %.2f\n",
           l.solver_cpu, cpu - l.solver_cpu, 1e3 * (cpu - l.solver_cpu) / nt, nt, drawn, load_average());
    print_memory(win, n);
    g_array_unref(l.ticks);
    g_array_unref(l.tick_at);
    g_array_unref(l.late);
    g_array_unref(l.layout_all);
    g_array_unref(l.paint_all);
    g_signal_handlers_disconnect_by_data(clock, &l);
    g_signal_remove_emission_hook(paint_sig, hook);
    gtk_window_destroy(GTK_WINDOW(win));
    g_unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    gtk_disable_setlocale();
    gtk_init();
    motus_ui_register_resources();
    const char *mode = argc > 1 ? argv[1] : "fps";
    int n = argc > 2 ? atoi(argv[2]) : 200;
    double x = argc > 3 ? atof(argv[3]) : 0;
    /* the bare 3D view keeps GTK's default renderer (comparable with earlier figures);
     * the main window gets the application's choice */
    gboolean full = argc > 4 && !strcmp(argv[4], "full");
    if (strcmp(mode, "fps") && strcmp(mode, "fps-full") && strcmp(mode, "flex")) printf("renderer: %s\n", motus_ui_choose_renderer() ? g_getenv("GSK_RENDERER") : "GTK's default (gl)");
    if (!strcmp(mode, "fps") || !strcmp(mode, "fps-full")) return bench_fps(n, x > 0 ? x : 5, !strcmp(mode, "fps-full"));
    if (!strcmp(mode, "window")) return bench_window(n, x > 0 ? x : 5, argc > 4 && !strcmp(argv[4], "gizmo"), full);
    if (!strcmp(mode, "latency")) return bench_latency(n, x > 0 ? x : 5, full);
    if (!strcmp(mode, "flex") && argc > 2) return bench_flex(argv[2], x > 0 ? x : 5, argc > 4 ? argv[4] : "stress");
    fprintf(stderr, "usage: gui_bench fps|fps-full|window|latency [BODIES [SECONDS|UNTIL [full|gizmo]]]\n       gui_bench flex MODEL [SECONDS "
                    "[none|displacement|stress]]\n");
    return 2;
}
