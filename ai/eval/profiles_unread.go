package eval

import "github.com/barhub/barhub/ai"

// UnreadProfiles are guests whose needs are written in a language barhub
// does not read at all (Hungarian, Vietnamese, Swahili, Icelandic, Thai,
// Georgian), alone or beside words it does read. Until the guest or the
// host answers those words, nothing with one of the fourteen allergens or
// alcohol may be shown to them (diet.Caution): every alcoholic drink, and
// of the alcohol-free ones the Virgin Mary (fish, celery, gluten).
func UnreadProfiles(menu []ai.Drink) []Profile {
	cautious := join(alcoholic(menu), []string{"virgin-mary"})
	text := func(s string) ai.Guest { return ai.Guest{DietaryText: s} }
	likes := func(w ...string) ai.Preferences { return ai.Preferences{Likes: w} }
	// The drinks left: alcohol-free and free of the fourteen.
	sweetLeft := []string{"virgin-mojito", "shirley-temple", "roy-rogers", "virgin-pina-colada"}
	return []Profile{
		{Name: "unread hu: diófélékre allergiás vagyok", Guest: text("diófélékre allergiás vagyok"), Never: cautious, Unread: true},
		{Name: "unread vi: dị ứng đậu phộng, likes sweet", Guest: text("dị ứng đậu phộng"), Prefs: likes("sweet"), Never: cautious, Honour: sweetLeft, Unread: true},
		{Name: "unread sw: sinywi pombe, likes strong", Guest: text("sinywi pombe"), Prefs: likes("strong"), Never: cautious, Closest: true, Unread: true},
		{Name: "unread is: ég er með hnetuofnæmi, in Swedish", Guest: text("ég er með hnetuofnæmi"), Prefs: ai.Preferences{Language: "sv"}, Never: cautious, Unread: true},
		{Name: "unread th: แพ้ถั่ว, in Portuguese", Guest: text("แพ้ถั่ว"), Prefs: ai.Preferences{Language: "pt-BR", Mood: "surprise me"}, Never: cautious, Unread: true},
		{Name: "unread ka: ნიგოზზე ალერგია", Guest: text("ნიგოზზე ალერგია"), Never: cautious, Unread: true},
		{Name: "unread beside read: nötallergi, diófélékre allergiás vagyok", Guest: text("nötallergi, diófélékre allergiás vagyok"), Never: join(cautious, nutDrinks), Unread: true},
		{Name: "unread for a +1 who asked for sour", Guest: ai.Guest{Name: "Ada's +1", DietaryText: "sinywi pombe kabisa"}, Prefs: likes("sour"), Never: cautious, Closest: true, Unread: true},
		// Answered: the guest chose "no alcohol" for the words; the
		// caution is lifted and the answer holds.
		{Name: "unread answered: sinywi pombe → alcohol-free", Guest: ai.Guest{DietaryText: "sinywi pombe", DietaryTags: []string{"alcohol-free"}, DietaryAnswered: []string{"sinywi pombe"}}, Prefs: likes("sweet"), Never: alcoholic(menu), Honour: sweetLeft},
		// Reviewed by the host, who found nothing to avoid: the whole menu.
		{Name: "unread reviewed: nothing to avoid, likes gin", Guest: ai.Guest{DietaryText: "ég er með hnetuofnæmi", DietaryTags: []string{"nuts"}, DietaryReviewed: true}, Prefs: likes("gin"), Never: nutDrinks, Honour: ginDrinks},
	}
}
