package guest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/text"
)

// TagNoAlcohol is the dietary tag of someone who takes no alcohol.
const TagNoAlcohol = diet.AlcoholFree

// NeedReview marks, in a guest's needs summary, needs the host has to
// look at: text barhub did not fully understand.
const NeedReview = "review"

// DietaryTags lists the tags the forms offer: the fourteen allergens, the
// diets and alcohol-free (diet.Tags).
func DietaryTags() []string { return diet.Tags() }

// Limits on dietary and taste answers.
const (
	MaxDietaryText = diet.MaxText
	maxTagLen      = 30
	maxTastes      = 20
	// MaxCompanions bounds the "+1"s one guest can describe.
	MaxCompanions = MaxPartySize - 1
	maxCompanion  = 60
)

// The typed parts of a person's needs, under barhub's text rule
// (package text): the words may run over lines, as the form's text box
// lets them; a tag is a word or two; a "+1"'s name is one line.
var (
	dietaryRule   = text.Rule{Max: MaxDietaryText, Lines: true}
	dietaryTag    = text.Rule{Max: 2 * maxTagLen}
	companionName = text.Rule{Max: maxCompanion}
)

// CleanDietary applies the text rule to what a person typed about their
// needs, the text and the tags, or returns a *FieldError naming the part
// ("text", "tags[2]"). Tags left empty are dropped. What the host and the
// server set (Unclear, Reviewed) is kept as it is.
func CleanDietary(d Dietary) (Dietary, error) {
	v, err := dietaryRule.Clean(d.Text)
	if err != nil {
		return d, &FieldError{"text", err.Error()}
	}
	d.Text = v
	var tags []string
	for i, t := range d.Tags {
		v, err := dietaryTag.Clean(t)
		if err != nil {
			return d, &FieldError{fmt.Sprintf("tags[%d]", i), err.Error()}
		}
		if v != "" {
			tags = append(tags, v)
		}
	}
	d.Tags = tags
	return d, nil
}

// CleanCompanions applies the text rule to the "+1"s' names and needs, or
// returns a *FieldError naming the part ("[1].name", "[0].dietary.text").
func CleanCompanions(cs []Companion) ([]Companion, error) {
	if len(cs) > MaxCompanions {
		return nil, &FieldError{"", fmt.Sprintf("lists more than %d people", MaxCompanions)}
	}
	out := make([]Companion, len(cs))
	for i, c := range cs {
		name, err := companionName.Clean(c.Name)
		if err != nil {
			return nil, &FieldError{fmt.Sprintf("[%d].name", i), err.Error()}
		}
		d, err := CleanDietary(c.Dietary)
		if err != nil {
			return nil, Within(fmt.Sprintf("[%d].dietary", i), err)
		}
		switch c.AgeGroup {
		case "", AgeAdult:
			c.AgeGroup = ""
		case AgeChild:
		default:
			return nil, &FieldError{fmt.Sprintf("[%d].ageGroup", i), fmt.Sprintf("must be %q or %q", AgeAdult, AgeChild)}
		}
		out[i] = Companion{Name: name, Dietary: d, AgeGroup: c.AgeGroup}
	}
	return out, nil
}

// Within names err's field inside parent: "text" within "dietary" is
// "dietary.text", "[0].name" within "companions" is "companions[0].name".
// An error that is not a *FieldError is returned as it is.
func Within(parent string, err error) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return err
	}
	field := parent
	switch {
	case fe.Field == "":
	case strings.HasPrefix(fe.Field, "["):
		field += fe.Field
	default:
		field += "." + fe.Field
	}
	return &FieldError{field, fe.Message}
}

// NormalizeDietary trims the text, maps the tags to canonical ones and
// adds the tags the text names ("no nuts please" → nuts), as diet.Normalize
// does. Text barhub does not understand is kept in Unclear for the host,
// never turned into a tag no check uses.
func NormalizeDietary(d Dietary) Dietary { return DietaryOf(diet.Normalize(d.Needs())) }

// Needs is the answer as the diet package reads it.
func (d Dietary) Needs() diet.Needs {
	return diet.Needs{Tags: d.Tags, Text: d.Text, Unclear: d.Unclear, Reviewed: d.Reviewed, Answered: d.Answered}
}

// DietaryOf is a diet reading as the guest document keeps it.
func DietaryOf(n diet.Needs) Dietary {
	return Dietary{Tags: n.Tags, Text: n.Text, Unclear: n.Unclear, Reviewed: n.Reviewed, Answered: n.Answered}
}

// Merge keeps what the host reviewed when a person answers again with the
// same words: a changed text is read afresh and needs the host's eyes
// again if it is unclear. The parts the person answers (Answered) are
// kept only while the text still holds them, and those answered before
// stay answered.
func (d Dietary) Merge(before Dietary) Dietary {
	if before.Reviewed && strings.TrimSpace(d.Text) == strings.TrimSpace(before.Text) && slices.Equal(NormalizeDietary(Dietary{Tags: d.Tags}).Tags, NormalizeDietary(Dietary{Tags: before.Tags}).Tags) {
		return before
	}
	d.Reviewed = false
	return NormalizeDietary(Dietary{Text: d.Text, Tags: d.Tags, Answered: append(slices.Clone(d.Answered), before.Answered...)})
}

// NormalizeCompanions cleans the "+1"s: names trimmed and bounded, needs
// normalised, at most MaxCompanions.
func NormalizeCompanions(cs []Companion) []Companion {
	var out []Companion
	for _, c := range cs {
		if len(out) == MaxCompanions {
			break
		}
		c.Name = truncate(strings.Join(strings.Fields(c.Name), " "), maxCompanion)
		c.Dietary = NormalizeDietary(c.Dietary)
		if !c.Child() {
			c.AgeGroup = ""
		}
		out = append(out, c)
	}
	// Trailing "+1"s with nothing said are not kept.
	for len(out) > 0 && out[len(out)-1].Name == "" && out[len(out)-1].Dietary.Empty() && !out[len(out)-1].Child() {
		out = out[:len(out)-1]
	}
	return out
}

// NormalizeTastes cleans likes and dislikes: lower case, trimmed, no
// duplicates, a bounded number.
func NormalizeTastes(t Tastes) Tastes {
	return Tastes{Likes: cleanList(t.Likes), Dislikes: cleanList(t.Dislikes), AlcoholFree: t.AlcoholFree}
}

func cleanList(in []string) []string {
	var out []string
	for _, s := range in {
		s = cleanWord(s, maxTagLen)
		if s != "" && !slices.Contains(out, s) && len(out) < maxTastes {
			out = append(out, s)
		}
	}
	return out
}

// cleanWord keeps letters, digits, spaces and dashes, in lower case.
func cleanWord(s string, limit int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(strings.ToLower(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-':
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '_':
			space = true
		}
	}
	return truncate(b.String(), limit)
}

// truncate cuts s to at most n characters: the limits people are told
// are in characters, and an "Å" is one whatever its bytes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
