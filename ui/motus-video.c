/* motus-video.c — a video file from RGBA pictures (see motus-video.h), on
 * FFmpeg's libraries as Debian 12 ships them (5.1): libavformat writes the
 * container, libavcodec encodes, libswscale converts RGBA to the encoder's
 * pixel format (and scales to an even size where the codec needs one).
 * Everything that can fail returns a message in words; nothing aborts. */
#include "motus-video.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <glib/gstdio.h>

#include "motus-i18n.h"

struct MotusVideo {
    AVFormatContext *fmt;
    AVCodecContext *enc;
    AVStream *st;
    struct SwsContext *sws;
    AVFrame *frame;
    AVPacket *pkt;
    int in_w, in_h; /* the pictures given */
    int frames;
    gboolean header; /* the header is written: the trailer must be too */
    char *path;
};

static GQuark video_quark(void) { return g_quark_from_static_string("motus-video"); }

static void set_av_error(GError **error, const char *what, int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(err, buf, sizeof buf);
    g_set_error(error, video_quark(), 1, "%s: %s", what, buf);
}

/* The encoder's pixel format: YUV 4:2:0 where it takes it (what players
 * expect of H.264 and VP9), for GIF 3-3-2 RGB (a palette of its own needs
 * none), else the encoder's first. */
static enum AVPixelFormat choose_pix_fmt(const AVCodec *c)
{
    static const enum AVPixelFormat wanted[] = {AV_PIX_FMT_YUV420P, AV_PIX_FMT_RGB8};
    if (!c->pix_fmts) return AV_PIX_FMT_YUV420P;
    for (size_t k = 0; k < G_N_ELEMENTS(wanted); k++)
        for (const enum AVPixelFormat *p = c->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
            if (*p == wanted[k]) return *p;
    return c->pix_fmts[0];
}

static void video_free(MotusVideo *v)
{
    if (!v) return;
    if (v->fmt && v->fmt->pb) avio_closep(&v->fmt->pb);
    avformat_free_context(v->fmt);
    avcodec_free_context(&v->enc);
    sws_freeContext(v->sws);
    av_frame_free(&v->frame);
    av_packet_free(&v->pkt);
    g_free(v->path);
    g_free(v);
}

/* The encoder for the container: its default video codec (H.264 for MP4 and
 * Matroska when libx264 is there, VP9 for WebM, GIF for .gif). */
static gboolean open_encoder(MotusVideo *v, int w, int h, int fps, GError **error)
{
    const AVCodec *codec = avcodec_find_encoder(v->fmt->oformat->video_codec);
    if (!codec) {
        g_set_error(error, video_quark(), 1, _("no video encoder for %s in this FFmpeg (%s)"), v->path,
                    avcodec_get_name(v->fmt->oformat->video_codec));
        return FALSE;
    }
    v->enc = avcodec_alloc_context3(codec);
    if (!v->enc) return g_set_error(error, video_quark(), 1, _("out of memory")), FALSE;
    enum AVPixelFormat pf = choose_pix_fmt(codec);
    gboolean even = pf == AV_PIX_FMT_YUV420P; /* chroma at half resolution */
    v->enc->width = even ? w & ~1 : w;
    v->enc->height = even ? h & ~1 : h;
    v->enc->pix_fmt = pf;
    v->enc->time_base = (AVRational){1, fps};
    v->enc->framerate = (AVRational){fps, 1};
    v->enc->gop_size = fps * 2;
    if (v->fmt->oformat->flags & AVFMT_GLOBALHEADER) v->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (codec->id == AV_CODEC_ID_H264) { /* fast and good enough for pictures of solids on a gradient */
        av_opt_set(v->enc->priv_data, "preset", "veryfast", 0);
        av_opt_set(v->enc->priv_data, "crf", "20", 0);
    } else if (codec->id == AV_CODEC_ID_VP9) { /* libvpx's default "good" deadline takes seconds a frame */
        av_opt_set(v->enc->priv_data, "deadline", "realtime", 0);
        av_opt_set(v->enc->priv_data, "cpu-used", "8", 0);
        av_opt_set(v->enc->priv_data, "crf", "32", 0);
        v->enc->bit_rate = 0;
    }
    int err = avcodec_open2(v->enc, codec, NULL);
    if (err < 0) return set_av_error(error, _("cannot start the video encoder"), err), FALSE;
    v->st = avformat_new_stream(v->fmt, NULL);
    if (!v->st) return g_set_error(error, video_quark(), 1, _("out of memory")), FALSE;
    v->st->time_base = v->enc->time_base;
    v->st->avg_frame_rate = v->enc->framerate;
    err = avcodec_parameters_from_context(v->st->codecpar, v->enc);
    if (err < 0) return set_av_error(error, _("cannot start the video encoder"), err), FALSE;
    v->frame = av_frame_alloc();
    v->pkt = av_packet_alloc();
    if (!v->frame || !v->pkt) return g_set_error(error, video_quark(), 1, _("out of memory")), FALSE;
    v->frame->format = pf;
    v->frame->width = v->enc->width;
    v->frame->height = v->enc->height;
    if ((err = av_frame_get_buffer(v->frame, 0)) < 0) return set_av_error(error, _("out of memory"), err), FALSE;
    /* bilinear with ordered dither to the 3-3-2 colours of GIF; plain RGBA to YUV otherwise */
    v->sws = sws_getContext(w, h, AV_PIX_FMT_RGBA, v->enc->width, v->enc->height, pf, SWS_BILINEAR, NULL, NULL, NULL);
    if (!v->sws) {
        g_set_error(error, video_quark(), 1, _("cannot convert pictures to %s"), av_get_pix_fmt_name(pf));
        return FALSE;
    }
    return TRUE;
}

MotusVideo *motus_video_open(const char *path, int w, int h, int fps, GError **error)
{
    if (w < 16 || h < 16 || w > 8192 || h > 8192) {
        g_set_error(error, video_quark(), 1, _("video size %d x %d: each side must be 16 … 8192 pixels"), w, h);
        return NULL;
    }
    if (fps < 1 || fps > 120) {
        g_set_error(error, video_quark(), 1, _("frame rate %d: it must be 1 … 120 frames a second"), fps);
        return NULL;
    }
    av_log_set_level(AV_LOG_ERROR); /* the encoders' banners are not the user's business; errors come back in words */
    MotusVideo *v = g_new0(MotusVideo, 1);
    v->path = g_strdup(path);
    v->in_w = w, v->in_h = h;
    int err = avformat_alloc_output_context2(&v->fmt, NULL, NULL, path);
    if (err < 0 || !v->fmt) {
        g_set_error(error, video_quark(), 1,
                    _("%s: unknown kind of video file (name it .mp4, .webm, .mkv or .gif)"), path);
        video_free(v);
        return NULL;
    }
    if (!open_encoder(v, w, h, fps, error)) {
        video_free(v);
        return NULL;
    }
    if (!(v->fmt->oformat->flags & AVFMT_NOFILE) && (err = avio_open(&v->fmt->pb, path, AVIO_FLAG_WRITE)) < 0) {
        g_autofree char *what = g_strdup_printf(_("cannot create %s"), path);
        set_av_error(error, what, err);
        video_free(v);
        return NULL;
    }
    if ((err = avformat_write_header(v->fmt, NULL)) < 0) {
        set_av_error(error, _("cannot write the video header"), err);
        video_free(v);
        g_remove(path);
        return NULL;
    }
    v->header = TRUE;
    return v;
}

/* Sends a picture (NULL: the end) and writes every packet the encoder has ready. */
static gboolean encode(MotusVideo *v, AVFrame *frame, GError **error)
{
    int err = avcodec_send_frame(v->enc, frame);
    if (err < 0) return set_av_error(error, _("the video encoder failed"), err), FALSE;
    for (;;) {
        err = avcodec_receive_packet(v->enc, v->pkt);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return TRUE;
        if (err < 0) return set_av_error(error, _("the video encoder failed"), err), FALSE;
        av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
        v->pkt->stream_index = v->st->index;
        err = av_interleaved_write_frame(v->fmt, v->pkt); /* takes the packet's data */
        if (err < 0) {
            g_autofree char *what = g_strdup_printf(_("cannot write %s"), v->path);
            return set_av_error(error, what, err), FALSE;
        }
    }
}

gboolean motus_video_add_frame(MotusVideo *v, const uint8_t *rgba, int stride, GError **error)
{
    int err = av_frame_make_writable(v->frame); /* the encoder may still hold the last one */
    if (err < 0) return set_av_error(error, _("out of memory"), err), FALSE;
    const uint8_t *src[4] = {rgba, NULL, NULL, NULL};
    int src_stride[4] = {stride, 0, 0, 0};
    sws_scale(v->sws, src, src_stride, 0, v->in_h, v->frame->data, v->frame->linesize);
    v->frame->pts = v->frames;
    if (!encode(v, v->frame, error)) return FALSE;
    v->frames++;
    return TRUE;
}

int motus_video_frames(const MotusVideo *v) { return v->frames; }
const char *motus_video_codec(const MotusVideo *v) { return v->enc->codec->name; }

void motus_video_size(const MotusVideo *v, int *w, int *h)
{
    *w = v->enc->width;
    *h = v->enc->height;
}

gboolean motus_video_close(MotusVideo *v, GError **error)
{
    gboolean ok = encode(v, NULL, error);
    int err = av_write_trailer(v->fmt);
    if (ok && err < 0) {
        g_autofree char *what = g_strdup_printf(_("cannot write %s"), v->path);
        set_av_error(error, what, err);
        ok = FALSE;
    }
    if (ok && v->fmt->pb && (err = v->fmt->pb->error) < 0) { /* a full disk shows here */
        g_autofree char *what = g_strdup_printf(_("cannot write %s"), v->path);
        set_av_error(error, what, err);
        ok = FALSE;
    }
    video_free(v);
    return ok;
}

void motus_video_abort(MotusVideo *v)
{
    if (!v) return;
    g_autofree char *path = g_strdup(v->path);
    if (v->header) av_write_trailer(v->fmt); /* frees the muxer's state */
    video_free(v);
    g_remove(path);
}
