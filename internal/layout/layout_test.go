package layout

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// row is one row of docs/LAYOUT.md's layout table: the paths it names and
// what their packages may import.
type row struct {
	paths []string // as written, relative to the repository root
	// module: the module's packages allowed (relative paths; a trailing
	// "/*" allows a folder's sub-packages); subpackages: "solver and its
	// sub-packages", butEngines: but the engines' (solver/cpu); external:
	// import path prefixes of other modules.
	module                  []string
	subpackages, butEngines bool
	external                []string
}

// leaves are the packages that import nothing of this module, whatever
// their rows say: the problem itself (instances, tours, lengths) sits under
// the run framework and everything else.
var leaves = []string{"solver/problem"}

// tableFile is the file, relative to the repository root, whose "Layout"
// section holds the table.
const tableFile = "docs/LAYOUT.md"

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	// externalPath is another module's import path written out
	// ("gorgonia.org/cu").
	externalPath = regexp.MustCompile(`[a-z0-9-]+(\.[a-z0-9-]+)+(/[A-Za-z0-9._-]+)+`)
)

// readTable parses the "Layout" section's table of docs/LAYOUT.md in root.
func readTable(t *testing.T, root string) []row {
	t.Helper()
	f, err := os.Open(filepath.Join(root, tableFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Layout"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("%s layout row %q: want 3 cells, have %d", tableFile, line, len(cells))
		}
		rows = append(rows, parseRow(cells[0], cells[2]))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal(tableFile + ` has no "## Layout" table`)
	}
	return rows
}

// parseRow reads a row's path cell and its "may import" cell.
func parseRow(paths, imports string) row {
	var r row
	for _, m := range backticked.FindAllStringSubmatch(paths, -1) {
		r.paths = append(r.paths, m[1])
	}
	for _, m := range backticked.FindAllStringSubmatch(imports, -1) {
		if strings.Contains(strings.Split(m[1], "/")[0], ".") {
			r.external = append(r.external, m[1])
		} else {
			r.module = append(r.module, m[1])
		}
	}
	r.subpackages = strings.Contains(imports, "and its sub-packages")
	r.butEngines = strings.Contains(imports, "its sub-packages but the engines'")
	plain := backticked.ReplaceAllString(imports, "")
	r.external = append(r.external, externalPath.FindAllString(plain, -1)...)
	if strings.Contains(plain, "Fyne") {
		r.external = append(r.external, "fyne.io/fyne/v2")
	}
	for _, w := range regexp.MustCompile(`gonum(/plot)?`).FindAllString(plain, -1) {
		r.external = append(r.external, map[string]string{"gonum": "gonum.org/v1/gonum", "gonum/plot": "gonum.org/v1/plot"}[w])
	}
	return r
}

// dir is the package folder a row path names ("" for the root's files).
func dir(p string) string {
	p = strings.TrimSuffix(p, "/")
	if strings.Contains(filepath.Base(p), ".") {
		return filepath.Dir(p)
	}
	return p
}

// allows reports whether a package of row r may import path imp (module:
// the module's path).
func (r row) allows(module, imp string) bool {
	rel, ok := strings.CutPrefix(imp, module+"/")
	if imp == module {
		rel, ok = "", true
	}
	if !ok {
		if !strings.Contains(strings.Split(imp, "/")[0], ".") {
			return true // the standard library
		}
		return slices.ContainsFunc(r.external, func(e string) bool { return imp == e || strings.HasPrefix(imp, e+"/") })
	}
	if r.subpackages && (rel == "solver" || strings.HasPrefix(rel, "solver/")) && !(r.butEngines && rel == "solver/cpu") {
		return true
	}
	return slices.ContainsFunc(r.module, func(m string) bool {
		if pre, ok := strings.CutSuffix(m, "/*"); ok {
			return strings.HasPrefix(rel, pre+"/")
		}
		return rel == m
	})
}

// goPackage is what `go list -json` says of a package.
type goPackage struct {
	ImportPath string
	Dir        string
	Module     struct{ Path string }
	Imports    []string
	Error      *struct{ Err string }
}

// listPackages runs `go list -json` over the module (tags: a build tag
// list, "" for none) in root.
func listPackages(t *testing.T, root, tags string) []goPackage {
	t.Helper()
	// -e: a clone where the CUDA kernels were never built (no nvcc) lacks
	// the fatbin that gpu/device embeds; its imports are still listed.
	cmd := exec.Command("go", "list", "-e", "-json", "-tags", tags, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Error != nil && !strings.Contains(p.Error.Err, ".fatbin: no matching files") {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestLayoutTableMatchesTheTree: every path of docs/LAYOUT.md's layout table
// exists; every package of the module (with and without -tags cuda) has a
// row, and imports only what the row allows (its non-test files); the
// leaves import nothing of the module.
func TestLayoutTableMatchesTheTree(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	rows := readTable(t, root)
	byDir := map[string]row{}
	for _, r := range rows {
		for _, p := range r.paths {
			if _, err := os.Stat(filepath.Join(root, strings.TrimSuffix(p, "*"))); err != nil {
				t.Errorf("%s's layout table names %s, which is not in the tree", tableFile, p)
			}
			if _, dup := byDir[dir(p)]; !dup {
				byDir[dir(p)] = r
			}
		}
	}
	for _, tags := range []string{"", "cuda"} {
		for _, p := range listPackages(t, root, tags) {
			rel, err := filepath.Rel(root, p.Dir)
			if err != nil {
				t.Fatal(err)
			}
			rel = filepath.ToSlash(rel)
			r, ok := byDir[rel]
			if !ok {
				t.Errorf("package %s has no row in %s's layout table", p.ImportPath, tableFile)
				continue
			}
			for _, imp := range p.Imports {
				if slices.Contains(leaves, rel) && (imp == p.Module.Path || strings.HasPrefix(imp, p.Module.Path+"/")) {
					t.Errorf("%s (tags %q) imports %s: it imports nothing of this module", p.ImportPath, tags, imp)
				}
				if !r.allows(p.Module.Path, imp) {
					t.Errorf("%s (tags %q) imports %s, which its row of %s's layout table does not allow", p.ImportPath, tags, imp, tableFile)
				}
			}
		}
	}
}

// TestRowAllows checks the reading of a "may import" cell.
func TestRowAllows(t *testing.T) {
	const m = "example.org/m"
	r := parseRow("`app/`", "`solver` and its sub-packages but the engines', `canvas`, `solver/internal/*`, Fyne, gonum/plot")
	for imp, want := range map[string]bool{
		"fmt": true, m + "/solver": true, m + "/solver/tour": true, m + "/solver/cpu": false, m + "/gpu": false,
		m + "/canvas": true, m + "/canvas/export": false, m + "/solver/internal/parallel": true,
		"fyne.io/fyne/v2/widget": true, "gonum.org/v1/plot/vg": true, "gonum.org/v1/gonum/mat": false, "gorgonia.org/cu": false,
	} {
		if got := r.allows(m, imp); got != want {
			t.Errorf("allows(%s) = %v, want %v", imp, got, want)
		}
	}
	if none := parseRow("`x`", "nothing of this module"); none.allows(m, m+"/solver") || !none.allows(m, "strings") {
		t.Error(`"nothing of this module" allows a module package or refuses the standard library`)
	}
	all := parseRow("`cmd/`", "`solver` and its sub-packages, gorgonia.org/cu")
	if !all.allows(m, m+"/solver/cpu") || !all.allows(m, "gorgonia.org/cu") || all.allows(m, "gorgonia.org/tensor") {
		t.Error(`"and its sub-packages" without "but the engines'" refuses solver/cpu, or an external path written out is misread`)
	}
}
