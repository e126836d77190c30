package auth

import (
	"context"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store/storetest"
)

// TestTokenAndTicketCarryEvent: the event a person signed in to travels
// in their token and in the WebSocket ticket taken with it, and a token
// of the first event names none, as tokens signed before events did.
func TestTokenAndTicketCarryEvent(t *testing.T) {
	ctx := context.Background()
	keys, err := NewKeys(ctx, storetest.New(t), KeysConfig{TokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	tickets := newTestTickets(t, testTicketKey(), NewMemoryNonces())
	for _, event := range []string{"", "6b11aa00ff00ee00dd00cc00"} {
		id := Identity{GuestID: "g1", Name: "Dana", Role: guest.RoleBartender, SessionVersion: 2, Event: event}
		token, _, err := keys.Sign(id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := keys.Verify(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		if got.Event != event {
			t.Errorf("token of event %q verifies as event %q", event, got.Event)
		}
		ticket, err := tickets.Issue(ctx, got)
		if err != nil {
			t.Fatal(err)
		}
		if len(ticket) > maxTicketLen {
			t.Errorf("ticket of %d bytes, over the %d Redeem reads", len(ticket), maxTicketLen)
		}
		redeemed, err := tickets.Redeem(ctx, ticket)
		if err != nil {
			t.Fatal(err)
		}
		if redeemed.Event != event || redeemed.GuestID != "g1" || redeemed.Role != guest.RoleBartender {
			t.Errorf("ticket of event %q redeems as %+v", event, redeemed)
		}
	}
}
