package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/store"
)

// The guest list as CSV: export, and an import that reports on every row.

func (s *Server) handleExportGuests(w http.ResponseWriter, r *http.Request) {
	guests, err := s.store.AllGuests(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := guest.WriteCSV(&buf, guests); err != nil {
		s.fail(w, r, err)
		return
	}
	name := fmt.Sprintf("guests-%s.csv", time.Now().UTC().Format(time.DateOnly))
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// Import row outcomes.
const (
	rowCreated = "created"
	rowUpdated = "updated"
	rowRefused = "refused"
)

// importRow is one line of the import report.
type importRow struct {
	Row    int    `json:"row"`
	Status string `json:"status"`
	// Reason says why a row was refused, in the language the request
	// asks for (Accept-Language; English without it); ReasonCode names
	// the reason for programs, the same in every language.
	Reason     string         `json:"reason,omitempty"`
	ReasonCode string         `json:"reasonCode,omitempty"`
	reasonVars map[string]any // the catalogue's placeholders
	ID         string         `json:"id,omitempty"`
	Name       string         `json:"name,omitempty"`
	// Changes lists the fields an update changed (empty: the guest was
	// already like this).
	Changes []string `json:"changes,omitempty"`
}

// importReport is POST /api/admin/guests/import.
type importReport struct {
	DryRun         bool        `json:"dryRun"`
	Created        int         `json:"created"`
	Updated        int         `json:"updated"`
	Refused        int         `json:"refused"`
	Columns        []string    `json:"columns"`
	IgnoredColumns []string    `json:"ignoredColumns,omitempty"`
	Rows           []importRow `json:"rows"`
}

// importInput is POST /api/admin/guests/import as JSON.
type importInput struct {
	CSV    string `json:"csv"`
	DryRun bool   `json:"dryRun"`
}

// readImport takes the CSV from a text/csv (or any non-JSON) body, or from
// {"csv": "…", "dryRun": bool} in a JSON one.
func readImport(r *http.Request) (data []byte, dryRun bool, err error) {
	if dryRun, err = boolParam(r.URL.Query(), "dryRun"); err != nil {
		return nil, false, err
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var body importInput
		if err := decode(r, &body); err != nil {
			return nil, false, err
		}
		return []byte(body.CSV), dryRun || body.DryRun, nil
	}
	data, err = io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, false, tooLarge(mbe)
		}
		return nil, false, errBadRequest("unreadable_body", "the CSV could not be read; send it again")
	}
	return data, dryRun, nil
}

func (s *Server) handleImportGuests(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	data, dryRun, err := readImport(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		s.fail(w, r, errBadRequest("empty_csv", "the CSV is empty; send a header row and one row per guest"))
		return
	}
	file, err := guest.ParseCSV(bytes.NewReader(data))
	if err != nil {
		s.fail(w, r, errUnprocessable("csv_header", err.Error()))
		return
	}
	rep, changed, err := s.importGuests(ctx, file, dryRun)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.translateImportReasons(r, &rep)
	if dryRun {
		audit.Skip(ctx) // a check changes nothing
	} else {
		audit.Note(ctx, "created", rep.Created)
		audit.Note(ctx, "updated", rep.Updated)
		audit.Note(ctx, "refused", rep.Refused)
	}
	if len(changed) > 0 {
		s.guestsChanged(ctx, "import", identity(ctx), changed, nil)
	}
	writeJSON(w, http.StatusOK, rep)
}

// importGuests applies each row on its own: a refused row is reported and
// the next one goes on. A row is matched to a guest by id, else by code;
// a row with neither is a new guest, unless someone with the same name is
// already invited (a second import of one list must not invite everyone
// twice).
//
// New guests are stored together (store.InsertGuests: a few writes a
// hundred guests rather than five a guest), once every row is read; a row
// that names a new guest still waiting — by its id, its code or, without
// either, its name — first has the waiting ones stored, so it is judged
// as if each row had been applied before the next.
func (s *Server) importGuests(ctx context.Context, file guest.CSVFile, dryRun bool) (importReport, []guest.Guest, error) {
	rep := importReport{DryRun: dryRun, Columns: file.Columns, IgnoredColumns: file.Ignored, Rows: []importRow{}}
	names, err := s.store.NameIndex(ctx)
	if err != nil {
		return rep, nil, err
	}
	by := identity(ctx).GuestID
	seen := map[string]int{}       // identity key → row
	saved := map[int]guest.Guest{} // index in rep.Rows → the guest as stored
	var waiting []newGuest
	waitingKeys := map[string]bool{}
	flush := func() {
		s.importCreateAll(ctx, waiting, rep.Rows, saved, names)
		waiting = waiting[:0]
		clear(waitingKeys)
	}
	for _, row := range file.Rows {
		if row.Err == "" {
			if col, err := cleanImported(&row.Guest); err != nil {
				row.Err, row.ErrCode, row.ErrVars = err.Error(), guest.RowBadText, map[string]any{"Column": col}
			}
		}
		out := importRow{Row: row.Line, Name: row.Guest.Name()}
		refuse := func(code, reason string, vars map[string]any) {
			out.refuse(code, reason, vars)
		}
		g := row.Guest
		nameKey := guest.NameKey(g.FirstName) + " " + guest.NameKey(g.LastName)
		key := "name:" + nameKey
		switch {
		case g.ID != "":
			key = "id:" + g.ID
		case g.Code != "":
			key = "code:" + g.Code
		}
		switch {
		case row.Err != "":
			refuse(row.ErrCode, row.Err, row.ErrVars)
		case seen[key] > 0:
			refuse(reasonDuplicateRow, fmt.Sprintf("the same guest as row %d", seen[key]), map[string]any{"Row": seen[key]})
		default:
			seen[key] = row.Line
			if waitingKeys[key] {
				flush()
			}
			existing, found, err := s.matchImportRow(ctx, g)
			switch {
			case err != nil:
				flush() // the rows before this one are applied, as they would be one by one
				return rep, nil, err
			case found:
				if after, ok := s.importUpdate(ctx, row, existing, by, dryRun, &out); ok {
					saved[len(rep.Rows)] = after
				}
			case g.ID == "" && g.Code == "" && names[nameKey] != "":
				refuse(reasonAlreadyInvited, fmt.Sprintf("%s is already invited (id %s); add the id column to update them", g.Name(), names[nameKey]),
					map[string]any{"Name": g.Name(), "ID": names[nameKey]})
			default:
				if s.importCreate(&g, dryRun, &out) {
					waiting = append(waiting, newGuest{at: len(rep.Rows), g: g, nameKey: nameKey})
					waitingKeys["name:"+nameKey] = true
					if g.ID != "" {
						waitingKeys["id:"+g.ID] = true
					}
					if g.Code != "" {
						waitingKeys["code:"+g.Code] = true
					}
				}
			}
		}
		rep.Rows = append(rep.Rows, out)
	}
	flush()
	var changed []guest.Guest
	for i, out := range rep.Rows {
		switch out.Status {
		case rowCreated:
			rep.Created++
		case rowUpdated:
			rep.Updated++
		default:
			rep.Refused++
		}
		if g, ok := saved[i]; ok {
			changed = append(changed, g)
		}
	}
	return rep, changed, nil
}

// cleanImported puts an imported row's typed text under the rule the same
// text typed on the guest desk gets (guest.CleanName, guest.CleanDietary):
// NFC, trimmed, direction marks taken out, controls refused. A refusal is
// a *guest.FieldError; col names the CSV column it is in.
func cleanImported(g *guest.Guest) (col string, err error) {
	for _, name := range []struct {
		col  string
		kept *string
	}{{"firstName", &g.FirstName}, {"lastName", &g.LastName}} {
		if *name.kept == "" {
			continue // the column is not in the file: nothing changes
		}
		if *name.kept, err = guest.CleanName(name.col, *name.kept); err != nil {
			return name.col, err
		}
	}
	d, err := guest.CleanDietary(guest.Dietary{Text: g.Dietary.Text, Tags: g.Dietary.Tags})
	if err != nil {
		return "dietary", guest.Within("dietary", err)
	}
	if d.Text != g.Dietary.Text {
		// Read the cleaned words afresh; what the tags column left unclear
		// (not a part of the words) stays for the host.
		read := guest.NormalizeDietary(guest.Dietary{Text: d.Text, Tags: g.Dietary.Tags})
		for _, u := range g.Dietary.Unclear {
			if !strings.Contains(g.Dietary.Text, u) && !slices.Contains(read.Unclear, u) {
				read.Unclear = append(read.Unclear, u)
			}
		}
		g.Dietary = read
	}
	return "", nil
}

// newGuest is a row's new guest waiting to be stored.
type newGuest struct {
	at      int // index in the report's rows
	g       guest.Guest
	nameKey string
}

// importCreateAll stores the waiting new guests and reports each row's
// outcome: its id, or why it was not saved. A name whose guest was not
// saved stays free for the rows after.
func (s *Server) importCreateAll(ctx context.Context, waiting []newGuest, rows []importRow, saved map[int]guest.Guest, names map[string]string) {
	if len(waiting) == 0 {
		return
	}
	gs := make([]guest.Guest, len(waiting))
	for i, w := range waiting {
		gs[i] = w.g
	}
	errs := s.store.InsertGuests(ctx, gs)
	for i, w := range waiting {
		out := &rows[w.at]
		names[w.nameKey] = ""
		if err := errs[i]; err != nil {
			out.refuse(reasonNotSaved, "could not be saved", nil)
			if errors.Is(err, store.ErrConflict) {
				out.refuse(reasonTaken, "its id or code belongs to another guest", nil)
			} else {
				s.log.WarnContext(ctx, "import row", "err", err)
			}
			continue
		}
		out.ID = gs[i].ID
		names[w.nameKey] = gs[i].ID
		saved[w.at] = gs[i]
	}
}

// matchImportRow finds the guest a row names by id or code.
func (s *Server) matchImportRow(ctx context.Context, g guest.Guest) (guest.Guest, bool, error) {
	var found guest.Guest
	var err error
	switch {
	case g.ID != "":
		found, err = s.store.GuestByID(ctx, g.ID)
	case g.Code != "":
		found, err = s.store.GuestWithCode(ctx, g.Code)
	default:
		return found, false, nil
	}
	if errors.Is(err, store.ErrNotFound) {
		return found, false, nil
	}
	return found, err == nil, err
}

// importCreate checks a row's new guest: true when it is to be stored
// (never on a dry run, which only reports what would be).
func (s *Server) importCreate(g *guest.Guest, dryRun bool, out *importRow) bool {
	if g.FirstName == "" || g.LastName == "" {
		out.refuse(reasonNoMatch, "no guest has this id or code, and a new guest needs a first and a last name", nil)
		return false
	}
	if g.Status == guest.StatusPending {
		g.RSVPDate = nil
	}
	out.Status = rowCreated
	return !dryRun
}

// importUpdate applies a row to the guest it names: the guest as saved,
// and true, when it changed.
func (s *Server) importUpdate(ctx context.Context, row guest.CSVRow, existing guest.Guest, by string, dryRun bool, out *importRow) (guest.Guest, bool) {
	g := row.Guest
	out.ID = existing.ID
	if row.Has["code"] && g.Code != "" && g.Code != existing.Code {
		out.refuse(reasonCodeDiffers, "the code differs from the guest's code; codes change only by making a new one on the guest desk", nil)
		return guest.Guest{}, false
	}
	var p guest.Patch
	if row.Has["firstName"] {
		p.FirstName = &g.FirstName
	}
	if row.Has["lastName"] {
		p.LastName = &g.LastName
	}
	if row.Has["email"] {
		p.Email = &g.Email
	}
	if row.Has["role"] && g.Role != "" {
		p.Role = &g.Role
	}
	if row.Has["status"] && g.Status != "" {
		p.Status = &g.Status
	}
	if row.Has["expectedGuests"] && g.ExpectedGuests > 0 {
		p.ExpectedGuests = &g.ExpectedGuests
	}
	if row.Has["extraGuests"] {
		p.ExtraGuests = &g.ExtraGuests
	}
	if row.Has["groupId"] {
		p.GroupID = &g.GroupID
	}
	if row.Has["ageGroup"] {
		p.AgeGroup = &g.AgeGroup
	}
	if row.Has["dietary"] || row.Has["dietaryTags"] {
		d := existing.Dietary
		if row.Has["dietary"] {
			d.Text = g.Dietary.Text
		}
		if row.Has["dietaryTags"] {
			d.Tags = g.Dietary.Tags
		} else {
			d.Tags = nil // derived from the new text
		}
		p.Dietary = &d
	}
	if row.Has["likes"] || row.Has["dislikes"] || row.Has["alcoholFree"] {
		t := existing.Tastes
		if row.Has["likes"] {
			t.Likes = g.Tastes.Likes
		}
		if row.Has["dislikes"] {
			t.Dislikes = g.Tastes.Dislikes
		}
		if row.Has["alcoholFree"] {
			t.AlcoholFree = g.Tastes.AlcoholFree
		}
		p.Tastes = &t
	}
	after, err := p.Apply(existing, by, time.Now().UTC())
	if err != nil {
		var vars map[string]any
		if fe, ok := errors.AsType[*guest.FieldError](err); ok {
			vars = map[string]any{"Column": fe.Field}
		}
		out.refuse(reasonInvalid, err.Error(), vars)
		return guest.Guest{}, false
	}
	out.Changes = differences(existing, after)
	out.Status = rowUpdated
	if len(out.Changes) == 0 || dryRun {
		return guest.Guest{}, false
	}
	saved, err := s.store.UpdateGuest(ctx, existing.ID, p, by)
	if err != nil {
		out.Changes = nil
		out.refuse(reasonNotSaved, "could not be saved", nil)
		if errors.Is(err, store.ErrNotFound) {
			out.refuse(reasonDeleted, "the guest was deleted meanwhile", nil)
		} else {
			s.log.WarnContext(ctx, "import row", "err", err)
		}
		return guest.Guest{}, false
	}
	if saved.Role != existing.Role {
		s.accessChanged(ctx, existing.ID)
	}
	return saved, true
}

// Codes of the reasons the import itself refuses a row for; a row the
// CSV reader refused has its code (guest.CSVRow.ErrCode).
const (
	reasonDuplicateRow   = "duplicate_row"
	reasonAlreadyInvited = "already_invited"
	reasonNoMatch        = "no_match_needs_name"
	reasonNotSaved       = "not_saved"
	reasonTaken          = "id_or_code_taken"
	reasonCodeDiffers    = "code_differs"
	reasonInvalid        = "invalid_value"
	reasonDeleted        = "deleted_meanwhile"
)

// refuse marks the row refused: text is the English reason, code and
// vars name it for the catalogues (import.reason.<code>).
func (o *importRow) refuse(code, text string, vars map[string]any) {
	o.Status, o.Reason, o.ReasonCode, o.reasonVars = rowRefused, text, code, vars
}

// translateImportReasons puts each refused row's reason in the language
// the request asks for. English keeps the reader's own sentence, which
// names the exact value; a reason the catalogue cannot fill (a
// placeholder it lacks) stays English too, never half-translated.
func (s *Server) translateImportReasons(r *http.Request, rep *importReport) {
	lang := s.locale.Match(r.Header.Get("Accept-Language"))
	if lang == language.English {
		return
	}
	for i := range rep.Rows {
		row := &rep.Rows[i]
		if row.ReasonCode == "" {
			continue
		}
		if text, ok := s.locale.Text(lang, "import.reason."+row.ReasonCode, row.reasonVars); ok {
			row.Reason = text
		}
	}
}

// differences names the fields an import changes.
func differences(a, b guest.Guest) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("firstName", a.FirstName != b.FirstName)
	add("lastName", a.LastName != b.LastName)
	add("email", a.Email != b.Email)
	add("role", a.Role != b.Role)
	add("status", a.Status != b.Status)
	add("expectedGuests", a.ExpectedGuests != b.ExpectedGuests)
	add("ageGroup", a.AgeGroup != b.AgeGroup)
	add("extraGuests", a.ExtraGuests != b.ExtraGuests)
	add("groupId", a.GroupID != b.GroupID)
	add("dietary", a.Dietary.Text != b.Dietary.Text || !slices.Equal(a.Dietary.Tags, b.Dietary.Tags) || a.Dietary.Reviewed != b.Dietary.Reviewed)
	add("companions", !slices.EqualFunc(a.Companions, b.Companions, func(x, y guest.Companion) bool {
		return x.Name == y.Name && x.Dietary.Text == y.Dietary.Text && slices.Equal(x.Dietary.Tags, y.Dietary.Tags) && x.Dietary.Reviewed == y.Dietary.Reviewed
	}))
	add("tastes", !slices.Equal(a.Tastes.Likes, b.Tastes.Likes) || !slices.Equal(a.Tastes.Dislikes, b.Tastes.Dislikes) || a.Tastes.AlcoholFree != b.Tastes.AlcoholFree)
	return out
}
