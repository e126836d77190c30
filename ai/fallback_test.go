package ai_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// Reproduction: the guest's note said "busy" for every way the model
// failed, also when it answered at once with unsafe, off-menu or prose
// picks, and the job's result said "no tool call" for a tool call with an
// empty or malformed input. Now the job names the real cause for the
// host, and the note tells the guest which case it is.
func TestRecommendationSaysWhatHappened(t *testing.T) {
	picks := func(ids ...string) bedrocktest.Response {
		var b strings.Builder
		b.WriteString(`{"drinks":[`)
		for i, id := range ids {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"id":"` + id + `","name":"` + id + `","reason":"Lovely."}`)
		}
		b.WriteString(`]}`)
		return bedrocktest.ToolUse(b.String())
	}
	nutAllergy := ai.Guest{DietaryText: "Allergic to nuts", DietaryTags: []string{"nuts"}}
	tests := []struct {
		name  string
		resp  bedrocktest.Response
		guest ai.Guest
		req   store.RecommendationRequest
		cause string
		note  string
		calls int
		// detail is in the host's reading of the cause.
		detail string
	}{
		{"throttled", bedrocktest.Throttle(), ai.Guest{}, store.RecommendationRequest{}, ai.CauseThrottled, "busy", 1, "ThrottlingException"},
		{"429 from a gateway", bedrocktest.Response{Status: http.StatusTooManyRequests, ErrorType: "TooManyRequestsException", Message: "slow down"}, ai.Guest{}, store.RecommendationRequest{}, ai.CauseThrottled, "busy", 1, "429"},
		{"timed out", bedrocktest.Response{ToolInput: `{"drinks":[{"id":"negroni"}]}`, Delay: 10 * time.Second}, ai.Guest{}, store.RecommendationRequest{}, ai.CauseTimedOut, "busy", 1, "deadline exceeded"},
		{"model error", bedrocktest.ServerError(), ai.Guest{}, store.RecommendationRequest{}, ai.CauseModelError, "busy", 2, "InternalServerException"},
		{"empty tool input", bedrocktest.ToolUse(`{}`), ai.Guest{}, store.RecommendationRequest{}, ai.CauseEmptyTool, "unusable", 2, "empty tool input"},
		{"empty list of drinks", bedrocktest.ToolUse(`{"drinks":[]}`), ai.Guest{}, store.RecommendationRequest{}, ai.CauseEmptyTool, "unusable", 2, `{"drinks":[]}`},
		{"malformed tool input", bedrocktest.ToolUse(`{"drinks":"many"}`), ai.Guest{}, store.RecommendationRequest{}, ai.CauseMalformedTool, "unusable", 2, "malformed tool input"},
		{"prose instead of a tool call", bedrocktest.Text("Oh, you'd love a Mai Tai tonight!"), ai.Guest{}, store.RecommendationRequest{}, ai.CauseProse, "unusable", 2, "stop reason end_turn"},
		{"unsafe picks", picks("mai-tai"), nutAllergy, store.RecommendationRequest{}, ai.CausePicksUnsafe, "unsafe", 2, "1 unsafe"},
		{"unsafe and off-menu picks", picks("ghost-punch", "mai-tai"), nutAllergy, store.RecommendationRequest{}, ai.CausePicksUnsafe, "unsafe", 2, "1 unsafe, 1 off the menu"},
		{"off-menu picks", picks("ghost-punch", "espresso-martini"), ai.Guest{}, store.RecommendationRequest{}, ai.CausePicksDropped, "unusable", 2, "2 off the menu"},
		{"disliked picks", picks("white-russian"), ai.Guest{}, store.RecommendationRequest{Dislikes: []string{"sweet"}}, ai.CausePicksDropped, "unusable", 2, "1 disliked"},
		{"content filtered", bedrocktest.Response{StopReason: "content_filtered"}, ai.Guest{}, store.RecommendationRequest{}, ai.CauseFiltered, "unusable", 1, "content_filtered"},
	}
	notes := map[string]string{
		"busy":     "The AI bartender is busy right now, so these picks come from the house recommender.",
		"unsafe":   "The AI bartender suggested something that is not safe for you, so these picks come from the house recommender.",
		"unusable": "The AI bartender's answer could not be used, so these picks come from the house recommender.",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := budgetRig(t)
			r.srv.Default(tt.resp)
			r.guests.guests["g4"] = tt.guest
			r.start(t, r.st, "w1")
			rec, j := r.request(t, "g4", tt.req)
			done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
			got, err := r.st.RecommendationByID(context.Background(), rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if done.Result["fallbackCause"] != tt.cause || !strings.HasPrefix(done.Result["fallback"], tt.cause+": ") || !strings.Contains(done.Result["fallback"], tt.detail) {
				t.Errorf("job result %v, want the cause %s with %q", done.Result, tt.cause, tt.detail)
			}
			if got.Source != ai.SourceLocal || !got.Fallback || got.NoteID != tt.note || got.Note != notes[tt.note] || len(got.Drinks) == 0 {
				t.Errorf("recommendation %+v, want local picks with the %q note", got, tt.note)
			}
			if n := r.srv.Count(); n != tt.calls {
				t.Errorf("%d model calls, want %d", n, tt.calls)
			}
		})
	}
}

// With every model slot held by a call the model has not answered, a
// guest's request is answered locally without waiting for the model: it
// completes while the model still holds the first call. The slots are the
// installation's: a guest of another event, with a bartender of its own,
// finds them as full.
func TestFullModelSlotsAnswerLocallyAtOnce(t *testing.T) {
	for _, tt := range []struct {
		name        string
		otherEvent  bool
		sharedSlots bool
	}{
		{"one event", false, false},
		{"another event's guest", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, true)
			if tt.sharedSlots {
				r.slots = ai.NewModelSlots(1)
			}
			second := r
			if tt.otherEvent {
				other := *r
				other.st = storetest.New(t)
				second = &other
			}
			fullSlots(t, r, second)
		})
	}
}

// fullSlots has r's guest take the one model slot and second's ask while
// the model holds it; r and second may be two events.
func fullSlots(t *testing.T, r, second *rig) {
	r.cfg = &ai.Config{RecommendBudget: time.Minute, ModelCallTimeout: 50 * time.Second, ModelSlots: 1, SlotWait: 10 * time.Millisecond}
	held := make(chan struct{}, 2)
	release := make(chan struct{})
	var releaseOnce sync.Once
	letGo := func() { releaseOnce.Do(func() { close(release) }) }
	// Before the server's own clean-up, which waits for its calls.
	t.Cleanup(letGo)
	var calls atomic.Int32
	r.srv.Handle(func(bedrocktest.Request) bedrocktest.Response {
		// The model holds the first call; a call that should not have
		// been made is answered at once, for the test to see it.
		if calls.Add(1) == 1 {
			held <- struct{}{}
			<-release
		}
		return bedrocktest.ToolUse(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter."}]}`)
	})
	r.guests.guests["g5"] = ai.Guest{}
	r.guests.guests["g6"] = ai.Guest{}
	r.start(t, r.st, "w1")
	if second != r {
		second.cfg = r.cfg
		second.start(t, second.st, "w2")
	}

	first, firstJob := r.request(t, "g5", store.RecommendationRequest{})
	<-held // the one slot is taken by a call the model holds
	asked, secondJob := second.request(t, "g6", store.RecommendationRequest{})
	done := jobstest.WaitJob(t, second.st, secondJob.ID, store.JobDone)
	got, err := second.st.RecommendationByID(context.Background(), asked.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != ai.SourceLocal || got.NoteID != "busy" || len(got.Drinks) == 0 || done.Result["fallbackCause"] != ai.CauseNoSlot || done.Result["modelCalls"] != "0" {
		t.Errorf("second request %+v, job %v: want the local answer without a model call", got, done.Result)
	}
	// The model still holds the first call: nothing has answered it.
	if f, _ := r.st.RecommendationByID(context.Background(), first.ID); f.Status != store.RecommendationQueued || r.srv.Count() != 1 {
		t.Errorf("first request %s after %d calls, want it still waiting on its one call", f.Status, r.srv.Count())
	}
	r.pub.wait(t, live.GuestTopic("g6"), live.EventRecommendationReady)

	letGo()
	jobstest.WaitJob(t, r.st, firstJob.ID, store.JobDone)
	if f, _ := r.st.RecommendationByID(context.Background(), first.ID); f.Source != ai.SourceBedrock {
		t.Errorf("first request %+v, want the model's answer", f)
	}
}
