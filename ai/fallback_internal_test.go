package ai

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestPicksOfNamesWhatTheAnswerIs(t *testing.T) {
	tests := []struct {
		name string
		resp ModelResponse
		want error // nil: picks
	}{
		{"a tool call", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":[{"id":"a"}]}`), StopReason: StopToolUse}, nil},
		{"a tool call without input", ModelResponse{ToolCalled: true, StopReason: StopToolUse}, errEmptyToolInput},
		{"{}", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{}`)}, errEmptyToolInput},
		{"null drinks", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":null}`)}, errEmptyToolInput},
		{"no drinks", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":[]}`)}, errEmptyToolInput},
		{"an empty list", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`[]`)}, errEmptyToolInput},
		{"drinks of the wrong shape", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":"many"}`)}, errMalformedToolInput},
		{"drinks without ids or names", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":[{"reason":"x"}]}`)}, errMalformedToolInput},
		{"a bad tool input, good JSON in the text", ModelResponse{ToolCalled: true, ToolInput: json.RawMessage(`{"drinks":"many"}`), Text: `[{"id":"a"}]`}, nil},
		{"prose", ModelResponse{Text: "Try a Mai Tai!", StopReason: StopEndTurn}, errProse},
		{"JSON in prose", ModelResponse{Text: `Here: {"drinks":[{"id":"a"}]}`, StopReason: StopEndTurn}, nil},
		{"filtered", ModelResponse{StopReason: StopContentFiltered}, errFiltered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			picks, err := picksOf(tt.resp)
			switch {
			case tt.want == nil && (err != nil || len(picks) == 0):
				t.Errorf("picks %v, error %v; want picks", picks, err)
			case tt.want != nil && !errors.Is(err, tt.want):
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// FuzzPicksOf: whatever the model sends as the tool's input and text,
// picksOf returns picks or exactly one of the causes the host is told.
func FuzzPicksOf(f *testing.F) {
	for _, s := range [][2]string{
		{`{"drinks":[{"id":"a","name":"A","reason":"r"}]}`, ""},
		{`{}`, ""},
		{`{"drinks":[]}`, "Sorry!"},
		{`{"drinks":"many"}`, `[{"id":"b"}]`},
		{"", "no json"},
		{`[[[[`, ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, input, text string) {
		resp := ModelResponse{ToolCalled: input != "", ToolInput: json.RawMessage(input), Text: text}
		picks, err := picksOf(resp)
		if err == nil {
			if len(picks) == 0 {
				t.Fatal("no picks and no error")
			}
			return
		}
		causes := 0
		for _, c := range []error{errEmptyToolInput, errMalformedToolInput, errProse} {
			if errors.Is(err, c) {
				causes++
			}
		}
		if causes != 1 || picks != nil {
			t.Fatalf("error %v (%d causes) with picks %v", err, causes, picks)
		}
		if f := fallbackOf(err, false); f.cause == CauseModelError || f.note != noteUnusable {
			t.Fatalf("%v read as %+v", err, f)
		}
	})
}
