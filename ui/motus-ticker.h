/* motus-ticker.h — a line of text that changes many times a second (the
 * run's progress, the time shown), optionally with a progress bar at its end.
 *
 * Setting a GtkLabel's text or a GtkProgressBar's fraction lays the whole
 * window out again (and on X11 asks the server for the work area, a round
 * trip), which during a run cost about 3 ms of every frame. A ticker takes its
 * size from a sample text given once and only redraws when its text or
 * fraction changes. Properties "sample", "xalign" and "progress-width" (0: no
 * bar) can be set in a template. */
#ifndef MOTUS_TICKER_H
#define MOTUS_TICKER_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MOTUS_TYPE_TICKER (motus_ticker_get_type())
G_DECLARE_FINAL_TYPE(MotusTicker, motus_ticker, MOTUS, TICKER, GtkWidget)

GtkWidget *motus_ticker_new(void);
/* The text shown (ellipsized when longer than the sample). */
void motus_ticker_set_text(MotusTicker *self, const char *text);
const char *motus_ticker_get_text(MotusTicker *self);
/* The progress bar's fraction, 0 … 1 (shown when "progress-width" > 0). */
void motus_ticker_set_fraction(MotusTicker *self, double fraction);
double motus_ticker_get_fraction(MotusTicker *self);

G_END_DECLS

#endif
