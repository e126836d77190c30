package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
)

var household atomic.Int64

// addHousehold stores the members (sharing a fresh group when there are
// several) and returns them in order.
func (e *testEnv) addHousehold(members ...guest.Guest) []guest.Guest {
	e.t.Helper()
	group := ""
	if len(members) > 1 {
		group = fmt.Sprintf("house%d", household.Add(1))
	}
	out := make([]guest.Guest, len(members))
	for i, m := range members {
		m.GroupID = group
		if err := e.store.InsertGuest(context.Background(), &m); err != nil {
			e.t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func person(first string, expected int) guest.Guest {
	return guest.Guest{FirstName: first, LastName: "Family", ExpectedGuests: expected}
}

// TestRSVPGroupRules is the table of docs/DESIGN.md's flow 2, through the API
// on the real store. Each case answers for one household and checks what
// every member's status and headcount became.
func TestRSVPGroupRules(t *testing.T) {
	e := newTestEnv(t)
	type want struct {
		status int
		code   string
		// statuses and heads of the members after the answer, in order.
		statuses []guest.Status
		heads    []int
	}
	P, C, D := guest.StatusPending, guest.StatusComing, guest.StatusDeclined
	tests := []struct {
		name    string
		members []guest.Guest
		me      int
		body    func(ids []string) any
		want    want
	}{
		{"couple, both coming", []guest.Guest{person("Ada", 1), person("Bob", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 2} },
			want{200, "", []guest.Status{C, C}, []int{1, 1}}},
		{"family of four with children in expectedGuests", []guest.Guest{person("Mia", 3), person("Leo", 1)}, 1,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 4} },
			want{200, "", []guest.Status{C, C}, []int{3, 1}}},
		{"alone", []guest.Guest{person("Sam", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 1} },
			want{200, "", []guest.Status{C}, []int{1}}},
		{"more than expected without confirm", []guest.Guest{person("Sam", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 2} },
			want{422, guest.CodeConfirmMore, []guest.Status{P}, []int{0}}},
		{"more than expected, confirmed", []guest.Guest{person("Sam", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 2, "confirm": true} },
			want{200, "", []guest.Status{C}, []int{2}}},
		{"fewer without names", []guest.Guest{person("Ada", 1), person("Bob", 1), person("Cy", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 2} },
			want{422, guest.CodeWhoIsNotComing, []guest.Status{P, P, P}, []int{0, 0, 0}}},
		{"fewer with names", []guest.Guest{person("Ada", 1), person("Bob", 1), person("Cy", 1)}, 0,
			func(ids []string) any {
				return map[string]any{"status": "coming", "numGuests": 2, "notComing": []string{ids[2]}}
			},
			want{200, "", []guest.Status{C, C, D}, []int{1, 1, 0}}},
		{"declined for self", []guest.Guest{person("Ada", 1), person("Bob", 1)}, 1,
			func([]string) any { return map[string]any{"status": "declined"} },
			want{200, "", []guest.Status{P, D}, []int{0, 0}}},
		{"declined for the group", []guest.Guest{person("Mia", 3), person("Leo", 1)}, 0,
			func([]string) any { return map[string]any{"status": "declined", "scope": "group"} },
			want{200, "", []guest.Status{D, D}, []int{0, 0}}},
		{"naming someone outside the group", []guest.Guest{person("Ada", 1), person("Bob", 1)}, 0,
			func([]string) any {
				return map[string]any{"status": "coming", "numGuests": 1, "notComing": []string{"someone-else"}}
			},
			want{422, guest.CodeNotInGroup, []guest.Status{P, P}, []int{0, 0}}},
		{"zero people coming", []guest.Guest{person("Sam", 1)}, 0,
			func([]string) any { return map[string]any{"status": "coming", "numGuests": 0} },
			want{400, guest.CodeInvalidAnswer, []guest.Status{P}, []int{0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members := e.addHousehold(tt.members...)
			ids := make([]string, len(members))
			for i, m := range members {
				ids[i] = m.ID
			}
			status, body := e.do("PUT", "/api/rsvp", e.tokenFor(members[tt.me]), tt.body(ids))
			if status != tt.want.status {
				t.Fatalf("status %d, want %d: %s", status, tt.want.status, body)
			}
			if tt.want.code != "" {
				if got := errorCode(t, body); got != tt.want.code {
					t.Errorf("code %q, want %q", got, tt.want.code)
				}
			} else {
				var v rsvpView
				decodeInto(t, body, &v)
				if v.Message == "" || len(v.Group) != len(members) {
					t.Errorf("answer view = %s", body)
				}
			}
			for i, m := range members {
				got, err := e.store.GuestByID(context.Background(), m.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != tt.want.statuses[i] || got.Heads() != tt.want.heads[i] {
					t.Errorf("%s: %s with %d, want %s with %d", m.FirstName, got.Status, got.Heads(), tt.want.statuses[i], tt.want.heads[i])
				}
			}
		})
	}
}

func TestWhoIsNotComingErrorListsMembers(t *testing.T) {
	e := newTestEnv(t)
	members := e.addHousehold(person("Mia", 2), person("Leo", 1))
	status, body := e.do("PUT", "/api/rsvp", e.tokenFor(members[1]), `{"status":"coming","numGuests":2}`)
	if status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d: %s", status, body)
	}
	var eb struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details struct {
				Members       []guest.Member `json:"members"`
				ExpectedTotal int            `json:"expectedTotal"`
				NumGuests     int            `json:"numGuests"`
			} `json:"details"`
		} `json:"error"`
	}
	decodeInto(t, body, &eb)
	if !strings.Contains(eb.Error.Message, "who is not coming?") || !strings.Contains(eb.Error.Message, "Leo Family or Mia Family (+1)") {
		t.Errorf("message = %q", eb.Error.Message)
	}
	d := eb.Error.Details
	if len(d.Members) != 2 || d.Members[0].ID != members[1].ID && d.Members[1].ID != members[1].ID || d.ExpectedTotal != 3 || d.NumGuests != 2 {
		t.Errorf("details = %+v", d)
	}
	if strings.Contains(string(body), members[0].Code) {
		t.Error("the error shows another member's code")
	}
}

func TestRSVPAfterTheDeadline(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	sam := e.addHousehold(person("Sam", 1))[0]
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	status, body := e.do("PUT", "/api/admin/settings", e.tokenFor(admin), map[string]string{"eventName": "Late party", "rsvpDeadline": past, "timezone": "Europe/Lisbon"})
	if status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, body)
	}
	status, body = e.do("PUT", "/api/rsvp", e.tokenFor(sam), `{"status":"coming"}`)
	if status != http.StatusConflict || errorCode(t, body) != guest.CodeDeadlinePassed || !strings.Contains(string(body), "the RSVP deadline has passed; contact the host") {
		t.Errorf("after the deadline: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/rsvp", e.tokenFor(sam), nil)
	var v rsvpView
	decodeInto(t, body, &v)
	if status != http.StatusOK || !v.DeadlinePassed || v.Event.EventName != "Late party" {
		t.Errorf("GET after the deadline: %d %s", status, body)
	}
}

func TestGetRSVPAndEvent(t *testing.T) {
	e := newTestEnv(t)
	admin := e.addGuest(guest.Guest{Role: guest.RoleAdmin})
	status, body := e.do("PUT", "/api/admin/settings", e.tokenFor(admin), map[string]string{
		"eventName": "Garden party", "eventDate": "2099-06-19T16:00", "rsvpDeadline": "2099-06-01T12:00",
		"timezone": "Europe/Stockholm", "location": "Secret garden 1", "dressCode": "Linen", "info": "Bring sunglasses",
	})
	if status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, body)
	}
	var saved guest.Settings
	decodeInto(t, body, &saved)
	if saved.EventDate.Format(time.RFC3339) != "2099-06-19T16:00:00+02:00" {
		t.Errorf("eventDate = %s", saved.EventDate)
	}

	status, body = e.do("GET", "/api/event", "", nil)
	if status != http.StatusOK || strings.Contains(string(body), "Secret garden") || !strings.Contains(string(body), `"dressCode":"Linen"`) {
		t.Errorf("public event: %d %s", status, body)
	}

	members := e.addHousehold(person("Mia", 3), person("Leo", 1))
	status, body = e.do("GET", "/api/rsvp", e.tokenFor(members[0]), nil)
	var v rsvpView
	decodeInto(t, body, &v)
	if status != http.StatusOK || v.Guest.ID != members[0].ID || v.Guest.Code != members[0].Code || v.ExpectedTotal != 4 ||
		len(v.Group) != 2 || v.Event.Location != "Secret garden 1" || v.Event.Info != "Bring sunglasses" || v.DeadlinePassed {
		t.Errorf("rsvp view: %d %s", status, body)
	}
	if strings.Contains(string(body), members[1].Code) {
		t.Error("the group shows another member's code")
	}

	// Dietary and taste answers alone leave the RSVP as it was.
	status, body = e.do("PUT", "/api/rsvp", e.tokenFor(members[1]), map[string]any{
		"dietary": "lactose intolerant", "tastes": map[string]any{"likes": []string{"Sour", "fresh"}, "dislikes": []string{"sweet"}, "alcoholFree": true},
	})
	if status != http.StatusOK {
		t.Fatalf("dietary only: %d %s", status, body)
	}
	decodeInto(t, body, &v)
	if v.Guest.Status != guest.StatusPending || !slices.Equal(v.Guest.Dietary.Tags, []string{"milk"}) ||
		!slices.Equal(v.Guest.Tastes.Likes, []string{"sour", "fresh"}) || !v.Guest.Tastes.AlcoholFree {
		t.Errorf("after dietary answer: %s", body)
	}
	status, body = e.do("PUT", "/api/rsvp", e.tokenFor(members[1]), `{}`)
	if status != http.StatusBadRequest || errorCode(t, body) != guest.CodeNothingToChange {
		t.Errorf("empty answer: %d %s", status, body)
	}
}

// adminEvents returns the events published to the admin topic from now on.
func (e *testEnv) adminEvents() <-chan hub.Event {
	e.t.Helper()
	ch := make(chan hub.Event, 64)
	e.hub.OnEvent(live.TopicAdmin, func(ev hub.Event) { ch <- ev })
	return ch
}

func TestRSVPIsPublishedToTheHost(t *testing.T) {
	e := newTestEnv(t)
	events := e.adminEvents()
	members := e.addHousehold(person("Mia", 3), person("Leo", 1))
	status, body := e.do("PUT", "/api/rsvp", e.tokenFor(members[1]), map[string]any{"status": "coming", "numGuests": 2, "notComing": []string{members[1].ID}})
	if status != http.StatusOK {
		t.Fatalf("%d %s", status, body)
	}
	var got []string
	timeout := time.After(10 * time.Second)
	for len(got) < 2 {
		select {
		case ev := <-events:
			got = append(got, ev.Event)
			data := []byte(ev.Data)
			switch ev.Event {
			case "rsvp.changed":
				var c rsvpChanged
				json.Unmarshal(data, &c)
				if c.Reason != "rsvp" || c.By != members[1].ID || len(c.Guests) != 2 ||
					c.Answer == nil || c.Answer.Status != guest.StatusComing || c.Answer.NumGuests != 2 || c.Answer.Needs {
					t.Errorf("rsvp.changed = %s", data)
				}
			case "stats.updated":
				var s statsView
				json.Unmarshal(data, &s)
				if s.Coming != 1 || s.ComingHeads != 2 || s.Declined != 1 {
					t.Errorf("stats.updated = %s", data)
				}
			}
		case <-timeout:
			t.Fatalf("events so far %v, want rsvp.changed and stats.updated", got)
		}
	}
	if !slices.Equal(got, []string{"rsvp.changed", "stats.updated"}) {
		t.Errorf("events = %v", got)
	}
}
