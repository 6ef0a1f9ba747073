//go:build linux

package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc's clock ticks (USER_HZ, 100 on Linux).
const userHZ = 100

// processStart is when this process started, from /proc/self/stat and /proc/uptime (zero when unreadable).
func processStart(now time.Time) time.Time {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return time.Time{}
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return time.Time{}
	}
	// the command's name may hold spaces: the fields after it start at field 3
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}
	}
	f, u := strings.Fields(string(stat[i+1:])), strings.Fields(string(up))
	if len(f) < 20 || len(u) < 1 {
		return time.Time{}
	}
	ticks, err := strconv.ParseUint(f[22-3], 10, 64)
	if err != nil {
		return time.Time{}
	}
	secs, err := strconv.ParseFloat(u[0], 64)
	if err != nil {
		return time.Time{}
	}
	age := time.Duration((secs - float64(ticks)/userHZ) * float64(time.Second))
	return now.Add(-max(age, 0))
}
