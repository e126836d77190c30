package mail_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/mail/mailtest"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		raw      string
		want     mail.Settings
		redacted string
		err      string
	}{
		{raw: "smtp://apikey:SG.hunter2@smtp.sendgrid.net:587", want: mail.Settings{Host: "smtp.sendgrid.net", Port: 587, Username: "apikey", Password: "SG.hunter2", TLS: "required"}, redacted: "smtp://apikey:xxxxx@smtp.sendgrid.net:587"},
		{raw: "smtps://me%40example.com:p%40ss@smtp.gmail.com", want: mail.Settings{Host: "smtp.gmail.com", Port: 465, Username: "me@example.com", Password: "p@ss", ImplicitTLS: true, TLS: "required"}, redacted: "smtps://me%40example.com:xxxxx@smtp.gmail.com:465"},
		{raw: "smtp://localhost:1025?tls=none", want: mail.Settings{Host: "localhost", Port: 1025, TLS: "none"}, redacted: "smtp://localhost:1025?tls=none"},
		{raw: "smtp://[::1]:25?tls=opportunistic", want: mail.Settings{Host: "::1", Port: 25, TLS: "opportunistic"}, redacted: "smtp://[::1]:25?tls=opportunistic"},
		{raw: "http://host", err: "scheme"},
		{raw: "smtp://", err: "no host"},
		{raw: "smtp://u:pw@host:99999", err: "port"},
		{raw: "smtp://host?tls=maybe", err: "tls="},
		{raw: "smtps://host?tls=none", err: "smtps is always TLS"},
		{raw: "smtp://u:pw@host:%zz", err: "not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, err := mail.ParseURL(tt.raw)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to say %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "pw") {
					t.Fatalf("error repeats the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if got.Redacted() != tt.redacted || got.String() != tt.redacted {
				t.Fatalf("redacted %q, want %q", got.Redacted(), tt.redacted)
			}
		})
	}
}

func newSender(t *testing.T, srv *mailtest.Server, password string) *mail.Sender {
	t.Helper()
	st, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	if password != "" {
		st.Password = password
	}
	s, err := mail.NewSender(mail.Config{Settings: st, From: "Party <party@example.com>", RootCAs: srv.Pool, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSendThroughARealServer(t *testing.T) {
	srv := mailtest.Start(t)
	s := newSender(t, srv, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"
	err := s.Send(ctx, mail.Message{
		To: "ada@example.com", ToName: "Åda Åberg", Subject: "Välkommen – you are invited",
		Text:    "Open https://party.example/login?code=ABCD2345\n",
		HTML:    `<p><a href="https://party.example/login?code=ABCD2345">Open</a><img src="cid:qr"></p>`,
		Headers: map[string]string{"Auto-Submitted": "auto-generated"},
		Attachments: []mail.Attachment{
			{Name: "qr.png", ContentType: "image/png", Data: png, ContentID: "qr"},
			{Name: "invite.ics", ContentType: "text/calendar; method=PUBLISH", Data: []byte(ics)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(ctx, t, 1)[0]
	if !got.TLS || got.User != srv.User {
		t.Fatalf("message arrived without STARTTLS or AUTH: tls=%v user=%q", got.TLS, got.User)
	}
	if got.From != "party@example.com" || len(got.To) != 1 || got.To[0] != "ada@example.com" {
		t.Fatalf("envelope %q → %q", got.From, got.To)
	}
	p, err := mailtest.Parse(got.Data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject() != "Välkommen – you are invited" {
		t.Fatalf("subject %q", p.Subject())
	}
	if p.Header.Get("Auto-Submitted") != "auto-generated" {
		t.Fatalf("extra header lost: %v", p.Header)
	}
	text, ok := p.Part("text/plain")
	if !ok || !strings.Contains(string(text.Body), "https://party.example/login?code=ABCD2345") {
		t.Fatalf("text part %q", text.Body)
	}
	html, ok := p.Part("text/html")
	if !ok || !strings.Contains(string(html.Body), `cid:qr`) {
		t.Fatalf("html part %q", html.Body)
	}
	img, ok := p.Part("image/png")
	if !ok || !bytes.Equal(img.Body, png) || img.ContentID != "qr" {
		t.Fatalf("inline image: %+v", img)
	}
	cal, ok := p.Part("text/calendar")
	if !ok || string(cal.Body) != ics || cal.Filename != "invite.ics" || cal.Params["method"] != "PUBLISH" {
		t.Fatalf("calendar: %+v %q", cal, cal.Body)
	}
}

// TestDisplayNamesAreQuoted: whatever a guest is called, the invitation
// goes out through a real server with the name quoted (or encoded) in the
// To header, and a mail reader reads the same name and only the one
// address back. A name with quotes around angle brackets, or ending in a
// backslash, used to fail every attempt as an invalid address (and the
// invitation was dead-lettered); other quotes were dropped from the name.
func TestDisplayNamesAreQuoted(t *testing.T) {
	srv := mailtest.Start(t)
	s := newSender(t, srv, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	names := []string{
		`Anna "Nan" O'Brien`,
		`O'Brien "<x@evil.example>"`,
		`Ann "<x>"`,
		`back\`,
		`"`,
		`O'Brien <x@evil.example>`,
		`Bo, the "boss"; (host) <b@c> \ back`,
		`Åsa "Åsa" Öberg <å>`,
		`Conceição 🎉 "Ção"`,
		`Ada Lovelace`,
		`שלום "עולם"`,
		strings.TrimSpace(strings.Repeat(`"Long" name `, 10)),
	}
	for i, name := range names {
		to := fmt.Sprintf("guest%d@example.com", i)
		if err := s.Send(ctx, mail.Message{To: to, ToName: name, Subject: "You are invited", Text: "hi"}); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
	}
	got := srv.Wait(ctx, t, len(names))
	byTo := map[string]mailtest.Received{}
	for _, m := range got {
		if len(m.To) != 1 {
			t.Fatalf("envelope to %q", m.To)
		}
		byTo[m.To[0]] = m
	}
	for i, name := range names {
		to := fmt.Sprintf("guest%d@example.com", i)
		m, ok := byTo[to]
		if !ok {
			t.Errorf("%q: nothing arrived for %s", name, to)
			continue
		}
		p, err := mailtest.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		list, err := p.Header.AddressList("To")
		if err != nil || len(list) != 1 || list[0].Name != name || list[0].Address != to {
			t.Errorf("%q: To header %q reads as %v, %v", name, p.Header.Get("To"), list, err)
		}
	}
}

func TestSendFailures(t *testing.T) {
	srv := mailtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	msg := mail.Message{To: "bo@example.com", Subject: "hi", Text: "hi"}

	t.Run("refused", func(t *testing.T) {
		srv.Fail(1, 554)
		err := newSender(t, srv, "").Send(ctx, msg)
		if err == nil || !strings.Contains(err.Error(), "554") {
			t.Fatalf("err = %v, want the 554", err)
		}
	})
	t.Run("dropped", func(t *testing.T) {
		srv.Drop(1)
		if err := newSender(t, srv, "").Send(ctx, msg); err == nil {
			t.Fatal("a dropped connection was not an error")
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		err := newSender(t, srv, "not-the-password").Send(ctx, msg)
		if err == nil || strings.Contains(err.Error(), "not-the-password") {
			t.Fatalf("err = %v: want an error that does not repeat the password", err)
		}
	})
	t.Run("invalid address", func(t *testing.T) {
		for _, to := range []string{"", "no-at-sign", "Bo <bo@example.com>", "a@b.c\r\nBcc: x@y.z"} {
			err := newSender(t, srv, "").Send(ctx, mail.Message{To: to, Subject: "x", Text: "x"})
			if !errors.Is(err, mail.ErrInvalidAddress) {
				t.Fatalf("To %q: err = %v, want ErrInvalidAddress", to, err)
			}
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		st, _ := mail.ParseURL(srv.URL())
		s, err := mail.NewSender(mail.Config{Settings: st, From: "party@example.com", Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(ctx, msg); err == nil {
			t.Fatal("a certificate nobody trusts was accepted")
		}
	})
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d messages arrived; every send above should have failed", n)
	}
	// After the faults, the server takes mail again.
	if err := newSender(t, srv, "").Send(ctx, msg); err != nil {
		t.Fatal(err)
	}
}

func TestSendConcurrently(t *testing.T) {
	srv := mailtest.Start(t)
	s := newSender(t, srv, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			errs <- s.Send(ctx, mail.Message{To: "g@example.com", Subject: "n", Text: strings.Repeat("x", i)})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(srv.Wait(ctx, t, 8)); n != 8 {
		t.Fatalf("%d arrived", n)
	}
}

func TestNewSenderChecksConfig(t *testing.T) {
	st := mail.Settings{Host: "smtp.example.com", Port: 587}
	for _, tc := range []struct {
		cfg  mail.Config
		want string
	}{
		{mail.Config{From: "a@b.c"}, "no SMTP server"},
		{mail.Config{Settings: st}, "no sender"},
		{mail.Config{Settings: st, From: "not an address"}, "sender address"},
	} {
		if _, err := mail.NewSender(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
