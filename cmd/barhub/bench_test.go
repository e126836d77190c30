package main

import (
	"testing"
)

// BenchmarkColdStart measures "barhub serve" from nothing (a new data dir,
// the embedded database created, indexes made, first admin written) to
// ready.
func BenchmarkColdStart(b *testing.B) {
	for b.Loop() {
		s := startServer(b, b.TempDir(), nil)
		b.StopTimer()
		s.Stop(b)
		b.StartTimer()
	}
}

// BenchmarkLogin measures a sign-in over HTTP against the embedded
// database: code look-up, name check, RS256 signature.
func BenchmarkLogin(b *testing.B) {
	s := startServer(b, "", nil)
	for b.Loop() {
		if status, _ := login(b, s.URL, s.Code, s.LastName); status != 200 {
			b.Fatalf("login: %d", status)
		}
	}
}
