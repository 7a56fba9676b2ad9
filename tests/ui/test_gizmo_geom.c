/* Geometry of the move/rotate gizmo (ui/motus-gizmo.c), without a display:
 * its arrows are MOTUS_GIZMO_PX long on screen; a click on an arrow or ring
 * finds it, a click beside finds none; a drag along an arrow moves by the
 * pixels over the arrow's pixels per unit (Ctrl: whole millimetres); a drag
 * around a ring that faces the viewer turns by the angle swept on screen,
 * with the sign of a right-handed turn (seen from behind, the other way); a
 * ring seen edge-on turns by the drag along its tangent over its radius. */
#include <glib.h>
#include <math.h>

#include "motus-gizmo.h"

enum { W = 800, H = 600 };

static MotusCamera front(float yaw_extra)
{
    MotusCamera c;
    motus_camera_init(&c, 1);
    motus_camera_preset(&c, MOTUS_VIEW_FRONT); /* y up, looking along -z: x right, z at the viewer */
    motus_camera_orbit(&c, yaw_extra, 0);
    c.target[0] = c.target[1] = c.target[2] = 0;
    c.distance = 2;
    c.scene_radius = 1;
    return c;
}

static MotusGizmo gizmo(MotusGizmoMode mode)
{
    MotusGizmo g = {mode, {0.1, 0.2, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    return g;
}

static void test_move(void)
{
    MotusCamera c = front(0);
    MotusGizmo g = gizmo(MOTUS_GIZMO_MOVE);
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    g_assert_cmpint(motus_gizmo_path(&g, &c, W, H, 0, xy), ==, 2);
    /* the x arrow runs right from 15 % to 100 % of MOTUS_GIZMO_PX */
    g_assert_cmpfloat(fabs(xy[2] - xy[0] - 0.85 * MOTUS_GIZMO_PX), <, 0.05);
    g_assert_cmpfloat(fabs(xy[3] - xy[1]), <, 1e-3);
    g_assert_cmpint(motus_gizmo_hit(&g, &c, W, H, xy[2], xy[3] + 3, 8), ==, 0);
    g_assert_cmpint(motus_gizmo_hit(&g, &c, W, H, xy[2] + 40, xy[3] + 40, 8), ==, -1);
    g_assert_cmpint(motus_gizmo_path(&g, &c, W, H, 1, xy), ==, 2); /* y points up: y on screen decreases */
    g_assert_cmpfloat(xy[3] - xy[1], <, -0.8 * MOTUS_GIZMO_PX);
    double size = motus_gizmo_size(&g, &c, H);
    /* 45 px along x is half an arrow; 45 px across it is nothing */
    double a = motus_gizmo_drag(&g, &c, W, H, 0, 300, 300, 345, 300, 0);
    g_assert_cmpfloat(fabs(a - size / 2), <, 1e-4 * size);
    g_assert_cmpfloat(fabs(motus_gizmo_drag(&g, &c, W, H, 0, 300, 300, 300, 345, 0)), <, 1e-6 * size);
    double s = motus_gizmo_drag(&g, &c, W, H, 0, 300, 300, 317, 300, 1);
    g_assert_cmpfloat(fabs(s * 1e3 - round(s * 1e3)), <, 1e-9);
    g_assert_cmpfloat(fabs(s - 17 * size / MOTUS_GIZMO_PX), <=, 0.5e-3 + 1e-9);
    /* the z arrow points (nearly) at the viewer: no direction to drag along */
    g_assert_cmpfloat(motus_gizmo_drag(&g, &c, W, H, 2, 300, 300, 345, 300, 0), ==, 0);
}

static void test_turn(void)
{
    MotusCamera c = front(0);
    MotusGizmo g = gizmo(MOTUS_GIZMO_TURN);
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    g_assert_cmpint(motus_gizmo_path(&g, &c, W, H, 2, xy), ==, MOTUS_GIZMO_RING + 1);
    /* the z ring faces the viewer: a circle about the projected origin */
    double ox = 0, oy = 0;
    for (int j = 0; j < MOTUS_GIZMO_RING; j++) ox += xy[2 * j] / MOTUS_GIZMO_RING, oy += xy[2 * j + 1] / MOTUS_GIZMO_RING;
    double r = hypot(xy[0] - ox, xy[1] - oy);
    g_assert_cmpfloat(fabs(r - MOTUS_GIZMO_PX), <, 0.5);
    g_assert_cmpint(motus_gizmo_hit(&g, &c, W, H, ox + r * cos(1), oy - r * sin(1), 8), ==, 2);
    g_assert_cmpint(motus_gizmo_hit(&g, &c, W, H, ox + 0.3 * r, oy - 0.5 * r, 8), ==, -1);
    /* 30° counter-clockwise on screen from the ring's right: +30° about z */
    double a0 = 0, a1 = 30 * G_PI / 180;
    double t = motus_gizmo_drag(&g, &c, W, H, 2, ox + r, oy, ox + r * cos(a1), oy - r * sin(a1), 0);
    g_assert_cmpfloat(fabs(t - a1), <, 1e-4);
    /* with Ctrl, 32° is 30° */
    a1 = 32 * G_PI / 180;
    t = motus_gizmo_drag(&g, &c, W, H, 2, ox + r * cos(a0), oy, ox + r * cos(a1), oy - r * sin(a1), 1);
    g_assert_cmpfloat(fabs(t - 30 * G_PI / 180), <, 1e-12);
    /* seen from behind, z points away: the same sweep on screen is a turn the other way */
    MotusCamera back = front((float)G_PI);
    g_assert_cmpint(motus_gizmo_path(&g, &back, W, H, 2, xy), ==, MOTUS_GIZMO_RING + 1);
    ox = oy = 0;
    for (int j = 0; j < MOTUS_GIZMO_RING; j++) ox += xy[2 * j] / MOTUS_GIZMO_RING, oy += xy[2 * j + 1] / MOTUS_GIZMO_RING;
    a1 = 30 * G_PI / 180;
    t = motus_gizmo_drag(&g, &back, W, H, 2, ox + r, oy, ox + r * cos(a1), oy - r * sin(a1), 0);
    g_assert_cmpfloat(fabs(t + a1), <, 1e-3);
    /* the x ring seen edge-on (a vertical line; orthographic, so that its radius
     * is MOTUS_GIZMO_PX at every depth): grabbed where it crosses the origin's
     * height, a drag along it of 9 px turns by 9 px over the ring's radius */
    c.ortho = 1;
    g_assert_cmpint(motus_gizmo_path(&g, &c, W, H, 0, xy), ==, MOTUS_GIZMO_RING + 1);
    double gx = xy[2 * (MOTUS_GIZMO_RING / 4)], gy = xy[2 * (MOTUS_GIZMO_RING / 4) + 1]; /* t = 90°: at z, in front */
    t = motus_gizmo_drag(&g, &c, W, H, 0, gx, gy, gx, gy - 9, 0);
    g_assert_cmpfloat(fabs(fabs(t) - 9 / MOTUS_GIZMO_PX), <, 1e-3 * 9 / MOTUS_GIZMO_PX);
    /* upwards at the front of the ring is from z towards y: a negative turn about x (y → z is positive) */
    g_assert_cmpfloat(t, <, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gizmo/move", test_move);
    g_test_add_func("/gizmo/turn", test_turn);
    return g_test_run();
}
