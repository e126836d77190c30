package diet

// The words of Danish, Norwegian (bokmål) and Finnish, by tag, as people
// write them: with or without æ, ø, å, ä and ö (the folded copies are
// built from these), and in the forms a sentence gives them (Finnish
// "pähkinöille", "alkoholia").

var danishNeeds = map[string]string{
	Gluten:        "hvede byg rug havre cøliaki cøliakiker glutenallergi",
	Crustaceans:   "krebsdyr rejer reje krabbe krabber hummer jomfruhummer",
	Eggs:          "æg æggehvide æggeblomme æggeallergi",
	Fish:          "fisk fiskeallergi ansjoser ansjos laks torsk",
	Peanuts:       "jordnødder jordnød jordnødde peanuts",
	Soy:           "soja sojabønner",
	Milk:          "mælk mælkeprodukter mejeriprodukter laktose fløde smør ost valle kasein mælkeallergi",
	Nuts:          "nødder nød nødde nøddeallergi mandler mandel hasselnødder hasselnød valnødder valnød cashewnødder pistacienødder",
	Celery:        "selleri",
	Mustard:       "sennep",
	Sesame:        "sesam sesamfrø",
	Sulphites:     "sulfitter sulfit",
	Lupin:         "lupin lupiner",
	Molluscs:      "bløddyr muslinger musling østers blæksprutte",
	Vegan:         "veganer vegansk",
	Vegetarian:    "vegetar vegetarisk vegetarer",
	AlcoholFree:   "alkohol alkoholfri alkoholfrit ædru afholdende",
	Pregnant:      "gravid graviditet gravide",
	Breastfeeding: "ammer amning ammende",
	Medicine:      "medicin mediciner medicinen lægemiddel lægemidler antibiotika antibiotikum",
	Driving:       "kører køre chauffør bil bilen",
}

var norwegianNeeds = map[string]string{
	Gluten:        "hvete bygg rug havre cøliaki glutenallergi",
	Crustaceans:   "krepsdyr reker reke krabbe krabber hummer",
	Eggs:          "egg eggehvite eggeplomme eggallergi",
	Fish:          "fisk fiskeallergi ansjos laks torsk",
	Peanuts:       "peanøtter peanøtt jordnøtter jordnøtt peanøttallergi",
	Soy:           "soya soyabønner",
	Milk:          "melk melkeprodukter meieriprodukter laktose fløte smør ost myse melkeallergi",
	Nuts:          "nøtter nøtt nøtte nøtteallergi mandler mandel hasselnøtter valnøtter cashewnøtter",
	Celery:        "selleri",
	Mustard:       "sennep",
	Sesame:        "sesam sesamfrø",
	Sulphites:     "sulfitter sulfitt",
	Lupin:         "lupin lupiner",
	Molluscs:      "bløtdyr skjell blåskjell østers blekksprut",
	Vegan:         "veganer vegansk",
	Vegetarian:    "vegetarianer vegetarisk vegetar",
	Kosher:        "kosjer",
	AlcoholFree:   "alkohol alkoholfri alkoholfritt edru avholds avholdende",
	Pregnant:      "gravid graviditet gravide",
	Breastfeeding: "ammer amming ammende",
	Medicine:      "medisin medisiner medisinen legemiddel legemidler antibiotika antibiotikakur",
	Driving:       "kjører kjøre sjåfør bil bilen",
}

var finnishNeeds = map[string]string{
	Gluten: "gluteeni gluteenia gluteeniton gluteenittomia gluteenittoman gluteenille keliakia keliaakikko keliaakikkona " +
		"vehnä vehnää ohra ohraa ruis ruista kaura kauraa",
	Crustaceans: "äyriäinen äyriäisiä äyriäisille katkarapu katkarapuja katkaravut katkaravuille rapu rapuja ravut hummeri",
	Eggs:        "kananmuna kananmunaa kananmunat kananmunille muna munaa munat munia munille munaton",
	Fish:        "kala kalaa kalat kaloille kalalle anjovis sardelli lohi",
	Peanuts:     "maapähkinä maapähkinää maapähkinät maapähkinöitä maapähkinöille maapähkinälle maapähkinäallergia",
	Soy:         "soija soijaa soijalle",
	Milk: "maito maitoa maidoton maidottomia maidolle maitotuotteet maitotuotteita maitoallergia laktoosi laktoosia laktoositon " +
		"laktoosittomia laktoosille kerma kermaa juusto juustoa",
	Nuts: "pähkinä pähkinää pähkinät pähkinöitä pähkinöille pähkinälle pähkinäallergia pähkinätön manteli manteleita " +
		"manteleille hasselpähkinä hasselpähkinöitä saksanpähkinä cashewpähkinä",
	Celery:        "selleri selleriä sellerille",
	Mustard:       "sinappi sinappia sinapille",
	Sesame:        "seesami seesamia seesamille seesaminsiemen",
	Sulphites:     "sulfiitti sulfiitit sulfiitteja sulfiiteille",
	Lupin:         "lupiini lupiinia",
	Molluscs:      "nilviäinen nilviäisiä nilviäisille simpukka simpukat simpukoita simpukoille osteri osterit mustekala",
	Vegan:         "vegaani vegaaninen vegaanina",
	Vegetarian:    "kasvissyöjä kasvissyöjänä vegetaristi kasvisruoka",
	AlcoholFree:   "alkoholi alkoholia alkoholiton alkoholittomia alkoholittoman raitis raittiina absolutisti",
	Pregnant:      "raskaana raskaus raskauden raskausaikana",
	Breastfeeding: "imetän imetys imettävä imetyksen imettää",
	Medicine: "antabusta disulfiraamia metronidatsoli metronidatsolia tinidatsoli lääke lääkkeet lääkettä lääkitys lääkityksen lääkekuuri antibiootti antibiootteja antibioottikuuri " +
		"antibioottikuurilla antibiootit",
	Driving: "ajan ajamassa ajaa kuski kuljettaja autolla autoa",
}

// finnishWords are the Finnish words, folded: a part with one of them is
// Finnish, and its "ei" is "no", not the German egg.
var finnishWords = func() map[string]bool {
	out := map[string]bool{}
	for w := range lexicon([]map[string]string{finnishNeeds}, nil) {
		out[fold(w)] = true
	}
	for w := range set(finnishFillers) {
		out[fold(w)] = true
	}
	return out
}()

const danishFillers = "jeg er har min mit mine han hun hans hendes vi os du det den en et af med på til om som " +
	"søn datter kone mand barn dreng pige kæreste allergisk allergiske allergiker allergi allergier overfor mod meget " +
	"tak venligst kan spise må får aften iaften idag også kun spor svær svært let overfølsom intolerant tåler tager tar noget nogen over skal hjem sønnen datteren"

const norwegianFillers = "jeg er har min mitt mine han hun hans hennes vi oss du det den en et av med på til om som " +
	"sønn datter kone mann barn gutt jente kjæreste allergisk allergiske allergiker allergi allergier mot veldig " +
	"takk vennligst kan spise får kveld ikveld idag også bare spor alvorlig lett overfølsom intolerant tåler bruker tar noe skal hjem sønnen datteren"

const finnishFillers = "minä mä minulla mulla minun mun olen oon on ole olla hän hänellä meillä me sinä " +
	"poika tytär vaimo mies lapsi lapsella pojalla tyttärellä allerginen allergia allergiaa allergikko yliherkkä yliherkkyys " +
	"intoleranssi kiitos voi voin saa syödä juoda tänään illalla tänä iltana vain myös jälkiä vakava vaikea lievä " +
	"paljon hyvin kanssa takia koska käytän käyttää otan syön menossa kotiin"
