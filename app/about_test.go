package app

import (
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/buildinfo"
)

func TestAboutText(t *testing.T) {
	got := AboutText()
	for _, want := range []string{"TSP Lab " + buildinfo.Version(), "go1", "Apache"} {
		if !strings.Contains(got, want) {
			t.Errorf("AboutText() = %q lacks %q", got, want)
		}
	}
}
