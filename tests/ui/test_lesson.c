/* The lesson mode in Russian, in-process under Xvfb with real keys and clicks
 * (ctest gui_lesson): the course problem K04 (the instantaneous centre of a
 * four-bar's coupler) opens with its Russian statement on the "Задача" page;
 * an answer typed without a unit is asked for its unit, a wrong one is told
 * so, 70 cm for the centre's 0.7 m is right; "Показать решение" shows the
 * Russian answer, runs the kinematics and draws the coupler's instantaneous
 * centre at (0, 0.7 m), the closed form, to 1e-6 m. */
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"
#include "ui-wait.h"
#include "xinput.h"

static gboolean is_entry(GtkWidget *w, gconstpointer data)
{
    (void)data;
    return GTK_IS_ENTRY(w) && gtk_widget_get_mapped(w);
}
static gboolean label_has(GtkWidget *w, gconstpointer text)
{
    return GTK_IS_LABEL(w) && gtk_widget_get_mapped(w) && strstr(gtk_label_get_text(GTK_LABEL(w)), text);
}

/* Scrolls the page holding w so that w is on screen. */
static void scroll_to(GtkWidget *w)
{
    GtkWidget *sw = gtk_widget_get_ancestor(w, GTK_TYPE_SCROLLED_WINDOW);
    g_assert_nonnull(sw);
    graphene_point_t a = GRAPHENE_POINT_INIT(0, 0), b;
    GtkWidget *content = gtk_scrolled_window_get_child(GTK_SCROLLED_WINDOW(sw));
    g_assert_true(gtk_widget_compute_point(w, content, &a, &b));
    gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(sw)), b.y - 10);
    settle_for(0.3);
}

static GtkWidget *verdict;
static const char *want;
static gboolean verdict_says(void) { return strstr(gtk_label_get_text(GTK_LABEL(verdict)), want) != NULL; }

static void answer(GtkWidget *entry, const char *typed, const char *words)
{
    scroll_to(entry);
    xin_click_at(entry, gtk_widget_get_width(entry) / 2.0, gtk_widget_get_height(entry) / 2.0, FALSE); /* (entries are not prelit) */
    settle_for(0.1);
    xin_press("<Control>a");
    xin_type(typed);
    xin_press("Return");
    want = words;
    if (!wait_for(verdict_says, 5))
        g_error("'%s' typed, the field holds '%s', the verdict says '%s'", typed, gtk_editable_get_text(GTK_EDITABLE(entry)),
                gtk_label_get_text(GTK_LABEL(verdict)));
    g_test_message("'%s': %s", typed, gtk_label_get_text(GTK_LABEL(verdict)));
}

static int centre_item(void)
{
    for (guint i = 0; i < motus_viewport_overlay_size(viewport()); i++)
        if (g_str_has_prefix(motus_viewport_overlay_label(viewport(), i), "P ")) return (int)i;
    return -1;
}
static gboolean centre_drawn(void) { return centre_item() >= 0; }

static void test_lesson(void)
{
    g_autofree char *path = g_build_filename(MOTUS_UI_DIR, "lesson-fourbar.motus.txt", NULL); /* course problem K04 */
    open_model(path);
    g_assert_true(motus_window_lesson_shown(win));
    settle_for(0.3);
    g_assert_nonnull(xin_find(GTK_WIDGET(win), label_has, "четырёхзвеннике"));
    xin_focus(GTK_WIDGET(win));
    settle_for(0.2);
    GtkWidget *entry = xin_find(GTK_WIDGET(win), is_entry, NULL); /* the first asked: icr_y, 0.7 m */
    g_assert_nonnull(entry);
    verdict = gtk_widget_get_next_sibling(entry);
    g_assert_true(GTK_IS_LABEL(verdict));
    answer(entry, "0.7", "единиц");   /* no unit: asked for it */
    answer(entry, "0.6 m", "Неверно"); /* 14 % off */
    answer(entry, "70 cm", "Верно");   /* the same 0.7 m */
    /* the solution: the answer in Russian, the kinematics run, the centre drawn */
    GtkWidget *show = xin_find(GTK_WIDGET(win), xin_has_label, "Показать решение");
    g_assert_nonnull(show);
    scroll_to(show);
    xin_click(show);
    g_assert_true(wait_for(centre_drawn, 30));
    g_assert_nonnull(xin_find(GTK_WIDGET(win), label_has, "0,8 рад/с"));
    double p[3];
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)centre_item(), p, NULL));
    g_test_message("centre (%.9f, %.9f) m, closed form (0, 0.7)", p[0], p[1]);
    g_assert_cmpfloat(hypot(p[0], p[1] - 0.7), <, 1e-6);
    settle_for(0.5);
    wait_drawn();
    g_autoptr(GError) shot_error = NULL;
    for (int i = 0; i < 20 && !motus_window_save_screenshot(win, MOTUS_OUT_DIR "/lesson-ru.png", &shot_error); i++) {
        g_clear_error(&shot_error); /* (no picture until the next frame: see motus_window_save_screenshot) */
        gtk_widget_queue_draw(GTK_WIDGET(win));
        settle_for(0.1);
    }
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "C.UTF-8"); /* LANGUAGE (ctest's environment) then picks ru */
    bindtextdomain("motus", MOTUS_LOCALEDIR);
    bind_textdomain_codeset("motus", "UTF-8");
    ui_test_init(&argc, &argv);
    gtk_window_set_default_size(GTK_WINDOW(win), 1200, 760);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/lesson/answer-and-solution", test_lesson);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
