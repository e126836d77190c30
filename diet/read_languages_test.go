package diet

import (
	"slices"
	"testing"
)

// languageClasses are what every language Read reads must cover: each of
// the fourteen allergens, each diet, no alcohol and each reason for it.
func languageClasses() []string { return Tags() }

// byLanguage is, per language, one need of each class as a person writes
// it. A class missing from a language fails the test.
var byLanguage = map[string]map[string]string{
	"en": {
		Gluten: "gluten-free", Crustaceans: "allergic to shrimp", Eggs: "no eggs please", Fish: "fish allergy",
		Peanuts: "peanut allergy", Soy: "soy allergy", Milk: "lactose intolerant", Nuts: "nut allergy",
		Celery: "allergic to celery", Mustard: "no mustard", Sesame: "sesame allergy", Sulphites: "sulphites",
		Lupin: "lupin allergy", Molluscs: "allergic to mussels", Vegan: "I'm vegan", Vegetarian: "vegetarian",
		Halal: "halal only", Kosher: "kosher please", AlcoholFree: "no alcohol", Pregnant: "I'm pregnant",
		Breastfeeding: "I'm breastfeeding", Medicine: "I'm on antibiotics", Driving: "I'm driving tonight",
	},
	"sv": {
		Gluten: "glutenfri", Crustaceans: "allergisk mot räkor", Eggs: "äggallergi", Fish: "fiskallergi",
		Peanuts: "jordnötsallergi", Soy: "sojaallergi", Milk: "laktosintolerant", Nuts: "nötallergi",
		Celery: "selleriallergi", Mustard: "senapsallergi", Sesame: "sesamallergi", Sulphites: "allergisk mot sulfiter",
		Lupin: "lupinallergi", Molluscs: "allergisk mot musslor", Vegan: "jag är vegan", Vegetarian: "vegetarian",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "ingen alkohol", Pregnant: "jag är gravid",
		Breastfeeding: "jag ammar", Medicine: "jag äter antibiotika", Driving: "jag kör ikväll",
	},
	"de": {
		Gluten: "glutenfrei", Crustaceans: "Allergie gegen Garnelen", Eggs: "keine Eier", Fish: "Fischallergie",
		Peanuts: "Erdnussallergie", Soy: "Sojaallergie", Milk: "laktoseintolerant", Nuts: "Nussallergie",
		Celery: "Sellerieallergie", Mustard: "kein Senf", Sesame: "Sesamallergie", Sulphites: "Sulfite",
		Lupin: "Lupinenallergie", Molluscs: "allergisch gegen Muscheln", Vegan: "ich bin Veganer", Vegetarian: "vegetarisch",
		Halal: "halal", Kosher: "koscher", AlcoholFree: "kein Alkohol", Pregnant: "ich bin schwanger",
		Breastfeeding: "ich stille", Medicine: "ich nehme Antibiotika", Driving: "ich fahre heute",
	},
	"fr": {
		Gluten: "sans gluten", Crustaceans: "allergie aux crevettes", Eggs: "pas d'œufs", Fish: "allergie au poisson",
		Peanuts: "allergique aux arachides", Soy: "allergie au soja", Milk: "intolérant au lactose", Nuts: "allergie aux noix",
		Celery: "allergie au céleri", Mustard: "pas de moutarde", Sesame: "allergie au sésame", Sulphites: "sulfites",
		Lupin: "allergie au lupin", Molluscs: "allergie aux moules", Vegan: "je suis végane", Vegetarian: "végétarien",
		Halal: "halal", Kosher: "casher", AlcoholFree: "pas d'alcool", Pregnant: "je suis enceinte",
		Breastfeeding: "j'allaite", Medicine: "je prends des antibiotiques", Driving: "je conduis ce soir",
	},
	"es": {
		Gluten: "sin gluten", Crustaceans: "alergia a las gambas", Eggs: "sin huevo", Fish: "alergia al pescado",
		Peanuts: "alérgico al cacahuete", Soy: "alergia a la soja", Milk: "intolerante a la lactosa", Nuts: "alergia a los frutos secos",
		Celery: "alergia al apio", Mustard: "sin mostaza", Sesame: "alergia al sésamo", Sulphites: "sulfitos",
		Lupin: "alergia a los altramuces", Molluscs: "alergia a los mejillones", Vegan: "soy vegano", Vegetarian: "vegetariana",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "sin alcohol", Pregnant: "estoy embarazada",
		Breastfeeding: "estoy amamantando", Medicine: "tomo antibióticos", Driving: "conduzco esta noche",
	},
	"pt": {
		Gluten: "sem glúten", Crustaceans: "alergia a camarão", Eggs: "sem ovo", Fish: "alergia a peixe",
		Peanuts: "alergia a amendoim", Soy: "alergia a soja", Milk: "intolerância à lactose", Nuts: "alergia a nozes",
		Celery: "alergia a aipo", Mustard: "sem mostarda", Sesame: "alergia a gergelim", Sulphites: "sulfitos",
		Lupin: "alergia a tremoço", Molluscs: "alergia a mexilhão", Vegan: "sou vegano", Vegetarian: "vegetariana",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "sem álcool", Pregnant: "estou grávida",
		Breastfeeding: "estou amamentando", Medicine: "estou tomando antibiótico", Driving: "vou dirigir hoje",
	},
	"da": {
		Gluten: "glutenfri", Crustaceans: "allergisk over for rejer", Eggs: "ingen æg", Fish: "fiskeallergi",
		Peanuts: "allergisk over for jordnødder", Soy: "sojaallergi", Milk: "laktoseintolerant", Nuts: "nøddeallergi",
		Celery: "selleriallergi", Mustard: "ingen sennep", Sesame: "sesamallergi", Sulphites: "sulfitter",
		Lupin: "lupinallergi", Molluscs: "allergisk over for muslinger", Vegan: "jeg er veganer", Vegetarian: "vegetar",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "ingen alkohol", Pregnant: "jeg er gravid",
		Breastfeeding: "jeg ammer", Medicine: "jeg tager antabus", Driving: "jeg kører i aften",
	},
	"no": {
		Gluten: "glutenfri", Crustaceans: "allergisk mot reker", Eggs: "ingen egg", Fish: "fiskeallergi",
		Peanuts: "allergisk mot peanøtter", Soy: "soyaallergi", Milk: "laktoseintolerant", Nuts: "nøtteallergi",
		Celery: "selleriallergi", Mustard: "ingen sennep", Sesame: "sesamallergi", Sulphites: "sulfitter",
		Lupin: "lupinallergi", Molluscs: "allergisk mot blåskjell", Vegan: "jeg er veganer", Vegetarian: "vegetarianer",
		Halal: "halal", Kosher: "kosjer", AlcoholFree: "ingen alkohol", Pregnant: "jeg er gravid",
		Breastfeeding: "jeg ammer", Medicine: "jeg bruker antabus", Driving: "jeg kjører i kveld",
	},
	"fi": {
		Gluten: "gluteeniton", Crustaceans: "allerginen katkaravuille", Eggs: "ei kananmunaa", Fish: "kala-allergia",
		Peanuts: "maapähkinäallergia", Soy: "soija-allergia", Milk: "laktoosi-intoleranssi", Nuts: "pähkinäallergia",
		Celery: "selleriallergia", Mustard: "ei sinappia", Sesame: "seesamiallergia", Sulphites: "sulfiitit",
		Lupin: "lupiiniallergia", Molluscs: "allerginen simpukoille", Vegan: "olen vegaani", Vegetarian: "kasvissyöjä",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "ei alkoholia", Pregnant: "olen raskaana",
		Breastfeeding: "imetän", Medicine: "käytän antabusta", Driving: "ajan autoa tänään",
	},
	"it": {
		Gluten: "senza glutine", Crustaceans: "allergia ai gamberi", Eggs: "niente uova", Fish: "allergia al pesce",
		Peanuts: "allergia alle arachidi", Soy: "allergia alla soia", Milk: "intollerante al lattosio", Nuts: "allergia alla frutta secca",
		Celery: "allergia al sedano", Mustard: "senza senape", Sesame: "allergia al sesamo", Sulphites: "solfiti",
		Lupin: "allergia ai lupini", Molluscs: "allergia alle cozze", Vegan: "sono vegana", Vegetarian: "vegetariano",
		Halal: "halal", Kosher: "kosher", AlcoholFree: "niente alcol", Pregnant: "sono incinta",
		Breastfeeding: "sto allattando", Medicine: "prendo il metronidazolo", Driving: "guido stasera",
	},
	"nl": {
		Gluten: "glutenvrij", Crustaceans: "allergisch voor garnalen", Eggs: "geen eieren", Fish: "visallergie",
		Peanuts: "pinda-allergie", Soy: "soja-allergie", Milk: "lactose-intolerant", Nuts: "notenallergie",
		Celery: "allergisch voor selderij", Mustard: "geen mosterd", Sesame: "sesamallergie", Sulphites: "sulfieten",
		Lupin: "allergisch voor lupine", Molluscs: "allergisch voor mosselen", Vegan: "ik ben veganist", Vegetarian: "vegetariër",
		Halal: "halal", Kosher: "koosjer", AlcoholFree: "geen alcohol", Pregnant: "ik ben zwanger",
		Breastfeeding: "ik geef borstvoeding", Medicine: "ik gebruik antabus", Driving: "ik rijd vanavond",
	},
}

// want is the tags a need of class c reads as: the class, and
// "alcohol-free" beside a reason for it.
func want(c ...string) []string {
	out := withImplied(slices.Clone(c))
	slices.SortFunc(out, tagOrder)
	return out
}

// TestReadLanguages reads one need of every class in every language: the
// class and nothing else, every word understood.
func TestReadLanguages(t *testing.T) {
	for lang, needs := range byLanguage {
		for _, class := range languageClasses() {
			text, ok := needs[class]
			if !ok {
				t.Errorf("%s: no need of class %s in the table", lang, class)
				continue
			}
			if got := Read(text); !slices.Equal(got.Tags, want(class)) || len(got.Unclear) > 0 {
				t.Errorf("%s %s: Read(%q) = %+v, want tags %q", lang, class, text, got, want(class))
			}
		}
	}
}

// TestReadSpellings reads needs as phones and hurried people write them:
// a typo, no diacritics, another phrasing; and the rows of the issue
// ("ei alkoholia" had been read as eggs).
func TestReadSpellings(t *testing.T) {
	tests := []struct {
		lang, text string
		tags       []string
	}{
		// The rows.
		{"fi", "ei alkoholia", want(AlcoholFree)},
		{"fi", "pähkinäallergia", want(Nuts)},
		{"fi", "laktoosi-intoleranssi", want(Milk)},
		{"fi", "gluteeniton", want(Gluten)},
		{"it", "allergia alle noci", want(Nuts)},
		{"it", "intollerante al lattosio", want(Milk)},
		{"it", "senza glutine", want(Gluten)},
		{"da", "nøddeallergi", want(Nuts)},
		{"da", "laktoseintolerant", want(Milk)},
		{"da", "glutenallergi", want(Gluten)},
		{"fi", "olen raskaana", want(Pregnant)},
		{"da", "jeg tager Antabus", want(Medicine)},
		{"no", "jeg kjører bil", want(Driving)},
		{"it", "sono incinta", want(Pregnant)},
		{"it", "prendo il Flagyl", want(Medicine)},
		{"it", "guido io stasera", want(Driving)},
		{"en", "on disulfiram", want(Medicine)},
		{"en", "taking metronidazole", want(Medicine)},
		{"en", "tinidazole", want(Medicine)},
		{"en", "I'm on antibiotics, no alcohol", want(Medicine)},
		{"sv", "jag tar antibiotika, ingen alkohol", want(Medicine)},
		{"en", "designated driver", want(Driving)},
		{"en", "not drinking tonight", want(AlcoholFree)},
		{"en", "sober tonight", want(AlcoholFree)},
		{"da", "jeg drikker ikke", want(AlcoholFree)},
		{"da", "ædru i aften", want(AlcoholFree)},
		{"no", "jeg drikker ikke i kveld", want(AlcoholFree)},
		{"no", "edru", want(AlcoholFree)},
		{"fi", "en juo tänään", want(AlcoholFree)},
		{"fi", "raitis", want(AlcoholFree)},
		{"it", "non bevo stasera", want(AlcoholFree)},
		{"it", "astemio", want(AlcoholFree)},
		{"nl", "ik drink niet vanavond", want(AlcoholFree)},
		{"nl", "ik ben de bob", want(Driving)},
		{"nl", "nuchter", want(AlcoholFree)},
		{"de", "ich trinke nicht", want(AlcoholFree)},
		{"fr", "je ne bois pas", want(AlcoholFree)},
		{"es", "no bebo", want(AlcoholFree)},
		{"pt", "não bebo", want(AlcoholFree)},
		{"sv", "jag är nykter", want(AlcoholFree)},
		{"da", "jeg skal køre hjem", want(Driving)},
		{"no", "sønnen min har peanøttallergi", want(Peanuts)},
		{"fi", "ajan autolla kotiin", want(Driving)},
		{"it", "devo guidare", want(Driving)},
		{"nl", "mijn zoon heeft een pinda-allergie", want(Peanuts)},
		{"nl", "ik moet rijden", want(Driving)},
		{"en", "staying sober", want(AlcoholFree)},
		{"en", "on Flagyl", want(Medicine)},
		{"en", "I'm nursing", want(Breastfeeding)},
		{"sv", "jag ska köra hem", want(Driving)},
		{"fi", "Ei laktoosia, ei gluteenia", want(Gluten, Milk)},
		{"it", "sono celiaco", want(Gluten)},
		// Without diacritics.
		{"da", "nodder", want(Nuts)},
		{"da", "noddeallergi", want(Nuts)},
		{"da", "ingen aeg", want(Eggs)},
		{"da", "maelkeallergi", want(Milk)},
		{"da", "aedru", want(AlcoholFree)},
		{"no", "notteallergi", want(Nuts)},
		{"no", "peanotter", want(Peanuts)},
		{"no", "sjafor", want(Driving)},
		{"fi", "pahkina", want(Nuts)},
		{"fi", "pahkinaallergia", want(Nuts)},
		{"fi", "maapahkinaallergia", want(Peanuts)},
		{"fi", "ei pahkinoita", want(Nuts)},
		{"fi", "kasvissyoja", want(Vegetarian)},
		{"fi", "imetan", want(Breastfeeding)},
		{"fi", "laakitys", want(Medicine)},
		{"it", "perche sono incinta", want(Pregnant)},
		{"nl", "vegetarier", want(Vegetarian)},
		{"pt", "sem gluten", want(Gluten)},
		{"pt", "gravida", want(Pregnant)},
		{"sv", "notallergi", want(Nuts)},
		// A typo.
		{"da", "nøder", want(Nuts)},
		{"da", "laktosefri", want(Milk)},
		{"no", "nøttealergi", want(Nuts)},
		{"fi", "pähkinäalergia", want(Nuts)},
		{"fi", "raskana", want(Pregnant)},
		{"fi", "gluteniton", want(Gluten)},
		{"it", "senza glutin", want(Gluten)},
		{"it", "incita", want(Pregnant)},
		{"it", "intollerante al latosio", want(Milk)},
		{"nl", "zwnager", want(Pregnant)},
		{"nl", "lactosevry", nil},
		{"nl", "notenalergie", want(Nuts)},
		{"en", "breastfeding", want(Breastfeeding)},
		{"en", "antibiotcs", want(Medicine)},
		{"en", "metronidazol", want(Medicine)},
		{"sv", "antibiotka", want(Medicine)},
		{"de", "schwnger", want(Pregnant)},
	}
	// The Dutch "de BOB" drives; a Bob does not.
	if got := Read("my husband Bob: nut allergy"); !slices.Equal(got.Tags, want(Nuts)) {
		t.Errorf("Read(my husband Bob: nut allergy) = %+v, want nuts alone", got)
	}
	for _, tt := range tests {
		got := Read(tt.text)
		if !slices.Equal(got.Tags, tt.tags) {
			t.Errorf("%s: Read(%q) = %+v, want tags %q", tt.lang, tt.text, got, tt.tags)
		}
		if tt.tags != nil && len(got.Unclear) > 0 {
			t.Errorf("%s: Read(%q) left %q unclear", tt.lang, tt.text, got.Unclear)
		}
	}
}

// TestReadNegations: "no X", "without X", "X-free" in every language
// read as X, never as another need; and a negation alone is no need.
func TestReadNegations(t *testing.T) {
	tests := []struct {
		lang, text string
		tags       []string
	}{
		{"en", "no nuts", want(Nuts)},
		{"en", "without milk", want(Milk)},
		{"en", "withot milk", want(Milk)},
		{"en", "nut-free", want(Nuts)},
		{"sv", "utan gluten", want(Gluten)},
		{"sv", "inga nötter", want(Nuts)},
		{"de", "ohne Nüsse", want(Nuts)},
		{"de", "kein Ei", want(Eggs)},
		{"de", "keine Eier und keine Milch", want(Eggs, Milk)},
		{"fr", "sans lait", want(Milk)},
		{"es", "sin huevo", want(Eggs)},
		{"pt", "sem glúten", want(Gluten)},
		{"pt", "sem lactose", want(Milk)},
		{"da", "uden nødder", want(Nuts)},
		{"da", "ikke noget alkohol", want(AlcoholFree)},
		{"da", "uden alkohol", want(AlcoholFree)},
		{"no", "uten nøtter", want(Nuts)},
		{"no", "uten gluten", want(Gluten)},
		{"fi", "ei alkoholia", want(AlcoholFree)},
		{"fi", "ei pähkinöitä", want(Nuts)},
		{"fi", "ei maitoa", want(Milk)},
		{"fi", "ei munaa", want(Eggs)},
		{"fi", "ilman gluteenia", want(Gluten)},
		{"fi", "ilman alkoholia", want(AlcoholFree)},
		{"fi", "alkoholiton", want(AlcoholFree)},
		{"fi", "maidoton", want(Milk)},
		{"it", "senza lattosio", want(Milk)},
		{"it", "senza alcol", want(AlcoholFree)},
		{"it", "niente noci", want(Nuts)},
		{"nl", "zonder noten", want(Nuts)},
		{"nl", "geen ei", want(Eggs)},
		{"nl", "zonder alcohol", want(AlcoholFree)},
		{"nl", "lactosevrij", want(Milk)},
		{"nl", "alcoholvrij", want(AlcoholFree)},
	}
	for _, tt := range tests {
		if got := Read(tt.text); !slices.Equal(got.Tags, tt.tags) || len(got.Unclear) > 0 {
			t.Errorf("%s: Read(%q) = %+v, want tags %q", tt.lang, tt.text, got, tt.tags)
		}
	}
	for w := range negations {
		if got := Read(w); len(got.Tags) > 0 {
			t.Errorf("the negation %q alone read as %q", w, got.Tags)
		}
	}
}

// TestNoAlcoholReasons: each reason keeps the drink with alcohol off the
// person's safe list as "alcohol-free" does, given as a tag alone too.
func TestNoAlcoholReasons(t *testing.T) {
	for _, tag := range append(NoAlcoholReasons(), AlcoholFree) {
		if v := Check(maiTai, Needs{Tags: []string{tag}}); v.Safe || !v.Alcohol {
			t.Errorf("%s: Mai Tai %+v, want unsafe for alcohol", tag, v)
		}
		if v := Check(virginMojo, Needs{Tags: []string{tag}}); !v.Safe {
			t.Errorf("%s: Virgin Mojito %+v, want safe", tag, v)
		}
		if n := Normalize(Needs{Tags: []string{tag}}); !n.Has(AlcoholFree) || !n.Has(tag) {
			t.Errorf("Normalize(%s) = %q, want it and alcohol-free", tag, n.Tags)
		}
	}
}
