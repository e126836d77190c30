// Package api is barhub's HTTP API: routing, the policy enforcement point
// (who may call what), request decoding and the JSON error contract. The
// domain lives in guest, menu and order; the data in store.
package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/api/ratelimit"
	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store"
)

// Publisher sends a live event to a hub topic on every instance.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
	// PublishMany sends several, in one exchange with the broker.
	PublishMany(ctx context.Context, out []hub.Outgoing) error
}

// ActivityRecorder notes sign-ins and API use without making the request
// wait; it is best effort by design (docs/DESIGN.md, flow 4).
type ActivityRecorder interface {
	LoggedIn(guestID string, at time.Time)
	Accessed(guestID string, at time.Time)
}

// Pinger reports whether a dependency answers, for /readyz.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config holds the server's tunables.
type Config struct {
	// MaxBodyBytes bounds every request body (image uploads have their own).
	MaxBodyBytes int64
	// BodyTimeout is how long a request body may take to arrive after
	// the headers, plus a second per 100 KB it declares (default 10 s,
	// as long as the headers may take): see withBodyDeadline.
	BodyTimeout time.Duration
	// PublicURL is where guests reach barhub, for invitation links; the
	// host may pick another on the admin page (publicurl.go) unless
	// PublicURLSet says it was given with --public-url, which wins.
	PublicURL    string
	PublicURLSet bool
	// ListenAddr is where the server listens, and LANAddrs this machine's
	// network addresses: what the public URL is checked against.
	ListenAddr string
	LANAddrs   func() []netip.Addr
	// Version is reported by /healthz.
	Version string
	// TrustedProxies are the load balancers whose X-Forwarded-For is
	// believed; empty trusts nobody's.
	TrustedProxies []netip.Prefix
	// SignIn is the sign-in throttle's policy when Deps.Throttle is nil;
	// zero is auth.DefaultSignInPolicy(0, 0).
	SignIn auth.SignInPolicy
	// WSTicketsPerMinute caps the WebSocket tickets one signed-in person
	// may take per minute (default 30).
	WSTicketsPerMinute int
	// PushKey is the VAPID public key browsers subscribe to Web Push
	// with; empty turns the subscription routes off (docs/PUSH.md).
	PushKey string
	// PushPolicy says which endpoints a subscription may name; the zero
	// value is the known push services only. Give the sender the same.
	PushPolicy push.Policy
	// Metrics says who may read GET /metrics on this handler.
	Metrics MetricsAccess
	// PublicMenu is --public-menu: whether the menu is readable without
	// signing in until the host's switch says otherwise (publicmenu.go).
	PublicMenu bool
	// RegistrationWork is the zero bits the registration page's proof of
	// work asks for (default DefaultRegistrationWork; tests ask for few).
	RegistrationWork int
	// Now is the registrations' clock (offers and their expiry); nil is
	// time.Now. Tests move it instead of waiting hours.
	Now func() time.Time
}

// MetricsAccess guards GET /metrics on the guests' port. The zero value
// serves it to anyone, for tests and a handler mounted on a private port.
type MetricsAccess struct {
	// Off answers 404: the metrics are served on another address.
	Off bool
	// Token, when set, is the bearer token a scraper must present.
	Token string
}

// Deps is everything the server needs, passed in so tests can build one
// from real parts.
type Deps struct {
	Config  Config
	Logger  *slog.Logger
	Store   *store.Store
	Keys    *auth.Keys
	Tickets *auth.Tickets
	// Throttle limits failed sign-ins; nil builds one from Config.SignIn,
	// shared through Bar.Redis when set.
	Throttle *auth.SignInThrottle
	Publish  Publisher
	// Live serves GET /ws (the hub).
	Live http.Handler
	// Presence counts this instance's connected sockets per topic of the
	// event; nil reports none.
	Presence func() map[string]int
	// People counts the people connected to the event on every instance,
	// by role; nil reports none.
	People func() map[string]int
	// Activity records sign-ins and access; nil records nothing.
	Activity ActivityRecorder
	// Web serves the browser apps for every path the API does not own.
	Web http.Handler
	// Ready lists dependencies /readyz checks, by name.
	Ready map[string]Pinger
	// Registry receives the HTTP metrics and serves /metrics.
	Registry *prometheus.Registry
	// Bar configures the menu, orders and the bar queue (see bar.go).
	Bar BarConfig
	// OnDrinkCreated starts the image-prompt job for a new drink; nil does nothing.
	OnDrinkCreated func(ctx context.Context, drinkID string)
	// AI configures recommendations and the job queue view (see recommendations.go).
	AI AIConfig
	// Mail says whether invitations can be e-mailed (invitations_send.go).
	Mail MailConfig
	// DoorThrottle counts unknown codes at the door; nil allows 30 per
	// staff member and per address in 15 minutes (door.go).
	DoorThrottle *auth.Throttle
	// Sessions checks every signed-in request against its holder's current
	// state; share it with the hub's ticket redeemer. nil makes one.
	Sessions *auth.Sessions
	// SessionBus carries ended sessions to every instance (the hub); nil
	// keeps them to this instance, other instances seeing them when their
	// cache expires.
	SessionBus SessionBus
	// Locale translates error messages for Accept-Language; nil loads the
	// embedded catalogues.
	Locale *locale.Catalog
	// Maintenance runs the API's sweeps and repairs (maintain.go); nil
	// runs none.
	Maintenance Scheduler
	// PlaceOffered is the hook that tells a person on the waiting list
	// that a place is offered (e-mail, Web Push); nil tells no one, the
	// status page still shows it (docs/REGISTRATION.md).
	PlaceOffered app.OfferNotifier
	// Host tells the host's devices when a waiting-list offer is accepted
	// or expires (app.Host); nil tells no one.
	Host app.HostTeller
	// Event is the id of the event this API serves, "" for the
	// installation's first (docs/EVENTS.md); its tokens carry it.
	Event string
	// Control is the installation's database, which holds what every
	// event shares: the public app's key, the public URL and the
	// registration challenge's key (docs/EVENTS.md); nil is Store, as for
	// the first event, whose database it is.
	Control *store.Store
	// Events reaches the installation's other events: a request whose
	// token is another event's is served by that event's API. nil serves
	// this event alone.
	Events Events
}

// Server holds the dependencies the handlers use.
type Server struct {
	cfg      Config
	log      *slog.Logger
	store    *store.Store
	keys     *auth.Keys
	tickets  *auth.Tickets
	throttle *auth.SignInThrottle
	publish  Publisher
	live     http.Handler
	presence func() map[string]int
	people   func() map[string]int
	activity ActivityRecorder
	web      http.Handler
	ready    map[string]Pinger
	registry *prometheus.Registry
	metrics  *httpMetrics
	started  time.Time
	// auditMetrics count the audit log's writes (audit.go).
	auditMetrics *auditMetrics
	auditWriter  auditWriter
	// Menu, orders and the bar queue (see bar.go).
	bar            *barParts
	onDrinkCreated func(ctx context.Context, drinkID string)
	// The use cases of the menu, a guest's orders and the bar's queue.
	menu   *app.Menu
	orders *app.Orders
	queue  *app.Bar
	// The AI bartender (see recommendations.go).
	ai AIConfig

	// E-mail (invitations_send.go).
	mail MailConfig

	// The door's own throttle: its staff mistype codes more often than
	// guests do (door.go).
	doorThrottle *auth.Throttle

	// publicMenu caches the public menu's switch (publicmenu.go).
	publicMenu publicMenuCache

	// wsTickets caps WebSocket tickets per person (wsticket.go).
	wsTickets *wsTicketCap

	// Revocation: the holder's current state, and the word to the other
	// instances (sessions.go).
	sessions   *auth.Sessions
	sessionBus SessionBus

	// locale translates error messages (respond.go).
	locale *locale.Catalog

	// The guest side's use cases (guestside.go).
	guests guestSide

	// The registration page's proof of work (registration_challenge.go)
	// and the hook that tells of offered places.
	challenge    challenger
	placeOffered app.OfferNotifier
	host         app.HostTeller

	// The event served, the others, and the installation's database
	// (events.go).
	event   string
	events  Events
	control *store.Store
}

// New builds the API and returns its handler.
func New(d Deps) http.Handler {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Config.MaxBodyBytes <= 0 {
		d.Config.MaxBodyBytes = 1 << 20
	}
	if d.Config.BodyTimeout <= 0 {
		d.Config.BodyTimeout = 10 * time.Second
	}
	if d.Registry == nil {
		d.Registry = prometheus.NewRegistry()
	}
	if d.Throttle == nil {
		p := d.Config.SignIn
		if p.Window == 0 {
			p = auth.DefaultSignInPolicy(0, 0)
		}
		local := ratelimit.NewMemoryCounters()
		d.Throttle = auth.NewSignInThrottle(p, sharedCounters(d.Bar, local), local, d.Logger)
	}
	if d.Live == nil {
		d.Live = http.NotFoundHandler()
	}
	if d.Web == nil {
		d.Web = http.NotFoundHandler()
	}
	if d.Control == nil {
		d.Control = d.Store
	}
	if d.Locale == nil {
		c, err := locale.New()
		if err != nil {
			// The catalogues are compiled in: only a build defect gets here.
			panic(fmt.Sprintf("api: %v", err))
		}
		d.Locale = c
	}
	s := &Server{
		cfg:      d.Config,
		log:      d.Logger,
		store:    d.Store,
		keys:     d.Keys,
		tickets:  d.Tickets,
		throttle: d.Throttle,
		publish:  d.Publish,
		live:     d.Live,
		presence: d.Presence,
		people:   d.People,
		activity: d.Activity,
		web:      d.Web,
		ready:    d.Ready,
		registry: d.Registry,
		metrics:  newHTTPMetrics(d.Registry),
		started:  time.Now(),
		locale:   d.Locale,

		auditMetrics: newAuditMetrics(d.Registry),
	}
	s.bar, s.onDrinkCreated = newBarParts(d), d.OnDrinkCreated
	s.newServices(d)
	s.ai = d.AI
	s.mail = d.Mail
	s.doorThrottle = d.DoorThrottle
	s.wsTickets = newWSTicketCap(d.Config.WSTicketsPerMinute, d.Bar.Redis, s.bar.cfg.RedisPrefix)
	if s.doorThrottle == nil {
		s.doorThrottle = auth.NewThrottle(app.DoorFailures, app.DoorWindow)
	}
	s.placeOffered, s.host = d.PlaceOffered, d.Host
	s.event, s.events, s.control = d.Event, d.Events, d.Control
	s.guests = s.newGuestSide()
	s.sessions, s.sessionBus = d.Sessions, d.SessionBus
	if s.sessions == nil && d.Store != nil {
		s.sessions = auth.NewSessions(d.Store, auth.SessionsConfig{})
	}
	s.listenForEndedSessions()
	if d.Maintenance != nil {
		s.schedule(d.Maintenance)
	}
	return s.routes()
}
