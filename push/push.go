// Package push sends Web Push notifications (RFC 8030) to the browsers
// guests allowed to show them: "your drink is ready" reaches a phone in a
// pocket. Payloads are encrypted (RFC 8291) and signed (RFC 8292) by
// github.com/SherClockHolmes/webpush-go; this package decides what to
// send, to whom, and keeps the sending off the request path: a bounded
// queue of one delivery per device, shared by the senders so that no
// guest can hold them (queue.go), retries with backoff when a push
// service asks for one, and subscriptions a push service calls gone (404,
// 410) removed. Where notifications may go at all is policy.go's and
// dial.go's: known push services, at public addresses, no redirects.
package push

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/store"
)

// Store is where the sender finds and forgets subscriptions.
type Store interface {
	PushDevices(ctx context.Context, guestID string) ([]store.PushDevice, error)
	// GuestLanguage is the language the guest's page showed at their
	// last sign-in, or "": the notification is worded in it.
	GuestLanguage(ctx context.Context, guestID string) (string, error)
	EachPushGuest(ctx context.Context, fn func(guestID string, devices []store.PushDevice)) error
	DeletePushDevice(ctx context.Context, guestID, deviceID string) error
}

// Notification is what the service worker shows. It is the payload, as
// JSON, encrypted for each device.
type Notification struct {
	// Kind is the live event that caused it: order.ready,
	// order.cancelled, announcement, recommendation.ready; or a host's
	// notification, host.<kind> (app.Host, PushHost).
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the page a tap opens.
	URL string `json:"url"`
	// Tag makes a newer notification about the same thing replace the
	// older one on the device.
	Tag     string `json:"tag,omitempty"`
	OrderID string `json:"orderId,omitempty"`
	// Event is the id of the event it is about when the installation
	// has more than one (Config.Event): the app opens that event.
	Event string `json:"event,omitempty"`

	// TitleKey and BodyKey name Title and Body in the message catalogues,
	// with Vars to fill in: the sender words the notification in the
	// guest's language when it sends it, keeping the English above when
	// there is no translation.
	TitleKey, BodyKey string         `json:"-"`
	Vars              map[string]any `json:"-"`
}

// Translate words message key in lang with vars, as the catalogues of
// locale/ do; ok is false when it cannot.
type Translate func(lang, key string, vars map[string]any) (text string, ok bool)

// in is n worded in lang.
func (n Notification) in(lang string, tr Translate) Notification {
	if tr == nil || lang == "" {
		return n
	}
	if t, ok := tr(lang, n.TitleKey, n.Vars); ok && n.TitleKey != "" {
		n.Title = t
	}
	if t, ok := tr(lang, n.BodyKey, n.Vars); ok && n.BodyKey != "" {
		n.Body = t
	}
	return n
}

// Config tunes the sender. Zero fields take the defaults noted.
type Config struct {
	// Event names the event the notifications are about, when the
	// installation holds more than one (docs/EVENTS.md): its name starts
	// each title, "Wedding · Your drink is ready", so a guest of two
	// events knows which bar calls, and its id travels with it. nil, or
	// an empty name, says nothing, as with one event.
	Event func(ctx context.Context) (id, name string)
	// Keys is the VAPID key pair (store.VAPIDKeys).
	Keys store.VAPIDKeys
	// Contact is the "sub" of the VAPID token: an https URL or an e-mail
	// address a push service can reach the operator at.
	Contact string
	// Policy says which endpoints and addresses notifications may go to;
	// the zero value is the known push services at public addresses.
	Policy Policy
	// Workers send in parallel (default 32); each guest may use PerGuest
	// of them at once (default 2), so a guest whose devices hang holds
	// two senders and no more (docs/SECURITY.md has the arithmetic).
	Workers, PerGuest int
	// Timeout bounds one request to a push service, from dialling to the
	// end of the answer (default 5s).
	Timeout time.Duration
	// Queue bounds the deliveries waiting (one per device, and one per
	// notification whose devices are still to be looked up; default
	// 8192), GuestQueue those of one guest (default 100); when either is
	// full a new one is dropped and counted, never waited for.
	Queue, GuestQueue int
	// Attempts is how often one device is tried when its push service
	// answers 429 or 5xx (default 5).
	Attempts int
	// RetryBase is the first wait before a retry, doubled each time up to
	// RetryMax (defaults 1s and 1m).
	RetryBase, RetryMax time.Duration
	// TTL is how long a push service keeps a notification for a phone
	// that is off (default 30m: a drink ready an hour ago is not news).
	TTL time.Duration
	// RootCAs are the authorities push services' certificates are
	// checked against; nil is the system's. Tests trust their own.
	RootCAs *x509.CertPool
	// Resolver looks push services' names up; nil is the system's. The
	// address check runs on what is dialled, whatever resolved it.
	Resolver *net.Resolver
	// Translate words notifications in each guest's language; nil sends
	// them in English.
	Translate Translate
}

// Sender delivers notifications in the background.
type Sender struct {
	cfg    Config
	st     Store
	log    *slog.Logger
	client *http.Client
	q      *fairQueue
	// pending counts deliveries queued, being handled or waiting for a
	// retry, so a test can tell when everything has been tried.
	pending atomic.Int64

	sent *prometheus.CounterVec
}

// delivery is the unit the senders share, in the line of the guest it is
// for: a notification whose devices are still to be looked up (list), or
// the notification for one device. Looking the devices up is a turn of
// the guest's too, so one guest's many notifications wait in that guest's
// line, not in front of everyone else's.
type delivery struct {
	guestID string
	// list: look up the guest's devices, or every guest's when everyone.
	list, everyone bool
	device         store.PushDevice
	payload        []byte
	// n is the notification still to be worded for each guest (list).
	n       Notification
	attempt int
}

// everyoneLine is the line of the notifications to every guest, until
// they are split into each guest's devices. No guest has an empty id.
const everyoneLine = ""

// New returns a sender; Run starts it.
func New(st Store, cfg Config, logger *slog.Logger, reg prometheus.Registerer) *Sender {
	if cfg.Workers <= 0 {
		cfg.Workers = 32
	}
	if cfg.PerGuest <= 0 {
		cfg.PerGuest = 2
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 8192
	}
	if cfg.GuestQueue <= 0 {
		cfg.GuestQueue = 100
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 5
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = time.Second
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = time.Minute
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 30 * time.Minute
	}
	if logger == nil {
		logger = slog.Default()
	}
	s := &Sender{cfg: cfg, st: st, log: logger,
		client: newClient(clientConfig{policy: cfg.Policy, timeout: cfg.Timeout, conns: cfg.Workers, rootCAs: cfg.RootCAs, resolver: cfg.Resolver}),
		q:      newFairQueue(cfg.PerGuest, cfg.Queue, cfg.GuestQueue),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "barhub_push_notifications_total",
			Help: "Web Push notifications by outcome: delivered, gone (subscription removed), retried, failed, refused (endpoint or address not allowed), dropped (queue full).",
		}, []string{"result"}),
	}
	if reg != nil {
		reg.MustRegister(s.sent)
	}
	return s
}

// PublicKey is the VAPID public key browsers subscribe with.
func (s *Sender) PublicKey() string { return s.cfg.Keys.Public }

// Run sends until ctx ends.
func (s *Sender) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range s.cfg.Workers {
		wg.Go(func() {
			for {
				d, ok := s.q.pop()
				if !ok {
					return
				}
				if d.list {
					s.list(ctx, d)
				} else {
					s.send(ctx, d)
				}
				s.q.done(d.guestID)
				s.pending.Add(-1)
			}
		})
	}
	<-ctx.Done()
	s.q.close()
	wg.Wait()
	s.client.CloseIdleConnections()
}

// Notify queues n for every device of guest guestID. It never waits.
func (s *Sender) Notify(guestID string, n Notification) {
	s.enqueue(delivery{guestID: guestID, list: true, n: n})
}

// NotifyEveryone queues n for every subscribed device.
func (s *Sender) NotifyEveryone(n Notification) {
	s.enqueue(delivery{guestID: everyoneLine, list: true, everyone: true, n: n})
}

// payloadFor is d's notification worded in the guest's language, as the
// devices get it; payloads memoises it per language for a notification
// to everyone.
func (s *Sender) payloadFor(ctx context.Context, d delivery, guestID string, payloads map[string][]byte) []byte {
	lang := ""
	if s.cfg.Translate != nil && (d.n.TitleKey != "" || d.n.BodyKey != "") {
		var err error
		if lang, err = s.st.GuestLanguage(ctx, guestID); err != nil {
			s.log.Warn("push: read the guest's language", "guest", guestID, "err", err)
		}
	}
	if p, ok := payloads[lang]; ok {
		return p
	}
	n := d.n.in(lang, s.cfg.Translate)
	if s.cfg.Event != nil && !strings.HasPrefix(n.Kind, "host.") {
		if id, name := s.cfg.Event(ctx); name != "" {
			n.Event, n.Title = id, name+" · "+n.Title
		}
	}
	p := mustJSON(n)
	payloads[lang] = p
	return p
}

func mustJSON(n Notification) []byte {
	b, err := json.Marshal(n)
	if err != nil {
		panic(err) // strings only
	}
	return b
}

// Idle reports whether nothing is queued, being sent or waiting for a
// retry.
func (s *Sender) Idle() bool { return s.pending.Load() == 0 }

// enqueue queues d in its guest's line, or drops it (and counts it)
// when the queue or the guest's line is full: a request never waits for
// a push.
func (s *Sender) enqueue(d delivery) {
	s.pending.Add(1)
	if !s.q.push(d) {
		s.pending.Add(-1)
		s.sent.WithLabelValues("dropped").Inc()
		s.log.Warn("push queue full: notification dropped", "guest", d.guestID)
	}
}

// list turns a notification into one delivery per device.
func (s *Sender) list(ctx context.Context, d delivery) {
	payloads := map[string][]byte{}
	if d.everyone {
		err := s.st.EachPushGuest(ctx, func(guestID string, devices []store.PushDevice) {
			payload := s.payloadFor(ctx, d, guestID, payloads)
			for _, dev := range newest(devices) {
				s.enqueue(delivery{guestID: guestID, device: dev, payload: payload})
			}
		})
		if err != nil {
			s.log.Warn("push to everyone: list devices", "err", err)
		}
		return
	}
	// A look-up holds a sender like a request does, and is bounded alike.
	tctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	devices, err := s.st.PushDevices(tctx, d.guestID)
	cancel()
	if err != nil {
		s.log.Warn("push: list devices", "guest", d.guestID, "err", err)
		return
	}
	if len(devices) == 0 {
		return
	}
	tctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
	payload := s.payloadFor(tctx, d, d.guestID, payloads)
	cancel()
	for _, dev := range newest(devices) {
		s.enqueue(delivery{guestID: d.guestID, device: dev, payload: payload})
	}
}

// newest keeps a guest's newest store.MaxPushDevices devices (the list is
// oldest first): a database written before the cap held may have more.
func newest(devices []store.PushDevice) []store.PushDevice {
	return devices[max(0, len(devices)-store.MaxPushDevices):]
}

// errGone is a push service saying the subscription no longer exists.
var errGone = errors.New("subscription gone")

// outcome is what one try of one device came to.
type outcome int

const (
	delivered outcome = iota
	gone              // 404 or 410: the browser dropped the subscription
	busy              // 429 or 5xx: the push service itself asks for a retry
	failed            // anything else: not retried
	refused           // the address dialled was not public
)

// send tries one device once and schedules the next try only when the
// push service answered that it was busy.
func (s *Sender) send(ctx context.Context, d delivery) {
	if err := s.cfg.Policy.CheckEndpoint(d.device.Endpoint); err != nil {
		// Stored before the policy held, or the policy has changed:
		// never sent to, so forgotten.
		s.sent.WithLabelValues("refused").Inc()
		s.log.Warn("push: endpoint not allowed, subscription removed", "guest", d.guestID, "err", err)
		s.forget(ctx, d)
		return
	}
	tctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	res, retryAfter, err := s.post(tctx, d)
	cancel()
	switch {
	case res == delivered:
		s.sent.WithLabelValues("delivered").Inc()
	case res == gone:
		s.sent.WithLabelValues("gone").Inc()
		s.forget(ctx, d)
	case res == refused:
		s.sent.WithLabelValues("refused").Inc()
		s.log.Warn("push: not sent", "guest", d.guestID, "host", hostOf(d.device.Endpoint), "err", err)
	case res == failed || d.attempt+1 >= s.cfg.Attempts:
		s.sent.WithLabelValues("failed").Inc()
		s.log.Warn("push: not delivered", "guest", d.guestID, "host", hostOf(d.device.Endpoint), "attempts", d.attempt+1, "err", err)
	default:
		s.sent.WithLabelValues("retried").Inc()
		d.attempt++
		wait := max(retryAfter, s.backoff(d.attempt))
		s.pending.Add(1)
		time.AfterFunc(wait, func() {
			if ctx.Err() == nil {
				s.enqueue(d)
			}
			s.pending.Add(-1)
		})
	}
}

func (s *Sender) forget(ctx context.Context, d delivery) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if err := s.st.DeletePushDevice(ctx, d.guestID, d.device.ID()); err != nil {
		s.log.Warn("push: remove subscription", "guest", d.guestID, "err", err)
	}
}

// hostOf names an endpoint in logs: the rest of its URL is a capability.
func hostOf(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return u.Host
}

// backoff is the wait before the attempt-th retry: doubled each time,
// capped, jittered to 50–100% so a push service that failed many sends at
// once does not get them back all at once.
func (s *Sender) backoff(attempt int) time.Duration {
	w := s.cfg.RetryBase << (attempt - 1)
	if w <= 0 || w > s.cfg.RetryMax {
		w = s.cfg.RetryMax
	}
	return w/2 + rand.N(w/2+1)
}

// post sends the encrypted notification. Only an answer from the push
// service may lead to a retry: an address refused, a connection that
// failed or a request that timed out is not tried again, so the sender
// cannot be made to knock on a port over and over.
func (s *Sender) post(ctx context.Context, d delivery) (res outcome, retryAfter time.Duration, err error) {
	// The library appends its padding to the payload it is given, and
	// one payload is shared by every device of a notification: clipped,
	// the append copies instead of writing into another sender's bytes.
	resp, err := webpush.SendNotificationWithContext(ctx, slices.Clip(d.payload), &webpush.Subscription{
		Endpoint: d.device.Endpoint,
		Keys:     webpush.Keys{P256dh: d.device.P256dh, Auth: d.device.Auth},
	}, &webpush.Options{
		HTTPClient:      s.client,
		Subscriber:      s.cfg.Contact,
		VAPIDPublicKey:  s.cfg.Keys.Public,
		VAPIDPrivateKey: s.cfg.Keys.Private,
		TTL:             int(s.cfg.TTL.Seconds()),
		Urgency:         webpush.UrgencyHigh,
	})
	if err != nil {
		// The error may name the endpoint, which is a capability: keep it
		// out of the logs.
		if errors.Is(err, ErrInside) {
			return refused, 0, ErrInside
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return failed, 0, fmt.Errorf("push service did not answer within %s", s.cfg.Timeout)
		}
		return failed, 0, errors.New("push service unreachable")
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return delivered, 0, nil
	case c == http.StatusNotFound || c == http.StatusGone:
		return gone, 0, errGone
	case c == http.StatusTooManyRequests || c >= 500:
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return busy, min(time.Duration(max(secs, 0))*time.Second, s.cfg.RetryMax), fmt.Errorf("push service answered %d", c)
	case c >= 300 && c < 400:
		return failed, 0, fmt.Errorf("push service redirected (%d); redirects are not followed", c)
	default:
		return failed, 0, fmt.Errorf("push service refused the notification: %d", c)
	}
}
