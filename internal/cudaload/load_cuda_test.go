//go:build cuda && linux && amd64

package cudaload

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestAbsent re-runs this test binary with the driver library forbidden
// and missing: the stubs answer CUDA_ERROR_NO_DEVICE and Find says the CPU
// engines run.
func TestAbsent(t *testing.T) {
	for _, lib := range []string{"none", "/nonexistent/libcuda.so.1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
		cmd.Env = append(os.Environ(), "TSPLAB_LIBCUDA="+lib, "CUDALOAD_CHILD=absent")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "PASS") {
			t.Errorf("TSPLAB_LIBCUDA=%s: %v\n%s", lib, err, out)
		}
	}
}

// TestChild is TestAbsent's child; it does nothing in a plain run.
func TestChild(t *testing.T) {
	if os.Getenv("CUDALOAD_CHILD") != "absent" {
		t.Skip("run by TestAbsent")
	}
	d := Find()
	if d.Library != "" || d.Err == nil || d.Usable() {
		t.Fatalf("Find() = %+v, want no library and an error", d)
	}
	if !strings.Contains(d.String(), "no NVIDIA driver: CPU engines only") {
		t.Errorf("String() = %q", d.String())
	}
	if v, r := driverVersion(); r != 100 || v != 0 {
		t.Errorf("cuDriverGetVersion through its stub: version %d, result %d; want 0, 100", v, r)
	}
}

// TestPresent checks the loader on a machine with libcuda.so.1: the stub
// reaches the driver's cuDriverGetVersion, which answers without a GPU.
func TestPresent(t *testing.T) {
	d := Find()
	if d.Library == "" {
		t.Skipf("no driver library here: %v", d.Err)
	}
	t.Logf("driver: %s", d)
	v, r := driverVersion()
	if r != 0 || v < 1000 {
		t.Errorf("cuDriverGetVersion through its stub: version %d, result %d", v, r)
	}
	if d.CUDAVersion != v {
		t.Errorf("Find().CUDAVersion = %d, the stub says %d", d.CUDAVersion, v)
	}
}
