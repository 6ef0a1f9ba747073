package problem

import (
	"math"
	"strconv"
	"strings"
)

// LengthValue returns length l in the file's own unit: l for TSPLIB files, l/10^ScaleExp for point lists.
func (in *Instance) LengthValue(l int64) float64 {
	if in == nil || in.ScaleExp == 0 {
		return float64(l)
	}
	return float64(l) / math.Pow10(in.ScaleExp)
}

// FormatLength shows length l exactly in the file's own unit, the decimal point moved ScaleExp places and trailing
// zeros dropped ("3.141593"); every front end shows lengths through it.
func (in *Instance) FormatLength(l int64) string {
	s := strconv.FormatInt(l, 10)
	if in == nil || in.ScaleExp == 0 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	k := in.ScaleExp
	if k < 0 {
		if s != "0" {
			s += strings.Repeat("0", -k)
		}
	} else {
		if len(s) <= k {
			s = strings.Repeat("0", k-len(s)+1) + s
		}
		whole, frac := s[:len(s)-k], strings.TrimRight(s[len(s)-k:], "0")
		s = whole
		if frac != "" {
			s += "." + frac
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}

// LengthUnit names FormatLength's unit: "m" for GreatCircle, else "".
func (in *Instance) LengthUnit() string {
	if in != nil && in.Metric == GreatCircle {
		return "m"
	}
	return ""
}

// HumanLength is FormatLength with grouped thousands (4,700.3281) and a named unit; machine output keeps FormatLength's.
func (in *Instance) HumanLength(l int64) string {
	s := GroupDigits(in.FormatLength(l))
	if u := in.LengthUnit(); u != "" {
		s += " " + u
	}
	return s
}

// GroupDigits puts commas between the thousands of a number's whole part from four digits: 93,809,570 and 12,475.5.
func GroupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, dot := strings.Cut(s, ".")
	if len(whole) < 4 || strings.Trim(whole, "0123456789") != "" {
		return sign + s
	}
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// Plural writes n, its digits grouped, and the noun, its plural the noun
// with an s unless given: "1 tour", "2 tours", "3 children".
func Plural(n int64, noun string, pl ...string) string {
	s := GroupDigits(strconv.FormatInt(n, 10)) + " "
	if n == 1 {
		return s + noun
	}
	if len(pl) > 0 {
		return s + pl[0]
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "ss") {
		return s + noun + "es"
	}
	return s + noun + "s"
}
