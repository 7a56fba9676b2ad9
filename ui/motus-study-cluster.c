/* motus-study-cluster.c — the Study panel's Slurm row (see
 * motus-study-cluster.h). squeue and motus-cli run as subprocesses whose
 * output is read asynchronously; a cancellable ends what is in flight when
 * the row goes (their callbacks then touch nothing of it). */
#include "motus-study-cluster.h"

#include <string.h>

#include "motus-i18n.h"

struct MotusStudyCluster {
    GtkWidget *row, *label, *collect;
    char *project, *job, *status, *state, *collect_line; /* status: the state squeue gave, and the last collect's words */
    int submission;
    guint timer;
    gboolean asking, collecting;
    GCancellable *cancel;
    MotusStudyClusterFn collected;
    gpointer user;
};

static void show(MotusStudyCluster *c)
{
    g_free(c->status);
    c->status = c->collect_line ? g_strdup_printf(_("%s. Last collect: %s"), c->state ? c->state : "", c->collect_line)
                                : g_strdup(c->state ? c->state : "");
    gtk_label_set_text(GTK_LABEL(c->label), c->status);
    gtk_widget_set_tooltip_text(c->label, c->status);
}

static void set_status(MotusStudyCluster *c, const char *text)
{
    g_free(c->state);
    c->state = g_strdup(text);
    show(c);
}

/* The motus-cli beside this program (MOTUS_CLI names another), else the one on the PATH. */
static char *cli_path(void)
{
    const char *env = g_getenv("MOTUS_CLI");
    if (env && *env) return g_strdup(env);
    g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *dir = self ? g_path_get_dirname(self) : NULL;
    char *beside = dir ? g_build_filename(dir, "motus-cli", NULL) : NULL;
    if (beside && g_file_test(beside, G_FILE_TEST_IS_EXECUTABLE)) return beside;
    g_free(beside);
    return g_strdup("motus-cli");
}

/* ---- squeue ------------------------------------------------------------------------------------------ */

static void squeue_done(GObject *src, GAsyncResult *res, gpointer data)
{
    g_autofree char *out = NULL;
    g_autoptr(GError) error = NULL;
    gboolean ok = g_subprocess_communicate_utf8_finish(G_SUBPROCESS(src), res, &out, NULL, &error);
    if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) return; /* the row is gone */
    MotusStudyCluster *c = data;
    c->asking = FALSE;
    if (c->collecting) return;
    g_autofree char *t = NULL;
    if (!ok || !g_subprocess_get_successful(G_SUBPROCESS(src))) {
        t = g_strdup_printf(_("Slurm job %s: squeue cannot tell its state (is Slurm reachable from here?)"), c->job);
    } else {
        int pending = 0, running = 0, other = 0;
        g_auto(GStrv) lines = g_strsplit(out ? out : "", "\n", -1);
        for (int i = 0; lines[i]; i++) {
            g_strstrip(lines[i]);
            if (!lines[i][0]) continue;
            if (!strcmp(lines[i], "PENDING")) pending++;
            else if (!strcmp(lines[i], "RUNNING")) running++;
            else other++;
        }
        if (!pending && !running && !other)
            t = g_strdup_printf(_("Slurm job %s: no task queued or running; Collect gathers the cases it finished"), c->job);
        else
            t = g_strdup_printf(_("Slurm job %s: %d tasks pending, %d running, %d in other states"), c->job, pending, running, other);
    }
    set_status(c, t);
}

static gboolean ask(gpointer data)
{
    MotusStudyCluster *c = data;
    if (!c->job || c->asking || c->collecting) return G_SOURCE_CONTINUE;
    const char *argv[] = {"squeue", "-h", "-r", "-j", c->job, "-o", "%T", NULL};
    g_autoptr(GError) error = NULL;
    GSubprocess *p = g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
    if (!p) {
        g_autofree char *t = g_strdup_printf(_("Slurm job %s: cannot run squeue: %s"), c->job, error->message);
        set_status(c, t);
        return G_SOURCE_CONTINUE;
    }
    c->asking = TRUE;
    g_subprocess_communicate_utf8_async(p, NULL, c->cancel, squeue_done, c);
    g_object_unref(p); /* the operation holds it */
    return G_SOURCE_CONTINUE;
}

/* ---- collect ------------------------------------------------------------------------------------------ */

static void collect_done(GObject *src, GAsyncResult *res, gpointer data)
{
    g_autofree char *out = NULL;
    g_autoptr(GError) error = NULL;
    gboolean ok = g_subprocess_communicate_utf8_finish(G_SUBPROCESS(src), res, &out, NULL, &error);
    if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) return;
    MotusStudyCluster *c = data;
    c->collecting = FALSE;
    gtk_widget_set_sensitive(c->collect, TRUE);
    /* its first line says how many cases are in; the rest lists what is not */
    g_auto(GStrv) lines = g_strsplit(out ? g_strstrip(out) : "", "\n", 2);
    g_free(c->collect_line);
    c->collect_line = ok ? g_strdup(lines[0] ? lines[0] : "") : g_strdup_printf(_("failed: %s"), error ? error->message : "");
    show(c);
    if (c->collected) c->collected(c->user);
    ask(c); /* the state again, at once */
}

static void collect_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusStudyCluster *c = data;
    if (!c->project || c->collecting) return;
    g_autofree char *cli = cli_path();
    const char *argv[] = {cli, "study", c->project, "--collect", NULL};
    g_autoptr(GError) error = NULL;
    GSubprocess *p = g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error);
    if (!p) {
        g_free(c->collect_line);
        c->collect_line = g_strdup_printf(_("failed: %s"), error->message);
        show(c);
        return;
    }
    c->collecting = TRUE;
    gtk_widget_set_sensitive(c->collect, FALSE);
    g_free(c->collect_line);
    c->collect_line = g_strdup(_("running…"));
    show(c);
    g_subprocess_communicate_utf8_async(p, NULL, c->cancel, collect_done, c);
    g_object_unref(p);
}

/* ---- the row ------------------------------------------------------------------------------------------ */

MotusStudyCluster *motus_study_cluster_new(MotusStudyClusterFn collected, gpointer user)
{
    MotusStudyCluster *c = g_new0(MotusStudyCluster, 1);
    c->collected = collected, c->user = user;
    c->cancel = g_cancellable_new();
    c->row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    g_object_ref_sink(c->row);
    c->label = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(c->label), 0);
    gtk_label_set_ellipsize(GTK_LABEL(c->label), PANGO_ELLIPSIZE_END);
    gtk_widget_set_hexpand(c->label, TRUE);
    c->collect = gtk_button_new_with_mnemonic(_("_Collect"));
    gtk_widget_set_tooltip_text(c->collect, _("Gather the cases the cluster finished into the project (motus-cli study --collect)"));
    g_signal_connect(c->collect, "clicked", G_CALLBACK(collect_clicked), c);
    gtk_box_append(GTK_BOX(c->row), c->label);
    gtk_box_append(GTK_BOX(c->row), c->collect);
    gtk_widget_set_visible(c->row, FALSE);
    return c;
}

void motus_study_cluster_free(MotusStudyCluster *c)
{
    if (!c) return;
    g_cancellable_cancel(c->cancel);
    g_object_unref(c->cancel);
    g_clear_handle_id(&c->timer, g_source_remove);
    g_object_unref(c->row);
    g_free(c->project);
    g_free(c->job);
    g_free(c->status);
    g_free(c->state);
    g_free(c->collect_line);
    g_free(c);
}

GtkWidget *motus_study_cluster_widget(MotusStudyCluster *c) { return c->row; }
const char *motus_study_cluster_status(MotusStudyCluster *c) { return c->status ? c->status : ""; }
GtkWidget *motus_study_cluster_collect_button(MotusStudyCluster *c) { return c->collect; }

void motus_study_cluster_set_project(MotusStudyCluster *c, const char *project)
{
    if (c->collecting) return; /* what it collects into stays */
    if (c->job && !g_strcmp0(project, c->project)) return; /* the same project: followed already */
    g_clear_handle_id(&c->timer, g_source_remove);
    g_clear_pointer(&c->collect_line, g_free);
    g_clear_pointer(&c->job, g_free);
    g_free(c->project);
    c->project = g_strdup(project);
    c->submission = 0;
    for (int n = 1; project; n++) { /* the newest submission: submit-N.job with the largest N */
        g_autofree char *path = g_strdup_printf("%s.study/submit-%d.job", project, n);
        g_autofree char *text = NULL;
        if (!g_file_get_contents(path, &text, NULL, NULL)) {
            g_autofree char *cases = g_strdup_printf("%s.study/submit-%d.cases", project, n);
            if (!g_file_test(cases, G_FILE_TEST_EXISTS)) break; /* a submission without a job id (sbatch failed) goes on */
            continue;
        }
        g_strstrip(text);
        if (!text[0]) continue;
        g_free(c->job);
        c->job = g_strdup(text);
        c->submission = n;
    }
    gtk_widget_set_visible(c->row, c->job != NULL);
    if (!c->job) {
        g_clear_pointer(&c->status, g_free);
        return;
    }
    g_autofree char *t = g_strdup_printf(_("Slurm job %s (submission %d): asking squeue…"), c->job, c->submission);
    set_status(c, t);
    ask(c);
    c->timer = g_timeout_add_seconds(5, ask, c);
}
