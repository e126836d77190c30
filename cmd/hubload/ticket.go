package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// ticketConn asks for WebSocket tickets over one kept-alive HTTP/1.1
// connection with a request written once and a response read by hand.
// In a reconnect storm the tool shares the server's cores, and net/http's
// client (request building, transport bookkeeping, JSON) cost as much CPU
// per ticket as the server spends issuing it.
type ticketConn struct {
	addr string
	req  []byte
	nc   net.Conn
	br   *bufio.Reader
}

func newTicketConn(addr, token string) *ticketConn {
	req := "POST /api/ws/ticket HTTP/1.1\r\nHost: " + addr +
		"\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
	return &ticketConn{addr: addr, req: []byte(req)}
}

var (
	keyTicket     = []byte(`"ticket":"`)
	headerLength  = []byte("content-length:")
	headerRetry   = []byte("retry-after:")
	statusOK      = []byte("HTTP/1.1 200 ")
	statusTooMany = []byte("HTTP/1.1 429 ")
)

// ticket returns a fresh ticket, waiting out a 429 as the server asks.
func (t *ticketConn) ticket() (string, error) {
	for attempt := 0; ; attempt++ {
		status, retry, body, err := t.roundTrip()
		if err != nil {
			t.close()
			if attempt < 2 {
				continue // the server closed a kept-alive connection
			}
			return "", fmt.Errorf("POST /api/ws/ticket: %w", err)
		}
		switch {
		case bytes.HasPrefix(status, statusOK):
			_, rest, ok := bytes.Cut(body, keyTicket)
			ticket, _, closed := bytes.Cut(rest, []byte(`"`))
			if !ok || !closed || len(ticket) == 0 {
				return "", fmt.Errorf("POST /api/ws/ticket: no ticket in %s", body)
			}
			return string(ticket), nil
		case bytes.HasPrefix(status, statusTooMany) && attempt < 50:
			time.Sleep(retryWait(string(retry)))
		default:
			return "", fmt.Errorf("POST /api/ws/ticket: %s: %s", bytes.TrimSpace(status), bytes.TrimSpace(body))
		}
	}
}

// roundTrip sends the request and reads one response: the status line,
// Retry-After, and the body (by Content-Length: the server sends it for
// these small JSON answers).
func (t *ticketConn) roundTrip() (status, retry, body []byte, err error) {
	if t.nc == nil {
		if t.nc, err = net.DialTimeout("tcp", t.addr, 30*time.Second); err != nil {
			return nil, nil, nil, err
		}
		t.br = bufio.NewReaderSize(t.nc, 4096)
	}
	t.nc.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err = t.nc.Write(t.req); err != nil {
		return nil, nil, nil, err
	}
	line, err := t.br.ReadSlice('\n')
	if err != nil {
		return nil, nil, nil, err
	}
	status = bytes.Clone(line)
	length := -1
	for {
		line, err = t.br.ReadSlice('\n')
		if err != nil {
			return nil, nil, nil, err
		}
		h := bytes.TrimSpace(line)
		if len(h) == 0 {
			break
		}
		lower := bytes.ToLower(h)
		switch {
		case bytes.HasPrefix(lower, headerLength):
			length, err = strconv.Atoi(string(bytes.TrimSpace(h[len(headerLength):])))
			if err != nil {
				return nil, nil, nil, fmt.Errorf("bad Content-Length %q", h)
			}
		case bytes.HasPrefix(lower, headerRetry):
			retry = bytes.Clone(bytes.TrimSpace(h[len(headerRetry):]))
		}
	}
	if length < 0 {
		return nil, nil, nil, errors.New("answer without Content-Length")
	}
	body = make([]byte, length)
	if _, err = io.ReadFull(t.br, body); err != nil {
		return nil, nil, nil, err
	}
	return status, retry, body, nil
}

func (t *ticketConn) close() {
	if t.nc != nil {
		t.nc.Close()
		t.nc, t.br = nil, nil
	}
}
