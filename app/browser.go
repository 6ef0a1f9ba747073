package app

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/assets"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Entry is one instance in the browser: what its header says, read
// without loading the whole file.
type Entry struct {
	Name      string // base name without .tsp
	Path      string
	Dimension int    // 0 when the header does not say
	Type      string // TYPE (TSP, ATSP, ...)
	Metric    string // EDGE_WEIGHT_TYPE
	Optimum   int64  // known optimum from optima.csv, 0 when unknown
	OptTour   bool   // an .opt.tour lies beside the file
	Err       string // why the header could not be read
}

// Summary is the entry's one-line description for the list.
func (e Entry) Summary() string {
	if e.Err != "" {
		return e.Err
	}
	parts := []string{}
	if e.Dimension > 0 {
		parts = append(parts, fmt.Sprintf("n=%d", e.Dimension))
	}
	if e.Type != "" {
		parts = append(parts, e.Type)
	}
	if e.Metric != "" {
		parts = append(parts, e.Metric)
	}
	switch {
	case e.Optimum > 0:
		parts = append(parts, fmt.Sprintf("opt %d", e.Optimum))
	case e.OptTour:
		parts = append(parts, "opt tour")
	default:
		parts = append(parts, "optimum unknown")
	}
	return strings.Join(parts, " · ")
}

// maxHeaderLines bounds how far ReadHeader looks for the keywords.
const maxHeaderLines = 200

// ReadHeader reads the specification part of the TSPLIB file at path (up
// to its first section) into an Entry; Optimum is left 0.
func ReadHeader(path string) (Entry, error) {
	e := Entry{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Path: path}
	f, err := os.Open(path)
	if err != nil {
		return e, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan() && line <= maxHeaderLines; line++ {
		text := strings.TrimSpace(sc.Text())
		key, val, ok := strings.Cut(text, ":")
		key = strings.ToUpper(strings.TrimSpace(key))
		if !ok {
			if strings.HasSuffix(key, "_SECTION") || key == "EOF" {
				break
			}
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "TYPE":
			e.Type = strings.ToUpper(firstWord(val))
		case "DIMENSION":
			n, err := strconv.Atoi(firstWord(val))
			if err != nil || n <= 0 {
				return e, fmt.Errorf("%s:%d: DIMENSION %q is not a positive whole number", path, line, val)
			}
			e.Dimension = n
		case "EDGE_WEIGHT_TYPE":
			e.Metric = strings.ToUpper(firstWord(val))
		}
		if strings.HasSuffix(key, "_SECTION") {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return e, fmt.Errorf("%s: %v", path, err)
	}
	return e, nil
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// ScanFolder lists every .tsp file in dir (not its subfolders), sorted by
// dimension then name, with header facts and known optima from
// optima.csv in dir or in $TSPLIB_OPTIMA. A file whose header cannot be
// read is listed with Err set.
func ScanFolder(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	optima := optimaFor(dir)
	var out []Entry
	for _, de := range des {
		if de.IsDir() || !strings.EqualFold(filepath.Ext(de.Name()), ".tsp") {
			continue
		}
		p := filepath.Join(dir, de.Name())
		e, err := ReadHeader(p)
		if err != nil {
			e.Err = err.Error()
		}
		e.Optimum = optima[e.Name]
		e.OptTour = tsplib.OptTourPath(p, nil) != ""
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Dimension != out[j].Dimension {
			return out[i].Dimension < out[j].Dimension
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// optimaFor returns the known optima of the instances in dir: optima.csv
// in dir over the one $TSPLIB_OPTIMA names.
func optimaFor(dir string) map[string]int64 {
	optima := map[string]int64{}
	for _, c := range []string{os.Getenv(tsplib.OptimaEnv), dir} {
		if c == "" {
			continue
		}
		if !strings.HasSuffix(strings.ToLower(c), ".csv") {
			c = filepath.Join(c, tsplib.OptimaFile)
		}
		if m, err := tsplib.ReadOptima(c); err == nil {
			for k, v := range m {
				optima[k] = v
			}
		}
	}
	return optima
}

// ExtractSamples copies the bundled samples into dir (created if needed)
// so they load like any file, optima.csv and optimal tours beside them.
// Files already there with the same size are kept. It returns dir.
func ExtractSamples(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	err := fs.WalkDir(assets.Samples, "samples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assets.Samples.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.Base(p))
		if st, err := os.Stat(dst); err == nil && st.Size() == int64(len(data)) {
			return nil
		}
		tmp := dst + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, dst)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// SamplesDir returns where the bundled samples are extracted: under the
// user's cache directory, or the temporary directory.
func SamplesDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "tsplab", "samples")
}
