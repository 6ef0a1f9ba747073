//go:build headless

package main

import "fyne.io/fyne/v2"

// windowless reports that this build has no window driver, so it needs neither OpenGL nor X11.
const windowless = true

// newWindowedApp is never called in a headless build.
func newWindowedApp() fyne.App { panic("tsplab: built with -tags headless: no window driver") }
