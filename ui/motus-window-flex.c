/* motus-window-flex.c — flexible bodies in the window: the modal
 * coordinates of the frame shown go to the 3D view (which deforms and
 * colours the bodies), and the run's largest displacement and von Mises
 * stress over all frames set the colour scale's "run maximum". The modal
 * coordinates are the result columns BODY.w1 … BODY.wN of the frames. */
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "mt_flexdata.h"
#include "mt_flexview.h"

/* First result column of the modal coordinates of flexible spec i (its N
 * columns follow), or -1 when the frames have none for it (another model). */
static int modal_column(MotusWindow *self, int i)
{
    const MtFlexSpec *f = &self->model->flex[i];
    int N = f->data->body->nmode;
    if (N <= 0) return -1;
    const char *name = self->model->body[f->body].name;
    char buf[2 * MT_NAME_MAX];
    g_snprintf(buf, sizeof buf, "%s.w1", name);
    int col = motus_run_bridge_find_column(self->bridge, buf);
    g_snprintf(buf, sizeof buf, "%s.w%d", name, N);
    const char *last = col >= 0 ? motus_run_bridge_column_name(self->bridge, col + N - 1) : NULL;
    return last && !strcmp(last, buf) ? col : -1;
}

/* Modal coordinates of every flexible body at frame i into w (the view's
 * layout: specs with a reduction, in order); FALSE when there are none. */
static gboolean frame_modal(MotusWindow *self, guint i, double *w, int n)
{
    memset(w, 0, sizeof(double) * (size_t)n);
    if (!self->model || i >= motus_run_bridge_n_frames(self->bridge)) return FALSE;
    int off = 0;
    gboolean any = FALSE;
    for (int s = 0; s < self->model->nflex && off < n; s++) {
        const MtFlexSpec *f = &self->model->flex[s];
        if (!f->data) continue;
        int N = f->data->body->nmode, col = modal_column(self, s);
        for (int k = 0; col >= 0 && k < N && off + k < n; k++) w[off + k] = motus_run_bridge_value(self->bridge, col + k, i);
        any |= col >= 0;
        off += N;
    }
    return any;
}

void motus_window_flex_show_frame(MotusWindow *self, gboolean has_frame, guint i)
{
    int n = motus_viewport_n_modal(self->viewport);
    if (!n) return;
    g_autofree double *w = g_new(double, n);
    if (has_frame && frame_modal(self, i, w, n))
        motus_viewport_set_modal(self->viewport, w, n);
    else
        motus_viewport_set_modal(self->viewport, NULL, 0);
}

/* The largest displacement and von Mises stress of frames flex_scanned … n-1
 * join the run's maxima. */
void motus_window_flex_extend(MotusWindow *self)
{
    int n = motus_viewport_n_modal(self->viewport);
    guint frames = motus_run_bridge_n_frames(self->bridge);
    if (!n || !self->model || self->flex_scanned >= frames) return;
    g_autofree double *w = g_new(double, n);
    for (guint i = self->flex_scanned; i < frames; i++) {
        if (!frame_modal(self, i, w, n)) break;
        int off = 0;
        for (int s = 0; s < self->model->nflex; s++) {
            const MtFlexSpec *f = &self->model->flex[s];
            if (!f->data) continue;
            const MtFlexBody *fb = f->data->body;
            double rig[6];
            mt_flexview_support_motion(fb, w + off, rig);
            for (int k = 0; k < MT_FLEXFIELD_COUNT; k++)
                self->flex_max[k] = fmax(self->flex_max[k], mt_flexview_field(fb, w + off, rig, (MtFlexField)k, NULL));
            off += fb->nmode;
        }
    }
    self->flex_scanned = frames;
    motus_viewport_set_run_max(self->viewport, self->flex_max[0], self->flex_max[1]);
}

/* Frames were replaced (a new run, a stored run loaded) or the model changed. */
void motus_window_flex_reset(MotusWindow *self)
{
    self->flex_scanned = 0;
    self->flex_max[0] = self->flex_max[1] = 0;
    motus_viewport_set_run_max(self->viewport, 0, 0);
    motus_window_flex_extend(self);
}
