//go:build !unix

package main

// processCPU is not measured here; benchmarks report 0.
func processCPU() float64 { return 0 }
