package guest

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/barhub/barhub/diet"
)

// The door: one personal code for RSVP, ordering and the way in. A scan
// of the invitation's QR code (or the code typed from the card) checks
// the guest in; DecideArrival says what the door person needs to know.

// CheckIn is what the door records when a guest arrives.
type CheckIn struct {
	At time.Time
	// By and ByID name the staff member at the door.
	By   string
	ByID string
	// Heads is how many people came in on the code, the guest included.
	Heads int
}

// ExpectedHeads is how many people the door expects on g's code: the
// RSVP's headcount when coming, else the invitation's (someone who never
// answered, or declined and came after all, brings who the card names).
func (g Guest) ExpectedHeads() int {
	if g.Status == StatusComing {
		return g.Heads()
	}
	return max(1, g.ExpectedGuests)
}

// CheckedIn reports whether g has been let in.
func (g Guest) CheckedIn() bool { return g.CheckedInAt != nil }

// SourceWalkIn marks a guest the door added on the night (Guest.Source):
// a walk-in, or a friend an invitation was forwarded to.
const SourceWalkIn = "walk-in"

// WalkIn is who added a walk-in at the door, and when. It stays on the
// guest when a check-in is undone: the person was still added there.
type WalkIn struct {
	At   time.Time `bson:"at" json:"at"`
	By   string    `bson:"by" json:"by"`
	ByID string    `bson:"byId,omitempty" json:"-"`
}

// IsWalkIn reports whether the door added g on the night.
func (g Guest) IsWalkIn() bool { return g.Source == SourceWalkIn }

// Warning levels, from "tell the guest" to "do not let in yet".
const (
	LevelOK   = "ok"
	LevelInfo = "info"
	LevelWarn = "warn"
	LevelStop = "stop"
)

// Warning codes the door page can style or count.
const (
	WarnAlreadyCheckedIn = "already_checked_in"
	WarnDeclined         = "declined"
	WarnNotAnswered      = "not_answered"
	WarnDietary          = "dietary"
	WarnDietaryReview    = "dietary_review"
	WarnGroup            = "group"
	WarnMoreThanInvited  = "more_than_invited"
)

// Warning is one thing the door person should know about an arrival.
type Warning struct {
	Code string `json:"code"`
	// Level is info (pass it on), warn (let in, but note it) or stop
	// (do not let in without checking).
	Level   string `json:"level"`
	Message string `json:"message"`
	// Key and Vars name the message in the server's catalogues (package
	// locale), so the door page gets it in its own language.
	Key  string         `json:"-"`
	Vars map[string]any `json:"-"`
}

// Arrival is the door's answer to one scan.
type Arrival struct {
	// Admit says whether to let the guest in now; the check-in is
	// recorded only then.
	Admit bool
	// AlreadyCheckedIn is set when an earlier scan let this code in: a
	// second scan never counts twice.
	AlreadyCheckedIn bool
	// Confirm is set when the guest was not let in because the door
	// person must say "let in anyway" first: they declined, never
	// answered, or bring more people than the invitation names. The same
	// scan with ArrivalOptions.Force lets them in.
	Confirm bool
	// Heads is how many people come in on this code.
	Heads int
	// GroupIn and GroupSize count the other members of the guest's group:
	// how many are already in, of how many.
	GroupIn   int
	GroupSize int
	Warnings  []Warning
}

// Level is the colour of the door's card: ok (green), warn (amber: let
// in with a note, or asking "let in anyway?") or stop (red).
func (a Arrival) Level() string {
	if a.Confirm {
		return LevelWarn
	}
	if !a.Admit {
		return LevelStop
	}
	for _, w := range a.Warnings {
		if w.Level == LevelWarn || w.Level == LevelStop {
			return LevelWarn
		}
	}
	return LevelOK
}

// ArrivalOptions are the door person's choices for one scan.
type ArrivalOptions struct {
	// Heads overrides how many people come in on the code; 0 means the
	// expected number.
	Heads int
	// Force is the door person's "let in anyway" on an amber card: a
	// guest who declined, never answered, or brings more people than
	// invited.
	Force bool
	// Drinks is tonight's menu: the card names, per person, the drinks
	// diet.Check rules out for them.
	Drinks []diet.Drink
}

// DecideArrival says whether to let g in and what to tell the door
// person, where group holds g's group (g may be in it or not). It
// changes nothing; the store records the check-in when Admit is set.
func DecideArrival(g Guest, group []Guest, opt ArrivalOptions) Arrival {
	a := Arrival{Admit: true, Heads: g.ExpectedHeads()}
	warn := func(code, level, key string, vars map[string]any, format string, args ...any) {
		a.Warnings = append(a.Warnings, Warning{Code: code, Level: level, Message: fmt.Sprintf(format, args...), Key: key, Vars: vars})
	}

	if g.CheckedIn() {
		// The first scan's count stands, whatever this one asks for. The
		// time is on the card, written by the door page in its own
		// language's format, never in this text.
		a.Admit, a.AlreadyCheckedIn, a.Heads = false, true, max(1, g.ArrivedHeads)
		by, key := "", "door.warn.already_checked_in"
		if g.CheckedInBy != "" {
			by, key = " by "+g.CheckedInBy, "door.warn.already_checked_in_by"
		}
		warn(WarnAlreadyCheckedIn, LevelStop, key, map[string]any{"Name": g.Name(), "By": g.CheckedInBy, "Count": a.Heads},
			"%s was already checked in%s (%s): make sure this is the same person", g.Name(), by, party(a.Heads))
	} else {
		if opt.Heads > 0 {
			a.Heads = opt.Heads
		}
		// Each of these asks "let in anyway?" before anyone is counted in.
		ask := func(code string, vars map[string]any, asking, letIn string) {
			if opt.Force {
				warn(code, LevelWarn, "door.warn."+code+".in", vars, "%s", letIn)
				return
			}
			a.Admit, a.Confirm = false, true
			warn(code, LevelWarn, "door.warn."+code+".ask", vars, "%s", asking)
		}
		name := map[string]any{"Name": g.Name()}
		switch g.Status {
		case StatusDeclined:
			ask(WarnDeclined, name, g.Name()+" declined the invitation: let in anyway?", g.Name()+" declined the invitation and was let in anyway")
		case StatusComing:
		default:
			ask(WarnNotAnswered, name, g.Name()+" never answered the RSVP, so the host is not counting on them: let in anyway?",
				g.Name()+" never answered the RSVP and was let in anyway")
		}
		// Against the invitation, not the RSVP: a group that answered
		// with more people than invited still brings more than the host
		// asked for, and the door asks before letting them all in.
		if expected := max(1, g.ExpectedGuests); a.Heads > expected {
			ask(WarnMoreThanInvited, map[string]any{"Count": a.Heads, "Expected": expected},
				fmt.Sprintf("%s for an invitation of %d: let them all in?", party(a.Heads), expected),
				fmt.Sprintf("%s for an invitation of %d", party(a.Heads), expected))
		}
	}
	for _, p := range g.People() {
		if p.Dietary.Empty() {
			continue
		}
		who := ""
		if p.Companion > 0 || len(g.Companions) > 0 {
			who = p.Name + ": "
		}
		msg := "Dietary: " + who + dietaryText(p.Dietary)
		vars, key := map[string]any{"Who": who, "Text": dietaryText(p.Dietary)}, "door.warn.dietary"
		if not := unsafeDrinks(opt.Drinks, p.Dietary); len(not) > 0 {
			msg += " — not " + list(not)
			vars["Drinks"], key = strings.Join(not, ", "), "door.warn.dietary_not"
		}
		warn(WarnDietary, LevelInfo, key, vars, "%s", msg)
		if p.Dietary.NeedsReview() {
			unclear := strings.Join(p.Dietary.Unclear, "; ")
			warn(WarnDietaryReview, LevelWarn, "door.warn.dietary_review", map[string]any{"Name": p.Name, "Unclear": unclear},
				"%s: needs the host's eyes: %q", p.Name, unclear)
		}
	}

	var in, out []string
	for _, m := range group {
		if m.ID == g.ID {
			continue
		}
		a.GroupSize++
		if m.CheckedIn() {
			a.GroupIn++
			in = append(in, m.FirstName)
		} else if m.Status != StatusDeclined {
			out = append(out, m.FirstName)
		}
	}
	if a.GroupSize > 0 {
		msg := fmt.Sprintf("%d of %d in the group already here", a.GroupIn, a.GroupSize)
		vars, key := map[string]any{"In": a.GroupIn, "Size": a.GroupSize, "Here": strings.Join(in, ", "), "ToCome": strings.Join(out, ", ")}, "door.warn.group"
		if len(in) > 0 {
			msg += ": " + list(in)
			key += "_here"
		}
		if len(out) > 0 {
			msg += "; still to come: " + list(out)
			key += "_tocome"
		}
		warn(WarnGroup, LevelInfo, key, vars, "%s", msg)
	}
	return a
}

// Welcome is the door card's headline.
func (a Arrival) Welcome(g Guest) string {
	switch {
	case a.AlreadyCheckedIn:
		return fmt.Sprintf("Already in: %s — %s", g.Name(), party(a.Heads))
	case a.Confirm:
		return fmt.Sprintf("Let in anyway? %s — %s", g.Name(), party(a.Heads))
	case !a.Admit:
		return fmt.Sprintf("Wait: %s — %s", g.Name(), party(a.Heads))
	default:
		return fmt.Sprintf("Welcome, %s — %s", g.Name(), party(a.Heads))
	}
}

func party(n int) string {
	if n == 1 {
		return "party of 1"
	}
	return fmt.Sprintf("party of %d", n)
}

func dietaryText(d Dietary) string {
	text := strings.TrimSpace(d.Text)
	tags := strings.Join(d.Tags, ", ")
	switch {
	case text == "":
		return tags
	case tags == "" || strings.EqualFold(text, tags):
		return text
	}
	return text + " (" + tags + ")"
}

// unsafeDrinks names the drinks of the menu diet.Check rules out for
// someone with needs d, other than for alcohol (a few, for the card).
func unsafeDrinks(drinks []diet.Drink, d Dietary) []string {
	var out []string
	for _, dr := range drinks {
		v := diet.Check(dr, d.Needs())
		// "Alcohol-free only" says the rest; the card names the drinks
		// ruled out for another reason.
		v.Alcohol = false
		if !v.SafeOnceRead() {
			out = append(out, dr.Name)
		}
	}
	if len(out) > 6 {
		out = append(out[:5], fmt.Sprintf("%d more", len(out)-5))
	}
	return out
}

func list(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// MaxScanLength bounds what a scan may hold: an invitation link is far
// shorter, and a longer string is not one of ours.
const MaxScanLength = 2048

// ScannedCode takes what the door typed or scanned — the code alone
// (any case, with spaces or dashes) or the whole invitation link
// (https://party.example/login?code=7KQ2MHXD) — and returns the code.
// ok is false when the input holds nothing shaped like a code.
func ScannedCode(s string) (code string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > MaxScanLength {
		return "", false
	}
	if strings.Contains(s, "?") || strings.Contains(s, "://") || strings.HasPrefix(s, "/") {
		u, err := url.Parse(s)
		if err != nil {
			return "", false
		}
		s = u.Query().Get("code")
	}
	code = NormalizeCode(s)
	if !ValidCode(code) {
		return "", false
	}
	return code, true
}

// NameSearch is how a name search ("Elodie", "lefevre") matches first
// and last names alike: case and accents do not count, so "Elodie" finds
// "Élodie" as "Lefevre" finds "Lefèvre", and "Élodie" finds "Elodie".
type NameSearch struct {
	key string
}

// NewNameSearch is the search for q; it matches nothing when q has no
// letter or digit.
func NewNameSearch(q string) NameSearch { return NameSearch{key: NameKey(q)} }

// Key is q folded as NameKey folds stored names, for a stored key such
// as lastNameKey.
func (s NameSearch) Key() string { return s.key }

// Matches reports whether name, as written, holds the search.
func (s NameSearch) Matches(name string) bool {
	return s.key != "" && strings.Contains(NameKey(name), s.key)
}

// Pattern is a regular expression that finds the search in a name as
// written, for a database that holds no folded copy of it: each letter
// stands for itself and its accented forms ("e" for "é", "è", "Ê", …),
// and spaces and punctuation between them are skipped, as NameKey skips
// them. It is "" when the search matches nothing.
func (s NameSearch) Pattern() string {
	if s.key == "" {
		return ""
	}
	const skip = `[^\p{L}\p{N}]*`
	key := []rune(s.key)
	letter := func(i int) string {
		r := key[i]
		forms := accentForms[r]
		// A letter NameKey writes as two ("æ" as "ae", "ß" as "ss") may
		// stand whole for the search's first or last letter: "ma" is in
		// "Mæve" as it is in "Maeve".
		for _, l := range ligatures {
			if (i == len(key)-1 && r == l.key[0]) || (i == 0 && r == l.key[1]) {
				forms = append(slices.Clone(forms), l.forms...)
			}
		}
		if len(forms) == 0 {
			return regexp.QuoteMeta(string(r))
		}
		return "[" + string(r) + string(unicode.ToUpper(r)) + string(forms) + "]"
	}
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if i > 0 {
			b.WriteString(skip)
		}
		if i+1 < len(key) {
			if l, ok := ligatureOf(key[i], key[i+1]); ok {
				b.WriteString("(?:" + letter(i) + skip + letter(i+1) + "|[" + string(l.forms) + "])")
				i++
				continue
			}
		}
		b.WriteString(letter(i))
	}
	return b.String()
}

// ligatures are the letters NameKey writes as two ("Mæve" is "maeve"),
// which the database's pattern must find for those two (issue 26: the
// MongoDB path's search for "Maeve" missed "Mæve" that the embedded
// path found).
var ligatures = []ligature{
	{[2]rune{'a', 'e'}, []rune("æÆ")},
	{[2]rune{'s', 's'}, []rune("ß")},
}

type ligature struct {
	key   [2]rune // as NameKey writes it
	forms []rune  // as names are written
}

func ligatureOf(a, b rune) (ligature, bool) {
	for _, l := range ligatures {
		if l.key == [2]rune{a, b} {
			return l, true
		}
	}
	return ligature{}, false
}

// accentForms maps each letter a-z to the Latin letters NameKey folds to
// it ("e": "éèêëÉÈÊË…"), for Pattern.
var accentForms = func() map[rune][]rune {
	m := map[rune][]rune{}
	for _, block := range [][2]rune{{0x00C0, 0x024F}, {0x1E00, 0x1EFF}} {
		for r := block[0]; r <= block[1]; r++ {
			if k := []rune(NameKey(string(r))); len(k) == 1 && 'a' <= k[0] && k[0] <= 'z' {
				m[k[0]] = append(m[k[0]], r)
			}
		}
	}
	return m
}()
