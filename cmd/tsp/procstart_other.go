//go:build !linux

package main

import "time"

// processStart is zero outside Linux, where --time counts from the command's start.
func processStart(time.Time) time.Time { return time.Time{} }
