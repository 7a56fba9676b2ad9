/* xinput.h — real input for the GUI tests under Xvfb: key presses and mouse
 * clicks sent through the X server's XTest extension, so they reach the
 * window the way a user's do (GTK's key bindings, accelerators, focus and
 * popovers all take part). Included by one test program each. */
#ifndef MOTUS_XINPUT_H
#define MOTUS_XINPUT_H

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>
#include <gtk/gtk.h>

static inline Display *xin_display(void) { return gdk_x11_display_get_xdisplay(gdk_display_get_default()); }

static inline Window xin_window(GtkWidget *w)
{
    return gdk_x11_surface_get_xid(gtk_native_get_surface(gtk_widget_get_native(w)));
}

/* Gives the X input focus to a toplevel (there is no window manager under Xvfb). */
static inline void xin_focus(GtkWidget *toplevel)
{
    Display *d = xin_display();
    XRaiseWindow(d, xin_window(toplevel));
    XSetInputFocus(d, xin_window(toplevel), RevertToPointerRoot, CurrentTime);
    XSync(d, False);
}

static inline void xin_key_event(KeySym sym, Bool down)
{
    Display *d = xin_display();
    KeyCode kc = XKeysymToKeycode(d, sym);
    g_assert_cmpuint(kc, !=, 0);
    XTestFakeKeyEvent(d, kc, down, CurrentTime);
}

/* Presses and releases an accelerator written as GTK writes them
 * ("<Control><Shift>s", "F5", "space", "plus"); a keysym on the second level of
 * its key (plus on the = key) is typed with Shift, as a user does. */
static inline void xin_press(const char *accel)
{
    guint key = 0;
    GdkModifierType mods = 0;
    g_assert_true(gtk_accelerator_parse(accel, &key, &mods));
    Display *d = xin_display();
    KeyCode kc = XKeysymToKeycode(d, key);
    g_assert_cmpuint(kc, !=, 0);
    /* (not on the keypad, whose second level is NumLock's: KP_1 is sent as the key, read as KP_End) */
    if (!IsKeypadKey(key) && XkbKeycodeToKeysym(d, kc, 0, 0) != key && XkbKeycodeToKeysym(d, kc, 0, 1) == key)
        mods |= GDK_SHIFT_MASK;
    if (mods & GDK_CONTROL_MASK) xin_key_event(XK_Control_L, True);
    if (mods & GDK_SHIFT_MASK) xin_key_event(XK_Shift_L, True);
    XTestFakeKeyEvent(d, kc, True, CurrentTime);
    XTestFakeKeyEvent(d, kc, False, CurrentTime);
    if (mods & GDK_SHIFT_MASK) xin_key_event(XK_Shift_L, False);
    if (mods & GDK_CONTROL_MASK) xin_key_event(XK_Control_L, False);
    XSync(d, False);
}

/* Types ASCII text key by key. */
static inline void xin_type(const char *text)
{
    for (const char *c = text; *c; c++) {
        char name[16] = {g_ascii_tolower(*c), 0};
        if (g_ascii_isupper(*c)) g_snprintf(name, sizeof name, "<Shift>%c", g_ascii_tolower(*c));
        const char *accel = *c == '/'   ? "slash"
                            : *c == '.' ? "period"
                            : *c == '-' ? "minus"
                            : *c == '_' ? "underscore"
                            : *c == ' ' ? "space"
                            : *c == ',' ? "comma"
                                        : name;
        xin_press(accel);
    }
}

static gboolean xin_wake(gpointer data)
{
    (void)data;
    return G_SOURCE_CONTINUE;
}

/* A left click at the centre of a widget (mapped, in a window on screen).
 * The button goes down only once GTK has seen the pointer over the widget
 * (it is prelit): on a loaded machine a dialog may still be laid out when it
 * is first shown, and a click sent at once could land elsewhere. */
static inline void xin_click(GtkWidget *w)
{
    guint id = g_timeout_add(10, xin_wake, NULL);
    for (int tries = 0; tries < 20 && !(gtk_widget_get_mapped(w) && gtk_widget_get_width(w) > 0); tries++)
        g_main_context_iteration(NULL, TRUE);
    graphene_rect_t r;
    GtkNative *native = gtk_widget_get_native(w);
    g_assert_true(gtk_widget_compute_bounds(w, GTK_WIDGET(native), &r));
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(native, &sx, &sy);
    Display *d = xin_display();
    int rx, ry;
    Window child;
    XTranslateCoordinates(d, xin_window(w), DefaultRootWindow(d), (int)(sx + r.origin.x + r.size.width / 2),
                          (int)(sy + r.origin.y + r.size.height / 2), &rx, &ry, &child);
    XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
    XSync(d, False);
    gint64 end = g_get_monotonic_time() + 5000000;
    while (!(gtk_widget_get_state_flags(w) & GTK_STATE_FLAG_PRELIGHT) && g_get_monotonic_time() < end)
        g_main_context_iteration(NULL, TRUE);
    g_source_remove(id);
    g_assert_true(gtk_widget_get_state_flags(w) & GTK_STATE_FLAG_PRELIGHT);
    XTestFakeButtonEvent(d, 1, True, CurrentTime);
    XTestFakeButtonEvent(d, 1, False, CurrentTime);
    XSync(d, False);
}

/* Moves the pointer to (x, y) in a widget's coordinates and turns the loop for `us` microseconds. */
static inline void xin_pointer_to(GtkWidget *w, double x, double y, gint64 us)
{
    GtkNative *native = gtk_widget_get_native(w);
    graphene_point_t a = GRAPHENE_POINT_INIT((float)x, (float)y), b;
    g_assert_true(gtk_widget_compute_point(w, GTK_WIDGET(native), &a, &b));
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(native, &sx, &sy);
    Display *d = xin_display();
    int rx, ry;
    Window child;
    XTranslateCoordinates(d, xin_window(w), DefaultRootWindow(d), (int)(sx + b.x), (int)(sy + b.y), &rx, &ry, &child);
    XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
    XSync(d, False);
    guint id = g_timeout_add(10, xin_wake, NULL);
    gint64 end = g_get_monotonic_time() + us;
    while (g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
    g_source_remove(id);
}

/* Moves the pointer to (x, y) in a widget's coordinates (no button) and turns the loop a moment. */
static inline void xin_move_at(GtkWidget *w, double x, double y) { xin_pointer_to(w, x, y, 150000); }

/* A left click at (x, y) in a widget's coordinates, with Ctrl held when ctrl (a GL area is not prelit: the
 * pointer is moved there and the loop turned before the button goes down). */
static inline void xin_click_at(GtkWidget *w, double x, double y, gboolean ctrl)
{
    xin_pointer_to(w, x, y, 200000);
    Display *d = xin_display();
    if (ctrl) xin_key_event(XK_Control_L, True);
    XTestFakeButtonEvent(d, 1, True, CurrentTime);
    XTestFakeButtonEvent(d, 1, False, CurrentTime);
    if (ctrl) xin_key_event(XK_Control_L, False);
    XSync(d, False);
}

/* A left-button drag from (x0, y0) to (x1, y1), a widget's coordinates, in `steps` motions with the loop turned
 * between them (as a hand moves a slider), the button released at the end. */
static inline void xin_drag(GtkWidget *w, double x0, double y0, double x1, double y1, int steps)
{
    Display *d = xin_display();
    xin_pointer_to(w, x0, y0, 200000); /* the pointer over the start: the button goes down */
    XTestFakeButtonEvent(d, 1, True, CurrentTime);
    XSync(d, False);
    for (int k = 0; k <= steps; k++)
        xin_pointer_to(w, x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps, 30000);
    XTestFakeButtonEvent(d, 1, False, CurrentTime);
    XSync(d, False);
}

/* The first widget under root (depth first) for which match(w, data) holds. */
static inline GtkWidget *xin_find(GtkWidget *root, gboolean (*match)(GtkWidget *, gconstpointer), gconstpointer data)
{
    if (match(root, data)) return root;
    for (GtkWidget *c = gtk_widget_get_first_child(root); c; c = gtk_widget_get_next_sibling(c)) {
        GtkWidget *f = xin_find(c, match, data);
        if (f) return f;
    }
    return NULL;
}

/* Matches a mapped widget whose tooltip starts with the given text. */
static inline gboolean xin_has_tooltip_prefix(GtkWidget *w, gconstpointer prefix)
{
    const char *t = gtk_widget_get_tooltip_text(w);
    return t && gtk_widget_get_mapped(w) && g_str_has_prefix(t, prefix);
}

/* Matches a button or menu item showing a label (mnemonic underscores ignored). */
static inline gboolean xin_has_label(GtkWidget *w, gconstpointer label)
{
    const char *want = label;
    char *text = NULL;
    if (GTK_IS_LABEL(w) && gtk_widget_get_mapped(w))
        text = g_strdup(gtk_label_get_label(GTK_LABEL(w)));
    else if (g_object_class_find_property(G_OBJECT_GET_CLASS(w), "text") && !GTK_IS_EDITABLE(w) && gtk_widget_get_mapped(w))
        g_object_get(w, "text", &text, NULL);
    if (!text) return FALSE;
    char *plain = g_strdup(text), *o = plain;
    for (const char *i = text; *i; i++)
        if (*i != '_') *o++ = *i;
    *o = 0;
    gboolean same = !strcmp(plain, want);
    g_free(plain);
    g_free(text);
    return same;
}

#endif
