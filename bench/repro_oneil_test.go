package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestOneilOnly: --only tspgpu,cpu runs the comparison table alone with the
// CPU engine (the GPU columns read n/a), writes no other table, says what
// was left out, and names the start tours; an unknown part is refused.
func TestOneilOnly(t *testing.T) {
	dir := tsplibdir.Need(t)
	tsplibdir.Instance(t, "d493")
	tsplibdir.Instance(t, "d18512")
	papersDir := needPapers(t)
	out := t.TempDir()
	var buf bytes.Buffer
	opt := Options{TSPLIBDir: dir, OutDir: out, Quick: true, Time: 50 * time.Millisecond, PapersDir: papersDir, Only: []string{"tspgpu", "cpu"}}
	if err := Run(context.Background(), "oneil", opt, &buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, w := range []string{"| d493 |", "Run with --only tspgpu,cpu", "randomized nearest-neighbour tours", "TSP_GPU's own starts"} {
		if !strings.Contains(md, w) {
			t.Errorf("output lacks %q:\n%s", w, md)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "oneil-tspgpu.md")); err != nil {
		t.Errorf("oneil-tspgpu.md: %v", err)
	}
	for _, f := range []string{"oneil.md", "oneil-quality.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written, though --only left its table out", f)
		}
	}
	opt.Only = []string{"table2"}
	if err := Run(context.Background(), "oneil", opt, &buf); err == nil || !strings.Contains(err.Error(), "--only table2") {
		t.Errorf("--only table2: error %v, want one naming it", err)
	}
}
