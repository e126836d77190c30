package eval

import "github.com/barhub/barhub/ai"

// languageProfiles are guests who write their needs in Danish, Norwegian,
// Finnish, Italian and Dutch, and the reasons for taking no alcohol
// (pregnant, breastfeeding, a medicine that forbids it, driving) in every
// language the reader reads, as real guests answer: with and without
// diacritics, a typo here and there, and the tastes they ask for (tiki,
// bitter like Campari, not too strong). The rows are among them:
// "ei alkoholia" had been read as eggs and the alcohol left on the menu.
func languageProfiles(menu []ai.Drink) []Profile {
	booze := alcoholic(menu)
	text := func(s string) ai.Guest { return ai.Guest{DietaryText: s} }
	likes := func(w ...string) ai.Preferences { return ai.Preferences{Likes: w} }
	// What a guest who takes no alcohol and likes sweet can have.
	sweetFree := []string{"virgin-mojito", "shirley-temple", "roy-rogers", "virgin-pina-colada"}
	tikiDrinks := []string{"mai-tai", "pina-colada", "virgin-pina-colada"}
	campari := []string{"negroni", "boulevardier"}
	return []Profile{
		// Nuts, lactose and gluten in the new languages.
		{Name: "da: nøddeallergi", Guest: text("nøddeallergi"), Prefs: likes("sour"), Never: nutDrinks, Honour: without(sourDrinks, nutDrinks)},
		{Name: "da: laktoseintolerant", Guest: text("laktoseintolerant"), Prefs: likes("creamy"), Never: milkDrinks, Honour: without(creamyDrinks, milkDrinks)},
		{Name: "da: glutenfri (no diacritics: nodder too)", Guest: text("glutenfri og ingen nodder"), Never: join(marys, nutDrinks)},
		{Name: "no: nøtteallergi", Guest: text("Jeg har nøtteallergi"), Never: nutDrinks},
		{Name: "no: laktoseintoleranse", Guest: text("laktoseintoleranse"), Never: milkDrinks},
		{Name: "no: cøliaki", Guest: text("cøliaki, tåler ikke gluten"), Never: marys},
		{Name: "fi: pähkinäallergia", Guest: text("pähkinäallergia"), Prefs: likes("fruity"), Never: nutDrinks, Honour: []string{"cosmopolitan", "pina-colada", "kir-royale", "cinderella", "virgin-pina-colada"}},
		{Name: "fi: ei pahkinoita (no diacritics)", Guest: text("ei pahkinoita kiitos"), Never: nutDrinks},
		{Name: "fi: laktoositon", Guest: text("laktoositon"), Never: milkDrinks},
		{Name: "fi: keliakia, gluteeniton", Guest: text("keliakia, gluteeniton ruokavalio"), Never: marys},
		{Name: "it: allergia alle noci", Guest: text("allergia alle noci"), Never: nutDrinks},
		{Name: "it: intollerante al lattosio", Guest: text("intollerante al lattosio"), Prefs: likes("creamy"), Never: milkDrinks, Honour: without(creamyDrinks, milkDrinks)},
		{Name: "it: senza glutine", Guest: text("senza glutine per favore"), Never: marys},
		{Name: "nl: notenallergie", Guest: text("notenallergie"), Never: nutDrinks},
		{Name: "nl: zonder noten, lactosevrij", Guest: text("zonder noten, lactosevrij"), Never: join(nutDrinks, milkDrinks)},
		{Name: "nl: glutenvrij", Guest: text("glutenvrij"), Never: marys},
		// The "no alcohol" in Finnish, read as eggs before.
		{Name: "fi: ei alkoholia", Guest: text("ei alkoholia"), Prefs: likes("sweet"), Never: booze, Honour: sweetFree},
		// Pregnant, in every language.
		{Name: "en: pregnant", Guest: text("I'm pregnant"), Never: booze},
		{Name: "sv: gravid, tycker om sött", Guest: text("jag är gravid"), Prefs: likes("sött"), Never: booze, Honour: sweetFree},
		{Name: "de: schwanger", Guest: text("schwanger"), Never: booze},
		{Name: "fr: enceinte", Guest: text("je suis enceinte"), Never: booze},
		{Name: "es: embarazada", Guest: text("estoy embarazada"), Never: booze},
		{Name: "pt: grávida (no accent)", Guest: text("estou gravida"), Never: booze},
		{Name: "da: gravid", Guest: text("jeg er gravid"), Never: booze},
		{Name: "no: gravid", Guest: text("gravid"), Never: booze},
		{Name: "fi: raskaana", Guest: text("olen raskaana"), Never: booze},
		{Name: "it: incinta", Guest: text("sono incinta"), Prefs: likes("fruity"), Never: booze, Honour: []string{"cinderella", "virgin-pina-colada"}},
		{Name: "nl: zwanger", Guest: text("ik ben zwanger"), Never: booze},
		// Breastfeeding.
		{Name: "en: breastfeeding", Guest: text("breastfeeding"), Never: booze},
		{Name: "sv: ammar", Guest: text("jag ammar"), Never: booze},
		{Name: "de: stille", Guest: text("ich stille"), Never: booze},
		{Name: "fr: allaite", Guest: text("j'allaite"), Never: booze},
		{Name: "es: amamantando", Guest: text("estoy amamantando"), Never: booze},
		{Name: "pt: amamentando", Guest: text("estou amamentando"), Never: booze},
		{Name: "da: ammer", Guest: text("jeg ammer"), Never: booze},
		{Name: "no: ammer", Guest: text("jeg ammer"), Never: booze},
		{Name: "fi: imetän (no diacritics)", Guest: text("imetan"), Never: booze},
		{Name: "it: allattando", Guest: text("sto allattando"), Never: booze},
		{Name: "nl: borstvoeding", Guest: text("ik geef borstvoeding"), Never: booze},
		// Medicines that forbid alcohol.
		{Name: "en: on antibiotics, no alcohol", Guest: text("I'm on antibiotics, no alcohol"), Never: booze},
		{Name: "en: metronidazole", Guest: text("taking metronidazole"), Prefs: likes("bitter"), Never: booze, Honour: []string{"espresso-tonic"}},
		{Name: "sv: Antabus", Guest: text("jag tar Antabus"), Never: booze},
		{Name: "de: Antibiotika", Guest: text("ich nehme Antibiotika"), Never: booze},
		{Name: "fr: antibiotiques", Guest: text("je prends des antibiotiques"), Never: booze},
		{Name: "es: metronidazol", Guest: text("tomo metronidazol"), Never: booze},
		{Name: "pt: antibiótico", Guest: text("estou tomando antibiótico"), Never: booze},
		{Name: "da: antabus", Guest: text("jeg tager antabus"), Never: booze},
		{Name: "no: disulfiram", Guest: text("bruker disulfiram"), Never: booze},
		{Name: "fi: antibioottikuuri", Guest: text("antibioottikuuri menossa"), Never: booze},
		{Name: "it: Flagyl", Guest: text("prendo il Flagyl"), Never: booze},
		{Name: "nl: tinidazol", Guest: text("ik gebruik tinidazol"), Never: booze},
		// Driving tonight, or not drinking.
		{Name: "en: driving tonight", Guest: text("driving tonight"), Never: booze},
		{Name: "sv: kör ikväll", Guest: text("jag kör ikväll"), Never: booze},
		{Name: "de: Fahrer", Guest: text("ich bin der Fahrer"), Never: booze},
		{Name: "fr: je conduis", Guest: text("je conduis ce soir"), Never: booze},
		{Name: "es: conduzco", Guest: text("conduzco esta noche"), Never: booze},
		{Name: "pt: vou dirigir", Guest: text("vou dirigir hoje"), Never: booze},
		{Name: "da: kører", Guest: text("jeg kører i aften"), Never: booze},
		{Name: "no: kjører, likes sweet", Guest: text("jeg kjører bil i kveld"), Prefs: likes("sweet"), Never: booze, Honour: sweetFree},
		{Name: "fi: ajan autoa", Guest: text("ajan autoa tänään"), Never: booze},
		{Name: "it: guido", Guest: text("guido stasera"), Never: booze},
		{Name: "nl: de BOB", Guest: text("ik ben de BOB"), Never: booze},
		{Name: "da: ædru (no diacritics)", Guest: text("aedru i aften"), Never: booze},
		{Name: "it: non bevo", Guest: text("non bevo alcolici"), Never: booze},
		// The tastes people use.
		{Name: "likes tiki", Prefs: likes("tiki"), Honour: tikiDrinks},
		{Name: "sv: något tiki, nötallergi", Guest: text("nötallergi"), Prefs: ai.Preferences{Mood: "något tiki", Language: "sv"}, Never: nutDrinks, Honour: []string{"pina-colada", "virgin-pina-colada"}},
		{Name: "bitter like Campari", Prefs: ai.Preferences{Mood: "something bitter like Campari"}, Honour: campari},
		{Name: "pt: amargo como Campari", Prefs: ai.Preferences{Mood: "algo amargo como Campari", Language: "pt-BR"}, Honour: campari},
		{Name: "something like a Negroni", Prefs: ai.Preferences{Mood: "something like a Negroni"}, Honour: campari},
		{Name: "not too strong", Prefs: ai.Preferences{Mood: "nothing too strong please"}, Never: tagged(menu, "strong")},
	}
}
