// Package mail sends e-mail through an SMTP server: invitations and
// reminders to guests, alerts to operators. It knows nothing about
// barhub's domain; callers build a Message and Send it.
//
// A server is configured by one URL, smtp://user:pass@host:port (STARTTLS,
// port 587 by default) or smtps://user:pass@host:port (TLS from the first
// byte, port 465 by default). The password is never printed: Settings'
// String and Redacted show it as "xxxxx".
package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	netmail "net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Settings say how to reach an SMTP server.
type Settings struct {
	Host     string
	Port     int
	Username string
	Password string
	// ImplicitTLS is smtps: TLS from the first byte. Otherwise the
	// connection is upgraded with STARTTLS, which TLS decides is required.
	ImplicitTLS bool
	// TLS is "required" (default: refuse a server that does not offer
	// STARTTLS), "opportunistic" (use it when offered) or "none" (a relay
	// on the same machine). Set with ?tls= on the URL.
	TLS string
}

// TLS policies of the smtp scheme.
const (
	TLSRequired      = "required"
	TLSOpportunistic = "opportunistic"
	TLSNone          = "none"
)

// ParseURL reads smtp[s]://[user[:pass]@]host[:port][?tls=required|opportunistic|none].
// Errors never repeat the password.
func ParseURL(raw string) (Settings, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the URL, password and all.
		return Settings{}, errors.New("smtp url: not a URL; expected smtp://user:pass@host:port or smtps://…")
	}
	var s Settings
	switch u.Scheme {
	case "smtp":
		s.Port = 587
	case "smtps":
		s.Port, s.ImplicitTLS = 465, true
	default:
		return Settings{}, fmt.Errorf("smtp url: scheme %q: expected smtp or smtps", u.Scheme)
	}
	s.Host = u.Hostname()
	if s.Host == "" {
		return Settings{}, errors.New("smtp url: no host")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Settings{}, fmt.Errorf("smtp url: port %q is not a port number", p)
		}
		s.Port = n
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	s.TLS = TLSRequired
	if v := u.Query().Get("tls"); v != "" {
		switch v {
		case TLSRequired, TLSOpportunistic, TLSNone:
			s.TLS = v
		default:
			return Settings{}, fmt.Errorf("smtp url: tls=%q: expected required, opportunistic or none", v)
		}
	}
	if s.ImplicitTLS && s.TLS != TLSRequired {
		return Settings{}, errors.New("smtp url: smtps is always TLS; tls= applies to smtp only")
	}
	return s, nil
}

// Redacted is the URL with the password hidden, for logs.
func (s Settings) Redacted() string {
	u := url.URL{Scheme: "smtp", Host: net.JoinHostPort(s.Host, strconv.Itoa(s.Port))}
	if s.ImplicitTLS {
		u.Scheme = "smtps"
	}
	if s.Username != "" {
		if s.Password != "" {
			u.User = url.UserPassword(s.Username, "xxxxx")
		} else {
			u.User = url.User(s.Username)
		}
	}
	if s.TLS != "" && s.TLS != TLSRequired {
		u.RawQuery = "tls=" + s.TLS
	}
	return u.String()
}

// String is Redacted, so a Settings printed by mistake shows no password.
func (s Settings) String() string { return s.Redacted() }

// Config is a Sender's whole configuration.
type Config struct {
	Settings Settings
	// From is the sender, "Name <addr@example.com>" or a bare address.
	From string
	// Timeout bounds connecting and each command (default 30s).
	Timeout time.Duration
	// RootCAs are the authorities trusted for the server's certificate;
	// nil trusts the system's.
	RootCAs *x509.CertPool
	// HELO is the name given in EHLO (default: this machine's name).
	HELO string
}

// LoadRootCAs reads PEM certificates from file, for a server whose
// certificate a private authority signed.
func LoadRootCAs(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("smtp ca file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("smtp ca file %s: no PEM certificate in it", file)
	}
	return pool, nil
}

// Attachment is a file carried by a message. With ContentID set it is
// inline (an image the HTML part shows as cid:ContentID).
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
	ContentID   string
}

// Message is one e-mail to one recipient.
type Message struct {
	To string
	// ToName is the recipient's display name, any text: it is quoted or
	// encoded in the header as it needs.
	ToName  string
	Subject string
	// Text is the plain-text part; every message has one.
	Text string
	// HTML is the alternative HTML part, if any.
	HTML        string
	Attachments []Attachment
	// Headers are extra headers (for example Auto-Submitted).
	Headers map[string]string
}

// Sender sends messages. It is safe for concurrent use: each Send opens
// its own connection.
type Sender struct {
	cfg  Config
	from *netmail.Address
}

// NewSender checks cfg and returns a Sender. It does not connect.
func NewSender(cfg Config) (*Sender, error) {
	if cfg.Settings.Host == "" {
		return nil, errors.New("mail: no SMTP server configured")
	}
	if cfg.From == "" {
		return nil, errors.New("mail: no sender address (--mail-from)")
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: sender address %q: %w", cfg.From, err)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &Sender{cfg: cfg, from: from}, nil
}

// From is the sender's address.
func (s *Sender) From() string { return s.from.String() }

// Settings are the server settings the sender uses.
func (s *Sender) Settings() Settings { return s.cfg.Settings }

// ErrInvalidAddress is wrapped by Send when the recipient cannot be an
// address: retrying will not help.
var ErrInvalidAddress = errors.New("invalid recipient address")

// ValidAddress reports whether addr is one e-mail address (no name part).
func ValidAddress(addr string) bool {
	a, err := netmail.ParseAddress(addr)
	return err == nil && a.Address == addr && a.Name == ""
}

// Send delivers m to the server. An error wrapping ErrInvalidAddress is
// permanent; any other (a refusal, a dropped connection, a timeout) may
// succeed when tried again later.
func (s *Sender) Send(ctx context.Context, m Message) error {
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send mail via %s:%d: %w", s.cfg.Settings.Host, s.cfg.Settings.Port, scrub(err, s.cfg.Settings.Password))
	}
	return nil
}

// Render writes m as the RFC 5322 message Send would deliver, for tests
// and previews.
func (s *Sender) Render(w io.Writer, m Message) error {
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	_, err = msg.WriteTo(w)
	return err
}

func (s *Sender) build(m Message) (*gomail.Msg, error) {
	if !ValidAddress(m.To) {
		return nil, fmt.Errorf("mail to %q: %w", m.To, ErrInvalidAddress)
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	// The display name is whatever the guest is called: Anna "Nan"
	// O'Brien, or a name with angle brackets. Formatting it into
	// "Name <addr>" text and parsing that back (AddToFormat) fails on the
	// quotes, and the invitation is never sent; net/mail's Address
	// quotes or encodes any name as RFC 5322 and 2047 ask when it is
	// written.
	msg.ToMailAddress(&netmail.Address{Name: m.ToName, Address: m.To})
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageID()
	for k, v := range m.Headers {
		msg.SetGenHeader(gomail.Header(k), v)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		opts := []gomail.FileOption{gomail.WithFileContentType(gomail.ContentType(a.ContentType))}
		r := strings.NewReader(string(a.Data))
		if a.ContentID != "" {
			opts = append(opts, gomail.WithFileContentID(a.ContentID))
			msg.EmbedReadSeeker(a.Name, r, opts...)
			continue
		}
		msg.AttachReadSeeker(a.Name, r, opts...)
	}
	return msg, nil
}

func (s *Sender) client() (*gomail.Client, error) {
	st := s.cfg.Settings
	tlsCfg := &tls.Config{ServerName: st.Host, MinVersion: tls.VersionTLS12, RootCAs: s.cfg.RootCAs}
	opts := []gomail.Option{
		gomail.WithPort(st.Port),
		gomail.WithTimeout(s.cfg.Timeout),
		gomail.WithTLSConfig(tlsCfg),
	}
	if s.cfg.HELO != "" {
		opts = append(opts, gomail.WithHELO(s.cfg.HELO))
	}
	switch {
	case st.ImplicitTLS:
		opts = append(opts, gomail.WithSSL())
	case st.TLS == TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case st.TLS == TLSOpportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if st.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(st.Username), gomail.WithPassword(st.Password))
	}
	c, err := gomail.NewClient(st.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mail client: %w", scrub(err, st.Password))
	}
	return c, nil
}

// scrub keeps a password out of an error that might quote it.
func scrub(err error, password string) error {
	if err == nil || password == "" || !strings.Contains(err.Error(), password) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), password, "xxxxx"))
}
