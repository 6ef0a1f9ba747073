package buildinfo

import "testing"

// TestString checks how a version and a commit are joined, and that the
// link-time values win over the fallbacks.
func TestString(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	cases := []struct{ v, c, want string }{
		{"v1.2.0", "0123456789ab", "v1.2.0 (commit 0123456789ab)"},
		// git describe already names the commit: not repeated.
		{"v1.2.0-3-g0123456789ab", "0123456789ab", "v1.2.0-3-g0123456789ab"},
		{"v1.2.0", "0123456789abcdef0123456789abcdef01234567", "v1.2.0 (commit 0123456789abcdef0123456789abcdef01234567)"},
		// git describe without tags: the abbreviated commit.
		{"0123456", "0123456789ab", "commit 0123456789ab"},
		{"0123456-dirty", "0123456789ab", "commit 0123456789ab-dirty"},
	}
	for _, c := range cases {
		version, commit = c.v, c.c
		if got := String(); got != c.want {
			t.Errorf("version %q commit %q: String() = %q, want %q", c.v, c.c, got, c.want)
		}
	}
	version, commit = "", ""
	if Version() == "" {
		t.Error("Version() is empty without a link-time version")
	}
}

func TestShorten(t *testing.T) {
	if got := shorten("0123456789abcdef"); got != "0123456789ab" {
		t.Errorf("shorten = %q", got)
	}
	if got := shorten("abc"); got != "abc" {
		t.Errorf("shorten = %q", got)
	}
}
