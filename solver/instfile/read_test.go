package instfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
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

// TestReadGzip reads each format gzip-compressed through Read, ReadHeader
// and Load: told apart by the decompressed content (and the extension
// before .gz), named without .gz, the optimum found by that name (or by
// NAME); a corrupt stream is one line naming the file.
func TestReadGzip(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, tsplib.OptimaFile), []byte("name,optimum\nsq,40\npts,4000000\nm,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := testinst.Gzip(t, "x,y\n0,0\n10,0\n10,10\n0,10\n")
	cases := []struct {
		file, data string
		gz         bool
		n          int
		section    string
		name       string
		opt        int64
		err        string // the error after "FILE: ", when the file does not read
	}{
		{file: "sq.tsp.gz", data: square4, gz: true, n: 4, section: "NODE_COORD_SECTION", name: "sq", opt: 40},
		{file: "pts.csv.gz", data: "x,y\n0,0\n10,0\n10,10\n0,10\n", gz: true, n: 4, section: PointsSection, name: "pts", opt: 4000000},
		{file: "pts.TXT.GZ", data: "0 0\n10 0\n10 10\n", gz: true, n: 3, section: PointsSection, name: "pts", opt: 4000000},
		{file: "m.csv.gz", data: "0,1,1\n1,0,1\n1,1,0\n", gz: true, n: 3, section: MatrixSection, name: "m", opt: 3},
		{file: "gzip-named-plain.tsp", data: square4, gz: true, n: 4, section: "NODE_COORD_SECTION", name: "sq", opt: 40},
		{file: "plain-named-gzip.tsp.gz", data: square4, n: 4, section: "NODE_COORD_SECTION", name: "sq", opt: 40},
		{file: "cut.csv.gz", data: string(good[:len(good)-10]), err: "corrupt gzip stream: the data ends early (a truncated file?)"},
		{file: "crc.csv.gz", data: string(append(bytes.Clone(good[:len(good)-8]), 1, 2, 3, 4, 5, 6, 7, 8)), err: "corrupt gzip stream: checksum mismatch"},
		{file: "empty.tsp.gz", data: "", gz: true, err: "the file is empty"},
		{file: "pic.tsp.gz", data: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", gz: true, err: "a PNG picture, not an instance"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		data := []byte(c.data)
		if c.gz {
			data = testinst.Gzip(t, c.data)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if !HasInstanceExtension(p) {
			t.Errorf("%s: HasInstanceExtension false", c.file)
		}
		in, err := Load(p)
		if c.err != "" {
			if err == nil || err.Error() != p+": "+c.err {
				t.Errorf("%s: %v, want %q", c.file, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if in.N != c.n || in.Name != c.name || in.Path != p || in.Optimum != c.opt {
			t.Errorf("%s: %d cities, name %q, path %q, optimum %d; want %d, %q, optimum %d", c.file, in.N, in.Name, in.Path, in.Optimum, c.n, c.name, c.opt)
		}
		if h, err := ReadHeader(p); err != nil || h.Dimension != c.n || h.Section != c.section || h.Name != c.name {
			t.Errorf("%s: header %+v, %v; want %d cities, %s, name %q", c.file, h, err, c.n, c.section, c.name)
		}
	}
	if HasInstanceExtension("x.gz") || HasInstanceExtension("x.png.gz") {
		t.Error("HasInstanceExtension takes a .gz of no instance extension")
	}
}
