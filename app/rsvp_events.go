package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

// Publisher sends a live event to a hub topic on every instance.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
}

// StatsReader reads the kept guest figures.
type StatsReader interface {
	Stats(ctx context.Context) (store.GuestStats, error)
}

// StatsView is GET /api/admin/stats and the stats.updated event.
type StatsView struct {
	guest.Counts
	// Answered is coming + declined.
	Answered    int       `json:"answered"`
	Version     int64     `json:"version"`
	UpdatedAt   time.Time `json:"updatedAt"`
	RecountedAt time.Time `json:"recountedAt"`
	// Timeline is set when asked for (?timeline=true).
	Timeline []guest.Day `json:"timeline,omitempty"`
}

// NewStatsView is the view of the kept figures st.
func NewStatsView(st store.GuestStats) StatsView {
	return StatsView{Counts: st.Counts, Answered: st.Coming + st.Declined, Version: st.Version, UpdatedAt: st.UpdatedAt, RecountedAt: st.RecountedAt}
}

// GuestsChanged is the data of the rsvp.changed event on the admin topic.
type GuestsChanged struct {
	// Reason is rsvp (a guest answered), created, edited, deleted,
	// import or walk-in (added at the door, docs/DOOR.md).
	Reason string         `json:"reason"`
	By     string         `json:"by"`
	ByName string         `json:"byName"`
	Guests []guest.Member `json:"guests,omitempty"`
	// Deleted lists guests that are gone.
	Deleted []string `json:"deleted,omitempty"`
	// Answer is what a guest's answer said (reason rsvp).
	Answer *AnswerNote `json:"answer,omitempty"`
	At     time.Time   `json:"at"`
}

// NewGuestsChanged is the rsvp.changed event of by's change.
func NewGuestsChanged(reason string, by auth.Identity, changed []guest.Guest, deleted []string, answer *AnswerNote) GuestsChanged {
	ev := GuestsChanged{Reason: reason, By: by.GuestID, ByName: by.Name, Deleted: deleted, Answer: answer, At: time.Now().UTC()}
	for _, g := range changed {
		ev.Guests = append(ev.Guests, guest.MemberOf(g))
	}
	return ev
}

// Dashboard tells the host's dashboards (and the door tablets) what
// changed, live. It is best effort: a use case never waits on or fails
// for a publish, so the publisher's errors go to the log only.
type Dashboard struct {
	pub   Publisher
	stats StatsReader
	log   *slog.Logger
}

// NewDashboard returns a Dashboard publishing through pub with figures
// from stats; a nil pub, or a nil *Dashboard, publishes nothing.
func NewDashboard(pub Publisher, stats StatsReader, log *slog.Logger) *Dashboard {
	if log == nil {
		log = slog.Default()
	}
	return &Dashboard{pub: pub, stats: stats, log: log}
}

// GuestsChanged publishes rsvp.changed, then stats.updated with the
// figures after the change.
func (d *Dashboard) GuestsChanged(ctx context.Context, ev GuestsChanged) {
	if d == nil || d.pub == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if err := d.pub.Publish(ctx, live.TopicAdmin, live.EventRSVPChanged, ev); err != nil {
		d.log.WarnContext(ctx, "publish rsvp.changed", "err", err)
	}
	d.publishStats(ctx)
}

func (d *Dashboard) publishStats(ctx context.Context) {
	st, err := d.stats.Stats(ctx)
	if err != nil {
		d.log.WarnContext(ctx, "read stats to publish", "err", err)
		return
	}
	if err := d.pub.Publish(ctx, live.TopicAdmin, live.EventStatsUpdated, NewStatsView(st)); err != nil {
		d.log.WarnContext(ctx, "publish stats.updated", "err", err)
	}
}

// NeedsChanged tells each guest of gs, on their own topic, that the
// dietary needs on their answer changed, with the words of their own
// still unread, so their phone marks the menu again without a reload.
func (d *Dashboard) NeedsChanged(ctx context.Context, gs []guest.Guest) {
	for _, g := range gs {
		unread := g.Dietary.Unread()
		if unread == nil {
			unread = []string{}
		}
		d.publish(ctx, live.GuestTopic(g.ID), live.EventNeedsChanged, live.NeedsChanged{Unread: unread})
	}
}

// publish sends one event, logging a failure.
func (d *Dashboard) publish(ctx context.Context, topic, event string, data any) {
	if d == nil || d.pub == nil {
		return
	}
	if err := d.pub.Publish(context.WithoutCancel(ctx), topic, event, data); err != nil {
		d.log.WarnContext(ctx, "publish event", "topic", topic, "event", event, "err", err)
	}
}
