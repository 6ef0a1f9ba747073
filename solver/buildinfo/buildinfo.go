// Package buildinfo names the build a program runs from: its version (the
// release tag or `git describe`) and its commit, set by the Makefile through
// -ldflags -X and read from the Go build information when a build was made
// without them (go install, go build).
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// version and commit are set at link time:
//
//	-X github.com/tsplab/tsplab/solver/buildinfo.version=v1.2.0
//	-X github.com/tsplab/tsplab/solver/buildinfo.commit=0123456789ab
var version, commit string

// Version is the build's version: the link-time tag, else Go's recorded module version, else "dev".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Commit is the build's abbreviated commit, or "" when unknown.
func Commit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return shorten(s.Value)
			}
		}
	}
	return ""
}

// String is the version with its commit ("v1.2.0 (commit 0123456789ab)"), either alone where the other adds nothing.
func String() string {
	v, c := Version(), Commit()
	switch {
	case c == "" || strings.Contains(v, c):
		return v
	case strings.HasPrefix(c, strings.TrimSuffix(v, "-dirty")):
		return "commit " + c + strings.TrimPrefix(v, strings.TrimSuffix(v, "-dirty"))
	}
	return v + " (commit " + c + ")"
}

// shorten abbreviates a commit hash to 12 digits.
func shorten(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
