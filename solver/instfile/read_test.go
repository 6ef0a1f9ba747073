package instfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestTSPLIBThroughInstfile checks that a TSPLIB file reads through Read,
// ReadHeader and Load as tsplib reads it, that ReadHeader refuses what is
// not a regular file, and that Load attaches a point list's optimum from
// the optima.csv beside it.
func TestTSPLIBThroughInstfile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sq := write("sq.tsp", square4)
	pts := write("pts.csv", "x,y\n0,0\n10,0\n10,10\n0,10\n")
	write(tsplib.OptimaFile, "name,optimum\nsq,40\npts,4000000\n")

	want, err := tsplib.ReadHeader(sq)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := ReadHeader(sq); err != nil || h != want {
		t.Errorf("ReadHeader(sq.tsp) = %+v, %v; tsplib says %+v", h, err, want)
	}
	if _, err := ReadHeader(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadHeader of a directory: %v", err)
	}
	for _, c := range []struct {
		path string
		opt  int64
	}{{sq, 40}, {pts, 4000000}} {
		in, err := Load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if in.Path != c.path || in.Optimum != c.opt || in.N != 4 {
			t.Errorf("Load(%s): path %q, optimum %d, %d cities; want optimum %d of 4", c.path, in.Path, in.Optimum, in.N, c.opt)
		}
	}
}
