//go:build !linux

package main

// readers reads each socket on a goroutine of its own.
type readers struct{ t *totals }

func newReaders(n int, t *totals) (*readers, error) { return &readers{t: t}, nil }

func (r *readers) add(i int, s *sock) error {
	go s.readLoop(r.t)
	return nil
}

func (r *readers) close() {}
