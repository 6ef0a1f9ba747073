package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tsplab/tsplab/solver"
)

// batchLine is one line of a batch's results: one instance solved.
type batchLine struct {
	Name string `json:"name"`
	File string `json:"file"`
	// Line is the line of a file of instance lines (omitted for a file).
	Line int `json:"line,omitempty"`
	N    int `json:"n"`
	// Length, Optimum and LowerBound are in the file's units (metres
	// for latitude and longitude).
	Length     json.Number  `json:"length"`
	Optimum    *json.Number `json:"optimum,omitempty"`
	GapPercent *float64     `json:"gap_percent,omitempty"`
	LowerBound *json.Number `json:"lower_bound,omitempty"`
	// BoundGapPercent is how far Length lies above LowerBound.
	BoundGapPercent *float64 `json:"bound_gap_percent,omitempty"`
	// Reference is the length of the tour an instance line gave after
	// "output" (a data set's label), RefGapPercent how far Length lies
	// above it (negative: shorter).
	Reference     *json.Number `json:"reference_length,omitempty"`
	RefGapPercent *float64     `json:"reference_gap_percent,omitempty"`
	Seconds       float64      `json:"time_s"`
	Seed          uint64       `json:"seed"`
	Algorithm     string       `json:"algorithm"`
	Backend       string       `json:"backend"`
	// Options are the engine's options the run took, as --opt gives
	// them: the work the batch chose for the instance's size (kicks, and
	// pop's ga and rounds) or the one given.
	Options map[string]string `json:"options,omitempty"`
	// Route marks an open path and its ends, as the run record's
	// account.route does (omitted for a closed tour).
	Route *solver.RouteAccount `json:"route,omitempty"`
	// Tour is the tour as 1-based ids (TSPLIB's, or a point list's own),
	// with --tours.
	Tour []int64 `json:"tour,omitempty"`
	// Key is the item's key for resuming (the file, and :line).
	Key string `json:"key"`
}

// batchOut appends a batch's result lines to a file, each batch of lines
// synced before the next is written, so that an interrupted batch loses
// at most the lines being written and a rerun skips what is there.
type batchOut struct {
	path string
	f    *os.File
	w    io.Writer // f, or stdout for "-"
	buf  bytes.Buffer
}

// openBatchOut opens path for appending results after the lines already
// there, and returns the keys of those lines. A last line without its end
// (the write an interrupt cut) is dropped.
func openBatchOut(path string, stdout io.Writer) (*batchOut, map[string]bool, error) {
	if path == "-" {
		return &batchOut{path: path, w: stdout}, map[string]bool{}, nil
	}
	done, keep, err := readBatchKeys(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("--out: %v", err)
	}
	if err = f.Truncate(keep); err == nil {
		_, err = f.Seek(keep, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("--out: %v", err)
	}
	return &batchOut{path: path, f: f, w: f}, done, nil
}

// readBatchKeys reads the keys of a results file's whole lines and the
// size of those lines; a missing file has none.
func readBatchKeys(path string) (map[string]bool, int64, error) {
	done := map[string]bool{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return done, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("--out: %v", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var keep int64
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return done, keep, nil // a last line without its end is dropped
		}
		if err != nil {
			return nil, 0, fmt.Errorf("--out: %v", err)
		}
		keep += int64(len(b))
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var l struct {
			Key string `json:"key"`
		}
		if err := json.Unmarshal(b, &l); err != nil || l.Key == "" {
			return nil, 0, fmt.Errorf("%s:%d: not a line of 'tsp batch' results: name another --out, or remove the file", path, line)
		}
		done[l.Key] = true
	}
}

// add queues one line.
func (o *batchOut) add(l batchLine) {
	b, _ := json.Marshal(l)
	o.buf.Write(b)
	o.buf.WriteByte('\n')
}

// flush writes the queued lines and syncs them to the disk.
func (o *batchOut) flush() error {
	if o.buf.Len() == 0 {
		return nil
	}
	_, err := o.w.Write(o.buf.Bytes())
	o.buf.Reset()
	if err == nil && o.f != nil {
		err = o.f.Sync()
	}
	if err != nil {
		return fmt.Errorf("--out %s: %v", o.path, err)
	}
	return nil
}

// close flushes and closes the file.
func (o *batchOut) close() error {
	err := o.flush()
	if o.f != nil {
		if cerr := o.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--out %s: %v", o.path, cerr)
		}
	}
	return err
}
