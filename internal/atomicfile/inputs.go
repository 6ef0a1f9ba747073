package atomicfile

import (
	"os"
	"path/filepath"
)

// SamePath reports whether a and b name one file, by cleaned absolute path or as the same existing file.
func SamePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// InputAt is the one of inputs that path names ("" for none; empty and "-" skipped).
func InputAt(path string, inputs []string) string {
	if path == "" || path == "-" {
		return ""
	}
	for _, in := range inputs {
		if in != "" && in != "-" && SamePath(in, path) {
			return in
		}
	}
	return ""
}
