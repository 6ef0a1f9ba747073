package tsplib

import (
	"io"
	"path/filepath"
	"strings"
)

// Header is a TSPLIB file's specification part, shown before the file is read.
type Header struct {
	Name      string // NAME, or the file's base name without .tsp when absent
	Type      string // TYPE (always TSP: other types are errors)
	Comment   string // COMMENT lines, joined by newlines
	Dimension int    // DIMENSION
	Metric    string // EDGE_WEIGHT_TYPE as written in capitals ("EUC_2D")
	Format    string // EDGE_WEIGHT_FORMAT, for EXPLICIT instances
	Section   string // the first section's keyword in capitals ("NODE_COORD_SECTION"); instfile names the other formats' own
}

// ReadHeader reads the TSPLIB95 header at path (gzip too) up to the first section, checked as Read checks it.
func ReadHeader(path string) (Header, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return Header{}, err
	}
	in, err := NewInput(f, path)
	if err != nil {
		f.Close()
		return Header{}, err
	}
	defer in.Close()
	h, err := ParseHeader(in, path)
	return h, in.Err(err)
}

// ParseHeader reads an instance's header from r (see ReadHeader); one without a section or DIMENSION is an error.
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
		base := filepath.Base(TrimGz(filename))
		h.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return h, nil
}
