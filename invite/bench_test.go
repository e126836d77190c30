package invite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/locale"
	"github.com/barhub/barhub/mail"
	"github.com/barhub/barhub/mail/mailtest"
)

// BenchmarkSendInvitation writes and sends one invitation at a time to the
// local SMTP server: each is a new connection, STARTTLS, AUTH, the message
// (about 15 KB with the QR code and the calendar file).
func BenchmarkSendInvitation(b *testing.B) {
	srv := mailtest.Start(b)
	settings, _ := mail.ParseURL(srv.URL())
	sender, err := mail.NewSender(mail.Config{Settings: settings, From: "party@example.com", RootCAs: srv.Pool})
	if err != nil {
		b.Fatal(err)
	}
	g := guest.Guest{ID: "g", FirstName: "Mia", LastName: "Lund", Code: "ABCD2345", Email: "mia@example.com"}
	ctx := context.Background()
	cat, err := locale.New()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		m, err := invite.Compose(cat, language.English, invite.KindInvitation, g, party(), "http://192.168.1.23:8080", time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if err := sender.Send(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "invitations/s")
}

// BenchmarkInvitationsThroughTheQueue is the whole path: b.N guests, one
// durable job each, run by a real worker (4 at a time, the rate limit out
// of the way) on the embedded database, to the local SMTP server.
func BenchmarkInvitationsThroughTheQueue(b *testing.B) {
	r := newRigTB(b)
	ctx := context.Background()
	var guests []guest.Guest
	for i := range b.N {
		guests = append(guests, r.addGuestTB(b, fmt.Sprintf("G%05d", i), fmt.Sprintf("g%d@example.com", i)))
	}
	b.ResetTimer()
	start := time.Now()
	for _, g := range guests {
		j, err := invite.Queue(ctx, r.st, g, invite.InvitationMailing(g.Code), invite.KindInvitation, "")
		if err != nil {
			b.Fatal(err)
		}
		r.w.Submit(j)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	r.srv.Wait(wctx, b, b.N)
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "invitations/s")
}
