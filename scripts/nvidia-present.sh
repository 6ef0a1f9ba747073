#!/bin/sh
# nvidia-present.sh — exit 0 when this machine has a working NVIDIA driver
# with at least one GPU, 1 otherwise. `make run` uses it to choose between
# the CUDA variant (as `make gpu`) and the CPU variant.
#
# nvidia-smi decides when it is installed: it lists the GPUs the driver
# sees ("GPU 0: NVIDIA H100 ..."), and fails when the driver is not loaded
# (a container with the user-space libraries but no device). Without
# nvidia-smi, a loaded kernel driver (/proc/driver/nvidia/version) and a
# libcuda.so.1 the loader knows stand for it.
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi -L 2>/dev/null | grep -q '^GPU [0-9]' && exit 0
	exit 1
fi
[ -r "${NVIDIA_PROC:-/proc/driver/nvidia/version}" ] || exit 1
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q 'libcuda\.so\.1' && exit 0
exit 1
