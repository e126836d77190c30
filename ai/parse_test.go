package ai_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/barhub/barhub/ai"
)

func TestParsePicks(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		wantIDs []string
		wantErr bool
	}{
		{"the asked shape", `{"drinks":[{"id":"a","name":"A","reason":"r"},{"id":"b","name":"B","reason":"s"}]}`, []string{"a", "b"}, false},
		{"in a code fence with a sentence", "Here you go:\n```json\n{\"drinks\":[{\"id\":\"a\",\"name\":\"A\",\"reason\":\"r\"}]}\n```\nEnjoy!", []string{"a"}, false},
		{"a bare array", `[{"id":"a"},{"drinkId":"b"}]`, []string{"a", "b"}, false},
		{"recommendations key", `{"recommendations":[{"id":"c","reason":"x"}]}`, []string{"c"}, false},
		{"name only", `{"drinks":[{"name":"Negroni","reason":"x"}]}`, []string{""}, false},
		{"entries without id or name are skipped", `{"drinks":[{"reason":"x"},{"id":"a"}]}`, []string{"a"}, false},
		{"prose", "I'd suggest a Negroni, it's great.", nil, true},
		{"truncated JSON", `{"drinks":[{"id":"a","name":"A","rea`, nil, true},
		{"empty list", `{"drinks":[]}`, nil, true},
		{"wrong types", `{"drinks":"Negroni"}`, nil, true},
		{"number ids", `{"drinks":[{"id":7}]}`, nil, true},
		{"empty", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			picks, err := ai.ParsePicks(tt.text)
			if tt.wantErr {
				if !errors.Is(err, ai.ErrMalformedAnswer) {
					t.Fatalf("err %v, want ErrMalformedAnswer", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, p := range picks {
				ids = append(ids, p.ID)
			}
			if !slices.Equal(ids, tt.wantIDs) {
				t.Fatalf("ids %q, want %q", ids, tt.wantIDs)
			}
		})
	}
}

func TestParsePicksBoundsTheList(t *testing.T) {
	text := `{"drinks":[`
	for i := range 50 {
		if i > 0 {
			text += ","
		}
		text += `{"id":"x"}`
	}
	picks, err := ai.ParsePicks(text + "]}")
	if err != nil || len(picks) != 10 {
		t.Fatalf("%d picks (%v), want 10", len(picks), err)
	}
}

func FuzzParsePicks(f *testing.F) {
	for _, s := range []string{
		`{"drinks":[{"id":"a","name":"A","reason":"r"}]}`,
		"```json\n[{\"id\":\"a\"}]\n```",
		`{"recommendations":[{"drinkId":"b"}]}`,
		`{"drinks":[{"id":"a"`,
		`[[[[`,
		"no json",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		picks, err := ai.ParsePicks(text)
		if err != nil {
			if !errors.Is(err, ai.ErrMalformedAnswer) || picks != nil {
				t.Fatalf("error %v with picks %v", err, picks)
			}
			return
		}
		if len(picks) == 0 || len(picks) > 10 {
			t.Fatalf("%d picks without an error", len(picks))
		}
		for _, p := range picks {
			if p.ID == "" && p.Name == "" {
				t.Fatalf("a pick with neither id nor name: %+v", p)
			}
		}
	})
}
