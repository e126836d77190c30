package eval

import (
	"slices"

	"github.com/barhub/barhub/ai"
)

// The starter menu's drinks by what guests avoid or ask for, labelled by
// hand from its recipes.
var (
	nutDrinks     = []string{"amaretto-sour", "mai-tai"}
	eggDrinks     = []string{"whiskey-sour", "pisco-sour", "amaretto-sour"}
	milkDrinks    = []string{"white-russian"}
	marys         = []string{"bloody-mary", "virgin-mary"} // fish (Worcestershire), celery, gluten
	whiskyDrinks  = []string{"old-fashioned", "manhattan", "boulevardier", "whiskey-sour", "amaretto-sour", "paper-plane"}
	ginDrinks     = []string{"negroni", "dry-martini", "last-word", "gin-tonic", "french-75", "tom-collins"}
	tequilaDrinks = []string{"margarita", "paloma"}
	rumDrinks     = []string{"daiquiri", "caipirinha", "mai-tai", "mojito", "dark-n-stormy", "pina-colada"}
	brandyDrinks  = []string{"sidecar", "pisco-sour"}
	vodkaDrinks   = []string{"espresso-martini", "white-russian", "cosmopolitan", "moscow-mule", "bloody-mary"}
	coffeeDrinks  = []string{"espresso-martini", "white-russian", "espresso-tonic"}
	sweetDrinks   = []string{"old-fashioned", "manhattan", "espresso-martini", "white-russian", "whiskey-sour", "amaretto-sour", "mojito", "pina-colada", "virgin-mojito", "shirley-temple", "roy-rogers", "virgin-pina-colada"}
	sourDrinks    = []string{"last-word", "margarita", "daiquiri", "whiskey-sour", "pisco-sour", "amaretto-sour", "cosmopolitan", "sidecar", "caipirinha", "mai-tai", "paper-plane", "paloma", "french-75", "tom-collins"}
	creamyDrinks  = []string{"white-russian", "pina-colada", "virgin-pina-colada"}
	sparkling     = []string{"aperol-spritz", "french-75", "kir-royale", "shirley-temple", "roy-rogers", "elderflower-spritz", "espresso-tonic"}
	freeDrinks    = []string{"virgin-mojito", "virgin-mary", "shirley-temple", "roy-rogers", "cinderella", "virgin-pina-colada", "elderflower-spritz", "espresso-tonic"}
)

// alcoholic is every drink of menu that is not alcohol-free.
func alcoholic(menu []ai.Drink) []string {
	var out []string
	for _, d := range menu {
		if !d.AlcoholFree {
			out = append(out, d.ID)
		}
	}
	return out
}

// tagged is every drink of menu with one of tags.
func tagged(menu []ai.Drink, tags ...string) []string {
	var out []string
	for _, d := range menu {
		if slices.ContainsFunc(d.Tags, func(t string) bool { return slices.Contains(tags, t) }) {
			out = append(out, d.ID)
		}
	}
	return out
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, id := range l {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

func without(list []string, drop ...[]string) []string {
	all := join(drop...)
	return slices.DeleteFunc(slices.Clone(list), func(id string) bool { return slices.Contains(all, id) })
}

// Profiles returns the evaluation profiles for menu (the starter menu).
func Profiles(menu []ai.Drink) []Profile {
	booze := alcoholic(menu)
	sweetTagged := tagged(menu, "sweet")
	text := func(s string) ai.Guest { return ai.Guest{DietaryText: s} }
	likes := func(w ...string) ai.Preferences { return ai.Preferences{Likes: w} }
	return append([]Profile{
		// Allergies in English.
		{Name: "en: nut allergy, likes sour", Guest: text("Allergic to nuts"), Prefs: likes("sour"), Never: nutDrinks, Honour: without(sourDrinks, nutDrinks)},
		{Name: "en: no eggwhite please", Guest: text("no eggwhite please"), Never: eggDrinks},
		{Name: "en: allergic to anchovies", Guest: text("allergic to anchovies"), Prefs: likes("spicy"), Never: marys, Honour: []string{"moscow-mule", "dark-n-stormy"}},
		{Name: "en: lactose intolerant, likes creamy", Guest: text("lactose intolerant"), Prefs: likes("creamy"), Never: milkDrinks, Honour: without(creamyDrinks, milkDrinks)},
		{Name: "en: coeliac", Guest: text("coeliac"), Never: marys},
		{Name: "en: dairy-free tag", Guest: ai.Guest{DietaryTags: []string{"dairy-free"}}, Never: milkDrinks},
		// Swedish.
		{Name: "sv: nötallergi, likes nutty", Guest: text("nötallergi"), Prefs: likes("nutty"), Never: nutDrinks, Closest: true},
		{Name: "sv: laktosintolerant", Guest: text("laktosintolerant"), Prefs: likes("creamy"), Never: milkDrinks, Honour: without(creamyDrinks, milkDrinks)},
		{Name: "sv: allergisk mot ägg", Guest: text("allergisk mot ägg"), Prefs: likes("sour"), Never: eggDrinks, Honour: without(sourDrinks, eggDrinks)},
		{Name: "sv: gravid", Guest: text("gravid"), Never: booze},
		// Portuguese.
		{Name: "pt: alergia a nozes", Guest: text("alergia a nozes"), Never: nutDrinks},
		{Name: "pt: alergia a ovo", Guest: text("alergia a ovo"), Never: eggDrinks},
		{Name: "pt: grávida", Guest: text("estou grávida"), Prefs: likes("sweet"), Never: booze, Honour: []string{"virgin-mojito", "shirley-temple", "roy-rogers", "virgin-pina-colada"}},
		// German.
		{Name: "de: Nussallergie", Guest: text("Nussallergie"), Prefs: likes("fruity"), Never: nutDrinks, Honour: []string{"cosmopolitan", "pina-colada", "kir-royale", "cinderella", "virgin-pina-colada"}},
		{Name: "de: Laktoseintoleranz", Guest: text("Laktoseintoleranz"), Never: milkDrinks},
		{Name: "de: schwanger", Guest: text("Ich bin schwanger"), Never: booze},
		// French.
		{Name: "fr: allergie aux noix", Guest: text("allergie aux noix"), Never: nutDrinks},
		{Name: "fr: allergique aux oeufs", Guest: text("allergique aux oeufs"), Never: eggDrinks},
		{Name: "fr: enceinte", Guest: text("enceinte"), Never: booze},
		// Spanish, with typos.
		{Name: "es: alergia a las nueces", Guest: text("alergia a las nueces"), Never: nutDrinks},
		{Name: "es: alerjia al huevo (typo)", Guest: text("alerjia al huevo"), Never: eggDrinks},
		{Name: "es: embarazada", Guest: text("embarazada"), Never: booze},
		{Name: "es: intolerante a la lactoza (typo)", Guest: text("intolerante a la lactoza"), Never: milkDrinks},
		// A family: each member's own needs, as the one answering filled them in.
		{Name: "family: the son, nut allergy", Guest: ai.Guest{Name: "Leo", DietaryText: "nut allergy", AlcoholFree: true}, Prefs: likes("fruity"), Never: join(nutDrinks, booze), Honour: []string{"cinderella", "virgin-pina-colada"}},
		{Name: "family: the +1, vegan", Guest: ai.Guest{DietaryTags: []string{"vegan"}}, Never: join(eggDrinks, milkDrinks, marys)},
		{Name: "family: the daughter, no alcohol, likes sweet", Guest: ai.Guest{DietaryTags: []string{"alcohol-free"}}, Prefs: likes("sweet"), Never: booze, Honour: []string{"virgin-mojito", "shirley-temple", "roy-rogers", "virgin-pina-colada"}},
		// Not drinking.
		{Name: "designated driver", Guest: text("I'm the designated driver tonight"), Never: booze},
		{Name: "driving home", Guest: text("driving home later"), Never: booze},
		{Name: "pregnant, likes strong", Guest: ai.Guest{DietaryTags: []string{"pregnant"}}, Prefs: likes("strong"), Never: booze, Closest: true},
		{Name: "not drinking tonight, asked alcohol-free", Prefs: ai.Preferences{AlcoholFree: true, Likes: []string{"bitter"}}, Never: booze, Honour: []string{"espresso-tonic"}},
		// Spirit dislikes.
		{Name: "dislikes whisky", Prefs: ai.Preferences{Dislikes: []string{"whisky"}, Likes: []string{"strong"}}, Never: whiskyDrinks},
		{Name: "dislikes whiskey, likes sour", Guest: ai.Guest{Dislikes: []string{"whiskey"}}, Prefs: likes("sour"), Never: whiskyDrinks, Honour: without(sourDrinks, whiskyDrinks)},
		{Name: "dislikes gin", Prefs: ai.Preferences{Dislikes: []string{"gin"}, Likes: []string{"spicy"}}, Never: ginDrinks, Honour: []string{"moscow-mule", "dark-n-stormy", "bloody-mary", "virgin-mary"}},
		{Name: "dislikes tequila", Prefs: ai.Preferences{Dislikes: []string{"tequila"}, Likes: []string{"fresh"}}, Never: tequilaDrinks},
		{Name: "dislikes rum", Prefs: ai.Preferences{Dislikes: []string{"rum"}}, Never: rumDrinks},
		{Name: "dislikes brandy", Prefs: ai.Preferences{Dislikes: []string{"brandy"}, Likes: []string{"sour"}}, Never: brandyDrinks, Honour: without(sourDrinks, brandyDrinks)},
		{Name: "dislikes coffee and sweet", Prefs: ai.Preferences{Dislikes: []string{"coffee", "sweet"}}, Never: join(coffeeDrinks, sweetDrinks)},
		{Name: "dislikes vodka", Guest: ai.Guest{Dislikes: []string{"vodka"}}, Never: vodkaDrinks},
		// Lovers of one spirit.
		{Name: "loves whisky", Prefs: likes("whisky"), Honour: whiskyDrinks},
		{Name: "loves gin", Prefs: likes("gin"), Honour: ginDrinks},
		{Name: "loves tequila", Prefs: likes("tequila"), Honour: tequilaDrinks},
		{Name: "loves rum, nut allergy", Guest: text("allergic to almonds"), Prefs: likes("rum"), Never: nutDrinks, Honour: without(rumDrinks, nutDrinks)},
		{Name: "loves mezcal (the tequila family)", Prefs: likes("mezcal"), Honour: tequilaDrinks},
		// Moods.
		{Name: "surprise me", Prefs: ai.Preferences{Mood: "surprise me!"}, Spread: true},
		{Name: "surprise me, alcohol-free", Prefs: ai.Preferences{Mood: "surprise me", AlcoholFree: true}, Never: booze},
		{Name: "celebrating", Prefs: ai.Preferences{Mood: "celebrating my birthday"}, Honour: join(sparkling, []string{"cosmopolitan", "mai-tai", "pina-colada", "kir-royale", "cinderella", "virgin-pina-colada"}, sweetDrinks)},
		{Name: "after three drinks in the hour", Prefs: likes("bitter"), Recent: 3, PaceFirst: true},
		// Asked in Swedish and Portuguese: the guest's own words, tastes
		// turned down included.
		{Name: "sv: något friskt och surt, inget sött", Prefs: ai.Preferences{Mood: "något friskt och surt, inget sött", Language: "sv"}, Never: sweetTagged, Honour: without(tagged(menu, "sour", "fresh"), sweetTagged)},
		{Name: "pt: algo refrescante e azedo, nada doce", Prefs: ai.Preferences{Mood: "algo refrescante e azedo, nada doce", Language: "pt-BR"}, Never: sweetTagged, Honour: without(tagged(menu, "sour", "fresh"), sweetTagged)},
		{Name: "sv: vi firar!", Prefs: ai.Preferences{Mood: "vi firar!", Language: "sv"}, Honour: join(sparkling, []string{"cosmopolitan", "mai-tai", "pina-colada", "kir-royale", "cinderella", "virgin-pina-colada"}, sweetDrinks)},
		{Name: "sv: ogillar beskt, gillar starkt", Prefs: ai.Preferences{Likes: []string{"starkt"}, Dislikes: []string{"beskt"}, Language: "sv"}, Never: tagged(menu, "bitter")},
		{Name: "pt: me surpreenda", Prefs: ai.Preferences{Mood: "me surpreenda", Language: "pt-BR"}, Spread: true},
		// Nothing fits.
		{Name: "nothing fits: designated driver who dislikes every alcohol-free taste", Guest: text("designated driver"),
			Prefs: ai.Preferences{Dislikes: []string{"sweet", "fresh", "spicy", "sparkling", "fruity"}}, Never: booze, None: true},
		{Name: "nothing fits: pregnant with a nut allergy, no sweet, fresh, spicy or bitter", Guest: text("pregnant, allergic to nuts"),
			Prefs: ai.Preferences{Dislikes: []string{"sweet", "fresh", "spicy", "bitter"}}, Never: booze, None: true},
		{Name: "nothing fits the taste: likes smoky", Prefs: likes("smoky"), Closest: true},
	}, languageProfiles(menu)...)
}
