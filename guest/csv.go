package guest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/barhub/barhub/safecsv"
	"github.com/barhub/barhub/text"
)

// CSVColumns are the columns of an exported guest list, in order. An
// import reads the same names (and a few spellings people use, see
// csvAliases); numGuests, lastLogin, createdAt and source (walk-in) are exported for reading
// and ignored on import. ageGroup is "child" for a guest who is a child, empty otherwise.
var CSVColumns = []string{
	"id", "firstName", "lastName", "email", "code", "role", "status", "expectedGuests", "extraGuests", "numGuests",
	"groupId", "dietary", "dietaryTags", "likes", "dislikes", "alcoholFree", "ageGroup", "rsvpDate", "lastLogin",
	"createdAt", "source",
}

// csvAliases maps a folded header (lower case, no spaces, dashes or
// underscores) to a column.
var csvAliases = map[string]string{
	"id": "id", "guestid": "id",
	"firstname": "firstName", "first": "firstName", "givenname": "firstName", "forename": "firstName",
	"lastname": "lastName", "last": "lastName", "surname": "lastName", "familyname": "lastName",
	"email": "email", "emailaddress": "email", "mail": "email", "epost": "email",
	"code": "code", "invitationcode": "code",
	"role":   "role",
	"status": "status", "rsvp": "status",
	"expectedguests": "expectedGuests", "expected": "expectedGuests", "partysize": "expectedGuests", "guests": "expectedGuests",
	"extraguests": "extraGuests", "extra": "extraGuests",
	"numguests": "numGuests",
	"groupid":   "groupId", "group": "groupId",
	"dietary": "dietary", "diet": "dietary", "dietaryneeds": "dietary", "allergies": "dietary", "dietarytext": "dietary",
	"dietarytags": "dietaryTags", "tags": "dietaryTags",
	"likes": "likes", "dislikes": "dislikes",
	"alcoholfree": "alcoholFree", "noalcohol": "alcoholFree",
	"rsvpdate":  "rsvpDate",
	"lastlogin": "lastLogin", "createdat": "createdAt",
	"source":   "source",
	"agegroup": "ageGroup", "age": "ageGroup",
}

// MaxCSVRows bounds one import.
const MaxCSVRows = 20000

// CSVRow is one data row of an import: the guest it describes, which
// columns the file has (an update changes only those), or why it cannot be
// used.
type CSVRow struct {
	// Line is the row's number as a spreadsheet shows it: the header is 1.
	Line  int
	Guest Guest
	// Has reports which columns the file gives (by CSVColumns name).
	Has map[string]bool
	// Err says in English what is wrong with the row; the row is then
	// not used. ErrCode names the problem for programs and the
	// catalogues (import.reason.<code>), ErrVars fills the placeholders
	// of its message there; column names stay as the CSV header has them.
	Err     string
	ErrCode string
	ErrVars map[string]any
}

// Codes of the problems an import row can have (CSVRow.ErrCode).
const (
	RowUnreadable   = "unreadable"
	RowTooMany      = "too_many_rows"
	RowFieldCount   = "field_count"
	RowInvalidID    = "invalid_id"
	RowInvalidEmail = "invalid_email"
	RowInvalidCode  = "invalid_code"
	RowInvalidRole  = "invalid_role"
	RowInvalidState = "invalid_status"
	RowInvalidAge   = "invalid_age_group"
	RowNotANumber   = "not_a_number"
	RowOutOfRange   = "out_of_range"
	RowInvalidGroup = "invalid_group_id"
	RowNotYesNo     = "not_yes_no"
	RowInvalidDate  = "invalid_date"
	RowEmpty        = "empty"
	RowNameTooLong  = "name_too_long"
	RowBadText      = "bad_text"
	RowNeedsName    = "new_guest_needs_name"
)

// rowProblem is one problem of a row, in English with its code.
type rowProblem struct {
	code string
	vars map[string]any
	text string
}

func (p *rowProblem) Error() string { return p.text }

func problem(code, text string, vars map[string]any) *rowProblem {
	return &rowProblem{code: code, vars: vars, text: text}
}

// CSVFile is a parsed import.
type CSVFile struct {
	Columns []string // recognised columns, in file order
	Ignored []string // headers that name no column
	Rows    []CSVRow
}

// ErrCSVHeader is returned when the file has no usable header.
var ErrCSVHeader = errors.New("the first row must name the columns, with at least firstName and lastName (or id)")

// ParseCSV reads a guest list. Bad rows are reported in their CSVRow and
// never stop the others; only a file without a usable header is an error.
// It accepts commas, semicolons or tabs, a byte-order mark, and quoted
// fields with line breaks.
func ParseCSV(r io.Reader) (CSVFile, error) {
	var f CSVFile
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return f, fmt.Errorf("read csv: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = sniffDelimiter(data)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.TrimLeadingSpace = true

	header, err := cr.Read()
	if err != nil {
		return f, ErrCSVHeader
	}
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		name, ok := csvAliases[foldHeader(h)]
		if !ok || seen[name] {
			if strings.TrimSpace(h) != "" {
				f.Ignored = append(f.Ignored, strings.TrimSpace(h))
			}
			continue
		}
		seen[name] = true
		cols[i] = name
		f.Columns = append(f.Columns, name)
	}
	if !seen["id"] && (!seen["firstName"] || !seen["lastName"]) {
		return f, ErrCSVHeader
	}

	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			line := 0
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			f.Rows = append(f.Rows, CSVRow{Line: line, Err: "the file cannot be read from this row on: " + csvErrText(err), ErrCode: RowUnreadable, ErrVars: map[string]any{"Detail": csvErrText(err)}})
			break
		}
		line, _ := cr.FieldPos(0)
		if len(f.Rows) >= MaxCSVRows {
			f.Rows = append(f.Rows, CSVRow{Line: line, Err: fmt.Sprintf("an import takes at most %d rows; split the file", MaxCSVRows), ErrCode: RowTooMany, ErrVars: map[string]any{"Max": MaxCSVRows}})
			break
		}
		if blank(rec) {
			continue
		}
		f.Rows = append(f.Rows, parseCSVRow(line, cols, rec))
	}
	return f, nil
}

func csvErrText(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func sniffDelimiter(data []byte) rune {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	best, n := ',', bytes.Count(first, []byte(","))
	for _, d := range []rune{';', '\t'} {
		if c := bytes.Count(first, []byte(string(d))); c > n {
			best, n = d, c
		}
	}
	return best
}

func foldHeader(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		if r != ' ' && r != '_' && r != '-' && r != '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func blank(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func parseCSVRow(line int, cols, rec []string) CSVRow {
	row := CSVRow{Line: line, Has: map[string]bool{}}
	if len(rec) > len(cols) && !blank(rec[len(cols):]) {
		row.Err = fmt.Sprintf("this row has %d fields but the header has %d; check for a stray comma or quote", len(rec), len(cols))
		row.ErrCode, row.ErrVars = RowFieldCount, map[string]any{"Fields": len(rec), "Columns": len(cols)}
		return row
	}
	g := &row.Guest
	fail := func(col string, p *rowProblem) CSVRow {
		row.Err = col + ": " + p.text
		row.ErrCode, row.ErrVars = p.code, p.vars
		if row.ErrVars == nil {
			row.ErrVars = map[string]any{}
		}
		row.ErrVars["Column"] = col
		return row
	}
	bad := func(code, format string, v string) *rowProblem {
		return problem(code, fmt.Sprintf(format, clip(v)), map[string]any{"Value": strconv.Quote(clip(v))})
	}
	for i, col := range cols {
		if col == "" {
			continue
		}
		v := ""
		if i < len(rec) {
			// The apostrophes an export (or a spreadsheet) puts before
			// text that would start a formula are not part of the text.
			v = strings.TrimSpace(safecsv.Restore(rec[i]))
		}
		row.Has[col] = true
		switch col {
		case "id":
			if v != "" && !ValidID(v) {
				return fail(col, bad(RowInvalidID, "%q is not a guest id (letters, digits, - and _, up to 64)", v))
			}
			g.ID = v
		case "firstName":
			g.FirstName = v
		case "lastName":
			g.LastName = v
		case "email":
			if v != "" && !ValidEmail(v) {
				return fail(col, bad(RowInvalidEmail, "%q is not one e-mail address like ada@example.com", v))
			}
			g.Email = v
		case "code":
			c := NormalizeCode(v)
			if c != "" && !ValidCode(c) {
				p := problem(RowInvalidCode, fmt.Sprintf("%q is not an invitation code (%d characters from %s)", clip(v), CodeLength, codeAlphabet),
					map[string]any{"Value": strconv.Quote(clip(v)), "Length": CodeLength, "Alphabet": codeAlphabet})
				return fail(col, p)
			}
			g.Code = c
		case "role":
			g.Role = Role(strings.ToLower(v))
			if v != "" && !g.Role.Valid() {
				return fail(col, bad(RowInvalidRole, "%q is not a role; use guest, bartender or admin", v))
			}
		case "ageGroup":
			age, err := CleanAgeGroup(col, strings.ToLower(v))
			if err != nil {
				return fail(col, bad(RowInvalidAge, "%q is not an age group; use child or adult (or leave it empty)", v))
			}
			g.AgeGroup = age
		case "status":
			g.Status = Status(strings.ToLower(v))
			if v != "" && !g.Status.Valid() {
				return fail(col, bad(RowInvalidState, "%q is not a status; use pending, coming or declined", v))
			}
		case "expectedGuests":
			n, p := csvInt(v, 1, MaxPartySize)
			if p != nil {
				return fail(col, p)
			}
			g.ExpectedGuests = n
		case "extraGuests":
			n, p := csvInt(v, -MaxPartySize, MaxPartySize)
			if p != nil {
				return fail(col, p)
			}
			g.ExtraGuests = n
		case "groupId":
			if v != "" && !ValidID(v) {
				return fail(col, bad(RowInvalidGroup, "%q is not a group id (letters, digits, - and _, up to 64)", v))
			}
			g.GroupID = v
		case "dietary":
			g.Dietary.Text = v
		case "dietaryTags":
			g.Dietary.Tags = splitList(v)
		case "likes":
			g.Tastes.Likes = splitList(v)
		case "dislikes":
			g.Tastes.Dislikes = splitList(v)
		case "alcoholFree":
			b, ok := csvBool(v)
			if !ok {
				return fail(col, bad(RowNotYesNo, "%q is not yes or no", v))
			}
			g.Tastes.AlcoholFree = b
		case "rsvpDate":
			if v != "" {
				t, err := time.Parse(time.RFC3339, v)
				if err != nil {
					return fail(col, bad(RowInvalidDate, "%q is not a date like 2026-06-01T18:00:00Z", v))
				}
				t = t.UTC()
				g.RSVPDate = &t
			}
		default:
			// Exported for reading only.
			delete(row.Has, col)
		}
	}
	if row.Has["firstName"] && g.FirstName == "" {
		return fail("firstName", problem(RowEmpty, "is empty", nil))
	}
	if row.Has["lastName"] && g.LastName == "" {
		return fail("lastName", problem(RowEmpty, "is empty", nil))
	}
	if len(g.FirstName) > maxShortText || len(g.LastName) > maxShortText {
		return fail("name", problem(RowNameTooLong, fmt.Sprintf("longer than %d characters", maxShortText), map[string]any{"Max": maxShortText}))
	}
	// The same rule as a name typed on the desk (Patch.Apply): a name
	// shown on the bar's tickets and the door must not hide or reorder text.
	for _, name := range []struct{ col, v string }{{"firstName", g.FirstName}, {"lastName", g.LastName}} {
		if err := text.Line(name.v); name.v != "" && err != nil {
			return fail(name.col, problem(RowBadText, err.Error(), nil))
		}
	}
	if g.ID == "" && g.Code == "" && (g.FirstName == "" || g.LastName == "") {
		return fail("name", problem(RowNeedsName, "a new guest needs a first and a last name", nil))
	}
	if row.Has["dietary"] || row.Has["dietaryTags"] {
		g.Dietary = NormalizeDietary(g.Dietary)
	}
	g.Tastes = NormalizeTastes(g.Tastes)
	return row
}

func clip(s string) string { return truncate(s, 40) }

func csvInt(v string, lo, hi int) (int, *rowProblem) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, problem(RowNotANumber, fmt.Sprintf("%q is not a whole number", clip(v)), map[string]any{"Value": strconv.Quote(clip(v))})
	}
	if n < lo || n > hi {
		return 0, problem(RowOutOfRange, fmt.Sprintf("%d is not between %d and %d", n, lo, hi), map[string]any{"Number": n, "Min": lo, "Max": hi})
	}
	return n, nil
}

func csvBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "", "false", "no", "n", "0", "-":
		return false, true
	case "true", "yes", "y", "1", "x":
		return true, true
	}
	return false, false
}

func splitList(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ',' || r == '|' })
}

// ValidID reports whether s may be a guest or group id: letters, digits, -
// and _, 1 to 64 of them (safe in URLs, hub topics and CSV).
func ValidID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// WriteCSV writes guests with CSVColumns. Every text cell is quoted and
// neutralised (safecsv): the file holds every guest's sign-in code and
// text guests typed, and must not run in the host's spreadsheet, whatever
// its list separator. Counts and alcoholFree are written as numbers and
// truth values. ParseCSV reads it back to the same guests.
func WriteCSV(w io.Writer, guests []Guest) error {
	cw := safecsv.NewWriter(w)
	if err := cw.Header(CSVColumns...); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	when := func(t *time.Time) safecsv.Cell {
		if t == nil {
			return safecsv.Text("")
		}
		return safecsv.Text(t.UTC().Format(time.RFC3339))
	}
	text := safecsv.Text
	for _, g := range guests {
		err := cw.Write(
			text(g.ID), text(g.FirstName), text(g.LastName), text(g.Email), text(g.Code), text(string(g.Role)), text(string(g.Status)),
			safecsv.Int(max(1, g.ExpectedGuests)), safecsv.Int(g.ExtraGuests), safecsv.Int(g.Heads()),
			text(g.GroupID), text(g.Dietary.Text), text(strings.Join(g.Dietary.Tags, ";")),
			text(strings.Join(g.Tastes.Likes, ";")), text(strings.Join(g.Tastes.Dislikes, ";")),
			safecsv.Bool(g.Tastes.AlcoholFree), text(g.AgeGroup), when(g.RSVPDate), when(g.LastLogin), text(g.CreatedAt.UTC().Format(time.RFC3339)),
			text(g.Source),
		)
		if err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	if err := cw.Flush(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}
