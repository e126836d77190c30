package guest

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDecideArrival(t *testing.T) {
	at := time.Date(2030, 6, 12, 18, 14, 0, 0, time.UTC)
	in := func(g Guest, heads int, by string) Guest {
		g.CheckedInAt, g.ArrivedHeads, g.CheckedInBy = &at, heads, by
		return g
	}
	ada := Guest{ID: "ada", FirstName: "Ada", LastName: "Lovelace", Status: StatusComing, ExpectedGuests: 3}
	bob := Guest{ID: "bob", FirstName: "Bob", LastName: "Byron", Status: StatusComing, ExpectedGuests: 1, GroupID: "byron"}
	cy := Guest{ID: "cy", FirstName: "Cy", LastName: "Byron", Status: StatusComing, ExpectedGuests: 1, GroupID: "byron"}
	dee := Guest{ID: "dee", FirstName: "Dee", LastName: "Byron", Status: StatusDeclined, ExpectedGuests: 1, GroupID: "byron"}

	tests := []struct {
		name      string
		g         Guest
		group     []Guest
		opt       ArrivalOptions
		admit     bool
		already   bool
		heads     int
		level     string
		warnings  []string // codes, in order
		groupIn   int
		groupSize int
		contains  string // in some warning's message
		welcome   string
	}{
		{name: "coming, party of three", g: ada, group: []Guest{ada},
			admit: true, heads: 3, level: LevelOK, welcome: "Welcome, Ada Lovelace — party of 3"},
		{name: "coming with fewer than expected (a child stayed home)", g: Guest{ID: "x", FirstName: "Mia", LastName: "Berg", Status: StatusComing, ExpectedGuests: 3, ExtraGuests: -1},
			admit: true, heads: 2, level: LevelOK, welcome: "Welcome, Mia Berg — party of 2"},
		{name: "the door counts one more than invited: asked first", g: ada, opt: ArrivalOptions{Heads: 4},
			admit: false, heads: 4, level: LevelWarn, warnings: []string{WarnMoreThanInvited}, contains: "party of 4 for an invitation of 3: let them all in?",
			welcome: "Let in anyway? Ada Lovelace — party of 4"},
		{name: "one more than invited, let in anyway", g: ada, opt: ArrivalOptions{Heads: 4, Force: true},
			admit: true, heads: 4, level: LevelWarn, warnings: []string{WarnMoreThanInvited}, contains: "party of 4 for an invitation of 3"},
		{name: "answered with more people than invited: asked first", g: Guest{ID: "r", FirstName: "Rae", LastName: "Moss", Status: StatusComing, ExpectedGuests: 2, ExtraGuests: 1},
			admit: false, heads: 3, level: LevelWarn, warnings: []string{WarnMoreThanInvited}, contains: "party of 3 for an invitation of 2: let them all in?",
			welcome: "Let in anyway? Rae Moss — party of 3"},
		{name: "answered with more people than invited, let in anyway", g: Guest{ID: "r", FirstName: "Rae", LastName: "Moss", Status: StatusComing, ExpectedGuests: 2, ExtraGuests: 1},
			opt: ArrivalOptions{Heads: 3, Force: true}, admit: true, heads: 3, level: LevelWarn, warnings: []string{WarnMoreThanInvited}, contains: "party of 3 for an invitation of 2"},
		{name: "the door counts fewer", g: ada, opt: ArrivalOptions{Heads: 1},
			admit: true, heads: 1, level: LevelOK},
		{name: "never answered: asked first", g: Guest{ID: "p", FirstName: "Pat", LastName: "Pending", Status: StatusPending, ExpectedGuests: 2},
			admit: false, heads: 2, level: LevelWarn, warnings: []string{WarnNotAnswered}, contains: "never answered the RSVP, so the host is not counting on them: let in anyway?"},
		{name: "never answered, let in anyway", g: Guest{ID: "p", FirstName: "Pat", LastName: "Pending", Status: StatusPending, ExpectedGuests: 2}, opt: ArrivalOptions{Force: true},
			admit: true, heads: 2, level: LevelWarn, warnings: []string{WarnNotAnswered}, contains: "never answered the RSVP and was let in anyway"},
		{name: "declined", g: dee,
			admit: false, heads: 1, level: LevelWarn, warnings: []string{WarnDeclined}, contains: "declined the invitation: let in anyway?", welcome: "Let in anyway? Dee Byron — party of 1"},
		{name: "declined, let in anyway", g: dee, opt: ArrivalOptions{Force: true},
			admit: true, heads: 1, level: LevelWarn, warnings: []string{WarnDeclined}, contains: "let in anyway"},
		// No clock time in the text: the door page writes the time in its
		// own language's format, so a card never mixes "03:16 PM" and "15:16".
		{name: "already checked in: with who, no time in the text", g: in(ada, 3, "Sam Door"), opt: ArrivalOptions{Heads: 5, Force: true},
			admit: false, already: true, heads: 3, level: LevelStop, warnings: []string{WarnAlreadyCheckedIn},
			contains: "Ada Lovelace was already checked in by Sam Door (party of 3)", welcome: "Already in: Ada Lovelace — party of 3"},
		{name: "already checked in, by nobody named", g: in(ada, 0, ""),
			admit: false, already: true, heads: 1, level: LevelStop, warnings: []string{WarnAlreadyCheckedIn}, contains: "already checked in (party of 1)"},
		{name: "dietary note to pass on", g: Guest{ID: "n", FirstName: "Nut", LastName: "Free", Status: StatusComing, ExpectedGuests: 1, Dietary: Dietary{Text: "no nuts at all", Tags: []string{"nuts"}}},
			admit: true, heads: 1, level: LevelOK, warnings: []string{WarnDietary}, contains: "Dietary: no nuts at all (nuts)"},
		{name: "group: one of two others in, the one who declined not awaited", g: bob, group: []Guest{bob, in(cy, 1, "Sam"), dee},
			admit: true, heads: 1, level: LevelOK, warnings: []string{WarnGroup}, groupIn: 1, groupSize: 2, contains: "1 of 2 in the group already here: Cy"},
		{name: "group: nobody in yet", g: cy, group: []Guest{bob, cy},
			admit: true, heads: 1, level: LevelOK, warnings: []string{WarnGroup}, groupIn: 0, groupSize: 1, contains: "0 of 1 in the group already here; still to come: Bob"},
		{name: "group without the guest in it", g: bob, group: []Guest{cy, dee},
			admit: true, heads: 1, level: LevelOK, warnings: []string{WarnGroup}, groupSize: 2, contains: "still to come: Cy"},
		{name: "every warning at once, in a fixed order", g: Guest{ID: "d2", FirstName: "Dee", LastName: "Byron", Status: StatusDeclined, ExpectedGuests: 1, GroupID: "byron", Dietary: Dietary{Tags: []string{"vegan"}}},
			group: []Guest{in(bob, 1, "Sam"), in(cy, 1, "Sam")}, opt: ArrivalOptions{Force: true, Heads: 2},
			admit: true, heads: 2, level: LevelWarn, warnings: []string{WarnDeclined, WarnMoreThanInvited, WarnDietary, WarnGroup},
			groupIn: 2, groupSize: 2, contains: "2 of 2 in the group already here: Bob and Cy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := DecideArrival(tc.g, tc.group, tc.opt)
			if a.Admit != tc.admit || a.AlreadyCheckedIn != tc.already || a.Heads != tc.heads || a.Level() != tc.level {
				t.Errorf("admit %v already %v heads %d level %s; want %v %v %d %s",
					a.Admit, a.AlreadyCheckedIn, a.Heads, a.Level(), tc.admit, tc.already, tc.heads, tc.level)
			}
			var codes []string
			var text []string
			for _, w := range a.Warnings {
				codes = append(codes, w.Code)
				text = append(text, w.Message)
				if w.Message == "" || w.Level == "" {
					t.Errorf("warning %+v lacks a message or level", w)
				}
			}
			if !slices.Equal(codes, tc.warnings) {
				t.Errorf("warnings %v, want %v (%q)", codes, tc.warnings, text)
			}
			if tc.contains != "" && !strings.Contains(strings.Join(text, "\n"), tc.contains) {
				t.Errorf("no warning says %q: %q", tc.contains, text)
			}
			if a.GroupIn != tc.groupIn || a.GroupSize != tc.groupSize {
				t.Errorf("group %d of %d, want %d of %d", a.GroupIn, a.GroupSize, tc.groupIn, tc.groupSize)
			}
			if tc.welcome != "" && a.Welcome(tc.g) != tc.welcome {
				t.Errorf("welcome %q, want %q", a.Welcome(tc.g), tc.welcome)
			}
		})
	}
}

func TestExpectedHeads(t *testing.T) {
	for _, tc := range []struct {
		g    Guest
		want int
	}{
		{Guest{Status: StatusComing, ExpectedGuests: 2, ExtraGuests: 1}, 3},
		{Guest{Status: StatusComing, ExpectedGuests: 1, ExtraGuests: -1}, 1},
		{Guest{Status: StatusPending, ExpectedGuests: 2, ExtraGuests: 1}, 2},
		{Guest{Status: StatusDeclined, ExpectedGuests: 0}, 1},
	} {
		if got := tc.g.ExpectedHeads(); got != tc.want {
			t.Errorf("%+v: %d, want %d", tc.g, got, tc.want)
		}
	}
}

func TestScannedCode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"7KQ2MHXD", "7KQ2MHXD", true},
		{" 7kq2-mhxd ", "7KQ2MHXD", true},
		{"7KQ2 MHXD", "7KQ2MHXD", true},
		{"https://party.example/login?code=7KQ2MHXD", "7KQ2MHXD", true},
		{"http://127.0.0.1:8080/login?code=7kq2mhxd&utm=x", "7KQ2MHXD", true},
		{"/login?code=7KQ2MHXD", "7KQ2MHXD", true},
		{"https://party.example/login?code=7KQ2%2DMHXD", "7KQ2MHXD", true},
		{"https://party.example/login", "", false},
		{"https://party.example/login?code=", "", false},
		{"https://party.example/login?code=0OIL0OIL", "", false},
		{"WIFI:S:garden;T:WPA;P:secret;;", "", false},
		{"7KQ2MHX", "", false},
		{"7KQ2MHXDD", "", false},
		{"", "", false},
		{"   ", "", false},
		{"%zz?code=7KQ2MHXD", "", false},
		{strings.Repeat("A", MaxScanLength+1), "", false},
	} {
		got, ok := ScannedCode(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ScannedCode(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzScannedCode: whatever the door scans, the parser never panics, and
// what it accepts is always a well-formed code that the parser accepts
// again, alone or inside an invitation link.
func FuzzScannedCode(f *testing.F) {
	for _, s := range []string{"7KQ2MHXD", "7kq2-mhxd", "https://party.example/login?code=7KQ2MHXD", "/login?code=ABCDEFGH&x=1", "%", "?code=", "://", "WIFI:S:x;;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, ok := ScannedCode(s)
		if !ok {
			if code != "" {
				t.Fatalf("refused %q but returned %q", s, code)
			}
			return
		}
		if !ValidCode(code) {
			t.Fatalf("ScannedCode(%q) = %q, not a valid code", s, code)
		}
		if again, ok := ScannedCode(code); !ok || again != code {
			t.Fatalf("the code %q does not parse to itself: %q %v", code, again, ok)
		}
		if link, ok := ScannedCode("https://party.example/login?code=" + code); !ok || link != code {
			t.Fatalf("the link with %q parses to %q %v", code, link, ok)
		}
	})
}

// TestNameSearch: first and last names fold alike, in the search and in
// the name as written, and the database's pattern agrees with Matches.
func TestNameSearch(t *testing.T) {
	for _, tc := range []struct {
		name, q string
		want    bool
	}{
		{"Élodie", "Elodie", true},
		{"Élodie", "élodie", true},
		{"Elodie", "Élodie", true},
		{"Élodie", "ELODIE", true},
		{"Lefèvre", "Lefevre", true},
		{"Lefevre", "lefèvre", true},
		{"Zoë", "zoe", true},
		{"Ødegaard", "odeg", true},
		{"Anne-Marie", "Anne Marie", true},
		{"Anne Marie", "annemarie", true},
		{"Ångström", "angstrom", true},
		{"Mæve", "maeve", true},
		{"Maeve", "Mæve", true},
		{"Mæve", "ma", true},
		{"Mæve", "eve", true},
		{"Strauß", "strauss", true},
		{"Mæve", "mave", false},
		{"Elodie", "Eloise", false},
		{"Lefèvre", "Lefebvre", false},
		{"Ada", "--", false},
	} {
		s := NewNameSearch(tc.q)
		if got := s.Matches(tc.name); got != tc.want {
			t.Errorf("%q in %q: %v, want %v", tc.q, tc.name, got, tc.want)
		}
		if p := s.Pattern(); p != "" {
			if got := regexp.MustCompile("(?i)" + p).MatchString(tc.name); got != tc.want {
				t.Errorf("%q in %q by the pattern %s: %v, want %v", tc.q, tc.name, p, got, tc.want)
			}
		} else if tc.want {
			t.Errorf("%q: no pattern", tc.q)
		}
	}
}
