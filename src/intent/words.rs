//! The words the reader knows: one table per concept, one line per language, every entry
//! written in folded form (see `crate::fold`): lower case ASCII, no accents, words
//! separated by one space, French elisions spelled out ("ne oublie pas"), hyphens as spaces
//! ("force push" reads "force-push" and "--force" reads "force").
//!
//! A phrase matches whole words in a row within one clause; where several entries start at
//! the same word, the longest wins, so "don't forget" (not a hold) wins over "don't", and
//! "force push" (a force-push) wins over "push". All seven lines of a table apply to every
//! message: the reader does not guess the language, so a word that is English for something
//! else is left out of the other languages' lines or narrowed to a phrase (French
//! "accessible", "programme" and "ignore", Portuguese "agenda", Spanish "quite", English
//! "release notes").
//!
//! German words with an umlaut are written twice, folded (`losche`) and as typed without
//! umlauts (`loesche`): fold keeps `oe` because French and Dutch need it ("doe", "goed").

use crate::wish::Act;

/// The seven languages the reader knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    En,
    De,
    Fr,
    Es,
    Pt,
    It,
    Nl,
}

impl Lang {
    /// Every language, in the order each table lists them.
    pub const ALL: [Lang; 7] = [
        Lang::En,
        Lang::De,
        Lang::Fr,
        Lang::Es,
        Lang::Pt,
        Lang::It,
        Lang::Nl,
    ];
}

/// One concept's words: one line per language, in [`Lang::ALL`] order.
pub type Table = &'static [(Lang, &'static [&'static str])];

/// Orders two words as `str`'s `Ord` does, comparing their bytes in place: a binary search
/// of a word list decides most steps at the first byte or two, which costs less than the call
/// to `memcmp` that `Ord` makes for each step.
#[inline]
pub fn cmp_word(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// Is `word` in `words` (sorted)? A binary search by [`cmp_word`].
#[inline]
pub fn is_listed(words: &[&str], word: &str) -> bool {
    words.binary_search_by(|w| cmp_word(w, word)).is_ok()
}

use Lang::{De, En, Es, Fr, It, Nl, Pt};

// ---------------------------------------------------------------------------------------
// How a message is cut and what holds
// ---------------------------------------------------------------------------------------

/// Idioms whose "not" governs something else: blanked before anything else is read.
#[rustfmt::skip]
pub const NOT_A_HOLD: Table = &[
    (En, &["can't you just", "cant you just", "couldn't you just", "do not forget", "do not forget about", "do not hesitate", "do not mind", "do not push back", "do not wait for me", "don't ask", "don't bother asking", "don't forget", "don't forget about", "don't have to wait for me", "don't hesitate", "don't mind", "don't need my", "don't need to ask", "don't need to wait", "don't push back", "don't wait for me", "don't wait on me", "don't worry", "dont ask", "dont forget", "dont forget about", "dont hesitate", "dont mind", "dont push back", "dont wait for me", "dont worry", "got my approval", "got my ok", "have my approval", "have my blessing", "have my go ahead", "have my ok", "have my okay", "let me know", "never forget", "never mind", "nevermind", "no doubt", "no hurry", "no matter", "no need for my", "no need to ask", "no need to check with me", "no need to wait", "no need to wait for me", "no pressure", "no problem", "no questions asked", "no reason not to", "no rush", "no worries", "not a problem", "not just", "not only", "why don't you", "why dont you", "why not", "with my blessing", "with my ok", "without asking", "without asking me", "without checking with me", "without waiting for me", "wouldn't mind", "wouldnt mind", "you don't have to wait"]),
    (De, &["am morgen", "brauchst mich nicht fragen", "brauchst mich nicht zu fragen", "brauchst nicht fragen", "brauchst nicht zu fragen", "du musst mich nicht fragen", "du musst nicht fragen", "egal", "frag mich nicht", "frag nicht", "guten morgen", "hast mein ok", "hast meine freigabe", "heute morgen", "jeden morgen", "kannst du nicht einfach", "kein grund es nicht zu", "kein problem", "keine eile", "keine sorge", "keine sorgen", "mach dir keine sorgen", "mit meinem ok", "nicht nachfragen", "nicht nur", "nicht vergessen", "nicht zoegern", "nicht zogern", "nichts dagegen", "ohne mich zu fragen", "ohne nachzufragen", "ohne zu fragen", "vergesst nicht", "vergiss nicht", "warte nicht auf mich", "wartet nicht auf mich", "warum nicht", "zoegere nicht", "zogere nicht"]),
    (Fr, &["aucune raison de ne pas", "avec mon accord", "hesite pas", "laisse tomber", "me attends pas", "ne hesite pas", "ne hesitez pas", "ne me attendez pas", "ne me attends pas", "ne me demande pas", "ne me derange pas", "ne oublie pas", "ne oubliez pas", "ne te en fais pas", "ne te inquiete pas", "ne vous en faites pas", "ne vous inquietez pas", "non seulement", "oublie pas", "pas besoin de demander", "pas besoin de me demander", "pas de probleme", "pas de souci", "pas de soucis", "pas de urgence", "pas la peine de demander", "pas presse", "pas seulement", "pourquoi pas", "sans demander", "sans me demander", "te en fais pas", "te inquiete pas", "tu as mon accord", "tu as mon feu vert", "tu as mon ok", "tu ne peux pas juste", "tu peux pas juste"]),
    (Es, &["con mi permiso", "da igual", "de la manana", "esperaria que", "esta manana", "no dudes", "no esperes por mi", "no hace falta preguntar", "no hace falta que preguntes", "no hay prisa", "no hay problema", "no hay razon para no", "no importa", "no mas", "no me esperes", "no me importa", "no me molesta", "no me preguntes", "no necesitas preguntar", "no necesitas preguntarme", "no olvides", "no puedes simplemente", "no solamente", "no solo", "no te olvides", "no te preocupes", "por la manana", "por que no", "sin preguntar", "sin preguntarme", "sin problema", "tienes mi ok", "tienes mi permiso", "tienes mi visto bueno"]),
    (Pt, &["de manha", "deixa pra la", "esperaria que", "esta manha", "nao apenas", "nao espere por mim", "nao esperes por mim", "nao esqueca", "nao esquecas", "nao esquece", "nao ha razao para nao", "nao hesite", "nao hesites", "nao importa", "nao me espere", "nao me importo", "nao me incomoda", "nao me pergunte", "nao pode so", "nao podes so", "nao precisa me perguntar", "nao precisa perguntar", "nao precisa se preocupar", "nao precisas de perguntar", "nao se esqueca", "nao se esquecam", "nao se preocupe", "nao so", "nao te esquecas", "nao te preocupes", "pela manha", "por que nao", "porque nao", "sem me perguntar", "sem perguntar", "sem pressa", "sem problema", "tem meu aval", "tem meu ok", "tem minha aprovacao"]),
    (It, &["hai il mio ok", "hai il mio via libera", "hai la mia approvazione", "lascia perdere", "nessun motivo per non", "nessun problema", "nessuna fretta", "non aspettarmi", "non ce e bisogno di chiedere", "non ce e bisogno di chiedermi", "non chiedermi", "non dimenticare", "non dimenticarti", "non esitare", "non importa", "non mi aspettare", "non mi dispiace", "non mi importa", "non preoccuparti", "non puoi semplicemente", "non scordarti", "non serve chiedere", "non serve chiedermi", "non solo", "non ti preoccupare", "perche no", "perche non", "senza chiedere", "senza chiedermi"]),
    (Nl, &["aarzel niet", "geen haast", "geen probleem", "geen reden om niet", "geen zorgen", "heb je mijn ok", "hebt mijn akkoord", "hebt mijn ok", "hoeft niet te vragen", "je hoeft het niet te vragen", "je hoeft niet te vragen", "kan je niet gewoon", "kun je niet gewoon", "laat maar", "maak je geen zorgen", "maakt niet uit", "morgen vroeg", "niet alleen", "niet erg", "niet vergeten", "vergeet niet", "vraag het niet", "waarom niet", "wacht niet op me", "wacht niet op mij", "zonder het te vragen", "zonder te vragen"]),
];

/// A "not": holds the act it comes before, within seven words of the act's own clause.
#[rustfmt::skip]
pub const NEGATION: Table = &[
    (En, &["can't", "cannot", "cant", "didn't", "didnt", "do not", "doesn't", "doesnt", "don't", "dont", "forget about", "hands off", "keep away from", "mustn't", "nah", "neither", "never", "no", "nobody", "none", "nope", "nor", "not", "not so", "not so fast", "nothing", "shouldn't", "shouldnt", "stay away from", "steer clear of", "without", "won't", "wont"]),
    (De, &["auf keinen fall", "bloss nicht", "doch nicht", "finger weg", "halt dich fern", "halte dich fern", "kein", "keine", "keinem", "keinen", "keiner", "keines", "keinesfalls", "lieber nicht", "nein", "nicht", "nicht so schnell", "nichts", "nie", "niemals", "niemand", "niemandem", "niemanden", "nix", "ohne", "weder"]),
    (Fr, &["aucun", "aucune", "finalement non", "jamais", "ne", "ni", "non", "non finalement", "pas", "pas si vite", "pas touche", "rien", "sans", "surtout pas"]),
    (Es, &["calma con", "jamas", "mantente alejado de", "mantente alejado del", "mejor no", "nada", "nadie", "ni", "ningun", "ninguna", "ninguno", "no", "no tan rapido", "no te acerques a", "nunca", "para nada", "sin", "tampoco"]),
    (Pt, &["calma com", "de forma alguma", "de jeito nenhum", "de maneira alguma", "de modo algum", "em hipotese alguma", "fica longe da", "fica longe de", "fica longe do", "fica longe dos", "fique longe da", "fique longe de", "fique longe do", "fique longe dos", "jamais", "melhor nao", "nada", "nao", "nao tao rapido", "nem", "nenhum", "nenhuma", "ninguem", "nunca", "sem"]),
    (It, &["calma con", "giu le mani", "guai", "mai", "meglio di no", "meglio no", "ne", "nessun", "nessuna", "nessuno", "niente", "no", "non", "non cosi in fretta", "nulla", "per niente", "piano con", "senza", "stai alla larga da", "stai alla larga dal", "stai alla larga dalla", "stai lontano da", "stai lontano dal", "stai lontano dalla"]),
    (Nl, &["blijf af", "blijf uit de buurt van", "blijf van", "blijf weg van", "geen", "handen af", "liever niet", "nee", "niemand", "niet", "niet zo snel", "niets", "niks", "nooit", "toch niet", "zonder"]),
];

/// A "not" that can be its verb's object, "nothing": after a verb in its clause it holds
/// only that verb, not one after an "and" ("mach nichts kaputt und push", like "don't break
/// anything and push", holds only the breaking; "nichts committen und pushen" holds both).
#[rustfmt::skip]
pub const NOTHING: Table = &[
    (En, &["nothing"]),
    (De, &["nichts", "nix"]),
    (Fr, &["rien"]),
    (Es, &["nada"]),
    (Pt, &["nada"]),
    (It, &["niente", "nulla"]),
    (Nl, &["niets", "niks"]),
];

/// A wish to keep something as it is: over what an act would move or throw away, said at the
/// end of its clause ("keep it local", "keep my local changes", "behalte es vorerst lokal",
/// "garde mes modifications locales"), it holds that act ([`KEPT`]).
#[rustfmt::skip]
pub const KEEP: Table = &[
    (En, &["keep", "kept", "leave", "preserve", "remain", "remains", "stay", "stays"]),
    (De, &["behalte", "behalten", "behaltet", "bewahre", "bleib", "bleibe", "bleiben", "bleibt", "lass"]),
    (Fr, &["conserve", "conserver", "garde", "garder", "gardez", "laisse", "reste", "restent", "rester"]),
    (Es, &["conserva", "conservar", "deja", "deje", "manten", "mantener", "mantenlo", "mantenlos", "queda", "quedan", "quede", "se queda", "se quedan"]),
    (Pt, &["conserva", "conservar", "deixa", "deixe", "fica", "ficam", "ficar", "fique", "mantem", "mantenha", "manter"]),
    (It, &["conserva", "conservare", "lascia", "lascia stare", "mantieni", "resta", "restano", "restare", "rimane", "rimanere", "tieni", "tienile", "tienili", "tienilo"]),
    (Nl, &["behoud", "behouden", "bewaar", "bewaren", "blijft", "blijven", "hou", "houd", "houden", "laat"]),
];

/// Words that may follow what [`KEEP`] keeps, to the end of its clause: when ("keep it local
/// for now", "houd het lokaal tot morgen").
#[rustfmt::skip]
pub const KEEP_TAIL: Table = &[
    (En, &["for now", "for the moment", "for the time being", "this week", "today", "tonight", "until", "until further notice"]),
    (De, &["bis", "diese woche", "fuer jetzt", "fur jetzt", "heute", "heute abend", "vorerst", "vorlaeufig", "vorlaufig", "zunachst", "zunaechst"]),
    (Fr, &["aujourd hui", "ce soir", "cette semaine", "jusque", "pour le instant", "pour le moment"]),
    (Es, &["esta noche", "esta semana", "hasta", "hoy", "por ahora", "por el momento"]),
    (Pt, &["ate", "essa semana", "esta semana", "hoje", "hoje a noite", "por agora", "por enquanto", "por ora"]),
    (It, &["fino a", "oggi", "per il momento", "per ora", "questa settimana", "stasera"]),
    (Nl, &["deze week", "tot", "vanavond", "vandaag", "voor nu", "voorlopig"]),
];

/// A wait said after the act, its subject ("the push can wait", "mit dem Push warten wir",
/// "le push attendra", "de push kan wachten"): within four words after it, in its clause, it
/// holds it.
#[rustfmt::skip]
pub const WAIT_AFTER: Table = &[
    (En, &["can wait", "for later", "must wait", "should wait", "will wait"]),
    (De, &["auf spaeter", "auf spater", "eilt nicht", "hat noch zeit", "hat zeit", "kann warten", "muss warten", "noch warten", "schieben wir auf", "soll warten", "verschieben wir", "warten wir"]),
    (Fr, &["attendra", "doit attendre", "peut attendre", "pour plus tard"]),
    (Es, &["debe esperar", "esperara", "para despues", "para mas tarde", "puede esperar", "tiene que esperar"]),
    (Pt, &["deve esperar", "esperara", "para depois", "para mais tarde", "pode esperar", "tem que esperar"]),
    (It, &["a dopo", "a piu tardi", "aspettera", "deve aspettare", "per dopo", "puo aspettare"]),
    (Nl, &["kan wachten", "moet wachten", "tot later", "voor later", "wachten we"]),
];

/// Out of what is being done, after a [`KEEP`] and the thing kept out ("keep cron out of
/// this", "lass cron da raus", "laisse cron en dehors de ça", "deja cron fuera de esto",
/// "deixa o cron fora disso", "laat cron erbuiten"), or between them ("lascia fuori cron",
/// "leave out the migration"): the thing's act is held.
#[rustfmt::skip]
pub const OUT: Table = &[
    (En, &["out", "out of it", "out of that", "out of this"]),
    (De, &["aussen vor", "da raus", "draussen", "raus"]),
    (Fr, &["de cote", "en dehors", "en dehors de ca", "en dehors de cela"]),
    (Es, &["afuera", "al margen", "fuera", "fuera de esto"]),
    (Pt, &["de fora", "fora", "fora disso"]),
    (It, &["da parte", "fuori", "fuori da questo"]),
    (Nl, &["buiten", "buiten beschouwing", "erbuiten"]),
];

/// "Only", next to the act ("only push once CI is green", "push erst, wenn …", "restart
/// api only if the check fails"): with a [`CONDITION`] after it in the sentence, the act
/// waits on something warden can't see, and is held.
#[rustfmt::skip]
pub const ONLY: Table = &[
    (En, &["only"]),
    (De, &["erst", "nur"]),
    (Fr, &["seulement", "uniquement"]),
    (Es, &["solamente", "solo", "unicamente"]),
    (Pt, &["apenas", "so", "somente"]),
    (It, &["solo", "soltanto", "unicamente"]),
    (Nl, &["alleen", "pas"]),
];

/// What a condition starts with, after an [`ONLY`]: when, if, once, after.
#[rustfmt::skip]
pub const CONDITION: Table = &[
    (En, &["after", "as soon as", "if", "once", "until", "when"]),
    (De, &["falls", "nachdem", "sobald", "wenn"]),
    (Fr, &["apres", "lorsque", "quand", "si", "une fois"]),
    (Es, &["cuando", "despues", "en cuanto", "si", "una vez"]),
    (Pt, &["assim que", "depois", "quando", "se", "uma vez"]),
    (It, &["appena", "dopo", "quando", "se", "una volta"]),
    (Nl, &["als", "nadat", "wanneer", "zodra"]),
];

/// Telling or letting someone know ("tell Alice the build is green", "sag Alice", "dis à
/// Alice", "avise a Alice"): a send, but for the person ("tell me", "sag mir", "dis-moi",
/// "me avise" are the agent's answer to them, `lexicon::tells`).
#[rustfmt::skip]
pub const TELL: Table = &[
    (En, &["notify", "notifying", "ping", "tell", "telling"]),
    (De, &["benachrichtige", "benachrichtigen", "bescheid", "informiere", "informieren", "sag", "sage"]),
    (Fr, &["dis", "dites", "fais lui savoir", "fais savoir", "faites lui savoir", "faites savoir", "informe", "informez", "prevenez", "previens"]),
    (Es, &["avisa", "avisale", "dile", "diles", "haz saber", "hazle saber", "hazles saber", "informa", "informale"]),
    (Pt, &["avisa", "avise", "diga", "diz", "faca saber", "facam saber", "informa", "informe"]),
    (It, &["avvisa", "digli", "dille", "fagli sapere", "fai sapere", "falle sapere", "fate sapere", "informa"]),
    (Nl, &["informeer", "meld", "zeg"]),
];

/// Adding, as the person says it of a package ("add left-pad with npm", "ajoute la
/// dépendance left-pad"): an install only where its clause names a package manager
/// ([`MANAGERS`]) or a dependency (the install nouns); "add a test" installs nothing.
#[rustfmt::skip]
pub const ADD: Table = &[
    (En, &["add", "adding"]),
    (De, &["fueg", "fuege", "fug", "fuge", "hinzufuegen", "hinzufugen"]),
    (Fr, &["ajoute", "ajouter", "ajoutez", "rajoute"]),
    (Es, &["agrega", "agregar", "anada", "anade", "anadelo", "anadir"]),
    (Pt, &["acrescenta", "acrescente", "adiciona", "adicionar", "adicione"]),
    (It, &["aggiungere", "aggiungi", "aggiungilo"]),
    (Nl, &["toevoegen", "voeg", "voegt"]),
];

/// Package managers by name, in any language: what an [`ADD`] in their clause installs
/// with. Not `go`, which is a verb first.
#[rustfmt::skip]
pub const MANAGERS: Table = &[
    (En, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (De, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (Fr, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (Es, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (Pt, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (It, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
    (Nl, &["apt", "brew", "bun", "cargo", "composer", "conda", "gem", "npm", "pip", "pipx", "pnpm", "poetry", "uv", "yarn"]),
];

/// A "not" just after the act, as German, Dutch and French say it ("push es nicht",
/// "push nog niet", "pousse pas"): holds within four words of the act, in its clause.
/// English has none after an imperative ("delete the branches not merged" is about the
/// branches), and Spanish, Portuguese and Italian say theirs at the end (`NOT_LAST`).
/// "Myself" and "selbst" right after the act hold it too: "I'll push it myself", "ik push
/// zelf", and the subject said after the verb, as Spanish, Portuguese and Italian put it
/// ("lo pusheo yo", "faço eu o push", "lo pusho io"): the person does it.
#[rustfmt::skip]
pub const NOT_AFTER: Table = &[
    (En, &["myself", "nothing", "off the table", "out of the question"]),
    (De, &["auf keinen fall", "bloss nicht", "kein", "keine", "keinem", "keinen", "keiner", "keinesfalls", "nicht", "nichts", "nie", "niemals", "niemandem", "niemanden", "nix", "selber", "selbst"]),
    (Fr, &["aucun", "aucune", "jamais", "moi meme", "pas", "rien", "surtout pas"]),
    (Es, &["jamas", "nunca", "yo", "yo misma", "yo mismo"]),
    (Pt, &["eu", "eu mesma", "eu mesmo", "jamais", "nunca"]),
    (It, &["io", "io stessa", "io stesso", "mai", "niente", "nulla"]),
    (Nl, &["geen", "niemand", "niet", "niets", "niks", "nooit", "zelf"]),
];

/// A "no" that holds the act only when it ends the act's clause, within four words
/// ("commit sim, push não", "súbelo no"): before another word it is about that word
/// ("limpa os arquivos não rastreados", "nettoie les fichiers non suivis").
#[rustfmt::skip]
pub const NOT_LAST: Table = &[
    (En, &["no", "not"]),
    (De, &["nein", "nicht"]),
    (Fr, &["non", "pas"]),
    (Es, &["no"]),
    (Pt, &["nao"]),
    (It, &["no", "non"]),
    (Nl, &["nee", "niet"]),
];

/// Not yet: a "not" before or after the act, and on its own in a clause ("push it, but
/// not yet") it holds every act of the sentence.
#[rustfmt::skip]
pub const NOT_YET: Table = &[
    (En, &["i would wait", "later", "next week", "not for now", "not just yet", "not now", "not right now", "not today", "not yet", "tomorrow", "would wait"]),
    (De, &["erst spaeter", "erst spater", "heute nicht", "jetzt nicht", "morgen", "nachste woche", "naechste woche", "nicht heute", "nicht jetzt", "noch nicht", "noch nichts", "spaeter", "spater", "vorerst nicht", "wuerde ich noch warten", "wuerde ich warten", "wurde ich noch warten", "wurde ich warten"]),
    (Fr, &["demain", "la semaine prochaine", "pas aujourd hui", "pas encore", "pas maintenant", "pas pour le instant", "pas pour le moment", "pas tout de suite", "plus tard"]),
    (Es, &["ahora no", "aun no", "de momento no", "esperaria", "hoy no", "la proxima semana", "la semana que viene", "manana", "mas tarde", "por ahora no", "todavia no"]),
    (Pt, &["agora nao", "ainda nao", "amanha", "esperaria", "hoje nao", "mais tarde", "na proxima semana", "por agora nao", "por enquanto nao", "semana que vem"]),
    (It, &["adesso no", "ancora no", "aspetterei", "domani", "la prossima settimana", "la settimana prossima", "non adesso", "non ancora", "non oggi", "non ora", "oggi no", "ora no", "per ora no", "piu tardi"]),
    (Nl, &["later", "morgen", "niet nu", "niet vandaag", "nog niet", "nog niets", "nu niet", "straks", "vandaag niet", "volgende week", "voorlopig niet", "zou ik nog wachten", "zou ik wachten"]),
];

/// A wait word: holds the act it stands over ("wait before deploying", "hold off on the
/// deploy", "skip the push", "leave the push to me").
#[rustfmt::skip]
pub const WAIT: Table = &[
    (En, &["abort", "avoid", "cancel", "delay", "hang on", "hold", "hold back", "hold back on", "hold off", "hold off on", "leave", "pause", "postpone", "put off", "refrain from", "skip", "stop", "wait", "wait on", "wait with"]),
    (De, &["abbrechen", "aufschieben", "hoer auf", "hoert auf", "hor auf", "hort auf", "lass das", "pausiere", "stopp", "uberspring", "uberspringe", "ueberspring", "ueberspringe", "vermeide", "vermeiden", "verschieb", "verschiebe", "verschieben", "verschiebt", "verzichte auf", "warte", "warte mit", "warten", "wartet", "wartet mit"]),
    (Fr, &["annule", "annuler", "arrete", "arretez", "attendez", "attendre", "attends", "evite", "eviter", "evitez", "laisse", "patiente", "remets a plus tard", "reporte", "reporter", "reportez", "reportons", "repousse", "retarde", "saute", "suspends"]),
    (Es, &["aborta", "aguanta", "aplaza", "aplazamos", "aplazar", "cancela", "deja", "deje", "deten", "detente", "espera", "esperar", "esperate", "espere", "evita", "evitar", "evites", "omite", "pospon", "posponemos", "posponer", "salta", "saltate"]),
    (Pt, &["aborta", "adia", "adiamos", "adiar", "adie", "aguarda", "aguarde", "cancela", "deixa", "deixe", "espera", "esperar", "espere", "evita", "evitar", "evite", "pera", "pula", "pule", "segura"]),
    (It, &["annulla", "aspetta", "aspettare", "aspettate", "evita", "evitare", "ferma", "fermati", "interrompi", "lascia", "posticipa", "posticipare", "posticipiamo", "rimanda", "rimandare", "rimandiamo", "salta", "sospendi"]),
    (Nl, &["annuleer", "overslaan", "sla over", "stel uit", "stop", "uitstellen", "vermijd", "vermijden", "wacht", "wacht met", "wachten"]),
];

/// The act waits on the person's say, or is theirs to do or forbidden ("pushing is my job",
/// "push to main is forbidden today", "das Pushen ist verboten", "está prohibido hacer
/// push"): anywhere in the sentence, it holds.
#[rustfmt::skip]
pub const ON_THEIR_SAY: Table = &[
    (En, &["after i", "after i review", "after i've", "after my review", "ask me", "ask me first", "banned", "before i", "before i've", "by me", "check with me", "forbidden", "i will do it", "i'll do it", "i'll do it myself", "i'll handle", "i'll handle it", "is my job", "is up to me", "leave it to me", "leave that to me", "let me", "my approval", "my go", "my go ahead", "my ok", "my okay", "my review", "my say so", "my sign off", "my signoff", "not allowed", "not permitted", "off limits", "once i", "once i've", "prohibited", "run it by me", "run this by me", "talk to me", "til i", "till i", "too early", "too soon", "until i", "until i've", "until it's reviewed", "until reviewed", "until the review", "wait for me", "wait for my", "when i say", "when i tell you"]),
    (De, &["bevor ich", "bis ich", "durch mich", "frag mich", "frag mich vorher", "frag mich zuerst", "frage mich", "fragt mich", "ich mach das", "ich mache das", "ich selbst", "lass mich", "mach ich", "mach ich selbst", "mache ich", "mache ich selbst", "mein go", "mein ok", "mein okay", "mein review", "meine aufgabe", "meine freigabe", "meine sache", "meinem ok", "meinem review", "meiner durchsicht", "meiner freigabe", "nach meinem ok", "nachdem ich", "nicht erlaubt", "nicht gestattet", "rede mit mir", "sobald ich", "sprich mit mir", "ubernehme ich", "uebernehme ich", "untersagt", "verboten", "warte auf mein", "warte auf mich", "wartet auf mich", "wenn ich bescheid gebe", "wenn ich es sage", "zu frueh", "zu fruh"]),
    (Fr, &["apres que je", "attendez moi", "attends moi", "avant que je", "defendu", "demande moi", "demandez moi", "des que je", "interdit", "je le fais", "je le ferai", "je me en occupe", "je vais le faire", "jusque a ce que je", "laisse moi", "laissez moi", "ma relecture", "ma review", "ma revue", "ma validation", "moi meme", "mon accord", "mon aval", "mon boulot", "mon feu vert", "mon go", "mon ok", "mon travail", "non autorise", "par moi", "pas autorise", "proscrit", "quand je dirai", "quand je le dirai", "quand je le dis", "quand je te dirai", "quand je te dis", "quand je te le dirai", "quand je te le dis", "quand je vous dirai", "quand je vous le dirai", "tant que je", "trop tot", "une fois que je", "voir avec moi"]),
    (Es, &["a que lo revise", "antes de que lo revise", "antes de que yo", "antes que yo", "consultalo conmigo", "consultame", "cuando lo revise", "cuando te diga", "cuando te lo diga", "cuando yo diga", "cuando yo lo diga", "cuando yo te diga", "cuando yo te lo diga", "dejame", "dejamelo", "dejamelo a mi", "demasiado pronto", "despues de que lo revise", "despues de que yo", "en cuanto lo revise", "esperame", "hago yo", "hasta que diga", "hasta que lo revise", "hasta que lo vea", "hasta que te diga", "hasta que te lo diga", "hasta que yo", "lo hago yo", "me encargo yo", "mi aprobacion", "mi ok", "mi permiso", "mi revision", "mi trabajo", "mi visto bueno", "no esta permitido", "no permitido", "por mi", "preguntame", "preguntame antes", "preguntame primero", "prohibido", "que lo revise", "que lo vea", "que yo lo revise", "una vez que lo revise", "vetado", "yo hare", "yo lo hago", "yo lo hare", "yo mismo"]),
    (Pt, &["antes de eu", "antes que eu", "assim que eu", "ate eu", "ate que eu", "cedo demais", "cuido eu", "deixa comigo", "deixa eu", "deixa que eu", "depois que eu", "eu cuido", "eu faco", "eu mesma", "eu mesmo", "eu revisar", "faco eu", "fala comigo", "me consulta", "me consulte", "me espera", "me espere", "me pergunta", "me pergunte", "meu aval", "meu ok", "meu sinal", "meu trabalho", "minha aprovacao", "minha revisao", "muito cedo", "nao e permitido", "nao permitido", "pergunta me", "pergunte me", "por mim", "proibido", "quando eu disser", "quando eu falar", "quando eu mandar", "quando eu te disser", "que eu revise", "vetado"]),
    (It, &["appena io", "aspettami", "che io controlli", "che io veda", "chiedimi", "chiedimi prima", "ci penso io", "da me", "dopo che ho", "dopo che io", "faccio io", "finche io", "finche non dico", "finche non lo dico", "finche non te lo dico", "fino a quando io", "il mio lavoro", "il mio ok", "il mio via libera", "io stesso", "la mia approvazione", "lascia fare a me", "lasciami", "lo faccio io", "mia approvazione", "mia review", "mia revisione", "mio ok", "mio via libera", "non consentito", "non e permesso", "parlane con me", "prima che io", "prima che lo controlli", "prima che lo veda", "proibito", "quando dico io", "quando lo dico io", "quando te lo dico", "quando te lo diro", "sentimi", "troppo presto", "una volta che io", "vietato"]),
    (Nl, &["als ik het zeg", "doe ik wel", "doe ik zelf", "door me", "door mij", "ik doe het", "ik doe het zelf", "ik zelf", "laat me", "laat mij", "mijn akkoord", "mijn controle", "mijn go", "mijn goedkeuring", "mijn ok", "mijn review", "mijn taak", "mijn werk", "nadat ik", "niet toegelaten", "niet toegestaan", "overleg met me", "overleg met mij", "te vroeg", "tot ik", "totdat ik", "verboden", "voordat ik", "vraag het me", "vraag het mij", "vraag me", "vraag mij", "wacht op me", "wacht op mij", "wanneer ik", "zodra ik"]),
];

/// A short sentence that takes back the one before it ("Push it. No, wait.").
#[rustfmt::skip]
pub const TAKEN_BACK: Table = &[
    (En, &["belay that", "cancel", "cancel that", "forget it", "forget that", "hold on", "never mind", "nevermind", "not so fast", "on second thought", "scratch that"]),
    (De, &["abbrechen", "doch nicht", "halt", "lass es", "lass gut sein", "lieber nicht", "moment", "vergiss das", "vergiss es"]),
    (Fr, &["annule", "finalement non", "laisse tomber", "minute", "non finalement", "oublie", "oublie ca", "stop"]),
    (Es, &["alto", "cancela", "dejalo", "mejor no", "no importa", "olvida eso", "olvidalo", "para"]),
    (Pt, &["cancela", "deixa para la", "deixa pra la", "esquece", "esquece isso", "melhor nao", "nao importa", "para"]),
    (It, &["annulla", "dimentica", "dimenticalo", "fermo", "lascia perdere", "lascia stare", "meglio di no", "meglio no", "non importa"]),
    (Nl, &["annuleer", "laat maar", "laat maar zitten", "liever niet", "toch niet", "vergeet dat", "vergeet het"]),
];

/// Words that change nothing at the start of a taking-back sentence, or around a bare
/// "not yet" ("No, wait.", "Sorry, not yet please.").
#[rustfmt::skip]
pub const FILLER: Table = &[
    (En, &["absolutely", "actually", "ah", "certainly", "definitely", "hmm", "nah", "no", "nope", "oh", "oops", "please", "pls", "really", "sorry", "uh", "um"]),
    (De, &["ach", "bitte", "definitiv", "eigentlich", "hm", "nein", "oh", "sorry", "ups", "wirklich"]),
    (Fr, &["absolument", "ah", "en fait", "euh", "finalement", "non", "oh", "oups", "pardon", "se il te plait", "se il vous plait", "stp", "svp", "vraiment"]),
    (Es, &["ah", "eh", "mejor", "no", "oh", "perdon", "por favor", "ups"]),
    (Pt, &["ah", "alias", "desculpa", "mas", "nao", "oh", "opa", "pfv", "por favor"]),
    (It, &["ah", "anzi", "assolutamente", "no", "oh", "ops", "per favore", "scusa"]),
    (Nl, &["absoluut", "ah", "alsjeblieft", "echt", "eigenlijk", "graag", "nee", "oeps", "oh", "sorry"]),
];

/// "But", "then", "so": a "not" stops here. Portuguese "mas" and Dutch "dan" are left out
/// because they are also Spanish "more" and Dutch "than" ("no hagas mas push"): a missing
/// boundary can only make a reading hold, never ask.
#[rustfmt::skip]
pub const BOUNDARY: Table = &[
    (En, &["afterwards", "although", "but", "however", "so", "then", "though"]),
    (De, &["aber", "allerdings", "anschliessend", "daher", "danach", "dann", "deshalb", "jedoch", "sondern"]),
    (Fr, &["alors", "cependant", "donc", "ensuite", "mais", "pourtant", "puis"]),
    (Es, &["asi que", "aunque", "despues", "entonces", "luego", "pero", "sino"]),
    (Pt, &["contudo", "depois", "entao", "porem", "portanto"]),
    (It, &["allora", "dopo", "invece", "ma", "pero", "poi", "quindi", "tuttavia"]),
    (Nl, &["daarna", "dus", "echter", "maar", "toen", "vervolgens"]),
];

/// A "not" or a wait word carries over one comma into a clause that starts with one of
/// these ("Ich will nicht, dass du pushst").
#[rustfmt::skip]
pub const CARRY: Table = &[
    (En, &["that"]),
    (De, &["dass"]),
    (Fr, &["que"]),
    (Es, &["que"]),
    (Pt, &["que"]),
    (It, &["che"]),
    (Nl, &["dat"]),
];

/// An infinitive governed from before a comma, right before the act: a "not" or a wait
/// word carries over the comma to it ("Vermeide es, die Secrets zu loggen").
#[rustfmt::skip]
pub const INFINITIVE: Table = &[
    (En, &["so as to"]),
    (De, &["zu"]),
    (Fr, &["afin de"]),
    (Es, &["a fin de"]),
    (Pt, &["a fim de"]),
    (It, &["al fine di"]),
    (Nl, &["te"]),
];

/// "And": starts a new act, except right after one negated verb ("don't commit and push").
#[rustfmt::skip]
pub const AND: Table = &[
    (En, &["and"]),
    (De, &["und"]),
    (Fr, &["et"]),
    (Es, &["e", "y"]),
    (Pt, &["e"]),
    (It, &["e", "ed"]),
    (Nl, &["en"]),
];

/// "Before": what comes first is not held by it ("run the tests before pushing" asks for
/// the push), unless what comes first is the person ("ask me before pushing").
#[rustfmt::skip]
pub const BEFORE: Table = &[
    (En, &["before"]),
    (De, &["bevor", "ehe", "vor dem", "vorm"]),
    (Fr, &["avant", "avant de", "avant que"]),
    (Es, &["antes", "antes de", "antes de que", "antes que"]),
    (Pt, &["antes", "antes de", "antes que"]),
    (It, &["prima che", "prima di"]),
    (Nl, &["alvorens", "voor het", "voordat"]),
];

/// The person: right before a "before", the person comes first ("check with me before").
#[rustfmt::skip]
pub const PERSON: Table = &[
    (En, &["i'd", "i'll", "i'm", "me", "myself", "us"]),
    (De, &["ich", "mich", "mir", "uns"]),
    (Fr, &["je", "me", "moi", "nous"]),
    (Es, &["avisame", "consultame", "me", "mi", "nosotros", "preguntame", "yo"]),
    (Pt, &["eu", "me", "mim", "nos"]),
    (It, &["avvisami", "chiedimi", "io", "me", "mi", "noi", "sentimi"]),
    (Nl, &["ik", "me", "mij", "ons"]),
];

/// A question that asks whether to act, not for the act: at the start of a sentence that
/// ends with `?` ("should we push to main?", "sollen wir nach main pushen?", "faut-il
/// pousser sur main ?"), the act it names is neither asked for, held nor released. A
/// request put as a question ("can you push?", "kannst du pushen?") is not one of these.
#[rustfmt::skip]
pub const ADVICE: Table = &[
    (En, &["do i have to", "do i need to", "do we have to", "do we need to", "do you think", "is it a good idea to", "is it fine to", "is it ok to", "is it okay to", "is it safe to", "is it wise to", "ought i to", "ought we to", "shall i", "shall we", "should i", "should we", "what if i", "what if we", "would it be ok to", "would it be okay to", "would it be safe to", "would it be wise to"]),
    (De, &["denkst du", "glaubst du", "ist es ok", "ist es okay", "ist es sicher", "meinst du", "muss ich", "mussen wir", "soll ich", "sollen wir", "sollte ich", "sollten wir", "was wenn wir"]),
    (Fr, &["devrais je", "devrait on", "devrions nous", "doit on", "est ce prudent de", "est ce qu il faut", "est ce qu on devrait", "est ce que je devrais", "est ce sur de", "faut il", "penses tu", "tu penses"]),
    (Es, &["crees que", "deberia", "deberiamos", "es seguro", "hace falta", "tenemos que"]),
    (Pt, &["achas que", "devemos", "deveria", "deveriamos", "devo", "voce acha"]),
    (It, &["bisogna", "dovrei", "dovremmo", "e sicuro", "pensi che"]),
    (Nl, &["denk je", "is het ok", "is het veilig", "moet ik", "moeten we", "zou ik", "zouden we"]),
];

/// A state, not a wish: right before the act (a "not" or another of these between), the
/// act is something done, not asked or held ("I haven't run it", "j'ai supprimé").
#[rustfmt::skip]
pub const STATE: Table = &[
    (En, &["already", "been", "did", "had", "hadn't", "has", "hasn't", "hasnt", "have", "haven't", "havent", "i didn't", "i didnt", "i've", "they've", "was", "wasn't", "we didn't", "we didnt", "we've", "were", "weren't", "you've"]),
    (De, &["bereits", "hab", "habe", "haben", "habt", "hat", "hatte", "ist", "sind", "wurde", "wurden"]),
    (Fr, &["ai", "avais", "avait", "avez", "avons", "ca a", "deja", "elle a", "est", "etait", "ete", "il a", "on a", "ont", "qui a", "sont", "tu as"]),
    (Es, &["ha", "habia", "han", "has", "he", "hemos", "hice", "hicieron", "hicimos", "hiciste", "hizo"]),
    (Pt, &["fez", "fiz", "fizemos", "fizeste", "foi", "foram", "tem", "temos", "tenho", "tinha"]),
    (It, &["abbiamo", "avete", "e stato", "fatto", "gia", "ha", "hai", "hanno", "ho"]),
    (Nl, &["had", "heb", "hebben", "hebt", "heeft", "was", "werd"]),
];

/// Except: a name right after it is not named but ruled out ("everything except main").
#[rustfmt::skip]
pub const EXCEPT: Table = &[
    (En, &["apart from", "except", "except for", "excluding", "other than"]),
    (De, &["ausgenommen", "ausser", "bis auf"]),
    (Fr, &["a part", "excepte", "hormis", "sauf"]),
    (Es, &["excepto", "menos", "salvo"]),
    (Pt, &["exceto", "fora", "menos", "salvo"]),
    (It, &["eccetto", "fuorche", "salvo", "tranne"]),
    (Nl, &["behalve", "met uitzondering van", "uitgezonderd"]),
];

/// The word production (`Name::Production`).
#[rustfmt::skip]
pub const PROD_WORDS: Table = &[
    (En, &["prod", "production"]),
    (De, &["prod", "produktion", "produktionsserver", "produktionsumgebung", "produktiv", "produktive", "produktiven", "produktivserver", "produktivsystem", "produktivumgebung"]),
    (Fr, &["prod", "production"]),
    (Es, &["prod", "produccion"]),
    (Pt, &["prod", "producao"]),
    (It, &["prod", "produzione"]),
    (Nl, &["prod", "productie", "productieomgeving", "productieserver"]),
];

// ---------------------------------------------------------------------------------------
// The acts (WISHES): imperatives, infinitives, nouns. No past participles: "I pushed" is
// not a wish, and "I haven't pushed yet" is not a boundary.
// ---------------------------------------------------------------------------------------

#[rustfmt::skip]
const PUSH: Table = &[
    (En, &["be pushed", "push", "pushes", "pushing"]),
    (De, &["gepushed werden", "gepusht werden", "hochpushen", "push", "pushe", "pushen", "pushst", "pusht", "rauspushen"]),
    (Fr, &["etre pousse", "etre poussee", "etre pushe", "etre pushee", "pousse", "pousser", "pousserai", "pousserons", "pousses", "poussez", "poussons", "push", "pushe", "pusher", "pushez"]),
    (Es, &["empuja", "empujalo", "empujar", "empujes", "push", "pushea", "pushealo", "pushear", "pushees", "ser subida", "ser subido", "suban", "subas", "sube", "subela", "subelas", "subelo", "subelos", "subid", "subir", "subirlo", "subirlos"]),
    (Pt, &["empurra", "empurrar", "empurre", "envia", "enviar", "envie", "envies", "manda para", "manda pra", "manda pro", "mandar para", "mandar pra", "mandar pro", "push", "pushar", "ser enviada", "ser enviado", "sobe", "suba", "subir"]),
    (It, &["essere pushata", "essere pushato", "push", "pusha", "pushala", "pushali", "pushalo", "pushare", "pusharla", "pusharli", "pusharlo", "pushate"]),
    (Nl, &["gepusht te worden", "gepusht worden", "push", "pushen", "pusht"]),
];

#[rustfmt::skip]
const FORCE_PUSH: Table = &[
    (En, &["force push", "force pushes", "force pushing", "forced push", "forcepush", "overwrite", "overwrites", "overwriting", "push f", "push force", "rewrite history", "rewrite the history"]),
    (De, &["den push erzwingen", "erzwing den push", "erzwinge den push", "erzwungen pushen", "erzwungenen push", "erzwungener push", "force push", "force pushe", "force pushen", "forcepushen", "push erzwingen", "push force", "uberschreib", "uberschreibe", "uberschreiben", "ueberschreib", "ueberschreibe", "ueberschreiben"]),
    (Fr, &["ecrase", "ecraser", "ecrasez", "force le push", "force push", "forcer le push", "pousse en force", "pousser en force", "push force"]),
    (Es, &["force push", "forzar el push", "fuerza el push", "push force", "push forzado", "sobreescribe", "sobreescribir", "sobrescribe", "sobrescribelo", "sobrescribir"]),
    (Pt, &["forca o push", "forcar o push", "force push", "push forcado", "push force", "sobrescreva", "sobrescreve", "sobrescrever"]),
    (It, &["force push", "forza il push", "forzare il push", "push force", "push forzato", "sovrascrivere", "sovrascrivi", "sovrascrivilo"]),
    (Nl, &["de push forceren", "force push", "force pushen", "forceer de push", "forceer push", "geforceerd pushen", "geforceerde push", "overschrijf", "overschrijven", "push force", "push forceren"]),
];

#[rustfmt::skip]
const DEPLOY: Table = &[
    (En, &["applies", "apply", "applying", "be deployed", "be rolled out", "deploy", "deploying", "deployment", "deploys", "go live", "redeploy", "roll out", "rollout", "ship", "ship it", "shipping", "ships"]),
    (De, &["ausliefern", "ausrollen", "bereitstellen", "deploy", "deploye", "deployed werden", "deployen", "deployment", "deployst", "deployt werden", "liefere aus", "live schalten", "liveschalten", "roll aus", "rolle aus", "schalte live", "stelle bereit"]),
    (Fr, &["deploie", "deploiement", "deploies", "deploy", "deploye", "deployer", "deployez", "etre deploye", "etre deployee", "mets en ligne", "mets en prod", "mets en production", "mets la en ligne", "mets le en ligne", "mets les en ligne", "mettez en ligne", "mettez en prod", "mettre en ligne", "mettre en prod", "mettre en production", "mise en ligne", "mise en prod", "mise en production"]),
    (Es, &["deploy", "deployar", "deployea", "deployear", "desplegar", "desplegarlo", "despliega", "despliegala", "despliegalo", "despliegues", "pasa a produccion", "ser desplegada", "ser desplegado"]),
    (Pt, &["deploy", "deploya", "deployar", "implanta", "implantar", "implante", "implantes", "ser implantada", "ser implantado"]),
    (It, &["deploy", "deploya", "deployalo", "deployare", "essere deployata", "essere deployato", "mettere in produzione", "metti in prod", "metti in produzione", "rilascia", "rilascialo", "rilasciare"]),
    (Nl, &["deploy", "deployen", "deployt", "gedeployd worden", "gedeployed worden", "live zetten", "livezetten", "rol uit", "uitrol", "uitrollen", "zet live"]),
];

#[rustfmt::skip]
const INSTALL: Table = &[
    (En, &["be installed", "cargo add", "install", "installing", "installs", "npm add", "npm i", "pnpm add", "poetry add", "reinstall", "reinstalling", "uv add", "yarn add"]),
    (De, &["installier", "installiere", "installieren", "installiert werden", "neu installieren"]),
    (Fr, &["etre installe", "etre installee", "installe", "installer", "installes", "installez", "reinstalle", "reinstaller"]),
    (Es, &["instala", "instalala", "instalalo", "instalalos", "instalar", "instalarlo", "instales", "reinstala", "ser instalada", "ser instalado"]),
    (Pt, &["instala", "instalar", "instale", "instales", "reinstala", "reinstalar", "ser instalada", "ser instalado"]),
    (It, &["essere installata", "essere installato", "installa", "installala", "installali", "installalo", "installare", "installarlo", "installi", "reinstalla"]),
    (Nl, &["geinstalleerd worden", "herinstalleer", "installeer", "installeert", "installeren", "opnieuw installeren"]),
];

#[rustfmt::skip]
const DELETE: Table = &[
    (En, &["be deleted", "be removed", "delete", "deletes", "deleting", "drop", "dropping", "erase", "erasing", "get rid of", "remove", "removes", "removing", "rm", "trash", "wipe", "wiping"]),
    (De, &["droppe", "droppen", "entfern", "entferne", "entfernen", "geloescht werden", "geloscht werden", "loesch", "loesche", "loeschen", "loescht", "losch", "losche", "loschen", "loscht", "mach weg", "rm", "wegmachen"]),
    (Fr, &["efface", "effacer", "effaces", "effacez", "elimine", "eliminer", "eliminez", "enleve", "enlever", "enlevez", "etre supprime", "etre supprimee", "retire", "retirer", "retirez", "rm", "supprime", "supprimer", "supprimes", "supprimez"]),
    (Es, &["borra", "borrala", "borralas", "borralo", "borralos", "borrar", "borrarlo", "borres", "elimina", "eliminala", "eliminalo", "eliminalos", "eliminar", "eliminarlo", "elimines", "quita", "quitalo", "quitar", "quites", "remueve", "rm", "ser borrada", "ser borrado", "ser eliminada", "ser eliminado"]),
    (Pt, &["apaga", "apagar", "apague", "apagues", "deleta", "deletar", "delete", "elimina", "eliminar", "elimine", "exclua", "exclui", "excluir", "remova", "remove", "remover", "rm", "ser apagada", "ser apagado", "ser removida", "ser removido"]),
    (It, &["cancella", "cancellala", "cancellale", "cancellali", "cancellalo", "cancellare", "cancellarlo", "cancelli", "elimina", "eliminala", "eliminali", "eliminalo", "eliminare", "eliminarlo", "elimini", "essere cancellata", "essere cancellato", "essere eliminata", "essere eliminato", "rimuovere", "rimuovi", "rimuovilo", "rm"]),
    (Nl, &["delete", "deleten", "droppen", "gooi weg", "rm", "verwijder", "verwijderd te worden", "verwijderd worden", "verwijderen", "verwijdert", "weggooien", "wis", "wissen"]),
];

#[rustfmt::skip]
const CLEAN: Table = &[
    (En, &["clean", "clean out", "clean up", "cleaning", "cleans", "cleanup", "prune", "pruning", "purge", "purging"]),
    (De, &["aufraeumen", "aufraumen", "bereinig", "bereinige", "bereinigen", "mach sauber", "raeum auf", "raeume auf", "raum auf", "raume auf", "sauber machen", "saubermachen"]),
    (Fr, &["faire le menage", "fais le menage", "nettoie", "nettoyer", "nettoyez", "purge", "purger"]),
    (Es, &["haz limpieza", "limpia", "limpiala", "limpialo", "limpiar", "limpies", "purga", "purgar"]),
    (Pt, &["faca uma limpeza", "faz uma limpeza", "limpa", "limpar", "limpe", "limpes", "purga", "purgar"]),
    (It, &["fai pulizia", "pulire", "pulisci", "puliscilo", "ripulire", "ripulisci"]),
    (Nl, &["maak schoon", "opruimen", "opschonen", "ruim op", "schoon op", "schoonmaken"]),
];

#[rustfmt::skip]
const DISCARD: Table = &[
    (En, &["blow away", "discard", "discarding", "discards", "drop local changes", "drop my changes", "drop my stash", "drop the changes", "drop the stash", "drop the stashes", "drop this stash", "hard reset", "reset", "reset hard", "revert", "reverting", "start over", "throw away", "undo", "undo my changes", "undo the changes"]),
    (De, &["mach ruckgangig", "mach rueckgaengig", "reset", "resetten", "revert", "reverten", "ruckgangig machen", "rueckgaengig machen", "setz zuruck", "setz zurueck", "setze zuruck", "setze zurueck", "verwerfen", "verwirf", "wegwerfen", "wirf weg", "zurucksetzen", "zuruecksetzen"]),
    (Fr, &["abandonne les changements", "abandonne les modifications", "annule les changements", "annule les modifications", "annuler les modifications", "defais", "jeter", "jette", "reinitialise", "reinitialiser", "reset", "revert"]),
    (Es, &["descarta", "descartalo", "descartalos", "descartar", "descartes", "deshacer", "deshaz", "resetea", "resetear", "revertir", "revierte", "tira los cambios"]),
    (Pt, &["descarta", "descartar", "descarte", "desfaca", "desfaz", "desfazer", "joga fora", "reseta", "resetar", "reverte", "reverter"]),
    (It, &["annulla le modifiche", "butta via", "buttare via", "buttate via", "reset", "resetta", "resettare", "revert", "ripristina", "scarta", "scartale", "scartali", "scartalo", "scartare"]),
    (Nl, &["draai terug", "gooi weg", "maak ongedaan", "ongedaan maken", "reset", "resetten", "revert", "terugdraaien", "verwerp", "verwerpen"]),
];

#[rustfmt::skip]
const SEND: Table = &[
    (En, &["approve", "approving", "be emailed", "be sent", "comment", "commenting", "comments on", "direct message", "dm", "e mail", "e mailing", "email", "emailing", "forward", "forwarding", "mail it", "messaging", "open a pr", "open a pull request", "open the pr", "open the pull request", "post in", "post it", "post on", "post that", "post them", "post this", "post to", "replies", "reply", "replying", "respond", "responding", "send", "sending", "sends", "transfer", "upload", "uploading", "uploads", "write in", "write to"]),
    (De, &["antworte", "antworten", "approve", "approven", "genehmige", "genehmigen", "hochladen", "kommentier", "kommentiere", "kommentieren", "kommentierst", "lade hoch", "leite weiter", "mail", "maile", "mailen", "mailst", "post in", "poste", "poste in", "posten", "schick", "schicke", "schicken", "schreib an", "schreib in", "schreib ins", "schreibe an", "schreibe in", "schreibe ins", "sende", "senden", "ubertrage", "ubertragen", "uebertrage", "uebertragen", "verschick", "verschicke", "verschicken", "weiterleiten"]),
    (Fr, &["approuve", "approuver", "approuvez", "commente", "commenter", "commentes", "commentez", "ecrire a", "ecrire dans", "ecris a", "ecris dans", "ecrivez a", "ecrivez dans", "envoie", "envoies", "envoyer", "envoyez", "mail", "poste", "poster", "postez", "repondez", "repondre", "reponds", "televerse", "televerser", "transfere", "transferer", "upload", "uploade", "uploader"]),
    (Es, &["aprobar", "aprueba", "apruebes", "comenta", "comentar", "comentes", "contesta", "contestale", "contestar", "envia", "enviala", "envialo", "envialos", "enviamos", "enviar", "enviarlo", "enviaselo", "envies", "escribas a", "escribas en", "escribe a", "escribe en", "escribele", "escribir a", "escribir en", "manda", "mandala", "mandale", "mandales", "mandalo", "mandamos", "mandar", "mandaselo", "mandes", "postea", "postear", "postees", "reenvia", "responde", "respondele", "responder", "suban", "subas", "sube", "subelo", "subir"]),
    (Pt, &["aprova", "aprovar", "aprove", "aproves", "carrega", "carregar", "carregue", "carregues", "comenta", "comentar", "comente", "comentes", "encaminha", "encaminhar", "envia", "enviamos", "enviar", "envie", "escrevas a", "escrevas no", "escrevas para", "escreve a", "escreve na", "escreve no", "escreve para", "escrever a", "escrever no", "escrever para", "manda", "manda para", "manda pra", "manda pro", "mandamos", "mandar", "mandar para", "mandar pra", "mandar pro", "mande", "postar", "poste", "postes", "responda", "responde", "responder", "sobe", "subir"]),
    (It, &["approva", "approvare", "approvi", "carica", "caricalo", "caricare", "commenta", "commentare", "commenti", "inoltra", "inoltrare", "invia", "inviala", "invialo", "inviamo", "inviare", "inviarlo", "invii", "manda", "mandalo", "mandare", "mandi", "mandiamo", "posta", "posta in", "posta su", "postare", "posti", "rispondere", "rispondi", "rispondigli", "scrivere a", "scrivere ad", "scrivere in", "scrivere su", "scrivi a", "scrivi ad", "scrivi in", "scrivi su", "scrivigli", "scrivile"]),
    (Nl, &["antwoord", "beantwoord", "beantwoorden", "doorsturen", "goedkeuren", "keur goed", "mail", "mailen", "mailt", "post", "post in", "post op", "posten", "reageer", "reageer op", "reageert", "reageren", "schrijf aan", "schrijf in", "schrijf naar", "sturen", "stuur", "stuur door", "stuurt", "upload", "uploaden", "versturen", "verstuur", "verstuurt", "verzend", "verzenden", "verzendt"]),
];

#[rustfmt::skip]
const COPY: Table = &[
    (En, &["copies", "copy", "copying", "cp", "duplicate"]),
    (De, &["cp", "dupliziere", "duplizieren", "kopier", "kopiere", "kopieren"]),
    (Fr, &["copie", "copier", "copiez", "cp", "duplique", "dupliquer"]),
    (Es, &["copia", "copiala", "copialo", "copialos", "copiar", "copies", "cp", "duplica", "duplicar"]),
    (Pt, &["copia", "copiar", "copie", "cp", "duplica", "duplicar"]),
    (It, &["copia", "copiala", "copiali", "copialo", "copiare", "cp", "duplica", "duplicare"]),
    (Nl, &["cp", "dupliceer", "dupliceren", "kopieer", "kopieert", "kopieren"]),
];

/// Not "sube" or "envía": they push and send, they don't publish a package.
#[rustfmt::skip]
const PUBLISH: Table = &[
    (En, &["be published", "be released", "cut a release", "do a release", "make a release", "new release", "publish", "publishes", "publishing", "release a new", "release it", "release that", "release the crate", "release the gem", "release the library", "release the new version", "release the package", "release this", "ship a release"]),
    (De, &["publish", "publishen", "release das", "release es", "releasen", "veroeffentlich", "veroeffentliche", "veroeffentlichen", "veroffentlich", "veroffentliche", "veroffentlichen"]),
    (Fr, &["fais une release", "publie", "publier", "publies", "publiez", "sors une release", "sors une version"]),
    (Es, &["publica", "publicala", "publicalo", "publicar", "publicarlo", "publiques", "saca una release", "saca una version"]),
    (Pt, &["faz uma release", "lanca uma versao", "publica", "publicar", "publique", "publiques"]),
    (It, &["fai una release", "pubblica", "pubblicala", "pubblicalo", "pubblicare", "pubblicarlo", "rilascia una versione"]),
    (Nl, &["maak een release", "publiceer", "publiceert", "publiceren", "release het", "releasen"]),
];

#[rustfmt::skip]
const UPDATE: Table = &[
    (En, &["add", "adding", "bump", "bumping", "bumps", "change", "configure", "configuring", "point", "repoint", "set", "switch", "update", "updates", "updating", "upgrade", "upgrades", "upgrading"]),
    (De, &["aendere", "aendern", "aktualisier", "aktualisiere", "aktualisieren", "andere", "andern", "bump", "bumpen", "festlegen", "fueg hinzu", "fuege hinzu", "fug hinzu", "fuge hinzu", "hinzu", "hinzufuegen", "hinzufugen", "konfiguriere", "konfigurieren", "lege fest", "setz", "setze", "setzen", "update", "updaten", "upgrade", "upgraden"]),
    (Fr, &["actualise", "actualiser", "ajoute", "ajouter", "ajoutez", "change", "changer", "configure", "configurer", "configurez", "definir", "definis", "definissez", "maj", "mets a jour", "mettez a jour", "mettre a jour", "mise a jour", "modifie", "modifier", "regle", "regler", "update", "upgrade"]),
    (Es, &["actualices", "actualiza", "actualizala", "actualizalo", "actualizalos", "actualizar", "agrega", "agregalo", "agregame", "agregar", "anade", "anadelo", "anademe", "anadir", "cambia", "cambiar", "configura", "configurar", "configures", "definas", "define", "definir", "establece", "establecer", "establezcas", "update"]),
    (Pt, &["adiciona", "adicionar", "altera", "alterar", "atualiza", "atualizar", "atualize", "atualizes", "configura", "configurar", "configure", "defina", "define", "definir", "muda", "mudar", "update"]),
    (It, &["aggiorna", "aggiornala", "aggiornali", "aggiornalo", "aggiornare", "aggiungere", "aggiungermi", "aggiungi", "aggiungila", "aggiungili", "aggiungilo", "aggiungimi", "cambia", "cambiare", "configura", "configurare", "definire", "definisci", "imposta", "impostare", "modifica", "modificare", "update"]),
    (Nl, &["bijwerken", "configureer", "configureren", "instellen", "stel", "stel in", "toevoegen", "update", "updaten", "upgrade", "upgraden", "verander", "veranderen", "voeg", "voeg toe", "werk bij", "wijzig", "wijzigen", "zet", "zetten"]),
];

/// Installing with a script runs it ("install it with the script at get.example.sh").
#[rustfmt::skip]
const RUN: Table = &[
    (En, &["exec", "execute", "executes", "executing", "install", "kick off", "launch", "rerun", "run", "running", "runs"]),
    (De, &["ausfuehren", "ausfuhren", "fuehr aus", "fuehre aus", "fuhr aus", "fuhre aus", "installiere", "installieren", "lass laufen", "run", "starte", "starten"]),
    (Fr, &["execute", "executer", "executez", "fais tourner", "installe", "installer", "lance", "lancer", "lancez"]),
    (Es, &["corre", "correlo", "correr", "ejecuta", "ejecutalo", "ejecutar", "ejecutes", "instala", "instalar", "lanza", "lanzalo", "lanzar", "run"]),
    (Pt, &["corre", "correr", "executa", "executar", "execute", "instala", "instalar", "roda", "rodar", "rode", "rodes"]),
    (It, &["avvia", "avvialo", "avviare", "esegui", "eseguilo", "eseguire", "installa", "installare", "lancia", "lancialo", "lanciare"]),
    (Nl, &["draai", "draaien", "installeer", "installeren", "runnen", "start", "starten", "uitvoeren", "voer uit"]),
];

#[rustfmt::skip]
const DESTROY: Table = &[
    (En, &["delete the cluster", "delete the old stack", "delete the stack", "destroy", "destroying", "destroys", "drop database", "drop table", "drop the database", "drop the table", "nuke", "tear down", "tear it down", "teardown", "wipe the database"]),
    (De, &["abreissen", "drop database", "drop table", "platt machen", "plattmachen", "reiss ab", "vernichte", "vernichten", "zerstoer", "zerstoere", "zerstoeren", "zerstor", "zerstore", "zerstoren"]),
    (Fr, &["demolir", "demolis", "detruire", "detruis", "detruisez", "supprime la base"]),
    (Es, &["borra la base de datos", "destruir", "destruyas", "destruye", "destruyelo", "tumba"]),
    (Pt, &["derruba", "derrube", "destroi", "destrua", "destruas", "destruir"]),
    (It, &["abbatti", "butta giu", "distruggere", "distruggi", "distruggilo"]),
    (Nl, &["afbreken", "breek af", "sloop", "slopen", "vernietig", "vernietigen"]),
];

#[rustfmt::skip]
const RESTART: Table = &[
    (En, &["be restarted", "bounce", "kill", "killing", "kills", "reboot", "rebooting", "reload", "restart", "restarting", "restarts"]),
    (De, &["beende", "beenden", "kill", "killen", "neu gestartet werden", "neu starten", "neustart", "neustarten", "reboote", "rebooten", "starte neu"]),
    (Fr, &["etre redemarre", "etre redemarree", "kill", "reboot", "rebooter", "redemarre", "redemarrer", "redemarrez", "relance", "relancer", "relancez", "tuer", "tuez"]),
    (Es, &["kill", "mata", "matalos", "matar", "reboot", "rebootea", "reinicia", "reinicialo", "reiniciar", "reinicies", "ser reiniciada", "ser reiniciado"]),
    (Pt, &["kill", "mata", "matar", "reboot", "reboota", "reinicia", "reiniciar", "reinicie", "ser reiniciada", "ser reiniciado"]),
    (It, &["ammazza", "essere riavviata", "essere riavviato", "kill", "killa", "reboot", "reboota", "riavvia", "riavvialo", "riavviare", "termina", "terminare", "uccidi"]),
    (Nl, &["beeindig", "beeindigen", "herstart", "herstart te worden", "herstart worden", "herstarten", "kill", "killen", "opnieuw opstarten", "reboot", "rebooten", "start opnieuw"]),
];

/// Not French "programme" (English "programme") or Portuguese "agenda" (English "agenda").
#[rustfmt::skip]
const SCHEDULE: Table = &[
    (En, &["cron", "cron job", "cron jobs", "cronjob", "cronjobs", "crontab", "schedule", "schedules", "scheduling"]),
    (De, &["cronjob", "cronjobs", "einplanen", "plan ein", "plane ein", "terminiere", "terminieren"]),
    (Fr, &["cron", "planifie", "planifier", "planifiez"]),
    (Es, &["agendalo", "agendar", "cron", "planifica", "planificalo", "planificar", "programala", "programalo", "programes"]),
    (Pt, &["agendamento", "agendar", "agende", "agendes", "cron"]),
    (It, &["cron", "pianifica", "pianificalo", "pianificare", "programmala", "programmalo", "schedula", "schedulare"]),
    (Nl, &["cronjob", "cronjobs", "inplannen", "plan in", "schedule", "schedulen"]),
];

/// Not French "ignore" (English "ignore").
#[rustfmt::skip]
const SAFETY: Table = &[
    (En, &["bypass", "bypassing", "deactivate", "disable", "disables", "disabling", "no verify", "skip ci", "skip hooks", "skip the checks", "skip the hooks", "skip verification", "switch off", "turn off", "turning off"]),
    (De, &["abschalten", "ausschalten", "deaktivier", "deaktiviere", "deaktivieren", "no verify", "schalte ab", "schalte aus", "umgehe", "umgehen"]),
    (Fr, &["contourne", "contourner", "desactive", "desactiver", "desactivez", "no verify"]),
    (Es, &["apaga", "desactiva", "desactivala", "desactivalo", "desactivar", "desactives", "no verify", "salta los hooks", "saltate los hooks"]),
    (Pt, &["contorna", "contornar", "desativa", "desativar", "desative", "desliga", "desligar", "desligue", "no verify", "pula os hooks"]),
    (It, &["aggira", "aggirare", "disabilita", "disabilitalo", "disabilitare", "disattiva", "disattivalo", "disattivare", "no verify", "salta gli hook", "spegnere", "spegni"]),
    (Nl, &["deactiveer", "deactiveren", "no verify", "omzeil", "omzeilen", "schakel uit", "uitschakelen", "uitzetten", "zet uit"]),
];

/// Not French "accessible" (English "accessible").
#[rustfmt::skip]
const ACCESS: Table = &[
    (En, &["access", "add as collaborator", "add collaborator", "chmod", "give access", "grant", "granting", "grants", "invite", "inviting", "share", "shares", "sharing"]),
    (De, &["berechtigung", "berechtigungen", "chmod", "einladen", "freigeben", "gib frei", "gib zugriff", "lade ein", "teil", "teile", "teile das", "teile den", "teile die", "teile es", "teilen", "zugriff"]),
    (Fr, &["acces", "accorde", "accorder", "chmod", "donne acces", "invite", "inviter", "partage", "partager", "partagez"]),
    (Es, &["acceso", "chmod", "compartas", "comparte", "compartelo", "compartir", "concede", "conceder", "da acceso", "dale acceso", "invita", "invitar", "invites"]),
    (Pt, &["acesso", "chmod", "compartilha", "compartilhar", "compartilhe", "compartilhes", "concede", "conceder", "convida", "convidar", "convide", "convides", "da acesso", "partilha", "partilhar", "partilhes"]),
    (It, &["accesso", "chmod", "concedere", "concedi", "condividere", "condividi", "condividilo", "dai accesso", "invita", "invitare"]),
    (Nl, &["chmod", "deel", "deel de", "deel deze", "deel dit", "deel het", "delen", "geef toegang", "nodig uit", "toegang", "uitnodigen"]),
];

#[rustfmt::skip]
const MERGE: Table = &[
    (En, &["be merged", "land the pr", "land this pr", "merge", "merges", "merging"]),
    (De, &["fuehr zusammen", "fuehre zusammen", "fuhr zusammen", "fuhre zusammen", "gemerged werden", "gemergt werden", "merg", "merge", "mergen", "mergst", "mergt", "zusammenfuehren", "zusammenfuhren"]),
    (Fr, &["etre fusionne", "etre fusionnee", "etre merge", "etre mergee", "fusionne", "fusionner", "fusionnes", "fusionnez", "merge", "merger", "mergez"]),
    (Es, &["fusiona", "fusionalo", "fusionar", "fusiones", "merge", "mergea", "mergealo", "mergear", "mergees", "ser fusionada", "ser fusionado", "ser mergeada", "ser mergeado"]),
    (Pt, &["funde", "fundir", "merge", "mergear", "mergeia", "mescla", "mesclar", "mescle", "mescles", "ser mergeada", "ser mergeado"]),
    (It, &["essere mergiata", "essere mergiato", "merge", "mergia", "mergialo", "mergiare", "unisci"]),
    (Nl, &["gemergd worden", "gemerged te worden", "gemerged worden", "merge", "mergen", "merget", "samenvoegen", "voeg samen"]),
];

#[rustfmt::skip]
const MIRROR: Table = &[
    (En, &["mirror", "mirroring", "mirrors", "push mirror"]),
    (De, &["mirror", "mirrorn", "spiegel", "spiegeln", "spiegle"]),
    (Fr, &["fais un miroir", "miroir", "mirror", "mirrore"]),
    (Es, &["espejo", "haz un espejo", "mirror", "replica", "replicalo", "replicar"]),
    (Pt, &["espelha", "espelhar", "espelhe", "espelho", "mirror"]),
    (It, &["mirror", "replica", "replicare", "specchia", "specchiare"]),
    (Nl, &["mirror", "mirroren", "spiegel", "spiegelen", "spiegelt"]),
];

#[rustfmt::skip]
const PUBLIC: Table = &[
    (En, &["expose", "exposes", "exposing", "make it public", "ngrok", "open it to the world", "open to the internet", "public", "publicly", "tunnel"]),
    (De, &["oeffentlich", "oeffentliche", "oeffentlichen", "offentlich", "offentliche", "offentlichen"]),
    (Fr, &["expose", "exposer", "exposez", "public", "publique", "publiquement"]),
    (Es, &["expon", "exponer", "exponlo", "hazlo publico", "publica", "publicamente", "publico"]),
    (Pt, &["expoe", "exponha", "expor", "publica", "publicamente", "publico", "torna publico"]),
    (It, &["esponi", "esponilo", "esporre", "pubblica", "pubblicamente", "pubblico", "rendilo pubblico"]),
    (Nl, &["blootstellen", "maak openbaar", "openbaar", "publiek", "stel bloot"]),
];

#[rustfmt::skip]
const SECRETS: Table = &[
    (En, &["api key", "api keys", "credential", "credentials", "dotenv", "env file", "password", "passwords", "private key", "secret", "secrets", "ssh key", "ssh keys", "token", "tokens"]),
    (De, &["api schluessel", "api schlussel", "geheimnis", "geheimnisse", "passwoerter", "passwort", "passworter", "schluessel", "schlussel", "token", "zugangsdaten"]),
    (Fr, &["cle api", "cle privee", "cle ssh", "cles", "identifiants", "jeton", "jetons", "mot de passe", "mots de passe", "secret", "secrets"]),
    (Es, &["clave api", "clave privada", "clave ssh", "claves", "contrasena", "contrasenas", "credenciales", "secreto", "secretos", "token"]),
    (Pt, &["chave api", "chave privada", "chave ssh", "chaves", "credenciais", "segredo", "segredos", "senha", "senhas", "token"]),
    (It, &["chiave api", "chiave privata", "chiave ssh", "chiavi", "credenziali", "password", "segreti", "segreto", "token"]),
    (Nl, &["api sleutel", "geheim", "geheimen", "sleutel", "sleutels", "token", "wachtwoord", "wachtwoorden"]),
];

/// Creating, adding, appending, editing, moving, renaming, saving or rescheduling something
/// in an app: how a person asks for an app's change whose name says no other act ("create
/// a calendar event on 2024-05-19 with Sarah", "append the recipe to recipes.txt"). Only
/// app steps use it, and they need the names of what they change.
#[rustfmt::skip]
const CHANGE: Table = &[
    (En, &["add", "adding", "append", "appending", "book", "change", "changing", "close", "closing", "create", "creates", "creating", "edit", "editing", "fill in", "insert", "modify", "move", "moving", "open", "put", "rename", "renaming", "reopen", "reschedule", "reserve", "save", "schedule", "set", "update", "updating", "write", "writing"]),
    (De, &["aendern", "aktualisiere", "aktualisieren", "andern", "anhaengen", "anhangen", "anlegen", "bearbeite", "bearbeiten", "eintragen", "erstelle", "erstellen", "fuege hinzu", "fuge hinzu", "hinzufuegen", "hinzufugen", "lege an", "reserviere", "reservieren", "schliess", "schliesse", "schliessen", "schreibe", "schreiben", "speichere", "speichern", "trage ein", "umbenennen", "verschiebe", "verschieben"]),
    (Fr, &["ajoute", "ajouter", "ajoutez", "change", "changer", "cree", "creer", "creez", "deplace", "deplacer", "ecrire", "ecris", "enregistre", "enregistrer", "ferme", "fermer", "fermez", "mets a jour", "mettre a jour", "modifie", "modifier", "renomme", "renommer", "reprogramme", "reprogrammer", "reserve", "reserver"]),
    (Es, &["actualiza", "actualizar", "agrega", "agregar", "anade", "anadir", "cambia", "cambiar", "cerrar", "cierra", "crea", "crear", "edita", "editar", "escribe", "escribir", "guarda", "guardar", "modifica", "modificar", "mover", "mueve", "renombra", "renombrar", "reprograma", "reprogramar", "reserva", "reservar"]),
    (Pt, &["acrescenta", "acrescentar", "adiciona", "adicionar", "altera", "alterar", "atualiza", "atualizar", "cria", "criar", "edita", "editar", "escreve", "escrever", "fecha", "fechar", "feche", "modifica", "modificar", "move", "mover", "reagenda", "reagendar", "renomear", "renomeia", "reserva", "reservar", "salva", "salvar"]),
    (It, &["aggiorna", "aggiornare", "aggiungere", "aggiungi", "cambia", "cambiare", "chiudere", "chiudi", "crea", "creare", "modifica", "modificare", "prenota", "prenotare", "rinomina", "rinominare", "salva", "salvare", "scrivere", "scrivi", "sposta", "spostare"]),
    (Nl, &["aanmaken", "bewerk", "bewerken", "bijwerken", "hernoem", "hernoemen", "maak", "maak aan", "opslaan", "reserveer", "reserveren", "schrijf", "schrijven", "sla op", "sluit", "sluiten", "toevoegen", "verplaats", "verplaatsen", "voeg toe", "werk bij", "wijzig", "wijzigen"]),
];

/// Every act's words, one table per act.
pub const WISHES: [(Act, Table); 22] = [
    (Act::Push, PUSH),
    (Act::ForcePush, FORCE_PUSH),
    (Act::Deploy, DEPLOY),
    (Act::Install, INSTALL),
    (Act::Delete, DELETE),
    (Act::Clean, CLEAN),
    (Act::Discard, DISCARD),
    (Act::Send, SEND),
    (Act::Copy, COPY),
    (Act::Publish, PUBLISH),
    (Act::Update, UPDATE),
    (Act::Run, RUN),
    (Act::Destroy, DESTROY),
    (Act::Restart, RESTART),
    (Act::Schedule, SCHEDULE),
    (Act::Safety, SAFETY),
    (Act::Access, ACCESS),
    (Act::Merge, MERGE),
    (Act::Mirror, MIRROR),
    (Act::Public, PUBLIC),
    (Act::Secrets, SECRETS),
    (Act::Change, CHANGE),
];

/// What a step would bring or do, named as a thing rather than asked for: a "not" over it
/// holds the act ("no new dependencies", "keine neuen Pakete", "nothing leaves this
/// machine"), but naming it asks for nothing ("the left-pad package is broken" asks for no
/// install). No entry is in [`WISHES`].
#[rustfmt::skip]
const INSTALL_NOUNS: Table = &[
    (En, &["dependencies", "dependency", "deps", "installation", "installations", "libraries", "library", "libs", "package", "packages"]),
    (De, &["abhaengigkeit", "abhaengigkeiten", "abhangigkeit", "abhangigkeiten", "bibliothek", "bibliotheken", "installation", "installationen", "paket", "pakete", "paketen"]),
    (Fr, &["bibliotheque", "bibliotheques", "dependance", "dependances", "installation", "installations", "librairies", "paquet", "paquets"]),
    (Es, &["biblioteca", "bibliotecas", "dependencia", "dependencias", "instalacion", "instalaciones", "libreria", "librerias", "paquete", "paquetes"]),
    (Pt, &["biblioteca", "bibliotecas", "dependencia", "dependencias", "instalacao", "instalacoes", "pacote", "pacotes"]),
    (It, &["dipendenza", "dipendenze", "installazione", "installazioni", "libreria", "librerie", "pacchetti", "pacchetto"]),
    (Nl, &["afhankelijkheden", "afhankelijkheid", "bibliotheek", "bibliotheken", "dependencies", "dependency", "installatie", "installaties", "libraries", "pakket", "pakketten"]),
];

#[rustfmt::skip]
const LEAVES: Table = &[
    (En, &["approvals", "dms", "e mails", "emails", "get anything", "gets anything", "leave my computer", "leave my machine", "leave this computer", "leave this machine", "leaves my computer", "leaves my machine", "leaves this computer", "leaves this machine", "mails", "merge request", "message", "messages", "outbound", "outgoing", "pull request", "pull requests"]),
    (De, &["ausgehend", "ausgehende", "ausgehenden", "bekommt", "diese maschine verlassen", "diesen rechner verlassen", "direktnachricht", "direktnachrichten", "e mails", "emails", "erhaelt", "erhalt", "kriegt", "mails", "meinen rechner verlassen", "nachricht", "nachrichten", "verlaesst diese maschine", "verlaesst diesen rechner", "verlaesst meinen rechner", "verlasst diese maschine", "verlasst diesen rechner", "verlasst meinen rechner"]),
    (Fr, &["courriel", "courriels", "e mails", "emails", "mails", "message", "messages", "quitte cette machine", "quitter cette machine", "recevoir", "recoit", "sort de cette machine", "sort de ma machine", "sortant", "sortante", "sortantes", "sortants", "sortir de cette machine", "sortir de ma machine"]),
    (Es, &["correo", "correos", "emails", "mensaje", "mensajes", "recibe", "recibir", "sale de esta maquina", "sale de mi maquina", "salga", "salga de esta maquina", "salga de mi maquina", "saliente", "salientes", "salir de esta maquina", "salir de mi maquina"]),
    (Pt, &["de saida", "e mails", "emails", "mensagem", "mensagens", "recebe", "receber", "sai da minha maquina", "sai desta maquina", "saia da minha maquina", "saia desta maquina", "sair da minha maquina", "sair desta maquina"]),
    (It, &["esca da questa macchina", "esca dalla mia macchina", "esce da questa macchina", "esce dalla mia macchina", "in uscita", "messaggi", "messaggio", "riceve", "ricevere", "uscire da questa macchina", "uscire dalla mia macchina"]),
    (Nl, &["bericht", "berichten", "deze machine verlaten", "e mails", "emails", "krijgt", "mails", "mijn machine verlaten", "ontvangt", "uitgaand", "uitgaande", "verlaat deze machine", "verlaat mijn machine"]),
];

/// Restarts named as a thing ("no restarts", "keine Neustarts", "niente riavvii"), and what
/// a wait word keeps running ("laisse nginx tourner", "deja nginx
/// corriendo").
#[rustfmt::skip]
const RESTART_NOUNS: Table = &[
    (En, &["reboots"]),
    (De, &["neustarts"]),
    (Fr, &["redemarrage", "redemarrages", "tourner"]),
    (Es, &["corriendo", "reinicio", "reinicios"]),
    (Pt, &["a correr", "reinicio", "reinicios", "rodando"]),
    (It, &["girare", "in esecuzione", "riavvii", "riavvio"]),
    (Nl, &["herstarts"]),
];

/// Resets named as a thing ("no hard resets", "keine Resets").
#[rustfmt::skip]
const DISCARD_NOUNS: Table = &[
    (En, &["hard resets", "resets"]),
    (De, &["resets"]),
    (Fr, &["resets"]),
    (Es, &["resets"]),
    (Pt, &["resets"]),
    (It, &["resets"]),
    (Nl, &["resets"]),
];

/// Who a grant would reach, named as a thing ("no new collaborators", "keine neuen
/// Mitwirkenden").
#[rustfmt::skip]
const ACCESS_NOUNS: Table = &[
    (En, &["collaborator", "collaborators", "contributors", "invitations", "maintainers"]),
    (De, &["einladung", "einladungen", "mitarbeiter", "mitwirkende", "mitwirkenden"]),
    (Fr, &["collaborateur", "collaborateurs", "contributeurs", "invitation", "invitations"]),
    (Es, &["colaborador", "colaboradores", "invitacion", "invitaciones"]),
    (Pt, &["colaborador", "colaboradores", "convite", "convites"]),
    (It, &["collaboratore", "collaboratori", "inviti", "invito"]),
    (Nl, &["collaborators", "medewerkers", "uitnodiging", "uitnodigingen"]),
];

/// What runs by itself later: a "not" over it holds a schedule ("nothing should run by
/// itself", "nichts soll automatisch laufen", "rien ne doit tourner tout seul").
#[rustfmt::skip]
const SCHEDULE_NOUNS: Table = &[
    (En, &["automatically", "by itself", "on its own"]),
    (De, &["automatisch", "von alleine", "von selbst"]),
    (Fr, &["automatiquement", "tout seul", "toute seule"]),
    (Es, &["automaticamente", "por si solo", "solo"]),
    (Pt, &["automaticamente", "sozinha", "sozinho"]),
    (It, &["automaticamente", "da sola", "da solo"]),
    (Nl, &["automatisch", "vanzelf"]),
];

/// What a push would take off this machine, kept here ("keep it local").
#[rustfmt::skip]
const KEPT_LOCAL: Table = &[
    (En, &["local", "locally", "on my computer", "on my laptop", "on my machine", "on this machine"]),
    (De, &["auf dieser maschine", "auf meinem laptop", "auf meinem rechner", "auf meiner maschine", "lokal"]),
    (Fr, &["en local", "sur cette machine", "sur ma machine", "sur mon laptop", "sur mon ordinateur"]),
    (Es, &["en esta maquina", "en local", "en mi maquina", "en mi ordenador", "en mi portatil"]),
    (Pt, &["local", "localmente", "na minha maquina", "nesta maquina", "no meu computador", "no meu portatil"]),
    (It, &["in locale", "su questa macchina", "sul mio computer", "sul mio portatile", "sulla mia macchina"]),
    (Nl, &["lokaal", "op deze machine", "op mijn computer", "op mijn laptop", "op mijn machine"]),
];

/// What a discard would throw away, kept ("keep my local changes").
#[rustfmt::skip]
const KEPT_CHANGES: Table = &[
    (En, &["local changes", "my changes", "my edits", "my local changes", "the changes", "uncommitted changes"]),
    (De, &["aenderungen", "anderungen", "meine aenderungen", "meine anderungen", "meine lokalen aenderungen", "meine lokalen anderungen"]),
    (Fr, &["les modifications", "mes changements", "mes modifications", "mes modifications locales"]),
    (Es, &["los cambios", "mis cambios", "mis cambios locales"]),
    (Pt, &["as alteracoes", "as minhas alteracoes", "as minhas alteracoes locais", "minhas alteracoes"]),
    (It, &["le mie modifiche", "le mie modifiche locali", "le modifiche"]),
    (Nl, &["de wijzigingen", "mijn lokale wijzigingen", "mijn wijzigingen"]),
];

/// A pull request kept open, not merged ("leave the PR open", "lass den PR offen", "deja el
/// PR abierto", "lascia aperta la PR", "laat de PR open staan").
#[rustfmt::skip]
const KEPT_OPEN: Table = &[
    (En, &["pr open", "pull request open"]),
    (De, &["pr offen"]),
    (Fr, &["pr ouverte", "pull request ouverte"]),
    (Es, &["pr abierta", "pr abierto"]),
    (Pt, &["pr aberta", "pr aberto"]),
    (It, &["aperta la pr", "aperto il pr", "pr aperta", "pr aperto"]),
    (Nl, &["pr open", "pr open staan"]),
];

/// Left alone: what a keep word leaves so is not changed ("leave my config alone", "lass
/// meine Konfiguration in Ruhe", "laisse ma config tranquille").
#[rustfmt::skip]
pub const KEPT_ALONE: Table = &[
    (En, &["alone", "as is", "as it is", "as they are", "untouched"]),
    (De, &["in ruhe", "so wie es ist", "unangetastet", "unveraendert", "unverandert", "wie sie sind"]),
    (Fr, &["comme ca", "comme elle est", "comme elles sont", "comme il est", "comme ils sont", "intact", "intacte", "tranquille"]),
    (Es, &["como esta", "como estan", "en paz", "intacta", "intacto", "tranquila", "tranquilo"]),
    (Pt, &["como esta", "como estao", "em paz", "intacta", "intacto", "quieta", "quieto"]),
    (It, &["com e", "come sono", "in pace", "intatta", "intatto", "lascia stare", "stare"]),
    (Nl, &["met rust", "ongemoeid", "zoals het is", "zoals ze zijn"]),
];

/// What a send would take out, kept in ("keep the report private", "der Bericht bleibt
/// intern", "le rapport reste privé").
#[rustfmt::skip]
const KEPT_PRIVATE: Table = &[
    (En, &["confidential", "in house", "internal", "private", "quiet"]),
    (De, &["intern", "privat", "vertraulich"]),
    (Fr, &["confidentiel", "confidentielle", "en interne", "en silence", "interne", "prive", "privee"]),
    (Es, &["confidencial", "en silencio", "interno", "privada", "privado"]),
    (Pt, &["confidencial", "em silencio", "interna", "interno", "privada", "privado"]),
    (It, &["in silenzio", "interna", "interno", "privata", "privato", "riservata", "riservato"]),
    (Nl, &["intern", "prive", "stil", "vertrouwelijk"]),
];

/// What a process is kept doing, after what a keep word keeps ("keep celery alive", "lass
/// celery laufen", "houd nginx draaiende"). Not English "running" nor Dutch "draaien", which are
/// the words of a run ("keep running the tests"); "tourner", "corriendo", "rodando" and
/// "girare" hold after a wait word ([`RESTART_NOUNS`]: "laisse nginx tourner").
#[rustfmt::skip]
const KEPT_RUNNING: Table = &[
    (En, &["alive"]),
    (De, &["am laufen", "laufen"]),
    (Fr, &["en marche"]),
    (Es, &["en marcha", "funcionando"]),
    (Pt, &["em execucao", "funcionando"]),
    (It, &["attivo", "in funzione"]),
    (Nl, &["draaiende"]),
];

/// What a wish to keep holds, said as kept at the end of its clause ([`KEEP`]): held by that
/// alone, not by a "not" ("don't delete the local branch" holds no push), never asking.
pub const KEPT: [(Act, Table); 9] = [
    (Act::Update, KEPT_ALONE),
    (Act::Restart, KEPT_ALONE),
    (Act::Restart, KEPT_RUNNING),
    (Act::Send, KEPT_PRIVATE),
    (Act::Public, KEPT_PRIVATE),
    (Act::Access, KEPT_PRIVATE),
    (Act::Push, KEPT_LOCAL),
    (Act::Discard, KEPT_CHANGES),
    (Act::Merge, KEPT_OPEN),
];

/// Settings named as a thing, and touching them ("don't change any settings", "don't touch
/// my git config", "keine Einstellungen ändern", "non toccare la mia configurazione").
#[rustfmt::skip]
const UPDATE_NOUNS: Table = &[
    (En, &["config", "configuration", "permissions", "settings", "touch"]),
    (De, &["anfassen", "dateirechte", "einstellung", "einstellungen", "konfiguration", "rechte"]),
    (Fr, &["configuration", "parametres", "permissions", "reglage", "reglages", "touche", "toucher", "touchez"]),
    (Es, &["ajustes", "configuracion", "permisos", "tocar", "toques"]),
    (Pt, &["configuracao", "configuracoes", "definicoes", "mexa", "mexas", "mexer", "permissoes", "tocar", "toques"]),
    (It, &["configurazione", "impostazione", "impostazioni", "permessi", "toccare", "tocchi"]),
    (Nl, &["aankomen", "configuratie", "instelling", "instellingen", "permissies", "rechten"]),
];

/// Every act's words that hold but never ask ([`INSTALL_NOUNS`]).
pub const HOLDS_ONLY: [(Act, Table); 7] = [
    (Act::Update, UPDATE_NOUNS),
    (Act::Access, ACCESS_NOUNS),
    (Act::Schedule, SCHEDULE_NOUNS),
    (Act::Install, INSTALL_NOUNS),
    (Act::Send, LEAVES),
    (Act::Restart, RESTART_NOUNS),
    (Act::Discard, DISCARD_NOUNS),
];

/// The words of one act.
pub fn wish_words(act: Act) -> Table {
    WISHES
        .iter()
        .find(|(each, _)| *each == act)
        .map_or(&[], |(_, table)| *table)
}
