package diet

// The words of Italian and Dutch, by tag, with and without accents.

var italianNeeds = map[string]string{
	Gluten:      "glutine celiachia celiaci frumento grano orzo segale avena farro",
	Crustaceans: "crostacei crostaceo gamberi gambero gamberetti gamberetto granchio granchi aragosta aragoste scampi astice",
	Eggs:        "uova uovo albume tuorlo",
	Fish:        "pesce pesci acciughe acciuga alici tonno salmone merluzzo",
	Peanuts:     "arachidi arachide noccioline",
	Soy:         "soia",
	Milk:        "latte lattosio latticini panna burro formaggio formaggi siero caseina",
	Nuts: "noci noce nocciole nocciola mandorle mandorla pistacchi pistacchio anacardi anacardo macadamia " +
		"amaretto marzapane",
	Celery:        "sedano",
	Mustard:       "senape",
	Sesame:        "sesamo",
	Sulphites:     "solfiti solfito",
	Lupin:         "lupini lupino",
	Molluscs:      "molluschi mollusco cozze cozza vongole vongola ostriche ostrica calamari calamaro polpo seppia",
	Vegan:         "vegano vegana vegani vegane",
	Vegetarian:    "vegetariano vegetariana vegetariani vegetariane",
	AlcoholFree:   "alcol alcool alcolici alcolico analcolico analcolica analcolici astemio astemia astemi sobrio sobria",
	Pregnant:      "incinta gravidanza gravida",
	Breastfeeding: "allatto allattando allattamento allattare",
	Medicine:      "farmaco farmaci medicina medicinale medicinali medicine antibiotico antibiotici",
	Driving:       "guido guidare autista",
}

var dutchNeeds = map[string]string{
	Gluten:        "tarwe gerst rogge haver coeliakie",
	Crustaceans:   "schaaldier garnalen garnaal krab krabben kreeft kreeften",
	Eggs:          "eieren eiwit eidooier",
	Fish:          "vis vissen ansjovis zalm tonijn kabeljauw",
	Peanuts:       "pinda pindas pinda's pindakaas",
	Soy:           "soja",
	Milk:          "melk koemelk lactose zuivel room boter kaas wei caseïne melkallergie",
	Nuts:          "noten noot notenallergie amandelen amandel hazelnoten hazelnoot walnoten walnoot cashewnoten pistachenoten",
	Celery:        "selderij selderie",
	Mustard:       "mosterd",
	Sesame:        "sesam sesamzaad",
	Sulphites:     "sulfiet sulfieten",
	Lupin:         "lupine lupinen",
	Molluscs:      "weekdieren weekdier mosselen mossel oesters oester inktvis",
	Vegan:         "veganist veganistisch veganisten",
	Vegetarian:    "vegetariër vegetarier vegetarisch",
	Kosher:        "koosjer",
	AlcoholFree:   "alcohol alcoholvrij alcoholvrije nuchter geheelonthouder",
	Pregnant:      "zwanger zwangerschap",
	Breastfeeding: "borstvoeding",
	Medicine:      "medicijn medicijnen medicatie antibiotica antibioticum kuur",
	Driving:       "rijd rijden",
}

const italianFillers = "io sono ho mio mia miei mie lui lei noi figlio figlia moglie marito bambino bambina ragazzo ragazza " +
	"allergico allergica allergici allergiche allergia allergie intollerante intolleranza intolleranti al alla alle ai agli allo " +
	"di del della dei delle degli per favore grazie molto grave gravi posso può mangiare bere stasera oggi sera solo tracce " +
	"che un una uno il lo gli con sto prendo prendendo perché perche terapia sotto devo deve"

const dutchFillers = "ik ben heb mijn hij zij wij we ons jij je het een de der van voor met op tegen aan zoon dochter vrouw man kind " +
	"kinderen vriend vriendin allergisch allergie allergieën intolerant intolerantie overgevoelig graag alsjeblieft alstublieft " +
	"dank bedankt vanavond vandaag alleen sporen kan mag eten erg ernstig neem gebruik geef geeft heeft hebben moet moeten patiënt"
