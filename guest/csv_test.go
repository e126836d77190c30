package guest

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/safecsv/safecsvtest"
	"github.com/barhub/barhub/text"
	"unicode/utf8"
)

func TestParseCSV(t *testing.T) {
	in := "\ufefffirst name;Last Name;expected;group;Dietary;alcohol free;shoe size\n" +
		"Ada;Lovelace;2;byron;no nuts;yes;42\n" +
		"Bob;;1;;;;\n" + // no last name
		"Carl;Berg;two;;;;\n" + // not a number
		"\n" + // blank lines are skipped
		"Dora;\"Åberg\nJr\";1;;;no;;;;extra;fields\n" + // quoted line break; too many fields
		"Eve;Ek;1;bad group!;;;\n" +
		"Fay;Fo;1;;'=cmd();x;\n" +
		"Gus\u202e;Gr;1;;;;\n" + // a right-to-left override would spoof the bar's ticket
		"Hal;H\x00l;1;;;;\n" // NUL
	f, err := ParseCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"firstName", "lastName", "expectedGuests", "groupId", "dietary", "alcoholFree"}; !slices.Equal(f.Columns, want) {
		t.Errorf("columns = %v, want %v", f.Columns, want)
	}
	if !slices.Equal(f.Ignored, []string{"shoe size"}) {
		t.Errorf("ignored = %v", f.Ignored)
	}
	type want struct {
		line int
		err  string // substring; "" for a good row
	}
	wants := []want{{2, ""}, {3, "lastName: is empty"}, {4, "expectedGuests"}, {6, "has 11 fields"}, {8, "groupId"}, {9, ""}, {10, "firstName"}, {11, "lastName"}}
	if len(f.Rows) != len(wants) {
		t.Fatalf("%d rows, want %d: %+v", len(f.Rows), len(wants), f.Rows)
	}
	for i, w := range wants {
		r := f.Rows[i]
		if r.Line != w.line || (w.err == "") != (r.Err == "") || !strings.Contains(r.Err, w.err) {
			t.Errorf("row %d: line %d err %q; want line %d err ~%q", i, r.Line, r.Err, w.line, w.err)
		}
	}
	ada := f.Rows[0].Guest
	if ada.FirstName != "Ada" || ada.LastName != "Lovelace" || ada.ExpectedGuests != 2 || ada.GroupID != "byron" ||
		!ada.Tastes.AlcoholFree || !slices.Equal(ada.Dietary.Tags, []string{"nuts"}) {
		t.Errorf("ada = %+v", ada)
	}
	if fay := f.Rows[5].Guest; fay.Dietary.Text != "=cmd()" || !fay.Tastes.AlcoholFree {
		t.Errorf("fay = %+v", fay)
	}
}

func TestParseCSVHeader(t *testing.T) {
	for _, in := range []string{"", "name,age\nx,1\n", "firstName\nAda\n"} {
		if _, err := ParseCSV(strings.NewReader(in)); !errors.Is(err, ErrCSVHeader) {
			t.Errorf("%q: error %v, want ErrCSVHeader", in, err)
		}
	}
	// The e-mail column, under the names spreadsheets give it: one plain
	// address, or the row says why not.
	f, err := ParseCSV(strings.NewReader("First name,Last name,E-mail\nAda,Lovelace,ada@example.com\nBo,Berg,not an address\nCy,Day,\"Cy <cy@example.com>\"\nDee,Eve,\n"))
	if err != nil || len(f.Rows) != 4 || f.Rows[0].Guest.Email != "ada@example.com" || !strings.HasPrefix(f.Rows[1].Err, "email:") ||
		!strings.HasPrefix(f.Rows[2].Err, "email:") || f.Rows[3].Err != "" || !f.Rows[3].Has["email"] {
		t.Errorf("e-mail column: %v %+v", err, f.Rows)
	}
	// An id column alone is enough: it updates guests that exist.
	f, err = ParseCSV(strings.NewReader("id,status\nabc,coming\n"))
	if err != nil || len(f.Rows) != 1 || f.Rows[0].Err != "" || f.Rows[0].Guest.Status != StatusComing {
		t.Errorf("id-only file: %v %+v", err, f.Rows)
	}
}

func TestCSVRoundTrip(t *testing.T) {
	at := time.Date(2026, 5, 1, 18, 30, 0, 0, time.UTC)
	guests := []Guest{
		{ID: "g1", FirstName: "Ada", LastName: "Åberg, Jr", Email: "ada.aberg@example.com", Code: "ABCDEFGH", Role: RoleGuest, Status: StatusComing,
			ExpectedGuests: 3, ExtraGuests: -1, GroupID: "grp-1", Dietary: NormalizeDietary(Dietary{Text: "gluten \"free\"\nplease"}),
			Tastes: Tastes{Likes: []string{"sour", "fresh"}, Dislikes: []string{"bitter"}, AlcoholFree: true}, RSVPDate: &at, CreatedAt: at},
		{ID: "g2", FirstName: "=HYPERLINK()", LastName: "+Plus", Email: "-dash@example.com", Code: "HJKMNPQR", Role: RoleAdmin, Status: StatusPending,
			ExpectedGuests: 1, CreatedAt: at},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, guests); err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(buf.String(), "\n"); !strings.HasPrefix(header, "id,firstName,lastName,email,") {
		t.Errorf("header %q", header)
	}
	if strings.Contains(buf.String(), ",=HYPERLINK") || strings.Contains(buf.String(), ",-dash@") {
		t.Error("a formula was written unescaped")
	}
	f, err := ParseCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 2 {
		t.Fatalf("%d rows", len(f.Rows))
	}
	for i, r := range f.Rows {
		if r.Err != "" {
			t.Fatalf("row %d: %s", r.Line, r.Err)
		}
		g, w := r.Guest, guests[i]
		if g.ID != w.ID || g.FirstName != w.FirstName || g.LastName != w.LastName || g.Email != w.Email || g.Code != w.Code || g.Role != w.Role ||
			g.Status != w.Status || g.ExpectedGuests != w.ExpectedGuests || g.ExtraGuests != w.ExtraGuests || g.GroupID != w.GroupID ||
			g.Dietary.Text != w.Dietary.Text || !slices.Equal(g.Dietary.Tags, w.Dietary.Tags) ||
			!slices.Equal(g.Tastes.Likes, w.Tastes.Likes) || !slices.Equal(g.Tastes.Dislikes, w.Tastes.Dislikes) ||
			g.Tastes.AlcoholFree != w.Tastes.AlcoholFree || (g.RSVPDate == nil) != (w.RSVPDate == nil) {
			t.Errorf("row %d:\n got %+v\nwant %+v", r.Line, g, w)
		}
	}
}

// TestWriteCSVCannotRun: the payloads in every text column of the
// guest export (the file that holds every sign-in code) start no formula
// whether the file is opened with commas, semicolons, tabs or bars, quotes
// honoured or not; and the export read back by the import gives the same
// guests, payloads and all.
func TestWriteCSVCannotRun(t *testing.T) {
	at := time.Date(2026, 5, 1, 18, 30, 0, 0, time.UTC)
	for _, p := range safecsvtest.Payloads() {
		t.Run(p.Name, func(t *testing.T) {
			// Every text column, written as it is: WriteCSV trusts
			// nothing about what the store holds.
			raw := Guest{ID: p.Text, FirstName: p.Text, LastName: p.Text, Email: p.Text, Code: p.Text, Role: Role(p.Text), Status: Status(p.Text),
				ExpectedGuests: 2, ExtraGuests: -1, GroupID: p.Text, Dietary: Dietary{Text: p.Text, Tags: []string{p.Text, p.Text}},
				Tastes: Tastes{Likes: []string{p.Text, "sour"}, Dislikes: []string{p.Text}}, RSVPDate: &at, CreatedAt: at}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, []Guest{raw}); err != nil {
				t.Fatal(err)
			}
			for _, f := range safecsvtest.Formulas(buf.Bytes()) {
				t.Errorf("formula in %s\nfile:\n%s", f, buf.Bytes())
			}

			// The columns a guest or host types, with what the import
			// accepts: names refuse control characters, tastes are words.
			name := "Ada"
			if text.Line(p.Text) == nil && strings.TrimSpace(p.Text) == p.Text {
				name = p.Text
			}
			g := Guest{ID: "g-1", FirstName: name, LastName: name, Code: "ABCDEFGH", Role: RoleGuest, Status: StatusComing,
				ExpectedGuests: 2, ExtraGuests: -1, GroupID: "grp", Dietary: NormalizeDietary(Dietary{Text: p.Text}),
				Tastes: NormalizeTastes(Tastes{Likes: []string{p.Text, "sour"}}), RSVPDate: &at, CreatedAt: at}
			buf.Reset()
			if err := WriteCSV(&buf, []Guest{g}); err != nil {
				t.Fatal(err)
			}
			for _, f := range safecsvtest.Formulas(buf.Bytes()) {
				t.Errorf("formula in %s\nfile:\n%s", f, buf.Bytes())
			}
			f, err := ParseCSV(&buf)
			if err != nil || len(f.Rows) != 1 || f.Rows[0].Err != "" {
				t.Fatalf("read back: %v %+v", err, f.Rows)
			}
			// Go's CSV reader reads a CR LF inside a cell as LF.
			g.Dietary.Text = strings.ReplaceAll(g.Dietary.Text, "\r\n", "\n")
			if got := f.Rows[0].Guest; got.FirstName != g.FirstName || got.LastName != g.LastName || got.Dietary.Text != g.Dietary.Text ||
				!slices.Equal(got.Dietary.Tags, g.Dietary.Tags) || !slices.Equal(got.Tastes.Likes, g.Tastes.Likes) ||
				got.ExtraGuests != -1 || got.ExpectedGuests != 2 || got.ID != g.ID || got.Code != g.Code || got.GroupID != g.GroupID {
				t.Errorf("read back\n got %+v\nwant %+v", got, g)
			}
		})
	}
}

// FuzzParseGuestCSV: any bytes give a header error or rows, never a panic,
// and every row is either usable or says why not.
func FuzzParseGuestCSV(f *testing.F) {
	f.Add("firstName,lastName\nAda,Lovelace\n")
	f.Add("id;status;expected\nx;coming;2\ny;maybe;-1\n")
	f.Add("first,last,group,tags\n\"A\nB\",\"C\"\"D\",g,nuts;gluten\n\"open")
	f.Add("\ufeffFirst Name\tLast Name\tAlcohol Free\nA\tB\tyes\n")
	f.Fuzz(func(t *testing.T, in string) {
		file, err := ParseCSV(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrCSVHeader) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, r := range file.Rows {
			if r.Line < 0 {
				t.Fatalf("row with line %d", r.Line)
			}
			if r.Err != "" {
				continue
			}
			g := r.Guest
			if g.ID == "" && g.Code == "" && (g.FirstName == "" || g.LastName == "") {
				t.Fatalf("usable row without id, code or name: %+v", r)
			}
			if g.Role != "" && !g.Role.Valid() || g.Status != "" && !g.Status.Valid() {
				t.Fatalf("usable row with bad role or status: %+v", g)
			}
			if g.GroupID != "" && !ValidID(g.GroupID) || g.ID != "" && !ValidID(g.ID) {
				t.Fatalf("usable row with a bad id: %+v", g)
			}
		}
	})
}

func TestNormalizeDietary(t *testing.T) {
	tests := []struct {
		in   Dietary
		want Dietary
	}{
		{Dietary{}, Dietary{}},
		{Dietary{Text: "  "}, Dietary{}},
		{Dietary{Text: "Lactose intolerant, no peanuts"}, Dietary{Text: "Lactose intolerant, no peanuts", Tags: []string{"peanuts", "milk"}}},
		{Dietary{Text: "I'm pregnant"}, Dietary{Text: "I'm pregnant", Tags: []string{TagNoAlcohol, "pregnant"}}},
		{Dietary{Text: "no coriander"}, Dietary{Text: "no coriander", Unclear: []string{"no coriander"}}},
		{Dietary{Tags: []string{" Vegan ", "vegan", "Gluten", "low sugar"}}, Dietary{Tags: []string{"gluten", "vegan"}, Unclear: []string{"low sugar"}}},
		{Dietary{Text: "other stuff", Tags: []string{"other", "nuts"}}, Dietary{Text: "other stuff", Tags: []string{"nuts"}, Unclear: []string{"other stuff"}}},
		{Dietary{Text: "nötallergi"}, Dietary{Text: "nötallergi", Tags: []string{"nuts"}}},
	}
	for _, tt := range tests {
		got := NormalizeDietary(tt.in)
		if got.Text != tt.want.Text || !slices.Equal(got.Tags, tt.want.Tags) || !slices.Equal(got.Unclear, tt.want.Unclear) {
			t.Errorf("NormalizeDietary(%+v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	// The bound is in characters: 500 "é" are 1,000 bytes, and kept whole.
	if long := NormalizeDietary(Dietary{Text: strings.Repeat("é", MaxDietaryText+10)}); utf8.RuneCountInString(long.Text) != MaxDietaryText || !strings.HasSuffix(long.Text, "é") {
		t.Errorf("long text cut badly: %d characters", utf8.RuneCountInString(long.Text))
	}
}

func TestParseSettings(t *testing.T) {
	ok := SettingsInput{EventName: "Midsummer", EventDate: "2026-06-19T18:00", RSVPDeadline: "2026-06-01T12:00:00Z", Timezone: "Europe/Stockholm"}
	s, err := ParseSettings(ok)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.EventDate.Format(time.RFC3339); got != "2026-06-19T18:00:00+02:00" {
		t.Errorf("eventDate = %s, want it read in Stockholm time", got)
	}
	if got := s.RSVPDeadline.UTC().Format(time.RFC3339); got != "2026-06-01T12:00:00Z" {
		t.Errorf("rsvpDeadline = %s", got)
	}
	if !s.DeadlinePassed(time.Date(2026, 6, 1, 12, 0, 1, 0, time.UTC)) || s.DeadlinePassed(time.Date(2026, 6, 1, 11, 59, 0, 0, time.UTC)) {
		t.Error("DeadlinePassed is wrong around the deadline")
	}
	bad := []struct {
		field string
		edit  func(*SettingsInput)
	}{
		{"eventName", func(in *SettingsInput) { in.EventName = " " }},
		{"timezone", func(in *SettingsInput) { in.Timezone = "Mars/Olympus" }},
		{"timezone", func(in *SettingsInput) { in.Timezone = "Local" }},
		{"eventDate", func(in *SettingsInput) { in.EventDate = "next friday" }},
		{"rsvpDeadline", func(in *SettingsInput) { in.RSVPDeadline = "2026-13-01T00:00:00Z" }},
		{"rsvpDeadline", func(in *SettingsInput) { in.RSVPDeadline = "2026-07-01T00:00:00Z" }},
		{"info", func(in *SettingsInput) { in.Info = strings.Repeat("x", maxInfoText+1) }},
		// Typed text goes into every guest's page and the calendar file.
		{"eventName", func(in *SettingsInput) { in.EventName = "Party\x00" }},
		{"eventName", func(in *SettingsInput) { in.EventName = "\u200b\u2060" }},
		{"location", func(in *SettingsInput) { in.Location = "Storgatan 1\u202e" }},
		{"location", func(in *SettingsInput) { in.Location = "Storgatan 1\nBEGIN:VEVENT" }},
		{"dressCode", func(in *SettingsInput) { in.DressCode = "\x1b[5mWhite" }},
		{"dressCode", func(in *SettingsInput) { in.DressCode = "\u3164" }},
		{"info", func(in *SettingsInput) { in.Info = "Bring a jumper\u2066" }},
	}
	for _, b := range bad {
		in := ok
		b.edit(&in)
		_, err := ParseSettings(in)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != b.field {
			t.Errorf("%+v: error %v, want one on %s", in, err, b.field)
		}
	}
	// The cleaned text is kept: NFC, trimmed, marks taken out; the
	// information keeps its line breaks.
	typed := ok
	typed.EventName, typed.Location, typed.Info = " Midsomma\u0308r\u200f ", "Ö\u200bland", "Bring:\r\n\t- a jumper"
	if c, err := ParseSettings(typed); err != nil || c.EventName != "Midsommär" || c.Location != "Öland" || c.Info != "Bring:\n\t- a jumper" {
		t.Errorf("cleaned %+q %+q %+q, %v", c.EventName, c.Location, c.Info, err)
	}
	pub := s.Public(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if pub.EventName != "Midsummer" || pub.DeadlinePassed || pub.EventDate.Location().String() != "Europe/Stockholm" {
		t.Errorf("public = %+v", pub)
	}
}

// TestCSVAgeGroup (issue 26): a guest marked a child goes out as "child"
// in the ageGroup column and comes back a child; an import reads child,
// adult and empty, any case, and refuses another word with its code.
func TestCSVAgeGroup(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, []Guest{{ID: "nils", FirstName: "Nils", LastName: "Berg", AgeGroup: AgeChild}, {ID: "mia", FirstName: "Mia", LastName: "Berg"}}); err != nil {
		t.Fatal(err)
	}
	f, err := ParseCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 2 || !f.Rows[0].Guest.Child() || f.Rows[1].Guest.Child() || !f.Rows[1].Has["ageGroup"] {
		t.Fatalf("round trip: %+v", f.Rows)
	}
	tests := []struct {
		cell, want, code string
	}{
		{"child", AgeChild, ""},
		{"Child", AgeChild, ""},
		{"adult", "", ""},
		{"", "", ""},
		{"kid", "", RowInvalidAge},
	}
	for _, tt := range tests {
		f, err := ParseCSV(strings.NewReader("firstName,lastName,Age group\nNils,Berg," + tt.cell + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		r := f.Rows[0]
		if r.ErrCode != tt.code || r.Guest.AgeGroup != tt.want {
			t.Errorf("%q: ageGroup %q, error %q (%s); want %q, %q", tt.cell, r.Guest.AgeGroup, r.ErrCode, r.Err, tt.want, tt.code)
		}
	}
}
