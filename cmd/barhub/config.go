package main

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/alert"
	"github.com/barhub/barhub/api/publicurl"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/store/embedded"
)

// config is every setting, from flags with environment variables as
// defaults. The README's configuration table lists the same names.
type config struct {
	Addr        string
	DataDir     string
	MongoURI    string
	Database    string
	DBSync      string
	Images      string
	RedisURL    string
	RedisPrefix string
	PublicURL   string
	// PublicURLSet is false when PublicURL is the default, http://<addr>:
	// serve then uses the address it actually listens on (port 0 included).
	PublicURLSet bool
	PushContact  string
	// PublicMenu makes /menu readable without signing in until the host's
	// switch on the admin page says otherwise (docs/MENU.md).
	PublicMenu bool
	// PushHosts are push services' hosts accepted beside the known ones.
	PushHosts []string
	// LANAddrs are the addresses phones reach this machine at, when given
	// (a container's host, say); empty means this machine's own, found at
	// start (publicurl.LANAddrs).
	LANAddrs       []netip.Addr
	AllowedOrigins []string
	TrustedProxies []netip.Prefix
	TokenTTL       time.Duration
	TicketTTL      time.Duration
	LoginFailures  int
	LoginWindow    time.Duration
	MaxBodyBytes   int64
	BodyTimeout    time.Duration
	RateBrowse     float64
	RateOrders     float64
	RateDietary    float64
	// RateRegister and RegistrationWork guard the public registration
	// page: registrations per second per address, and the proof of work's
	// zero bits (docs/REGISTRATION.md).
	RateRegister     float64
	RegistrationWork int
	MaxOpenOrders    int
	DrinksPerHour    float64
	AWSRegion        string
	BedrockModel     string
	BedrockURL       string
	// ImageModel pictures drinks with Bedrock ("off": barhub's drawings
	// only); ImageWidth × ImageHeight and ImageQuality are the pictures'.
	ImageModel   string
	ImageWidth   int
	ImageHeight  int
	ImageQuality string
	// AIModelSlots bounds the guests' recommendation calls in flight to
	// the model (ai.Config.ModelSlots).
	AIModelSlots int
	LogLevel     string
	LogFormat    string
	HubHistory   int
	// HubHistoryMB bounds the in-process broker's history of all topics
	// together (hub.NewMemoryBrokerSize).
	HubHistoryMB int
	// Per-client limits of the live connection (docs/PROTOCOL.md).
	SocketsPerGuest    int
	ReplaysPerMinute   int
	WSTicketsPerMinute int
	// What one person may be sent in replays a minute, over all their
	// sockets on an instance.
	ReplayMessagesPerMinute int
	ReplayBytesPerMinute    int
	ShutdownGrace           time.Duration
	NoWorker                bool
	// Who reads /metrics: a port of its own, or a bearer token on the
	// guests' port; with neither, nobody.
	MetricsAddr  string
	MetricsToken string
	// Alerts (alerts.go): a webhook, e-mail through SMTP, or both.
	AlertWebhook string
	AlertFormat  string
	AlertEvery   time.Duration
	AlertEmail   string
	// E-mail (mail.go): the SMTP server's URL holds its password, so it
	// is never a flag's printed default.
	SMTPURL    string
	MailFrom   string
	SMTPCAFile string
	MailRate   float64
}

// pushPolicy is where Web Push may go: the known push services and the
// listed hosts, at public addresses only. The API checks subscriptions
// and the sender checks every send with the same policy.
func (c *config) pushPolicy() push.Policy {
	return push.Policy{Hosts: c.PushHosts}
}

// envDefault reads name from getenv, falling back to def.
type envDefault struct {
	getenv func(string) string
	errs   []error
}

func (e *envDefault) str(name, def string) string {
	if v := e.getenv(name); v != "" {
		return v
	}
	return def
}

func (e *envDefault) dur(name string, def time.Duration) time.Duration {
	v := e.getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %q is not a duration like 30s or 12h", name, v))
		return def
	}
	return d
}

func (e *envDefault) num(name string, def float64) float64 {
	v := e.getenv(name)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %q is not a number", name, v))
		return def
	}
	return f
}

func (e *envDefault) boolean(name string, def bool) bool {
	v := e.getenv(name)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s: %q is not true or false (1 or 0)", name, v))
		return def
	}
	return b
}

// serveFlags declares the flags of "serve" (and "worker"), reading the
// environment for defaults.
func serveFlags(fs *flag.FlagSet, getenv func(string) string) (*config, func() error) {
	e := &envDefault{getenv: getenv}
	c := &config{}
	var origins, proxies, pushHosts, imageSize string
	fs.StringVar(&c.Addr, "addr", e.str("BARHUB_ADDR", "127.0.0.1:8080"), "listen address `host:port` (BARHUB_ADDR)")
	fs.StringVar(&c.DataDir, "data", e.str("BARHUB_DATA", "data"), "data `dir` for the embedded database and images (BARHUB_DATA)")
	fs.StringVar(&c.MongoURI, "mongodb-uri", e.str("MONGODB_URI", ""), "MongoDB `uri`; empty runs the embedded database (MONGODB_URI)")
	fs.StringVar(&c.Database, "database", e.str("BARHUB_DATABASE", "barhub"), "database `name` (BARHUB_DATABASE)")
	fs.StringVar(&c.DBSync, "db-sync", e.str("BARHUB_DB_SYNC", "full"), "embedded database durability: full (every write on disk before it is acknowledged) or normal (faster; a power cut may lose the last moments) (BARHUB_DB_SYNC)")
	fs.StringVar(&c.Images, "images", e.str("BARHUB_IMAGES", "auto"), "where drink photos are kept: disk (under --data), database, or auto: database with MONGODB_URI, so every instance serves every photo, else disk (BARHUB_IMAGES)")
	fs.StringVar(&c.RedisURL, "redis-url", e.str("REDIS_URL", ""), "Redis `url` for the multi-instance backplane; empty uses the in-process broker (REDIS_URL)")
	fs.StringVar(&c.RedisPrefix, "redis-prefix", e.str("BARHUB_REDIS_PREFIX", "barhub"), "prefix of every Redis key and channel (BARHUB_REDIS_PREFIX)")
	fs.StringVar(&c.PublicURL, "public-url", e.str("BARHUB_PUBLIC_URL", ""), "`url` guests use, for invitation links (BARHUB_PUBLIC_URL; default http://<addr>)")
	fs.BoolVar(&c.PublicMenu, "public-menu", e.boolean("BARHUB_PUBLIC_MENU", false), "show the drink menu at /menu to anyone, without signing in; the host's switch on the admin page changes it live and wins from then on (BARHUB_PUBLIC_MENU)")
	fs.StringVar(&c.PushContact, "push-contact", e.str("BARHUB_PUSH_CONTACT", ""), "`e-mail or https URL` push services can reach the host at, sent with every Web Push (BARHUB_PUSH_CONTACT; default the public URL when it is https)")
	fs.StringVar(&pushHosts, "push-hosts", e.str("BARHUB_PUSH_HOSTS", ""), "comma-separated extra `hosts` of push services subscriptions may name, beside Google's, Mozilla's, Apple's and Microsoft's: name, *.domain, either with :port (BARHUB_PUSH_HOSTS)")
	var lanAddrs string
	fs.StringVar(&lanAddrs, "lan-addrs", e.str("BARHUB_LAN_ADDRS", ""), "comma-separated `addresses` phones reach this machine at, when not its own network addresses (a container's host) (BARHUB_LAN_ADDRS)")
	fs.StringVar(&proxies, "trusted-proxies", e.str("BARHUB_TRUSTED_PROXIES", ""), "comma-separated `CIDRs` of load balancers whose X-Forwarded-For is believed (BARHUB_TRUSTED_PROXIES)")
	fs.StringVar(&origins, "allowed-origins", e.str("BARHUB_ALLOWED_ORIGINS", ""), "comma-separated extra `origins` allowed to open WebSockets (BARHUB_ALLOWED_ORIGINS)")
	fs.DurationVar(&c.TokenTTL, "token-ttl", e.dur("BARHUB_TOKEN_TTL", 12*time.Hour), "sign-in token lifetime (BARHUB_TOKEN_TTL)")
	fs.DurationVar(&c.TicketTTL, "ticket-ttl", e.dur("BARHUB_TICKET_TTL", 30*time.Second), "WebSocket ticket lifetime (BARHUB_TICKET_TTL)")
	fs.IntVar(&c.LoginFailures, "login-failures", int(e.num("BARHUB_LOGIN_FAILURES", 20)), "failed sign-ins of one code per window before it is locked; a quarter of them from one address locks it for that address, three times as many from one address slow it down (BARHUB_LOGIN_FAILURES)")
	fs.DurationVar(&c.LoginWindow, "login-window", e.dur("BARHUB_LOGIN_WINDOW", 15*time.Minute), "window of the sign-in throttle (BARHUB_LOGIN_WINDOW)")
	fs.Int64Var(&c.MaxBodyBytes, "max-body", int64(e.num("BARHUB_MAX_BODY", 1<<20)), "largest request body in `bytes` (BARHUB_MAX_BODY)")
	fs.DurationVar(&c.BodyTimeout, "body-timeout", e.dur("BARHUB_BODY_TIMEOUT", 10*time.Second), "time a request body may take to arrive after its headers, plus a second per 100 KB it declares; a slower one is cut (BARHUB_BODY_TIMEOUT)")
	fs.Float64Var(&c.RateBrowse, "rate-browse", e.num("BARHUB_RATE_BROWSE", 100), "menu reads per second per client (BARHUB_RATE_BROWSE)")
	fs.Float64Var(&c.RateOrders, "rate-orders", e.num("BARHUB_RATE_ORDERS", 50), "order requests per second per client (BARHUB_RATE_ORDERS)")
	fs.Float64Var(&c.RateDietary, "rate-dietary", e.num("BARHUB_RATE_DIETARY", 2), "previews of dietary words (the RSVP form's \"we read\") per second per guest (BARHUB_RATE_DIETARY)")
	fs.Float64Var(&c.RateRegister, "rate-register", e.num("BARHUB_RATE_REGISTER", 0.1), "registrations on the public /join page per second per address: 0.1 is one every ten seconds (BARHUB_RATE_REGISTER)")
	fs.IntVar(&c.RegistrationWork, "registration-work", int(e.num("BARHUB_REGISTRATION_WORK", 14)), "zero bits of the /join page's proof of work: each one doubles a phone's work, 14 is up to a second (BARHUB_REGISTRATION_WORK)")
	fs.IntVar(&c.MaxOpenOrders, "max-open-orders", int(e.num("BARHUB_MAX_OPEN_ORDERS", 3)), "orders a guest may have waiting at the bar at once (BARHUB_MAX_OPEN_ORDERS)")
	fs.Float64Var(&c.DrinksPerHour, "drinks-per-hour", e.num("BARHUB_DRINKS_PER_HOUR", 0), "standard drinks a guest may order per hour; 0 leaves pacing off (BARHUB_DRINKS_PER_HOUR)")
	fs.StringVar(&c.AWSRegion, "aws-region", e.str("AWS_REGION", ""), "AWS `region` for Bedrock; empty uses the local recommender (AWS_REGION)")
	fs.StringVar(&c.BedrockModel, "bedrock-model", e.str("BARHUB_BEDROCK_MODEL", "amazon.nova-pro-v1:0"), "Bedrock model `id` (BARHUB_BEDROCK_MODEL)")
	fs.StringVar(&c.BedrockURL, "bedrock-endpoint", e.str("BARHUB_BEDROCK_ENDPOINT", ""), "Bedrock runtime endpoint `url` override (BARHUB_BEDROCK_ENDPOINT)")
	fs.StringVar(&c.ImageModel, "image-model", e.str("BARHUB_IMAGE_MODEL", "amazon.nova-canvas-v1:0"), "Bedrock image model `id` that pictures drinks from their image prompts, with AWS_REGION; off leaves every drink without a photo to barhub's drawing (BARHUB_IMAGE_MODEL)")
	fs.StringVar(&imageSize, "image-size", e.str("BARHUB_IMAGE_SIZE", "1024x768"), "`WxH` in pixels of a generated picture: multiples of 16 from 320 to 4096, at most 4,194,304 pixels (BARHUB_IMAGE_SIZE)")
	fs.StringVar(&c.ImageQuality, "image-quality", e.str("BARHUB_IMAGE_QUALITY", "standard"), "standard or premium: the generated pictures' quality, premium costing more (BARHUB_IMAGE_QUALITY)")
	fs.IntVar(&c.AIModelSlots, "ai-model-slots", int(e.num("BARHUB_AI_MODEL_SLOTS", ai.DefaultModelSlots)), "guests' recommendation calls in flight to the model at once, shared by every event; a guest who finds them all busy for half a second gets the house recommender's picks at once (BARHUB_AI_MODEL_SLOTS)")
	fs.StringVar(&c.LogLevel, "log-level", e.str("BARHUB_LOG_LEVEL", "info"), "debug, info, warn or error (BARHUB_LOG_LEVEL)")
	fs.StringVar(&c.LogFormat, "log-format", e.str("BARHUB_LOG_FORMAT", "text"), "text or json (BARHUB_LOG_FORMAT)")
	fs.IntVar(&c.HubHistory, "hub-history", int(e.num("BARHUB_HUB_HISTORY", 1000)), "events kept per topic for reconnecting clients (BARHUB_HUB_HISTORY)")
	fs.IntVar(&c.HubHistoryMB, "hub-history-mb", int(e.num("BARHUB_HUB_HISTORY_MB", hub.DefaultHistoryBytes>>20)), "megabytes of events kept for reconnecting clients in all topics together, the oldest going first, without Redis (BARHUB_HUB_HISTORY_MB)")
	fs.IntVar(&c.SocketsPerGuest, "ws-sockets-per-guest", int(e.num("BARHUB_WS_SOCKETS_PER_GUEST", 8)), "live connections one person may hold open on an instance (BARHUB_WS_SOCKETS_PER_GUEST)")
	fs.IntVar(&c.ReplaysPerMinute, "ws-replays-per-minute", int(e.num("BARHUB_WS_REPLAYS_PER_MINUTE", 10)), "history replays (subscribe with since) one live connection may ask for per minute (BARHUB_WS_REPLAYS_PER_MINUTE)")
	fs.IntVar(&c.ReplayMessagesPerMinute, "ws-replay-messages-per-minute", int(e.num("BARHUB_WS_REPLAY_MESSAGES_PER_MINUTE", 5000)), "history events one person may be sent in replays per minute, over all their live connections on an instance; past it a replay is a resync (BARHUB_WS_REPLAY_MESSAGES_PER_MINUTE)")
	fs.IntVar(&c.ReplayBytesPerMinute, "ws-replay-bytes-per-minute", int(e.num("BARHUB_WS_REPLAY_BYTES_PER_MINUTE", 5<<20)), "`bytes` of history one person may be sent in replays per minute, over all their live connections on an instance; past it a replay is a resync (BARHUB_WS_REPLAY_BYTES_PER_MINUTE)")
	fs.IntVar(&c.WSTicketsPerMinute, "ws-tickets-per-minute", int(e.num("BARHUB_WS_TICKETS_PER_MINUTE", 30)), "live-connection tickets one person may take per minute (BARHUB_WS_TICKETS_PER_MINUTE)")
	fs.DurationVar(&c.ShutdownGrace, "shutdown-grace", e.dur("BARHUB_SHUTDOWN_GRACE", 15*time.Second), "time to drain requests on shutdown (BARHUB_SHUTDOWN_GRACE)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", e.str("BARHUB_METRICS_ADDR", ""), "serve /metrics on this `host:port` of its own, out of guests' reach; empty serves it nowhere but behind --metrics-token (BARHUB_METRICS_ADDR)")
	fs.StringVar(&c.MetricsToken, "metrics-token", e.str("BARHUB_METRICS_TOKEN", ""), "bearer `token` a scraper presents for /metrics on the guests' port; prefer the environment variable (BARHUB_METRICS_TOKEN)")
	fs.StringVar(&c.AlertWebhook, "alert-webhook", e.str("BARHUB_ALERT_WEBHOOK", ""), "`url` that receives alerts (dead jobs, repeated errors, a lost Redis); it is a secret: prefer the environment variable (BARHUB_ALERT_WEBHOOK)")
	fs.StringVar(&c.AlertFormat, "alert-format", e.str("BARHUB_ALERT_FORMAT", "slack"), "alert webhook body: slack ({\"text\":…}, also Mattermost and others) or json (BARHUB_ALERT_FORMAT)")
	fs.DurationVar(&c.AlertEvery, "alert-check-interval", e.dur("BARHUB_ALERT_CHECK_INTERVAL", 30*time.Second), "how often to look for dead jobs, repeated errors, a stuck database and a lost Redis (BARHUB_ALERT_CHECK_INTERVAL)")
	fs.StringVar(&c.AlertEmail, "alert-email", e.str("BARHUB_ALERT_EMAIL", ""), "e-mail `address` that receives alerts; needs --smtp-url and --mail-from (BARHUB_ALERT_EMAIL)")
	fs.StringVar(&c.SMTPURL, "smtp-url", "", "SMTP server `url` for invitations and reminders: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465; empty sends no e-mail (BARHUB_SMTP_URL)")
	fs.StringVar(&c.MailFrom, "mail-from", e.str("BARHUB_MAIL_FROM", ""), "sender `address` of e-mail, \"Name <party@example.com>\" (BARHUB_MAIL_FROM)")
	fs.StringVar(&c.SMTPCAFile, "smtp-ca-file", e.str("BARHUB_SMTP_CA_FILE", ""), "PEM `file` of the authority that signed the SMTP server's certificate, if not a public one (BARHUB_SMTP_CA_FILE)")
	fs.Float64Var(&c.MailRate, "mail-rate", e.num("BARHUB_MAIL_RATE", 5), "e-mails per second at most, per worker process (BARHUB_MAIL_RATE)")
	fs.BoolVar(&c.NoWorker, "no-worker", getenv("BARHUB_NO_WORKER") == "1", "do not run the AI job worker in this process (BARHUB_NO_WORKER=1)")
	return c, func() error {
		if len(e.errs) > 0 {
			return e.errs[0]
		}
		if c.SMTPURL == "" {
			c.SMTPURL = getenv("BARHUB_SMTP_URL")
		}
		if c.SMTPURL != "" && c.MailFrom == "" {
			return fmt.Errorf("--smtp-url needs --mail-from (BARHUB_MAIL_FROM), the address invitations come from")
		}
		if c.AIModelSlots <= 0 {
			return fmt.Errorf("BARHUB_AI_MODEL_SLOTS: %d is not a positive number of calls", c.AIModelSlots)
		}
		if c.MailRate <= 0 {
			return fmt.Errorf("BARHUB_MAIL_RATE: %g is not a positive rate", c.MailRate)
		}
		if c.AlertFormat != alert.FormatSlack && c.AlertFormat != alert.FormatJSON {
			return fmt.Errorf("BARHUB_ALERT_FORMAT: %q is not slack or json", c.AlertFormat)
		}
		if c.AlertEmail != "" && (c.SMTPURL == "" || c.MailFrom == "") {
			return errors.New("BARHUB_ALERT_EMAIL needs BARHUB_SMTP_URL and BARHUB_MAIL_FROM")
		}
		if !slices.Contains(embedded.SyncModes, c.DBSync) {
			return fmt.Errorf("BARHUB_DB_SYNC: %q is not full or normal", c.DBSync)
		}
		w, h, err := parseImageSize(imageSize)
		if err != nil {
			return fmt.Errorf("BARHUB_IMAGE_SIZE: %w", err)
		}
		c.ImageWidth, c.ImageHeight = w, h
		if c.ImageQuality != "standard" && c.ImageQuality != "premium" {
			return fmt.Errorf("BARHUB_IMAGE_QUALITY: %q is not standard or premium", c.ImageQuality)
		}
		switch c.Images {
		case "auto":
			c.Images = "disk"
			if c.MongoURI != "" {
				c.Images = "database"
			}
		case "disk", "database":
		default:
			return fmt.Errorf("BARHUB_IMAGES: %q is not disk, database or auto", c.Images)
		}
		for _, p := range strings.Split(proxies, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if !strings.Contains(p, "/") {
				if a, err := netip.ParseAddr(p); err == nil {
					p = netip.PrefixFrom(a, a.BitLen()).String()
				}
			}
			prefix, err := netip.ParsePrefix(p)
			if err != nil {
				return fmt.Errorf("BARHUB_TRUSTED_PROXIES: %q is not an address or CIDR like 10.0.0.0/8", p)
			}
			c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
		}
		for _, a := range strings.Split(lanAddrs, ",") {
			if a = strings.TrimSpace(a); a == "" {
				continue
			}
			addr, err := netip.ParseAddr(a)
			if err != nil {
				return fmt.Errorf("BARHUB_LAN_ADDRS: %q is not an address like 192.168.1.20", a)
			}
			c.LANAddrs = append(c.LANAddrs, addr)
		}
		for _, h := range strings.Split(pushHosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				c.PushHosts = append(c.PushHosts, h)
			}
		}
		if err := c.pushPolicy().Validate(); err != nil {
			return fmt.Errorf("BARHUB_PUSH_HOSTS: %w", err)
		}
		for _, o := range strings.Split(origins, ",") {
			if o = strings.TrimSpace(o); o != "" {
				c.AllowedOrigins = append(c.AllowedOrigins, o)
			}
		}
		c.PublicURLSet = c.PublicURL != ""
		if c.PublicURL == "" {
			c.PublicURL = "http://" + c.Addr
		}
		c.PublicURL = strings.TrimRight(c.PublicURL, "/")
		c.PushContact = strings.TrimPrefix(c.PushContact, "mailto:")
		if c.PushContact == "" {
			c.PushContact = "barhub@localhost"
			if strings.HasPrefix(c.PublicURL, "https://") {
				c.PushContact = c.PublicURL
			}
		}
		return nil
	}
}

// parseImageSize reads "1024x768" as Nova Canvas takes sizes: each side a
// multiple of 16 from 320 to 4096, at most 4,194,304 pixels in all.
func parseImageSize(s string) (w, h int, err error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if ok {
		w, err = strconv.Atoi(ws)
		if err == nil {
			h, err = strconv.Atoi(hs)
		}
	}
	switch {
	case !ok || err != nil:
		return 0, 0, fmt.Errorf("%q is not a size like 1024x768", s)
	case w%16 != 0 || h%16 != 0 || w < 320 || h < 320 || w > 4096 || h > 4096:
		return 0, 0, fmt.Errorf("%q: each side must be a multiple of 16 from 320 to 4096", s)
	case w*h > 4194304:
		return 0, 0, fmt.Errorf("%q is more than 4,194,304 pixels", s)
	}
	return w, h, nil
}

// lanAddrs are the addresses phones reach this machine at: the ones
// configured, else this machine's own network addresses.
func (c *config) lanAddrs() []netip.Addr {
	if len(c.LANAddrs) > 0 {
		return c.LANAddrs
	}
	return publicurl.LANAddrs()
}
