package ai

import (
	"slices"
	"strings"
)

// The guest's own words arrive in the language their page shows: English,
// Swedish or Brazilian Portuguese. The drinks' tags are the host's words,
// in English for the starter menu, so a Swedish or Portuguese taste word
// is read as the English word it means before it is matched. Keys are
// folded (lower case, no accents: fold), so "fräscht" and "frascht" both
// count, as a phone's keyboard may give either.
var foreignTastes = map[string]string{
	// Swedish.
	"sur": "sour", "surt": "sour", "sura": "sour", "syrlig": "tart", "syrligt": "tart", "syrliga": "tart",
	"citrusig": "citrusy", "citrusigt": "citrusy", "citrusiga": "citrusy", "syrlighet": "tart",
	"sot": "sweet", "sott": "sweet", "sota": "sweet", "sotsak": "sweet", "sotaktig": "sweet", "sotaktigt": "sweet",
	"besk": "bitter", "beskt": "bitter", "beska": "bitter", "bittert": "bitter", "bittra": "bitter",
	"frisk": "fresh", "friskt": "fresh", "friska": "fresh", "frasch": "fresh", "frascht": "fresh", "frascha": "fresh",
	"uppfriskande": "refreshing", "svalkande": "cooling", "mintig": "minty", "mintigt": "minty",
	"stark": "strong", "starkt": "strong", "starka": "strong", "spritig": "boozy", "spritigt": "boozy",
	"fruktig": "fruity", "fruktigt": "fruity", "fruktiga": "fruity", "barig": "berry", "barigt": "berry", "tropisk": "tropical", "tropiskt": "tropical", "saftig": "juicy", "saftigt": "juicy",
	"kryddig": "spicy", "kryddigt": "spicy", "kryddiga": "spicy", "varmande": "warming",
	"bubblig": "sparkling", "bubbligt": "sparkling", "bubbliga": "sparkling", "bubbel": "bubbly", "kolsyrad": "fizzy", "kolsyrat": "fizzy", "mousserande": "sparkling",
	"kramig": "creamy", "kramigt": "creamy", "kramiga": "creamy", "graddig": "creamy", "graddigt": "creamy", "len": "smooth", "lent": "smooth", "fyllig": "rich", "fylligt": "rich",
	"ortig": "herbal", "ortigt": "herbal", "ortiga": "herbal", "orter": "herbal",
	"rokig": "smoky", "rokigt": "smoky", "rokiga": "smoky", "rokt": "smoked", "rokta": "smoked", "torvig": "peaty", "torvigt": "peaty",
	"blommig": "floral", "blommigt": "floral", "blommiga": "floral",
	"torr": "dry", "torrt": "dry", "torra": "dry",
	"latt": "light", "lattare": "light",
	// Brazilian Portuguese.
	"azedo": "sour", "azeda": "sour", "azedinho": "sour", "azedinha": "sour", "acido": "sour", "acida": "sour",
	"citrico": "citrus", "citrica": "citrus", "citricos": "citrus",
	"doce": "sweet", "doces": "sweet", "adocicado": "sweet", "adocicada": "sweet", "docinho": "sweet",
	"amargo": "bitter", "amarga": "bitter", "amarguinho": "bitter", "agridoce": "bittersweet",
	"refrescante": "refreshing", "fresco": "fresh", "fresca": "fresh", "gelado": "cooling", "gelada": "cooling", "mentolado": "minty",
	"forte": "strong", "fortes": "strong", "potente": "potent", "alcoolico": "boozy",
	"frutado": "fruity", "frutada": "fruity", "frutal": "fruity", "frutas": "fruit", "fruta": "fruit", "tropicais": "tropical", "suculento": "juicy",
	"picante": "spicy", "apimentado": "spicy", "apimentada": "spicy", "condimentado": "spiced", "especiarias": "spice",
	"espumante": "sparkling", "borbulhante": "bubbly", "gaseificado": "fizzy", "bolhas": "bubbles",
	"cremoso": "creamy", "cremosa": "creamy", "aveludado": "velvety", "encorpado": "rich", "macio": "smooth",
	"herbaceo": "herbaceous", "ervas": "herbal",
	"defumado": "smoky", "defumada": "smoky", "esfumacado": "smoky", "esfumacada": "smoky", "turfado": "peaty",
	"florido": "floral", "florida": "floral",
	"seco": "dry", "seca": "dry",
	"leve": "light", "leves": "light", "levinho": "light",
}

// englishTerm is the English taste word a Swedish or Portuguese one means,
// or the term itself.
func englishTerm(term string) string {
	if en, ok := foreignTastes[fold(term)]; ok {
		return en
	}
	return term
}

// moodWords are the Swedish and Portuguese words of each mood (by its
// label), folded, besides the English ones in moods.
var moodWords = map[string][]string{
	"festive": {"fira", "firar", "firande", "fest", "festen", "festlig", "festligt", "fodelsedag", "skal", "glad", "jubel",
		"celebrar", "celebrando", "comemorar", "comemorando", "festejar", "festejando", "festa", "aniversario", "brinde", "feliz", "animado", "animada"},
	"relaxed": {"avslappnad", "avslappnat", "slappna", "koppla", "lugn", "trott", "lat", "chilla", "chillar",
		"relaxar", "relaxando", "relaxado", "relaxada", "tranquilo", "tranquila", "cansado", "cansada", "calmo", "calma", "preguica"},
	"refreshing": {"torstig", "sommar", "sommarigt", "sol", "soligt", "varmt", "hett", "vark",
		"sede", "verao", "calor", "ensolarado", "quente"},
	"adventurous": {"aventyrlig", "aventyrligt", "aventyr", "overraska", "overraskning", "annorlunda", "nyfiken", "modig", "vagad",
		"aventureiro", "aventureira", "aventura", "surpresa", "surpreenda", "surpreender", "diferente", "curioso", "curiosa", "ousado", "ousada"},
	"cosy": {"mysig", "mysigt", "mys", "mysa", "kallt", "kall", "vinter", "regn", "regnigt", "ruskigt",
		"aconchegante", "frio", "fria", "inverno", "chuva", "chuvoso"},
	"easy-going": {"kor", "kora", "bilen", "nykter", "tidigt", "langsamt", "lugnt",
		"dirigir", "dirigindo", "sobrio", "sobria", "cedo", "devagar", "maneirar"},
	"indulgent": {"unna", "unnar", "lyx", "lyxigt", "njuta", "frossa",
		"mimo", "mimar", "agrado", "indulgente", "merecido"},
}

// surpriseWords ask for anything at all: the picks spread over the menu.
var surpriseWords = []string{"surprise", "anything", "overraska", "overraskning", "vadsomhelst", "surpreenda", "surpreender", "surpresa", "qualquer"}

// negators turn the taste words after them, up to the end of the clause,
// into dislikes: "inget sött", "nothing too sweet", "sem açúcar".
var negators = []string{
	"no", "not", "nothing", "none", "never", "without", "dont", "don", "hate", "avoid", "less",
	"inte", "inget", "ingen", "inga", "utan", "aldrig", "slipp", "mindre",
	"nao", "sem", "nada", "nenhum", "nenhuma", "nunca", "menos", "evitar", "odeio",
}

// clauseBreaks end a negation: "no sweet, but sour", "inget sött men surt".
var clauseBreaks = []string{
	"but", "and", "yet", "though", "something", "some",
	"men", "och", "fast", "nagot", "nat", "garna",
	"mas", "e", "porem", "algo", "alguma", "algum",
}

// guestWords splits a guest's text into clauses (at punctuation) of
// folded words; "surpreenda-me" gives "surpreenda" and "me" as well as
// the whole word, so both a hyphenated taste and the parts are seen.
func guestWords(text string) [][]string {
	var out [][]string
	for _, clause := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(",.;:!?()/\n", r) }) {
		var ws []string
		for _, w := range words(clause) {
			ws = append(ws, fold(w))
			if strings.Contains(w, "-") {
				for _, part := range strings.Split(w, "-") {
					if part != "" {
						ws = append(ws, fold(part))
					}
				}
			}
		}
		if len(ws) > 0 {
			out = append(out, ws)
		}
	}
	return out
}

// moodOf returns the mood w names, in any of the three languages.
func moodOf(w string) (mood, bool) {
	for _, m := range moods {
		if slices.Contains(m.words, w) || slices.Contains(moodWords[m.label], w) {
			return m, true
		}
	}
	return mood{}, false
}
