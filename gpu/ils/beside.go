package ils

// pathChunk is one launch of windows over a path: positions from..from+size-1 in W windows.
type pathChunk struct {
	from, size int64
	W          int
}

// pathChunks cuts positions off..off+span-1 into chunks of one wave of windows (slots windows of L cities, R replicas each).
func pathChunks(off, span int64, L, slots, R int) []pathChunk {
	chunk := int64(max(1, slots/max(R, 1))) * int64(L)
	var out []pathChunk
	for c := int64(0); c < span; c += chunk {
		size := min(chunk, span-c)
		out = append(out, pathChunk{from: off + c, size: size, W: int((size + int64(L) - 1) / int64(L))})
	}
	return out
}
