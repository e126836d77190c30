package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// Answers stored before needs were per person ("nötallergi" tagged
// "other", no needs summary) are read again at start: the tag the words
// name, the words not understood for the host's eyes, the summary the
// (status, needs) queries use. Running it again changes nothing.
func TestUpgradeDietary(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	now := time.Now().UTC()
	legacy := func(first, text string, tags ...string) string {
		id := store.NewID()
		doc := bson.D{{Key: "_id", Value: id}, {Key: "firstName", Value: first}, {Key: "lastName", Value: "Old"}, {Key: "lastNameKey", Value: "old"},
			{Key: "code", Value: "CODE" + id[len(id)-4:]}, {Key: "role", Value: "guest"}, {Key: "status", Value: "coming"}, {Key: "expectedGuests", Value: 1},
			{Key: "dietary", Value: bson.D{{Key: "text", Value: text}, {Key: "tags", Value: tags}}}, {Key: "createdAt", Value: now}, {Key: "updatedAt", Value: now}}
		if _, err := s.DB().Collection("guests").InsertOne(ctx, doc); err != nil {
			t.Fatal(err)
		}
		return id
	}
	swede := legacy("Sven", "nötallergi", "other")
	cook := legacy("Cid", "no coriander", "other")
	dairy := legacy("Dee", "dairy-free", "other")
	if n, err := s.UpgradeDietary(ctx); err != nil || n != 3 {
		t.Fatalf("UpgradeDietary = %d, %v; want 3", n, err)
	}
	check := func(id string, tags, unclear, needs []string) {
		t.Helper()
		g, err := s.GuestByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Dietary.Tags, tags) || !slices.Equal(g.Dietary.Unclear, unclear) || !slices.Equal(g.Needs, needs) {
			t.Errorf("%s: tags %q unclear %q needs %q; want %q %q %q", g.FirstName, g.Dietary.Tags, g.Dietary.Unclear, g.Needs, tags, unclear, needs)
		}
	}
	check(swede, []string{"nuts"}, nil, []string{"nuts"})
	check(cook, nil, []string{"no coriander"}, []string{guest.NeedReview})
	check(dairy, []string{"milk"}, nil, []string{"milk"})
	if n, err := s.UpgradeDietary(ctx); err != nil || n != 0 {
		t.Errorf("again: %d, %v; want 0", n, err)
	}
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.WithAllergies != 3 {
		t.Errorf("with allergies %d, want 3", st.WithAllergies)
	}
	list, err := s.DietaryGuests(ctx, guest.StatusComing)
	if err != nil || len(list) != 3 {
		t.Errorf("DietaryGuests = %d, %v", len(list), err)
	}
	assertStatsMatchRecount(t, s)
}

// The words a person answered of their unread needs are stored per
// person beside the rest of the answer, kept when the same words come
// again, and cleared by the host's review; the report's query still finds
// everyone with needs. Concrete numbers: two people, one of two parts
// answered, then none after the review.
func TestAnsweredUnreadNeeds(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	text := "diszulfirámot szedek, nem ihatok"
	g := guest.Guest{FirstName: "Aino", LastName: "Virtanen", Status: guest.StatusComing, ExpectedGuests: 2,
		Dietary:    guest.NormalizeDietary(guest.Dietary{Text: text, Tags: []string{"alcohol-free"}, Answered: []string{"nem ihatok", "not in the text"}}),
		Companions: []guest.Companion{{Name: "Eeva", Dietary: guest.NormalizeDietary(guest.Dietary{Text: "sinywi pombe"})}}}
	g.RefreshNeeds()
	if err := s.CreateGuest(ctx, &g); err != nil {
		t.Fatal(err)
	}
	got, err := s.GuestByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Dietary.Unclear, []string{"diszulfirámot szedek", "nem ihatok"}) || !slices.Equal(got.Dietary.Answered, []string{"nem ihatok"}) ||
		!slices.Equal(got.Dietary.Unread(), []string{"diszulfirámot szedek"}) || !slices.Equal(got.Companions[0].Dietary.Unread(), []string{"sinywi pombe"}) {
		t.Fatalf("stored %+v, companion %+v", got.Dietary, got.Companions[0].Dietary)
	}
	if !slices.Equal(got.Needs, []string{"alcohol-free", guest.NeedReview}) {
		t.Errorf("needs %q", got.Needs)
	}
	// The guest answers the other part too, with the same words.
	d, err := guest.Decide(guest.Answer{Dietary: &guest.Dietary{Text: text, Tags: []string{"alcohol-free"}, Answered: []string{"diszulfirámot szedek"}}}, got, []guest.Guest{got})
	if err != nil {
		t.Fatal(err)
	}
	after, err := s.ApplyRSVP(ctx, got, []guest.Guest{got}, d, time.Now())
	if err != nil || len(after) != 1 {
		t.Fatalf("ApplyRSVP: %v %d", err, len(after))
	}
	got, _ = s.GuestByID(ctx, g.ID)
	if len(got.Dietary.Unread()) != 0 || len(got.Dietary.Answered) != 2 || len(got.Companions[0].Dietary.Unread()) != 1 {
		t.Errorf("after the answer: %+v, companion %+v", got.Dietary, got.Companions[0].Dietary)
	}
	_, reviewed, err := s.ReviewDietary(ctx, g.ID, 1, []string{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.GuestByID(ctx, g.ID)
	if len(got.Companions[0].Dietary.Unread()) != 0 || len(got.Companions[0].Dietary.Answered) != 0 || !got.Companions[0].Dietary.Reviewed || len(reviewed.Companions[0].Dietary.Unread()) != 0 {
		t.Errorf("after the review: %+v", got.Companions[0].Dietary)
	}
	list, err := s.DietaryGuests(ctx, guest.StatusComing)
	if err != nil || len(list) != 1 || len(list[0].Dietary.Answered) != 2 {
		t.Errorf("DietaryGuests = %d, %v", len(list), err)
	}
}
