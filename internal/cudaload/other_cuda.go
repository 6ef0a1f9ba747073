//go:build cuda && !(linux && amd64)

package cudaload

// Find reports a driver linked at build time (off linux/amd64 libcuda is named directly).
func Find() Driver { return Driver{Built: true, Library: "libcuda (linked at build time)"} }
