package instfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
)

// WriteTourCSV writes tour as a point list in tour order with ids and coordinates as written (TSPLIB: 1..N).
func WriteTourCSV(w io.Writer, in *problem.Instance, tour []int) error {
	if err := problem.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("tsplib: WriteTourCSV %s: %w", in.Name, err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cols, names := tourColumns(in)
	asWritten := in.Points != nil && in.Points.Text.Has(in.N)
	bw.WriteString(strings.Join(names, ",") + "\n")
	buf := make([]byte, 0, 96)
	for _, c := range tour {
		if in.Named() {
			buf = appendCSVField(buf[:0], in.CityLabel(c))
		} else {
			buf = strconv.AppendInt(buf[:0], in.Points.ID(c), 10)
		}
		for k, col := range cols {
			buf = append(buf, ',')
			if asWritten {
				buf = in.Points.Text.AppendTo(buf, c, k)
			} else {
				buf = strconv.AppendFloat(buf, col[c], 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// WriteTourIDs writes tour as the file's city ids, one a line (CityLabel); ReadStartTour reads it back.
func WriteTourIDs(w io.Writer, in *problem.Instance, tour []int) error {
	if err := problem.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("tsplib: WriteTourIDs %s: %w", in.Name, err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, c := range tour {
		bw.WriteString(in.CityLabel(c))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// tourColumns returns WriteTourCSV's coordinate columns and header.
func tourColumns(in *problem.Instance) ([][]float64, []string) {
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
	case len(in.X) != in.N && in.CityNames != nil:
		return nil, []string{"name"}
	case len(in.X) != in.N:
		return nil, []string{"id"}
	case in.Metric.Is3D() && len(in.Z) == in.N:
		return [][]float64{in.X, in.Y, in.Z}, []string{"id", "x", "y", "z"}
	}
	return [][]float64{in.X, in.Y}, []string{"id", "x", "y"}
}

// appendCSVField appends a name to a CSV line, quoted where needed.
func appendCSVField(buf []byte, s string) []byte {
	if !strings.ContainsAny(s, ",;\"\n\r") && strings.TrimSpace(s) == s {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	buf = append(buf, strings.ReplaceAll(s, `"`, `""`)...)
	return append(buf, '"')
}
