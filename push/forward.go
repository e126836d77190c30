package push

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/barhub/barhub/hub"
)

// Publisher sends live events to hub topics (the hub, or a wrapper): one,
// or several in one exchange with the broker.
type Publisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
	PublishMany(ctx context.Context, out []hub.Outgoing) error
}

// Notifier queues notifications; *Sender is one.
type Notifier interface {
	Notify(guestID string, n Notification)
	NotifyEveryone(n Notification)
}

// Forward returns a Publisher that publishes to next and also notifies
// the guests' devices of the events worth a notification. Wrapping the
// publisher, rather than calling the sender from each handler, means the
// process that made the change sends the push exactly once (the API for
// orders and announcements, whichever process runs the AI worker for
// recommendations), and nothing that publishes can forget to.
func Forward(next Publisher, n Notifier) Publisher {
	return forwarder{next: next, n: n}
}

type forwarder struct {
	next Publisher
	n    Notifier
}

func (f forwarder) Publish(ctx context.Context, topic, event string, data any) error {
	err := f.next.Publish(ctx, topic, event, data)
	f.notify(topic, event, data)
	return err
}

// PublishMany is Publish for a batch (a personal announcement to many
// guests): one exchange with the broker, then one notification per guest.
func (f forwarder) PublishMany(ctx context.Context, out []hub.Outgoing) error {
	err := f.next.PublishMany(ctx, out)
	for _, o := range out {
		f.notify(o.Topic, o.Event, o.Data)
	}
	return err
}

func (f forwarder) notify(topic, event string, data any) {
	guestID, one := strings.CutPrefix(topic, "guest:")
	everyone := topic == "guests"
	if !(one || everyone) || !notifies(event) {
		return
	}
	if n, ok := notificationFor(event, data); ok {
		if everyone {
			f.n.NotifyEveryone(n)
		} else {
			f.n.Notify(guestID, n)
		}
	}
}

// Live events that may become a notification.
const (
	eventReady          = "order.ready"
	eventCancelled      = "order.cancelled"
	eventAnnouncement   = "announcement"
	eventRecommendation = "recommendation.ready"
)

func notifies(event string) bool {
	switch event {
	case eventReady, eventCancelled, eventAnnouncement, eventRecommendation:
		return true
	}
	return false
}

// eventFields is the part of the events' JSON a notification needs: an
// order, an announcement or a recommendation.
type eventFields struct {
	ID      string `json:"id"`
	GuestID string `json:"guestId"`
	Ticket  any    `json:"ticket"`
	Items   []struct {
		Name string `json:"name"`
		Qty  int    `json:"qty"`
	} `json:"items"`
	History []struct {
		ActorID string `json:"actorId"`
		Reason  string `json:"reason"`
	} `json:"history"`

	Text string `json:"text"`
	From string `json:"from"`
	Push bool   `json:"push"`

	Status string `json:"status"`
	Drinks []struct {
		Name string `json:"name"`
	} `json:"drinks"`
}

// notificationFor words the notification for a live event, or says there
// is none: an announcement the host did not mark for push, a cancellation
// the guest made themselves, a recommendation that failed.
func notificationFor(event string, data any) (Notification, bool) {
	b, err := json.Marshal(data)
	if err != nil {
		return Notification{}, false
	}
	var e eventFields
	if err := json.Unmarshal(b, &e); err != nil {
		return Notification{}, false
	}
	switch event {
	case eventReady:
		return Notification{Kind: event, Title: "Your drink is ready" + ticket(e.Ticket),
			Body: drinks(e) + " — collect it at the bar.", URL: "/?order=" + e.ID, Tag: "order-" + e.ID, OrderID: e.ID}, true
	case eventCancelled:
		if len(e.History) == 0 {
			return Notification{}, false
		}
		last := e.History[len(e.History)-1]
		if last.ActorID == e.GuestID {
			return Notification{}, false // they cancelled it themselves
		}
		body := drinks(e) + " was cancelled by the bar."
		if last.Reason != "" {
			body = drinks(e) + " was cancelled: " + last.Reason
		}
		return Notification{Kind: event, Title: "Your order was cancelled" + ticket(e.Ticket), Body: body,
			URL: "/?order=" + e.ID, Tag: "order-" + e.ID, OrderID: e.ID}, true
	case eventAnnouncement:
		if !e.Push || e.Text == "" {
			return Notification{}, false
		}
		title := "Announcement"
		if e.From != "" {
			title = "From " + e.From
		}
		return Notification{Kind: event, Title: title, Body: e.Text, URL: "/", Tag: "announcement"}, true
	case eventRecommendation:
		if e.Status != "done" || len(e.Drinks) == 0 {
			return Notification{}, false
		}
		names := make([]string, 0, len(e.Drinks))
		for _, d := range e.Drinks {
			names = append(names, d.Name)
		}
		return Notification{Kind: event, Title: "The bartender has picked drinks for you",
			Body: strings.Join(names, ", "), URL: "/?tab=ask", Tag: "recommendation"}, true
	}
	return Notification{}, false
}

func drinks(e eventFields) string {
	parts := make([]string, 0, len(e.Items))
	for _, it := range e.Items {
		if it.Qty > 1 {
			parts = append(parts, fmt.Sprintf("%d× %s", it.Qty, it.Name))
		} else {
			parts = append(parts, it.Name)
		}
	}
	if len(parts) == 0 {
		return "Your order"
	}
	return strings.Join(parts, ", ")
}

// ticket is " (#12)" when the order has a ticket number.
func ticket(t any) string {
	switch v := t.(type) {
	case float64:
		return fmt.Sprintf(" (#%d)", int(v))
	case string:
		if v != "" {
			return " (#" + v + ")"
		}
	}
	return ""
}
