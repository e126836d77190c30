package api

import (
	"github.com/barhub/barhub/app"
)

// guestSide is the guest side's use cases (package app): answering an
// invitation, the door, announcements and invitations.
type guestSide struct {
	dashboard     *app.Dashboard
	rsvp          *app.RSVP
	door          *app.Door
	announcements *app.Announcements
	invitations   *app.Invitations
	registrations *app.Registrations
}

// The guest side's answers and events, by the names this package's
// routes and tests use for them.
type (
	rsvpView    = app.RSVPView
	rsvpChanged = app.GuestsChanged
	checkInView = app.CheckInResult
	doorStats   = app.DoorStats
	doorEvent   = app.DoorEvent
	undoView    = app.UndoResult
	lookupView  = app.LookupResult
	sendResult  = app.SendResult
)

// newGuestSide builds the guest side's use cases over the server's parts.
func (s *Server) newGuestSide() guestSide {
	var g guestSide
	g.dashboard = app.NewDashboard(s.publish, s.store, s.log)
	g.rsvp = app.NewRSVP(s.store, g.dashboard)
	g.door = app.NewDoor(s.store, s.menu, s.doorThrottle, g.dashboard, s.log)
	g.announcements = app.NewAnnouncements(s.publish)
	inv := app.InvitationsDeps{Store: s.store, JobQueued: s.ai.JobQueued, Publish: s.publish, Log: s.log}
	if s.mail.Configured {
		inv.Mail = mailQueue{s.store}
	}
	g.invitations = app.NewInvitations(inv)
	regs := app.RegistrationsDeps{Store: s.store, Publish: s.publish, Notify: s.placeOffered, Host: s.host, JobQueued: s.ai.JobQueued, Dashboard: g.dashboard, Log: s.log, Now: s.cfg.Now}
	if s.mail.Configured {
		regs.Mail = mailQueue{s.store}
	}
	g.registrations = app.NewRegistrations(regs)
	// A registered guest who declines gives the places back to the line.
	g.rsvp.OnDeclined(g.registrations.Declined)
	// One coming again, or bringing more, takes places first.
	g.rsvp.OnComing(g.registrations.Coming)
	return g
}
