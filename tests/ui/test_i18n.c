/* The window in Russian in-process under Xvfb (ctest gui_i18n): the inspector
 * shows units as the interface's language writes them (м, кг), a value typed
 * with such a unit ("250 мм") is read and kept in the model as its symbol
 * ("mm", so the project reads the same in every language), a unit of another
 * language's word and a broken expression refused beside the field in
 * Russian, and a joint's type named in Russian. */
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-window.h"
#include "motus/edit.h"
#include "ui-test.h"

static MotusInspector *inspector(void) { return MOTUS_INSPECTOR(motus_window_get_inspector(win)); }

static void test_units_typed_in_russian(void)
{
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "slider-crank.motus.txt", NULL);
    open_model(path);
    int b = mt_model_find_body(model(), "slider");
    g_assert_cmpint(b, >=, 0);
    motus_window_select_entity(win, MT_EDIT_BODY, b);
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "position.0"), ==, "м");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "mass"), ==, "кг");

    /* typed as shown: 250 мм is 0.25 m, and the model keeps the symbol */
    g_assert_true(motus_inspector_enter(inspector(), "position.2", "250 мм"));
    g_assert_cmpfloat_with_epsilon(model()->body[b].pos[2], 0.25, 1e-15);
    char buf[256];
    MtError err = {0};
    g_assert_cmpint(mt_edit_get_field(model(), MT_EDIT_BODY, b, "position.2", buf, sizeof buf, &err), ==, MT_OK);
    g_print("position z after '250 мм': '%s'\n", buf);
    g_assert_null(strstr(buf, "мм"));
    g_autofree char *text = model_text();
    g_assert_null(strstr(text, "мм"));

    /* a word that is no unit: refused beside the field, in Russian, the model unchanged */
    g_assert_false(motus_inspector_enter(inspector(), "position.2", "3 ммм"));
    const char *msg = motus_inspector_get_message(inspector(), "position.2");
    g_print("refused: %s\n", msg);
    g_assert_nonnull(strstr(msg, "slider"));
    g_assert_nonnull(strstr(msg, "неизвестная единица «ммм»"));
    g_autofree char *after = model_text();
    g_assert_cmpstr(text, ==, after);
    /* a broken expression: the expression compiler's message in Russian too */
    g_assert_false(motus_inspector_enter(inspector(), "position.2", "{2 *}"));
    msg = motus_inspector_get_message(inspector(), "position.2");
    g_print("refused: %s\n", msg);
    g_assert_nonnull(strstr(msg, "в конце выражения ожидалось значение"));
    /* the window as a Russian user sees it, kept as an artifact */
    wait_drawn();
    g_autofree char *png = g_build_filename(MOTUS_OUT_DIR, "i18n-ru.png", NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_screenshot(win, png, &error));
    g_print("screenshot: %s\n", png);
    /* the motor's law with its settings' units in Russian (the drop-downs show words, keep keywords) */
    motus_window_select_entity(win, MT_EDIT_DRIVER, 0);
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "law"), ==, "rate");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "coef.1"), ==, "рад/с");
    g_assert_true(motus_inspector_enter(inspector(), "coef.1", "120 об/мин"));
    g_assert_cmpfloat_with_epsilon(model()->driver[0].coef[1], 4 * G_PI, 1e-12);
    wait_drawn();
    g_autofree char *png2 = g_build_filename(MOTUS_OUT_DIR, "i18n-ru-driver.png", NULL);
    g_assert_true(motus_window_save_screenshot(win, png2, &error));

    /* the joint's type in the delete explanation is the Russian word */
    int j = mt_model_find_joint(model(), "main");
    g_assert_cmpint(j, >=, 0);
    g_assert_cmpstr(mt_joint_type_label(model()->joint[j].type), ==, "вращательный");
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "C.UTF-8"); /* LANGUAGE (ctest's environment) then picks ru */
    bindtextdomain("motus", MOTUS_LOCALEDIR);
    bind_textdomain_codeset("motus", "UTF-8");
    ui_test_init(&argc, &argv);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/i18n/units-typed-in-russian", test_units_typed_in_russian);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
