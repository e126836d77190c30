//go:build unix

package main

import "syscall"

// processCPU is the CPU time this process has used, user and system, in
// seconds. Benchmarks report it per operation because on a shared machine
// it holds still while wall-clock figures swing with the neighbours' load.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
