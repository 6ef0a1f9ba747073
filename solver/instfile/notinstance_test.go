package instfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read says what a file is when it cannot be an instance: empty, a
// picture or binary, whatever its extension.
func TestReadNotAnInstance(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, data, want string }{
		{"empty.tsp", "", "the file is empty"},
		{"blank.csv", " \n\n\t\n", "the file is empty"},
		{"p.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG picture, not an instance"},
		{"p.tsp", "\xFF\xD8\xFF\xE0\x00\x10JFIF", "a JPEG picture, not an instance"},
		{"p.gif", "GIF89a\x01\x00", "a GIF picture, not an instance"},
		{"p.webp", "RIFF\x10\x00\x00\x00WEBPVP8 ", "a WebP picture, not an instance"},
		{"nul.csv", "1,2\n3,\x00\x00\n", "the file looks binary, not an instance"},
		{"elf.tsp", "\x7fELF\x02\x01\x01\x00\x00\x00", "the file looks binary, not an instance"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		if err == nil || err.Error() != p+": "+c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		var pic *PictureError
		if errors.As(err, &pic) != strings.Contains(c.want, "picture") {
			t.Errorf("%s: %T, a PictureError only for pictures", c.name, err)
		}
	}
}
