package buildinfo

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ldflag finds a -X value of the link flags make prints.
var ldflag = regexp.MustCompile(`buildinfo\.(version|commit)=([^ ']+)`)

// TestMakeBuildNamesAVersion: `make build` stamps the binaries with a
// version (a tag's git describe, or in a clone without tags the version
// FyneApp.toml gives as a development build), never a bare commit, and
// String shows it with the commit once.
func TestMakeBuildNamesAVersion(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"make", "git", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s command", tool)
		}
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Run(); err != nil {
		t.Skipf("%s is not a git checkout", root)
	}
	out, err := exec.Command("make", "--no-print-directory", "-n", "-C", root, "build").Output()
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	got := map[string]string{}
	for _, m := range ldflag.FindAllStringSubmatch(string(out), -1) {
		got[m[1]] = m[2]
	}
	v, c := got["version"], got["commit"]
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+`).MatchString(v) || c == "" {
		t.Fatalf("make build stamps version %q, commit %q: want a version such as v0.1.0-dev-g<commit>", v, c)
	}
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = v, c
	if s := String(); !strings.HasPrefix(s, v) || strings.Count(s, c) != 1 {
		t.Errorf("String() = %q from version %q, commit %q", s, v, c)
	}
}
