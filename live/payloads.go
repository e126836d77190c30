package live

import "time"

// Announcement is the host's message, the data of EventAnnouncement.
type Announcement struct {
	Text   string    `json:"text"`
	From   string    `json:"from"`
	At     time.Time `json:"at"`
	SentAt int64     `json:"sentAt,omitempty"`
	// Push asks for a notification on the guests' devices as well.
	Push bool `json:"push,omitempty"`
}

// Presence is the data of EventPresenceChanged and of GET
// /api/admin/presence's "people": the people with a live connection on
// any instance, by role ("guest" are the phones and tablets).
type Presence struct {
	People map[string]int `json:"people"`
}

// Recommendation is what the data of EventRecommendationReady promises
// its readers: the stored recommendation is sent whole, and these are
// the fields of it that are part of the protocol.
type Recommendation struct {
	ID      string `json:"id"`
	GuestID string `json:"guestId"`
	// Status is RecommendationDone or RecommendationFailed.
	Status string             `json:"status"`
	Drinks []RecommendedDrink `json:"drinks"`
}

// The statuses a Recommendation is published with.
const (
	RecommendationDone   = "done"
	RecommendationFailed = "failed"
)

// RecommendedDrink is one pick of a Recommendation.
type RecommendedDrink struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}
