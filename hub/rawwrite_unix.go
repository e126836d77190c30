//go:build unix

package hub

import (
	"syscall"
	"unsafe"
)

// rawWrites: the shard may write to sockets itself.
const rawWrites = true

// rawWrite is a write(2) of one frame, or a writev(2) of several, to
// whichever socket RawConn.Write hands it, made once, never waiting for
// room. One per shard, built once, so a fan-out allocates no closure.
type rawWrite struct {
	buf []byte
	iov []syscall.Iovec
	n   int
	err error
	fn  func(fd uintptr) bool
}

func (w *rawWrite) set(msgs []*outMsg) {
	if w.fn == nil {
		w.fn = w.do
	}
	w.n, w.err = 0, nil
	if len(msgs) == 1 {
		w.buf = msgs[0].frame
		return
	}
	w.iov = w.iov[:0]
	for _, m := range msgs {
		v := syscall.Iovec{Base: &m.frame[0]}
		v.SetLen(len(m.frame))
		w.iov = append(w.iov, v)
	}
}

func (w *rawWrite) reset() {
	w.buf = nil
	clear(w.iov)
	w.iov = w.iov[:0]
}

func (w *rawWrite) do(fd uintptr) bool {
	if len(w.iov) == 0 {
		w.n, w.err = syscall.Write(int(fd), w.buf)
	} else {
		r, _, e := syscall.Syscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&w.iov[0])), uintptr(len(w.iov)))
		w.n, w.err = int(r), nil
		if e != 0 {
			w.n, w.err = -1, e
		}
	}
	// true: on EAGAIN the runtime must not park the shard until the
	// socket is writable; the socket's writer goroutine takes over.
	return true
}
