package bench

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestGPUSuiteWithoutGPU runs the gpu suite in a build without CUDA (this
// test binary links no GPU engines): the table still comes out, with the
// CPU side filled in and the GPU side marked n/a, and says why.
func TestGPUSuiteWithoutGPU(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "rd100")
	tsplibdir.Instance(t, "a280")
	out := t.TempDir()
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 150 * time.Millisecond, Instances: []string{"rd100"}}
	if err := Run(context.Background(), "gpu", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"| SA vs CPU SSPM | rd100 (n=100) | pspm | n/a |", "| SA vs CPU PSSM | rd100 (n=100) |",
		"2opt-climb, equal time | a280 (n=280)", "built without CUDA", HostCPU()} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	recs := readCSV(t, filepath.Join(out, "gpu.csv"))
	// header, 2 SA rows, 2 summary rows, 1 climb row
	if len(recs) != 6 || recs[0][3] != "GPU moves/s" {
		t.Fatalf("csv has %d records: %q", len(recs), recs)
	}
	for _, r := range recs[1:3] {
		if r[7] == "n/a" || r[8] == "n/a" {
			t.Errorf("CPU side missing: %q", r)
		}
	}
}
