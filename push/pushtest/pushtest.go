// Package pushtest is a Web Push service for tests: it speaks the protocol
// a browser's push service speaks to barhub (RFC 8030), checks every
// request's VAPID token (RFC 8292: ES256, aud, exp, sub, and the k the
// subscription was made with) and decrypts its aes128gcm payload (RFC
// 8291) with the private key of the device it is for, the way a browser
// does. It is the receiving side only; the sending side under test is the
// real library.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/barhub/barhub/push"
)

// Service is a running test push service over TLS.
type Service struct {
	srv *httptest.Server
	// VAPIDKey, when set, is the application server key every request's
	// k must equal (what the browser subscribed with).
	VAPIDKey string
	// Delay, when set before the first request, holds every answer that
	// long: a push service far away or busy.
	Delay time.Duration

	// closing ends the requests held by stalled devices, so Close does
	// not wait for the sender to give up on them.
	closing   chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	devices  map[string]*Device
	errs     []string
	next     int
	held     int // requests being held now
	maxHeld  int // the most held at once
	released int // held requests that have ended
}

// Device is one browser's subscription at the service.
type Device struct {
	ID       string
	Endpoint string
	key      *ecdh.PrivateKey
	auth     []byte

	mu       sync.Mutex
	answer   int
	stalled  bool
	messages []Message
	arrived  chan struct{}
}

// Message is one notification a device received, decrypted.
type Message struct {
	Payload []byte
	TTL     string
	Urgency string
	Sub     string
}

// New starts a service; Close stops it.
func New() *Service {
	s := &Service{devices: map[string]*Device{}, closing: make(chan struct{})}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the service.
func (s *Service) Close() {
	s.closeOnce.Do(func() { close(s.closing) })
	s.srv.Close()
}

// Policy is the push policy that lets a sender reach this service and
// nothing else inside: its host:port as an accepted endpoint host, and
// its loopback address as one the sender may dial. The production policy
// (the zero value) refuses both.
func (s *Service) Policy() push.Policy {
	addr := s.srv.Listener.Addr().(*net.TCPAddr).AddrPort().Addr().Unmap()
	return push.Policy{
		Hosts:  []string{s.srv.Listener.Addr().String()},
		Inside: []netip.Prefix{netip.PrefixFrom(addr, addr.BitLen())},
	}
}

// RootCAs trusts the service's certificate.
func (s *Service) RootCAs() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(s.srv.Certificate())
	return pool
}

// Held reports the requests stalled devices hold now, the most they held
// at once, and how many held requests have ended (the sender gave up, or
// the service closed).
func (s *Service) Held() (now, most, released int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held, s.maxHeld, s.released
}

// NewDevice makes a browser subscription: its key pair and auth secret
// are the device's, as a browser keeps them.
func (s *Service) NewDevice() *Device {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	id := fmt.Sprintf("d%d", s.next)
	d := &Device{ID: id, Endpoint: s.srv.URL + "/push/" + id, key: key, auth: auth, answer: http.StatusCreated, arrived: make(chan struct{}, 1000)}
	s.devices[id] = d
	return d
}

// Subscription is the device's PushSubscription.toJSON().
func (d *Device) Subscription() map[string]any {
	return map[string]any{"endpoint": d.Endpoint, "expirationTime": nil, "keys": map[string]string{
		"p256dh": base64.RawURLEncoding.EncodeToString(d.key.PublicKey().Bytes()),
		"auth":   base64.RawURLEncoding.EncodeToString(d.auth),
	}}
}

// Answer makes the service answer the device's next requests with status
// (410 for a subscription the browser dropped).
func (d *Device) Answer(status int) {
	d.mu.Lock()
	d.answer = status
	d.mu.Unlock()
}

// Stall makes the service hold the device's requests without answering
// until the sender gives up on them (or the service closes): a push
// service that hangs.
func (d *Device) Stall() {
	d.mu.Lock()
	d.stalled = true
	d.mu.Unlock()
}

// Messages returns what the device received so far.
func (d *Device) Messages() []Message {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Message(nil), d.messages...)
}

// Wait waits until the device has received n messages or timeout passes,
// and returns them.
func (d *Device) Wait(n int, timeout time.Duration) ([]Message, error) {
	deadline := time.After(timeout)
	for {
		if m := d.Messages(); len(m) >= n {
			return m, nil
		}
		select {
		case <-d.arrived:
		case <-deadline:
			return d.Messages(), fmt.Errorf("device %s: %d messages after %s, want %d", d.ID, len(d.Messages()), timeout, n)
		}
	}
}

// Errors lists the protocol violations the service saw.
func (s *Service) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

func (s *Service) fail(w http.ResponseWriter, format string, args ...any) {
	s.mu.Lock()
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
	s.mu.Unlock()
	http.Error(w, "bad request", http.StatusBadRequest)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	if s.Delay > 0 {
		time.Sleep(s.Delay)
	}
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	d := s.devices[id]
	s.mu.Unlock()
	if r.Method != http.MethodPost || !ok || d == nil {
		http.NotFound(w, r)
		return
	}
	d.mu.Lock()
	answer, stalled := d.answer, d.stalled
	d.mu.Unlock()
	if stalled {
		s.hold(r)
		return
	}
	if answer == http.StatusGone || answer == http.StatusNotFound {
		w.WriteHeader(answer)
		return
	}
	sub, err := s.checkVAPID(r)
	if err != nil {
		s.fail(w, "VAPID: %v", err)
		return
	}
	if r.Header.Get("TTL") == "" {
		s.fail(w, "no TTL header")
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		s.fail(w, "Content-Encoding %q, want aes128gcm", ce)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8192))
	if err != nil {
		s.fail(w, "read body: %v", err)
		return
	}
	if len(body) > 4096 {
		s.fail(w, "body of %d bytes exceeds 4096", len(body))
		return
	}
	plain, err := d.decrypt(body)
	if err != nil {
		s.fail(w, "decrypt: %v", err)
		return
	}
	if answer != http.StatusCreated {
		w.WriteHeader(answer)
		return
	}
	d.mu.Lock()
	d.messages = append(d.messages, Message{Payload: plain, TTL: r.Header.Get("TTL"), Urgency: r.Header.Get("Urgency"), Sub: sub})
	d.mu.Unlock()
	d.arrived <- struct{}{}
	w.WriteHeader(http.StatusCreated)
}

// hold keeps the request open until its client goes away or the service
// closes.
func (s *Service) hold(r *http.Request) {
	// The server notices the client leaving only once the body is read.
	io.Copy(io.Discard, io.LimitReader(r.Body, 8192))
	s.mu.Lock()
	s.held++
	s.maxHeld = max(s.maxHeld, s.held)
	s.mu.Unlock()
	select {
	case <-r.Context().Done():
	case <-s.closing:
	}
	s.mu.Lock()
	s.held--
	s.released++
	s.mu.Unlock()
}

// checkVAPID verifies the Authorization header "vapid t=<jwt>, k=<key>"
// and returns the token's sub.
func (s *Service) checkVAPID(r *http.Request) (string, error) {
	h, ok := strings.CutPrefix(r.Header.Get("Authorization"), "vapid ")
	if !ok {
		return "", errors.New("no vapid Authorization header")
	}
	var tok, k string
	for part := range strings.SplitSeq(h, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		}
		if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	if tok == "" || k == "" {
		return "", errors.New("t or k missing")
	}
	if s.VAPIDKey != "" && k != s.VAPIDKey {
		return "", errors.New("k is not the key the browser subscribed with")
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return "", fmt.Errorf("k: %w", err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return "", fmt.Errorf("k: %w", err)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "", errors.New("token is not a JWS")
	}
	var header struct{ Alg, Typ string }
	if err := decodeSegment(parts[0], &header); err != nil {
		return "", fmt.Errorf("header: %w", err)
	}
	if header.Alg != "ES256" {
		return "", fmt.Errorf("alg %q, want ES256", header.Alg)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", errors.New("signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("signature does not verify with k")
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := decodeSegment(parts[1], &claims); err != nil {
		return "", fmt.Errorf("claims: %w", err)
	}
	if want := "https://" + r.Host; claims.Aud != want {
		return "", fmt.Errorf("aud %q, want %q", claims.Aud, want)
	}
	now := time.Now().Unix()
	if claims.Exp <= now || claims.Exp > now+24*3600 {
		return "", fmt.Errorf("exp %d is not within 24 hours from now", claims.Exp)
	}
	if !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:") {
		return "", fmt.Errorf("sub %q is neither mailto: nor https:", claims.Sub)
	}
	return claims.Sub, nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// decrypt undoes RFC 8291's aes128gcm as the user agent does.
func (d *Device) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("shorter than the header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, fmt.Errorf("keyid of %d bytes, want the 65-byte sender key", idlen)
	}
	senderKey, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, fmt.Errorf("sender key: %w", err)
	}
	ct := body[21+idlen:]
	if uint32(len(ct)) > rs {
		return nil, errors.New("more than one record")
	}
	shared, err := d.key.ECDH(senderKey)
	if err != nil {
		return nil, err
	}
	info := append([]byte("WebPush: info\x00"), d.key.PublicKey().Bytes()...)
	info = append(info, senderKey.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, shared, d.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	// The last record ends with the delimiter 2, then zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}
