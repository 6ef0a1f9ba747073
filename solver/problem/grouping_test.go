package problem

import "testing"

// TestGroupDigits: numbers of four digits or more get their thousands
// apart, with a fraction too (93,809,570, 4,700.3281); shorter ones stay
// as they are.
func TestGroupDigits(t *testing.T) {
	for in, want := range map[string]string{
		"93809570": "93,809,570", "1247.5": "1,247.5", "4700.3281": "4,700.3281", "999.5": "999.5", "12475.25": "12,475.25", "-123456": "-123,456",
		"9999": "9,999", "10000": "10,000", "4": "4", "12345": "12,345", "-1234567.25": "-1,234,567.25", "1234": "1,234",
	} {
		if got := GroupDigits(in); got != want {
			t.Errorf("GroupDigits(%s) = %s, want %s", in, got, want)
		}
	}
}
