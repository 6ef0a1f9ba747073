package tsplib

import (
	"bufio"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// Header is the specification part of a TSPLIB instance file: what a
// browser shows before the file is loaded.
type Header struct {
	Name      string // NAME, or the file's base name without .tsp when absent
	Type      string // TYPE (always TSP: other types are errors)
	Comment   string // COMMENT lines, joined by newlines
	Dimension int    // DIMENSION
	Metric    string // EDGE_WEIGHT_TYPE as written in capitals ("EUC_2D")
	Format    string // EDGE_WEIGHT_FORMAT, for EXPLICIT instances
	Section   string // the first section's keyword in capitals ("NODE_COORD_SECTION"), PointsSection for a point list
}

// PointsSection is the Section of a point list's Header.
const PointsSection = "POINTS"

// ReadHeader reads the header of the instance file at path (for a point
// list, see pointsHeader): its keywords
// up to the first section, checked as Read checks them (the same
// FILE:LINE errors), without reading the data.
func ReadHeader(path string) (Header, error) {
	f, err := openRegular(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, readerSniffSize)
	head, err := br.Peek(readerSniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return Header{}, fileError(path, bareError(err))
	}
	if isMatrixCSV(head, len(head) < readerSniffSize) {
		return matrixHeader(br, path)
	}
	if isPointList(head, path) {
		return pointsHeader(br, path)
	}
	return ParseHeader(br, path)
}

// pointsHeader describes a point list without parsing its numbers: the
// header line (when it has one) gives the metric, the count of lines that
// are not blank or comments the dimension.
func pointsHeader(r io.Reader, filename string) (Header, error) {
	p := &pointReader{br: bufio.NewReaderSize(&crReader{r: r}, MaxPointLine), file: filename}
	h := Header{Name: strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename)), Type: "TSP", Metric: solver.Euc2D.String(), Section: PointsSection}
	for {
		b, err := p.nextLine()
		if err != nil {
			return Header{}, err
		}
		if b == nil {
			break
		}
		if h.Dimension == 0 && p.names == nil && !isNumber(b) {
			if err := p.header(splitFields(b)); err != nil {
				return Header{}, err
			}
			if p.latLon {
				h.Metric = solver.GreatCircle.String()
			}
			continue
		}
		h.Dimension++
	}
	if h.Dimension == 0 {
		return Header{}, p.end()
	}
	return h, nil
}

// ParseHeader reads the header of an instance from r; see ReadHeader.
// filename names r in errors and gives the name when NAME is absent. A
// header that ends before any section, or lacks DIMENSION, is an error.
func ParseHeader(r io.Reader, filename string) (Header, error) {
	p := newParser(r, filename)
	p.headerOnly = true
	if err := p.parse(); err != nil {
		return Header{}, err
	}
	if p.dim < 0 {
		line := p.sectionLine
		if line == 0 {
			line = p.lastLine
		}
		return Header{}, p.errf(line, "no DIMENSION in the header")
	}
	h := Header{Name: p.name, Type: p.typ, Comment: p.comment, Dimension: p.dim, Format: p.ewf, Section: p.firstSection}
	if p.haveMetric {
		h.Metric = p.metric.String()
	}
	if h.Name == "" {
		h.Name = strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	}
	return h, nil
}
