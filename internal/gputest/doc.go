// Package gputest holds the helpers the GPU packages' tests share: test
// instances, the options a test sets, the device a CUDA test needs (or
// skips without), and result checks.
package gputest
