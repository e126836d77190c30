package menu

// The starter menu in Swedish and Brazilian Portuguese. A host who seeds the
// starter menu in Stockholm or São Paulo gets it in their guests' language
// without typing it again. Texts are keyed by their English wording, so a
// drink the host has rewritten shows the host's own words (in every
// language) rather than a translation of what it no longer says.

// Translations maps a language tag ("sv", "pt-BR") to a text in it.
type Translations map[string]string

// Translate returns the starter menu's translations of an English text
// (a section's name or description, a drink's description, an ingredient's
// name, a recipe's glass, garnish or step), or nil when the text is not the
// starter menu's.
func Translate(english string) Translations {
	if t, ok := starterText[english]; ok {
		return t
	}
	return starterSteps[english]
}

var starterText = map[string]Translations{
	// Sections.
	"Classics":                                 {"sv": "Klassiker", "pt-BR": "Clássicos"},
	"Stirred, spirit-forward and timeless.":    {"sv": "Rörda, spritstarka och tidlösa.", "pt-BR": "Mexidos, marcantes e atemporais."},
	"Sours":                                    {"sv": "Sours", "pt-BR": "Sours"},
	"Shaken with fresh citrus.":                {"sv": "Skakade med färsk citrus.", "pt-BR": "Batidos com cítricos frescos."},
	"Long & sparkling":                         {"sv": "Långa & bubbliga", "pt-BR": "Longos & espumantes"},
	"Tall, bubbly and refreshing.":             {"sv": "Höga, bubbliga och svalkande.", "pt-BR": "Altos, borbulhantes e refrescantes."},
	"Alcohol-free":                             {"sv": "Alkoholfritt", "pt-BR": "Sem álcool"},
	"All of the flavour, none of the alcohol.": {"sv": "All smak, ingen alkohol.", "pt-BR": "Todo o sabor, nada de álcool."},

	// Drinks: classics.
	"Equal parts gin, Campari and sweet vermouth, stirred over ice with an orange slice.": {
		"sv":    "Lika delar gin, Campari och söt vermouth, rörd över is med en apelsinskiva.",
		"pt-BR": "Partes iguais de gim, Campari e vermute doce, mexido no gelo com uma fatia de laranja."},
	"Bourbon, a touch of sugar and Angostura, stirred long and finished with orange peel.": {
		"sv":    "Bourbon, en aning socker och Angostura, länge rörd och avslutad med apelsinzest.",
		"pt-BR": "Bourbon, um toque de açúcar e Angostura, bem mexido e finalizado com casca de laranja."},
	"Gin with a whisper of dry vermouth and orange bitters, stirred ice-cold, lemon twist.": {
		"sv":    "Gin med en aning torr vermouth och apelsinbitter, rörd iskall, med citronzest.",
		"pt-BR": "Gim com um toque de vermute seco e bitter de laranja, mexido bem gelado, com twist de limão-siciliano."},
	"Rye whiskey, sweet vermouth and Angostura, stirred and served up with a cherry.": {
		"sv":    "Rågwhiskey, söt vermouth och Angostura, rörd och serverad utan is med ett körsbär.",
		"pt-BR": "Uísque de centeio, vermute doce e Angostura, mexido e servido sem gelo com uma cereja."},
	"The Negroni's autumn cousin: bourbon in place of gin.": {
		"sv":    "Negronins höstkusin: bourbon i stället för gin.",
		"pt-BR": "O primo outonal do Negroni: bourbon no lugar do gim."},
	"Vodka, fresh espresso and coffee liqueur, shaken hard for a velvet crema.": {
		"sv":    "Vodka, nybryggd espresso och kaffelikör, hårt skakad för ett sammetslent skum.",
		"pt-BR": "Vodca, espresso fresco e licor de café, batidos com força para uma crema aveludada."},
	"Gin, green Chartreuse, maraschino and lime in equal parts: herbal and bright.": {
		"sv":    "Gin, grön Chartreuse, maraschino och lime i lika delar: örtig och frisk.",
		"pt-BR": "Gim, Chartreuse verde, marasquino e limão em partes iguais: herbal e vibrante."},
	"Vodka and coffee liqueur over ice, floated with fresh cream.": {
		"sv":    "Vodka och kaffelikör på is, toppad med färsk grädde.",
		"pt-BR": "Vodca e licor de café no gelo, coberto com creme de leite fresco."},

	// Drinks: sours.
	"Tequila, Cointreau and lime, shaken, with a salted rim.": {
		"sv":    "Tequila, Cointreau och lime, skakad, med saltkant.",
		"pt-BR": "Tequila, Cointreau e limão, batidos, com borda de sal."},
	"White rum, lime and sugar: the purest sour there is.": {
		"sv":    "Ljus rom, lime och socker: den renaste sourn som finns.",
		"pt-BR": "Rum branco, limão e açúcar: o sour mais puro que existe."},
	"Bourbon, lemon and sugar shaken with egg white for a silky foam.": {
		"sv":    "Bourbon, citron och socker skakad med äggvita för ett silkeslent skum.",
		"pt-BR": "Bourbon, limão-siciliano e açúcar batidos com clara de ovo para uma espuma sedosa."},
	"Peruvian pisco, lime, sugar and egg white, with drops of bitters on the foam.": {
		"sv":    "Peruansk pisco, lime, socker och äggvita, med droppar bitter på skummet.",
		"pt-BR": "Pisco peruano, limão, açúcar e clara de ovo, com gotas de bitter na espuma."},
	"Amaretto lifted with a little bourbon, lemon and egg white.": {
		"sv":    "Amaretto lyft med lite bourbon, citron och äggvita.",
		"pt-BR": "Amaretto realçado com um pouco de bourbon, limão-siciliano e clara de ovo."},
	"Citrus vodka, Cointreau, cranberry and lime.": {
		"sv":    "Citronvodka, Cointreau, tranbär och lime.",
		"pt-BR": "Vodca cítrica, Cointreau, cranberry e limão."},
	"Cognac, Cointreau and lemon, shaken and served up.": {
		"sv":    "Konjak, Cointreau och citron, skakad och serverad utan is.",
		"pt-BR": "Conhaque, Cointreau e limão-siciliano, batidos e servidos sem gelo."},
	"Cachaça over lime wedges muddled with sugar.": {
		"sv":    "Cachaça över limeklyftor mortlade med socker.",
		"pt-BR": "Cachaça sobre limão em gomos macerado com açúcar."},
	"Two rums, orange curaçao, orgeat and lime: the tiki classic.": {
		"sv":    "Två sorters rom, orange curaçao, orgeat och lime: tikiklassikern.",
		"pt-BR": "Dois runs, curaçau de laranja, orgeat e limão: o clássico tiki."},
	"Bourbon, Aperol, Amaro Nonino and lemon in equal parts.": {
		"sv":    "Bourbon, Aperol, Amaro Nonino och citron i lika delar.",
		"pt-BR": "Bourbon, Aperol, Amaro Nonino e limão-siciliano em partes iguais."},

	// Drinks: long and sparkling.
	"White rum, lime, sugar and mint, topped with soda.": {
		"sv":    "Ljus rom, lime, socker och mynta, toppad med sodavatten.",
		"pt-BR": "Rum branco, limão, açúcar e hortelã, completado com água com gás."},
	"Prosecco, Aperol and a splash of soda with an orange slice.": {
		"sv":    "Prosecco, Aperol och en skvätt sodavatten med en apelsinskiva.",
		"pt-BR": "Prosecco, Aperol e um toque de água com gás com uma fatia de laranja."},
	"Vodka, ginger beer and lime in a copper mug.": {
		"sv":    "Vodka, ingefärsöl och lime i en kopparmugg.",
		"pt-BR": "Vodca, ginger beer e limão numa caneca de cobre."},
	"Tequila, lime and pink grapefruit soda with a pinch of salt.": {
		"sv":    "Tequila, lime och rosa grapefruktläsk med en nypa salt.",
		"pt-BR": "Tequila, limão e refrigerante de toranja rosa com uma pitada de sal."},
	"Gin and tonic over plenty of ice with a wedge of lime.": {
		"sv":    "Gin och tonic över rikligt med is med en limeklyfta.",
		"pt-BR": "Gim e tônica com bastante gelo e um gomo de limão."},
	"Gin, lemon and sugar, shaken and topped with champagne.": {
		"sv":    "Gin, citron och socker, skakad och toppad med champagne.",
		"pt-BR": "Gim, limão-siciliano e açúcar, batidos e completados com champanhe."},
	"Gin, lemon and sugar, lengthened with soda.": {
		"sv":    "Gin, citron och socker, förlängd med sodavatten.",
		"pt-BR": "Gim, limão-siciliano e açúcar, alongados com água com gás."},
	"Dark rum floated over spicy ginger beer with lime.": {
		"sv":    "Mörk rom flytande över kryddig ingefärsöl med lime.",
		"pt-BR": "Rum escuro flutuando sobre ginger beer picante com limão."},
	"White rum, coconut cream and pineapple, blended smooth.": {
		"sv":    "Ljus rom, kokosgrädde och ananas, mixad len.",
		"pt-BR": "Rum branco, creme de coco e abacaxi, batidos até ficar cremoso."},
	"Vodka, tomato, lemon, Worcestershire and Tabasco, with celery.": {
		"sv":    "Vodka, tomat, citron, Worcestershire och Tabasco, med selleri.",
		"pt-BR": "Vodca, tomate, limão-siciliano, molho inglês e Tabasco, com salsão."},
	"Champagne with a little crème de cassis.": {
		"sv":    "Champagne med lite crème de cassis.",
		"pt-BR": "Champanhe com um pouco de crème de cassis."},

	// Drinks: alcohol-free.
	"Lime, mint and sugar topped with soda: all the fresh, none of the rum.": {
		"sv":    "Lime, mynta och socker toppad med sodavatten: all fräschör, ingen rom.",
		"pt-BR": "Limão, hortelã e açúcar completados com água com gás: todo o frescor, nada de rum."},
	"Tomato, lemon, Worcestershire, Tabasco and celery salt, with a celery stick.": {
		"sv":    "Tomat, citron, Worcestershire, Tabasco och sellerisalt, med en selleristjälk.",
		"pt-BR": "Tomate, limão-siciliano, molho inglês, Tabasco e sal de salsão, com um talo de salsão."},
	"Ginger ale with a splash of grenadine and a cherry.": {
		"sv":    "Ginger ale med en skvätt grenadin och ett körsbär.",
		"pt-BR": "Ginger ale com um toque de grenadine e uma cereja."},
	"Cola and grenadine over ice with a cherry.": {
		"sv":    "Cola och grenadin på is med ett körsbär.",
		"pt-BR": "Refrigerante de cola e grenadine no gelo com uma cereja."},
	"Orange, pineapple and lemon with grenadine, topped with soda.": {
		"sv":    "Apelsin, ananas och citron med grenadin, toppad med sodavatten.",
		"pt-BR": "Laranja, abacaxi e limão-siciliano com grenadine, completados com água com gás."},
	"Coconut cream, pineapple and a squeeze of lime, blended.": {
		"sv":    "Kokosgrädde, ananas och en skvätt lime, mixad.",
		"pt-BR": "Creme de coco, abacaxi e um pouco de limão, batidos."},
	"Elderflower cordial, lime and mint topped with soda.": {
		"sv":    "Fläderblomssaft, lime och mynta toppad med sodavatten.",
		"pt-BR": "Xarope de flor de sabugueiro, limão e hortelã completados com água com gás."},
	"A shot of espresso poured over tonic and ice.": {
		"sv":    "En shot espresso hälld över tonic och is.",
		"pt-BR": "Uma dose de espresso despejada sobre tônica e gelo."},

	// Ingredients.
	"Aged rum":             {"sv": "Lagrad rom", "pt-BR": "Rum envelhecido"},
	"Amaretto":             {"sv": "Amaretto", "pt-BR": "Amaretto"},
	"Amaro Nonino":         {"sv": "Amaro Nonino", "pt-BR": "Amaro Nonino"},
	"Angostura bitters":    {"sv": "Angostura bitter", "pt-BR": "Bitter Angostura"},
	"Aperol":               {"sv": "Aperol", "pt-BR": "Aperol"},
	"Black pepper":         {"sv": "Svartpeppar", "pt-BR": "Pimenta-do-reino"},
	"Bourbon":              {"sv": "Bourbon", "pt-BR": "Bourbon"},
	"Cachaça":              {"sv": "Cachaça", "pt-BR": "Cachaça"},
	"Campari":              {"sv": "Campari", "pt-BR": "Campari"},
	"Celery salt":          {"sv": "Sellerisalt", "pt-BR": "Sal de salsão"},
	"Celery stick":         {"sv": "Selleristjälk", "pt-BR": "Talo de salsão"},
	"Champagne":            {"sv": "Champagne", "pt-BR": "Champanhe"},
	"Citrus vodka":         {"sv": "Citronvodka", "pt-BR": "Vodca cítrica"},
	"Cocktail cherry":      {"sv": "Cocktailbär", "pt-BR": "Cereja em calda"},
	"Coconut cream":        {"sv": "Kokosgrädde", "pt-BR": "Creme de coco"},
	"Coffee liqueur":       {"sv": "Kaffelikör", "pt-BR": "Licor de café"},
	"Cognac":               {"sv": "Konjak", "pt-BR": "Conhaque"},
	"Cointreau":            {"sv": "Cointreau", "pt-BR": "Cointreau"},
	"Cola":                 {"sv": "Cola", "pt-BR": "Refrigerante de cola"},
	"Cranberry juice":      {"sv": "Tranbärsjuice", "pt-BR": "Suco de cranberry"},
	"Crème de cassis":      {"sv": "Crème de cassis", "pt-BR": "Crème de cassis"},
	"Dark rum":             {"sv": "Mörk rom", "pt-BR": "Rum escuro"},
	"Dry vermouth":         {"sv": "Torr vermouth", "pt-BR": "Vermute seco"},
	"Egg white":            {"sv": "Äggvita", "pt-BR": "Clara de ovo"},
	"Elderflower cordial":  {"sv": "Fläderblomssaft", "pt-BR": "Xarope de flor de sabugueiro"},
	"Espresso":             {"sv": "Espresso", "pt-BR": "Espresso"},
	"Fresh cream":          {"sv": "Färsk grädde", "pt-BR": "Creme de leite fresco"},
	"Gin":                  {"sv": "Gin", "pt-BR": "Gim"},
	"Ginger ale":           {"sv": "Ginger ale", "pt-BR": "Ginger ale"},
	"Ginger beer":          {"sv": "Ingefärsöl", "pt-BR": "Ginger beer"},
	"Grapefruit soda":      {"sv": "Grapefruktläsk", "pt-BR": "Refrigerante de toranja"},
	"Green Chartreuse":     {"sv": "Grön Chartreuse", "pt-BR": "Chartreuse verde"},
	"Grenadine":            {"sv": "Grenadin", "pt-BR": "Grenadine"},
	"Lemon juice":          {"sv": "Citronjuice", "pt-BR": "Suco de limão-siciliano"},
	"Lemon peel":           {"sv": "Citronzest", "pt-BR": "Casca de limão-siciliano"},
	"Lime":                 {"sv": "Lime", "pt-BR": "Limão"},
	"Lime juice":           {"sv": "Limejuice", "pt-BR": "Suco de limão"},
	"Maraschino liqueur":   {"sv": "Maraschinolikör", "pt-BR": "Licor marasquino"},
	"Mint":                 {"sv": "Mynta", "pt-BR": "Hortelã"},
	"Orange":               {"sv": "Apelsin", "pt-BR": "Laranja"},
	"Orange bitters":       {"sv": "Apelsinbitter", "pt-BR": "Bitter de laranja"},
	"Orange curaçao":       {"sv": "Orange curaçao", "pt-BR": "Curaçau de laranja"},
	"Orange juice":         {"sv": "Apelsinjuice", "pt-BR": "Suco de laranja"},
	"Orange peel":          {"sv": "Apelsinzest", "pt-BR": "Casca de laranja"},
	"Orgeat syrup":         {"sv": "Orgeatsirap", "pt-BR": "Xarope de orgeat"},
	"Pineapple juice":      {"sv": "Ananasjuice", "pt-BR": "Suco de abacaxi"},
	"Pisco":                {"sv": "Pisco", "pt-BR": "Pisco"},
	"Prosecco":             {"sv": "Prosecco", "pt-BR": "Prosecco"},
	"Rye whiskey":          {"sv": "Rågwhiskey", "pt-BR": "Uísque de centeio"},
	"Salt":                 {"sv": "Salt", "pt-BR": "Sal"},
	"Soda water":           {"sv": "Sodavatten", "pt-BR": "Água com gás"},
	"Sugar":                {"sv": "Socker", "pt-BR": "Açúcar"},
	"Sugar syrup":          {"sv": "Sockerlag", "pt-BR": "Xarope de açúcar"},
	"Sweet vermouth":       {"sv": "Söt vermouth", "pt-BR": "Vermute doce"},
	"Tabasco":              {"sv": "Tabasco", "pt-BR": "Tabasco"},
	"Tequila blanco":       {"sv": "Tequila blanco", "pt-BR": "Tequila prata"},
	"Tomato juice":         {"sv": "Tomatjuice", "pt-BR": "Suco de tomate"},
	"Tonic water":          {"sv": "Tonic", "pt-BR": "Água tônica"},
	"Vodka":                {"sv": "Vodka", "pt-BR": "Vodca"},
	"White rum":            {"sv": "Ljus rom", "pt-BR": "Rum branco"},
	"Worcestershire sauce": {"sv": "Worcestershiresås", "pt-BR": "Molho inglês"},

	// Recipes: glasses and garnishes.
	"Highball":                     {"sv": "Highballglas", "pt-BR": "Copo highball"},
	"Rocks glass":                  {"sv": "Tumlare", "pt-BR": "Copo baixo"},
	"Coupe (chilled)":              {"sv": "Coupeglas (kylt)", "pt-BR": "Taça coupe (gelada)"},
	"Wine glass":                   {"sv": "Vinglas", "pt-BR": "Taça de vinho"},
	"Martini glass (chilled)":      {"sv": "Martiniglas (kylt)", "pt-BR": "Taça de martini (gelada)"},
	"Hurricane glass":              {"sv": "Hurricaneglas", "pt-BR": "Copo hurricane"},
	"Flute":                        {"sv": "Champagneglas", "pt-BR": "Taça flute"},
	"Highball, salted rim":         {"sv": "Highballglas med saltkant", "pt-BR": "Copo highball com borda de sal"},
	"Highball or copa":             {"sv": "Highballglas eller copaglas", "pt-BR": "Copo highball ou taça copa"},
	"Coupe, salted rim":            {"sv": "Coupeglas med saltkant", "pt-BR": "Taça coupe com borda de sal"},
	"Coupe":                        {"sv": "Coupeglas", "pt-BR": "Taça coupe"},
	"Copper mug":                   {"sv": "Kopparmugg", "pt-BR": "Caneca de cobre"},
	"Collins glass":                {"sv": "Collinsglas", "pt-BR": "Copo collins"},
	"Bitters dashed on the foam":   {"sv": "Bitter stänkt på skummet", "pt-BR": "Gotas de bitter na espuma"},
	"Bitters drops on the foam":    {"sv": "Droppar bitter på skummet", "pt-BR": "Gotas de bitter sobre a espuma"},
	"Celery stick, lemon wedge":    {"sv": "Selleristjälk, citronklyfta", "pt-BR": "Talo de salsão, gomo de limão-siciliano"},
	"Lemon peel, cherry":           {"sv": "Citronzest, körsbär", "pt-BR": "Casca de limão-siciliano, cereja"},
	"Lemon twist":                  {"sv": "Citronzest", "pt-BR": "Twist de limão-siciliano"},
	"Lemon wheel, cherry":          {"sv": "Citronskiva, körsbär", "pt-BR": "Rodela de limão-siciliano, cereja"},
	"Lime wedge":                   {"sv": "Limeklyfta", "pt-BR": "Gomo de limão"},
	"Lime wheel":                   {"sv": "Limeskiva", "pt-BR": "Rodela de limão"},
	"Mint sprig, lime wheel":       {"sv": "Myntakvist, limeskiva", "pt-BR": "Raminho de hortelã, rodela de limão"},
	"Mint sprig, spent lime shell": {"sv": "Myntakvist, urpressat limeskal", "pt-BR": "Raminho de hortelã, casca de limão espremido"},
	"Orange slice":                 {"sv": "Apelsinskiva", "pt-BR": "Fatia de laranja"},
	"Orange twist":                 {"sv": "Apelsinzest", "pt-BR": "Twist de laranja"},
	"Pineapple wedge":              {"sv": "Ananasbit", "pt-BR": "Pedaço de abacaxi"},
	"Salt rim, grapefruit wedge":   {"sv": "Saltkant, grapefruktklyfta", "pt-BR": "Borda de sal, gomo de toranja"},
	"Salt rim, lime wheel":         {"sv": "Saltkant, limeskiva", "pt-BR": "Borda de sal, rodela de limão"},
	"Three coffee beans":           {"sv": "Tre kaffebönor", "pt-BR": "Três grãos de café"},
}

// unitText is the starter menu's units in Swedish and Brazilian Portuguese,
// one and more than one ("ml" and the like read the same everywhere).
var unitText = map[string]map[string][2]string{
	"dash":  {"sv": {"stänk", "stänk"}, "pt-BR": {"dash", "dashes"}},
	"leaf":  {"sv": {"blad", "blad"}, "pt-BR": {"folha", "folhas"}},
	"piece": {"sv": {"st", "st"}, "pt-BR": {"unid.", "unid."}},
	"pinch": {"sv": {"nypa", "nypor"}, "pt-BR": {"pitada", "pitadas"}},
	"slice": {"sv": {"skiva", "skivor"}, "pt-BR": {"fatia", "fatias"}},
	"sprig": {"sv": {"kvist", "kvistar"}, "pt-BR": {"raminho", "raminhos"}},
	"tsp":   {"sv": {"tsk", "tsk"}, "pt-BR": {"colher de chá", "colheres de chá"}},
	"wedge": {"sv": {"klyfta", "klyftor"}, "pt-BR": {"gomo", "gomos"}},
}

// TranslateUnit returns unit in lang for amount, or unit itself when
// barhub has no translation of it.
func TranslateUnit(unit, lang string, amount float64) string {
	forms, ok := unitText[unit][lang]
	if !ok {
		return unit
	}
	if amount == 1 {
		return forms[0]
	}
	return forms[1]
}

// LineText says an ingredient line the way a bartender reads it in lang:
// "60 ml Gin", "2 stänk Angostura bitter", "60 ml de Gim".
func LineText(amount float64, unit, name, lang string) string {
	unit = TranslateUnit(unit, lang, amount)
	if lang == "pt-BR" {
		return formatAmount(amount) + " " + unit + " de " + name
	}
	return formatAmount(amount) + " " + unit + " " + name
}
