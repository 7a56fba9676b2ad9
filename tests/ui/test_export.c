/* The animation export from the window, driven for real under Xvfb (ctest
 * gui_export): the pendulum run with F5, Ctrl+Shift+E pressed through XTest
 * (xinput.h) opens the export dialog (not before there is a run), its Export
 * button clicked writes an MP4 of 0.2 … 0.8 s at 20 frames/s, 480 x 270:
 * ffprobe reads 13 H.264 frames of that size, and they are not all the same
 * picture (the pendulum swings); with the plots beside the view (the check
 * box clicked) the plots' time cursor moves right from frame to frame; Esc during a GIF export cancels it and no
 * file is left; a file in a missing directory is refused in the dialog with
 * the reason. The dialog's screenshot stays in build/tests/ui/export-dialog.png. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus-window-export.h"
#include "ui-app.h"

static gboolean dialog_shown(void)
{
    GtkWidget *d = motus_window_export_dialog(win);
    return d && gtk_widget_get_mapped(d);
}
static gboolean dialog_gone(void) { return motus_window_export_dialog(win) == NULL; }
static gboolean exporting(void) { return motus_window_export_busy(win); }
static gboolean not_exporting(void) { return !motus_window_export_busy(win); }
static gboolean two_frames(void) { return motus_window_export_progress(win, NULL) >= 2 || !exporting(); }
static GtkWidget *dialog_message, *toggle;
static gboolean toggle_active(void) { return gtk_check_button_get_active(GTK_CHECK_BUTTON(toggle)); }
static gboolean wait_for_active(GtkWidget *w)
{
    toggle = w;
    return wait_for(toggle_active, 5);
}
static gboolean message_shown(void) { return gtk_label_get_text(GTK_LABEL(dialog_message))[0] != 0; }

static char *out_path(const char *name) { return g_build_filename(MOTUS_OUT_DIR, name, NULL); }

/* Ctrl+Shift+E pressed for real, then the fields filled in. */
static GtkWidget *open_dialog(const char *path, int fps, int w, int h, double from, double to)
{
    focus_main();
    xin_press("<Control><Shift>e");
    g_assert_true(wait_for(dialog_shown, 10));
    GtkWidget *d = motus_window_export_dialog(win);
    gtk_editable_set_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file")), path);
    const char *keys[] = {"fps", "width", "height", "to", "from"};
    double values[] = {fps, w, h, to, from};
    for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
        gtk_spin_button_set_value(GTK_SPIN_BUTTON(g_object_get_data(G_OBJECT(d), keys[i])), values[i]);
    xin_focus(d);
    settle_for(0.2);
    return d;
}

/* "codec,width,height,frames" of the file's video stream by ffprobe, and the number of distinct pictures. */
static char *probe(const char *path, int *distinct)
{
    g_autofree char *cmd = g_strdup_printf("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                           "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '%s'",
                                           path);
    char *out = NULL;
    int status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    g_strstrip(out);
    g_autofree char *md5 = g_strdup_printf("sh -c \"ffmpeg -v error -i '%s' -f framemd5 - | grep -v '^#' | "
                                           "awk -F, '{print \\$6}' | sort -u | wc -l\"",
                                           path);
    g_autofree char *n = NULL;
    g_assert_true(g_spawn_command_line_sync(md5, &n, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    *distinct = atoi(n);
    return out;
}

static void test_export(void)
{
    focus_main();
    xin_press("<Control><Shift>e"); /* no run yet: nothing to export, no dialog */
    settle_for(0.3);
    g_assert_null(motus_window_export_dialog(win));
    xin_press("F5");
    g_assert_true(wait_for(run_done, 60));
    g_autofree char *path = out_path("export_gui.mp4");
    g_remove(path);
    GtkWidget *d = open_dialog(path, 20, 480, 270, 0.2, 0.8);
    const char *info = gtk_label_get_text(GTK_LABEL(g_object_get_data(G_OBJECT(d), "info")));
    g_assert_true(g_str_has_prefix(info, "13 frames"));
    shot(d, "export-dialog.png");
    xin_click(g_object_get_data(G_OBJECT(d), "export"));
    g_assert_true(wait_for(dialog_gone, 10));
    g_assert_true(wait_for(not_exporting, 60));
    const char *status = motus_window_get_status(win);
    printf("status: %s\n", status);
    g_assert_nonnull(strstr(status, "13 frames, 480 × 270 pixels"));
    int distinct = 0;
    g_autofree char *got = probe(path, &distinct);
    printf("ffprobe: %s, %d distinct pictures\n", got, distinct);
    g_assert_cmpstr(got, ==, "h264,480,270,13");
    g_assert_cmpint(distinct, >=, 10); /* the pendulum swings: (nearly) every frame differs */
}

/* Mean x of the red time cursor's pixels in frame k's plot part (x >= x0) of a w x h rgb24 dump, or -1. */
static double cursor_x(const guint8 *rgb, int w, int h, int k, int x0)
{
    double sum = 0;
    long n = 0;
    for (int y = 0; y < h; y++)
        for (int x = x0; x < w; x++) {
            const guint8 *p = rgb + (((gsize)k * h + y) * w + x) * 3;
            if (p[0] > 150 && p[0] - p[1] > 60 && p[0] - p[2] > 60) sum += x, n++;
        }
    return n > 20 ? sum / n : -1;
}

/* The plots beside the view: the view in the left three fifths, the plots at the right with their time
 * cursor moving with the frames (0.5, 0.55, 0.6 s of a 0 … 1 s plot). */
static void test_plots(void)
{
    g_autofree char *path = out_path("export_plots.mp4"), *raw = out_path("export_plots.rgb");
    g_remove(path);
    GtkWidget *d = open_dialog(path, 20, 640, 360, 0.5, 0.6);
    GtkWidget *plots = g_object_get_data(G_OBJECT(d), "plots");
    xin_click(plots);
    g_assert_true(wait_for_active(plots));
    xin_click(g_object_get_data(G_OBJECT(d), "export"));
    g_assert_true(wait_for(dialog_gone, 10));
    g_assert_true(wait_for(not_exporting, 60));
    int distinct = 0;
    g_autofree char *got = probe(path, &distinct);
    printf("ffprobe: %s\n", got);
    g_assert_cmpstr(got, ==, "h264,640,360,3");
    g_autofree char *cmd = g_strdup_printf("ffmpeg -v error -y -i '%s' -f rawvideo -pix_fmt rgb24 '%s'", path, raw);
    int status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    g_autofree char *rgb = NULL;
    gsize len = 0;
    g_assert_true(g_file_get_contents(raw, &rgb, &len, NULL));
    g_assert_cmpuint(len, ==, (gsize)3 * 640 * 360 * 3);
    int x0 = (640 * 3 / 5) & ~1;
    double c0 = cursor_x((const guint8 *)rgb, 640, 360, 0, x0), c2 = cursor_x((const guint8 *)rgb, 640, 360, 2, x0);
    printf("time cursor at x = %.1f, then %.1f\n", c0, c2);
    g_assert_cmpfloat(c0, >, x0);
    g_assert_cmpfloat(c2, >, c0 + 4);
    g_remove(raw);
}

static void test_cancel(void)
{
    g_autofree char *path = out_path("export_cancel.gif");
    g_remove(path);
    GtkWidget *d = open_dialog(path, 50, 1280, 720, 0, 1);
    xin_click(g_object_get_data(G_OBJECT(d), "export"));
    g_assert_true(wait_for(dialog_gone, 10));
    g_assert_true(wait_for(two_frames, 30));
    g_assert_true(exporting());
    int total = 0, done = motus_window_export_progress(win, &total);
    printf("cancelling at frame %d of %d\n", done, total);
    g_assert_cmpint(total, ==, 51);
    focus_main();
    xin_press("Escape");
    g_assert_true(wait_for(not_exporting, 30));
    printf("status: %s\n", motus_window_get_status(win));
    g_assert_nonnull(strstr(motus_window_get_status(win), "cancelled"));
    g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
}

static void test_bad_path(void)
{
    GtkWidget *d = open_dialog("/nonexistent-dir/x.mp4", 25, 320, 240, 0, 0.5);
    dialog_message = g_object_get_data(G_OBJECT(d), "message");
    xin_click(g_object_get_data(G_OBJECT(d), "export"));
    g_assert_true(wait_for(message_shown, 10));
    printf("refused: %s\n", gtk_label_get_text(GTK_LABEL(dialog_message)));
    g_assert_nonnull(strstr(gtk_label_get_text(GTK_LABEL(dialog_message)), "/nonexistent-dir/x.mp4"));
    g_assert_false(exporting());
    gtk_window_destroy(GTK_WINDOW(d));
    g_assert_true(wait_for(dialog_gone, 5));
}

int main(int argc, char **argv)
{
    g_autofree char *ffprobe = g_find_program_in_path("ffprobe");
    if (!ffprobe) {
        printf("SKIP: ffprobe is not installed (Debian package ffmpeg; scripts/install-deps.sh installs it)\n");
        return 77;
    }
    ui_app_init(&argc, &argv, "org.motus.MotusExportTest");
    open_model(MOTUS_PROJECTS_DIR "/pendulum.motus.txt");
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "1", &error));
    g_assert_no_error(error);
    g_test_add_func("/export/video", test_export);
    g_test_add_func("/export/plots", test_plots);
    g_test_add_func("/export/cancel", test_cancel);
    g_test_add_func("/export/bad-path", test_bad_path);
    return ui_app_finish(g_test_run());
}
