//go:build !unix

package hub

// rawWrites: elsewhere every frame goes through the writer goroutine.
const rawWrites = false

type rawWrite struct {
	n   int
	err error
	fn  func(fd uintptr) bool
}

func (w *rawWrite) set(msgs []*outMsg) {}
func (w *rawWrite) reset()             {}
