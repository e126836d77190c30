package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/barhub/barhub/web/browsertest"
)

// TestBrowserBarDoorBoardTranslated: the people behind the bar and at the
// door work in their own language. A bartender's tablet set to Brazilian
// Portuguese shows the queue, a ticket's buttons, the recipe and the
// stock panel in Portuguese; the pick-up board by the bar, in Portuguese
// too, shows the order waiting ("Na fila"); a door phone set to Swedish checks the
// guest in with a Swedish card and a 24-hour clock.
func TestBrowserBarDoorBoardTranslated(t *testing.T) {
	p := startBarParty(t, nil)
	b := browsertest.New(t)

	tablet := b.Page(t, browsertest.Tablet)
	browsertest.Language(t, tablet, "pt-BR,pt;q=0.9")
	browsertest.SignIn(t, tablet, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	waitEval(t, tablet, "the queue's heading in Portuguese", `document.getElementById("col-queued").textContent === "Na fila"`)
	browsertest.WaitText(t, tablet, "#tickets-queued", "Nenhum pedido esperando")
	browsertest.WaitText(t, tablet, "#stock-toggle", "Estoque")
	browsertest.WaitText(t, tablet, "#live-status", "Ao vivo")

	var board struct{ Link string }
	if status := p.bartender.call("POST", "/api/bar/boards", map[string]string{"name": "TV"}, &board); status != 201 {
		t.Fatalf("board: %d", status)
	}
	_, fragment, ok := strings.Cut(board.Link, "/board#")
	if !ok {
		t.Fatalf("board link %q", board.Link)
	}
	tv := b.Page(t, browsertest.Tablet)
	browsertest.Language(t, tv, "pt-BR")
	browsertest.Navigate(t, tv, p.s.URL+"/board#"+fragment)
	waitEval(t, tv, "board live", `document.getElementById("live-status").dataset.status === "open"`)
	waitEval(t, tv, "the board's headings in Portuguese", `document.getElementById("waiting-title").textContent === "Na fila" && document.getElementById("making-title").textContent === "Em preparo" && document.getElementById("ready-title").textContent === "Pronto — retire"`)

	var o e2eOrder
	order := map[string]any{"items": []map[string]any{{"drinkId": "mojito", "qty": 2}}}
	if status := p.guest.call("POST", "/api/orders", order, &o, "Idempotency-Key", "pt-1"); status != 201 {
		t.Fatalf("order: %d", status)
	}
	ticket := `.ticket[data-id="` + o.ID + `"]`
	browsertest.WaitText(t, tablet, ticket+" .act-start", "Começar")
	browsertest.WaitText(t, tablet, ticket+" .act-cancel", "Cancelar")
	browsertest.WaitText(t, tablet, "#all-day", "Mojito")
	browsertest.WaitText(t, tv, "#waiting", "2× Mojito")
	browsertest.Click(t, tablet, ticket+" .recipe-open")
	browsertest.WaitText(t, tablet, "#recipe-batch", "Quantidades para os 2 copos")
	browsertest.WaitText(t, tablet, "#recipe-close", "Fechar")
	browsertest.ScreenshotOf(t, tablet, "#recipe-dialog", "recipe-pt-BR")
	browsertest.Click(t, tablet, "#recipe-close")
	browsertest.Click(t, tablet, "#stock-toggle")
	browsertest.WaitText(t, tablet, "#stock-panel", "Ingredientes")
	browsertest.WaitText(t, tablet, "#stock-ingredients", "drinques")
	browsertest.Screenshot(t, tablet, "bar-pt-BR")
	browsertest.Screenshot(t, tv, "board-pt-BR")

	door := b.Page(t, browsertest.Phone)
	browsertest.Language(t, door, "sv-SE,sv;q=0.9")
	browsertest.SignIn(t, door, p.s.URL, p.bartenderCode, p.barLast, "/bar")
	browsertest.Navigate(t, door, p.s.URL+"/door")
	browsertest.WaitText(t, door, "#door-submit", "Checka in")
	browsertest.WaitText(t, door, "#door-search-title", "Tappat koden?")
	// Ada never answered: the amber card asks in Swedish, then lets her in.
	browsertest.Fill(t, door, "#door-code", p.guestCode)
	browsertest.Click(t, door, "#door-submit")
	browsertest.WaitText(t, door, "#door-message", "Släppa in ändå? Ada Lovelace — sällskap om 1")
	browsertest.WaitText(t, door, "#door-detail", "OSA: inte svarat")
	browsertest.WaitText(t, door, "#door-force", "Släpp in ändå")
	browsertest.WaitText(t, door, "#door-warnings", "Ada Lovelace svarade aldrig på OSA")
	browsertest.Click(t, door, "#door-force")
	browsertest.WaitText(t, door, "#door-message", "Välkommen, Ada Lovelace — sällskap om 1")
	detail := browsertest.WaitText(t, door, "#door-detail", "Incheckad ")
	// One clock for the locale: Swedish times are 24-hour, never "PM".
	if !regexp.MustCompile(`Incheckad \d{2}:\d{2}`).MatchString(detail) || strings.Contains(detail, "M") {
		t.Errorf("door detail %q: want a Swedish 24-hour time", detail)
	}
	browsertest.WaitText(t, door, "#door-warnings", "släpptes in ändå")
	browsertest.WaitText(t, door, "#door-in-label", "gäst inne")
	browsertest.Screenshot(t, door, "door-sv")
}
