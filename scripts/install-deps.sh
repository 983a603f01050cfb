#!/usr/bin/env bash
# Installs the Debian packages (12 or 13) fxscope builds, tests and runs with.
# Root runs apt-get directly, others go through sudo; without either it prints the exact command and stops.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config clang libclang-rt-dev
  qt6-base-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev qt6-tools-dev-tools libqt6svg6 qt6-qpa-plugins libgl-dev
  libgraphviz-dev graphviz libspdlog-dev libfmt-dev libzip-dev
  libgloo-dev
  python3 python3-venv
  # The install test validates the desktop entry; cpack's .deb reads its dependencies with dpkg-shlibdeps; the
  # batch test reads fxscope-cli's peak memory with GNU time.
  desktop-file-utils file dpkg-dev time
  xvfb xauth imagemagick fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  echo "fxscope needs these Debian packages: ${missing[*]}" >&2
  echo "Run as root:  apt-get update && ${cmd[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" "${cmd[@]}"
