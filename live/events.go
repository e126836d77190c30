package live

import "github.com/barhub/barhub/order"

// Events on TopicBar and on the ordering guest's topic, each carrying the
// order (order.Order): OrderEvent names the one for each status.
const (
	EventOrderPlaced    = "order.placed"
	EventOrderUpdated   = "order.updated"
	EventOrderPreparing = "order.preparing"
	EventOrderReady     = "order.ready"
	EventOrderServed    = "order.served"
	EventOrderCancelled = "order.cancelled"
)

// OrderEvent is the event announcing that an order reached status s.
func OrderEvent(s order.Status) string {
	switch s {
	case order.Queued:
		return EventOrderPlaced
	case order.Preparing:
		return EventOrderPreparing
	case order.Ready:
		return EventOrderReady
	case order.Served:
		return EventOrderServed
	case order.Cancelled:
		return EventOrderCancelled
	}
	return "order." + string(s)
}

// Events on TopicAdmin.
const (
	EventOrdersSummary = "orders.summary"
	EventRSVPChanged   = "rsvp.changed"
	EventStatsUpdated  = "stats.updated"
	EventGuestActivity = "guest.activity"
	EventInviteUpdated = "invite.updated"
	// EventRegistrationsChanged carries the registrations' figures and
	// list (app.RegistrationsDesk) after every change of places.
	EventRegistrationsChanged = "registrations.changed"
	EventPromptReady          = "drink.prompt_ready"
	EventAlert                = "alert"
	// EventPresenceChanged carries a Presence: how many people are
	// connected now, on every instance, after someone connected or left.
	EventPresenceChanged = "presence.changed"
)

// Arrivals at the door, on both TopicAdmin and TopicBar (door staff sign
// in as bartenders, who may not follow TopicAdmin).
const (
	EventCheckedIn     = "guest.checked_in"
	EventCheckInUndone = "guest.check_in_undone"
)

// Events on TopicGuests and the guests' own topics.
const (
	// EventAnnouncement carries an Announcement, to everyone on
	// TopicGuests or to one guest on their topic.
	EventAnnouncement = "announcement"
	// EventEventChanged carries the event's details, on TopicGuests.
	EventEventChanged = "event.changed"
	// EventRecommendationReady carries a Recommendation, on the guest's
	// topic.
	EventRecommendationReady = "recommendation.ready"
	// EventNeedsChanged carries NeedsChanged, on the guest's topic, when
	// the dietary needs of someone on their answer changed (their own
	// answer, the host's review or edit): the phone marks the menu again.
	EventNeedsChanged = "needs.changed"
)

// NeedsChanged is the data of EventNeedsChanged.
type NeedsChanged struct {
	// Unread are the guest's own words barhub could not read that nobody
	// has answered yet; empty when the menu's caution is lifted.
	Unread []string `json:"unread"`
}

// Events on TopicMenu.
const (
	EventMenuChanged = "menu.changed"
	// EventAppStatus says whether the guests' app is open.
	EventAppStatus = "app.status"
)

// EventBoardOrder is TopicBoard's one event: an order as the pick-up
// board shows it.
const EventBoardOrder = "board.order"
