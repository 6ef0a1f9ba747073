package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeQuickStartFirst holds the README to what a newcomer needs
// first: the quick start is its first section, it says how long the
// first build takes, and the whole page stays short enough to read.
func TestReadmeQuickStartFirst(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if n := len(strings.Fields(text)); n > 1500 {
		t.Errorf("README.md has %d words, want at most 1,500 (developer material belongs in docs/DEVELOPING.md)", n)
	}
	first := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			first = strings.TrimPrefix(line, "## ")
			break
		}
	}
	if first != "Quick start" {
		t.Errorf("README.md's first section is %q, want \"Quick start\"", first)
	}
	if !strings.Contains(text, "first build") {
		t.Error("README.md does not say how long the first build takes")
	}
}
