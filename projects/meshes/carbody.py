#!/usr/bin/env python3
"""Writes carbody.inp: the beam-frame carbody of railcar-flex.motus.txt.

A 20 m steel carbody, 2.8 m wide and 2.75 m high, as a space frame of
Euler-Bernoulli beams (Abaqus B33): 41 cross-section rings (every 0.5 m:
floor cross-beams, side pillars, roof carlines) joined by 14 longitudinals
(centre sill, floor stringers, sole bars, waist rails, window rails, cant
rails, roof stringers). The skin's shear stiffness is carried by crossed
diagonals in the floor, the side walls below and above the windows, and the
roof; the window band has none (a Vierendeel frame there, which lowers the
bending and torsion frequencies as real window openings do). The end walls
are braced; the bolster rings at x = 3 m and 17 m (where the bogies carry the
body) are stiff. Non-structural mass (floor, interior, passengers, roof and
underframe equipment) sits in point masses, so that the body weighs
24 464 kg, symmetric in x about 10 m and in y.

Body frame: x along the car from 0 to 20 m, y to the left, z up, the floor at
z = 0. Node labels: 100 * (station + 1) + (ring position + 1); the floor
centre of station i (x = 0.5 i) is 100 * (i + 1) + 1: node 701 at x = 3,
2101 at x = 10, 3501 at x = 17.

Run: python3 carbody.py > carbody.inp
"""
import math

E, G, RHO = 2.1e11, 8.1e10, 7850.0
NST, DX = 41, 0.5
MASS_TOTAL = 24464.0  # the old single-beam carbody's, so the suspension's static offsets stay

# ring: (y, z) going round from the floor centre to the left and back
RING = [(0, 0), (0.7, 0), (1.4, 0), (1.4, 0.9), (1.4, 1.9), (1.2, 2.45), (0.6, 2.7),
        (0, 2.75), (-0.6, 2.7), (-1.2, 2.45), (-1.4, 1.9), (-1.4, 0.9), (-1.4, 0), (-0.7, 0)]
NR = len(RING)

# sections (A, I11, I22, J): I11 about the orientation vector n1 (longitudinals: n1 = y, I11 vertical bending;
# ring members: n1 = x, I11 bending in the ring's plane)
LONG = {0: (4e-3, 1.5e-5, 1.5e-5, 2e-6),          # centre sill
        1: (2e-3, 5e-7, 5e-7, 1e-7), 13: (2e-3, 5e-7, 5e-7, 1e-7),     # floor stringers + floor sheet
        2: (5e-3, 2e-5, 1e-5, 1e-6), 12: (5e-3, 2e-5, 1e-5, 1e-6),     # sole bars
        3: (3e-3, 5e-6, 5e-6, 2e-7), 11: (3e-3, 5e-6, 5e-6, 2e-7),     # waist rails + lower side skin
        4: (2e-3, 4e-6, 4e-6, 2e-7), 10: (2e-3, 4e-6, 4e-6, 2e-7),     # window top rails
        5: (3e-3, 5e-6, 5e-6, 2e-7), 9: (3e-3, 5e-6, 5e-6, 2e-7),      # cant rails
        6: (2e-3, 3e-7, 3e-7, 5e-8), 7: (2e-3, 3e-7, 3e-7, 5e-8), 8: (2e-3, 3e-7, 3e-7, 5e-8)}  # roof
RING_FLOOR = (1.5e-3, 3e-7, 3e-7, 3e-8)   # floor cross-beams
RING_SIDE = (1.2e-3, 2e-7, 2e-7, 3e-8)  # pillars
RING_ROOF = (8e-4, 6e-8, 6e-8, 2e-8)      # carlines
BOLSTER = (1e-2, 1e-4, 1e-4, 1e-5)        # bolster cross-beams (x = 3, 17 m)
END = (4e-3, 2e-5, 2e-5, 1e-6)            # end-wall frames
SKIN = {"floor": 3e-3, "side": 2.5e-3, "roof": 2e-3}  # sheet thicknesses carried by the diagonals


def node(i, k):
    return 100 * (i + 1) + k + 1


def xyz(i, k):
    return (DX * i, RING[k][0], RING[k][1])


def main():
    out = []
    w = out.append
    w("** Beam-frame carbody of projects/railcar-flex.motus.txt, written by carbody.py (edit that, not this).")
    w("*NODE, NSET=ALL")
    for i in range(NST):
        for k in range(NR):
            x, y, z = xyz(i, k)
            w("%d, %.4f, %.4f, %.4f" % (node(i, k), x, y, z))
    sets = {}  # section name -> (props, n1, [(a, b)])

    def add(name, props, n1, a, b):
        sets.setdefault(name, (props, n1, []))[2].append((a, b))

    bolster = {int(round(3 / DX)), int(round(17 / DX))}
    for i in range(NST):
        for k in range(NR):
            a, b = node(i, k), node(i, (k + 1) % NR)
            ka, kb = k, (k + 1) % NR
            floor = RING[ka][1] == 0 and RING[kb][1] == 0
            roof = RING[ka][1] >= 2.45 and RING[kb][1] >= 2.45
            if i in bolster and floor: add("BOLSTER", BOLSTER, (1, 0, 0), a, b)
            elif i in (0, NST - 1): add("END", END, (1, 0, 0), a, b)
            elif floor: add("RFLOOR", RING_FLOOR, (1, 0, 0), a, b)
            elif roof: add("RROOF", RING_ROOF, (1, 0, 0), a, b)
            else: add("RSIDE", RING_SIDE, (1, 0, 0), a, b)
        if i + 1 < NST:
            for k in range(NR):
                add("L%d" % k, LONG[k], (0, 1, 0), node(i, k), node(i + 1, k))
    # shear panels: crossed diagonals of the skin's shear stiffness G t a / b
    panels = [(12, 13, "floor"), (13, 0, "floor"), (0, 1, "floor"), (1, 2, "floor"),
              (2, 3, "side"), (11, 12, "side"), (4, 5, "side"), (9, 10, "side"),
              (5, 6, "roof"), (6, 7, "roof"), (7, 8, "roof"), (8, 9, "roof")]
    for i in range(NST - 1):
        for ka, kb, kind in panels:
            b_ = math.dist(RING[ka], RING[kb])
            L = math.hypot(DX, b_)
            Ad = G * SKIN[kind] * L ** 3 / (2 * E * b_ * DX)
            name = "D" + kind.upper()
            add(name, (Ad, 1e-9, 1e-9, 1e-9), (0.3, 1, 0.7), node(i, ka), node(i + 1, kb))
            add(name, (Ad, 1e-9, 1e-9, 1e-9), (0.3, 1, 0.7), node(i, kb), node(i + 1, ka))
    # end walls: braced from the floor corners and centre to the roof
    for i in (0, NST - 1):
        for ka, kb in ((2, 7), (12, 7), (0, 5), (0, 9), (3, 11), (4, 10)):
            add("ENDWALL", (3e-3, 5e-6, 5e-6, 2e-7), (1, 0, 0), node(i, ka), node(i, kb))
    eid = 1
    struct_mass = 0.0
    for name, (props, n1, els) in sets.items():
        w("*ELEMENT, TYPE=B33, ELSET=%s" % name)
        for a, b in els:
            w("%d, %d, %d" % (eid, a, b))
            eid += 1
            ia, ka = divmod(a - 1, 100)
            ib, kb = divmod(b - 1, 100)
            if not name.startswith("D"):  # the diagonals stand for the skin's shear; its mass is the rails'
                struct_mass += RHO * props[0] * math.dist(xyz(ia - 1, ka), xyz(ib - 1, kb))
    # point masses: 55 % of the rest on the floor nodes, 15 % on the roof, 30 % equipment under the floor middle
    rest = MASS_TOTAL - struct_mass
    floor_nodes = [node(i, k) for i in range(NST) for k in (0, 1, 2, 12, 13)]
    roof_nodes = [node(i, k) for i in range(NST) for k in (5, 6, 7, 8, 9)]
    equip_nodes = [node(i, k) for i in range(NST) if 7 <= DX * i <= 13 for k in (1, 13)]
    pm = []
    for nodes, share in ((floor_nodes, 0.55), (roof_nodes, 0.15), (equip_nodes, 0.30)):
        for n in nodes:
            pm.append((n, rest * share / len(nodes)))
    # one block of MASS elements per value (the equipment's share differs from the floor's)
    groups = {}
    for n, m in pm:
        groups.setdefault(round(m, 6), []).append(n)
    first = eid
    for g, (m, nodes) in enumerate(sorted(groups.items())):
        w("*ELEMENT, TYPE=MASS, ELSET=PM%d" % g)
        for n in nodes:
            w("%d, %d" % (eid, n))
            eid += 1
        w("*MASS, ELSET=PM%d" % g)
        w("%.6f" % m)
    for name, (props, n1, els) in sets.items():
        A, Iv, Il, J = props
        w("*BEAM GENERAL SECTION, ELSET=%s, SECTION=GENERAL, DENSITY=%g" % (name, 0 if name.startswith("D") else RHO))
        w("%g, %g, 0, %g, %g" % (A, Iv, Il, J))
        w("%g, %g, %g" % n1)
        w("%g, %g" % (E, G))
    w("** nodes %d, beam elements %d, structure %.0f kg, point masses %.0f kg" % (NST * NR, first - 1, struct_mass, rest))
    print("\n".join(out))


main()
