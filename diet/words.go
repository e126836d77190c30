package diet

import "strings"

// needWords maps the words people write about what they cannot have, in
// every language Read reads, to canonical tags. Keys are lower case as
// written; a folded copy without diacritics is built from them, so
// "nötallergi" and "leche" match however they are typed. A word maps to
// several tags where it means several ("shellfish", "seafood").
var needWords = lexicon([]map[string]string{westernNeeds, danishNeeds, norwegianNeeds, finnishNeeds, italianNeeds, dutchNeeds}, map[string][]string{
	"shellfish":     {Crustaceans, Molluscs},
	"skaldjur":      {Crustaceans, Molluscs},
	"meeresfrüchte": {Crustaceans, Molluscs},
	"marisco":       {Crustaceans, Molluscs},
	"mariscos":      {Crustaceans, Molluscs},
	"seafood":       {Fish, Crustaceans, Molluscs},
	"skaldyr":       {Crustaceans, Molluscs},
	"skalldyr":      {Crustaceans, Molluscs},
	"äyriäiset":     {Crustaceans, Molluscs},
	"schaaldieren":  {Crustaceans, Molluscs},
	"zeevruchten":   {Fish, Crustaceans, Molluscs},
	"mereneläviä":   {Fish, Crustaceans, Molluscs},
})

// westernNeeds are the words of English, Swedish, German, French, Spanish
// and Portuguese, by tag.
var westernNeeds = map[string]string{
	Gluten: "gluten glúten glutén wheat vete weizen trigo blé ble barley gerste cevada cebada orge rye råg roggen centeio centeno seigle " +
		"oats oat havre hafer aveia avena avoine spelt dinkel coeliac celiac coeliacs celiacs coeliakia celiaki celiakí zöliakie zoeliakie " +
		"celíaco celíaca celiaco celiaca cœliaque coeliaque cœliaquie coeliaquie celiaquía celiaquia malt",
	Crustaceans: "crustacean crustaceans shrimp shrimps prawn prawns crab crabs lobster lobsters crayfish langoustine kräftdjur räkor räka krabba hummer " +
		"kräftor krebstiere garnelen garnele krabben krebs crustáceos crustáceo crustaceos camarão camarões camarao camaroes caranguejo lagosta " +
		"crustacés crustaces crevette crevettes crabe homard gambas gamba langosta cangrejo langostinos",
	Eggs: "egg eggs eggwhite eggwhites eggyolk albumen albumin meringue ägg äggvita äggula ei eier eiern eiweiß eiweiss ovo ovos " +
		"œuf oeuf œufs oeufs huevo huevos",
	Fish: "fish fishes fisk fisch fische peixe peixes poisson poissons pescado pescados anchovy anchovies ansjovis anchovis sardeller " +
		"anchoa anchoas anchova anchovas anchois salmon lax lachs tuna cod sardine sardines",
	Peanuts: "peanut peanuts groundnut groundnuts jordnöt jordnötter jordnötsallergi erdnuss erdnüsse amendoim amendoins " +
		"cacahuète cacahuètes cacahuete cacahuetes arachide arachides maní mani manís",
	Soy: "soy soya soja soybean soybeans sojabohne sojabohnen edamame tofu",
	Milk: "milk milks dairy diary lactose lactosefree cream butter cheese whey casein mjölk laktos mejeri mejeriprodukter grädde " +
		"milch laktose sahne milchprodukte milcheiweiß milcheiweiss leite lácteos lacteos laticínios laticinios lacticínios lacticinios " +
		"nata natas queijo lait lactosa laitiers laitier crème fromage leche queso",
	Nuts: "nut nuts treenut treenuts almond almonds hazelnut hazelnuts walnut walnuts cashew cashews pecan pecans pistachio pistachios " +
		"macadamia macadamias nöt nötter nötallergi nötallergiker mandel mandlar hasselnöt hasselnötter valnöt valnötter cashewnöt " +
		"nuss nüsse nüssen haselnuss haselnüsse walnuss walnüsse mandeln pistazie pistazien noz nozes amêndoa amêndoas amendoa amendoas " +
		"avelã avelãs castanha castanhas noix noisette noisettes amande amandes pistache pistaches nuez nueces almendra almendras " +
		"avellana avellanas orgeat amaretto marzipan marsipan praline nutella frangelico",
	Celery:    "celery selleri sellerie aipo céleri celeri apio",
	Mustard:   "mustard senap senf mostarda moutarde mostaza",
	Sesame:    "sesame sesam sésamo sesamo gergelim sésame tahini tahin",
	Sulphites: "sulphite sulphites sulfite sulfites sulfit sulfiter sulfitos sulfito sulfiti",
	Lupin:     "lupin lupins lupine lupines lupinen lupiner tremoço tremoços altramuz altramuces lupino",
	Molluscs: "mollusc molluscs mollusk mollusks oyster oysters clam clams mussel mussels squid octopus scallop scallops calamari " +
		"blötdjur musslor mussla ostron bläckfisk weichtiere muscheln muschel austern auster tintenfisch moluscos molusco ostras ostra " +
		"mexilhões mexilhão lula lulas polvo mollusques mollusque huîtres huître huitres moules moule calmar calamar pulpo almejas mejillones vieiras",
	Vegan:      "vegan vegans vegano vegana veganer veganerin végétalien végétalienne végane vegane",
	Vegetarian: "vegetarian vegetarians veggie vegetariano vegetariana vegetarisch vegetarier vegetarierin végétarien végétarienne vegetarien",
	Halal:      "halal",
	Kosher:     "kosher koscher casher cacher kascher",
	AlcoholFree: "alcohol alcoholic alcohols alcoholfree booze liquor sober teetotal teetotaler teetotaller teetotallers abstinent abstain " +
		"alkohol alkoholfri alkoholfritt nykter nykterist helnykter " +
		"alkoholfrei nüchtern abstinenzler " +
		"alcool abstinente " +
		"abstemio abstemia sobrio sobria " +
		"álcool abstêmio abstémio abstêmia sóbrio sóbria",
	Pregnant: "pregnant pregnancy pregant expecting gravid graviditet schwanger schwangerschaft enceinte grossesse " +
		"embarazada embarazo grávida gravida gravidez gestante",
	Breastfeeding: "breastfeeding breastfeed breast-feeding nursing lactating ammar amning ammande stille stillen stillend stillzeit " +
		"allaite allaitement allaitante lactancia amamantando amamanto lactando amamentando amamento amamentação amamentacao lactante",
	Medicine: medicineWords + " medicine medicines medication medications meds antibiotic antibiotics " +
		"medicin mediciner medicinering läkemedel antibiotika " +
		"medikament medikamente antibiotikum arznei " +
		"médicament médicaments medicament medicaments antibiotique antibiotiques " +
		"medicamento medicamentos medicación medicacion antibiótico antibióticos antibiotico antibioticos " +
		"remédio remédios remedio remedios medicação medicacao",
	Driving: "driving driver drive drivers drives chauffeur kör köra chaufför bilen fahre fahrer fahrerin fahren autofahren " +
		"conduis conduire conducteur conductrice conduzco conducir conductor conductora manejo manejar " +
		"dirigir dirijo dirigindo motorista conduzir conduzo",
}

// medicineWords are the medicines that forbid alcohol, by the names
// people write in every language: disulfiram (Antabus), metronidazole
// (Flagyl), tinidazole.
const medicineWords = "disulfiram disulfirame disulfiramo antabus antabuse esperal metronidazol metronidazole metronidazolo " +
	"metronidazolum flagyl tinidazol tinidazole tinidazolo fasigyn secnidazol secnidazole"

// needPhrases are multi-word needs, matched on folded words.
var needPhrases = map[string][]string{
	"fruits de mer":   {Crustaceans, Molluscs},
	"frutos do mar":   {Fish, Crustaceans, Molluscs},
	"frutos de mar":   {Fish, Crustaceans, Molluscs},
	"frutos secos":    {Nuts},
	"fruits a coque":  {Nuts},
	"sulphur dioxide": {Sulphites},
	"sulfur dioxide":  {Sulphites},
	"egg white":       {Eggs},
	"kor bil":         {Driving},
	"frutti di mare":  {Crustaceans, Molluscs},
	"frutta secca":    {Nuts},
	"frutta a guscio": {Nuts},
	"alla guida":      {Driving},
	"de bob":          {Driving},
	"en juo":          {AlcoholFree},
	"ei juo":          {AlcoholFree},
	"drink niet":      {AlcoholFree},
	"drink geen":      {AlcoholFree},
}

// compoundEnds are the word endings that, after a need word, make one
// word of a need ("nötallergi", "glutenfrei", "laktosintolerant").
var compoundEnds = strings.Fields("allergi allergie allergien allergy allergic allergiker allergisk alergi alergia alergie " +
	"intolerant intolerans intoleranz intolerance unverträglichkeit unvertraglichkeit fri fritt fria frei freie freier freies free " +
	"allergia allergiaa allerginen allergikko allergico allergica allergisch allergiske intoleranse intoleranssi intolleranza " +
	"intollerante intolerantie frit frie vrij vrije ton tön vapaa")

// negations, with a drinking word, mean the person does not drink.
var negations = set("no not non none never nope don dont doesn doesnt won wont cant cannot " +
	"inte ej ingen inga inget aldrig utan " +
	"nicht kein keine keinen keiner nie ohne " +
	"ne pas sans jamais aucun aucune " +
	"sin nunca ni nada " +
	"não nao sem nem " +
	"ikke uden uten intet aldri ilman senza niente nessun nessuna nulla geen niet zonder nooit")

// drinkingWords are the verbs of drinking.
var drinkingWords = set("drink drinking drinks dricker dricka dricks trinke trinken trinkt bois boire boit buvant " +
	"bebo beber bebe bebiendo bebendo tomo tomar drikker drikke juo juon juoda bevo bere beve drinken drinkt")

// spanishSoy are the words after which "soy" is Spanish for "I am".
var spanishSoy = set("alergico alergica vegano vegana vegetariano vegetariana celiaco celiaca intolerante abstemio abstemia " +
	"diabetico diabetica muy")

// conjunctions split a text into parts, so one part not understood does
// not hide the parts that are.
var conjunctions = set("and but also plus och men samt und aber sowie et mais y pero e mas og ja sekä mutta ed ma anche maar ook")

// fillerWords are understood and carry no need: the words around a need
// ("I'm allergic to", "please", "my son"), in each language.
var fillerWords = set(westernFillers, danishFillers, norwegianFillers, finnishFillers, italianFillers, dutchFillers)

// westernFillers are those of English, Swedish, German, French, Spanish
// and Portuguese.
const westernFillers = "" +
	// English
	"i im am is are was be been a an the to of for in on at by with my me mine he she his her him they them their we our us you your " +
	"it its this that these those son sons daughter daughters wife husband kid kids child children baby partner mum mom dad father mother " +
	"boy girl family guest guests friend plus one both all everyone severe severely mild slight slightly very really strict strictly " +
	"extremely highly too only just please pls thanks thank thx can could eat eats eating have has had any anything containing contains " +
	"contain tonight today night evening party allergy allergies allergic intolerant intolerance intolerances sensitive sensitivity " +
	"free avoid avoids avoiding without must mustn should shouldn need needs t s m ll re ve d diet dietary " +
	"trace traces even small amount amounts kind kinds type types sort form forms product products food foods life threatening anaphylactic " +
	"anaphylaxis epipen reaction reactions ok okay fine better best good so bit little lot lots sorry hi hello thank " +
	"will would may might some such as from up out about if when what which who other others yes yet keep keeping " +
	"tree designated person people years year old aged age doença disease taking take takes taken using use uses on staying stay stays home " +
	// Swedish
	"jag är har hade min mitt mina han hon hans hennes vi mig mej dig du det den en ett för av med på till om som " +
	"dotter fru man barn pojke flicka sambo svår svårt lätt mycket väldigt tack snälla allergisk allergiska allergiker " +
	"kan ska hem äta äter tar får ikväll idag också bara spår överkänslig överkänslighet intolerant mot behöver " +
	// German
	"ich bin habe hat hatte mein meine meinen meiner er sie wir uns du ist sind eine ein einen einer der die das den dem des " +
	"für von mit auf gegen zu bei sohn tochter frau mann kind kinder bitte danke sehr schwere schwer leichte leicht allergisch " +
	"allergie unverträglichkeit vertrage verträgt darf esse essen heute abend auch nur spuren nehme nimmt " +
	// French
	"je j suis ai est mon ma mes il elle nous vous tu un une le la les l de du des d au aux à a en pour avec " +
	"fils fille femme mari enfant enfants plaît plait merci très tres grave sévère severe allergique allergiques allergie " +
	"intolérant intolérante intolerant intolerante peux peut manger ce soir aujourd hui aussi seulement traces qu que prends prend " +
	// Spanish
	"yo soy estoy tengo tiene mi mis él ella nosotros usted un una el los las del al con por para de a " +
	"hijo hija esposa esposo marido niño niña niños favor gracias muy grave alérgico alérgica alergico alergica alérgicos alergia alergias " +
	"intolerante intolerancia puedo puede comer esta noche hoy también tambien solo trazas que es " +
	// Portuguese
	"eu sou estou vou tenho tem tomando tomo uso usando meu minha meus minhas ele ela nós você um uma o os as do da dos das no na com por para de " +
	"filho filha esposo marido criança crianças por favor obrigado obrigada muito grave alérgico alérgica alergico alergica " +
	"alergia intolerante intolerância intolerancia posso pode comer hoje noite também só vestígios que é"

func lexicon(byTag []map[string]string, extra map[string][]string) map[string][]string {
	out := map[string][]string{}
	for _, m := range byTag {
		for tag, words := range m {
			for _, w := range strings.Fields(words) {
				out[w] = appendNew(out[w], tag)
			}
		}
	}
	for w, tags := range extra {
		if len(tags) > 0 {
			out[w] = tags
		}
	}
	return out
}

func set(words ...string) map[string]bool {
	out := map[string]bool{}
	for _, ws := range words {
		for _, w := range strings.Fields(ws) {
			out[w] = true
		}
	}
	return out
}
