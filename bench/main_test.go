package bench

import (
	"encoding/csv"
	"os"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestMain reports, in one line, the tests skipped for want of TSPLIB data.
func TestMain(m *testing.M) { tsplibdir.Main(m) }

// readCSV returns the records of the CSV file at path, failing the test
// when it cannot be read.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
