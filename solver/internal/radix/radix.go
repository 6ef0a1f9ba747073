// Package radix sorts unsigned integer keys least significant digit
// first, in linear time.
package radix

// Sort sorts keys, which differ only in their low used bits, into
// increasing order, 11 bits a pass, skipping the digits all keys share;
// vals (nil: none) move with their keys, tied keys keeping their order.
func Sort(keys []uint64, used uint, vals []int32) {
	const digit = 11
	const mask = 1<<digit - 1
	if len(keys) == 0 {
		return
	}
	src, dst := keys, make([]uint64, len(keys))
	var vsrc, vdst []int32
	if vals != nil {
		vsrc, vdst = vals, make([]int32, len(vals))
	}
	var count [1 << digit]int
	for shift := uint(0); shift < used; shift += digit {
		clear(count[:])
		for _, k := range src {
			count[k>>shift&mask]++
		}
		if count[src[0]>>shift&mask] == len(src) {
			continue
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for i, k := range src {
			d := k >> shift & mask
			dst[count[d]] = k
			if vsrc != nil {
				vdst[count[d]] = vsrc[i]
			}
			count[d]++
		}
		src, dst = dst, src
		vsrc, vdst = vdst, vsrc
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(vals, vsrc)
	}
}
