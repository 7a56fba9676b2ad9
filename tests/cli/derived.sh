#!/bin/sh
# Derived curves headless (ctest cli_derived): motus-cli run --out of the
# pendulum (projects/pendulum.motus.txt: a 1 kg point-like bob on 1 m from
# 60°) with derived lines writes them as the CSV's last columns; the pin's
# |F| is the rod's tension m g (3 cos θ − 2 cos θ0) within 1e-4 N, the
# derivative of pin.angle is bob.wz within 2 h² ω''' / 6 (h = 10 ms,
# ω''' < 40 rad/s⁴), the integral of bob.wz is pin.angle − θ0 within
# 2 s · h² ω'' / 12 (ω'' < 20 rad/s³).   derived.sh MOTUS-CLI PROJECTS-DIR OUT-DIR
set -e
cli=$1 projects=$2 out=$3
model=$out/derived-pendulum.motus.txt
{
  cat "$projects/pendulum.motus.txt"
  printf 'derived F magnitude pin.Fx pin.Fy pin.Fz\nderived omega derivative pin.angle\nderived theta integral bob.wz\n'
} > "$model"
"$cli" run "$model" --out "$out/derived-pendulum.csv" > /dev/null
awk -F, '
NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next }
{
  th = $c["pin.angle"]
  e = $c["F"] - 9.81 * (3 * cos(th) - 2 * cos(atan2(1, 0) * 2 / 3)); if (e < 0) e = -e; if (e > ef) ef = e
  e = $c["omega"] - $c["bob.wz"]; if (e < 0) e = -e; if (e > ew) ew = e
  e = $c["theta"] - (th - atan2(1, 0) * 2 / 3); if (e < 0) e = -e; if (e > et) et = e
  n++
}
END {
  printf "%d frames: |F| off the tension by %.3g N, d(angle)/dt off bob.wz by %.3g rad/s, integral of bob.wz off by %.3g rad\n", n, ef, ew, et
  if (n != 201 || ef > 1e-4 || ew > 2 * 0.01 * 0.01 * 40 / 6 || et > 2 * 0.01 * 0.01 * 20 / 12) exit 1
}' "$out/derived-pendulum.csv"
