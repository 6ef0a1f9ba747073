package instfile

import (
	"os"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// InputsOf are the files reading the instance at path read (the file, its optimum's source and optimal tour).
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
