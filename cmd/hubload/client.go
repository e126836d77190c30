package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// sock is one load-test WebSocket. It speaks just enough of RFC 6455 to
// subscribe and read events, with a fixed buffer and no allocation per
// message, so the tool spends its share of the CPU on reading sockets.
type sock struct {
	nc net.Conn
	// wr is where frames to the server go: nc, or the socket's file
	// descriptor once a poller reads it.
	wr io.Writer
	// fd is the socket's descriptor while a poller reads it, else -1.
	fd  int
	buf [4096]byte
	r   int // start of unread data in buf
	w   int // end of data in buf

	// lat holds publish-to-receive latencies in microseconds; its capacity
	// is fixed before the run.
	lat      []uint32
	lastSeq  uint64
	dups     int
	gaps     int
	overflow int
	closeMsg string
	// skip counts bytes of an oversized frame still to discard.
	skip int
	ctl  [2 + 6 + 125]byte
}

// run totals shared by all sockets.
type totals struct {
	delivered  atomic.Int64
	subscribed atomic.Int64
	closed     atomic.Int64
	lastRecv   atomic.Int64 // unix nanos of the latest delivery
}

var (
	prefixEvent      = []byte(`{"type":"event"`)
	prefixSubscribed = []byte(`{"type":"subscribed"`)
	prefixError      = []byte(`{"type":"error"`)
	keySeq           = []byte(`"seq":`)
	keySentAt        = []byte(`"sentAt":`)
)

// dial opens a WebSocket to u (ws://host/ws?ticket=…) and subscribes to
// topic. What the server sends after the handshake stays in the buffer.
func dial(u *url.URL, topic string, timeout time.Duration, latCap int) (*sock, error) {
	nc, err := net.DialTimeout("tcp", u.Host, timeout)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", u.Host, err)
	}
	s := &sock{nc: nc, wr: nc, fd: -1, lat: make([]uint32, 0, latCap)}
	nc.SetDeadline(time.Now().Add(timeout))
	var key [16]byte
	rand.Read(key[:])
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
		base64.StdEncoding.EncodeToString(key[:]) + "\r\n\r\n"
	if _, err := nc.Write([]byte(req)); err != nil {
		nc.Close()
		return nil, fmt.Errorf("send handshake: %w", err)
	}
	for {
		n, err := nc.Read(s.buf[s.w:])
		if err != nil {
			nc.Close()
			return nil, fmt.Errorf("read handshake: %w", err)
		}
		s.w += n
		if i := bytes.Index(s.buf[:s.w], []byte("\r\n\r\n")); i >= 0 {
			if !bytes.HasPrefix(s.buf[:s.w], []byte("HTTP/1.1 101")) {
				line, _, _ := bytes.Cut(s.buf[:s.w], []byte("\r\n"))
				body := s.buf[i+4 : s.w]
				nc.Close()
				return nil, fmt.Errorf("handshake refused: %s %s", line, body)
			}
			s.r = i + 4
			break
		}
		if s.w == len(s.buf) {
			nc.Close()
			return nil, errors.New("handshake response too large")
		}
	}
	nc.SetDeadline(time.Time{})
	if err := s.writeFrame(0x1, []byte(`{"type":"subscribe","topic":"`+topic+`"}`)); err != nil {
		nc.Close()
		return nil, fmt.Errorf("subscribe: %w", err)
	}
	return s, nil
}

// writeFrame sends one masked frame. The mask key is zero: servers must
// accept any key, and it saves masking the payload.
func (s *sock) writeFrame(op byte, p []byte) error {
	if len(p) > 125 {
		return errors.New("control-sized frames only")
	}
	b := s.ctl[:0]
	b = append(b, 0x80|op, 0x80|byte(len(p)), 0, 0, 0, 0)
	b = append(b, p...)
	_, err := s.wr.Write(b)
	return err
}

// readLoop reads frames until the connection ends: one goroutine per
// socket, the portable way.
func (s *sock) readLoop(t *totals) {
	defer s.nc.Close()
	err := s.took(0, t)
	for err == nil {
		var n int
		n, err = s.nc.Read(s.buf[s.w:])
		if err == nil {
			err = s.took(n, t)
		}
	}
	s.end(err, t)
}

// took handles n bytes just read into buf[w:] (0: what is buffered
// already): it drops the rest of an oversized frame, handles every
// complete frame, and moves a partial one to the front.
func (s *sock) took(n int, t *totals) error {
	if s.skip > 0 {
		d := min(s.skip, n)
		copy(s.buf[s.w:], s.buf[s.w+d:s.w+n])
		n -= d
		s.skip -= d
	}
	s.w += n
	if err := s.parse(t); err != nil {
		return err
	}
	if s.r > 0 {
		s.w = copy(s.buf[:], s.buf[s.r:s.w])
		s.r = 0
	}
	return nil
}

// end records why the socket stopped being read.
func (s *sock) end(err error, t *totals) {
	s.closeMsg = err.Error()
	t.closed.Add(1)
}

// errClosed is returned when the server closed the socket.
type errClosed struct{ code uint16 }

func (e errClosed) Error() string { return "closed by server with " + strconv.Itoa(int(e.code)) }

// parse handles every complete frame in the buffer.
func (s *sock) parse(t *totals) error {
	for {
		b := s.buf[s.r:s.w]
		if len(b) < 2 {
			return nil
		}
		op := b[0] & 0x0f
		plen, hl := int(b[1]&0x7f), 2
		switch plen {
		case 126:
			if len(b) < 4 {
				return nil
			}
			plen, hl = int(binary.BigEndian.Uint16(b[2:])), 4
		case 127:
			if len(b) < 10 {
				return nil
			}
			plen, hl = int(binary.BigEndian.Uint64(b[2:])), 10
		}
		if hl+plen > len(s.buf) {
			// Larger than the buffer: not a load-test event; drop it.
			s.skip = hl + plen - len(b)
			s.r, s.w = 0, 0
			return nil
		}
		if len(b) < hl+plen {
			return nil
		}
		if err := s.frame(op, b[hl:hl+plen], t); err != nil {
			return err
		}
		s.r += hl + plen
	}
}

func (s *sock) frame(op byte, p []byte, t *totals) error {
	switch op {
	case 0x1:
		switch {
		case bytes.HasPrefix(p, prefixEvent):
			s.event(p, t)
		case bytes.HasPrefix(p, prefixSubscribed):
			t.subscribed.Add(1)
		case bytes.HasPrefix(p, prefixError):
			return fmt.Errorf("server error: %s", p)
		}
	case 0x8:
		var code uint16
		if len(p) >= 2 {
			code = binary.BigEndian.Uint16(p)
		}
		return errClosed{code}
	case 0x9:
		return s.writeFrame(0xA, p)
	}
	return nil
}

func (s *sock) event(p []byte, t *totals) {
	now := time.Now().UnixNano()
	seq := number(p, keySeq)
	switch {
	case s.lastSeq != 0 && seq <= s.lastSeq:
		s.dups++
		return
	case s.lastSeq != 0 && seq != s.lastSeq+1:
		s.gaps++
	}
	s.lastSeq = seq
	if sent := int64(number(p, keySentAt)); sent > 0 {
		us := (now - sent) / 1000
		if len(s.lat) < cap(s.lat) {
			s.lat = append(s.lat, uint32(max(us, 0)))
		} else {
			s.overflow++
		}
	}
	t.delivered.Add(1)
	for {
		last := t.lastRecv.Load()
		if now <= last || t.lastRecv.CompareAndSwap(last, now) {
			break
		}
	}
}

// number reads the unsigned integer following key in p, or 0.
func number(p, key []byte) uint64 {
	i := bytes.Index(p, key)
	if i < 0 {
		return 0
	}
	var n uint64
	for _, c := range p[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}
