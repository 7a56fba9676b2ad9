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
#include <limits.h>
#include <string.h>

#include "motus-i18n.h"

struct MotusVideo {
    AVFormatContext *fmt;
    AVCodecContext *enc;
    AVStream *st;
    struct SwsContext *sws;
    AVFrame *frame;
    AVPacket *pkt;
    int in_w, in_h; /* the pictures given */
    uint32_t pal[256]; /* GIF: the clip's palette (0xAARRGGBB), made from its first picture */
    uint8_t *lut;      /* GIF: palette index of each 5-5-5 colour, NULL before the first picture */
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
 * expect of H.264 and VP9), for GIF 8-bit indices into a palette of our own
 * (below), else the encoder's first. */
static enum AVPixelFormat choose_pix_fmt(const AVCodec *c)
{
    static const enum AVPixelFormat wanted[] = {AV_PIX_FMT_YUV420P, AV_PIX_FMT_PAL8};
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
    g_free(v->lut);
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
    if (pf == AV_PIX_FMT_PAL8) return TRUE; /* the picture is mapped to the palette here, at its own size */
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

/* ---- GIF: one palette for the clip ----
 * A fixed 3-3-2 palette has four levels of blue: the view's grey-blue
 * gradient came out in bands of dither. The clip's palette is cut from its
 * first picture's colours instead (median cut of their 5-5-5 histogram, 256
 * boxes at most), every 5-5-5 colour mapped to its nearest entry, pictures
 * dithered (ordered, 4 x 4) into it. One palette for all frames keeps the
 * GIF encoder's comparison of frames by index (it sends only what changed)
 * right; colours the first picture lacks get their nearest. */
typedef struct {
    uint16_t c; /* 5-5-5 colour */
    uint32_t n; /* pixels */
} Bin;

static int chan(uint16_t c, int a) { return (c >> (10 - 5 * a)) & 31; }
static int cmp_r(const void *a, const void *b) { return chan(((const Bin *)a)->c, 0) - chan(((const Bin *)b)->c, 0); }
static int cmp_g(const void *a, const void *b) { return chan(((const Bin *)a)->c, 1) - chan(((const Bin *)b)->c, 1); }
static int cmp_b(const void *a, const void *b) { return chan(((const Bin *)a)->c, 2) - chan(((const Bin *)b)->c, 2); }

/* The widest channel of bins [lo, hi) and its range. */
static int widest(const Bin *bins, int lo, int hi, int *axis)
{
    int best = -1;
    for (int a = 0; a < 3; a++) {
        int mn = 31, mx = 0;
        for (int i = lo; i < hi; i++) mn = MIN(mn, chan(bins[i].c, a)), mx = MAX(mx, chan(bins[i].c, a));
        if (mx - mn > best) best = mx - mn, *axis = a;
    }
    return best;
}

static void make_palette(MotusVideo *v, const uint8_t *rgba, int stride)
{
    uint32_t *hist = g_new0(uint32_t, 32768);
    for (int y = 0; y < v->in_h; y++)
        for (int x = 0; x < v->in_w; x++) {
            const uint8_t *p = rgba + (gsize)y * stride + 4 * x;
            hist[(p[0] >> 3) << 10 | (p[1] >> 3) << 5 | p[2] >> 3]++;
        }
    Bin *bins = g_new(Bin, 32768);
    int nb = 0, cut[257] = {0}, nbox = 1;
    for (int c = 0; c < 32768; c++)
        if (hist[c]) bins[nb++] = (Bin){(uint16_t)c, hist[c]};
    cut[1] = nb;
    int (*const cmp[3])(const void *, const void *) = {cmp_r, cmp_g, cmp_b};
    while (nbox < 256) { /* split the box of the widest colour range at its median pixel */
        int pick = -1, range = 0, axis = 0, a;
        for (int k = 0; k < nbox; k++) {
            int r = cut[k + 1] - cut[k] > 1 ? widest(bins, cut[k], cut[k + 1], &a) : 0;
            if (r > range) range = r, pick = k;
        }
        if (pick < 0) break;
        int lo = cut[pick], hi = cut[pick + 1];
        widest(bins, lo, hi, &axis);
        qsort(bins + lo, (size_t)(hi - lo), sizeof(Bin), cmp[axis]);
        uint64_t total = 0, acc = 0;
        for (int i = lo; i < hi; i++) total += bins[i].n;
        int m = lo + 1;
        for (int i = lo; i < hi - 1 && acc + bins[i].n <= total / 2; i++) acc += bins[i].n, m = i + 2;
        m = MIN(m, hi - 1);
        memmove(cut + pick + 2, cut + pick + 1, sizeof(int) * (size_t)(nbox - pick));
        cut[pick + 1] = m;
        nbox++;
    }
    for (int k = 0; k < 256; k++) v->pal[k] = 0xff000000u;
    for (int k = 0; k < nbox; k++) { /* each box's pixel-weighted mean colour */
        double s[3] = {0, 0, 0}, n = 0;
        for (int i = cut[k]; i < cut[k + 1]; i++)
            for (int a = 0; a < 3; a++) s[a] += (chan(bins[i].c, a) * 8 + 4) * (double)bins[i].n;
        for (int i = cut[k]; i < cut[k + 1]; i++) n += bins[i].n;
        if (n > 0)
            v->pal[k] = 0xff000000u | (uint32_t)(s[0] / n) << 16 | (uint32_t)(s[1] / n) << 8 | (uint32_t)(s[2] / n);
    }
    v->lut = g_malloc(32768);
    for (int c = 0; c < 32768; c++) { /* nearest entry of every 5-5-5 colour */
        int best = 0, bd = INT_MAX, r = chan((uint16_t)c, 0) * 8 + 4, g = chan((uint16_t)c, 1) * 8 + 4,
            b = chan((uint16_t)c, 2) * 8 + 4;
        for (int k = 0; k < MAX(nbox, 1); k++) {
            int dr = r - (int)(v->pal[k] >> 16 & 255), dg = g - (int)(v->pal[k] >> 8 & 255), db = b - (int)(v->pal[k] & 255);
            int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if (d < bd) bd = d, best = k;
        }
        v->lut[c] = (uint8_t)best;
    }
    g_free(bins);
    g_free(hist);
}

static void map_to_palette(MotusVideo *v, const uint8_t *rgba, int stride)
{
    static const int bayer[4][4] = {{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};
    if (!v->lut) make_palette(v, rgba, stride);
    memcpy(v->frame->data[1], v->pal, sizeof v->pal);
    for (int y = 0; y < v->in_h; y++) {
        uint8_t *o = v->frame->data[0] + (gsize)y * v->frame->linesize[0];
        for (int x = 0; x < v->in_w; x++) {
            const uint8_t *p = rgba + (gsize)y * stride + 4 * x;
            int d = bayer[y & 3][x & 3] / 2 - 4; /* -4 … 3: within one 5-bit step */
            int r = CLAMP(p[0] + d, 0, 255) >> 3, g = CLAMP(p[1] + d, 0, 255) >> 3, b = CLAMP(p[2] + d, 0, 255) >> 3;
            o[x] = v->lut[r << 10 | g << 5 | b];
        }
    }
}

gboolean motus_video_add_frame(MotusVideo *v, const uint8_t *rgba, int stride, GError **error)
{
    int err = av_frame_make_writable(v->frame); /* the encoder may still hold the last one */
    if (err < 0) return set_av_error(error, _("out of memory"), err), FALSE;
    if (!v->sws)
        map_to_palette(v, rgba, stride);
    else {
        const uint8_t *src[4] = {rgba, NULL, NULL, NULL};
        int src_stride[4] = {stride, 0, 0, 0};
        sws_scale(v->sws, src, src_stride, 0, v->in_h, v->frame->data, v->frame->linesize);
    }
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
