/* motus-video.h — writes a video file from RGBA pictures (FFmpeg's libavformat
 * and libavcodec; docs/dependencies.md says why). The container comes from the
 * file name: .mp4 and .mkv take H.264 (libx264), .webm VP9, .gif the GIF
 * encoder (one palette for the clip, cut from its first picture, ordered
 * dither); another name whatever FFmpeg's default for it is. Plain C over GLib: no GTK type here, so the
 * unit test and any program can use it without a window. */
#ifndef MOTUS_VIDEO_H
#define MOTUS_VIDEO_H

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct MotusVideo MotusVideo;

/* Creates `path` for pictures of w x h pixels at `fps` frames a second
 * (1 … 120). Codecs that need even sizes get the size rounded down to even
 * (the pictures are scaled). NULL with a message in words when the name has
 * no known container, the codec is missing or the file cannot be created. */
MotusVideo *motus_video_open(const char *path, int w, int h, int fps, GError **error);
/* Adds one picture: w x h pixels, bytes R G B A, `stride` bytes a row, rows
 * top first. FALSE with a message when encoding or writing failed. */
gboolean motus_video_add_frame(MotusVideo *v, const uint8_t *rgba, int stride, GError **error);
/* Frames added so far. */
int motus_video_frames(const MotusVideo *v);
/* The encoder's name ("libx264", "libvpx-vp9", "gif"). */
const char *motus_video_codec(const MotusVideo *v);
/* The size of the pictures in the file (w, h rounded down to even where the codec needs it). */
void motus_video_size(const MotusVideo *v, int *w, int *h);
/* Flushes the encoder, finishes the file and frees v; FALSE with a message
 * when the end could not be written (v is freed either way). */
gboolean motus_video_close(MotusVideo *v, GError **error);
/* Frees v and removes the unfinished file (cancel, or an error on the way). */
void motus_video_abort(MotusVideo *v);

G_END_DECLS

#endif
