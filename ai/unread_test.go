package ai_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/store"
)

// unreadGuest wrote their needs in a language barhub does not read
// ("I take disulfiram", in Hungarian), as the stored answer keeps it.
func (r *rig) unreadGuest() string {
	r.guests.guests["hu"] = ai.Guest{ID: "hu", Name: "Aino Virtanen", DietaryText: "diszulfirámot szedek", DietaryUnclear: []string{"diszulfirámot szedek"}}
	return "hu"
}

// careful are the drinks of testMenu free of the fourteen allergens and
// of alcohol.
var careful = []string{"garden-spritz", "lemonade", "virgin-colada"}

// Reproduction: a guest whose needs barhub could not read was offered
// drinks with alcohol and allergens by both recommenders. Until the guest
// or the host answers, both offer only drinks free of the fourteen and of
// alcohol, each saying why in the guest's language; the model is told the
// unread words, and barhub's rule still filters its picks.
func TestRecommendationsTakeCareOverUnreadNeeds(t *testing.T) {
	t.Run("local", func(t *testing.T) {
		r := newRig(t, false)
		gid := r.unreadGuest()
		r.start(t, r.st, "w1")
		recEN, jEN := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter", "strong"}})
		recSV, jSV := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter"}, Language: "sv"})
		jobstest.WaitJob(t, r.st, jEN.ID, store.JobDone)
		jobstest.WaitJob(t, r.st, jSV.ID, store.JobDone)
		for id, why := range map[string]string{recEN.ID: "We could not read “diszulfirámot szedek”", recSV.ID: "Vi kunde inte läsa “diszulfirámot szedek”"} {
			got, err := r.st.RecommendationByID(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Drinks) == 0 {
				t.Fatalf("nothing recommended: %+v", got)
			}
			for _, d := range got.Drinks {
				if !slices.Contains(careful, d.ID) || !strings.Contains(d.Reason, why) {
					t.Errorf("%s %q: want one of %v, saying %q", d.ID, d.Reason, careful, why)
				}
			}
		}
	})
	t.Run("bedrock", func(t *testing.T) {
		r := newRig(t, true)
		gid := r.unreadGuest()
		r.srv.Script(bedrocktest.ToolUse(`{"drinks":[
			{"id":"negroni","name":"Negroni","reason":"Bitter and strong."},
			{"id":"aperol-spritz","name":"Aperol Spritz","reason":"Bitter and light."},
			{"id":"garden-spritz","name":"Garden Spritz","reason":"Fresh and floral."}
		]}`))
		r.start(t, r.st, "w1")
		rec, j := r.request(t, gid, store.RecommendationRequest{Likes: []string{"bitter"}})
		jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		got, err := r.st.RecommendationByID(context.Background(), rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Source != "bedrock" || len(got.Drinks) != 1 || got.Drinks[0].ID != "garden-spritz" ||
			got.Drinks[0].Reason != "Fresh and floral. We could not read “diszulfirámot szedek” in your needs, so until the bar checks it with you we only suggest drinks without any of the fourteen allergens and without alcohol." {
			t.Fatalf("recommendation %+v", got)
		}
		user := r.srv.Requests()[0].UserText()
		if !strings.Contains(user, `- words of their needs we could not read: ["diszulfirámot szedek"]`) || !strings.Contains(user, `- dietary needs: []`) {
			t.Errorf("the request does not carry the needs:\n%s", user)
		}
		for _, id := range []string{"negroni", "aperol-spritz", "mai-tai", "moscow-mule", "whiskey-sour"} {
			if strings.Contains(user, `"id":"`+id+`"`) {
				t.Errorf("the model was offered %s:\n%s", id, user)
			}
		}
	})
	t.Run("answered", func(t *testing.T) {
		// The guest said the words mean "no alcohol": the caution is
		// lifted, the answer holds.
		r := newRig(t, false)
		r.guests.guests["hu"] = ai.Guest{ID: "hu", DietaryText: "diszulfirámot szedek", DietaryTags: []string{"alcohol-free"},
			DietaryUnclear: []string{"diszulfirámot szedek"}, DietaryAnswered: []string{"diszulfirámot szedek"}}
		r.start(t, r.st, "w1")
		rec, j := r.request(t, "hu", store.RecommendationRequest{Likes: []string{"creamy"}})
		jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		got, _ := r.st.RecommendationByID(context.Background(), rec.ID)
		if len(got.Drinks) == 0 || got.Drinks[0].ID != "virgin-colada" || strings.Contains(got.Drinks[0].Reason, "could not read") {
			t.Errorf("answered: %+v", got)
		}
	})
}
