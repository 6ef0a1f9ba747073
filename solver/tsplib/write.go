package tsplib

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tsplab/tsplab/solver/problem"
)

// WriteInstance writes in as a TSPLIB95 TSP file that reads back the same, with its comments and fixed edges.
func WriteInstance(w io.Writer, in *problem.Instance) error {
	if err := checkWritable(in); err != nil {
		return err
	}
	n := in.N
	explicit := in.Metric == problem.Explicit
	hasXY := len(in.X) == n && len(in.Y) == n
	bw := bufio.NewWriterSize(w, 64<<10)
	writeSpecification(bw, in, explicit, hasXY)
	if explicit {
		writeMatrix(bw, in)
		if hasXY {
			bw.WriteString("DISPLAY_DATA_SECTION\n")
		}
	} else {
		bw.WriteString("NODE_COORD_SECTION\n")
	}
	if hasXY {
		writeCoords(bw, in)
	}
	bw.WriteString("EOF\n")
	return bw.Flush()
}

// checkWritable errs when in cannot be written as a TSPLIB file reading back the same.
func checkWritable(in *problem.Instance) error {
	if in == nil {
		return fmt.Errorf("tsplib: WriteInstance: nil instance")
	}
	n := in.N
	if n < 1 {
		return fmt.Errorf("tsplib: WriteInstance %s: N = %d, want at least 1", in.Name, n)
	}
	if _, ok := problem.ParseMetric(in.Metric.String()); !ok {
		return fmt.Errorf("tsplib: WriteInstance %s: unknown metric %v", in.Name, in.Metric)
	}
	explicit := in.Metric == problem.Explicit
	if explicit && len(in.Matrix) != n*n {
		return fmt.Errorf("tsplib: WriteInstance %s: matrix has %d entries, want %d", in.Name, len(in.Matrix), n*n)
	}
	hasXY := len(in.X) == n && len(in.Y) == n
	if !explicit && !hasXY {
		return fmt.Errorf("tsplib: WriteInstance %s: %d/%d coordinates, want %d", in.Name, len(in.X), len(in.Y), n)
	}
	if in.Metric.Is3D() && len(in.Z) != n {
		return fmt.Errorf("tsplib: WriteInstance %s: %d z coordinates, want %d", in.Name, len(in.Z), n)
	}
	for _, c := range [][]float64{in.X, in.Y, in.Z} {
		for i, v := range c {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxCoord {
				return fmt.Errorf("tsplib: WriteInstance %s: city %d has coordinate %v, want a finite number within ±%d", in.Name, i+1, v, MaxCoord)
			}
		}
	}
	for _, e := range in.FixedEdges {
		if e[0] < 0 || e[0] >= n || e[1] < 0 || e[1] >= n {
			return fmt.Errorf("tsplib: WriteInstance %s: fixed edge %d-%d out of range", in.Name, e[0]+1, e[1]+1)
		}
	}
	return nil
}

// writeSpecification writes in's specification part and fixed edges.
func writeSpecification(bw *bufio.Writer, in *problem.Instance, explicit, hasXY bool) {
	name := in.Name
	if name == "" {
		name = "unnamed"
	}
	fmt.Fprintf(bw, "NAME : %s\n", oneLine(name))
	writeComment(bw, in.Comment)
	fmt.Fprintf(bw, "TYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : %s\n", in.N, in.Metric)
	if explicit {
		bw.WriteString("EDGE_WEIGHT_FORMAT : FULL_MATRIX\n")
		if hasXY {
			bw.WriteString("DISPLAY_DATA_TYPE : TWOD_DISPLAY\n")
		} else {
			bw.WriteString("DISPLAY_DATA_TYPE : NO_DISPLAY\n")
		}
	}
	if len(in.FixedEdges) > 0 {
		bw.WriteString("FIXED_EDGES_SECTION\n")
		for _, e := range in.FixedEdges {
			fmt.Fprintf(bw, "%d %d\n", e[0]+1, e[1]+1)
		}
		bw.WriteString("-1\n")
	}
}

// writeMatrix writes in's full matrix, one row a line.
func writeMatrix(bw *bufio.Writer, in *problem.Instance) {
	n := in.N
	var buf []byte
	bw.WriteString("EDGE_WEIGHT_SECTION\n")
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for j := 0; j < n; j++ {
			if j > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(in.Matrix[i*n+j]), 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
}

// writeCoords writes one "id x y" line a city (z for 3-D).
func writeCoords(bw *bufio.Writer, in *problem.Instance) {
	is3D := in.Metric.Is3D()
	var buf []byte
	for i := 0; i < in.N; i++ {
		buf = strconv.AppendInt(buf[:0], int64(i)+1, 10)
		buf = appendCoord(append(buf, ' '), in.X[i])
		buf = appendCoord(append(buf, ' '), in.Y[i])
		if is3D {
			buf = appendCoord(append(buf, ' '), in.Z[i])
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
}

// appendCoord prints v in the shortest form that parses back exactly.
func appendCoord(buf []byte, v float64) []byte {
	a := math.Abs(v)
	if v == 0 || (a >= 1e-6 && a < 1e21) {
		return strconv.AppendFloat(buf, v, 'f', -1, 64)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}
