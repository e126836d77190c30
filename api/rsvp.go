package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

// RSVP: the guest's side (docs/DESIGN.md, flow 2). The host's desk is in
// admin_guests.go, admin_csv.go and invitations.go.

// handleEvent is the public part of the event, for the sign-in page and
// anyone holding the link: no address, no details.
func (s *Server) handleEvent(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Settings(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, eventView{Public: st.Public(time.Now()), PublicMenu: st.MenuIsPublic(s.cfg.PublicMenu), ID: s.eventID(s.event)})
}

func (s *Server) handleGetRSVP(w http.ResponseWriter, r *http.Request) {
	v, err := s.guests.rsvp.View(r.Context(), identity(r.Context()).GuestID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// rsvpRequest is PUT /api/rsvp.
type rsvpRequest struct {
	Status    string        `json:"status"`
	NumGuests *int          `json:"numGuests"`
	NotComing []string      `json:"notComing"`
	Confirm   bool          `json:"confirm"`
	Scope     string        `json:"scope"`
	Dietary   *dietaryInput `json:"dietary"`
	Tastes    *guest.Tastes `json:"tastes"`
	// Companions are the people the guest brings without a login ("+1"s),
	// each with their own needs; Members the needs the one answering
	// gives for other members of the group.
	Companions *[]companionInput `json:"companions"`
	Members    []memberInput     `json:"members"`
	// GroupVersion is the view's groupVersion the answer was given on.
	GroupVersion string `json:"groupVersion"`
}

// companionInput is one "+1" as the form sends it.
type companionInput struct {
	Name    string        `json:"name"`
	Dietary *dietaryInput `json:"dietary"`
	// AgeGroup is "adult" (or left out) or "child".
	AgeGroup string `json:"ageGroup"`
}

// memberInput is the needs given for one member of the group.
type memberInput struct {
	ID         string            `json:"id"`
	Dietary    *dietaryInput     `json:"dietary"`
	Companions *[]companionInput `json:"companions"`
	// AgeGroup marks the member "child" or "adult"; left out, it stays.
	AgeGroup *string `json:"ageGroup"`
}

// dietaryInput takes the dietary answer as {"text","tags"} or, for
// convenience, as plain text. The object is read as strictly as the body
// around it: a field it does not know is refused, not dropped.
type dietaryInput struct {
	Text string   `json:"text"`
	Tags []string `json:"tags"`
	// Answered are the words barhub could not read that the person
	// answered by choosing tags (guest.Dietary.Answered); parts not unread
	// in Text are dropped.
	Answered []string `json:"answered"`
}

// maxAnswered bounds the answered words of one person: barhub keeps at
// most a dozen unread parts.
const maxAnswered = 12

func (d *dietaryInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
		*d = dietaryInput{Text: text}
		return nil
	}
	// json.Unmarshal would drop unknown fields; the body's decoder refuses
	// them, and its setting does not reach inside an UnmarshalJSON.
	type plain dietaryInput
	var v plain
	if err := unmarshalStrict(b, &v); err != nil {
		return err
	}
	*d = dietaryInput(v)
	return nil
}

// unmarshalStrict is json.Unmarshal refusing fields v does not know.
func unmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// dietary checks one dietary answer under the text rule (the words may
// run over lines; see guest.CleanDietary); nil stays nil (no change).
func (d *dietaryInput) dietary(field string) (*guest.Dietary, error) {
	if d == nil {
		return nil, nil
	}
	if len(d.Tags) > 50 {
		return nil, errBadRequest("invalid_field", field+" lists too many tags")
	}
	if len(d.Answered) > maxAnswered {
		return nil, errBadRequest("invalid_field", field+" answers too many words")
	}
	// Reviewed and Unclear are the host's and the server's to set.
	out, err := guest.CleanDietary(guest.Dietary{Text: d.Text, Tags: d.Tags, Answered: d.Answered})
	if err != nil {
		return nil, fieldInputError(guest.Within(field, err))
	}
	return &out, nil
}

// companions checks the "+1"s of one answer, names and needs under the
// text rule (guest.CleanCompanions); nil stays nil (no change).
func companions(in *[]companionInput, field string) (*[]guest.Companion, error) {
	if in == nil {
		return nil, nil
	}
	if len(*in) > guest.MaxCompanions {
		return nil, errBadRequest("invalid_field", fmt.Sprintf("%s lists more than %d people", field, guest.MaxCompanions))
	}
	typed := make([]guest.Companion, len(*in))
	for i, c := range *in {
		typed[i].Name, typed[i].AgeGroup = c.Name, c.AgeGroup
		if c.Dietary != nil {
			if len(c.Dietary.Tags) > 50 {
				return nil, errBadRequest("invalid_field", fmt.Sprintf("%s[%d].dietary lists too many tags", field, i))
			}
			if len(c.Dietary.Answered) > maxAnswered {
				return nil, errBadRequest("invalid_field", fmt.Sprintf("%s[%d].dietary answers too many words", field, i))
			}
			typed[i].Dietary = guest.Dietary{Text: c.Dietary.Text, Tags: c.Dietary.Tags, Answered: c.Dietary.Answered}
		}
	}
	out, err := guest.CleanCompanions(typed)
	if err != nil {
		return nil, fieldInputError(guest.Within(field, err))
	}
	return &out, nil
}

// fieldInputError is a *guest.FieldError in what a person typed as a 400
// naming the field, as the other checks of an answer are.
func fieldInputError(err error) error {
	var fe *guest.FieldError
	if errors.As(err, &fe) {
		return &apiError{Status: http.StatusBadRequest, Code: "invalid_field", Message: fe.Field + " " + fe.Message, Details: map[string]string{"field": fe.Field}}
	}
	return err
}

// parseRSVP decodes and checks an RSVP body; the group rules come after,
// in guest.Decide. It is its own function so the fuzz test reaches every
// path a body can take.
func parseRSVP(r *http.Request) (guest.Answer, error) {
	var req rsvpRequest
	if err := decode(r, &req); err != nil {
		return guest.Answer{}, err
	}
	a := guest.Answer{
		Status:    guest.Status(strings.ToLower(strings.TrimSpace(req.Status))),
		NumGuests: req.NumGuests,
		Confirm:   req.Confirm,
		Scope:     guest.Scope(strings.ToLower(strings.TrimSpace(req.Scope))),
		Tastes:    req.Tastes,
	}
	if len(req.GroupVersion) > 64 {
		return a, errBadRequest("invalid_field", "groupVersion is not a version this server gave")
	}
	a.GroupVersion = req.GroupVersion
	if len(req.NotComing) > guest.MaxPartySize {
		return a, errBadRequest("invalid_field", fmt.Sprintf("notComing lists more than %d people", guest.MaxPartySize))
	}
	for _, id := range req.NotComing {
		if !guest.ValidID(id) {
			return a, errBadRequest("invalid_field", "notComing must list the ids of your group's members")
		}
		a.NotComing = append(a.NotComing, id)
	}
	var err error
	if a.Dietary, err = req.Dietary.dietary("dietary"); err != nil {
		return a, err
	}
	if a.Companions, err = companions(req.Companions, "companions"); err != nil {
		return a, err
	}
	if len(req.Members) > guest.MaxPartySize {
		return a, errBadRequest("invalid_field", fmt.Sprintf("members lists more than %d people", guest.MaxPartySize))
	}
	for i, m := range req.Members {
		if !guest.ValidID(m.ID) {
			return a, errBadRequest("invalid_field", "members must name your group's members by id")
		}
		mn := guest.MemberNeeds{ID: m.ID}
		if m.AgeGroup != nil {
			v, err := guest.CleanAgeGroup(fmt.Sprintf("members[%d].ageGroup", i), *m.AgeGroup)
			if err != nil {
				return a, fieldInputError(err)
			}
			mn.AgeGroup = &v
		}
		if mn.Dietary, err = m.Dietary.dietary(fmt.Sprintf("members[%d].dietary", i)); err != nil {
			return a, err
		}
		if mn.Companions, err = companions(m.Companions, fmt.Sprintf("members[%d].companions", i)); err != nil {
			return a, err
		}
		a.Members = append(a.Members, mn)
	}
	if t := req.Tastes; t != nil && (len(t.Likes) > 50 || len(t.Dislikes) > 50) {
		return a, errBadRequest("invalid_field", "tastes list too many likes or dislikes")
	}
	return a, nil
}

func (s *Server) handlePutRSVP(w http.ResponseWriter, r *http.Request) {
	answer, err := parseRSVP(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := s.guests.rsvp.Answer(r.Context(), identity(r.Context()), answer)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The group's needs may have changed: the menu's marks read them
	// afresh (the use case told the phones, live).
	for _, m := range v.Group {
		s.menu.ForgetNeeds(m.ID)
	}
	if answer.Dietary != nil || answer.Tastes != nil {
		// The needs and tastes one gives are one's own in every event.
		s.personChanged(r.Context(), identity(r.Context()), v.Guest.ID, guest.Patch{Dietary: &v.Guest.Dietary, Tastes: &v.Guest.Tastes})
	}
	writeJSON(w, http.StatusOK, v)
}

// guestsChanged tells the host's dashboards, live: rsvp.changed with who
// changed, then stats.updated with the figures. The request never waits
// on or fails for a publish.
func (s *Server) guestsChanged(ctx context.Context, reason string, by auth.Identity, changed []guest.Guest, deleted []string) {
	s.guests.dashboard.GuestsChanged(ctx, app.NewGuestsChanged(reason, by, changed, deleted, nil))
}
