package main

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestPhotoOfEveryEventServed: a host uploads a drink's photo in an event
// other than the first, as the desk does (the upload link, then the photo
// sent to it without a sign-in), and its address serves it to anyone, as
// an <img> asks for it; with the photos in the database too, where each
// event keeps its own. An event made from that one with its menu keeps
// the photo when the event it came from is deleted.
func TestPhotoOfEveryEventServed(t *testing.T) {
	for _, images := range []string{"database", "disk"} {
		t.Run(images, func(t *testing.T) {
			s := startServer(t, "", nil, "--images", images)
			host := signInAdmin(t, s)
			var second, third checkedEvent
			if status := host.call("POST", "/api/admin/events", map[string]any{"name": "Second", "menu": true}, &second); status != 201 {
				t.Fatalf("new event: %d", status)
			}
			hostB := switchTo(t, barClient{t: t, base: s.URL, token: host.token}, second.ID)
			var d struct{ ID string }
			if status := hostB.call("POST", "/api/admin/drinks", newDrink("Hugo"), &d); status != 201 {
				t.Fatalf("create drink: %d", status)
			}
			var u struct{ UploadURL string }
			if status := hostB.call("POST", "/api/admin/drinks/"+d.ID+"/image-upload", nil, &u); status != 200 {
				t.Fatalf("upload link: %d", status)
			}
			photo := testJPEG(t)
			var up struct{ ImageURL string }
			if status := (rsvpClient{t: t, base: s.URL}).call("PUT", u.UploadURL, photo, &up); status != 200 || up.ImageURL == "" {
				t.Fatalf("upload in the second event: %d %+v", status, up)
			}
			_, body := get(t, s.URL+"/api/app-key")
			var k struct{ Key string }
			if err := json.Unmarshal([]byte(body), &k); err != nil || k.Key == "" {
				t.Fatalf("app key: %s", body)
			}
			var drink struct{ ImageURL string }
			menu := hostB
			menu.key = k.Key
			if status := menu.call("GET", "/api/drinks/"+d.ID, nil, &drink); status != 200 || drink.ImageURL != up.ImageURL {
				t.Fatalf("the second event's drink: %d %+v, want the photo %s", status, drink, up.ImageURL)
			}
			servedAt := func(who string) {
				t.Helper()
				res, body := get(t, s.URL+up.ImageURL)
				if res.StatusCode != http.StatusOK || body != string(photo) || res.Header.Get("Content-Type") != "image/jpeg" {
					t.Errorf("GET %s %s: %d, %d bytes (want %d), %s", up.ImageURL, who, res.StatusCode, len(body), len(photo), res.Header.Get("Content-Type"))
				}
			}
			servedAt("uploaded in the second event")

			if status := host.call("POST", "/api/admin/events", map[string]any{"from": second.ID, "name": "Third", "menu": true}, &third); status != 201 {
				t.Fatalf("new event from the second: %d", status)
			}
			if status := host.call("DELETE", "/api/admin/events/"+second.ID, nil, nil); status != 200 && status != 204 {
				t.Fatalf("delete the second event: %d", status)
			}
			servedAt("copied with the menu to the third event, the second deleted")
		})
	}
}
