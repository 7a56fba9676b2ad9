/* motus-ticker.c — text and progress drawn without a relayout (see motus-ticker.h). */
#include "motus-ticker.h"

#include <math.h>

struct _MotusTicker {
    GtkWidget parent_instance;
    char *text, *sample;
    float xalign;
    int progress_width; /* px; 0: no bar */
    double fraction;
};

enum { PROP_0, PROP_TEXT, PROP_SAMPLE, PROP_XALIGN, PROP_PROGRESS_WIDTH, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_TYPE(MotusTicker, motus_ticker, GTK_TYPE_WIDGET)

enum { GAP = 10, BAR_HEIGHT = 6 };

/* A layout with tabular figures, so that changing digits do not jiggle. */
static PangoLayout *make_layout(MotusTicker *self, const char *text)
{
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self), text);
    PangoAttrList *attrs = pango_attr_list_new();
    pango_attr_list_insert(attrs, pango_attr_font_features_new("tnum=1"));
    pango_layout_set_attributes(l, attrs);
    pango_attr_list_unref(attrs);
    return l;
}

static void measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat, int *min_base, int *nat_base)
{
    (void)for_size;
    MotusTicker *self = MOTUS_TICKER(w);
    PangoLayout *l = make_layout(self, self->sample && self->sample[0] ? self->sample : "0");
    int tw, th;
    pango_layout_get_pixel_size(l, &tw, &th);
    if (!self->sample || !self->sample[0]) tw = 0;
    g_object_unref(l);
    if (o == GTK_ORIENTATION_HORIZONTAL)
        *min = *nat = tw + (self->progress_width > 0 ? self->progress_width + (tw ? GAP : 0) : 0);
    else
        *min = *nat = MAX(th, BAR_HEIGHT);
    *min_base = *nat_base = -1;
}

static void snapshot(GtkWidget *w, GtkSnapshot *snap)
{
    MotusTicker *self = MOTUS_TICKER(w);
    int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    GdkRGBA fg;
#if GTK_CHECK_VERSION(4, 10, 0)
    gtk_widget_get_color(w, &fg);
#else
    gtk_style_context_get_color(gtk_widget_get_style_context(w), &fg);
#endif
    int bar = self->progress_width > 0 ? MIN(self->progress_width, width) : 0;
    int text_w = width - bar - (bar && self->sample && self->sample[0] ? GAP : 0);
    if (text_w > 0 && self->text && self->text[0]) {
        PangoLayout *l = make_layout(self, self->text);
        pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
        pango_layout_set_width(l, text_w * PANGO_SCALE);
        int lw, lh;
        pango_layout_get_pixel_size(l, &lw, &lh);
        gtk_snapshot_save(snap);
        gtk_snapshot_translate(snap, &GRAPHENE_POINT_INIT(roundf(self->xalign * (float)(text_w - lw)), floorf((float)(height - lh) / 2)));
        gtk_snapshot_append_layout(snap, l, &fg);
        gtk_snapshot_restore(snap);
        g_object_unref(l);
    }
    if (bar) { /* a trough in the text colour, filled with the accent colour */
        float x = (float)(width - bar), y = floorf((float)(height - BAR_HEIGHT) / 2), r = BAR_HEIGHT / 2.0f;
        GdkRGBA trough = fg, fill = {0.208f, 0.518f, 0.894f, 1};
        trough.alpha *= 0.15f;
        GskRoundedRect rr;
        gsk_rounded_rect_init_from_rect(&rr, &GRAPHENE_RECT_INIT(x, y, (float)bar, BAR_HEIGHT), r);
        gtk_snapshot_push_rounded_clip(snap, &rr);
        gtk_snapshot_append_color(snap, &trough, &GRAPHENE_RECT_INIT(x, y, (float)bar, BAR_HEIGHT));
        gtk_snapshot_append_color(snap, &fill, &GRAPHENE_RECT_INIT(x, y, (float)(bar * CLAMP(self->fraction, 0, 1)), BAR_HEIGHT));
        gtk_snapshot_pop(snap);
    }
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    MotusTicker *self = MOTUS_TICKER(object);
    switch (id) {
    case PROP_TEXT: g_value_set_string(value, self->text); break;
    case PROP_SAMPLE: g_value_set_string(value, self->sample); break;
    case PROP_XALIGN: g_value_set_float(value, self->xalign); break;
    case PROP_PROGRESS_WIDTH: g_value_set_int(value, self->progress_width); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    MotusTicker *self = MOTUS_TICKER(object);
    switch (id) {
    case PROP_TEXT: motus_ticker_set_text(self, g_value_get_string(value)); break;
    case PROP_SAMPLE:
        g_free(self->sample);
        self->sample = g_value_dup_string(value);
        gtk_widget_queue_resize(GTK_WIDGET(self));
        break;
    case PROP_XALIGN:
        self->xalign = g_value_get_float(value);
        gtk_widget_queue_draw(GTK_WIDGET(self));
        break;
    case PROP_PROGRESS_WIDTH:
        self->progress_width = g_value_get_int(value);
        gtk_widget_queue_resize(GTK_WIDGET(self));
        break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void finalize(GObject *object)
{
    MotusTicker *self = MOTUS_TICKER(object);
    g_free(self->text);
    g_free(self->sample);
    G_OBJECT_CLASS(motus_ticker_parent_class)->finalize(object);
}

static void motus_ticker_class_init(MotusTickerClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->get_property = get_property;
    oc->set_property = set_property;
    oc->finalize = finalize;
    wc->measure = measure;
    wc->snapshot = snapshot;
    props[PROP_TEXT] = g_param_spec_string("text", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
    props[PROP_SAMPLE] = g_param_spec_string("sample", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
    props[PROP_XALIGN] = g_param_spec_float("xalign", NULL, NULL, 0, 1, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
    props[PROP_PROGRESS_WIDTH] =
        g_param_spec_int("progress-width", NULL, NULL, 0, 10000, 0, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
    gtk_widget_class_set_css_name(wc, "motus-ticker");
    gtk_widget_class_set_accessible_role(wc, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void motus_ticker_init(MotusTicker *self) { (void)self; }

GtkWidget *motus_ticker_new(void) { return g_object_new(MOTUS_TYPE_TICKER, NULL); }

void motus_ticker_set_text(MotusTicker *self, const char *text)
{
    g_return_if_fail(MOTUS_IS_TICKER(self));
    if (!g_strcmp0(self->text, text)) return;
    g_free(self->text);
    self->text = g_strdup(text);
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL, text ? text : "", -1);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

const char *motus_ticker_get_text(MotusTicker *self) { return self->text ? self->text : ""; }

void motus_ticker_set_fraction(MotusTicker *self, double fraction)
{
    g_return_if_fail(MOTUS_IS_TICKER(self));
    if (!isfinite(fraction) || fraction == self->fraction) return;
    self->fraction = fraction;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

double motus_ticker_get_fraction(MotusTicker *self) { return self->fraction; }
