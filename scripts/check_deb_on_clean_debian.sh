#!/bin/sh
# Installs build/fxscope_*.deb (make deb) into a clean Debian 12 (a debootstrap minbase chroot, as root) and runs the
# installed programs from PATH: what issue 23 asks of the package. Needs debootstrap and network access to Debian's
# mirror. Usage: sudo scripts/check_deb_on_clean_debian.sh [ROOT=/tmp/fxscope-deb12]
set -eu
root=${1:-/tmp/fxscope-deb12}
deb=$(ls build/fxscope_*.deb | head -n 1)
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp "$deb" "$root/tmp/fxscope.deb"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
chroot "$root" sh -ec '
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/fxscope.deb desktop-file-utils >/dev/null
  echo "Debian $(cat /etc/debian_version)"
  fxscope-cli --version
  fxscope-cli info /usr/share/fxscope/samples/llama_block.py | head -n 3
  fxscope-cli match /usr/share/fxscope/samples/llama_block.py --patterns builtin | tail -n 2
  desktop-file-validate /usr/share/applications/fxscope.desktop && echo "desktop entry: valid"
  QT_QPA_PLATFORM=offscreen fxscope --version | head -n 1'
