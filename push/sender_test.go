package push_test

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/net/dns/dnsmessage"

	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/push/pushtest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// These tests run the real sender (the real Web Push library, a real
// HTTP client and dialer) against real listeners on this machine, with
// the devices in the real embedded database. The listeners stand for what
// lies inside a party's network: whatever a guest puts in a subscription,
// none of them may see a connection.

// quiet is the senders' logger: what they log is not what is tested.
var quiet = slog.New(slog.DiscardHandler)

// canary is a listener inside that counts the connections made to it,
// over plain TCP and over TLS (an https server with the test certificate,
// which the sender is told to trust, so a redirect to it would succeed).
type canary struct {
	tcp   net.Listener
	tls   *httptest.Server
	conns atomic.Int64
}

func newCanary(t *testing.T) *canary {
	t.Helper()
	c := &canary{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.tcp = ln
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.conns.Add(1)
			conn.Close()
		}
	}()
	c.tls = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated) // a push service's "delivered"
	}))
	c.tls.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			c.conns.Add(1)
		}
	}
	c.tls.StartTLS()
	t.Cleanup(func() { ln.Close(); c.tls.Close() })
	return c
}

func (c *canary) tcpPort() string { return port(c.tcp.Addr().String()) }
func (c *canary) tlsPort() string { return port(c.tls.Listener.Addr().String()) }

func port(hostport string) string {
	_, p, _ := net.SplitHostPort(hostport)
	return p
}

// newDevice is a browser's subscription at endpoint: real keys, so the
// sender can encrypt for it.
func newDevice(t *testing.T, endpoint string) store.PushDevice {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	return store.PushDevice{Endpoint: endpoint, P256dh: base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
		Auth: base64.RawURLEncoding.EncodeToString(auth), CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
}

// sendOnce stores a device at endpoint for one guest, notifies the guest
// through a sender with cfg, and returns the sender's outcomes once it
// has tried everything.
func sendOnce(t *testing.T, st *store.Store, cfg push.Config, endpoint string) map[string]float64 {
	t.Helper()
	ctx := context.Background()
	guestID := store.NewID()
	if err := st.SavePushDevice(ctx, guestID, newDevice(t, endpoint)); err != nil {
		t.Fatal(err)
	}
	keys, err := st.VAPIDKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Keys, cfg.Contact = keys, "host@party.test"
	cfg.RetryBase, cfg.RetryMax = time.Millisecond, 5*time.Millisecond
	reg := prometheus.NewRegistry()
	s := push.New(st, cfg, quiet, reg)
	stop := run(t, s)
	s.Notify(guestID, push.Notification{Kind: "order.ready", Title: "Your drink is ready"})
	settle(t, s)
	stop()
	return outcomes(t, reg)
}

// run starts s and returns a stop that waits for it to end; the test's
// end stops it too.
func run(t *testing.T, s *push.Sender) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// pushService starts a test push service that knows st's VAPID keys.
func pushService(t *testing.T, st *store.Store) (*pushtest.Service, store.VAPIDKeys) {
	t.Helper()
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	keys, err := st.VAPIDKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc.VAPIDKey = keys.Public
	return svc, keys
}

// subscribePhone stores a new device of svc as guestID's subscription.
func subscribePhone(t *testing.T, st *store.Store, svc *pushtest.Service, guestID string) *pushtest.Device {
	t.Helper()
	phone := svc.NewDevice()
	k := phone.Subscription()["keys"].(map[string]string)
	if err := st.SavePushDevice(context.Background(), guestID, store.PushDevice{Endpoint: phone.Endpoint, P256dh: k["p256dh"], Auth: k["auth"], CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return phone
}

// roots trusts a test server's certificate.
func roots(srv *httptest.Server) *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return pool
}

func settle(t *testing.T, s *push.Sender) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !s.Idle() {
		if time.Now().After(deadline) {
			t.Fatal("sender still busy after 20s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func outcomes(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "barhub_push_notifications_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	return out
}

func only(result string) map[string]float64 { return map[string]float64{result: 1} }

func sameOutcomes(got, want map[string]float64) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	for k, v := range got {
		if v != 0 && want[k] == 0 {
			return false
		}
	}
	return true
}

// TestSenderNeverDialsInside: an endpoint whose host is allowed (listed
// explicitly, as an operator might by mistake) but that is, or resolves
// to, an address inside is refused on the address actually dialled, and
// the listener there sees no connection. Nothing is retried.
func TestSenderNeverDialsInside(t *testing.T) {
	st := storetest.New(t)
	c := newCanary(t)
	dns := newDNS(t, map[string][]string{
		"inside.push.test":   {"127.0.0.1"},
		"zero.push.test":     {"0.0.0.0"}, // connects to this machine on Linux
		"lan.push.test":      {"10.0.0.1", "192.168.1.1"},
		"metadata.push.test": {"169.254.169.254"},
		"alibaba.push.test":  {"100.100.100.200"},
		"six.push.test":      {"::1"},
		"mapped.push.test":   {"::ffff:127.0.0.1"},
		"ula.push.test":      {"fd00:ec2::254"},
		"both.push.test":     {"127.0.0.1", "::1"},
	})
	for _, tt := range []struct {
		name, host string
	}{
		{"loopback address", "127.0.0.1"},
		{"name resolving to loopback", "inside.push.test"},
		{"name resolving to 0.0.0.0", "zero.push.test"},
		{"name resolving to the LAN", "lan.push.test"},
		{"name resolving to the metadata service", "metadata.push.test"},
		{"name resolving to Alibaba's metadata", "alibaba.push.test"},
		{"name resolving to IPv6 loopback", "six.push.test"},
		{"name resolving to IPv4-mapped loopback", "mapped.push.test"},
		{"name resolving to unique-local IPv6", "ula.push.test"},
		{"name resolving to both loopbacks", "both.push.test"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, p := range []string{c.tlsPort(), c.tcpPort()} {
				before := c.conns.Load()
				hostport := net.JoinHostPort(tt.host, p)
				got := sendOnce(t, st, push.Config{
					Policy:   push.Policy{Hosts: []string{hostport}},
					RootCAs:  roots(c.tls),
					Resolver: dns.resolver(),
				}, "https://"+hostport+"/push/x")
				if n := c.conns.Load() - before; n != 0 {
					t.Errorf("%s: %d connections reached the listener inside", hostport, n)
				}
				if !sameOutcomes(got, only("refused")) {
					t.Errorf("%s: outcomes %v, want one refused and no retry", hostport, got)
				}
			}
		})
	}
	if dns.queries.Load() == 0 {
		t.Fatal("the test resolver was never asked: the names were not looked up through it")
	}
}

// TestSenderFollowsNoRedirect: a push service (here allowed on loopback,
// as tests allow theirs) that answers with a redirect to a listener
// inside, over https or plain http, gets its one request and nothing
// more: the 3xx is a failure, not followed and not retried. The redirect
// targets are reachable to the sender (same address, trusted
// certificate), so only the redirect rule stands in the way.
func TestSenderFollowsNoRedirect(t *testing.T) {
	st := storetest.New(t)
	c := newCanary(t)
	var target atomic.Value
	var asked atomic.Int64
	redirector := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		to := target.Load().([2]string)
		code := 0
		fmt.Sscan(to[1], &code)
		http.Redirect(w, r, to[0], code)
	}))
	t.Cleanup(redirector.Close)
	lo := netip.MustParsePrefix("127.0.0.1/32")
	cfg := push.Config{
		Policy:  push.Policy{Hosts: []string{redirector.Listener.Addr().String()}, Inside: []netip.Prefix{lo}},
		RootCAs: roots(redirector),
	}
	for _, code := range []string{"301", "302", "303", "307", "308"} {
		for _, to := range []string{
			"http://127.0.0.1:" + c.tcpPort() + "/latest/meta-data/",
			"https://127.0.0.1:" + c.tlsPort() + "/push/x",
		} {
			before, askedBefore := c.conns.Load(), asked.Load()
			target.Store([2]string{to, code})
			got := sendOnce(t, st, cfg, "https://"+redirector.Listener.Addr().String()+"/push/x")
			if n := c.conns.Load() - before; n != 0 {
				t.Errorf("%s to %s: %d connections reached the target", code, to, n)
			}
			if n := asked.Load() - askedBefore; n != 1 {
				t.Errorf("%s to %s: the push service was asked %d times, want once", code, to, n)
			}
			if !sameOutcomes(got, only("failed")) {
				t.Errorf("%s to %s: outcomes %v, want one failure", code, to, got)
			}
		}
	}
}

// TestSenderRetriesOnlyAnswers: a push service that answers 503 is tried
// Attempts times; a connection that is cut, or a port where nothing
// answers, is tried once, so the sender is no port scanner.
func TestSenderRetriesOnlyAnswers(t *testing.T) {
	st := storetest.New(t)
	lo := netip.MustParsePrefix("127.0.0.1/32")

	var busy atomic.Int64
	svc := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		busy.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(svc.Close)
	cfg := func(hostport string) push.Config {
		return push.Config{Policy: push.Policy{Hosts: []string{hostport}, Inside: []netip.Prefix{lo}}, RootCAs: roots(svc), Attempts: 3}
	}
	got := sendOnce(t, st, cfg(svc.Listener.Addr().String()), "https://"+svc.Listener.Addr().String()+"/push/x")
	if busy.Load() != 3 || !sameOutcomes(got, map[string]float64{"retried": 2, "failed": 1}) {
		t.Errorf("503: asked %d times, outcomes %v; want 3 tries, 2 retries and a failure", busy.Load(), got)
	}

	c := newCanary(t) // its TCP side accepts and hangs up at once
	hostport := "127.0.0.1:" + c.tcpPort()
	got = sendOnce(t, st, cfg(hostport), "https://"+hostport+"/push/x")
	if n := c.conns.Load(); n != 1 || !sameOutcomes(got, only("failed")) {
		t.Errorf("cut connection: %d connections, outcomes %v; want one connection, one failure", n, got)
	}

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hostport = closed.Addr().String()
	closed.Close() // nothing listens there now
	got = sendOnce(t, st, cfg(hostport), "https://"+hostport+"/push/x")
	if !sameOutcomes(got, only("failed")) {
		t.Errorf("closed port: outcomes %v, want one failure and no retry", got)
	}
}

// TestSenderProductionPolicyRefusesTestService: the zero policy, which a
// server runs with, neither dials the test push service nor keeps a
// device there that was stored before the policy held: the endpoint is
// checked again before every send, and the device is forgotten.
func TestSenderProductionPolicyRefusesTestService(t *testing.T) {
	st := storetest.New(t)
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	d := svc.NewDevice()
	guestID := store.NewID()
	sub := d.Subscription()
	k := sub["keys"].(map[string]string)
	if err := st.SavePushDevice(context.Background(), guestID, store.PushDevice{Endpoint: d.Endpoint, P256dh: k["p256dh"], Auth: k["auth"], CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	keys, err := st.VAPIDKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	s := push.New(st, push.Config{Keys: keys, Contact: "host@party.test", RootCAs: svc.RootCAs()}, quiet, reg)
	run(t, s)
	s.Notify(guestID, push.Notification{Kind: "order.ready", Title: "Your drink is ready"})
	settle(t, s)
	if got := outcomes(t, reg); !sameOutcomes(got, only("refused")) {
		t.Errorf("outcomes %v, want one refused", got)
	}
	if n := len(d.Messages()); n != 0 {
		t.Errorf("the test push service got %d notifications under the production policy", n)
	}
	if ds, err := st.PushDevices(context.Background(), guestID); err != nil || len(ds) != 0 {
		t.Errorf("devices after a refused endpoint: %v %v, want none", ds, err)
	}
}

// testDNS is a DNS server on a real UDP socket answering A and AAAA
// questions from a table, and the resolver that asks it: the names a
// test uses resolve where the test says, and the sender's own dialer does
// the rest.
type testDNS struct {
	conn    net.PacketConn
	records map[string][]netip.Addr
	queries atomic.Int64
}

func newDNS(t *testing.T, table map[string][]string) *testDNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &testDNS{conn: conn, records: map[string][]netip.Addr{}}
	for name, addrs := range table {
		for _, a := range addrs {
			d.records[name+"."] = append(d.records[name+"."], netip.MustParseAddr(a))
		}
	}
	go d.serve()
	return d
}

func (d *testDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dialer net.Dialer
		return dialer.DialContext(ctx, "udp", d.conn.LocalAddr().String())
	}}
}

func (d *testDNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if msg, ok := d.answer(buf[:n]); ok {
			d.conn.WriteTo(msg, from)
		}
	}
}

func (d *testDNS) answer(req []byte) ([]byte, bool) {
	var p dnsmessage.Parser
	h, err := p.Start(req)
	if err != nil {
		return nil, false
	}
	q, err := p.Question()
	if err != nil {
		return nil, false
	}
	d.queries.Add(1)
	addrs, known := d.records[strings.ToLower(q.Name.String())]
	rcode := dnsmessage.RCodeSuccess
	if !known {
		rcode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true, RCode: rcode})
	b.StartQuestions()
	b.Question(q)
	b.StartAnswers()
	rh := dnsmessage.ResourceHeader{Name: q.Name, Type: q.Type, Class: dnsmessage.ClassINET, TTL: 1}
	for _, a := range addrs {
		switch {
		case q.Type == dnsmessage.TypeA && a.Is4():
			b.AResource(rh, dnsmessage.AResource{A: a.As4()})
		case q.Type == dnsmessage.TypeAAAA && !a.Is4():
			b.AAAAResource(rh, dnsmessage.AAAAResource{AAAA: a.As16()})
		}
	}
	msg, err := b.Finish()
	return msg, err == nil
}
