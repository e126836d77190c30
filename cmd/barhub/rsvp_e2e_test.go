package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rsvpClient calls the API of a test server with one sign-in.
type rsvpClient struct {
	t     testing.TB
	base  string
	token string
}

func (c rsvpClient) call(method, path string, body any, out any) int {
	c.t.Helper()
	var rd io.Reader
	ct := "application/json"
	switch b := body.(type) {
	case nil:
	case string:
		rd, ct = strings.NewReader(b), "text/csv"
	case []byte:
		rd, ct = bytes.NewReader(b), "text/csv"
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if p, ok := out.(*[]byte); ok {
			*p = raw
		} else if len(raw) > 0 {
			if err := json.Unmarshal(raw, out); err != nil {
				c.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, raw, err)
			}
		}
	}
	return resp.StatusCode
}

type e2eGuest struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Code      string `json:"code"`
	Status    string `json:"status"`
	NumGuests int    `json:"numGuests"`
	LastLogin string `json:"lastLogin"`
}

// signInAdmin signs in as the first admin the server printed.
func signInAdmin(t testing.TB, s *testServer) rsvpClient {
	t.Helper()
	status, lr := login(t, s.URL, s.Code, s.LastName)
	if status != 200 {
		t.Fatalf("admin login: %d", status)
	}
	return rsvpClient{t: t, base: s.URL, token: lr.Token}
}

// addFamily creates guests sharing a group through the admin API.
func addFamily(t testing.TB, admin rsvpClient, lastName, group string, firstNames ...string) []e2eGuest {
	t.Helper()
	var out []e2eGuest
	for _, first := range firstNames {
		var g e2eGuest
		if status := admin.call("POST", "/api/admin/guests", map[string]any{"firstName": first, "lastName": lastName, "groupId": group, "expectedGuests": 1}, &g); status != 201 {
			t.Fatalf("create %s: %d", first, status)
		}
		out = append(out, g)
	}
	return out
}

type e2eStats struct {
	Invited       int `json:"invited"`
	Coming        int `json:"coming"`
	ComingHeads   int `json:"comingHeads"`
	Declined      int `json:"declined"`
	Pending       int `json:"pending"`
	NeverLoggedIn int `json:"neverLoggedIn"`
}

// TestRSVPThroughTheBinary runs flows 2, 3 and 4 against barhub as users
// start it: the first admin (picked up by the recount at start) adds a
// family, a member signs in and answers, and the host's figures, list,
// invitations and CSV follow.
func TestRSVPThroughTheBinary(t *testing.T) {
	s := startServer(t, "", map[string]string{"BARHUB_PUBLIC_URL": "https://party.example"})
	admin := signInAdmin(t, s)
	fam := addFamily(t, admin, "Lund", "lund", "Mia", "Leo", "Ivy")

	var st e2eStats
	admin.call("GET", "/api/admin/stats", nil, &st)
	// Three guests: the host is staff, not one of them.
	if st.Invited != 3 || st.Pending != 3 {
		t.Errorf("stats before any answer: %+v", st)
	}

	status, lr := login(t, s.URL, fam[0].Code, "lund")
	if status != 200 {
		t.Fatalf("guest login: %d", status)
	}
	mia := rsvpClient{t: t, base: s.URL, token: lr.Token}
	var errBody struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Details struct {
				Members []e2eGuest `json:"members"`
			} `json:"details"`
		} `json:"error"`
	}
	if status := mia.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 2}, &errBody); status != 422 ||
		errBody.Error.Code != "who_is_not_coming" || len(errBody.Error.Details.Members) != 3 {
		t.Fatalf("fewer without names: %d %+v", status, errBody)
	}
	var view struct {
		Message     string `json:"message"`
		ComingTotal int    `json:"comingTotal"`
	}
	if status := mia.call("PUT", "/api/rsvp", map[string]any{"status": "coming", "numGuests": 2, "notComing": []string{fam[2].ID}, "dietary": "no nuts"}, &view); status != 200 ||
		view.ComingTotal != 2 || !strings.Contains(view.Message, "2 of you") {
		t.Fatalf("answer: %d %+v", status, view)
	}

	admin.call("GET", "/api/admin/stats", nil, &st)
	if st.Coming != 2 || st.ComingHeads != 2 || st.Declined != 1 || st.Pending != 0 {
		t.Errorf("stats after the answer: %+v", st)
	}
	// Mia's sign-in reaches her document within the recorder's second.
	deadline := time.Now().Add(15 * time.Second)
	for {
		var g e2eGuest
		admin.call("GET", "/api/admin/guests/"+fam[0].ID, nil, &g)
		if g.LastLogin != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("lastLogin was not recorded")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The figures follow the activity writes (the admin's sign-in too), which
	// land asynchronously; wait for them rather than read once.
	for {
		admin.call("GET", "/api/admin/stats", nil, &st)
		if st.NeverLoggedIn == 2 { // Leo and Ivy; the admin signed in too
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never logged in = %d, want 2", st.NeverLoggedIn)
		}
		time.Sleep(100 * time.Millisecond)
	}

	var page struct {
		Guests []e2eGuest `json:"guests"`
		Total  int        `json:"total"`
	}
	admin.call("GET", "/api/admin/guests?groupId=lund&sort=firstName", nil, &page)
	if page.Total != 3 || page.Guests[0].FirstName != "Ivy" || page.Guests[0].Status != "declined" || page.Guests[2].Status != "coming" {
		t.Errorf("the family on the desk: %+v", page)
	}

	var html []byte
	if status := admin.call("GET", "/api/admin/invitations?guest="+fam[1].ID, nil, &html); status != 200 ||
		!bytes.Contains(html, []byte("https://party.example/login?code="+fam[1].Code)) || !bytes.Contains(html, []byte("<svg")) {
		t.Errorf("invitation: %d %.300s", status, html)
	}

	var csv []byte
	if status := admin.call("GET", "/api/admin/guests.csv", nil, &csv); status != 200 || bytes.Count(csv, []byte("\n")) != 5 {
		t.Fatalf("export: %d\n%s", status, csv)
	}
	var rep struct {
		Created, Updated, Refused int
	}
	if status := admin.call("POST", "/api/admin/guests/import", csv, &rep); status != 200 || rep.Updated != 4 || rep.Created+rep.Refused != 0 {
		t.Errorf("re-import of the export: %d %+v", status, rep)
	}
}
