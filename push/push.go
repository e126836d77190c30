// Package push sends Web Push notifications (RFC 8030) to the browsers
// guests allowed to show them: "your drink is ready" reaches a phone in a
// pocket. Payloads are encrypted (RFC 8291) and signed (RFC 8292) by
// github.com/SherClockHolmes/webpush-go; this package decides what to
// send, to whom, and keeps the sending off the request path: a bounded
// queue, a few workers, retries with backoff, and subscriptions a push
// service calls gone (404, 410) removed.
package push

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/api/store"
)

// Store is where the sender finds and forgets subscriptions.
type Store interface {
	PushDevices(ctx context.Context, guestID string) ([]store.PushDevice, error)
	EachPushGuest(ctx context.Context, fn func(guestID string, devices []store.PushDevice)) error
	DeletePushDevice(ctx context.Context, guestID, deviceID string) error
}

// Notification is what the service worker shows. It is the payload, as
// JSON, encrypted for each device.
type Notification struct {
	// Kind is the live event that caused it: order.ready,
	// order.cancelled, announcement, recommendation.ready.
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// URL is the page a tap opens.
	URL string `json:"url"`
	// Tag makes a newer notification about the same thing replace the
	// older one on the device.
	Tag     string `json:"tag,omitempty"`
	OrderID string `json:"orderId,omitempty"`
}

// Config tunes the sender. Zero fields take the defaults noted.
type Config struct {
	// Keys is the VAPID key pair (store.VAPIDKeys).
	Keys store.VAPIDKeys
	// Contact is the "sub" of the VAPID token: an https URL or an e-mail
	// address a push service can reach the operator at.
	Contact string
	// Workers send in parallel (default 4).
	Workers int
	// Queue bounds the notifications waiting to be sent (default 8192);
	// when it is full a new one is dropped and counted, never waited for.
	Queue int
	// Attempts is how often one device is tried (default 5).
	Attempts int
	// RetryBase is the first wait before a retry, doubled each time up to
	// RetryMax (defaults 1s and 1m).
	RetryBase, RetryMax time.Duration
	// TTL is how long a push service keeps a notification for a phone
	// that is off (default 30m: a drink ready an hour ago is not news).
	TTL time.Duration
	// Client sends to the push services (default: 10 s timeout).
	Client *http.Client
}

// Sender delivers notifications in the background.
type Sender struct {
	cfg Config
	st  Store
	log *slog.Logger
	q   chan delivery
	// pending counts deliveries queued, being handled or waiting for a
	// retry, so a test can tell when everything has been tried.
	pending atomic.Int64

	sent *prometheus.CounterVec
}

// delivery is one queued step: every device of a guest, every guest, or
// one device (a retry).
type delivery struct {
	guestID  string
	everyone bool
	device   *store.PushDevice
	payload  []byte
	attempt  int
}

// New returns a sender; Run starts it.
func New(st Store, cfg Config, logger *slog.Logger, reg prometheus.Registerer) *Sender {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 8192
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
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if logger == nil {
		logger = slog.Default()
	}
	s := &Sender{cfg: cfg, st: st, log: logger, q: make(chan delivery, cfg.Queue),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "barhub_push_notifications_total",
			Help: "Web Push notifications by outcome: delivered, gone (subscription removed), retried, failed, dropped (queue full).",
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
				select {
				case <-ctx.Done():
					return
				case d := <-s.q:
					s.handle(ctx, d)
					s.pending.Add(-1)
				}
			}
		})
	}
	wg.Wait()
}

// Notify queues n for every device of guest guestID. It never waits.
func (s *Sender) Notify(guestID string, n Notification) {
	s.enqueue(delivery{guestID: guestID, payload: mustJSON(n)})
}

// NotifyEveryone queues n for every subscribed device.
func (s *Sender) NotifyEveryone(n Notification) {
	s.enqueue(delivery{everyone: true, payload: mustJSON(n)})
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

func (s *Sender) enqueue(d delivery) {
	s.pending.Add(1)
	select {
	case s.q <- d:
	default:
		s.pending.Add(-1)
		s.sent.WithLabelValues("dropped").Inc()
		s.log.Warn("push queue full: notification dropped", "guest", d.guestID)
	}
}

func (s *Sender) handle(ctx context.Context, d delivery) {
	switch {
	case d.device != nil:
		s.send(ctx, d)
	case d.everyone:
		err := s.st.EachPushGuest(ctx, func(guestID string, devices []store.PushDevice) {
			for _, dev := range devices {
				s.enqueue(delivery{guestID: guestID, device: &dev, payload: d.payload})
			}
		})
		if err != nil {
			s.log.Warn("push to everyone: list devices", "err", err)
		}
	default:
		devices, err := s.st.PushDevices(ctx, d.guestID)
		if err != nil {
			s.log.Warn("push: list devices", "guest", d.guestID, "err", err)
			return
		}
		for _, dev := range devices {
			s.send(ctx, delivery{guestID: d.guestID, device: &dev, payload: d.payload})
		}
	}
}

// errGone is a push service saying the subscription no longer exists.
var errGone = errors.New("subscription gone")

// send tries one device once and schedules the next try when the push
// service was unreachable or busy.
func (s *Sender) send(ctx context.Context, d delivery) {
	retryAfter, err := s.post(ctx, d)
	switch {
	case err == nil:
		s.sent.WithLabelValues("delivered").Inc()
	case errors.Is(err, errGone):
		s.sent.WithLabelValues("gone").Inc()
		if err := s.st.DeletePushDevice(ctx, d.guestID, d.device.ID()); err != nil {
			s.log.Warn("push: remove gone subscription", "guest", d.guestID, "err", err)
		}
	case retryAfter < 0 || d.attempt+1 >= s.cfg.Attempts:
		s.sent.WithLabelValues("failed").Inc()
		s.log.Warn("push: not delivered", "guest", d.guestID, "attempts", d.attempt+1, "err", err)
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

// post sends the encrypted notification. A negative retryAfter means
// trying again will not help.
func (s *Sender) post(ctx context.Context, d delivery) (retryAfter time.Duration, err error) {
	resp, err := webpush.SendNotificationWithContext(ctx, d.payload, &webpush.Subscription{
		Endpoint: d.device.Endpoint,
		Keys:     webpush.Keys{P256dh: d.device.P256dh, Auth: d.device.Auth},
	}, &webpush.Options{
		HTTPClient:      s.cfg.Client,
		Subscriber:      s.cfg.Contact,
		VAPIDPublicKey:  s.cfg.Keys.Public,
		VAPIDPrivateKey: s.cfg.Keys.Private,
		TTL:             int(s.cfg.TTL.Seconds()),
		Urgency:         webpush.UrgencyHigh,
	})
	if err != nil {
		// The error may name the endpoint, which is a capability: keep it
		// out of the logs.
		return 0, errors.New("push service unreachable")
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return 0, nil
	case c == http.StatusNotFound || c == http.StatusGone:
		return 0, errGone
	case c == http.StatusTooManyRequests || c >= 500:
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return min(time.Duration(secs)*time.Second, s.cfg.RetryMax), fmt.Errorf("push service answered %d", c)
	default:
		return -1, fmt.Errorf("push service refused the notification: %d", c)
	}
}
