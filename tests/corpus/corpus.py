#!/usr/bin/env python3
"""Malformed-input corpus for motus-cli (issue 17).

Generates every case into a work directory (deterministically, from the
examples in projects/, tests/cli/ and the literals below), runs motus-cli on
each with a timeout and checks: a non-zero exit (0 for the valid controls),
the expected message (a regular expression naming the file, line or entity),
no crash (signal), no sanitizer report, no hang.

    tests/corpus/corpus.py --cli build/app/motus-cli --work build/corpus [--only REGEX] [--list]

The manifest (name, expected exit, expected message, status) is written to
WORK/manifest.tsv. A case whose status is "xfail" belongs to an area being
fixed on another branch (see XFAIL): it is run and reported, but does not fail
the test; when it starts passing it is reported as XPASS so the mark can be
dropped. Exit status: 0 when every other case passed.
"""
import argparse
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROJECTS = os.path.join(ROOT, "projects")
CLIDIR = os.path.join(ROOT, "tests", "cli")
TIMEOUT = 10.0

# Cases in areas fixed on branch i17-core (text-model parser and expressions,
# `until`, project FIFO, modes 0): expected to fail until that branch is merged.
# The lead flips a line by deleting it. name regex -> reason
XFAIL = {
}

SAN = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer")


class Case:
    def __init__(self, name, argv, expect, files=None, rc="nonzero", setup=None, timeout=TIMEOUT):
        self.name, self.argv, self.expect, self.files = name, argv, expect, files or {}
        self.rc, self.setup, self.timeout = rc, setup, timeout
        self.status = "pass"
        for pat, why in XFAIL.items():
            if re.search(pat, name):
                self.status = "xfail"
                self.why = why
                self.timeout = min(timeout, 3.0)  # a known hang need not cost the full timeout


CASES = []


def add(*a, **k):
    c = Case(*a, **k)
    assert not any(x.name == c.name for x in CASES), c.name
    CASES.append(c)
    return c


def rd(path):
    with open(path, "rb") as f:
        return f.read()


# ---- text models --------------------------------------------------------------

def model_cases():
    # Truncations of every example: at each of up to 9 statements with
    # arguments, keep the text up to the end of that statement's first word
    # (the statement then lacks its arguments) -> an error naming that line.
    for fn in sorted(os.listdir(PROJECTS)):
        if not fn.endswith(".motus.txt"):
            continue
        base = fn[: -len(".motus.txt")]
        text = rd(os.path.join(PROJECTS, fn))
        lines = text.split(b"\n")
        cands = []
        for i, ln in enumerate(lines):
            s = ln.split(b"#")[0]
            w = s.split()
            if len(w) >= 2 and w[0] in (b"mass", b"com", b"inertia", b"position", b"gravity",
                                          b"joint", b"marker", b"spring", b"driver", b"orientation", b"body",
                                          b"velocity", b"omega", b"param", b"force", b"shape"):
                cands.append(i)
        step = max(1, len(cands) // 9)
        for i in cands[::step][:9]:
            ln = lines[i]
            first = ln.split()[0]
            cut = ln.index(first) + len(first)
            data = b"\n".join(lines[:i]) + b"\n" + ln[:cut]
            add("model_trunc_%s_l%d" % (base, i + 1), ["check", "{d}/%s" % fn], r"%s:%d:" % (re.escape(fn), i + 1),
                {fn: data})
        # the keyword itself cut in half ("mas"): an unknown keyword on that line
        for i in cands[::step][:9]:
            ln = lines[i]
            first = ln.split()[0]
            cut = ln.index(first) + (len(first) + 1) // 2
            data = b"\n".join(lines[:i]) + b"\n" + ln[:cut]
            add("model_trunc_%s_k%d" % (base, i + 1), ["check", "{d}/%s" % fn], r"%s:%d:" % (re.escape(fn), i + 1),
                {fn: data})

    pend = rd(os.path.join(PROJECTS, "pendulum.motus.txt")).decode()
    fn = "p.motus.txt"

    def repl(name, old, new, expect, cmd="check"):
        assert old in pend, old
        add(name, [cmd, "{d}/" + fn], expect, {fn: pend.replace(old, new, 1).encode()})

    def line_of(old):
        return pend[: pend.index(old)].count("\n") + 1

    # numbers replaced by garbage, nan, inf, huge, empty, suffixes
    subs = [("garbage", "zq"), ("nan", "nan"), ("inf", "inf"), ("neginf", "-inf"), ("huge", "1e999"),
            ("tiny", "1e-999"), ("suffix", "1kg"), ("empty", '""'), ("comma", "1,5"),
            ("plus2", "++1"), ("dots", "1..2"), ("unit", "1deg2"), ("nul", "1\x002")]
    for key, old in [("mass", "mass 1"), ("com", "com 0 -1 0"), ("inertia", "inertia 1e-6 1e-6 1e-6"),
                     ("gravity", "gravity 0 -9.81 0"), ("marker", "marker hinge at 0 0 0"),
                     ("step", "step 0.01"), ("rtol", "rtol 1e-10")]:
        for sn, tok in subs:
            words = old.split(" ")
            words[-1] = tok
            new = " ".join(words)
            ln = line_of(old)
            if sn == "nul":
                exp = r"(%s:%d|NUL|binary)" % (re.escape(fn), ln)
            elif sn == "empty" and key in ("mass",):
                exp = r"%s:%d" % (re.escape(fn), ln)
            else:
                exp = r"%s(:%d)?: " % (re.escape(fn), ln)
            add("model_tok_%s_%s" % (key, sn), ["check", "{d}/" + fn], exp,
                {fn: pend.replace(old, new, 1).encode()})
    # physically wrong values: named by entity
    repl("model_neg_mass", "mass 1", "mass -1", r"'bob'.*mass")
    repl("model_zero_mass", "mass 1", "mass 0", r"'bob'.*mass")
    repl("model_neg_inertia", "inertia 1e-6 1e-6 1e-6", "inertia -1 1e-6 1e-6", r"'bob'")
    repl("model_neg_step", "step 0.01", "step -0.01", r"step")
    repl("model_zero_axis", "axis 0 0 1 60deg", "axis 0 0 0 60deg", r"%s:%d" % (re.escape(fn), line_of("axis 0 0 1")))
    # unknown keywords, in each context
    repl("model_unknown_top", "gravity 0 -9.81 0", "gravty 0 -9.81 0", r"%s:%d:.*gravty" % (re.escape(fn), line_of("gravity")))
    repl("model_unknown_body", "  mass 1", "  mas 1", r"%s:%d:.*mas" % (re.escape(fn), line_of("  mass 1")))
    repl("model_unknown_joint", "revolute bob.hinge", "revolving bob.hinge", r"'pin'.*revolving")
    repl("model_unknown_solver", "method dp54", "method dp99", r"%s:%d:.*dp99" % (re.escape(fn), line_of("solver")))
    repl("model_unknown_option", "rtol 1e-10", "rtolx 1e-10", r"%s:%d:.*rtolx" % (re.escape(fn), line_of("solver")))
    repl("model_uppercase_kw", "  mass 1", "  MASS 1", r"%s:%d:.*MASS" % (re.escape(fn), line_of("  mass 1")))
    repl("model_bad_version", "motus-model 1", "motus-model 99", r"%s:%d:" % (re.escape(fn), line_of("motus-model")))
    repl("model_missing_end", "joint pin", "end\nbody x\n mass 1\njoint pin", r"%s:\d+:" % re.escape(fn))
    # duplicate names and missing references
    repl("model_dup_body", "joint pin", "body bob\n  mass 1\n  inertia 1 1 1\nend\njoint pin", r"'bob'")
    repl("model_dup_marker", "  marker hinge at 0 0 0", "  marker hinge at 0 0 0\n  marker hinge at 1 0 0", r"%s:\d+:.*'bob\.hinge'" % re.escape(fn))
    repl("model_dup_joint", "joint pin revolute bob.hinge ground.pivot",
         "joint pin revolute bob.hinge ground.pivot\njoint pin revolute bob.hinge ground.pivot", r"'pin'")
    repl("model_ground_body", "body bob", "body ground", r"ground")
    repl("model_missing_body_ref", "bob.hinge ground", "rob.hinge ground", r"rob\.hinge")
    repl("model_missing_marker_ref", "bob.hinge ground", "bob.hinges ground", r"bob\.hinges")
    repl("model_missing_ground_marker", "ground.pivot", "ground.pivt", r"ground\.pivt")
    repl("model_ref_no_dot", "bob.hinge ground", "bobhinge ground", r"bobhinge")
    repl("model_bad_name_dot", "body bob", "body b.ob", r"b\.ob")
    repl("model_plot_missing", "joint pin revolute bob.hinge ground.pivot",
         "joint pin revolute bob.hinge ground.pivot\nplot pin.angel", r"pin\.angel")
    repl("model_param_undefined", "mass 1", "mass {zz*2}", r"zz")
    repl("model_param_cycle", "mass 1", "mass {a}\n", r"'a'|\ba\b")
    repl("model_expr_divzero", "mass 1", "mass {1/0}", r"%s: 'bob', field mass" % re.escape(fn))
    repl("model_expr_unbalanced", "mass 1", "mass {(1+2}", r"%s(:%d)?: 'bob', field mass" % (re.escape(fn), line_of("mass 1")))
    repl("model_expr_garbage", "mass 1", "mass {1+*2}", r"%s(:%d)?: 'bob', field mass" % (re.escape(fn), line_of("mass 1")))
    repl("model_expr_unknown_fn", "mass 1", "mass {foo(1)}", r"foo")
    repl("model_quote_open", 'title "Simple pendulum"', 'title "Simple pendulum', r"%s:%d" % (re.escape(fn), line_of("title")))
    repl("model_continuation_eof", "joint pin revolute bob.hinge ground.pivot", "joint pin revolute \\",
         r"%s:\d+" % re.escape(fn))
    repl("model_deg_garbage", "60deg", "60degx", r"%s:%d" % (re.escape(fn), line_of("60deg")))
    repl("model_deg_space", "60deg", "60 deg", r"%s:%d" % (re.escape(fn), line_of("60deg")))
    repl("model_deg_double", "60deg", "60degdeg", r"%s:%d" % (re.escape(fn), line_of("60deg")))
    repl("model_until_neg", "until 2", "until -2", r"until|%s" % re.escape(fn))
    add("model_until_1e300", ["run", "{d}/" + fn, "--quiet"], r"until|%s" % re.escape(fn),
        {fn: pend.replace("until 2", "until 1e300", 1).encode()})

    # binary garbage, NUL bytes, empty file, BOM, CRLF junk
    rnd = bytes((i * 7919 + 13) % 256 for i in range(4096))
    add("model_binary", ["check", "{d}/b.motus.txt"], r"b\.motus\.txt", {"b.motus.txt": rnd})
    add("model_nul_start", ["check", "{d}/n.motus.txt"], r"n\.motus\.txt", {"n.motus.txt": b"\0" + pend.encode()})
    add("model_nul_middle", ["check", "{d}/n.motus.txt"], r"n\.motus\.txt",
        {"n.motus.txt": pend.encode().replace(b"mass 1", b"mass\x001", 1)})
    add("model_utf16", ["check", "{d}/u.motus.txt"], r"u\.motus\.txt", {"u.motus.txt": pend.encode("utf-16")})
    # very long lines, names, words, deep nesting
    big = 100000
    add("model_longline_comment_then_bad", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:3:",
        {"l.motus.txt": b"motus-model 1\n#" + b"x" * big + b"\nfoo\n"})
    add("model_longline_garbage", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:2:",
        {"l.motus.txt": b"motus-model 1\n" + b"z" * big + b"\n"})
    add("model_longname_body", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:\d+:.*(name|long)",
        {"l.motus.txt": pend.replace("body bob", "body " + "b" * big, 1).encode()})
    add("model_longname_marker", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:\d+:.*(name|long)",
        {"l.motus.txt": pend.replace("marker hinge", "marker " + "h" * big, 1).encode()})
    add("model_longnumber", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:%d" % line_of("mass 1"),
        {"l.motus.txt": pend.replace("mass 1", "mass 1" + "1" * big, 1).encode()})
    add("model_many_words", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:%d" % line_of("mass 1"),
        {"l.motus.txt": pend.replace("mass 1", "mass 1" + " 1" * big, 1).encode()})
    add("model_deep_parens", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:%d" % line_of("mass 1"),
        {"l.motus.txt": pend.replace("mass 1", "mass {" + "(" * big + "1" + ")" * big + "}", 1).encode()})
    add("model_deep_unary", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:%d" % line_of("mass 1"),
        {"l.motus.txt": pend.replace("mass 1", "mass {" + "-" * (big + 1) + "1}", 1).encode()})
    chain = "".join("param p%d {p%d+1}\n" % (i + 1, i) for i in range(big))
    add("model_param_chain_100000", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:\d+",
        {"l.motus.txt": pend.replace("gravity", "param p0 1\n" + chain + "gravity", 1).encode()})
    add("model_many_continuations", ["check", "{d}/l.motus.txt"], r"l\.motus\.txt:\d+",
        {"l.motus.txt": pend.replace("  mass 1", "  mass \\\n" * 20000 + "  1 2", 1).encode()})
    # paths that are not regular files
    add("model_dir", ["check", "{d}"], r"cannot (read|open)", {"x": b""})
    add("model_devzero", ["check", "/dev/zero"], r"/dev/zero")
    add("model_fifo", ["check", "{d}/f.motus.txt"], r"f\.motus\.txt",
        setup=lambda d: os.mkfifo(os.path.join(d, "f.motus.txt")))
    add("model_missing_file", ["check", "{d}/nope.motus.txt"], r"nope\.motus\.txt")


# ---- projects (SQLite) ------------------------------------------------------------

def project_cases(cli, work):
    # a valid project made at test time by the program itself
    base = os.path.join(work, "_project")
    os.makedirs(base, exist_ok=True)
    good = os.path.join(base, "good.motus")
    if os.path.exists(good):
        os.remove(good)
    subprocess.run([cli, "import", os.path.join(PROJECTS, "pendulum.motus.txt"), good], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    data = rd(good)
    add("project_control_export", ["export", "{d}/p.motus"], r"", {"p.motus": data}, rc="zero")
    for frac in (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99):
        n = max(1, int(len(data) * frac))
        add("project_trunc_%d" % int(frac * 100), ["export", "{d}/p.motus"], r"p\.motus", {"p.motus": data[:n]})
    add("project_trunc_header", ["export", "{d}/p.motus"], r"p\.motus", {"p.motus": data[:50]})
    add("project_empty", ["export", "{d}/p.motus"], r"p\.motus", {"p.motus": b""})
    # corrupt pages: overwrite bytes past the header
    page = struct.unpack(">H", data[16:18])[0] or 65536
    for k, off in enumerate([20, 28, 100, page, 2 * page + 4]):
        if off + 64 > len(data):
            continue
        bad = bytearray(data)
        for j in range(64):  # (header bytes 28.. and the first b-tree pages)
            bad[off + j] = (bad[off + j] ^ 0xA5) & 0xFF
        add("project_corrupt_%d" % k, ["export", "{d}/p.motus"], r"p\.motus", {"p.motus": bytes(bad)})
    add("project_not_sqlite", ["export", "{d}/p.motus"], r"p\.motus", {"p.motus": b"hello, this is not SQLite\n" * 40})
    add("project_model_text_as_project", ["runs", "{d}/p.motus"], r"p\.motus",
        {"p.motus": rd(os.path.join(PROJECTS, "pendulum.motus.txt"))})

    def db(name, sql):
        path = os.path.join(base, name)
        if os.path.exists(path):
            os.remove(path)
        c = sqlite3.connect(path)
        c.executescript(sql)
        c.commit()
        c.close()
        return rd(path)

    add("project_foreign_sqlite", ["export", "{d}/p.motus"], r"p\.motus",
        {"p.motus": db("foreign.db", "create table t(a,b); insert into t values(1,2);")})
    add("project_foreign_sqlite_runs", ["runs", "{d}/p.motus"], r"p\.motus",
        {"p.motus": db("foreign2.db", "create table runs(x); insert into runs values(1);")})

    def alter(name, sql):
        path = os.path.join(base, name)
        shutil.copyfile(good, path)
        c = sqlite3.connect(path)
        c.executescript(sql)
        c.commit()
        c.close()
        return rd(path)

    c = sqlite3.connect(good)
    tables = [r[0] for r in c.execute("select name from sqlite_master where type='table' order by name")]
    uv = c.execute("pragma user_version").fetchone()[0]
    c.close()
    add("project_schema_future", ["export", "{d}/p.motus"], r"p\.motus",
        {"p.motus": alter("future.motus", "pragma user_version=%d;" % (uv + 1000 if uv else 999))})
    add("project_schema_negative", ["export", "{d}/p.motus"], r"p\.motus",
        {"p.motus": alter("neg.motus", "pragma user_version=-5;")})
    for t in tables:
        if t.startswith("sqlite_"):
            continue
        add("project_drop_%s" % t, ["export", "{d}/p.motus"], r"p\.motus|%s" % t,
            {"p.motus": alter("drop_%s.motus" % t, "drop table %s;" % t)})
    add("project_dir", ["export", "{d}/sub.motus"], r"sub\.motus", {"sub.motus/x": b""})
    add("project_devzero", ["export", "/dev/zero"], r"/dev/zero")
    add("project_fifo", ["export", "{d}/f.motus"], r"f\.motus", setup=lambda d: os.mkfifo(os.path.join(d, "f.motus")))
    add("project_import_into_garbage", ["import", os.path.join(PROJECTS, "pendulum.motus.txt"), "{d}/p.motus"],
        r"p\.motus", {"p.motus": b"not a database\n" * 100})


# ---- meshes ------------------------------------------------------------------------

BDF = b"""$ a tetrahedron pair (corpus)
BEGIN BULK
GRID,1,,0.,0.,0.
GRID,2,,1.,0.,0.
GRID,3,,0.,1.,0.
GRID,4,,0.,0.,1.
GRID,5,,1.,1.,1.
CTETRA,1,1,1,2,3,4
CTETRA,2,1,2,3,4,5
PSOLID,1,1
MAT1,1,2.1e11,,0.3,7850.
SPC1,1,123456,1
ENDDATA
"""


def mesh_cases():
    msh = rd(os.path.join(CLIDIR, "block.msh"))
    inp = rd(os.path.join(CLIDIR, "cantilever.inp"))
    red = ["--method", "free", "--modes", "3"]
    add("mesh_control_inp", ["reduce", "{d}/m.inp", "--method", "free", "--fix", "ROOT", "--modes", "3"], r"",
        {"m.inp": inp}, rc="zero")
    # truncations at line boundaries inside sections
    mlines = msh.split(b"\n")
    for i in (1, 2, 5, 9, 10, 40, 300, 470, 474, 475, 476, 480, 600, 689):
        add("mesh_msh_trunc_l%d" % i, ["reduce", "{d}/m.msh"] + red, r"m\.msh", {"m.msh": b"\n".join(mlines[:i]) + b"\n"})
    for i in (20, 300, 600):  # mid-line
        ln = mlines[i]
        add("mesh_msh_cut_l%d" % (i + 1), ["reduce", "{d}/m.msh"] + red, r"m\.msh",
            {"m.msh": b"\n".join(mlines[:i]) + b"\n" + ln[: len(ln) // 2]})
    ilines = inp.split(b"\n")
    for i in range(2, len(ilines) - 1, 3):
        add("mesh_inp_trunc_l%d" % i, ["reduce", "{d}/m.inp", "--method", "free", "--fix", "ROOT", "--modes", "3"],
            r"m\.inp|element \d+", {"m.inp": b"\n".join(ilines[:i]) + b"\n"})
    blines = BDF.split(b"\n")
    for i in range(1, len(blines) - 3):
        add("mesh_bdf_trunc_l%d" % i, ["reduce", "{d}/m.bdf"] + red, r"m\.bdf", {"m.bdf": b"\n".join(blines[:i]) + b"\n"})
    # tokens replaced
    node_line = mlines[10]
    for sn, tok in [("garbage", b"zz"), ("nan", b"nan"), ("inf", b"inf"), ("huge", b"1e999"), ("empty", b""),
                    ("neg", b"-5"), ("big", b"99999999999999999999")]:
        coord_ok = sn not in ("neg", "big")  # negative or long coordinates are valid
        f = node_line.split(b" ")
        bad = b" ".join([tok] + f[1:])
        add("mesh_msh_tok_nodeid_%s" % sn, ["reduce", "{d}/m.msh"] + red, r"m\.msh:(11|\d+)",
            {"m.msh": msh.replace(node_line, bad, 1)})
        bad = b" ".join(f[:1] + [tok] + f[2:])
        if coord_ok:
            add("mesh_msh_tok_coord_%s" % sn, ["reduce", "{d}/m.msh"] + red, r"m\.msh:\d+|element \d+ .*degenerate",
                {"m.msh": msh.replace(node_line, bad, 1)})
        add("mesh_msh_tok_count_%s" % sn, ["reduce", "{d}/m.msh"] + red, r"m\.msh:\d+",
            {"m.msh": msh.replace(b"$Nodes\n465\n", b"$Nodes\n" + tok + b"\n", 1)})
        if coord_ok:
            add("mesh_inp_tok_coord_%s" % sn, ["reduce", "{d}/m.inp"] + red, r"m\.inp:\d+|element \d+ .*degenerate",
                {"m.inp": inp.replace(b"2, 0.1, 0., 0.", b"2, " + tok + b", 0., 0.", 1)})
        add("mesh_inp_tok_elem_%s" % sn, ["reduce", "{d}/m.inp"] + red, r"m\.inp:\d+",
            {"m.inp": inp.replace(b"3, 3, 4\n", b"3, " + tok + b", 4\n", 1)})
        if coord_ok:
            add("mesh_bdf_tok_coord_%s" % sn, ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:\d+|element \d+ .*degenerate",
                {"m.bdf": BDF.replace(b"GRID,2,,1.,", b"GRID,2,," + tok + b",", 1)})
        add("mesh_bdf_tok_elem_%s" % sn, ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:\d+",
            {"m.bdf": BDF.replace(b"CTETRA,1,1,1,2,3,4", b"CTETRA,1,1," + tok + b",2,3,4", 1)})
    # missing references, duplicates
    add("mesh_msh_elem_missing_node", ["reduce", "{d}/m.msh"] + red, r"m\.msh:\d+",
        {"m.msh": re.sub(rb"(\$Elements\n\d+\n\d+ \d+ \d+ \d+ \d+) \d+", rb"\1 99999", msh, 1)})
    add("mesh_inp_elem_missing_node", ["reduce", "{d}/m.inp"] + red, r"m\.inp:\d+",
        {"m.inp": inp.replace(b"3, 3, 4\n", b"3, 3, 444\n", 1)})
    add("mesh_bdf_elem_missing_node", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf",
        {"m.bdf": BDF.replace(b"CTETRA,1,1,1,2,3,4", b"CTETRA,1,1,1,2,3,44", 1)})
    # fuzz_bdf found it: each '+' of "1.+++…" gained an 'e' and overran the number buffer
    add("mesh_bdf_plus_run", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:\d+",
        {"m.bdf": BDF.replace(b"GRID,2,,1.,", b"GRID,2,,1." + b"+" * 38 + b",", 1)})
    add("mesh_bdf_dup_grid", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf",
        {"m.bdf": BDF.replace(b"GRID,2,,1.,0.,0.", b"GRID,2,,1.,0.,0.\nGRID,2,,1.,0.,0.", 1)})
    add("mesh_bdf_missing_prop", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf|PSOLID|property",
        {"m.bdf": BDF.replace(b"PSOLID,1,1\n", b"", 1)})
    add("mesh_inp_dup_node", ["reduce", "{d}/m.inp"] + red, r"m\.inp",
        {"m.inp": inp.replace(b"2, 0.1, 0., 0.", b"2, 0.1, 0., 0.\n2, 0.1, 0., 0.", 1)})
    add("mesh_inp_unknown_elset", ["reduce", "{d}/m.inp"] + red, r"m\.inp",
        {"m.inp": re.sub(rb"ELSET=BEAM", b"ELSET=NOPE", inp, 1)})
    # binary, NUL, empty, long lines
    rnd = bytes((i * 7919 + 13) % 256 for i in range(4096))
    for ext in ("msh", "inp", "bdf"):
        add("mesh_%s_binary" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s" % ext, {"m." + ext: rnd})
        add("mesh_%s_empty" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s" % ext, {"m." + ext: b""})
        add("mesh_%s_longline" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s" % ext,
            {"m." + ext: b"9" * 100000 + b"\n"})
        add("mesh_%s_nul" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s" % ext,
            {"m." + ext: {"msh": msh, "inp": inp, "bdf": BDF}[ext].replace(b"\n", b"\n\0", 3)})
        add("mesh_%s_dir" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s" % ext, {"m.%s/x" % ext: b""})
        add("mesh_%s_fifo" % ext, ["reduce", "{d}/m." + ext] + red, r"m\.%s.*regular" % ext,
            setup=lambda d, e=ext: os.mkfifo(os.path.join(d, "m." + e)))
    add("mesh_devzero", ["reduce", "/dev/zero"] + red, r"/dev/zero")
    add("mesh_msh_huge_count", ["reduce", "{d}/m.msh"] + red, r"m\.msh:\d+",
        {"m.msh": msh.replace(b"$Nodes\n465\n", b"$Nodes\n2000000000\n", 1)})
    add("mesh_msh_version", ["reduce", "{d}/m.msh"] + red, r"m\.msh:2", {"m.msh": msh.replace(b"2.2 0 8", b"9.9 0 8", 1)})
    add("mesh_msh_binary_flag", ["reduce", "{d}/m.msh"] + red, r"m\.msh:2", {"m.msh": msh.replace(b"2.2 0 8", b"2.2 1 8", 1)})
    # *INCLUDE / INCLUDE naming what is not a regular file, missing, recursive
    inc_inp = b"*HEADING\nx\n*INCLUDE, INPUT=%s\n"
    inc_bdf = b"BEGIN BULK\nINCLUDE '%s'\nENDDATA\n"
    for tgt, key, setup in [("/dev/zero", "devzero", None), ("sub", "dir", "dir"), ("f.fifo", "fifo", "fifo"),
                            ("missing.inc", "missing", None)]:
        def mk(d, setup=setup):
            if setup == "dir":
                os.mkdir(os.path.join(d, "sub"))
            elif setup == "fifo":
                os.mkfifo(os.path.join(d, "f.fifo"))
        t = tgt.encode()
        add("mesh_inp_include_%s" % key, ["reduce", "{d}/m.inp"] + red, r"m\.inp:3:.*%s" % re.escape(tgt),
            {"m.inp": inc_inp % t}, setup=mk)
        add("mesh_bdf_include_%s" % key, ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:2:.*%s" % re.escape(tgt),
            {"m.bdf": inc_bdf % t}, setup=mk)
    add("mesh_inp_include_self", ["reduce", "{d}/m.inp"] + red, r"m\.inp:\d+:.*INCLUDE",
        {"m.inp": b"*INCLUDE, INPUT=m.inp\n"})
    add("mesh_inp_include_bomb", ["reduce", "{d}/m.inp"] + red, r"m\.inp:\d+:.*INCLUDE",
        {"m.inp": b"*HEADING\nbomb\n" + b"*INCLUDE, INPUT=m.inp\n" * 50})
    add("mesh_inp_include_noinput", ["reduce", "{d}/m.inp"] + red, r"m\.inp:1:.*INPUT", {"m.inp": b"*INCLUDE\n"})
    add("mesh_bdf_include_self", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:\d+:.*INCLUDE",
        {"m.bdf": b"BEGIN BULK\nINCLUDE 'm.bdf'\n"})
    add("mesh_bdf_include_noquote", ["reduce", "{d}/m.bdf"] + red, r"m\.bdf:2:.*INCLUDE",
        {"m.bdf": b"BEGIN BULK\nINCLUDE m.bdf\n"})
    add("mesh_inp_include_binary", ["reduce", "{d}/m.inp"] + red, r"m\.inp|g\.bin",
        {"m.inp": b"*INCLUDE, INPUT=g.bin\n", "g.bin": rnd})
    # a text model's flexible mesh naming /dev/zero and a FIFO
    fm = ("motus-model 1\nbody arm\n  flexible mesh %s\n  position 0 0 0\nend\n")
    add("mesh_model_flex_devzero", ["run", "{d}/f.motus.txt", "--until", "0.01", "--quiet"], r"/dev/zero",
        {"f.motus.txt": (fm % "/dev/zero").encode()})
    add("mesh_model_flex_fifo", ["run", "{d}/f.motus.txt", "--until", "0.01", "--quiet"], r"m\.msh.*regular",
        {"f.motus.txt": (fm % "m.msh").encode()}, setup=lambda d: os.mkfifo(os.path.join(d, "m.msh")))


# ---- shapes (STL, OBJ) ---------------------------------------------------------

def shape_cases():
    def model(f):
        return ("motus-model 1\nbody part\n  mass 1\n  inertia 1 1 1\n  shape mesh \"%s\" scale 0.001\nend\n" % f).encode()

    tri = b"solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n"
    binstl = b"\0" * 80 + struct.pack("<I", 1) + struct.pack("<12f", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\0\0"
    obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2/1/1 4/2/2 3/3/3\n"
    m = ["check", "{d}/s.motus.txt"]
    add("shape_control_stl_ascii", m, r"check: OK", {"s.motus.txt": model("p.stl"), "p.stl": tri}, rc="zero")
    add("shape_control_stl_binary", m, r"check: OK", {"s.motus.txt": model("p.stl"), "p.stl": binstl}, rc="zero")
    add("shape_control_obj", m, r"check: OK", {"s.motus.txt": model("p.obj"), "p.obj": obj}, rc="zero")

    def bad(name, fname, data, expect, setup=None):
        files = {"s.motus.txt": model(fname)}
        if data is not None:
            files[fname] = data
        add("shape_" + name, m, r"'part'.*" + expect, files, setup=setup)

    bad("missing", "nope.stl", None, r"nope\.stl")
    bad("devzero", "/dev/zero", None, r"/dev/zero.*regular")
    bad("fifo", "f.stl", None, r"f\.stl.*regular", setup=lambda d: os.mkfifo(os.path.join(d, "f.stl")))
    bad("dir", "sub.stl", None, r"sub\.stl", setup=lambda d: os.mkdir(os.path.join(d, "sub.stl")))
    bad("empty_stl", "p.stl", b"", r"p\.stl.*no triangles")
    bad("empty_obj", "p.obj", b"", r"p\.obj.*no triangles")
    # truncations of the ASCII STL at every line
    tl = tri.split(b"\n")
    for i in range(1, 6):
        bad("stl_trunc_l%d" % i, "p.stl", b"\n".join(tl[:i]) + b"\n", r"p\.stl")
    bad("stl_cut_vertex", "p.stl", tri[: tri.index(b"vertex 1 0 0") + 10], r"p\.stl:5:")
    for sn, tok in [("garbage", b"zz"), ("nan", b"nan"), ("inf", b"inf"), ("huge", b"1e999"), ("empty", b"")]:
        bad("stl_tok_%s" % sn, "p.stl", tri.replace(b"vertex 1 0 0", b"vertex 1 " + tok + b" 0"), r"p\.stl:5:")
        bad("obj_tok_%s" % sn, "p.obj", obj.replace(b"v 1 0 0", b"v 1 " + tok + b" 0"), r"p\.obj:2:")
    bad("stl_vertex_no_numbers", "p.stl", b"solid x\n" + b"vertex\n" * 3 + b"endsolid\n", r"p\.stl:2:")
    bad("stl_binary_count_too_big", "p.stl", binstl[:80] + struct.pack("<I", 1000000) + binstl[84:],
        r"p\.stl.*1000000")
    bad("stl_binary_count_max", "p.stl", binstl[:80] + struct.pack("<I", 0xFFFFFFFF) + binstl[84:], r"p\.stl.*4294967295")
    bad("stl_binary_truncated", "p.stl", binstl[:100], r"p\.stl")
    bad("stl_binary_zero", "p.stl", b"\0" * 80 + struct.pack("<I", 0), r"p\.stl.*no triangles")
    bad("stl_binary_nan", "p.stl", binstl[:96] + struct.pack("<f", float("nan")) + binstl[100:], r"p\.stl.*triangle 1")
    bad("stl_garbage", "p.stl", bytes((i * 7919 + 13) % 256 for i in range(4096)), r"p\.stl")
    bad("stl_two_vertices", "p.stl", b"solid x\nvertex 0 0 0\nvertex 1 0 0\nendsolid\n", r"p\.stl.*three")
    bad("stl_nul", "p.stl", b"solid x\n\0\0\0\n", r"p\.stl:2:")
    bad("stl_longline", "p.stl", b"solid " + b"x" * 100000 + b"\n", r"p\.stl.*no triangles")
    bad("stl_long_number", "p.stl", b"solid x\nvertex " + b"1" * 100000 + b" 0 0\n", r"p\.stl:2:")
    bad("obj_face_missing_vertex", "p.obj", obj + b"f 1 2 99\n", r"p\.obj:7:")
    bad("obj_face_zero", "p.obj", obj + b"f 0 1 2\n", r"p\.obj:7:")
    bad("obj_face_negative_out", "p.obj", obj + b"f -1 -2 -9\n", r"p\.obj:7:")
    bad("obj_face_garbage", "p.obj", obj + b"f a b c\n", r"p\.obj:7:")
    bad("obj_face_huge_index", "p.obj", obj + b"f 1 2 99999999999999999999999\n", r"p\.obj:7:")
    bad("obj_no_faces", "p.obj", b"v 0 0 0\nv 1 0 0\n", r"p\.obj.*no triangles")
    bad("obj_v_no_numbers", "p.obj", b"v\nv \nv x\n", r"p\.obj:2:")
    bad("obj_nul", "p.obj", obj.replace(b"v 1 0 0", b"v 1 \0 0"), r"p\.obj:2:")
    bad("obj_binary", "p.obj", bytes((i * 7919 + 13) % 256 for i in range(4096)), r"p\.obj")


def big_stl_case():
    # 3 million `vertex` lines with no numbers: refused at the first, quickly,
    # without growing memory (generated at run time: 21 MB)
    def mk(d):
        with open(os.path.join(d, "big.stl"), "wb") as f:
            f.write(b"solid big\n")
            chunk = b"vertex\n" * 100000
            for _ in range(30):
                f.write(chunk)
            f.write(b"endsolid big\n")
    add("shape_stl_3M_vertex_no_numbers", ["check", "{d}/s.motus.txt"], r"big\.stl:2:",
        {"s.motus.txt": b"motus-model 1\nbody part\n  mass 1\n  inertia 1 1 1\n  shape mesh big.stl\nend\n"},
        setup=mk)


def controls():
    for fn in ("pendulum", "slider-crank", "four-bar"):
        add("control_check_%s" % fn, ["check", os.path.join(PROJECTS, fn + ".motus.txt")], r"check: OK", rc="zero")


# ---- running -----------------------------------------------------------------------

def run_case(cli, work, c):
    d = os.path.join(work, c.name)
    if os.path.lexists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for rel, data in c.files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    if c.setup:
        c.setup(d)
    argv = [cli] + [a.replace("{d}", d) for a in c.argv]
    env = dict(os.environ, LANG="C", LC_ALL="C", LANGUAGE="C")
    env.pop("MOTUS_LOCALEDIR", None)
    t0 = time.time()
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=c.timeout, env=env, cwd=d)
        out = (p.stdout + p.stderr).decode("utf-8", "replace")
        rc = p.returncode
    except subprocess.TimeoutExpired as e:
        out = ((e.stdout or b"") + (e.stderr or b"")).decode("utf-8", "replace")
        rc = None
    dt = time.time() - t0
    why = None
    if rc is None:
        why = "hang: no exit within %g s" % c.timeout
    elif rc < 0:
        why = "crash: signal %d" % -rc
    elif SAN.search(out):
        why = "sanitizer report"
    elif c.rc == "zero" and rc != 0:
        why = "exit %d, expected 0" % rc
    elif c.rc == "nonzero" and rc == 0:
        why = "exit 0, expected non-zero"
    elif rc >= 128:
        why = "exit %d (abort?)" % rc
    elif not re.search(c.expect, out, re.S):
        why = "message does not match /%s/" % c.expect
    if why is None:
        shutil.rmtree(d, ignore_errors=True)  # keep the files of failures only
    return why, out, rc, dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    cli = os.path.abspath(a.cli)
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    model_cases()
    project_cases(cli, work)
    mesh_cases()
    shape_cases()
    big_stl_case()
    controls()
    with open(os.path.join(work, "manifest.tsv"), "w") as f:
        f.write("name\texit\texpect\tstatus\targv\n")
        for c in CASES:
            f.write("%s\t%s\t%s\t%s\t%s\n" % (c.name, c.rc, c.expect, c.status, " ".join(c.argv)))
    cases = [c for c in CASES if not a.only or re.search(a.only, c.name)]
    if a.list:
        for c in cases:
            print(c.name, c.status)
        print(len(cases), "cases")
        return 0
    t0 = time.time()
    npass = nfail = nxfail = nxpass = 0
    slow = []
    for c in cases:
        why, out, rc, dt = run_case(cli, work, c)
        slow.append((dt, c.name))
        if c.status == "xfail":
            if why:
                nxfail += 1
                print("XFAIL %s: %s (%s)" % (c.name, why, c.why))
            else:
                nxpass += 1
                print("XPASS %s: passes now; drop its XFAIL mark (%s)" % (c.name, c.why))
            continue
        if why:
            nfail += 1
            print("FAIL %s: %s\n  argv: %s\n  exit: %s\n  output: %s" %
                  (c.name, why, " ".join(c.argv), rc, out.strip()[:2000].replace("\n", "\n          ")))
        else:
            npass += 1
    slow.sort(reverse=True)
    print("slowest: " + ", ".join("%s %.2fs" % (n, t) for t, n in slow[:5]))
    print("corpus: %d cases, %d passed, %d failed, %d expected failures, %d unexpected passes, %.1f s" %
          (len(cases), npass, nfail, nxfail, nxpass, time.time() - t0))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
