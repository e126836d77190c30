package app

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// RegistrationStore is what the public registration reads and writes.
type RegistrationStore interface {
	Settings(ctx context.Context) (guest.Settings, error)
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), err error)
	Registration(ctx context.Context, id string) (guest.Registration, error)
	SaveRegistration(ctx context.Context, r *guest.Registration) error
	Registrations(ctx context.Context) ([]guest.Registration, error)
	RegistrationsWith(ctx context.Context, st guest.RegStatus, limit int64) ([]guest.Registration, error)
	WaitingAhead(ctx context.Context, seq int64) (int64, error)
	RegistrationPlaces(ctx context.Context) (store.Places, error)
	TakePlaces(ctx context.Context, n, capacity int) (bool, error)
	ReleasePlaces(ctx context.Context, n int) error
	NextRegistrationSeq(ctx context.Context) (int64, error)
	InsertGuest(ctx context.Context, g *guest.Guest) error
	UpdateGuest(ctx context.Context, id string, p guest.Patch, by string) (guest.Guest, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	InsertAudit(ctx context.Context, e *audit.Entry) error
	SetInvite(ctx context.Context, id string, inv guest.Invite) error
}

// OfferNotifier tells a person on the waiting list that a place is
// theirs to take (by e-mail, Web Push…). It is the hook for the
// notifications: Registrations calls it after the offer is stored, best
// effort, outside the turn; nil tells no one (the status page still
// shows the offer).
type OfferNotifier interface {
	PlaceOffered(ctx context.Context, r guest.Registration)
}

// HostTeller tells the host's devices (Host.Tell).
type HostTeller interface {
	Tell(ctx context.Context, kind string, m HostMessage) error
}

// The audit actions barhub writes itself, outside a request: an offer
// made, an offer expired, the places of a registered guest who declined,
// who came back or took more people, or whom the host deleted.
const (
	ActionRegistrationOffer    = "registration.offer"
	ActionRegistrationExpire   = "registration.expire"
	ActionRegistrationDeclined = "registration.declined"
	ActionRegistrationComing   = "registration.coming"
	ActionRegistrationDeleted  = "registration.deleted"
)

// registrationLockTTL bounds the turn should its holder die holding it.
const registrationLockTTL = 30 * time.Second

// Registrations is the public registration with its capacity and
// waiting list (docs/REGISTRATION.md). Every change of places happens in
// the one turn store.RegistrationLock, so across instances each place is
// given once and each freed place offered to exactly one person.
type Registrations struct {
	store     RegistrationStore
	pub       Publisher
	notify    OfferNotifier
	host      HostTeller
	mail      MailQueue
	jobQueued func(store.Job)
	dashboard *Dashboard
	log       *slog.Logger
	now       func() time.Time
}

// RegistrationsDeps are the parts of Registrations; Now defaults to time.Now.
type RegistrationsDeps struct {
	Store   RegistrationStore
	Publish Publisher
	Notify  OfferNotifier
	// Host is told when an offer is accepted or expires; nil tells no one.
	Host HostTeller
	// Mail, when e-mail is set up, sends a placed person their code as
	// an invitation e-mail and a person offered a place the offer;
	// JobQueued hands its job to this instance's worker at once.
	Mail      MailQueue
	JobQueued func(store.Job)
	// Dashboard tells the host's guest list and figures of each new
	// guest; nil tells nothing.
	Dashboard *Dashboard
	Log       *slog.Logger
	Now       func() time.Time
}

// NewRegistrations returns the use case over d.
func NewRegistrations(d RegistrationsDeps) *Registrations {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Registrations{store: d.Store, pub: d.Publish, notify: d.Notify, host: d.Host, mail: d.Mail, jobQueued: d.JobQueued, dashboard: d.Dashboard, log: d.Log, now: d.Now}
}

// RegistrationView is a registration as the person's status page shows it.
type RegistrationView struct {
	ID           string          `json:"id"`
	Status       guest.RegStatus `json:"status"`
	FirstName    string          `json:"firstName"`
	LastName     string          `json:"lastName"`
	PlusOnes     int             `json:"plusOnes"`
	Position     int64           `json:"position,omitempty"`
	OfferedUntil *time.Time      `json:"offeredUntil,omitempty"`
	// ConfirmBy is when an unconfirmed registration expires (or expired).
	ConfirmBy *time.Time `json:"confirmBy,omitempty"`
	// Token opens the status page; only the one who registered gets it.
	Token string `json:"token,omitempty"`
	// Code signs the guest in, once placed; only on the status page.
	Code string `json:"code,omitempty"`
	// Duplicate says the e-mail had registered before: this is that
	// registration, without its link.
	Duplicate bool `json:"duplicate,omitempty"`
}

// RegistrationCounts are the figures on the host's desk.
type RegistrationCounts struct {
	Mode     string `json:"mode"`
	Capacity int    `json:"capacity"`
	// Taken counts people holding places (placed or offered).
	Taken    int `json:"taken"`
	Placed   int `json:"placed"`
	Offered  int `json:"offered"`
	Waiting  int `json:"waiting"`
	Pending  int `json:"pending"`
	Declined int `json:"declined"`
}

// RegistrationsDesk is the host's view: the figures and every registration.
type RegistrationsDesk struct {
	Counts        RegistrationCounts   `json:"counts"`
	Registrations []guest.Registration `json:"registrations"`
}

func errRegistrationClosed() *Error {
	return NewError(Forbidden, "registration_closed", "registration is closed: this party is by invitation only")
}

func errNoRegistration() *Error {
	return NewError(NotFound, "registration_not_found", "no such registration; check the link")
}

// Register takes a new registration: a place at once when it fits and
// nobody is waiting, else a place on the waiting list (mode open), or
// the host's approval first (mode approval). With e-mail set up, the
// registration first waits, unconfirmed and holding nothing, for the
// person to open the link e-mailed to them (Confirm); its view then
// carries no link, so only the one who reads the address gets it. An
// e-mail that registered before gives that registration back, without
// its link.
func (u *Registrations) Register(ctx context.Context, r guest.Registration) (RegistrationView, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return RegistrationView{}, err
	}
	if st.RegistrationMode() == guest.RegistrationClosed {
		return RegistrationView{}, errRegistrationClosed()
	}
	r.ID = guest.RegistrationID(r.Email)
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return RegistrationView{}, err
	}
	r, err = u.register(ctx, r, st)
	unlock()
	if err != nil {
		return RegistrationView{}, err
	}
	if r.Secret == "" {
		v, err := u.view(ctx, r, false)
		v.Duplicate = true
		return v, err
	}
	audit.SetSubject(ctx, r.ID)
	audit.Note(ctx, "status", string(r.Status))
	audit.Note(ctx, "people", r.Heads())
	if r.Status == guest.RegUnconfirmed {
		u.mailConfirm(ctx, r)
		return u.view(ctx, r, false)
	}
	u.changed(ctx)
	u.mailCode(ctx, r)
	return u.view(ctx, r, true)
}

// Confirm is the person opening the link e-mailed to them: the
// registration takes its place, or its place in line, as Register does
// without e-mail. Opening it again shows where they stand.
func (u *Registrations) Confirm(ctx context.Context, token string) (RegistrationView, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return RegistrationView{}, err
	}
	r, unlock, err := u.lockToken(ctx, token)
	if err != nil {
		return RegistrationView{}, err
	}
	if r.Status != guest.RegUnconfirmed {
		unlock()
		return u.view(ctx, r, true)
	}
	if r.ConfirmBy == nil || !u.now().Before(*r.ConfirmBy) {
		unlock()
		return RegistrationView{}, NewError(Gone, "confirm_expired", "the link has expired; register again")
	}
	if st.RegistrationMode() == guest.RegistrationClosed {
		unlock()
		return RegistrationView{}, errRegistrationClosed()
	}
	err = u.enter(ctx, &r, st)
	unlock()
	if err != nil {
		return RegistrationView{}, err
	}
	audit.SetSubject(ctx, r.ID)
	audit.Note(ctx, "status", string(r.Status))
	audit.Note(ctx, "people", r.Heads())
	u.changed(ctx)
	u.mailCode(ctx, r)
	return u.view(ctx, r, true)
}

// register stores r in the turn; a registration of the same e-mail that
// is still active comes back instead, without its secret.
func (u *Registrations) register(ctx context.Context, r guest.Registration, st guest.Settings) (guest.Registration, error) {
	old, err := u.store.Registration(ctx, r.ID)
	switch {
	case err == nil && old.Status.Active():
		old.Secret = ""
		return old, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return r, err
	}
	r.Secret = newSecret()
	if u.mail != nil {
		// The place, or the place in line, waits for the address to be
		// confirmed: the line's order is the order of confirmation.
		by := u.now().Add(guest.ConfirmFor).UTC().Truncate(time.Millisecond)
		r.Status, r.ConfirmBy = guest.RegUnconfirmed, &by
		return r, u.store.SaveRegistration(ctx, &r)
	}
	return r, u.enter(ctx, &r, st)
}

// enter puts r in line (mode open: a place at once when it fits and
// nobody is ahead) or before the host (mode approval), and stores it.
// The turn is held.
func (u *Registrations) enter(ctx context.Context, r *guest.Registration, st guest.Settings) error {
	var err error
	if r.Seq, err = u.store.NextRegistrationSeq(ctx); err != nil {
		return err
	}
	r.ConfirmBy = nil
	r.Status = guest.RegWaiting
	if st.RegistrationMode() == guest.RegistrationApproval {
		r.Status = guest.RegPending
	} else if err := u.placeIfFree(ctx, r, st); err != nil {
		return err
	}
	return u.store.SaveRegistration(ctx, r)
}

// placeIfFree gives r places and a guest when nobody is ahead in line
// and r fits; otherwise r stays waiting. The turn is held.
func (u *Registrations) placeIfFree(ctx context.Context, r *guest.Registration, st guest.Settings) error {
	ahead, err := u.store.RegistrationsWith(ctx, guest.RegWaiting, 1)
	if err != nil || (len(ahead) > 0 && ahead[0].Seq < r.Seq) {
		return err
	}
	ok, err := u.store.TakePlaces(ctx, r.Heads(), st.Capacity)
	if err != nil || !ok {
		r.Status = guest.RegWaiting
		return err
	}
	if err := u.place(ctx, r); err != nil {
		if rerr := u.store.ReleasePlaces(context.WithoutCancel(ctx), r.Heads()); rerr != nil {
			u.log.ErrorContext(ctx, "places taken for a registration that failed; the host's capacity is short", "people", r.Heads(), "err", rerr)
		}
		return err
	}
	return nil
}

// place makes r's guest, coming, with their own code. r holds its places.
func (u *Registrations) place(ctx context.Context, r *guest.Registration) error {
	g := r.NewGuest(store.NewID())
	if err := u.store.InsertGuest(ctx, &g); err != nil {
		return err
	}
	r.GuestID, r.Status, r.OfferedUntil = g.ID, guest.RegPlaced, nil
	return nil
}

// Status is the person's status page.
func (u *Registrations) Status(ctx context.Context, token string) (RegistrationView, error) {
	r, err := u.byToken(ctx, token)
	if err != nil {
		return RegistrationView{}, err
	}
	return u.view(ctx, r, true)
}

// Accept takes an offered place within its time.
func (u *Registrations) Accept(ctx context.Context, token string) (RegistrationView, error) {
	r, unlock, err := u.lockToken(ctx, token)
	if err != nil {
		return RegistrationView{}, err
	}
	defer unlock()
	switch {
	case r.Status == guest.RegPlaced:
		return u.view(ctx, r, true)
	case r.Status != guest.RegOffered:
		return RegistrationView{}, NewError(Conflict, "no_offer", "there is no place offered to you now")
	case !u.now().Before(*r.OfferedUntil):
		return RegistrationView{}, NewError(Gone, "offer_expired", "the offer has expired; the place went to the next in line")
	}
	if err := u.place(ctx, &r); err != nil {
		return RegistrationView{}, err
	}
	if err := u.store.SaveRegistration(ctx, &r); err != nil {
		return RegistrationView{}, err
	}
	audit.SetSubject(ctx, r.ID)
	audit.Note(ctx, "people", r.Heads())
	u.changed(ctx)
	u.mailCode(ctx, r)
	// Only the accept that moved the offer in the turn gets here.
	u.tellHost(ctx, r, true)
	return u.view(ctx, r, true)
}

// tellHost tells the host's devices that r's offer was accepted or
// expired. The caller made that change in the turn, so across instances
// it is told once.
func (u *Registrations) tellHost(ctx context.Context, r guest.Registration, accepted bool) {
	if u.host == nil {
		return
	}
	name := strings.TrimSpace(r.FirstName + " " + r.LastName)
	if err := u.host.Tell(context.WithoutCancel(ctx), HostWaitlist, WaitlistOffer(name, accepted)); err != nil {
		u.log.WarnContext(ctx, "tell the host of a waiting-list offer", "registration", r.ID, "err", err)
	}
}

// mailCode tells the host's desk of a placed person's guest and e-mails
// the person their code, link and QR code: the
// invitation e-mail, sent once per code like the host's (a durable job,
// retried). Best effort: the status page shows the code whatever happens.
func (u *Registrations) mailCode(ctx context.Context, r guest.Registration) {
	if r.Status != guest.RegPlaced || (u.mail == nil && u.dashboard == nil) {
		return
	}
	ctx = context.WithoutCancel(ctx)
	g, err := u.store.GuestByID(ctx, r.GuestID)
	if err != nil {
		u.log.WarnContext(ctx, "read a registration's guest", "registration", r.ID, "err", err)
		return
	}
	// The host's guest list and figures gain the guest, live.
	u.dashboard.GuestsChanged(ctx, NewGuestsChanged("created", auth.Identity{GuestID: g.ID, Name: g.Name(), Role: guest.RoleGuest}, []guest.Guest{g}, nil, nil))
	if u.mail == nil {
		return
	}
	j, err := u.mail.Queue(ctx, g, invite.InvitationMailing(g.Code), invite.KindInvitation, r.Language)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) {
			u.log.WarnContext(ctx, "e-mail a registration's code", "registration", r.ID, "err", err)
		}
		return
	}
	if err := u.store.SetInvite(ctx, g.ID, guest.Invite{How: guest.InviteEmail, At: u.now(), Status: guest.InviteQueued}); err != nil {
		u.log.WarnContext(ctx, "mark invitation queued", "guest", g.ID, "err", err)
	}
	if u.jobQueued != nil {
		u.jobQueued(j)
	}
}

// Cancel withdraws the person's registration; places it held go to the
// next in line.
func (u *Registrations) Cancel(ctx context.Context, token string) (RegistrationView, error) {
	r, unlock, err := u.lockToken(ctx, token)
	if err != nil {
		return RegistrationView{}, err
	}
	offers, err := u.cancel(ctx, &r)
	unlock()
	if err != nil {
		return RegistrationView{}, err
	}
	u.tell(ctx, offers)
	return u.view(ctx, r, true)
}

// Remove is the host's cancellation of a registration.
func (u *Registrations) Remove(ctx context.Context, id string) (guest.Registration, error) {
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return guest.Registration{}, err
	}
	r, err := u.store.Registration(ctx, id)
	if err != nil {
		unlock()
		return r, u.notFound(err)
	}
	offers, err := u.cancel(ctx, &r)
	unlock()
	if err != nil {
		return r, err
	}
	u.tell(ctx, offers)
	return r, nil
}

func (u *Registrations) cancel(ctx context.Context, r *guest.Registration) ([]guest.Registration, error) {
	if !r.Status.Active() || r.Status == guest.RegDeclined {
		return nil, nil
	}
	held, placed := r.Status.Holds(), r.Status == guest.RegPlaced
	r.Status, r.OfferedUntil = guest.RegCancelled, nil
	if err := u.store.SaveRegistration(ctx, r); err != nil {
		return nil, err
	}
	audit.SetSubject(ctx, r.ID)
	if placed {
		// The guest it made is no longer coming: the places are given on.
		declined := guest.StatusDeclined
		_, err := u.store.UpdateGuest(ctx, r.GuestID, guest.Patch{Status: &declined}, r.GuestID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	if held {
		if err := u.store.ReleasePlaces(ctx, r.Heads()); err != nil {
			return nil, err
		}
	}
	return u.fill(ctx)
}

// Approve is the host letting a pending registration in: a place when it
// fits, else the waiting list in its order.
func (u *Registrations) Approve(ctx context.Context, id string) (guest.Registration, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return guest.Registration{}, err
	}
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return guest.Registration{}, err
	}
	defer unlock()
	r, err := u.store.Registration(ctx, id)
	if err != nil {
		return r, u.notFound(err)
	}
	if r.Status != guest.RegPending {
		return r, NewError(Conflict, "not_pending", "this registration is not waiting for approval")
	}
	r.Status = guest.RegWaiting
	if err := u.placeIfFree(ctx, &r, st); err != nil {
		return r, err
	}
	if err := u.store.SaveRegistration(ctx, &r); err != nil {
		return r, err
	}
	audit.SetSubject(ctx, r.ID)
	audit.Note(ctx, "status", string(r.Status))
	u.changed(ctx)
	return r, nil
}

// Declined gives back the places of registered guests who declined on
// the RSVP, offering them to the next in line.
func (u *Registrations) Declined(ctx context.Context, guests []guest.Guest) {
	var offers []guest.Registration
	for _, g := range guests {
		if g.Source != guest.SourceRegistration || g.Status != guest.StatusDeclined || g.Email == "" {
			continue
		}
		o, err := u.declined(ctx, g)
		if err != nil {
			u.log.ErrorContext(ctx, "free the places of a declined registration", "guest", g.ID, "err", err)
		}
		offers = append(offers, o...)
	}
	u.tell(ctx, offers)
}

func (u *Registrations) declined(ctx context.Context, g guest.Guest) ([]guest.Registration, error) {
	unlock, err := u.store.Lock(context.WithoutCancel(ctx), store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := u.store.Registration(ctx, guest.RegistrationID(g.Email))
	if err != nil || r.GuestID != g.ID || r.Status != guest.RegPlaced {
		return nil, err
	}
	r.Status = guest.RegDeclined
	if err := u.store.SaveRegistration(ctx, &r); err != nil {
		return nil, err
	}
	if err := u.store.ReleasePlaces(ctx, r.Heads()); err != nil {
		return nil, err
	}
	u.record(ctx, ActionRegistrationDeclined, r.ID, map[string]any{"people": r.Heads()})
	return u.fill(ctx)
}

func errNoPlaces() *Error {
	return NewError(Conflict, "no_places", "the event is full now: there is no free place for you or the people you bring; ask the host")
}

// Coming stores an RSVP answer (apply) that leaves the group as planned.
// A registered guest coming with more people than their registration's
// places (coming again after declining, or bringing more) takes the
// missing places first, in the turn, under the rules of a new
// registration: when they fit and nobody is waiting. Otherwise the
// answer is refused with no_places and nothing changes. Fewer people
// keep the places held. RSVP.OnComing calls it under the group's turn.
func (u *Registrations) Coming(ctx context.Context, planned []guest.Guest, apply func() ([]guest.Guest, error)) ([]guest.Guest, error) {
	registered := false
	for _, g := range planned {
		registered = registered || (g.Source == guest.SourceRegistration && g.Email != "" && g.Heads() > 0)
	}
	if !registered {
		return apply()
	}
	st, err := u.store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return nil, err
	}
	after, took, err := u.coming(ctx, planned, st, apply)
	unlock()
	if took {
		u.changed(ctx)
	}
	return after, err
}

// coming is Coming in the turn; took says places were taken.
func (u *Registrations) coming(ctx context.Context, planned []guest.Guest, st guest.Settings, apply func() ([]guest.Guest, error)) ([]guest.Guest, bool, error) {
	type growth struct {
		r     guest.Registration
		more  int
		heads int
	}
	var grow []growth
	for _, g := range planned {
		if g.Source != guest.SourceRegistration || g.Email == "" || g.Heads() == 0 {
			continue
		}
		r, err := u.store.Registration(ctx, guest.RegistrationID(g.Email))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if r.GuestID != g.ID {
			continue
		}
		held := 0
		switch r.Status {
		case guest.RegPlaced:
			held = r.Heads()
		case guest.RegDeclined, guest.RegCancelled:
			// The places went back to the line: they are taken anew.
		default:
			continue
		}
		if g.Heads() > held {
			grow = append(grow, growth{r: r, more: g.Heads() - held, heads: g.Heads()})
		}
	}
	if len(grow) == 0 {
		after, err := apply()
		return after, false, err
	}
	// As for a new registration: whoever waits is ahead.
	ahead, err := u.store.RegistrationsWith(ctx, guest.RegWaiting, 1)
	if err != nil {
		return nil, false, err
	}
	if len(ahead) > 0 {
		return nil, false, errNoPlaces()
	}
	taken := 0
	giveBack := func() {
		if taken == 0 {
			return
		}
		if err := u.store.ReleasePlaces(context.WithoutCancel(ctx), taken); err != nil {
			u.log.ErrorContext(ctx, "places taken for an answer that failed; the host's capacity is short", "people", taken, "err", err)
		}
	}
	for _, gr := range grow {
		ok, err := u.store.TakePlaces(ctx, gr.more, st.Capacity)
		if err != nil || !ok {
			giveBack()
			if err != nil {
				return nil, false, err
			}
			return nil, false, errNoPlaces()
		}
		taken += gr.more
	}
	after, err := apply()
	if err != nil {
		giveBack()
		return nil, false, err
	}
	for _, gr := range grow {
		r := gr.r
		// The registration holds what its guest brings now.
		r.Status, r.PlusOnes, r.OfferedUntil = guest.RegPlaced, gr.heads-1, nil
		if err := u.store.SaveRegistration(ctx, &r); err != nil {
			return after, true, err
		}
		u.record(ctx, ActionRegistrationComing, r.ID, map[string]any{"people": r.Heads(), "taken": gr.more})
	}
	return after, true, nil
}

// GuestRemoved gives back the places of a registered guest the host
// deleted: the registration is cancelled and its places offered to the
// next in line, as a decline's are.
func (u *Registrations) GuestRemoved(ctx context.Context, g guest.Guest) error {
	if g.Source != guest.SourceRegistration || g.Email == "" {
		return nil
	}
	unlock, err := u.store.Lock(context.WithoutCancel(ctx), store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return err
	}
	offers, err := u.guestRemoved(ctx, g)
	unlock()
	u.tell(ctx, offers)
	return err
}

func (u *Registrations) guestRemoved(ctx context.Context, g guest.Guest) ([]guest.Registration, error) {
	r, err := u.store.Registration(ctx, guest.RegistrationID(g.Email))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil || r.GuestID != g.ID || !r.Status.Holds() {
		return nil, err
	}
	r.Status, r.OfferedUntil = guest.RegCancelled, nil
	if err := u.store.SaveRegistration(ctx, &r); err != nil {
		return nil, err
	}
	if err := u.store.ReleasePlaces(ctx, r.Heads()); err != nil {
		return nil, err
	}
	u.record(ctx, ActionRegistrationDeleted, r.ID, map[string]any{"people": r.Heads()})
	return u.fill(ctx)
}

// Refill offers places after the settings changed (a capacity raised).
func (u *Registrations) Refill(ctx context.Context) error {
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return err
	}
	offers, err := u.fill(ctx)
	unlock()
	u.tell(ctx, offers)
	return err
}

// ExpireOffers ends the offers whose time has passed and offers their
// places to the next in line; the maintenance loop runs it. It returns
// how many expired.
func (u *Registrations) ExpireOffers(ctx context.Context) (int, error) {
	offered, err := u.store.RegistrationsWith(ctx, guest.RegOffered, 0)
	if err != nil {
		return 0, err
	}
	now := u.now()
	due := false
	for _, r := range offered {
		due = due || !now.Before(*r.OfferedUntil)
	}
	if !due {
		return 0, nil
	}
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return 0, err
	}
	// Read again in the turn: another instance may have swept them.
	if offered, err = u.store.RegistrationsWith(ctx, guest.RegOffered, 0); err != nil {
		unlock()
		return 0, err
	}
	var expired []guest.Registration
	for _, r := range offered {
		if now.Before(*r.OfferedUntil) {
			continue
		}
		r.Status, r.OfferedUntil = guest.RegExpired, nil
		if err := u.store.SaveRegistration(ctx, &r); err != nil {
			unlock()
			return len(expired), err
		}
		if err := u.store.ReleasePlaces(ctx, r.Heads()); err != nil {
			unlock()
			return len(expired), err
		}
		u.record(ctx, ActionRegistrationExpire, r.ID, map[string]any{"people": r.Heads()})
		expired = append(expired, r)
	}
	offers, err := u.fill(ctx)
	unlock()
	// The offers expired in the turn: no other instance expires them too.
	for _, r := range expired {
		u.tellHost(ctx, r, false)
	}
	u.tell(ctx, offers)
	if len(expired) > 0 && len(offers) == 0 {
		u.changed(ctx)
	}
	return len(expired), err
}

// ExpireUnconfirmed ends the registrations whose e-mail's link was not
// opened in time (guest.ConfirmFor); the maintenance loop runs it. They
// held nothing, so nobody else moves. It returns how many expired.
func (u *Registrations) ExpireUnconfirmed(ctx context.Context) (int, error) {
	waiting, err := u.store.RegistrationsWith(ctx, guest.RegUnconfirmed, 0)
	if err != nil || len(waiting) == 0 {
		return 0, err
	}
	now := u.now()
	due := false
	for _, r := range waiting {
		due = due || r.ConfirmBy == nil || !now.Before(*r.ConfirmBy)
	}
	if !due {
		return 0, nil
	}
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return 0, err
	}
	defer unlock()
	n := 0
	for _, r := range waiting {
		// Read again in the turn: the person may have confirmed it.
		r, err := u.store.Registration(ctx, r.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return n, err
		}
		if r.Status != guest.RegUnconfirmed || (r.ConfirmBy != nil && now.Before(*r.ConfirmBy)) {
			continue
		}
		// ConfirmBy stays: the status page tells an unconfirmed
		// registration's end from an offer's.
		r.Status = guest.RegExpired
		if err := u.store.SaveRegistration(ctx, &r); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// fill offers free places to the waiting list in order: the first in
// line gets an offer when their people fit, and so on; a first who does
// not fit keeps everyone behind waiting (the list is a queue). The turn
// is held; the caller tells the people after it (tell).
func (u *Registrations) fill(ctx context.Context) ([]guest.Registration, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	var offers []guest.Registration
	for {
		first, err := u.store.RegistrationsWith(ctx, guest.RegWaiting, 1)
		if err != nil || len(first) == 0 {
			return offers, err
		}
		r := first[0]
		ok, err := u.store.TakePlaces(ctx, r.Heads(), st.Capacity)
		if err != nil || !ok {
			return offers, err
		}
		until := u.now().Add(st.OfferFor()).UTC().Truncate(time.Millisecond)
		r.Status, r.OfferedUntil = guest.RegOffered, &until
		if err := u.store.SaveRegistration(ctx, &r); err != nil {
			_ = u.store.ReleasePlaces(context.WithoutCancel(ctx), r.Heads())
			return offers, err
		}
		u.record(ctx, ActionRegistrationOffer, r.ID, map[string]any{"people": r.Heads()})
		offers = append(offers, r)
	}
}

// tell lets the people offered a place know, and the host's desk.
func (u *Registrations) tell(ctx context.Context, offers []guest.Registration) {
	ctx = context.WithoutCancel(ctx)
	for _, r := range offers {
		u.mailOffer(ctx, r)
		if u.notify != nil {
			u.notify.PlaceOffered(ctx, r)
		}
	}
	u.changed(ctx)
}

// mailOffer e-mails r their offer, when e-mail is set up: a durable job
// reserved under the offer's name (invite.OfferMailing), so the offer is
// e-mailed once whichever instance made it and however often the job is
// retried. Best effort: the status page shows the offer whatever happens.
func (u *Registrations) mailOffer(ctx context.Context, r guest.Registration) {
	if u.mail == nil || r.Email == "" || r.OfferedUntil == nil {
		return
	}
	// The person is not a guest yet: the delivery names the registration.
	j, err := u.mail.Queue(ctx, guest.Guest{ID: r.ID, Email: r.Email}, invite.OfferMailing(r), invite.KindOffer, r.Language)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) {
			u.log.WarnContext(ctx, "e-mail an offer", "registration", r.ID, "err", err)
		}
		return
	}
	if u.jobQueued != nil {
		u.jobQueued(j)
	}
}

// mailConfirm e-mails r the link that confirms the registration: a
// durable job reserved under the registration's time limit
// (invite.ConfirmMailing), so it is e-mailed once however often the job
// is retried.
func (u *Registrations) mailConfirm(ctx context.Context, r guest.Registration) {
	if u.mail == nil || r.Email == "" || r.ConfirmBy == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	j, err := u.mail.Queue(ctx, guest.Guest{ID: r.ID, Email: r.Email}, invite.ConfirmMailing(r), invite.KindConfirm, r.Language)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) {
			u.log.WarnContext(ctx, "e-mail a registration's confirmation", "registration", r.ID, "err", err)
		}
		return
	}
	if u.jobQueued != nil {
		u.jobQueued(j)
	}
}

// Desk is the host's view of the registrations.
func (u *Registrations) Desk(ctx context.Context) (RegistrationsDesk, error) {
	all, err := u.store.Registrations(ctx)
	if err != nil {
		return RegistrationsDesk{}, err
	}
	c, err := u.counts(ctx, all)
	if all == nil {
		all = []guest.Registration{}
	}
	return RegistrationsDesk{Counts: c, Registrations: all}, err
}

func (u *Registrations) counts(ctx context.Context, all []guest.Registration) (RegistrationCounts, error) {
	st, err := u.store.Settings(ctx)
	if err != nil {
		return RegistrationCounts{}, err
	}
	p, err := u.store.RegistrationPlaces(ctx)
	if err != nil {
		return RegistrationCounts{}, err
	}
	c := RegistrationCounts{Mode: st.RegistrationMode(), Capacity: st.Capacity, Taken: p.Taken}
	for _, r := range all {
		switch r.Status {
		case guest.RegPlaced:
			c.Placed++
		case guest.RegOffered:
			c.Offered++
		case guest.RegWaiting:
			c.Waiting++
		case guest.RegPending:
			c.Pending++
		case guest.RegDeclined:
			c.Declined++
		}
	}
	return c, nil
}

// changed tells the host's desk, live, with the figures and the list.
func (u *Registrations) changed(ctx context.Context) {
	if u.pub == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	d, err := u.Desk(ctx)
	if err != nil {
		u.log.WarnContext(ctx, "read registrations to publish", "err", err)
		return
	}
	if err := u.pub.Publish(ctx, live.TopicAdmin, live.EventRegistrationsChanged, d); err != nil {
		u.log.WarnContext(ctx, "publish registrations.changed", "err", err)
	}
}

// record writes an audit entry for what happened outside a request (an
// offer, an expiry, a decline's places): the request's own entry, when
// there is one, says what the caller did.
func (u *Registrations) record(ctx context.Context, action, subject string, details map[string]any) {
	e := &audit.Entry{At: u.now(), ActorName: "barhub", Role: "system", Action: action, Subject: subject, Status: 200, Details: details}
	e.ID = audit.NewID(e.At)
	if err := u.store.InsertAudit(context.WithoutCancel(ctx), e); err != nil {
		u.log.WarnContext(ctx, "audit a registration step", "action", action, "err", err)
	}
}

func (u *Registrations) view(ctx context.Context, r guest.Registration, owner bool) (RegistrationView, error) {
	v := RegistrationView{ID: r.ID, Status: r.Status, FirstName: r.FirstName, LastName: r.LastName, PlusOnes: r.PlusOnes, OfferedUntil: r.OfferedUntil, ConfirmBy: r.ConfirmBy}
	if r.Status == guest.RegWaiting {
		n, err := u.store.WaitingAhead(ctx, r.Seq)
		if err != nil {
			return v, err
		}
		v.Position = n + 1
	}
	if !owner {
		return v, nil
	}
	v.Token = r.ID + "." + r.Secret
	if r.Status == guest.RegPlaced && r.GuestID != "" {
		g, err := u.store.GuestByID(ctx, r.GuestID)
		if err == nil {
			v.Code = g.Code
		} else if !errors.Is(err, store.ErrNotFound) {
			return v, err
		}
	}
	return v, nil
}

func (u *Registrations) byToken(ctx context.Context, token string) (guest.Registration, error) {
	id, secret, ok := cutToken(token)
	if !ok {
		return guest.Registration{}, errNoRegistration()
	}
	r, err := u.store.Registration(ctx, id)
	if err != nil {
		return r, u.notFound(err)
	}
	if subtle.ConstantTimeCompare([]byte(secret), []byte(r.Secret)) != 1 {
		return guest.Registration{}, errNoRegistration()
	}
	return r, nil
}

// lockToken takes the turn and reads the registration of token in it.
func (u *Registrations) lockToken(ctx context.Context, token string) (guest.Registration, func(), error) {
	if _, err := u.byToken(ctx, token); err != nil {
		return guest.Registration{}, nil, err
	}
	unlock, err := u.store.Lock(ctx, store.RegistrationLock, registrationLockTTL)
	if err != nil {
		return guest.Registration{}, nil, err
	}
	r, err := u.byToken(ctx, token)
	if err != nil {
		unlock()
		return r, nil, err
	}
	return r, unlock, nil
}

func (u *Registrations) notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errNoRegistration()
	}
	return err
}

func cutToken(token string) (id, secret string, ok bool) {
	if len(token) != 24+1+32 || token[24] != '.' {
		return "", "", false
	}
	return token[:24], token[25:], true
}

func newSecret() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
