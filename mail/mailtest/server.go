// Package mailtest runs a real SMTP server inside a test process: STARTTLS
// with a certificate made for the test, AUTH PLAIN, and every message it
// accepts kept for the test to read and parse. Tests can make it refuse
// (a 4xx or 5xx reply) or drop the connection in the middle of a message,
// to see a sender retry.
package mailtest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Received is one message the server accepted.
type Received struct {
	From string
	To   []string
	Data []byte
	// TLS says the message came over an encrypted connection, User who
	// signed in.
	TLS  bool
	User string
}

// Server is an SMTP server listening on 127.0.0.1.
type Server struct {
	User, Password string
	// CAFile holds the PEM certificate clients must trust.
	CAFile string
	// Pool is the same certificate as a pool.
	Pool *x509.CertPool

	srv  *smtp.Server
	addr string

	mu       sync.Mutex
	received []Received
	changed  chan struct{}
	fails    []fault
	sessions int
}

type fault struct {
	code int
	drop bool
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	cert, pemBytes, err := selfSigned()
	if err != nil {
		t.Fatalf("mailtest: certificate: %v", err)
	}
	s := &Server{User: "barhub", Password: "s3cret-" + randHex(6), changed: make(chan struct{})}
	s.CAFile = filepath.Join(t.TempDir(), "smtp-ca.pem")
	if err := os.WriteFile(s.CAFile, pemBytes, 0o600); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	s.Pool = x509.NewCertPool()
	s.Pool.AppendCertsFromPEM(pemBytes)

	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.sessions++
		s.mu.Unlock()
		return &session{s: s, c: c}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	s.srv.MaxMessageBytes = 10 << 20
	s.srv.ReadTimeout = 30 * time.Second
	s.srv.WriteTimeout = 30 * time.Second
	s.srv.ErrorLog = discardLogger{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	s.addr = ln.Addr().String()
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return s.addr }

// URL is the smtp:// URL a sender configures, credentials included.
func (s *Server) URL() string {
	u := url.URL{Scheme: "smtp", User: url.UserPassword(s.User, s.Password), Host: s.addr}
	return u.String()
}

// Fail makes the next n messages be refused with code (421, 451, 554 …)
// after their data arrived.
func (s *Server) Fail(n, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.fails = append(s.fails, fault{code: code})
	}
}

// Drop makes the server hang up in the middle of the next n messages.
func (s *Server) Drop(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.fails = append(s.fails, fault{drop: true})
	}
}

// Messages returns what arrived so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Sessions counts the connections that said hello.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

// Wait returns once n messages have arrived, or fails the test when ctx
// ends first.
func (s *Server) Wait(ctx context.Context, t testing.TB, n int) []Received {
	t.Helper()
	for {
		s.mu.Lock()
		got, changed := len(s.received), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Messages()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("mailtest: %d messages arrived, waited for %d: %v", got, n, ctx.Err())
		}
	}
}

func (s *Server) nextFault() (fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.fails) == 0 {
		return fault{}, false
	}
	f := s.fails[0]
	s.fails = s.fails[1:]
	return f, true
}

func (s *Server) keep(r Received) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received = append(s.received, r)
	close(s.changed)
	s.changed = make(chan struct{})
}

type session struct {
	s    *Server
	c    *smtp.Conn
	user string
	from string
	to   []string
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.s.User || password != ss.s.Password {
			return smtp.ErrAuthFailed
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.user == "" {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if f, ok := ss.s.nextFault(); ok {
		if f.drop {
			ss.c.Conn().Close()
			return errors.New("connection dropped by the test")
		}
		return &smtp.SMTPError{Code: f.code, EnhancedCode: smtp.EnhancedCodeNotSet, Message: fmt.Sprintf("refused by the test (%d)", f.code)}
	}
	_, tlsOn := ss.c.TLSConnectionState()
	ss.s.keep(Received{From: ss.from, To: append([]string(nil), ss.to...), Data: bytes.Clone(data), TLS: tlsOn, User: ss.user})
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}
func (discardLogger) Println(...any)        {}

// selfSigned makes a certificate for 127.0.0.1 and localhost, valid for
// a day, and its PEM.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "barhub test smtp"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	return cert, certPEM, err
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return fmt.Sprintf("%x", b)
}
