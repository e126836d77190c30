package menu

// starterSteps is the starter menu's recipe steps in Swedish and Brazilian
// Portuguese, keyed by their English wording like starterText, so the bar's
// recipe card reads in the tablet's language (Translate).
var starterSteps = map[string]Translations{
	"Pour gin, Campari and sweet vermouth into a mixing glass with ice.": {
		"sv":    "Häll gin, Campari och söt vermouth i ett röranglas med is.",
		"pt-BR": "Coloque gim, Campari e vermute doce num mixing glass com gelo."},
	"Stir for 20 seconds.": {
		"sv":    "Rör i 20 sekunder.",
		"pt-BR": "Mexa por 20 segundos."},
	"Strain over a large cube in a rocks glass.": {
		"sv":    "Sila över en stor isbit i en tumlare.",
		"pt-BR": "Coe sobre uma pedra grande de gelo num copo baixo."},
	"Add the orange slice.": {
		"sv":    "Lägg i apelsinskivan.",
		"pt-BR": "Adicione a fatia de laranja."},
	"Put sugar syrup and bitters in a mixing glass.": {
		"sv":    "Häll sockerlag och bitter i ett röranglas.",
		"pt-BR": "Coloque o xarope de açúcar e o bitter num mixing glass."},
	"Add bourbon and ice; stir for 30 seconds.": {
		"sv":    "Tillsätt bourbon och is; rör i 30 sekunder.",
		"pt-BR": "Adicione o bourbon e o gelo; mexa por 30 segundos."},
	"Squeeze the orange peel over the drink and drop it in.": {
		"sv":    "Pressa apelsinzesten över drinken och lägg i den.",
		"pt-BR": "Esprema a casca de laranja sobre o drinque e coloque-a dentro."},
	"Chill the glass with ice water.": {
		"sv":    "Kyl glaset med isvatten.",
		"pt-BR": "Gele a taça com água e gelo."},
	"Stir gin, dry vermouth and bitters with ice for 30 seconds.": {
		"sv":    "Rör gin, torr vermouth och bitter med is i 30 sekunder.",
		"pt-BR": "Mexa gim, vermute seco e bitter com gelo por 30 segundos."},
	"Empty the glass and strain the drink into it.": {
		"sv":    "Töm glaset och sila drinken ner i det.",
		"pt-BR": "Esvazie a taça e coe o drinque nela."},
	"Squeeze the lemon peel over the top and add it.": {
		"sv":    "Pressa citronzesten över ytan och lägg i den.",
		"pt-BR": "Esprema a casca de limão-siciliano por cima e coloque-a dentro."},
	"Stir rye, sweet vermouth and bitters with ice for 30 seconds.": {
		"sv":    "Rör rye, söt vermouth och bitter med is i 30 sekunder.",
		"pt-BR": "Mexa rye, vermute doce e bitter com gelo por 30 segundos."},
	"Strain into a chilled coupe.": {
		"sv":    "Sila ner i ett kylt coupeglas.",
		"pt-BR": "Coe numa taça coupe gelada."},
	"Drop in the cherry.": {
		"sv":    "Lägg i körsbäret.",
		"pt-BR": "Coloque a cereja."},
	"Stir bourbon, Campari and sweet vermouth with ice for 20 seconds.": {
		"sv":    "Rör bourbon, Campari och söt vermouth med is i 20 sekunder.",
		"pt-BR": "Mexa bourbon, Campari e vermute doce com gelo por 20 segundos."},
	"Twist the orange peel over it and drop it in.": {
		"sv":    "Vrid apelsinzesten över drinken och lägg i den.",
		"pt-BR": "Torça a casca de laranja sobre o drinque e coloque-a dentro."},
	"Pull a fresh espresso.": {
		"sv":    "Dra en färsk espresso.",
		"pt-BR": "Tire um espresso fresco."},
	"Shake vodka, espresso, coffee liqueur and sugar syrup hard with ice for 15 seconds.": {
		"sv":    "Skaka vodka, espresso, kaffelikör och sockerlag hårt med is i 15 sekunder.",
		"pt-BR": "Bata vodca, espresso, licor de café e xarope de açúcar com força, com gelo, por 15 segundos."},
	"Double-strain into a chilled coupe.": {
		"sv":    "Dubbelsila ner i ett kylt coupeglas.",
		"pt-BR": "Faça coagem dupla numa taça coupe gelada."},
	"Lay the coffee beans on the foam.": {
		"sv":    "Lägg kaffebönorna på skummet.",
		"pt-BR": "Coloque os grãos de café sobre a espuma."},
	"Shake gin, Chartreuse, maraschino and lime juice with ice.": {
		"sv":    "Skaka gin, Chartreuse, maraschino och limejuice med is.",
		"pt-BR": "Bata gim, Chartreuse, maraschino e suco de limão com gelo."},
	"Fill a rocks glass with ice.": {
		"sv":    "Fyll en tumlare med is.",
		"pt-BR": "Encha um copo baixo de gelo."},
	"Pour in vodka and coffee liqueur and stir briefly.": {
		"sv":    "Häll i vodka och kaffelikör och rör kort.",
		"pt-BR": "Coloque a vodca e o licor de café e mexa rapidamente."},
	"Float the cream on top over the back of a spoon.": {
		"sv":    "Flyt grädden överst över baksidan av en sked.",
		"pt-BR": "Deite o creme por cima, sobre as costas de uma colher."},
	"Wet half the rim with lime and dip it in salt.": {
		"sv":    "Fukta halva kanten med lime och doppa den i salt.",
		"pt-BR": "Umedeça metade da borda com limão e passe-a no sal."},
	"Shake tequila, Cointreau and lime juice with ice.": {
		"sv":    "Skaka tequila, Cointreau och limejuice med is.",
		"pt-BR": "Bata tequila, Cointreau e suco de limão com gelo."},
	"Strain into the glass.": {
		"sv":    "Sila ner i glaset.",
		"pt-BR": "Coe no copo."},
	"Shake rum, lime juice and sugar syrup hard with ice.": {
		"sv":    "Skaka rom, limejuice och sockerlag hårt med is.",
		"pt-BR": "Bata rum, suco de limão e xarope de açúcar com força, com gelo."},
	"Shake bourbon, lemon, sugar syrup and egg white without ice for 10 seconds.": {
		"sv":    "Skaka bourbon, citron, sockerlag och äggvita utan is i 10 sekunder.",
		"pt-BR": "Bata bourbon, limão-siciliano, xarope de açúcar e clara de ovo sem gelo por 10 segundos."},
	"Add ice and shake again.": {
		"sv":    "Tillsätt is och skaka igen.",
		"pt-BR": "Adicione gelo e bata de novo."},
	"Strain over fresh ice.": {
		"sv":    "Sila över ny is.",
		"pt-BR": "Coe sobre gelo novo."},
	"Dash the bitters onto the foam.": {
		"sv":    "Stänk bittern på skummet.",
		"pt-BR": "Pingue o bitter sobre a espuma."},
	"Shake pisco, lime, sugar syrup and egg white without ice.": {
		"sv":    "Skaka pisco, lime, sockerlag och äggvita utan is.",
		"pt-BR": "Bata pisco, limão, xarope de açúcar e clara de ovo sem gelo."},
	"Strain into a coupe.": {
		"sv":    "Sila ner i ett coupeglas.",
		"pt-BR": "Coe numa taça coupe."},
	"Drop the bitters onto the foam.": {
		"sv":    "Droppa bittern på skummet.",
		"pt-BR": "Pingue gotas de bitter sobre a espuma."},
	"Shake amaretto, bourbon, lemon, sugar syrup and egg white without ice.": {
		"sv":    "Skaka amaretto, bourbon, citron, sockerlag och äggvita utan is.",
		"pt-BR": "Bata amaretto, bourbon, limão-siciliano, xarope de açúcar e clara de ovo sem gelo."},
	"Add the lemon peel and cherry.": {
		"sv":    "Lägg i citronzesten och körsbäret.",
		"pt-BR": "Adicione a casca de limão-siciliano e a cereja."},
	"Shake citrus vodka, Cointreau, cranberry and lime with ice.": {
		"sv":    "Skaka citronvodka, Cointreau, tranbär och lime med is.",
		"pt-BR": "Bata vodca cítrica, Cointreau, cranberry e limão com gelo."},
	"Double-strain into a chilled glass.": {
		"sv":    "Dubbelsila ner i ett kylt glas.",
		"pt-BR": "Faça coagem dupla numa taça gelada."},
	"Flame or twist the orange peel over it.": {
		"sv":    "Flambera eller vrid apelsinzesten över drinken.",
		"pt-BR": "Flambe ou torça a casca de laranja sobre o drinque."},
	"Shake cognac, Cointreau and lemon juice with ice.": {
		"sv":    "Skaka konjak, Cointreau och citronjuice med is.",
		"pt-BR": "Bata conhaque, Cointreau e suco de limão-siciliano com gelo."},
	"Muddle the lime wedges with the sugar in the glass.": {
		"sv":    "Mortla limeklyftorna med sockret i glaset.",
		"pt-BR": "Macere os gomos de limão com o açúcar no copo."},
	"Fill with crushed ice.": {
		"sv":    "Fyll med krossad is.",
		"pt-BR": "Encha com gelo picado."},
	"Pour in the cachaça and stir.": {
		"sv":    "Häll i cachaçan och rör.",
		"pt-BR": "Coloque a cachaça e mexa."},
	"Shake aged rum, curaçao, orgeat, lime and sugar syrup with ice.": {
		"sv":    "Skaka lagrad rom, curaçao, orgeat, lime och sockerlag med is.",
		"pt-BR": "Bata rum envelhecido, curaçao, orgeat, limão e xarope de açúcar com gelo."},
	"Strain over crushed ice.": {
		"sv":    "Sila över krossad is.",
		"pt-BR": "Coe sobre gelo picado."},
	"Float the dark rum on top.": {
		"sv":    "Flyt den mörka rommen överst.",
		"pt-BR": "Deite o rum escuro por cima."},
	"Add the mint sprig.": {
		"sv":    "Lägg i myntakvisten.",
		"pt-BR": "Adicione o raminho de hortelã."},
	"Shake bourbon, Aperol, Amaro Nonino and lemon juice with ice.": {
		"sv":    "Skaka bourbon, Aperol, Amaro Nonino och citronjuice med is.",
		"pt-BR": "Bata bourbon, Aperol, Amaro Nonino e suco de limão-siciliano com gelo."},
	"Gently press the mint with sugar syrup and lime juice in the glass.": {
		"sv":    "Pressa myntan varsamt med sockerlag och limejuice i glaset.",
		"pt-BR": "Pressione a hortelã com cuidado com o xarope de açúcar e o suco de limão no copo."},
	"Add the rum and fill with crushed ice.": {
		"sv":    "Tillsätt rommen och fyll med krossad is.",
		"pt-BR": "Adicione o rum e encha com gelo picado."},
	"Top with soda water and stir from the bottom.": {
		"sv":    "Toppa med sodavatten och rör från botten.",
		"pt-BR": "Complete com água com gás e mexa de baixo para cima."},
	"Crown with the mint sprig.": {
		"sv":    "Kröna med myntakvisten.",
		"pt-BR": "Finalize com o raminho de hortelã."},
	"Fill a wine glass with ice.": {
		"sv":    "Fyll ett vinglas med is.",
		"pt-BR": "Encha uma taça de vinho com gelo."},
	"Pour in prosecco, then Aperol.": {
		"sv":    "Häll i prosecco, sedan Aperol.",
		"pt-BR": "Coloque o prosecco, depois o Aperol."},
	"Top with a splash of soda and add the orange slice.": {
		"sv":    "Toppa med en skvätt soda och lägg i apelsinskivan.",
		"pt-BR": "Complete com um pouco de água com gás e adicione a fatia de laranja."},
	"Fill the mug with ice.": {
		"sv":    "Fyll muggen med is.",
		"pt-BR": "Encha a caneca com gelo."},
	"Add vodka and lime juice.": {
		"sv":    "Tillsätt vodka och limejuice.",
		"pt-BR": "Adicione a vodca e o suco de limão."},
	"Top with ginger beer and add the lime wedge.": {
		"sv":    "Toppa med ginger beer och lägg i limeklyftan.",
		"pt-BR": "Complete com ginger beer e adicione o gomo de limão."},
	"Salt half the rim.": {
		"sv":    "Salta halva kanten.",
		"pt-BR": "Passe sal em metade da borda."},
	"Fill the glass with ice; add tequila and lime juice.": {
		"sv":    "Fyll glaset med is; tillsätt tequila och limejuice.",
		"pt-BR": "Encha o copo com gelo; adicione a tequila e o suco de limão."},
	"Top with grapefruit soda and stir.": {
		"sv":    "Toppa med grapefruktläsk och rör.",
		"pt-BR": "Complete com refrigerante de toranja e mexa."},
	"Fill the glass to the top with ice.": {
		"sv":    "Fyll glaset ända upp med is.",
		"pt-BR": "Encha o copo de gelo até a borda."},
	"Pour in the gin.": {
		"sv":    "Häll i ginet.",
		"pt-BR": "Coloque o gim."},
	"Top with tonic down a bar spoon; add the lime wedge.": {
		"sv":    "Toppa med tonic längs en barsked; lägg i limeklyftan.",
		"pt-BR": "Complete com a tônica escorrendo por uma colher bailarina; adicione o gomo de limão."},
	"Shake gin, lemon juice and sugar syrup with ice.": {
		"sv":    "Skaka gin, citronjuice och sockerlag med is.",
		"pt-BR": "Bata gim, suco de limão-siciliano e xarope de açúcar com gelo."},
	"Strain into a flute.": {
		"sv":    "Sila ner i ett champagneglas.",
		"pt-BR": "Coe numa taça flute."},
	"Top with champagne.": {
		"sv":    "Toppa med champagne.",
		"pt-BR": "Complete com champanhe."},
	"Strain into a Collins glass over fresh ice.": {
		"sv":    "Sila ner i ett collinsglas över ny is.",
		"pt-BR": "Coe num copo collins sobre gelo novo."},
	"Top with soda water.": {
		"sv":    "Toppa med sodavatten.",
		"pt-BR": "Complete com água com gás."},
	"Fill the glass with ice and ginger beer.": {
		"sv":    "Fyll glaset med is och ginger beer.",
		"pt-BR": "Encha o copo com gelo e ginger beer."},
	"Add the lime wedge.": {
		"sv":    "Lägg i limeklyftan.",
		"pt-BR": "Adicione o gomo de limão."},
	"Blend rum, coconut cream and pineapple juice with a scoop of crushed ice until smooth.": {
		"sv":    "Mixa rom, kokosgrädde och ananasjuice med en skopa krossad is tills det är slätt.",
		"pt-BR": "Bata no liquidificador o rum, o creme de coco e o suco de abacaxi com uma porção de gelo picado até ficar cremoso."},
	"Pour into the glass.": {
		"sv":    "Häll upp i glaset.",
		"pt-BR": "Despeje no copo."},
	"Put every ingredient but the celery in a shaker with ice.": {
		"sv":    "Lägg alla ingredienser utom sellerin i en shaker med is.",
		"pt-BR": "Coloque todos os ingredientes, menos o salsão, numa coqueteleira com gelo."},
	"Roll it gently between two shakers (do not shake).": {
		"sv":    "Rulla den försiktigt mellan två shakers (skaka inte).",
		"pt-BR": "Passe o drinque suavemente de uma coqueteleira para outra (não bata)."},
	"Add the celery stick.": {
		"sv":    "Lägg i selleristjälken.",
		"pt-BR": "Adicione o talo de salsão."},
	"Pour the crème de cassis into a flute.": {
		"sv":    "Häll crème de cassis i ett champagneglas.",
		"pt-BR": "Coloque o crème de cassis numa taça flute."},
	"Top slowly with champagne.": {
		"sv":    "Toppa långsamt med champagne.",
		"pt-BR": "Complete devagar com champanhe."},
	"Roll it gently between two shakers.": {
		"sv":    "Rulla den försiktigt mellan två shakers.",
		"pt-BR": "Passe o drinque suavemente de uma coqueteleira para outra."},
	"Strain over fresh ice and add the celery stick.": {
		"sv":    "Sila över ny is och lägg i selleristjälken.",
		"pt-BR": "Coe sobre gelo novo e adicione o talo de salsão."},
	"Fill the glass with ice and ginger ale.": {
		"sv":    "Fyll glaset med is och ginger ale.",
		"pt-BR": "Encha o copo com gelo e ginger ale."},
	"Pour the grenadine in slowly; it sinks.": {
		"sv":    "Häll i grenadinen långsamt; den sjunker.",
		"pt-BR": "Despeje a grenadine devagar; ela desce para o fundo."},
	"Add the cherry.": {
		"sv":    "Lägg i körsbäret.",
		"pt-BR": "Adicione a cereja."},
	"Fill the glass with ice and cola.": {
		"sv":    "Fyll glaset med is och cola.",
		"pt-BR": "Encha o copo com gelo e cola."},
	"Pour the grenadine in slowly.": {
		"sv":    "Häll i grenadinen långsamt.",
		"pt-BR": "Despeje a grenadine devagar."},
	"Shake orange, pineapple and lemon juice with grenadine and ice.": {
		"sv":    "Skaka apelsin-, ananas- och citronjuice med grenadin och is.",
		"pt-BR": "Bata os sucos de laranja, abacaxi e limão-siciliano com grenadine e gelo."},
	"Blend coconut cream, pineapple juice and lime with a scoop of crushed ice until smooth.": {
		"sv":    "Mixa kokosgrädde, ananasjuice och lime med en skopa krossad is tills det är slätt.",
		"pt-BR": "Bata no liquidificador o creme de coco, o suco de abacaxi e o limão com uma porção de gelo picado até ficar cremoso."},
	"Add elderflower cordial, lime juice and the mint leaves.": {
		"sv":    "Tillsätt fläderblomssaft, limejuice och myntabladen.",
		"pt-BR": "Adicione o xarope de flor de sabugueiro, o suco de limão e as folhas de hortelã."},
	"Top with soda water and stir gently.": {
		"sv":    "Toppa med sodavatten och rör varsamt.",
		"pt-BR": "Complete com água com gás e mexa com cuidado."},
	"Fill the glass with ice and tonic water.": {
		"sv":    "Fyll glaset med is och tonic.",
		"pt-BR": "Encha o copo com gelo e água tônica."},
	"Pour the espresso slowly over the back of a spoon so it layers.": {
		"sv":    "Häll espresson långsamt över baksidan av en sked så att den lägger sig i ett lager.",
		"pt-BR": "Despeje o espresso devagar sobre as costas de uma colher para formar uma camada."},
	"Add the orange peel.": {
		"sv":    "Lägg i apelsinzesten.",
		"pt-BR": "Adicione a casca de laranja."},
}
