package app_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// clock is a registration clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// offers records the hook's calls.
type offers struct {
	mu    sync.Mutex
	names []string
}

func (o *offers) PlaceOffered(_ context.Context, r guest.Registration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.names = append(o.names, r.FirstName)
}

func setRegistration(t *testing.T, st *store.Store, mode string, capacity int) {
	t.Helper()
	s, err := st.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Registration, s.Capacity = mode, capacity
	if _, err := st.SaveSettings(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

func registration(name string, plusOnes int) guest.Registration {
	r, err := guest.ParseRegistration(guest.RegistrationInput{FirstName: name, LastName: "Lind", Email: name + "@example.com", PlusOnes: plusOnes, Needs: "no nuts"})
	if err != nil {
		panic(err)
	}
	return r
}

func TestRegistrationWaitingListAndOffers(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	c := &clock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	told := &offers{}
	pub := &events{}
	regs := app.NewRegistrations(app.RegistrationsDeps{Store: st, Publish: pub, Notify: told, Dashboard: app.NewDashboard(pub, st, nil), Now: c.now})
	rsvp := app.NewRSVP(st, nil)
	rsvp.OnDeclined(regs.Declined)

	if _, err := regs.Register(ctx, registration("Ada", 1)); !errors.Is(err, &app.Error{Code: "registration_closed"}) {
		t.Fatalf("registration while closed: %v, want registration_closed", err)
	}
	setRegistration(t, st, guest.RegistrationOpen, 3)

	// Ada and her +1 take 2 of 3; Bo (2) and Cy (2) wait, in order.
	ada, err := regs.Register(ctx, registration("Ada", 1))
	if err != nil || ada.Status != guest.RegPlaced || ada.Code == "" || ada.Token == "" {
		t.Fatalf("Ada: %+v, %v; want placed with a code and a link", ada, err)
	}
	bo, _ := regs.Register(ctx, registration("Bo", 1))
	cy, _ := regs.Register(ctx, registration("Cy", 1))
	if bo.Status != guest.RegWaiting || bo.Position != 1 || cy.Status != guest.RegWaiting || cy.Position != 2 {
		t.Fatalf("Bo %s #%d, Cy %s #%d; want waiting #1 and #2", bo.Status, bo.Position, cy.Status, cy.Position)
	}
	// A second registration of Bo's address is Bo's, without the link.
	again, err := regs.Register(ctx, registration("Bo", 3))
	if err != nil || !again.Duplicate || again.Token != "" || again.PlusOnes != 1 || again.Position != 1 {
		t.Fatalf("Bo again: %+v, %v; want his registration, without its link", again, err)
	}

	g, err := st.GuestByCode(ctx, ada.Code)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != guest.StatusComing || g.Source != guest.SourceRegistration || g.ExpectedGuests != 2 || !slices.Contains(g.Dietary.Tags, "nuts") {
		t.Fatalf("Ada's guest: %+v; want coming, registered, 2 people, no nuts", g)
	}

	// Ada declines: her 2 places go to Bo, the first in line; Cy waits.
	if _, err := rsvp.Answer(ctx, auth.Identity{GuestID: g.ID, Role: guest.RoleGuest}, guest.Answer{Status: guest.StatusDeclined}); err != nil {
		t.Fatal(err)
	}
	bo, _ = regs.Status(ctx, bo.Token)
	cy, _ = regs.Status(ctx, cy.Token)
	if bo.Status != guest.RegOffered || !bo.OfferedUntil.Equal(c.now().Add(24*time.Hour)) || cy.Status != guest.RegWaiting || cy.Position != 1 {
		t.Fatalf("after the decline: Bo %s until %v, Cy %s #%d; want Bo offered for 24 h, Cy first in line", bo.Status, bo.OfferedUntil, cy.Status, cy.Position)
	}
	if told.names == nil || told.names[0] != "Bo" || len(told.names) != 1 {
		t.Fatalf("offers told: %v, want [Bo]", told.names)
	}

	// Bo lets the offer pass: too late to accept, then swept; Cy's turn.
	c.add(24 * time.Hour)
	if _, err := regs.Accept(ctx, bo.Token); !errors.Is(err, &app.Error{Code: "offer_expired"}) {
		t.Fatalf("accept after 24 h: %v, want offer_expired", err)
	}
	if n, err := regs.ExpireOffers(ctx); err != nil || n != 1 {
		t.Fatalf("expired %d, %v; want 1", n, err)
	}
	if n, _ := regs.ExpireOffers(ctx); n != 0 {
		t.Fatalf("a second sweep expired %d more", n)
	}
	c.add(23 * time.Hour)
	cy, err = regs.Accept(ctx, cy.Token)
	if err != nil || cy.Status != guest.RegPlaced || cy.Code == "" {
		t.Fatalf("Cy accepts within the time: %+v, %v", cy, err)
	}
	d, err := regs.Desk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := app.RegistrationCounts{Mode: "open", Capacity: 3, Taken: 2, Placed: 1, Declined: 1}
	if d.Counts != want || len(d.Registrations) != 3 {
		t.Fatalf("desk %+v with %d registrations; want %+v with 3", d.Counts, len(d.Registrations), want)
	}
	if !slices.Contains(pub.names(), "admin/registrations.changed") || !slices.Contains(pub.names(), "admin/rsvp.changed") {
		t.Errorf("events %v: the desk was not told of the registrations and the new guests", pub.names())
	}
	// Cancelling frees Cy's places; nobody waits.
	cyCode := cy.Code
	if cy, err = regs.Cancel(ctx, cy.Token); err != nil || cy.Status != guest.RegCancelled {
		t.Fatalf("cancel: %+v, %v", cy, err)
	}
	if p, _ := st.RegistrationPlaces(ctx); p.Taken != 0 {
		t.Fatalf("taken %d after every place was given back, want 0", p.Taken)
	}
	if g, err := st.GuestByCode(ctx, cyCode); err != nil || g.Status != guest.StatusDeclined {
		t.Fatalf("Cy's guest after she withdrew: %s, %v; want declined", g.Status, err)
	}
	if _, err := regs.Status(ctx, cy.ID+".0123456789abcdef0123456789abcdef"); !errors.Is(err, &app.Error{Code: "registration_not_found"}) {
		t.Fatalf("a wrong secret: %v, want registration_not_found", err)
	}
}

func TestRegistrationApprovalAndCapacityRaise(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	regs := app.NewRegistrations(app.RegistrationsDeps{Store: st})
	setRegistration(t, st, guest.RegistrationApproval, 1)

	di, _ := regs.Register(ctx, registration("Di", 0))
	ed, _ := regs.Register(ctx, registration("Ed", 0))
	if di.Status != guest.RegPending || ed.Status != guest.RegPending {
		t.Fatalf("Di %s, Ed %s; want both pending", di.Status, ed.Status)
	}
	if r, err := regs.Approve(ctx, di.ID); err != nil || r.Status != guest.RegPlaced {
		t.Fatalf("approve Di: %s, %v; want placed", r.Status, err)
	}
	if r, err := regs.Approve(ctx, ed.ID); err != nil || r.Status != guest.RegWaiting {
		t.Fatalf("approve Ed at capacity: %s, %v; want waiting", r.Status, err)
	}
	if _, err := regs.Approve(ctx, ed.ID); !errors.Is(err, &app.Error{Code: "not_pending"}) {
		t.Fatalf("approve twice: %v, want not_pending", err)
	}
	setRegistration(t, st, guest.RegistrationApproval, 2)
	if err := regs.Refill(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _ := regs.Status(ctx, ed.Token); v.Status != guest.RegOffered {
		t.Fatalf("Ed after the raise: %s, want offered", v.Status)
	}
}

// outbox queues e-mails as barhub does: a delivery and a job in the store.
type outbox struct{ st *store.Store }

func (o outbox) Queue(ctx context.Context, g guest.Guest, mailing, kind, lang string) (store.Job, error) {
	return invite.Queue(ctx, o.st, g, mailing, kind, lang)
}

// With e-mail set up, a registration is first asked to confirm its
// address, once, and takes nothing; confirmed, the person given a place
// is sent their code once, in their language, as the invitation e-mail.
func TestRegistrationMailsTheCode(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	var queued []store.Job
	regs := app.NewRegistrations(app.RegistrationsDeps{Store: st, Mail: outbox{st}, JobQueued: func(j store.Job) { queued = append(queued, j) }})
	setRegistration(t, st, guest.RegistrationOpen, 0)
	r := registration("Eva", 0)
	r.Language = "sv"
	v, err := regs.Register(ctx, r)
	if err != nil || v.Status != guest.RegUnconfirmed || v.Token != "" || len(queued) != 1 {
		t.Fatalf("Eva: %+v, %v, %d jobs; want unconfirmed without the link, one job", v, err, len(queued))
	}
	saved, err := st.Registration(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := st.Deliveries(ctx, invite.ConfirmMailing(saved))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].To != "Eva@example.com" || ds[0].Kind != invite.KindConfirm {
		t.Fatalf("deliveries %+v; want one confirmation to Eva@example.com", ds)
	}
	if v, err = regs.Confirm(ctx, saved.ID+"."+saved.Secret); err != nil || v.Status != guest.RegPlaced {
		t.Fatalf("Eva confirms: %+v, %v", v, err)
	}
	ds, err = st.Deliveries(ctx, invite.InvitationMailing(v.Code))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].To != "Eva@example.com" || ds[0].Kind != invite.KindInvitation || len(queued) != 2 {
		t.Fatalf("deliveries %+v, jobs %d; want one invitation to Eva@example.com", ds, len(queued))
	}
	if g, _ := st.GuestByCode(ctx, v.Code); g.Invite == nil || g.Invite.How != guest.InviteEmail {
		t.Fatalf("Eva's invite: %+v, want e-mail", g.Invite)
	}
	// Registering again sends nothing more.
	if _, err := regs.Register(ctx, r); err != nil || len(queued) != 2 {
		t.Fatalf("again: %v, %d jobs", err, len(queued))
	}
}

// TestRegisteredGuestComingAgain: a registered guest who declined gave
// their places back; answering "coming" again takes them back only when
// they fit and nobody waits, in the turn, else it is refused and nothing
// changes.
func TestRegisteredGuestComingAgain(t *testing.T) {
	for _, tc := range []struct {
		name       string
		boWaits    bool
		wantCode   string
		wantStatus guest.RegStatus
		wantGuest  guest.Status
	}{
		{"Bo holds the offer", true, "no_places", guest.RegDeclined, guest.StatusDeclined},
		{"nobody waits", false, "", guest.RegPlaced, guest.StatusComing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, regs, rsvp, ada, g := placedAda(t, 2)
			var bo app.RegistrationView
			var err error
			if tc.boWaits {
				if bo, err = regs.Register(ctx, registration("Bo", 1)); err != nil || bo.Status != guest.RegWaiting {
					t.Fatalf("Bo: %+v, %v; want waiting", bo, err)
				}
			}
			who := auth.Identity{GuestID: g.ID, Role: guest.RoleGuest}
			if _, err := rsvp.Answer(ctx, who, guest.Answer{Status: guest.StatusDeclined}); err != nil {
				t.Fatal(err)
			}
			wantTaken := 0
			if tc.boWaits {
				wantTaken = 2
				if bo, _ = regs.Status(ctx, bo.Token); bo.Status != guest.RegOffered {
					t.Fatalf("after Ada declined, Bo is %s, want offered", bo.Status)
				}
			}
			if p, _ := st.RegistrationPlaces(ctx); p.Taken != wantTaken {
				t.Fatalf("after the decline %d places taken, want %d", p.Taken, wantTaken)
			}

			_, err = rsvp.Answer(ctx, who, guest.Answer{Status: guest.StatusComing})
			if tc.wantCode == "" && err != nil {
				t.Fatalf("coming again: %v, want the places back", err)
			}
			if tc.wantCode != "" && !errors.Is(err, &app.Error{Code: tc.wantCode}) {
				t.Fatalf("coming again: %v, want %s", err, tc.wantCode)
			}
			if p, _ := st.RegistrationPlaces(ctx); p.Taken != 2 {
				t.Fatalf("after coming again %d places taken, want 2", p.Taken)
			}
			if a, _ := regs.Status(ctx, ada.Token); a.Status != tc.wantStatus {
				t.Fatalf("Ada's registration is %s, want %s", a.Status, tc.wantStatus)
			}
			if g, _ := st.GuestByID(ctx, g.ID); g.Status != tc.wantGuest {
				t.Fatalf("Ada's guest is %s, want %s", g.Status, tc.wantGuest)
			}
			if tc.boWaits {
				if bo, _ = regs.Status(ctx, bo.Token); bo.Status != guest.RegOffered {
					t.Fatalf("Bo is %s, want still offered", bo.Status)
				}
			}
		})
	}
}

// TestRegisteredGuestMorePeople: a registered guest who brings more
// people than registered takes the extra places under the same rules.
func TestRegisteredGuestMorePeople(t *testing.T) {
	ctx := context.Background()
	st, _, rsvp, _, g := placedAda(t, 3)
	who := auth.Identity{GuestID: g.ID, Role: guest.RoleGuest}
	n := func(v int) *int { return &v }
	for _, step := range []struct {
		name      string
		people    int
		wantCode  string
		wantTaken int
		wantHeads int
	}{
		{"one more fits", 3, "", 3, 3},
		{"a fourth does not", 4, "no_places", 3, 3},
		{"back to three takes nothing", 3, "", 3, 3},
	} {
		_, err := rsvp.Answer(ctx, who, guest.Answer{Status: guest.StatusComing, NumGuests: n(step.people), Confirm: true})
		if (step.wantCode == "" && err != nil) || (step.wantCode != "" && !errors.Is(err, &app.Error{Code: step.wantCode})) {
			t.Fatalf("%s: %v, want %q", step.name, err, step.wantCode)
		}
		if p, _ := st.RegistrationPlaces(ctx); p.Taken != step.wantTaken {
			t.Fatalf("%s: %d places taken, want %d", step.name, p.Taken, step.wantTaken)
		}
		if g, _ := st.GuestByID(ctx, g.ID); g.Heads() != step.wantHeads {
			t.Fatalf("%s: Ada brings %d, want %d", step.name, g.Heads(), step.wantHeads)
		}
	}
}

// placedAda opens registration with capacity, wires the RSVP to the
// registrations' places as the server does, and has Ada register with one
// +1: placed, with her guest.
func placedAda(t *testing.T, capacity int) (*store.Store, *app.Registrations, *app.RSVP, app.RegistrationView, guest.Guest) {
	t.Helper()
	ctx := context.Background()
	st := storetest.New(t)
	regs := app.NewRegistrations(app.RegistrationsDeps{Store: st})
	rsvp := app.NewRSVP(st, nil)
	rsvp.OnDeclined(regs.Declined)
	rsvp.OnComing(regs.Coming)
	setRegistration(t, st, guest.RegistrationOpen, capacity)
	ada, err := regs.Register(ctx, registration("Ada", 1))
	if err != nil || ada.Status != guest.RegPlaced {
		t.Fatalf("Ada: %+v, %v; want placed", ada, err)
	}
	g, err := st.GuestByCode(ctx, ada.Code)
	if err != nil {
		t.Fatal(err)
	}
	return st, regs, rsvp, ada, g
}
