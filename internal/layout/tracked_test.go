package layout

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scratchNames are files a profiling or debugging session leaves at the
// root (a GPU monitor's log, a redirected stderr, a profile, a trace):
// .gitignore must keep each of them out of a commit.
var scratchNames = []string{"x.dmon", "x.err", "run.log", "cpu.pprof", "trace.out", "gpu.nsys-rep", "kernel.ncu-rep", "core"}

// gitRoot is the repository root when the tree is a git checkout with git
// installed; the test skips otherwise (a source archive has no index).
func gitRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skipf("%s is not a git checkout", root)
	}
	return root
}

// TestNoScratchFilesTracked: no tracked file matches a .gitignore pattern
// (a scratch file committed before its pattern was added stays tracked
// until it is removed), and .gitignore covers the usual scratch files.
func TestNoScratchFilesTracked(t *testing.T) {
	root := gitRoot(t)
	out, err := exec.Command("git", "-C", root, "ls-files", "--cached", "--ignored", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(out)) {
		t.Errorf("%s is tracked though .gitignore ignores it: remove it with git rm", f)
	}
	for _, name := range scratchNames {
		// --no-index: the answer comes from the patterns, tracked or not.
		if err := exec.Command("git", "-C", root, "check-ignore", "-q", "--no-index", name).Run(); err != nil {
			t.Errorf(".gitignore does not ignore a scratch file named %s", name)
		}
	}
}
