/* motus-model-tree.h — the model tree: bodies (with their markers and
 * shapes, the ground first), joints, drivers, springs, couplings, force
 * elements, sensors and parameters by name, with their type beside them. Selecting a row emits "selected" (kind, index). */
#ifndef MOTUS_MODEL_TREE_H
#define MOTUS_MODEL_TREE_H

#include <gtk/gtk.h>

#include "motus/model.h"

G_BEGIN_DECLS

typedef enum {
    MOTUS_ENTITY_NONE,
    MOTUS_ENTITY_GROUND,
    MOTUS_ENTITY_BODY,
    MOTUS_ENTITY_MARKER,
    MOTUS_ENTITY_JOINT,
    MOTUS_ENTITY_DRIVER,
    MOTUS_ENTITY_SPRING,
    MOTUS_ENTITY_COUPLING,
    MOTUS_ENTITY_FORCE,
    MOTUS_ENTITY_SENSOR,
    MOTUS_ENTITY_SHAPE,
    MOTUS_ENTITY_PARAM
} MotusEntityKind;

#define MOTUS_TYPE_MODEL_TREE (motus_model_tree_get_type())
G_DECLARE_FINAL_TYPE(MotusModelTree, motus_model_tree, MOTUS, MODEL_TREE, GtkWidget)

GtkWidget *motus_model_tree_new(void);
/* Shows the entities of m (names are copied; NULL empties the tree). */
void motus_model_tree_set_model(MotusModelTree *self, const MtModel *m);
/* Selects the row of an entity (MOTUS_ENTITY_NONE clears the selection);
 * emits "selected" only when the selection changes. */
void motus_model_tree_select(MotusModelTree *self, MotusEntityKind kind, int index);
/* Kind and index of the selected row (MOTUS_ENTITY_NONE, -1 when none). */
MotusEntityKind motus_model_tree_get_selected(MotusModelTree *self, int *index);
/* The result column the selected row gives when dragged onto a plot (its
 * sensor; a joint's coordinate; a body's y; a driver's effort; a spring's
 * force; a force element's deflection), or NULL. */
const char *motus_model_tree_selected_column(MotusModelTree *self);
/* Number of rows shown (expanded categories included), for tests. */
guint motus_model_tree_n_rows(MotusModelTree *self);

G_END_DECLS

#endif
