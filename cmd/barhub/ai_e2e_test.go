package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/barhub/barhub/ai/bedrocktest"
)

// liveClient is a WebSocket connection to a test server, signed in.
type liveClient struct {
	t      testing.TB
	ws     *websocket.Conn
	events chan liveEvent
}

type liveEvent struct {
	Type  string          `json:"type"`
	Topic string          `json:"topic"`
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
	at    time.Time
}

// dialLive opens a socket with a ticket for c's sign-in and subscribes to
// topics, returning once every subscription is confirmed.
func dialLive(t testing.TB, c rsvpClient, topics ...string) *liveClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := dialTicket(ctx, t, c)
	ws.SetReadLimit(1 << 20)
	l := &liveClient{t: t, ws: ws, events: make(chan liveEvent, 256)}
	subscribed := make(chan string, len(topics))
	go func() {
		defer close(l.events)
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			ev := liveEvent{at: time.Now()}
			if json.Unmarshal(b, &ev) != nil {
				continue
			}
			switch ev.Type {
			case "subscribed":
				subscribed <- ev.Topic
			case "event":
				l.events <- ev
			}
		}
	}()
	for _, topic := range topics {
		msg, _ := json.Marshal(map[string]string{"type": "subscribe", "topic": topic})
		if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
	}
	for range topics {
		select {
		case <-subscribed:
		case <-ctx.Done():
			t.Fatalf("subscribing to %v timed out", topics)
		}
	}
	t.Cleanup(func() { ws.CloseNow() })
	return l
}

// dialTicket opens a socket with a ticket for c's sign-in, as a page does.
func dialTicket(ctx context.Context, t testing.TB, c rsvpClient) *websocket.Conn {
	t.Helper()
	var tk struct{ Ticket string }
	if status := c.call("POST", "/api/ws/ticket", nil, &tk); status != 200 {
		t.Fatalf("ticket: %d", status)
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/ws?ticket="+tk.Ticket, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	return ws
}

// next returns the first event named name whose data satisfies match.
func (l *liveClient) next(name string, match func(json.RawMessage) bool) liveEvent {
	l.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-l.events:
			if !ok {
				l.t.Fatalf("socket closed while waiting for %s", name)
			}
			if ev.Event == name && (match == nil || match(ev.Data)) {
				return ev
			}
		case <-deadline:
			l.t.Fatalf("no %s event within 30s", name)
		}
	}
}

type promptReady struct {
	DrinkID     string `json:"drinkId"`
	JobID       string `json:"jobId"`
	ImagePrompt struct {
		Text, Source, Model, PromptVersion string
	} `json:"imagePrompt"`
}

func forDrink(id string) func(json.RawMessage) bool {
	return func(b json.RawMessage) bool {
		var p promptReady
		return json.Unmarshal(b, &p) == nil && p.DrinkID == id
	}
}

func newDrink(name string, allergens ...string) map[string]any {
	if allergens == nil {
		allergens = []string{}
	}
	return map[string]any{
		"name": name, "section": "Spritzes", "tags": []string{"fresh", "sparkling"}, "allergens": allergens, "abv": 8,
		"ingredients": []map[string]any{{"name": "Prosecco", "amount": 100, "unit": "ml"}, {"name": "Elderflower cordial", "amount": 20, "unit": "ml"}},
	}
}

// menuGet reads a public menu route with the app's key, as the phones do.
func menuGet(t testing.TB, url string, out any) {
	t.Helper()
	base, _, _ := strings.Cut(url, "/api/")
	_, body := get(t, base+"/api/app-key")
	var k struct{ Key string }
	if err := json.Unmarshal([]byte(body), &k); err != nil || k.Key == "" {
		t.Fatalf("app key: %s", body)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Api-Key", k.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
}

// bedrockEnv points a test server at the local Converse server with
// static test credentials in the process environment, where the AWS SDK
// reads them.
func bedrockEnv(t *testing.T, srv *bedrocktest.Server) map[string]string {
	bedrocktest.IsolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTESTBARHUB")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret-not-real")
	return map[string]string{"AWS_REGION": "eu-north-1", "BARHUB_BEDROCK_ENDPOINT": srv.URL}
}

func TestNewDrinkGetsAnImagePromptLive(t *testing.T) {
	for _, withBedrock := range []bool{false, true} {
		t.Run(map[bool]string{false: "local", true: "bedrock"}[withBedrock], func(t *testing.T) {
			env := map[string]string{"AWS_REGION": ""}
			var srv *bedrocktest.Server
			if withBedrock {
				srv = bedrocktest.New(t)
				// The model takes a moment, so the menu below is read (and
				// cached) before the prompt is stored.
				srv.Default(bedrocktest.Response{Text: "A Hugo spritz in a tall wine glass on pale stone, soft shadows.", Delay: 300 * time.Millisecond})
				env = bedrockEnv(t, srv)
			}
			s := startServer(t, "", env)
			admin := signInAdmin(t, s)
			live := dialLive(t, admin, "admin")

			var d struct{ ID string }
			if status := admin.call("POST", "/api/admin/drinks", newDrink("Hugo"), &d); status != 201 {
				t.Fatalf("create drink: %d", status)
			}
			var got struct {
				ImagePrompt *struct{ Text, Source string } `json:"imagePrompt"`
			}
			menuGet(t, s.URL+"/api/drinks/"+d.ID, &got)
			ev := live.next("drink.prompt_ready", forDrink(d.ID))
			var p promptReady
			json.Unmarshal(ev.Data, &p)
			want := map[bool]string{false: "local", true: "bedrock"}[withBedrock]
			if p.ImagePrompt.Source != want || !strings.Contains(p.ImagePrompt.Text, "Hugo") {
				t.Fatalf("prompt %+v, want source %s", p.ImagePrompt, want)
			}
			if withBedrock {
				reqs := srv.Requests()
				if len(reqs) != 1 || reqs[0].ModelID != "amazon.nova-pro-v1:0" || !strings.Contains(reqs[0].UserText(), "Elderflower cordial") {
					t.Fatalf("Converse calls: %+v", reqs)
				}
			}

			// The drink carries it, past the menu cache: the menu.changed
			// event that drops the cache is handled beside the socket's
			// delivery, so the read may need a moment.
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				menuGet(t, s.URL+"/api/drinks/"+d.ID, &got)
				if got.ImagePrompt != nil {
					break
				}
			}
			if got.ImagePrompt == nil || got.ImagePrompt.Text != p.ImagePrompt.Text {
				t.Fatalf("drink's prompt %+v, want %q", got.ImagePrompt, p.ImagePrompt.Text)
			}
			// And the host's job list shows the finished job.
			var jobs struct {
				Jobs []struct {
					ID, Status string
					Result     map[string]string
				}
				Source string
			}
			// The job is marked done just after the event.
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				admin.call("GET", "/api/admin/jobs?kind=image_prompt&subject=drink:"+d.ID, nil, &jobs)
				if len(jobs.Jobs) == 1 && jobs.Jobs[0].Status == "done" {
					break
				}
			}
			if len(jobs.Jobs) != 1 || jobs.Jobs[0].ID != p.JobID || jobs.Jobs[0].Status != "done" || jobs.Source != want {
				t.Fatalf("jobs %+v", jobs)
			}
		})
	}
}

func TestRecommendationArrivesOnTheGuestsPhone(t *testing.T) {
	srv := bedrocktest.New(t)
	s := startServer(t, "", bedrockEnv(t, srv))
	admin := signInAdmin(t, s)
	for _, d := range []map[string]any{newDrink("Hugo"), newDrink("Almond Sour", "nuts"), newDrink("Garden Cooler")} {
		if status := admin.call("POST", "/api/admin/drinks", d, nil); status != 201 {
			t.Fatalf("create drink: %d", status)
		}
	}
	// The model names a nut drink for a guest who said "no nuts", and a
	// drink that does not exist; only Hugo survives.
	srv.Handle(func(r bedrocktest.Request) bedrocktest.Response {
		if r.Tool() != nil {
			return bedrocktest.ToolUse(`{"drinks":[{"id":"almond-sour","name":"Almond Sour","reason":"Nutty."},{"id":"hugo","name":"Hugo","reason":"Fresh and sparkling."},{"id":"ghost","name":"Ghost","reason":"?"}]}`)
		}
		return bedrocktest.Text("A drink on pale stone.")
	})
	var g e2eGuest
	if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": "Mia", "lastName": "Holm"}, &g); status != 201 {
		t.Fatalf("create guest: %d", status)
	}
	status, lr := login(t, s.URL, g.Code, "Holm")
	if status != 200 {
		t.Fatalf("guest login: %d", status)
	}
	mia := rsvpClient{t: t, base: s.URL, token: lr.Token}
	if status := mia.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 1, "dietary": "no nuts please"}, nil); status != 200 {
		t.Fatalf("rsvp: %d", status)
	}
	live := dialLive(t, mia, "guest:"+g.ID)

	var queued struct{ ID, Status string }
	if status := mia.call("POST", "/api/recommendations", map[string]any{"likes": []string{"fresh"}, "mood": "celebrating"}, &queued); status != 202 {
		t.Fatalf("request: %d", status)
	}
	ev := live.next("recommendation.ready", func(b json.RawMessage) bool { return strings.Contains(string(b), queued.ID) })
	var rec struct {
		ID, Status, Source string
		Drinks             []struct{ ID, Name, Reason string }
	}
	json.Unmarshal(ev.Data, &rec)
	if rec.ID != queued.ID || rec.Status != "done" || rec.Source != "bedrock" || len(rec.Drinks) != 1 || rec.Drinks[0].ID != "hugo" {
		t.Fatalf("pushed %s", ev.Data)
	}
	var got struct{ Status, Source string }
	if status := mia.call("GET", "/api/recommendations/"+queued.ID, nil, &got); status != 200 || got.Status != "done" {
		t.Fatalf("GET: %d %+v", status, got)
	}
	var reqs []bedrocktest.Request
	for _, r := range srv.Requests() {
		if r.Tool() != nil {
			reqs = append(reqs, r)
		}
	}
	// The menu the model sees is already safe for the guest.
	if len(reqs) != 1 || strings.Contains(reqs[0].UserText(), "almond-sour") || !strings.Contains(reqs[0].UserText(), `"id":"hugo"`) {
		t.Fatalf("recommendation prompt offers the nut drink to a guest with a nut allergy: %+v", reqs)
	}
}

// BenchmarkDrinkToPromptReady measures, through the whole binary, the
// time from the admin's POST /api/admin/drinks to drink.prompt_ready on
// the admin's socket, with the local prompt template and with Bedrock
// answering instantly from the local Converse server.
func BenchmarkDrinkToPromptReady(b *testing.B) {
	for _, withBedrock := range []bool{false, true} {
		b.Run(map[bool]string{false: "local", true: "bedrock"}[withBedrock], func(b *testing.B) {
			env := map[string]string{"AWS_REGION": ""}
			if withBedrock {
				srv := bedrocktest.New(b)
				srv.Default(bedrocktest.Text("A drink on pale stone."))
				bedrocktest.IsolateAWS(b)
				b.Setenv("AWS_ACCESS_KEY_ID", "AKIDTESTBARHUB")
				b.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret-not-real")
				env = map[string]string{"AWS_REGION": "eu-north-1", "BARHUB_BEDROCK_ENDPOINT": srv.URL}
			}
			s := startServer(b, "", env)
			admin := signInAdmin(b, s)
			live := dialLive(b, admin, "admin")
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			cpu := processCPU()
			for i := range b.N {
				start := time.Now()
				var d struct{ ID string }
				if status := admin.call("POST", "/api/admin/drinks", newDrink(fmt.Sprintf("Bench %d %d", time.Now().UnixNano(), i)), &d); status != 201 {
					b.Fatalf("create drink: %d", status)
				}
				ev := live.next("drink.prompt_ready", forDrink(d.ID))
				lat = append(lat, ev.at.Sub(start))
			}
			b.StopTimer()
			b.ReportMetric((processCPU()-cpu)*1000/float64(b.N), "cpu-ms/op")
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
