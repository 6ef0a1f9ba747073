package instfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// WriteTourCSV writes tour as a point list in tour order, one point a
// line with its id: a point list's own ids, header and coordinates as
// written, TSPLIB's node ids (1..N) and coordinates otherwise. Reading the
// file back gives the cities in tour order.
func WriteTourCSV(w io.Writer, in *solver.Instance, tour []int) error {
	if err := solver.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("tsplib: WriteTourCSV %s: %w", in.Name, err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cols, names := tourColumns(in)
	bw.WriteString(strings.Join(names, ",") + "\n")
	buf := make([]byte, 0, 96)
	for _, c := range tour {
		if labelled(in.Points) {
			buf = append(buf[:0], in.Points.Labels[c]...)
		} else {
			buf = strconv.AppendInt(buf[:0], in.Points.ID(c), 10)
		}
		for _, col := range cols {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, col[c], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// tourColumns returns the coordinate columns WriteTourCSV writes and the
// header naming the id and them.
func tourColumns(in *solver.Instance) ([][]float64, []string) {
	if p := in.Points; p != nil {
		names := p.Names
		switch {
		case names == nil:
			names = []string{"id", "x", "y"}
		case len(names) == 2:
			names = append([]string{"id"}, names...)
		}
		return p.Cols[:], names
	}
	switch {
	case len(in.X) != in.N:
		return nil, []string{"id"}
	case in.Metric.Is3D() && len(in.Z) == in.N:
		return [][]float64{in.X, in.Y, in.Z}, []string{"id", "x", "y", "z"}
	}
	return [][]float64{in.X, in.Y}, []string{"id", "x", "y"}
}

// ReadTourFor reads a tour of in from the file at path: a TSPLIB TOUR
// file, or a point list in tour order as WriteTourCSV writes it (told
// apart as Read tells instances), whose ids name in's cities (in's own
// ids for a point list, 1..N otherwise).
func ReadTourFor(path string, in *solver.Instance) ([]int, error) {
	f, br, points, err := openSniffed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !points {
		t, err := tsplib.ParseTour(br, path, in.N)
		if err := f.Check(err); err != nil {
			return nil, err
		}
		return t, nil
	}
	pts, err := ParsePoints(br, path)
	if err := f.Check(err); err != nil {
		return nil, err
	}
	if pts.N != in.N {
		return nil, &tsplib.Error{File: path, Msg: fmt.Sprintf("%d points, want the %d cities of %s", pts.N, in.N, in.Name)}
	}
	var tour []int
	if !labelled(in.Points) && !labelled(pts.Points) {
		tour, err = toursCities(in, pts.N, path, in.Points.ID, pts.Points.ID, func(id int64) string { return strconv.FormatInt(id, 10) })
	} else {
		tour, err = toursCities(in, pts.N, path, in.Points.Label, pts.Points.Label, quote)
	}
	if err != nil {
		return nil, err
	}
	if err := solver.ValidateTour(tour, in.N); err != nil {
		return nil, errorf(path, 0, "%v", err)
	}
	return tour, nil
}

// toursCities maps the n ids of a tour file (tourID) to in's cities
// (cityID), naming the first id that is not one of them.
func toursCities[K comparable](in *solver.Instance, n int, path string, cityID, tourID func(int) K, show func(K) string) ([]int, error) {
	city := make(map[K]int, in.N)
	for i := range in.N {
		city[cityID(i)] = i
	}
	tour := make([]int, n)
	for k := range tour {
		id := tourID(k)
		c, ok := city[id]
		if !ok {
			return nil, &tsplib.Error{File: path, Msg: fmt.Sprintf("id %s is not a city of %s", show(id), in.Name)}
		}
		tour[k] = c
	}
	return tour, nil
}

// labelled reports whether p's ids are names (PointList.Labels).
func labelled(p *solver.PointList) bool { return p != nil && p.Labels != nil }
