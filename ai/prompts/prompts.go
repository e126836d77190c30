// Package prompts holds the model prompts as versioned template files,
// embedded in the binary. A prompt changes by adding a file with the next
// version (recommend.v2.tmpl) and pointing the constant at it, so every
// stored result names the exact prompt that produced it.
package prompts

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
)

// The versions in use.
const (
	ImagePrompt      = "image_prompt.v1"
	ImagePromptLocal = "image_prompt_local.v1"
	Recommend        = "recommend.v4"
	ReadNeeds        = "read_needs.v1"
)

//go:embed *.tmpl
var files embed.FS

var templates = template.Must(template.New("prompts").Funcs(template.FuncMap{
	"join": strings.Join,
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
}).ParseFS(files, "*.tmpl"))

// Prompt is a rendered prompt. System is empty for templates without one.
type Prompt struct {
	Version string
	System  string
	User    string
}

// Render executes the templates of version with data.
func Render(version string, data any) (Prompt, error) {
	p := Prompt{Version: version}
	if t := templates.Lookup(version + "/system"); t != nil {
		var b strings.Builder
		if err := t.Execute(&b, data); err != nil {
			return p, fmt.Errorf("render prompt %s/system: %w", version, err)
		}
		p.System = strings.TrimSpace(b.String())
	}
	t := templates.Lookup(version + "/user")
	if t == nil {
		return p, fmt.Errorf("render prompt %s: no such template", version)
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return p, fmt.Errorf("render prompt %s/user: %w", version, err)
	}
	p.User = strings.TrimSpace(b.String())
	return p, nil
}
