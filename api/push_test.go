package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/push/pushtest"
	"github.com/barhub/barhub/store"
)

// pushEnv is a bar test server whose publisher also sends Web Push
// through the real library to a test push service.
type pushEnv struct {
	*barEnv
	svc    *pushtest.Service
	sender *push.Sender
}

func newPushEnv(t testing.TB, tweak ...func(*Deps)) *pushEnv {
	t.Helper()
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	p := &pushEnv{svc: svc}
	p.barEnv = newBarEnv(t, append(tweak, func(d *Deps) {
		keys, err := d.Store.VAPIDKeys(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		svc.VAPIDKey = keys.Public
		// The test push service listens on loopback: its policy, given to
		// the API and the sender alike, is what lets them use it.
		p.sender = push.New(d.Store, push.Config{Keys: keys, Contact: "host@party.test", Policy: svc.Policy(), RootCAs: svc.RootCAs(),
			RetryBase: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond}, d.Logger, nil)
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		go p.sender.Run(ctx)
		d.Publish = push.Forward(d.Publish, p.sender)
		d.Config.PushKey = keys.Public
		d.Config.PushPolicy = svc.Policy()
	})...)
	return p
}

func (p *pushEnv) subscribe(tok string, d *pushtest.Device) string {
	p.t.Helper()
	status, raw := p.do("POST", "/api/push/subscriptions", tok, d.Subscription())
	if status != http.StatusCreated {
		p.t.Fatalf("subscribe: %d %s", status, raw)
	}
	var v struct{ ID string }
	decodeInto(p.t, raw, &v)
	return v.ID
}

// settle waits until the sender has tried everything queued.
func (p *pushEnv) settle() {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !p.sender.Idle() {
		if time.Now().After(deadline) {
			p.t.Fatal("push sender still busy after 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func payloadOf(t *testing.T, m pushtest.Message) push.Notification {
	t.Helper()
	var n push.Notification
	if err := json.Unmarshal(m.Payload, &n); err != nil {
		t.Fatalf("payload %q: %v", m.Payload, err)
	}
	return n
}

// TestPushOrderReady: the bartender's Ready sends exactly one encrypted
// notification to each of the guest's devices and none to anyone else's;
// a device the push service calls gone (410) is removed.
func TestPushOrderReady(t *testing.T) {
	p := newPushEnv(t)
	other := p.addGuest(guest.Guest{FirstName: "Otto", LastName: "Other"})
	oTok := p.tokenFor(other)

	phone, laptop, otherPhone := p.svc.NewDevice(), p.svc.NewDevice(), p.svc.NewDevice()
	p.subscribe(p.gTok, phone)
	laptopID := p.subscribe(p.gTok, laptop)
	p.subscribe(p.gTok, phone) // the same browser again is still one device
	p.subscribe(oTok, otherPhone)
	p.order(oTok, 201, one("negroni")) // the other guest's order stays queued

	v := p.order(p.gTok, 201, one("negroni"))
	p.move(v.ID, "start", 200)
	p.settle()
	for _, d := range []*pushtest.Device{phone, laptop, otherPhone} {
		if n := len(d.Messages()); n != 0 {
			t.Fatalf("%s got %d notifications before Ready", d.ID, n)
		}
	}
	p.move(v.ID, "ready", 200)
	for _, d := range []*pushtest.Device{phone, laptop} {
		msgs, err := d.Wait(1, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		n := payloadOf(t, msgs[0])
		if n.Kind != "order.ready" || n.OrderID != v.ID || !strings.Contains(n.Body, "Negroni") || n.URL != "/?order="+v.ID {
			t.Errorf("%s: notification %+v", d.ID, n)
		}
		if msgs[0].Sub != "mailto:host@party.test" || msgs[0].Urgency != "high" {
			t.Errorf("%s: sub %q urgency %q", d.ID, msgs[0].Sub, msgs[0].Urgency)
		}
	}
	p.settle()
	if n := len(phone.Messages()) + len(laptop.Messages()); n != 2 {
		t.Errorf("the guest's two devices got %d notifications, want exactly 2", n)
	}
	if n := len(otherPhone.Messages()); n != 0 {
		t.Errorf("another guest's device got %d notifications", n)
	}
	if errs := p.svc.Errors(); len(errs) > 0 {
		t.Fatalf("push service saw protocol errors: %v", errs)
	}

	// The laptop's browser dropped the subscription: 410 removes it, the
	// phone still hears.
	laptop.Answer(http.StatusGone)
	p.move(v.ID, "recall", 200)
	p.move(v.ID, "ready", 200)
	if _, err := phone.Wait(2, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	p.settle()
	devices, err := p.store.PushDevices(context.Background(), p.guest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(devices) != 1 || devices[0].ID() == laptopID {
		t.Errorf("after 410: devices %+v, want only the phone", devices)
	}
	if n := len(laptop.Messages()); n != 1 {
		t.Errorf("the gone laptop has %d messages, want the first only", n)
	}
}

// TestPushCancelAndAnnouncement: the bar's cancel carries its reason; an
// announcement is pushed only when the host asks; the guest's own cancel
// and a retried 503 behave.
func TestPushCancelAndAnnouncement(t *testing.T) {
	p := newPushEnv(t)
	phone := p.svc.NewDevice()
	p.subscribe(p.gTok, phone)

	v := p.order(p.gTok, 201, one("negroni"))
	status, raw := p.do("POST", "/api/bar/orders/"+v.ID+"/cancel", p.bTok, map[string]string{"reason": "out of Campari"})
	if status != 200 {
		t.Fatalf("cancel: %d %s", status, raw)
	}
	msgs, err := phone.Wait(1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[0]); n.Kind != "order.cancelled" || !strings.Contains(n.Body, "out of Campari") {
		t.Errorf("cancel notification %+v", n)
	}

	// Cancelling one's own order notifies nobody.
	own := p.order(p.gTok, 201, one("negroni"))
	if status, raw := p.do("POST", "/api/orders/"+own.ID+"/cancel", p.gTok, map[string]string{"reason": "changed my mind"}); status != 200 {
		t.Fatalf("own cancel: %d %s", status, raw)
	}
	// Without "push" the announcement stays on the pages.
	if status, raw := p.do("POST", "/api/admin/announcements", p.aTok, map[string]any{"text": "Cake in the garden"}); status != 202 {
		t.Fatalf("announce: %d %s", status, raw)
	}
	p.settle()
	if n := len(phone.Messages()); n != 1 {
		t.Fatalf("%d notifications after an own cancel and a page-only announcement, want 1", n)
	}

	// A busy push service is tried again.
	phone.Answer(http.StatusServiceUnavailable)
	time.AfterFunc(30*time.Millisecond, func() { phone.Answer(http.StatusCreated) })
	if status, raw := p.do("POST", "/api/admin/announcements", p.aTok, map[string]any{"text": "Last call!", "push": true}); status != 202 {
		t.Fatalf("announce: %d %s", status, raw)
	}
	msgs, err = phone.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := payloadOf(t, msgs[1]); n.Kind != "announcement" || n.Body != "Last call!" || n.Title != "From Hal Host" {
		t.Errorf("announcement notification %+v", n)
	}
	if errs := p.svc.Errors(); len(errs) > 0 {
		t.Fatalf("push service saw protocol errors: %v", errs)
	}
}

func TestPushSubscriptionInput(t *testing.T) {
	p := newPushEnv(t)
	d := p.svc.NewDevice()
	good := d.Subscription()
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		m[k] = v
		return m
	}
	keys := good["keys"].(map[string]string)
	for _, tt := range []struct {
		name string
		body any
		code string
	}{
		{"http endpoint", with("endpoint", "http://push.example/x"), "invalid_subscription"},
		{"no endpoint", with("endpoint", ""), "invalid_subscription"},
		{"file endpoint", with("endpoint", "file:///etc/passwd"), "invalid_subscription"},
		{"long endpoint", with("endpoint", "https://push.example/"+strings.Repeat("a", 3000)), "invalid_subscription"},
		{"short key", with("keys", map[string]string{"p256dh": "AAAA", "auth": keys["auth"]}), "invalid_subscription"},
		{"off-curve key", with("keys", map[string]string{"p256dh": "BA" + strings.Repeat("A", 85), "auth": keys["auth"]}), "invalid_subscription"},
		{"short auth", with("keys", map[string]string{"p256dh": keys["p256dh"], "auth": "AAAA"}), "invalid_subscription"},
		{"unknown field", with("extra", 1), "unknown_field"},
		{"not JSON", "{", "malformed_json"},
	} {
		status, raw := p.do("POST", "/api/push/subscriptions", p.gTok, tt.body)
		if status != 400 || errorCode(t, raw) != tt.code {
			t.Errorf("%s: %d %s, want 400 %s", tt.name, status, raw, tt.code)
		}
	}
	if status, raw := p.do("DELETE", "/api/push/subscriptions/nothex", p.gTok, nil); status != 400 || errorCode(t, raw) != "invalid_id" {
		t.Errorf("delete bad id: %d %s", status, raw)
	}
	status, raw := p.do("GET", "/api/push/key", p.gTok, nil)
	var k pushKeyResponse
	decodeInto(t, raw, &k)
	if status != 200 || !k.Enabled || k.PublicKey != p.svc.VAPIDKey {
		t.Errorf("push key: %d %s", status, raw)
	}
	// Unsubscribing removes the device; a second time is no error.
	id := p.subscribe(p.gTok, d)
	for range 2 {
		if status, raw := p.do("DELETE", "/api/push/subscriptions/"+id, p.gTok, nil); status != 204 {
			t.Fatalf("unsubscribe: %d %s", status, raw)
		}
	}
	if ds, _ := p.store.PushDevices(context.Background(), p.guest.ID); len(ds) != 0 {
		t.Errorf("devices after unsubscribe: %+v", ds)
	}
}

// TestPushUnavailable: without a key the routes say so instead of storing
// subscriptions nothing will send to.
func TestPushUnavailable(t *testing.T) {
	e := newBarEnv(t, func(d *Deps) { d.Config.PushKey = "" })
	svc := pushtest.New()
	defer svc.Close()
	status, raw := e.do("POST", "/api/push/subscriptions", e.gTok, svc.NewDevice().Subscription())
	if status != 503 || errorCode(t, raw) != "push_unavailable" {
		t.Errorf("subscribe without push: %d %s", status, raw)
	}
}

// TestPushSubscriptionRefusesInside: with the policy a server runs with,
// a subscription is accepted only on a known push service's host. Every
// form of an address inside, every look-alike URL and the test push
// service itself (on loopback) is a 400 invalid_subscription with a
// message saying what is wrong; nothing is stored.
func TestPushSubscriptionRefusesInside(t *testing.T) {
	e := newBarEnv(t) // PushPolicy is the zero value, as in production
	svc := pushtest.New()
	t.Cleanup(svc.Close)
	good := svc.NewDevice().Subscription()
	at := func(endpoint string) map[string]any {
		return map[string]any{"endpoint": endpoint, "expirationTime": nil, "keys": good["keys"]}
	}
	for _, endpoint := range []string{
		good["endpoint"].(string), // the test service: allowed only when a test opts in
		"https://127.0.0.1/push", "https://127.1/push", "https://2130706433/push", "https://0x7f000001/push",
		"https://0.0.0.0/push", "https://0/push", "https://[::1]/push", "https://[::]/push",
		"https://[::ffff:127.0.0.1]/push", "https://[::ffff:a9fe:a9fe]/push",
		"https://10.0.0.1/push", "https://172.16.0.1/push", "https://192.168.1.1/push",
		"https://169.254.169.254/latest/meta-data/", "https://100.100.100.200/latest/meta-data/",
		"https://[fd00:ec2::254]/latest/meta-data/", "https://[fe80::1%25eth0]/push",
		"https://localhost/push", "https://metadata.google.internal/computeMetadata/v1/",
		"https://metadata/push", "https://router.lan/push", "https://127.0.0.1.nip.io/push",
		"https://fcm.googleapis.com.evil.test/push", "https://fcm.googleapis.com:8443/fcm/send/x",
		"https://fcm.googleapis.com:22/fcm/send/x", "https://user:pw@fcm.googleapis.com/fcm/send/x",
		"https://fcm.googleapis.com@127.0.0.1/push", "https://%31%32%37.0.0.1/push",
		"https://fcm.googleapis.com./fcm/send/x", "http://fcm.googleapis.com/fcm/send/x",
		"https://fcm.googleapis.com/fcm/send/x#f", "https:fcm.googleapis.com/x",
	} {
		status, raw := e.do("POST", "/api/push/subscriptions", e.gTok, at(endpoint))
		if status != http.StatusBadRequest || errorCode(t, raw) != "invalid_subscription" {
			t.Errorf("%s: %d %s, want 400 invalid_subscription", endpoint, status, raw)
		}
	}
	if ds, _ := e.store.PushDevices(context.Background(), e.guest.ID); len(ds) != 0 {
		t.Fatalf("%d devices stored from refused subscriptions", len(ds))
	}
	status, raw := e.do("POST", "/api/push/subscriptions", e.gTok, at("https://169.254.169.254/latest/meta-data/"))
	if status != 400 || !strings.Contains(string(raw), "not an IP address") {
		t.Errorf("metadata address: %d %s, want a message saying an IP address is not a push service", status, raw)
	}
	for _, endpoint := range []string{
		"https://fcm.googleapis.com/fcm/send/dXk:APA91b",
		"https://updates.push.services.mozilla.com/wpush/v2/gAAAAA",
		"https://web.push.apple.com/QGuQyavXutnMeiXdK",
		"https://wns2-by3p.notify.windows.com/w/?token=BQYAAA",
	} {
		if status, raw := e.do("POST", "/api/push/subscriptions", e.gTok, at(endpoint)); status != http.StatusCreated {
			t.Errorf("%s: %d %s, want 201", endpoint, status, raw)
		}
	}
}

// TestPushDeviceCapUnderParallelSubscribes: 200 subscribes of one guest
// at once, each a different browser, through the real API on the real
// database: every one is answered 201 and exactly 10 devices remain
// (the newest win, one at a time). A Ready then reaches exactly those 10.
func TestPushDeviceCapUnderParallelSubscribes(t *testing.T) {
	const parallel = 200
	p := newPushEnv(t)
	devices := make([]*pushtest.Device, parallel)
	for i := range devices {
		devices[i] = p.svc.NewDevice()
	}
	status := make([]int, parallel)
	body := make([][]byte, parallel)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, d := range devices {
		wg.Go(func() {
			<-start
			status[i], body[i] = p.do("POST", "/api/push/subscriptions", p.gTok, d.Subscription())
		})
	}
	close(start)
	wg.Wait()
	for i := range status {
		if status[i] != http.StatusCreated {
			t.Fatalf("subscribe %d: %d %s", i, status[i], body[i])
		}
	}
	stored, err := p.store.PushDevices(context.Background(), p.guest.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != store.MaxPushDevices {
		t.Fatalf("%d devices stored after %d parallel subscribes, want %d", len(stored), parallel, store.MaxPushDevices)
	}

	v := p.order(p.gTok, 201, one("negroni"))
	p.move(v.ID, "start", 200)
	p.move(v.ID, "ready", 200)
	p.settle()
	reached := map[string]bool{}
	for _, d := range devices {
		if n := len(d.Messages()); n > 0 {
			reached[d.Endpoint] = true
			if n != 1 {
				t.Errorf("%s got %d notifications for one Ready", d.ID, n)
			}
		}
	}
	if len(reached) != store.MaxPushDevices {
		t.Errorf("Ready reached %d devices, want %d", len(reached), store.MaxPushDevices)
	}
	for _, d := range stored {
		if !reached[d.Endpoint] {
			t.Errorf("stored device %s got no notification", d.ID())
		}
	}
}
