package main

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// pollInterval is how long a loop with nothing more to read waits before
// it looks again; it adds up to this much to each measured latency.
const pollInterval = time.Millisecond

// readers reads every socket from a few epoll loops, one per CPU, instead
// of a goroutine per socket: a delivery then costs one read(2), where a
// goroutine costs a wake-up, the read, and a second read that finds
// nothing and parks it again. The loops poll, every pollInterval, rather
// than sleep in epoll_wait: over loopback the server's write(2) runs the
// receiving side's TCP input too, and waking a sleeping reader from it
// would bill the server, per delivery, for a thread wake-up that on a
// real network happens on the client's machine. The tool shares the
// machine with the server it measures, so what it saves the server gets.
type readers struct {
	t     *totals
	socks []atomic.Pointer[sock] // by socket number
	loops []*epollLoop
	wg    sync.WaitGroup
}

type epollLoop struct {
	epfd int
	// stop's read end is in the epoll set: a byte written to it ends the
	// loop.
	stop [2]int
}

func newReaders(n int, t *totals) (*readers, error) {
	r := &readers{t: t, socks: make([]atomic.Pointer[sock], n)}
	for range runtime.GOMAXPROCS(0) {
		l, err := newEpollLoop()
		if err != nil {
			r.close()
			return nil, err
		}
		r.loops = append(r.loops, l)
		r.wg.Go(func() { r.run(l) })
	}
	return r, nil
}

func newEpollLoop() (*epollLoop, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create: %w", err)
	}
	l := &epollLoop{epfd: epfd}
	if err := syscall.Pipe2(l.stop[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		syscall.Close(epfd)
		return nil, fmt.Errorf("pipe: %w", err)
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: -1}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, l.stop[0], &ev); err != nil {
		l.closeFDs()
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	return l, nil
}

func (l *epollLoop) closeFDs() {
	syscall.Close(l.stop[0])
	syscall.Close(l.stop[1])
	syscall.Close(l.epfd)
}

// add starts reading s, socket number i. The socket's descriptor moves
// out of the Go runtime's poller (a duplicate stays, the net.Conn is
// closed), so only this loop is woken when data arrives.
func (r *readers) add(i int, s *sock) error {
	sc, ok := s.nc.(syscall.Conn)
	if !ok {
		return errors.New("not a socket")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(f uintptr) { fd, derr = syscall.Dup(int(f)) }); err != nil {
		return err
	}
	if derr != nil {
		return fmt.Errorf("dup: %w", derr)
	}
	syscall.CloseOnExec(fd)
	// The duplicate shares the non-blocking mode the runtime set.
	s.nc.Close()
	s.fd = fd
	s.wr = fdWriter(fd)
	// What the server sent with the handshake is already buffered.
	if err := s.took(0, r.t); err != nil {
		s.end(err, r.t)
		syscall.Close(fd)
		s.fd = -1
		return nil
	}
	r.socks[i].Store(s)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(i)}
	if err := syscall.EpollCtl(r.loops[i%len(r.loops)].epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	return nil
}

func (r *readers) run(l *epollLoop) {
	var evs [256]syscall.EpollEvent
	for {
		n, err := syscall.EpollWait(l.epfd, evs[:], 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range evs[:n] {
			if ev.Fd < 0 {
				return
			}
			r.read(r.socks[ev.Fd].Load())
		}
		if n < len(evs) {
			// Nothing more is ready: let deliveries gather. A full batch
			// means more are waiting.
			time.Sleep(pollInterval)
		}
	}
}

// read takes what one read(2) gets from s. The epoll set is
// level-triggered: what it leaves comes back in the next wait.
func (r *readers) read(s *sock) {
	if s == nil || s.fd < 0 {
		return
	}
	k, err := syscall.Read(s.fd, s.buf[s.w:])
	switch {
	case err == syscall.EAGAIN || err == syscall.EINTR:
		return
	case err == nil && k == 0:
		err = errors.New("EOF")
	case err == nil:
		err = s.took(k, r.t)
	}
	if err != nil {
		s.end(err, r.t)
		// Closing the descriptor takes it out of the epoll set.
		syscall.Close(s.fd)
		s.fd = -1
	}
}

// close stops the loops and closes every socket still open.
func (r *readers) close() {
	for _, l := range r.loops {
		syscall.Write(l.stop[1], []byte{0})
	}
	r.wg.Wait()
	for _, l := range r.loops {
		l.closeFDs()
	}
	for i := range r.socks {
		if s := r.socks[i].Load(); s != nil && s.fd >= 0 {
			syscall.Close(s.fd)
			s.fd = -1
		}
	}
}

// fdWriter writes to a non-blocking socket descriptor. What goes this
// way is a pong now and then, far smaller than the socket's buffer.
type fdWriter int

func (w fdWriter) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := syscall.Write(int(w), p[n:])
		if err == syscall.EAGAIN || err == syscall.EINTR {
			runtime.Gosched()
			continue
		}
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}
