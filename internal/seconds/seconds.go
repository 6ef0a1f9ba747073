// Package seconds reads a duration as a person types it, the same way in
// the CLI's flags (tsp --time, tsplab --run) and the app's fields: a bare
// number is seconds ("10", "2.5"), anything else Go's form ("10s",
// "1m30s", "500ms").
package seconds

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Parse reads s, surrounding spaces ignored.
func Parse(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxInt64/float64(time.Second) {
			return 0, errors.New("not a duration")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errors.New("want seconds (10) or a duration (10s, 1m30s)")
	}
	return d, nil
}

// Value is a flag.Value of a duration read by Parse.
type Value struct{ D *time.Duration }

func (v Value) String() string {
	if v.D == nil {
		return "0s"
	}
	return v.D.String()
}

// Set reads s by Parse.
func (v Value) Set(s string) error {
	d, err := Parse(s)
	if err != nil {
		return err
	}
	*v.D = d
	return nil
}
