//go:build !unix

package ai_test

// processCPU is not measured here; benchmarks report 0.
func processCPU() float64 { return 0 }
