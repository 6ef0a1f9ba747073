package main

import (
	"flag"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// flagValueErr and flagBoolErr are the flag package's words for a refused value.
var (
	flagValueErr = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): (.*)$`)
	flagBoolErr  = regexp.MustCompile(`^invalid boolean value "(.*)" for -([^:]+): `)
)

// flagError words a parse error of fs for a person: what is wrong and what the flag wants, not "parse error".
func flagError(fs *flag.FlagSet, err error) string {
	if b := flagBoolErr.FindStringSubmatch(err.Error()); b != nil {
		return fmt.Sprintf("--%s=%s is not true or false: --%[1]s alone is true", b[2], b[1])
	}
	m := flagValueErr.FindStringSubmatch(err.Error())
	if m == nil {
		return strings.Replace(err.Error(), "flag provided but not defined: -", "unknown flag --", 1)
	}
	value, name, why := m[1], m[2], m[3]
	flagName := "--" + name
	if strings.HasPrefix(why, flagName+" ") || strings.HasPrefix(why, flagName+":") {
		return why // the flag's own check said it, naming the flag
	}
	f := fs.Lookup(name)
	if f != nil && (why == "parse error" || why == "value out of range") {
		if want := flagWants(f.Value); want != "" {
			return fmt.Sprintf("%s %s is not %s", flagName, value, want)
		}
	}
	return fmt.Sprintf("%s %s: %s", flagName, value, why)
}

// flagWants says what a flag of the flag package's kinds takes ("": another kind).
func flagWants(v flag.Value) string {
	g, ok := v.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case uint, uint64:
		return "a whole number from 0 to " + solver.GroupDigits(fmt.Sprint(uint64(math.MaxUint64)))
	case uint32:
		return "a whole number from 0 to " + solver.GroupDigits(fmt.Sprint(uint32(math.MaxUint32)))
	case int, int64:
		return "a whole number"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case time.Duration:
		return "a duration such as 500ms, 2s or 1m30s"
	}
	return ""
}
