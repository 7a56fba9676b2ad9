#!/usr/bin/env bash
# install-deps.sh — installs every Debian 12 package that building, testing and
# benchmarking Motus needs (docs/dependencies.md says why each one is here).
# Idempotent: when everything is already installed it only runs dpkg-query.
set -euo pipefail

PACKAGES=(
    # build and core library
    build-essential cmake pkg-config
    libsuitesparse-dev libopenblas-dev liblapacke-dev
    libarpack2-dev libfftw3-dev libnlopt-dev
    libsqlite3-dev sqlite3 gettext
    # the study test on a real one-node Slurm cluster (tests/study/slurm.sh)
    slurm-wlm munge
    # malformed-input corpus (tests/corpus) and libFuzzer targets (tests/fuzz)
    python3 clang-14 libclang-rt-14-dev
    # GUI (GTK 4 application) and headless GUI tests
    libgtk-4-dev libx11-dev libxtst-dev libcairo2-dev libepoxy-dev libcglm-dev xvfb xauth
    # animation export (ui/motus-video.c) and ffprobe, which its tests read the files back with
    libavcodec-dev libavformat-dev libswscale-dev libavutil-dev ffmpeg
    fonts-wqy-microhei
    # benchmark peers (never linked into Motus)
    libsimbody-dev libode-dev g++
    gmsh calculix-ccx
)

missing=()
for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#PACKAGES[@]} packages are installed"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "install-deps: missing packages (${missing[*]}); run this script as root or install sudo" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
