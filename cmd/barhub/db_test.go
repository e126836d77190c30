package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startDB runs "barhub db" in-process and returns its MONGODB_URI.
func startDB(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"barhub", "db", "--addr", addr, "--data", t.TempDir()}, func(string) string { return "" }, pw)
		pw.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("barhub db: %v", err)
		}
	})
	uriLine := regexp.MustCompile(`MONGODB_URI=(\S+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := uriLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case uri := <-found:
		return uri
	case err := <-done:
		t.Fatalf("barhub db stopped: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("barhub db not ready after 30s")
	}
	return ""
}

// Two instances on one database: one admin is created, and a token signed
// by one instance is accepted by the other (shared keys).
func TestTwoInstancesShareOneDatabase(t *testing.T) {
	uri := startDB(t)
	env := map[string]string{"MONGODB_URI": uri}
	a := startServer(t, "", env)
	b := startServer(t, "", env)
	if b.Code != "" {
		t.Fatalf("second instance created another admin:\n%s", b.Output())
	}
	status, lr := login(t, a.URL, a.Code, a.LastName)
	if status != 200 {
		t.Fatalf("login on A: %d", status)
	}
	if status, body := authed(t, "GET", b.URL+"/api/me", lr.Token); status != 200 || !strings.Contains(body, lr.Guest.ID) {
		t.Fatalf("A's token on B: %d %s", status, body)
	}
	// A WebSocket ticket from A is a record in the shared database, so B
	// can redeem it (the hub tests check the upgrade itself).
	if status, body := authed(t, "POST", a.URL+"/api/ws/ticket", lr.Token); status != 200 || !strings.Contains(body, `"ticket"`) {
		t.Fatalf("ticket on A: %d %s", status, body)
	}
}

// With MONGODB_URI the photos live in the shared database: a photo
// uploaded through one instance is served by the other.
func TestPhotoUploadedToOneInstanceServedByAnother(t *testing.T) {
	uri := startDB(t)
	env := map[string]string{"MONGODB_URI": uri}
	a := startServer(t, "", env)
	b := startServer(t, "", env)
	admin := signInAdmin(t, a)
	var d struct{ ID string }
	if status := admin.call("POST", "/api/admin/drinks", newDrink("Hugo"), &d); status != 201 {
		t.Fatalf("create drink: %d", status)
	}
	var u struct{ UploadURL string }
	if status := admin.call("POST", "/api/admin/drinks/"+d.ID+"/image-upload", nil, &u); status != 200 {
		t.Fatalf("upload url: %d", status)
	}
	photo := testJPEG(t)
	var up struct{ ImageURL string }
	if status := (rsvpClient{t: t, base: a.URL}).call("PUT", u.UploadURL, photo, &up); status != 200 || up.ImageURL == "" {
		t.Fatalf("upload on A: %d %+v", status, up)
	}
	res, body := get(t, b.URL+up.ImageURL)
	if res.StatusCode != 200 || body != string(photo) || res.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("GET %s on B: %d, %d bytes (want %d), %s", up.ImageURL, res.StatusCode, len(body), len(photo), res.Header.Get("Content-Type"))
	}
}
