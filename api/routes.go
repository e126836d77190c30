package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/guest"
)

// routes is the whole API on one screen. Route groups are the policy
// enforcement points: public, signed in (any role), bartender, admin.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(s.withBodyDeadline, withRequestID, s.withClientIP, s.observe, s.recoverer, s.toTokensEvent, s.checkInput)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed on "+r.URL.Path)
	})

	r.Get("/healthz", s.handleHealthz)
	r.Get("/readyz", s.handleReadyz)
	r.Get("/metrics", s.handleMetrics)
	r.Get("/.well-known/jwks.json", s.handleJWKS)
	r.Get("/api/openapi.json", s.handleOpenAPI)
	r.Get("/ws", s.live.ServeHTTP)
	r.Get("/images/{name}", s.handleImage)
	r.Get("/images/drinks/{file}", s.handleDrawnImage)
	r.Put("/uploads/drinks/{id}", s.handleImagePut)
	r.Post("/uploads/drinks/{id}", s.handleImagePut)

	r.Route("/api", func(r chi.Router) {
		r.Use(s.limitBody)
		r.NotFound(func(w http.ResponseWriter, r *http.Request) {
			s.writeError(w, r, http.StatusNotFound, "not_found", "no such endpoint: "+r.Method+" "+r.URL.Path)
		})

		// Public.
		r.Post("/auth/login", s.handleLogin)
		r.Get("/event", s.handleEvent)
		// The menu: anyone signed in, and anyone at all while the host's
		// public menu is on (publicmenu.go).
		r.With(s.requireAppKey, s.limit("browse"), s.requireMenuReader).Get("/sections", s.handleSections)
		r.With(s.requireAppKey, s.limit("browse"), s.requireMenuReader).Get("/drinks", s.handleDrinks)
		r.With(s.requireAppKey, s.limit("browse"), s.requireMenuReader).Get("/drinks/{id}", s.handleDrink)
		r.With(s.limit("browse")).Get("/app-key", s.handleAppKey)
		r.Post("/board/login", s.handleBoardLogin)
		// The public registration page (docs/REGISTRATION.md): a proof of
		// work and a per-address limit in front of every new registration.
		r.With(s.limit("browse")).Get("/register/challenge", s.handleRegisterChallenge)
		r.With(s.limit("register"), s.recordAudit).Post("/register", s.handleRegister)
		r.With(s.limit("browse")).Get("/register/{token}", s.handleRegistrationStatus)
		r.With(s.limit("browse"), s.recordAudit).Post("/register/{token}/accept", s.handleRegistrationAccept)
		r.With(s.limit("browse"), s.recordAudit).Post("/register/{token}/confirm", s.handleRegistrationConfirm)
		r.With(s.limit("browse"), s.recordAudit).Post("/register/{token}/cancel", s.handleRegistrationCancel)

		// The pick-up board: its own token, or the bar's and the host's.
		r.Group(func(r chi.Router) {
			r.Use(boardRoute, s.authenticate, s.requireRole(guest.RoleBoard, guest.RoleBartender, guest.RoleAdmin))
			r.Get("/board", s.handleBoard)
			r.Post("/board/ws/ticket", s.handleWSTicket)
		})

		// Signed in, any role: everyone at the party is a guest too.
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate, s.recordAccess)
			r.Post("/ws/ticket", s.handleWSTicket)
			r.With(s.recordAudit).Post("/auth/signout-everywhere", s.handleSignOutEverywhere)
			r.Get("/me", s.handleMe)
			r.Get("/me/events", s.handleMyEvents)
			r.Post("/auth/switch", s.handleSwitchEvent)
			r.Get("/rsvp", s.handleGetRSVP)
			r.Get("/event.ics", s.handleEventICS)
			r.With(s.recordAudit).Put("/rsvp", s.handlePutRSVP)
			// Reading costs a few milliseconds of CPU: the guest's own budget
			// (docs/SECURITY.md, "Limits per client") keeps one phone from
			// spending the party's CPU on it.
			r.With(s.limit("dietary")).Post("/dietary/read", s.handleReadDietary)
			r.With(s.requireAppKey, s.limit("orders")).Post("/orders", s.handlePlaceOrder)
			r.With(s.requireAppKey, s.limit("orders")).Get("/orders", s.handleMyOrders)
			r.With(s.requireAppKey, s.limit("orders")).Get("/orders/{id}", s.handleGetOrder)
			r.With(s.requireAppKey, s.limit("orders")).Patch("/orders/{id}", s.handleEditOrder)
			r.With(s.requireAppKey, s.limit("orders")).Post("/orders/{id}/cancel", s.handleCancelOrder)
			r.Post("/recommendations", s.handleRequestRecommendation)
			r.Get("/recommendations/{id}", s.handleGetRecommendation)
			r.Get("/push/key", s.handlePushKey)
			r.Post("/push/subscriptions", s.handlePushSubscribe)
			r.Delete("/push/subscriptions/{id}", s.handlePushUnsubscribe)
		})

		// Behind the bar.
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate, s.recordAccess, s.requireRole(guest.RoleBartender, guest.RoleAdmin))
			r.With(s.limit("orders")).Get("/bar/queue", s.handleBarQueue)
			r.With(s.limit("orders")).Post("/bar/orders/{id}/{action}", s.handleBarTransition)
			r.With(s.limit("orders")).Get("/bar/stock", s.handleListStock)
			r.Get("/bar/drinks/{id}/recipe", s.handleBarRecipe)
			r.With(s.recordAudit, s.limit("orders")).Put("/bar/stock/{ingredient}", s.handleSetStock)
			r.With(s.recordAudit, s.limit("orders")).Put("/bar/drinks/{id}/stock", s.handleSetDrinkStock)
			r.Get("/bar/boards", s.handleListBoards)
			r.With(s.recordAudit).Post("/bar/boards", s.handleCreateBoard)
			r.With(s.recordAudit).Delete("/bar/boards/{id}", s.handleRevokeBoard)
		})

		// The door: staff sign in with a bartender or admin code.
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate, s.recordAccess, s.requireRole(guest.RoleBartender, guest.RoleAdmin))
			r.With(s.recordAudit).Post("/door/checkin", s.handleCheckIn)
			r.With(s.recordAudit).Post("/door/checkin/{id}/undo", s.handleUndoCheckIn)
			r.With(s.recordAudit).Post("/door/walkins", s.handleWalkIn)
			r.Get("/door/lookup", s.handleDoorLookup)
			r.Get("/door/stats", s.handleDoorStats)
		})

		// The host; what every event shares is a host of every event's
		// (requireHostOfEvery).
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate, s.recordAccess, s.requireRole(guest.RoleAdmin), s.recordAudit)
			r.Get("/admin/stats", s.handleStats)
			r.Get("/admin/guests", s.handleListGuests)
			r.Post("/admin/guests", s.handleCreateGuest)
			r.Get("/admin/guests.csv", s.handleExportGuests)
			r.Post("/admin/guests/import", s.handleImportGuests)
			r.Get("/admin/guests/{id}", s.handleGetGuest)
			r.Put("/admin/guests/{id}", s.handleUpdateGuest)
			r.Delete("/admin/guests/{id}", s.handleDeleteGuest)
			r.Post("/admin/guests/{id}/code", s.handleRegenerateCode)
			r.Put("/admin/guests/{id}/dietary", s.handleReviewDietary)
			r.Post("/admin/guests/{id}/signout", s.handleSignOutGuest)
			r.Get("/admin/groups", s.handleGroups)
			r.Get("/admin/events", s.handleListEvents)
			r.With(s.requireHostOfEvery).Post("/admin/events", s.handleCreateEvent)
			r.With(s.requireHostOfEvery).Put("/admin/events/{id}/archived", s.handleArchiveEvent)
			r.With(s.requireHostOfEvery).Delete("/admin/events/{id}", s.handleDeleteEvent)
			r.Get("/admin/settings", s.handleGetSettings)
			r.Put("/admin/settings", s.handlePutSettings)
			r.Get("/admin/registrations", s.handleAdminRegistrations)
			r.Post("/admin/registrations/{id}/approve", s.handleApproveRegistration)
			r.Delete("/admin/registrations/{id}", s.handleRemoveRegistration)
			r.Get("/admin/reports/dietary", s.handleDietaryReport)
			r.Get("/admin/reports/shopping", s.handleShoppingPlan)
			r.Get("/admin/reports/shopping.csv", s.handleShoppingCSV)
			r.Delete("/admin/reports/shopping/learnt", s.handleForgetLearnt)
			r.Get("/admin/invitations", s.handleInvitations)
			r.Post("/admin/invitations/send", s.handleSendInvitations)
			r.Get("/admin/mail", s.handleMailStatus)
			r.Get("/admin/notifications", s.handleGetHostPrefs)
			r.Put("/admin/notifications", s.handlePutHostPrefs)
			r.Get("/admin/reminders", s.handleListReminders)
			r.Post("/admin/reminders", s.handleCreateReminder)
			r.Delete("/admin/reminders/{id}", s.handleDeleteReminder)
			r.Get("/admin/public-url", s.handleGetPublicURL)
			r.With(s.requireHostOfEvery).Put("/admin/public-url", s.handlePutPublicURL)
			r.Get("/admin/poster", s.handlePoster)
			r.Post("/admin/drinks", s.handleCreateDrink)
			r.Put("/admin/drinks/{id}", s.handleUpdateDrink)
			r.Delete("/admin/drinks/{id}", s.handleDeleteDrink)
			r.Post("/admin/drinks/{id}/image-upload", s.handleImageUpload)
			r.Post("/admin/drinks/{id}/image/regenerate", s.handleRegenerateImage)
			r.Delete("/admin/drinks/{id}/image", s.handleRemoveImage)
			r.Get("/admin/app-key", s.handleGetAppKeyAdmin)
			r.With(s.requireHostOfEvery).Put("/admin/app-key", s.handleSetAppKey)
			r.Get("/admin/orders", s.handleAdminOrders)
			r.Get("/admin/orders.csv", s.handleOrdersCSV)
			r.Get("/admin/orders/report", s.handleNightReport)
			r.Get("/admin/orders/report.csv", s.handleNightReportCSV)
			r.Post("/admin/orders/report/learn", s.handleLearnFromNight)
			r.Get("/admin/jobs", s.handleListJobs)
			r.Post("/admin/jobs/{id}/retry", s.handleRetryJob)
			r.Post("/admin/drinks/{id}/image-prompt", s.handleRegenerateImagePrompt)
			r.Post("/admin/announcements", s.handleAnnounce)
			r.Get("/admin/presence", s.handlePresence)
			r.Get("/admin/audit", s.handleListAudit)
			r.Get("/admin/answers", s.handleLatestAnswers)
		})
	})

	// Everything else is the browser apps.
	r.Handle("/*", s.web)
	return r
}
