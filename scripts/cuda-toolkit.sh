#!/bin/sh
# cuda-toolkit.sh installs the CUDA toolkit (nvcc, cuda.h, the libcuda
# stub) from Debian bookworm's non-free component when nvcc is missing.
# As root it adds the component and installs nvidia-cuda-toolkit; otherwise
# it prints the commands to run and exits 1.
set -eu
if command -v nvcc >/dev/null 2>&1; then
	echo "nvcc found: $(command -v nvcc)"
	exit 0
fi
SRC=/etc/apt/sources.list.d/nonfree.sources
if [ "$(id -u)" != 0 ]; then
	cat >&2 <<EOT
nvcc is missing and this script is not running as root. Run as root:
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: contrib non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > $SRC
  apt-get update
  apt-get install -y nvidia-cuda-toolkit
EOT
	exit 1
fi
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: contrib non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$SRC"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y nvidia-cuda-toolkit
command -v nvcc
