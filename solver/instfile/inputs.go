package instfile

import (
	"os"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// InputsOf are the files reading the instance at path into in read: the
// file itself, the table or tour its optimum came from, and the optimal
// tour beside it. No output may be written onto one (atomicfile.InputAt).
func InputsOf(path string, in *problem.Instance) []string {
	files := []string{path}
	if in == nil {
		return files
	}
	if st, err := os.Stat(in.OptimumSource); in.OptimumSource != "" && err == nil && st.Mode().IsRegular() {
		files = append(files, in.OptimumSource)
	}
	if p := tsplib.OptTourPath(path, in); p != "" {
		files = append(files, p)
	}
	return files
}
