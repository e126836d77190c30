package bedrock_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
)

func newClient(t *testing.T, srv *bedrocktest.Server, timeout time.Duration) *bedrock.Client {
	t.Helper()
	bedrocktest.IsolateAWS(t)
	c, err := bedrock.New(context.Background(), bedrock.Config{
		Region:      "eu-north-1",
		Endpoint:    srv.URL,
		Timeout:     timeout,
		Credentials: bedrocktest.Credentials(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var req = ai.ModelRequest{System: "You write photography prompts.", Prompt: "Negroni: gin, vermouth, Campari", Temperature: 0.7, MaxTokens: 300}

func TestConverseSendsTheRequestAndReadsTheAnswer(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Script(bedrocktest.Response{Text: "  A Negroni on pale linen.  ", InputTokens: 42, OutputTokens: 9})
	c := newClient(t, srv, 0)
	if c.Name() != bedrock.DefaultModel {
		t.Fatalf("model %q, want the default %q", c.Name(), bedrock.DefaultModel)
	}
	if err := c.CheckCredentials(context.Background()); err != nil {
		t.Fatal(err)
	}

	resp, err := c.Converse(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "A Negroni on pale linen." || resp.StopReason != "end_turn" {
		t.Fatalf("answer %+v", resp)
	}
	if resp.Usage != (ai.Usage{InputTokens: 42, OutputTokens: 9, TotalTokens: 51}) || resp.LatencyMs <= 0 {
		t.Fatalf("usage %+v latency %d", resp.Usage, resp.LatencyMs)
	}

	got := srv.Requests()
	if len(got) != 1 {
		t.Fatalf("%d requests, want 1", len(got))
	}
	r := got[0]
	if r.ModelID != "amazon.nova-pro-v1:0" {
		t.Errorf("model id in the path %q", r.ModelID)
	}
	if r.SystemText() != req.System || r.UserText() != req.Prompt {
		t.Errorf("system %q, user %q", r.SystemText(), r.UserText())
	}
	if r.Temperature() < 0.6999 || r.Temperature() > 0.7001 || r.MaxTokens() != 300 {
		t.Errorf("temperature %v maxTokens %d", r.Temperature(), r.MaxTokens())
	}
	if auth := r.Header.Get("Authorization"); !strings.Contains(auth, "Credential=AKIDTESTBARHUB/") || !strings.Contains(auth, "/eu-north-1/bedrock/aws4_request") {
		t.Errorf("not signed for bedrock in eu-north-1 with the static key: %q", auth)
	}
}

func TestConverseFailures(t *testing.T) {
	tests := []struct {
		name          string
		resp          bedrocktest.Response
		wantThrottled bool
		wantPermanent bool
		wantText      string
	}{
		{"throttled", bedrocktest.Throttle(), true, false, "ThrottlingException"},
		{"429 from a gateway", bedrocktest.Response{Status: http.StatusTooManyRequests, ErrorType: "TooManyRequestsException", Message: "slow down"}, true, false, "429"},
		{"server error", bedrocktest.ServerError(), false, false, "InternalServerException"},
		{"unavailable", bedrocktest.Unavailable(), false, false, "ServiceUnavailableException"},
		{"model not enabled", bedrocktest.AccessDenied(), false, true, "AccessDeniedException"},
		{"empty response", bedrocktest.Empty(), false, false, "no output message"},
		{"no text", bedrocktest.Text("   "), false, false, "no text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := bedrocktest.New(t)
			srv.Default(tt.resp)
			c := newClient(t, srv, 0)
			_, err := c.Converse(context.Background(), req)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q does not mention %q", err, tt.wantText)
			}
			if bedrock.Throttled(err) != tt.wantThrottled {
				t.Errorf("throttled = %v, want %v", bedrock.Throttled(err), tt.wantThrottled)
			}
			var be *bedrock.Error
			if errors.As(err, &be) != tt.wantPermanent {
				t.Errorf("permanent = %v, want %v (%v)", !tt.wantPermanent, tt.wantPermanent, err)
			}
			// One attempt only: retrying is the job queue's business.
			if n := srv.Count(); n != 1 {
				t.Errorf("the SDK sent %d requests, want 1", n)
			}
		})
	}
}

func TestConverseTimesOut(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Default(bedrocktest.Response{Text: "late", Delay: 5 * time.Second})
	c := newClient(t, srv, 50*time.Millisecond)
	_, err := c.Converse(context.Background(), req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want a deadline error", err)
	}
}

func TestNewNeedsARegion(t *testing.T) {
	if _, err := bedrock.New(context.Background(), bedrock.Config{}); err == nil {
		t.Fatal("a client without a region was built")
	}
}

func TestConverseWithATool(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Script(bedrocktest.ToolUse(`{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter."}]}`))
	c := newClient(t, srv, 0)
	tr := req
	tr.Tool = &ai.Tool{Name: "recommend_drinks", Description: "Recommend drinks.", Schema: map[string]any{
		"type": "object", "properties": map[string]any{"drinks": map[string]any{"type": "array"}}, "required": []string{"drinks"},
	}}
	resp, err := c.Converse(context.Background(), tr)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != "tool_use" || string(resp.ToolInput) != `{"drinks":[{"id":"negroni","name":"Negroni","reason":"Bitter."}]}` {
		t.Fatalf("answer %+v (tool input %s)", resp, resp.ToolInput)
	}
	r := srv.Requests()[0]
	spec := r.Tool()
	if spec == nil || spec.Name != "recommend_drinks" || spec.Description != "Recommend drinks." ||
		string(spec.InputSchema.JSON) != `{"properties":{"drinks":{"type":"array"}},"required":["drinks"],"type":"object"}` {
		t.Fatalf("tool on the wire: %s", r.Raw)
	}
	if _, ok := r.Body.ToolConfig.ToolChoice["any"]; !ok {
		t.Errorf("tool choice %s", r.Raw)
	}
	if r.MaxTokens() != 300 {
		t.Errorf("inferenceConfig lost with the tool: %s", r.Raw)
	}
}

func TestConverseFilteredIsNoError(t *testing.T) {
	srv := bedrocktest.New(t)
	srv.Script(bedrocktest.Response{StopReason: "content_filtered"})
	c := newClient(t, srv, 0)
	resp, err := c.Converse(context.Background(), req)
	if err != nil || resp.StopReason != "content_filtered" || resp.Text != "" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}
