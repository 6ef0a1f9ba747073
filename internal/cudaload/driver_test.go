package cudaload

import (
	"errors"
	"strings"
	"testing"
)

func TestKernelVersion(t *testing.T) {
	cases := map[string]string{
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024\nGCC version: gcc 12\n": "535.161.07",
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build\n":                             "550.54.15",
		"NVRM version: something else\n": "",
		"":                               "",
	}
	for text, want := range cases {
		if got := kernelVersion(text); got != want {
			t.Errorf("kernelVersion(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestDriverString(t *testing.T) {
	cases := []struct {
		d    Driver
		want string
	}{
		{Driver{}, "not built in"},
		{Driver{Built: true, Err: errors.New("libcuda.so.1: cannot open shared object file")}, "no NVIDIA driver: CPU engines only"},
		{Driver{Built: true, Library: "/usr/lib/libcuda.so.1", Kernel: "550.54.15", CUDAVersion: 12040}, "NVIDIA driver 550.54.15, CUDA 12.4 (/usr/lib/libcuda.so.1)"},
		{Driver{Built: true, Library: "/usr/lib/libcuda.so.1", CUDAVersion: 12020, Err: errors.New("cuInit: CUDA_ERROR_NO_DEVICE (100)")}, "cannot start: cuInit: CUDA_ERROR_NO_DEVICE (100): CPU engines only"},
	}
	for _, c := range cases {
		if got := c.d.String(); !strings.Contains(got, c.want) {
			t.Errorf("%+v: String() = %q, want it to contain %q", c.d, got, c.want)
		}
		if c.d.Usable() != (c.d.Built && c.d.Library != "" && c.d.Err == nil) {
			t.Errorf("%+v: Usable() = %v", c.d, c.d.Usable())
		}
	}
}
