package push

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
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
	guestID, one := live.GuestOf(topic)
	everyone := topic == live.TopicGuests
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

// notifies reports whether event may become a notification.
func notifies(event string) bool {
	switch event {
	case live.EventOrderReady, live.EventOrderCancelled, live.EventAnnouncement, live.EventRecommendationReady:
		return true
	}
	return false
}

// payload reads an event's data as T: as it is when the publisher sent a
// T, through its JSON otherwise (a stored recommendation, an API's own
// type, a map).
func payload[T any](data any) (T, bool) {
	switch v := data.(type) {
	case T:
		return v, true
	case *T:
		if v != nil {
			return *v, true
		}
	}
	var t T
	b, err := json.Marshal(data)
	if err != nil {
		return t, false
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return t, false
	}
	return t, true
}

// notificationFor words the notification for a live event, or says there
// is none: an announcement the host did not mark for push, a cancellation
// the guest made themselves, a recommendation that failed.
func notificationFor(event string, data any) (Notification, bool) {
	switch event {
	case live.EventOrderReady:
		o, ok := payload[order.Order](data)
		if !ok {
			return Notification{}, false
		}
		return Notification{Kind: event, Title: "Your drink is ready" + ticket(o.Ticket),
			Body: drinks(o) + " — collect it at the bar.", URL: "/?order=" + o.ID, Tag: "order-" + o.ID, OrderID: o.ID,
			TitleKey: "push.ready.title", BodyKey: "push.ready.body", Vars: orderVars(o)}, true
	case live.EventOrderCancelled:
		o, ok := payload[order.Order](data)
		if !ok || len(o.History) == 0 {
			return Notification{}, false
		}
		last := o.History[len(o.History)-1]
		if last.ActorID == o.GuestID {
			return Notification{}, false // they cancelled it themselves
		}
		body, bodyKey := drinks(o)+" was cancelled by the bar.", "push.cancelled.body"
		vars := orderVars(o)
		if last.Reason != "" {
			body, bodyKey = drinks(o)+" was cancelled: "+last.Reason, "push.cancelled.reason"
			vars["Reason"] = last.Reason
		}
		return Notification{Kind: event, Title: "Your order was cancelled" + ticket(o.Ticket), Body: body,
			URL: "/?order=" + o.ID, Tag: "order-" + o.ID, OrderID: o.ID,
			TitleKey: "push.cancelled.title", BodyKey: bodyKey, Vars: vars}, true
	case live.EventAnnouncement:
		a, ok := payload[live.Announcement](data)
		if !ok || !a.Push || a.Text == "" {
			return Notification{}, false
		}
		title, key := "Announcement", "push.announcement.title"
		if a.From != "" {
			title, key = "From "+a.From, "push.announcement.from"
		}
		return Notification{Kind: event, Title: title, Body: a.Text, URL: "/", Tag: "announcement",
			TitleKey: key, Vars: map[string]any{"From": a.From}}, true
	case live.EventRecommendationReady:
		r, ok := payload[live.Recommendation](data)
		if !ok || r.Status != live.RecommendationDone || len(r.Drinks) == 0 {
			return Notification{}, false
		}
		names := make([]string, 0, len(r.Drinks))
		for _, d := range r.Drinks {
			names = append(names, d.Name)
		}
		return Notification{Kind: event, Title: "The bartender has picked drinks for you",
			Body: strings.Join(names, ", "), URL: "/?tab=ask", Tag: "recommendation", TitleKey: "push.recommendation.title"}, true
	}
	return Notification{}, false
}

func drinks(o order.Order) string {
	parts := make([]string, 0, len(o.Items))
	for _, it := range o.Items {
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

// orderVars fill in an order's notification in the catalogues.
func orderVars(o order.Order) map[string]any {
	return map[string]any{"Ticket": ticket(o.Ticket), "Drinks": drinks(o)}
}

// ticket is " (#12)" when the order has a ticket number.
func ticket(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (#%d)", n)
}

// PushHost queues a notification for every device of admin adminID: the
// host's notifications (app.Host, docs/PUSH.md). kind is "host.<kind>".
func (s *Sender) PushHost(adminID, kind, title, body, url, tag string) {
	s.Notify(adminID, Notification{Kind: kind, Title: title, Body: body, URL: url, Tag: tag})
}
