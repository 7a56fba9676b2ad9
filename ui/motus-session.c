/* motus-session.c — runs and playback (see motus-session.h). Playback is a
 * tick callback on the clock widget: each frame moves the time by the frame
 * clock's step times the speed; at the end of a live run it waits there, at
 * the end of a finished one it loops or stops. */
#include "motus-session.h"

struct _MotusSession {
    GObject parent_instance;
    MotusRunBridge *bridge; /* the worker and the frames of the run shown */
    GtkWidget *clock;       /* weak: whose frame clock playback ticks on */
    double time;            /* the time shown, s */
    double speed;
    gboolean playing, loop, follow_live;
    guint tick_id;
    gint64 last_tick;
    /* the readers of the frames: how far each has got */
    guint plotted;            /* frames appended to the curves */
    guint flex_scanned;       /* frames whose fields are in the flexible bodies' colour range */
    gboolean run_frames_seen; /* the running run's first frames came */
};

G_DEFINE_FINAL_TYPE(MotusSession, motus_session, G_TYPE_OBJECT)

enum { PROP_0, PROP_PLAYING, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_TIME_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    MotusSession *self = MOTUS_SESSION(object);
    switch (id) {
    case PROP_PLAYING: g_value_set_boolean(value, self->playing); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void dispose(GObject *object)
{
    MotusSession *self = MOTUS_SESSION(object);
    motus_session_detach(self);
    g_clear_object(&self->bridge); /* joins a running worker */
    G_OBJECT_CLASS(motus_session_parent_class)->dispose(object);
}

static void motus_session_class_init(MotusSessionClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = get_property;
    oc->dispose = dispose;
    props[PROP_PLAYING] = g_param_spec_boolean("playing", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
    signals[SIG_TIME_CHANGED] = g_signal_new("time-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                             NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);
}

static void motus_session_init(MotusSession *self)
{
    self->bridge = motus_run_bridge_new();
    self->speed = 1;
}

MotusSession *motus_session_new(GtkWidget *clock)
{
    MotusSession *self = g_object_new(MOTUS_TYPE_SESSION, NULL);
    self->clock = clock;
    g_object_add_weak_pointer(G_OBJECT(clock), (gpointer *)&self->clock);
    return self;
}

void motus_session_detach(MotusSession *self)
{
    if (!self->clock) return;
    if (self->tick_id) gtk_widget_remove_tick_callback(self->clock, self->tick_id);
    self->tick_id = 0;
    g_object_remove_weak_pointer(G_OBJECT(self->clock), (gpointer *)&self->clock);
    self->clock = NULL;
}

MotusRunBridge *motus_session_get_bridge(MotusSession *self) { return self->bridge; }
guint motus_session_n_frames(MotusSession *self) { return motus_run_bridge_n_frames(self->bridge); }
double motus_session_get_time(MotusSession *self) { return self->time; }
gboolean motus_session_get_playing(MotusSession *self) { return self->playing; }
gboolean motus_session_get_follow_live(MotusSession *self) { return self->follow_live; }
void motus_session_set_follow_live(MotusSession *self, gboolean follow) { self->follow_live = follow; }
void motus_session_set_speed(MotusSession *self, double speed) { self->speed = speed; }
void motus_session_set_loop(MotusSession *self, gboolean loop) { self->loop = loop; }
guint motus_session_get_plotted(MotusSession *self) { return self->plotted; }
void motus_session_set_plotted(MotusSession *self, guint n) { self->plotted = n; }
guint motus_session_get_flex_scanned(MotusSession *self) { return self->flex_scanned; }
void motus_session_set_flex_scanned(MotusSession *self, guint n) { self->flex_scanned = n; }
gboolean motus_session_get_run_frames_seen(MotusSession *self) { return self->run_frames_seen; }
void motus_session_set_run_frames_seen(MotusSession *self, gboolean seen) { self->run_frames_seen = seen; }

void motus_session_restart_readers(MotusSession *self)
{
    self->plotted = self->flex_scanned = 0;
    self->run_frames_seen = FALSE;
}

void motus_session_show_time(MotusSession *self, double t)
{
    self->time = t;
    g_signal_emit(self, signals[SIG_TIME_CHANGED], 0, t);
}

static gboolean tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    MotusSession *self = data;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    double dt = self->last_tick ? (double)(now - self->last_tick) * 1e-6 : 0;
    self->last_tick = now;
    double end = motus_run_bridge_last_time(self->bridge), t = self->time + dt * self->speed;
    if (t >= end) {
        if (motus_run_bridge_is_running(self->bridge))
            t = end;
        else if (self->loop)
            t = 0;
        else {
            t = end;
            self->playing = FALSE;
        }
    }
    motus_session_show_time(self, t);
    if (!self->playing) {
        self->tick_id = 0;
        g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PLAYING]);
        return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
}

void motus_session_set_playing(MotusSession *self, gboolean play)
{
    self->playing = play;
    if (play && !self->tick_id && self->clock) {
        self->last_tick = 0;
        self->tick_id = gtk_widget_add_tick_callback(self->clock, tick, self, NULL);
    } else if (!play && self->tick_id) {
        gtk_widget_remove_tick_callback(self->clock, self->tick_id);
        self->tick_id = 0;
    }
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PLAYING]);
}
