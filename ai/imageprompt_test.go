package ai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
)

func TestCleanImagePrompt(t *testing.T) {
	long := strings.Repeat("pale stone and linen, ", 40) // 160 words
	tests := []struct {
		name, in, want string
	}{
		{"plain", "A Negroni on pale oak.", "A Negroni on pale oak."},
		{"quoted", `"A Negroni on pale oak."`, "A Negroni on pale oak."},
		// Reproduction: stored with the preamble, the fence and the label.
		{"preamble, fence and bold label", "Here is your image prompt:\n```\n**Prompt:** A Negroni in a heavy rocks glass, soft side light.\n```", "A Negroni in a heavy rocks glass, soft side light."},
		{"chatty preamble naming the drink", "Sure! Here's a photography prompt for the Hugo:\n\nA Hugo spritz on linen.", "A Hugo spritz on linen."},
		{"label only", "Image prompt: A Mai Tai on stone.", "A Mai Tai on stone."},
		{"fence with a language", "```text\nA lemonade, condensation on the glass.\n```", "A lemonade, condensation on the glass."},
		{"a sentence starting with here is kept", "Here is a Negroni in a glass: soft light.", "Here is a Negroni in a glass: soft light."},
		{"line breaks", "A Negroni\non pale\n\noak.", "A Negroni on pale oak."},
		// Reproductions: what the model still wraps a prompt in.
		{"closing remark on its own line", "A Negroni on pale oak, soft side light.\n\nLet me know if you want changes!", "A Negroni on pale oak, soft side light."},
		{"closing remark after the last sentence", "A Negroni on pale oak, soft side light. Let me know if you want changes!", "A Negroni on pale oak, soft side light."},
		{"feel free", "A Hugo spritz on linen.\nFeel free to adjust the lighting or the props.", "A Hugo spritz on linen."},
		{"markdown title", "# Negroni — Image Prompt\n\nA Negroni on pale oak, soft side light.", "A Negroni on pale oak, soft side light."},
		{"bold title then preamble", "**Nordic Negroni**\nHere is your image prompt:\nA Negroni on pale oak.", "A Negroni on pale oak."},
		{"explanation after the prompt", "A Negroni on pale oak, soft side light.\n\nThis prompt emphasises the drink's deep red against the pale wood, in keeping with Nordic minimalism.", "A Negroni on pale oak, soft side light."},
		{"explanation under a rule", "A Negroni on pale oak.\n---\n**Why this works:** the pale wood sets off the red.", "A Negroni on pale oak."},
		{"two options", "**Option 1:** A Negroni on pale oak, soft side light.\n\n**Option 2:** A Negroni on slate, candlelight.", "A Negroni on pale oak, soft side light."},
		{"options with names, title and remark", "## Image prompts for the Mojito\n\nOption 1 (bright): A Mojito in a tall glass, mint, morning light.\nOption 2 (moody): A Mojito at dusk.\n\nLet me know which one you prefer!", "A Mojito in a tall glass, mint, morning light."},
		{"everything at once", "Sure! Here's a prompt for the Espresso Martini:\n\n### Espresso Martini\n**Option 1:** A coupe of espresso martini, crema, three beans, pale linen.\n**Option 2:** The same on dark stone.\n\nExplanation: the linen keeps it light.\n\nI hope this helps!", "A coupe of espresso martini, crema, three beans, pale linen."},
		{"a prompt mentioning a version of the glass is kept", "A Negroni in a heavy rocks glass, version of the classic with orange peel.", "A Negroni in a heavy rocks glass, version of the classic with orange peel."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ai.CleanImagePrompt(tt.in); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	// Reproduction: cut at 1,500 characters mid-word instead of the 80
	// words the template asks for.
	got := ai.CleanImagePrompt(long)
	ws := strings.Fields(got)
	if len(ws) != 80 || ws[79] != "linen" {
		t.Fatalf("%d words ending in %q, want 80 ending at a word (%q)", len(ws), ws[len(ws)-1], got)
	}
}

func TestImagePromptAnswerIsCleaned(t *testing.T) {
	r := newRig(t, true)
	r.srv.Script(bedrocktest.Text("Here is your image prompt: ```**Prompt:** A Negroni on pale oak, soft light.```"))
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))
	jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	if p := r.sink.get("negroni"); len(p) != 1 || p[0].Text != "A Negroni on pale oak, soft light." || p[0].Source != "bedrock" {
		t.Fatalf("saved %+v", p)
	}
}

// Reproduction: a permanently failing model left the prompt empty.
func TestImagePromptFallsBackToTheLocalTemplate(t *testing.T) {
	t.Run("the model refuses for good", func(t *testing.T) {
		r := newRig(t, true)
		r.srv.Default(bedrocktest.AccessDenied())
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.ImagePromptJob("negroni"))
		dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
		r.pub.wait(t, live.TopicAdmin, live.EventAlert)
		r.pub.wait(t, live.TopicAdmin, live.EventPromptReady)
		p := r.sink.get("negroni")
		if len(p) != 1 || p[0].Source != "local" || p[0].Model != ai.LocalImageModel || !strings.HasPrefix(p[0].Text, "Premium Nordic-minimalist photograph of a Negroni") {
			t.Fatalf("saved %+v", p)
		}
		// Dead at once, for the admin to see and retry.
		if r.srv.Count() != 1 || dead.Attempts != 1 || !strings.Contains(dead.LastError, "AccessDeniedException") {
			t.Errorf("job %+v after %d calls", dead, r.srv.Count())
		}
	})
	t.Run("the model keeps failing", func(t *testing.T) {
		r := newRig(t, true)
		r.srv.Default(bedrocktest.ServerError())
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.ImagePromptJob("mai-tai"))
		jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
		r.pub.wait(t, live.TopicAdmin, live.EventPromptReady)
		if p := r.sink.get("mai-tai"); len(p) != 1 || p[0].Source != "local" {
			t.Fatalf("saved %+v", p)
		}
		// The admin's retry still asks the model, whose answer replaces it.
		r.srv.Default(bedrocktest.Text("A Mai Tai on linen."))
		if _, err := r.st.RequeueJob(context.Background(), j.ID); err != nil {
			t.Fatal(err)
		}
		jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		if p := r.sink.get("mai-tai"); len(p) != 2 || p[1].Source != "bedrock" || p[1].Text != "A Mai Tai on linen." {
			t.Fatalf("saved %+v", p)
		}
	})
}
