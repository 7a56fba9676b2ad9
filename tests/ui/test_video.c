/* test_video.c — ui/motus-video.c: short clips of synthetic pictures (a
 * square moving over a gradient) written as MP4 (H.264), WebM (VP9) and GIF,
 * read back by ffprobe: frame count, size and codec as asked; the GIF's
 * colours within 8 levels of the pictures' (decoded by ffmpeg); an odd size
 * rounded down to even for H.264; a bad directory, an unknown extension and a
 * bad frame rate refused with a message. Skipped (exit 77) without ffprobe. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus-video.h"

static const char *out_dir;

/* A w x h RGBA picture of frame k: a gradient and a square moving right. */
static guint8 *picture(int w, int h, int k)
{
    guint8 *p = g_malloc((gsize)w * h * 4);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            guint8 *q = p + ((gsize)y * w + x) * 4;
            gboolean sq = x >= 4 * k && x < 4 * k + 40 && y >= h / 3 && y < h / 3 + 40;
            q[0] = sq ? 240 : (guint8)(x * 255 / w), q[1] = sq ? 200 : (guint8)(y * 255 / h), q[2] = sq ? 20 : 128;
            q[3] = 255;
        }
    return p;
}

/* ffprobe's "codec,width,height,frames" of the file's video stream. */
static char *probe(const char *path)
{
    g_autofree char *cmd = g_strdup_printf("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                           "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '%s'",
                                           path);
    char *out = NULL;
    int status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    g_strstrip(out);
    return out;
}

static void write_clip(const char *name, int w, int h, int fps, int n, const char *expect)
{
    g_autofree char *path = g_build_filename(out_dir, name, NULL);
    g_autoptr(GError) error = NULL;
    MotusVideo *v = motus_video_open(path, w, h, fps, &error);
    g_assert_no_error(error);
    g_assert_nonnull(v);
    for (int k = 0; k < n; k++) {
        g_autofree guint8 *p = picture(w, h, k);
        g_assert_true(motus_video_add_frame(v, p, w * 4, &error));
        g_assert_no_error(error);
    }
    g_assert_cmpint(motus_video_frames(v), ==, n);
    g_assert_true(motus_video_close(v, &error));
    g_assert_no_error(error);
    g_autofree char *got = probe(path);
    printf("%s: %s\n", name, got);
    g_assert_cmpstr(got, ==, expect);
}

static void test_mp4(void) { write_clip("video_test.mp4", 320, 240, 25, 50, "h264,320,240,50"); }
static void test_mp4_odd(void) { write_clip("video_test_odd.mp4", 321, 241, 10, 7, "h264,320,240,7"); }
static void test_webm(void) { write_clip("video_test.webm", 160, 120, 25, 12, "vp9,160,120,12"); }
/* Frame k's picture decoded by ffmpeg as rgb24 (w x h x 3 bytes, g_free it). */
static guint8 *decode(const char *name, int w, int h, int k)
{
    g_autofree char *path = g_build_filename(out_dir, name, NULL), *raw = g_strconcat(path, ".rgb", NULL);
    g_autofree char *cmd = g_strdup_printf("ffmpeg -v error -y -i '%s' -vf 'select=eq(n\\,%d)' -vframes 1 -f rawvideo "
                                           "-pix_fmt rgb24 '%s'", path, k, raw);
    int status = 0;
    g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL));
    g_assert_cmpint(status, ==, 0);
    char *data = NULL;
    gsize len = 0;
    g_assert_true(g_file_get_contents(raw, &data, &len, NULL));
    g_assert_cmpuint(len, ==, (gsize)w * h * 3);
    g_remove(raw);
    return (guint8 *)data;
}

/* The mean colour of a 6 x 6 patch of the decoded picture against the picture given (dither averages out). */
static void check_colour(const guint8 *rgb, int w, int h, int k, int x0, int y0, int tol)
{
    g_autofree guint8 *src = picture(w, h, k);
    for (int c = 0; c < 3; c++) {
        double got = 0, want = 0;
        for (int y = y0; y < y0 + 6; y++)
            for (int x = x0; x < x0 + 6; x++) got += rgb[(y * w + x) * 3 + c], want += src[(y * w + x) * 4 + c];
        g_assert_cmpfloat(fabs(got - want) / 36, <=, tol);
    }
}

/* GIF's colours: the clip's palette keeps the gradient and the square within a few levels, in the first and
 * the last frame (where the square has moved on). */
static void test_gif(void)
{
    write_clip("video_test.gif", 161, 121, 20, 15, "gif,161,121,15");
    for (int k = 0; k < 15; k += 14) {
        g_autofree guint8 *rgb = decode("video_test.gif", 161, 121, k);
        check_colour(rgb, 161, 121, k, 4 * k + 10, 121 / 3 + 10, 8); /* the square */
        check_colour(rgb, 161, 121, k, 100, 90, 8);                    /* the gradient */
        check_colour(rgb, 161, 121, k, 20, 5, 8);
    }
}

static void test_refused(void)
{
    g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL, e4 = NULL;
    g_assert_null(motus_video_open("/nonexistent-dir/x.mp4", 320, 240, 25, &e1));
    g_assert_nonnull(e1);
    printf("bad directory: %s\n", e1->message);
    g_assert_nonnull(strstr(e1->message, "/nonexistent-dir/x.mp4"));
    g_autofree char *odd = g_build_filename(out_dir, "video_test.xyz", NULL);
    g_assert_null(motus_video_open(odd, 320, 240, 25, &e2));
    printf("unknown kind: %s\n", e2->message);
    g_assert_nonnull(strstr(e2->message, ".mp4"));
    g_assert_false(g_file_test(odd, G_FILE_TEST_EXISTS));
    g_autofree char *ok = g_build_filename(out_dir, "video_test_bad.mp4", NULL);
    g_assert_null(motus_video_open(ok, 320, 240, 0, &e3));
    printf("bad rate: %s\n", e3->message);
    g_assert_null(motus_video_open(ok, 4, 240, 25, &e4));
    printf("bad size: %s\n", e4->message);
}

/* Cancelling removes the unfinished file. */
static void test_abort(void)
{
    g_autofree char *path = g_build_filename(out_dir, "video_test_abort.mp4", NULL);
    MotusVideo *v = motus_video_open(path, 64, 48, 25, NULL);
    g_assert_nonnull(v);
    g_autofree guint8 *p = picture(64, 48, 0);
    g_assert_true(motus_video_add_frame(v, p, 64 * 4, NULL));
    g_assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
    motus_video_abort(v);
    g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    out_dir = MOTUS_OUT_DIR;
    g_autofree char *ffprobe = g_find_program_in_path("ffprobe");
    if (!ffprobe) {
        printf("SKIP: ffprobe is not installed (Debian package ffmpeg; scripts/install-deps.sh installs it)\n");
        return 77;
    }
    g_test_add_func("/video/mp4", test_mp4);
    g_test_add_func("/video/mp4-odd-size", test_mp4_odd);
    g_test_add_func("/video/webm", test_webm);
    g_test_add_func("/video/gif", test_gif);
    g_test_add_func("/video/refused", test_refused);
    g_test_add_func("/video/abort", test_abort);
    return g_test_run();
}
